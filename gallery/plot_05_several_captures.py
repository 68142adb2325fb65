"""
A move with several captures
============================

One move can capture many times. North plays *E* (ten seeds). Lap 1 makes four
in South's *e* (South's, by ``ba-awa-owner-four``) and ends in *C*, which now
holds eleven and is relayed. Lap 2 makes four in North's *F* and in South's
*b*, *c* and *f* — each four goes to its pit's owner — and its last seed makes
four in *B*, which North, the mover, takes (``ba-awa-mover-four``). North's
move earns South 16 seeds and North 8.
"""
import matplotlib.pyplot as plt

import mancala_spec as ms
from mancala_spec.diagrams import layout, render

position = ms.get_game("ba-awa").parse("1,2,2,0,3,2/0,2,10,2,10,2 N 8-4 opener=S")
trace = position.trace("E")
for capture in trace.captures:
    print(capture.describe(position.game.board.name), f"[{capture.rule}]")
print("Resulting position:", trace.position.to_text())

render(layout(trace), plt.figure())

# %%
# The first lap with a capture on its own, as the rules site draws it for a
# phone (``metrics="phone"``: larger text and markers relative to the board):

close_up = layout(trace, metrics="phone")
lap = next(panel.number for panel in close_up.panels if panel.captures)
render(close_up, plt.figure(), panels=[lap], legend=False)
plt.show()

# sphinx_gallery_thumbnail_number = 2

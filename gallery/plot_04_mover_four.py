"""
The mover's four, across the board
==================================

When the **last** seed of a lap makes a pit hold exactly four, the four go to
the player who is moving, whichever side of the board the pit is on, and the
move ends (rule ``ba-awa-mover-four``). South plays *c*; lap 1 ends in *e*
(now three seeds), which is relayed; lap 2's last seed lands in North's pit
*B*, making four, and South takes them.
"""
import matplotlib.pyplot as plt

import mancala_spec as ms
from mancala_spec.diagrams import layout, render

position = ms.get_game("ba-awa").parse("1,0,2,0,2,0/1,3,2,2,1,2 S 16-16 opener=S")
trace = position.trace("c")
print(trace.describe())
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

"""
The eight-seed ending
=====================

When only eight seeds (or fewer) remain on the board after a move, the player
who made the game's opening move takes them and the game ends (rules
``ba-awa-eight`` and ``ba-awa-eight-timing``). Here South's move captures a
mover's four in *B*, leaving eight seeds; North opened this game, so North
takes all eight — the second panel shows what happens after the sowing.
"""
import matplotlib.pyplot as plt

import mancala_spec as ms
from mancala_spec.diagrams import layout, render

position = ms.get_game("ba-awa").parse("1,0,0,0,3,0/1,3,2,0,1,1 S 16-20 opener=N")
trace = position.trace("e")
print(trace.describe())
print("Resulting position:", trace.position.to_text())
print("Winner:", position.game.player_name(trace.position.winner))

render(layout(trace), plt.figure())

# %%
# The first lap with a capture on its own, as the rules site draws it for a
# phone (``metrics="phone"``: larger text and markers relative to the board):

close_up = layout(trace, metrics="phone")
lap = next(panel.number for panel in close_up.panels if panel.captures)
render(close_up, plt.figure(), panels=[lap], legend=False)
plt.show()

# sphinx_gallery_thumbnail_number = 2

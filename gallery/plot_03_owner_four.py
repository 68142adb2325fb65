"""
An owner's four during sowing
=============================

A drop that makes a pit hold exactly four seeds — other than the last seed of
a lap — gives those four to the pit's **owner** at once, and the sowing goes on
(rule ``ba-awa-owner-four``). Here South plays *c*: the first drop makes four
in South's own pit *d*, so South takes them; lap 2 (a relay from *f*) makes
four in North's pit *A*, so **North** takes those, although South is moving.
The last seed lands in the empty pit *C* and the move ends.
"""
import matplotlib.pyplot as plt

import mancala_spec as ms
from mancala_spec.diagrams import layout, render

position = ms.get_game("ba-awa").parse("1,0,3,3,0,2/3,1,0,3,3,1 S 12-16 opener=S")
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

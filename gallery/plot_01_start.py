"""
The starting boards
===================

Both games' starting positions as the engine builds them, drawn with
``mancala_spec.diagrams.draw_position``. North sits on top, as the players
see the board; South's pits *a*–*f* run left to right and North's *A*–*F* run
right to left, so sowing goes counter-clockwise. Pit shading (colour and
hatching) shows each pit's owner. Ba-awa's optional end stores hold captured
seeds (rule ``ba-awa-stores``). The sources put one at each end but do not say
whose is which (``ba-awa-stores``): the shading that gives each store to a
player is a choice of the drawing, not of the sources. Bakuk has no stores (``bakuk-board``).
"""
import matplotlib.pyplot as plt

import mancala_spec as ms
from mancala_spec.diagrams import draw_position

for name in ("ba-awa", "bakuk"):
    start = ms.get_game(name).start()
    print(f"{name}: {start.to_text()}")
    draw_position(start, plt.figure())

plt.show()

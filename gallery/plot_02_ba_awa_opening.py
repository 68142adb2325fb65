"""
Ba-awa's opening move
=====================

South opens by playing pit *a*. Its four seeds are sown into *b*–*e*; the last
one lands in *e*, which already held seeds, so *e*'s five seeds are lifted and
sown again from the next pit (rule ``ba-awa-relay``). Lap follows lap until the
last seed of a lap lands in an empty pit (``ba-awa-sowing-end``) — here after
five laps, in *c*, emptied when lap 4 lifted its seeds.

Each panel shows the board at the start of one lap: the yellow square is the
pit whose seeds are lifted, the numbered circles are the drops in order (the
black one is the lap's last seed), and ``→ n`` is a pit's count at the end of
the lap. Everything drawn is replayed from the engine's trace of the move.
"""
import matplotlib.pyplot as plt

import mancala_spec as ms
from mancala_spec.diagrams import layout, render

trace = ms.get_game("ba-awa").start().trace("a")
print(trace.describe())
print("Resulting position:", trace.position.to_text())

render(layout(trace), plt.figure())

# %%
# The first lap on its own, as the rules site draws it for a phone
# (``metrics="phone"``: larger text and markers relative to the board):

render(layout(trace, metrics="phone"), plt.figure(), panels=[1], legend=False)
plt.show()

# sphinx_gallery_thumbnail_number = 2

"""
The starting positions
======================

Both games' starting boards, as the engine builds them.
"""
import matplotlib.pyplot as plt

import mancala_spec as ms

fig, axes = plt.subplots(1, 2, figsize=(8, 2))
for ax, name in zip(axes, ["ba-awa", "bakuk"]):
    ax.set_title(name)
    ax.axis("off")
    ax.text(0.5, 0.5, str(ms.get_game(name).start()), family="monospace", ha="center", va="center",
            fontsize=7)
plt.show()

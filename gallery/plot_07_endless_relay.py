"""
An endless relay sowing, found by search
========================================

The sources say Ba-awa's relay sowing goes on until a lap's last seed lands in
an empty pit or makes four (rule ``ba-awa-sowing-end``). Sometimes neither ever
happens: the laps cycle forever. The sources are silent on this, so it is an
editorial completion (rule ``ba-awa-endless``): by default such a move is **not legal**; with the
option ``endless="stop"`` it is played and its sowing stops at the first lap
that starts again from a board and pit already seen in the move.

This script does not type such a position in: it plays random games (with a
fixed seed, so the result is reproducible) until the player to move has a pit
whose sowing never ends — the engine reports that as
``game.never_ends(pos, pit)``. It then plays that pit under ``endless="stop"``.
The table shows every lap, one row each: the pits' counts at the lap's start in sowing order, the
lifted pit outlined and the pit of the lap's last seed underlined. The last
row's end repeats an earlier state, so the relay could never end. The panels
after it draw the first two laps and the last one in full.
"""
import random

import matplotlib.pyplot as plt

import mancala_spec as ms
from mancala_spec.diagrams import layout, render, render_laps

game = ms.get_game("ba-awa")
rng = random.Random(1)


def find_endless(rng):
    """Play random games until a player to move has an endless relay sowing."""
    games = 0
    while True:
        games += 1
        pos = game.start()
        while not pos.is_over:
            for pit in range(game.board.size):
                mine = pos.owners[pit] == pos.to_move and pos.pits[pit] > 0
                if mine and game.never_ends(pos, pit):
                    return games, pos, pit
            pos = pos.play(rng.choice(pos.legal_moves()))


games, pos, pit = find_endless(rng)
name = game.board.name(pit)
print(f"found in random game {games}: {pos.to_text()}")
print(f"legal moves: {[game.board.name(p) for p in pos.legal_moves()]}; pit {name} is not one:")
try:
    pos.play(pit)
except ms.IllegalMoveError as error:
    print("   ", error)

stopping = ms.get_game("ba-awa", endless="stop")
trace = stopping.parse(pos.to_text()).trace(pit)
print(f"with endless='stop': {trace.laps} laps, then: {trace.events[-1].describe()}")
print("Resulting position:", trace.position.to_text())

diagram = layout(trace)
render_laps(diagram, plt.figure())
render(diagram, plt.figure(), panels=[1, 2, diagram.laps])

# %%
# The last lap on its own, at the size the rules site uses on a phone: its
# notes say which earlier state it repeats.

render(layout(trace, metrics="phone"), plt.figure(), panels=[diagram.laps], legend=False)
plt.show()

# sphinx_gallery_thumbnail_number = 3

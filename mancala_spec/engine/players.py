"""Simple players for play and experiments: random and greedy.

>>> import random, mancala_spec as ms
>>> pos = ms.get_game("bakuk").parse("3,3,1/1,3,3 S 10-12 opener=S")
>>> # a and c make a two in A, b a four in B
>>> [capture_margin(pos, pit) for pit in pos.legal_moves()]
[2, 4, 2]
>>> greedy_move(pos, random.Random(0))
1
"""
from __future__ import annotations

import random as _random

from .position import Position


def random_move(pos: Position, rng: _random.Random) -> int:
    """A legal move drawn uniformly at random."""
    return rng.choice(pos.legal_moves())


def capture_margin(pos: Position, pit: int) -> int:
    """What playing *pit* gains the mover over the others in captured seeds
    (the game-end takes included)."""
    after = pos.play(pit)
    mover = pos.to_move
    gained = [a - b for a, b in zip(after.captured, pos.captured)]
    return gained[mover] - sum(g for p, g in enumerate(gained) if p != mover)


def greedy_move(pos: Position, rng: _random.Random) -> int:
    """A legal move with the best immediate capture margin, ties drawn at random."""
    margins = {pit: capture_margin(pos, pit) for pit in pos.legal_moves()}
    best = max(margins.values())
    return rng.choice([pit for pit, margin in margins.items() if margin == best])


PLAYERS = {"random": random_move, "greedy": greedy_move}

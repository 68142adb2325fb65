"""The kernel on many positions at once: numpy arrays, one row a position (numpy needed).

The same rules as :mod:`mancala_spec.fast.bakuk`, read from the same tables
(:mod:`mancala_spec.fast.tables`), written for arrays: :class:`BakukBatch` plays
one hole of many Bakuk positions at once. The solver (:mod:`mancala_spec.solve`)
enumerates and solves with it, and the batch playouts
(:mod:`mancala_spec.fast.batch_playouts`) play with it.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .tables import CAPTURING, bakuk_laps, chain_next, sowing_next

Array = np.ndarray[Any, Any]


def lap_arrays(size: int, skip_origin: bool, most: int) -> tuple[Array, Array]:
    """The lap table (:func:`~mancala_spec.fast.tables.bakuk_laps`) as arrays:
    ``change[origin, seeds]`` (int16, one entry a pit) and ``last[origin, seeds]``."""
    laps = bakuk_laps(sowing_next(size, skip_origin), most)
    change = np.array([[lap[0] for lap in row] for row in laps], dtype=np.int16)
    last = np.array([[lap[1] for lap in row] for row in laps], dtype=np.intp)
    return change, last


class BakukBatch:
    """Bakuk's moves for many positions at once (two players, a row each)."""

    def __init__(self, pits_per_row: int, total: int, skip_origin: bool = False,
                 chain: str = "forward", no_move: str = "end",
                 leftovers: str = "unscored") -> None:
        self.n = n = pits_per_row
        self.m = m = 2 * n
        change, last = lap_arrays(m, skip_origin, total)
        # lap_add[origin, seeds]: what sowing *seeds* from *origin* adds to each
        # hole (bakuk-choose, bakuk-sow, bakuk-origin), and lap_end the hole of the last
        self.lap_add = change.astype(np.int8)
        self.lap_end = last
        self.chain = np.array(chain_next(m, chain == "forward"), dtype=np.intp)   # bakuk-chain
        self.passing = no_move == "pass"
        self.owners_score = leftovers == "owners"

    def row_sum(self, pits: Array, player: int) -> Array:
        """The counters in *player*'s row, for each position."""
        total = pits[:, player * self.n].astype(np.int16)
        for hole in range(player * self.n + 1, (player + 1) * self.n):
            total += pits[:, hole]
        return total

    def capture(self, after: Array, last: Array) -> Array:
        """bakuk-capture, bakuk-chain: empty the last hole if it holds 2 or 4,
        then each next hole of the chain while it does; return the counters
        taken in each position (*after* is changed in place)."""
        count, m = len(after), self.m
        flat = after.reshape(-1)
        at = np.arange(count) * m + last
        landed = flat[at]
        gain = np.where((landed == CAPTURING[0]) | (landed == CAPTURING[1]),
                        landed, 0).astype(np.int16)
        rows = np.flatnonzero(gain)
        if rows.size:
            flat[at[rows]] = 0
            hole = last[rows]
            for _ in range(m - 1):
                hole = self.chain[hole]
                at = rows * m + hole
                here = flat[at]
                take = (here == CAPTURING[0]) | (here == CAPTURING[1])
                if not take.any():
                    break
                rows, hole, at, here = rows[take], hole[take], at[take], here[take]
                gain[rows] += here
                flat[at] = 0
        return gain

    def play(self, pits: Array, player: int,
             choice: int) -> tuple[Array, Array, Array, Array, Array]:
        """Every position in *pits* (int8, all with *player* to move) plays its
        hole number *choice* of that player's row. Returns, per position:
        whether the move is legal, the holes after it, the player to move next,
        whether the game goes on (else it is over), and the move's immediate
        worth to the mover (counters captured, plus leftovers if they score)."""
        count = len(pits)
        origin = player * self.n + choice
        seeds = pits[:, origin].astype(np.intp)
        legal = seeds > 0                                        # bakuk-choose
        after = pits + self.lap_add[origin][seeds]               # bakuk-sow, bakuk-origin
        gain = self.capture(after, self.lap_end[origin][seeds])
        mine = self.row_sum(after, player)
        theirs = self.row_sum(after, 1 - player)
        nxt = np.full(count, 1 - player, dtype=np.int8)          # bakuk-turns
        goes_on = theirs > 0
        if self.passing:                                         # bakuk-exhausted
            again = ~goes_on & (mine > 0)
            nxt[again] = player
            goes_on |= again
        worth = gain
        if self.owners_score:                                    # bakuk-leftovers
            worth = gain + np.where(goes_on, 0, mine - theirs).astype(np.int16)
        return legal, after, nxt, goes_on, worth

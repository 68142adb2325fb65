"""Ba-awa's moves for the verifier (:mod:`mancala_spec.verify.ba_awa`), from
the rules as the reference engine orders them, on arrays of positions.

Written apart from the solver (:mod:`mancala_spec.solve.ba_awa_levels`): the
sowing is the many-games kernel's
(:meth:`~mancala_spec.fast.ba_awa.many.BaAwaBatch.sow`, held to the traced
engine by the differential tests), and what follows a sowing is read here from
:meth:`~mancala_spec.engine.games.ba_awa.BaAwa.after_move`: a sowing stopped
at its 75th lap ends the game, the rest shared equally (``endless="cap-75"``);
a row left empty ends it (``no_move="empty-row"``); eight seeds or fewer end
it, the opener taking them (``ba-awa-eight``); otherwise the other player is
to move. A player to move with no legal move (every pit empty, or, with
``endless="illegal"``, every sowing endless) is a *pass step*: with
``no_move="pass"`` the turn goes to the other player if they can move, else
the game ends and the opener takes what remains; with ``"owners"`` it ends,
each owner taking their row; with ``"empty-row"`` it ends, the opener taking
what remains.

A position is numbered as the table numbers it (:func:`keys`): the rank of its
board among the boards of 12 pits holding as many seeds (the combinatorial
number system over the prefix sums), times two, plus the player to move.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from ..options import Endless, NoMove

if TYPE_CHECKING:
    from ..engine.games.base import Game

Array = np.ndarray[Any, Any]

PITS, ROW, FOUR, EIGHT = 12, 6, 4, 8
#: the laps a sowing is capped at with ``endless="cap-75"``
CAP = 75
#: what a choice is: no legal move; to a position of the same seeds; a capture
#: (to fewer seeds); the end of the game
NONE, SAME, FEWER, END = range(4)
#: the choice a pass step is stored in (its only move)
PASS_CHOICE = 0

# C(x + i, i + 1) for prefix sums x = 0..48 and pits i < 11
_RANKS = np.array([[comb(x + i, i + 1) for x in range(49)] for i in range(PITS - 1)],
                  dtype=np.int64)


def keys(pits: Array, players: Array) -> Array:
    """The table's number of each position (rows of *pits*, *players* to move)."""
    prefix = np.cumsum(pits[:, :PITS - 1], axis=1, dtype=np.intp)
    rank = np.zeros(len(pits), dtype=np.int64)
    for i in range(PITS - 1):
        rank += _RANKS[i, prefix[:, i]]
    return rank * 2 + players


def boards(seeds: int, numbers: Array) -> tuple[Array, Array]:
    """The positions numbered *numbers* among those of *seeds* seeds: the
    inverse of :func:`keys` (the greatest prefix sums, last pit first)."""
    rank = numbers >> 1
    players = (numbers & 1).astype(np.int8)
    pits = np.zeros((len(numbers), PITS), dtype=np.int8)
    above = np.full(len(numbers), seeds, dtype=np.int64)
    for i in range(PITS - 2, -1, -1):
        # the prefix through pit i: the largest x <= above with C(x + i, i + 1) <= rank
        x = np.searchsorted(_RANKS[i, :seeds + 1], rank, side="right") - 1
        x = np.minimum(x, above)
        rank = rank - _RANKS[i, x]
        pits[:, i + 1] = above - x
        above = x
    pits[:, 0] = above
    return pits, players


def key_of(pits: tuple[int, ...], player: int) -> int:
    return int(keys(np.array([pits], dtype=np.int8), np.array([player]))[0])


@dataclass
class Choices:
    """Each of a block's positions' six choices (rows: choices; columns:
    positions): its kind (:data:`NONE`, :data:`SAME`, :data:`FEWER`,
    :data:`END`), the seeds and number of the position it leads to, and what
    the move itself gives South (the opener) less North: the captures, and at
    an end the seeds the rules hand out. ``passing``: the positions whose
    player has no legal move (their one move is choice :data:`PASS_CHOICE`)."""

    kind: Array
    seeds: Array
    key: Array
    gain: Array
    passing: Array


class Moves:
    """The moves of *game* (Ba-awa, two players, ``decided=False``) on arrays."""

    def __init__(self, game: Game) -> None:
        from ..fast.ba_awa.many import BaAwaBatch

        self.batch = BaAwaBatch(game)
        options = game.options
        self.endless = options["endless"]
        self.no_move = options["no_move"]

    def _sow(self, pits: Array, players: Array, choice: int):
        """The sowing of each position's pit *choice* (of its player's row):
        whether it is a legal move, the board after, the seeds won (rows, 2)
        and whether the sowing was stopped at the lap cap."""
        n = len(pits)
        pit = players.astype(np.intp) * ROW + choice
        legal = pits[np.arange(n), pit] > 0
        after = pits.copy()
        won = np.zeros((n, 2), dtype=np.int16)
        capped = np.zeros(n, dtype=bool)
        some = np.flatnonzero(legal)
        if some.size:
            cap = CAP if self.endless is Endless.CAP_75 else None
            a, w, _, forever, _ = self.batch.sow(pits[some], pit[some], players[some], cap=cap)
            after[some], won[some] = a, w
            if cap is not None:
                capped[some] = forever
            elif self.endless is Endless.ILLEGAL:
                legal[some[forever]] = False
        return legal, after, won, capped

    def choices(self, seeds: int, pits: Array, players: Array) -> Choices:
        """The choices of positions of *seeds* seeds (``pits``, ``players``)."""
        n = len(pits)
        kind = np.full((ROW, n), NONE, dtype=np.int8)
        to_seeds = np.zeros((ROW, n), dtype=np.int16)
        key = np.zeros((ROW, n), dtype=np.int64)
        gain = np.zeros((ROW, n), dtype=np.int16)
        rows = np.arange(n)
        other = (1 - players).astype(np.int8)
        for c in range(ROW):
            legal, after, won, capped = self._sow(pits, players, c)
            left = seeds - won.sum(axis=1)
            south = (won[:, 0] - won[:, 1]).astype(np.int16)
            over = legal & capped                       # shared equally: nothing more
            if (over & (left % 2 == 1)).any():
                raise ValueError("a capped sowing left an odd number of seeds")
            if self.no_move is NoMove.EMPTY_ROW:
                held = after.reshape(n, 2, ROW).sum(axis=2)
                next_empty = held[rows, other] == 0
                own_empty = held[rows, players] == 0
                emptied = legal & ~over & (left > 0) & (next_empty | own_empty)
                taker = np.where(next_empty, players, other)    # the mover, else the next
                south = np.where(emptied, south + np.where(taker == 0, left, -left), south)
                over |= emptied
            eight = legal & ~over & (left <= EIGHT)
            south = np.where(eight, south + left, south)      # the opener (South) takes them
            over |= eight
            fewer = legal & ~over & (left < seeds)
            same = legal & ~over & (left == seeds)
            kind[c] = np.select([over, fewer, same], [END, FEWER, SAME], NONE)
            gain[c] = np.where(legal, south, 0)
            to_seeds[c] = np.where(fewer | same, left, 0)
            going = fewer | same
            if going.any():
                key[c, going] = keys(after[going], other[going])
        passing = (kind == NONE).all(axis=0)
        stuck = np.flatnonzero(passing)
        if stuck.size:
            board = pits[stuck]
            if self.no_move is NoMove.PASS:
                able = self._able(board, other[stuck])
                kind[PASS_CHOICE, stuck] = np.where(able, SAME, END)
                gain[PASS_CHOICE, stuck] = np.where(able, 0, seeds)
                to_seeds[PASS_CHOICE, stuck] = seeds
                key[PASS_CHOICE, stuck] = keys(board, other[stuck])
            elif self.no_move is NoMove.OWNERS:
                held = board.reshape(len(stuck), 2, ROW).sum(axis=2)
                kind[PASS_CHOICE, stuck] = END
                gain[PASS_CHOICE, stuck] = held[:, 0] - held[:, 1]
            else:
                kind[PASS_CHOICE, stuck] = END
                gain[PASS_CHOICE, stuck] = seeds
        return Choices(kind, to_seeds, key, gain, passing)

    def _able(self, pits: Array, players: Array) -> Array:
        able = np.zeros(len(pits), dtype=bool)
        for c in range(ROW):
            legal, _, _, _ = self._sow(pits, players, c)
            able |= legal
        return able

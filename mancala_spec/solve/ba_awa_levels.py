"""Ba-awa's positions enumerated level by level, for :mod:`mancala_spec.solve.ba_awa`.

A level holds the positions with the same number of seeds on the board
(48, 44, ..., 12): :class:`Numbering` numbers them compactly, :class:`Kernel`
sows arrays of them with the many-games kernel, and
:func:`~mancala_spec.solve.ba_awa_spool.enumerate_to`
goes top down from a start, keeping each position's moves (:class:`Level`;
written to files a level at a time by :mod:`mancala_spec.solve.ba_awa_spool`).
The solve itself, bottom up, is in :mod:`mancala_spec.solve.ba_awa`.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from ..engine.games.ba_awa import LAP_CAP
from ..fast.ba_awa.many import CAPTURED, GOES_ON, LAP_CAP_END
from ..options import Endless, NoMove

if TYPE_CHECKING:
    from .ba_awa import BaAwaRules

FOUR, EIGHT = 4, 8
PITS = 12
HALF = 6
Progress = Callable[[str, int, "int | None"], None]   # (phase, done, total or None)
#: positions sown at once (each costs a few hundred bytes while it is sown)
CHUNK = 1 << 20

class Numbering:
    """The number of each position of a level (seeds on the board *seeds*):
    its board's rank among the boards of 12 pits holding *seeds* seeds
    (prefix sums ``p_i``: the sum of C(p_i + i, i + 1) for i < 11), times
    two, plus the player to move."""

    def __init__(self, seeds: int) -> None:
        self.seeds = seeds
        top = seeds + PITS
        # table[i][x] = C(x + i, i + 1) for x = 0..seeds
        self.rank_tables = [np.array([comb(x + i, i + 1) for x in range(seeds + 1)],
                                     dtype=np.int64) for i in range(PITS - 1)]
        # bounds[i][b] = C(b, i + 1) for b = 0..top: the largest b with
        # bounds[i][b] <= r is found with searchsorted
        self.bounds = [np.array([comb(b, i + 1) for b in range(top + 1)], dtype=np.int64)
                       for i in range(PITS - 1)]
        self.count = comb(seeds + PITS - 1, PITS - 1)    # boards of this level

    def keys(self, pits: np.ndarray, players: np.ndarray) -> np.ndarray:
        prefix = pits[:, 0].astype(np.intp)
        rank = self.rank_tables[0][prefix]
        for i in range(1, PITS - 1):
            prefix += pits[:, i]
            rank += self.rank_tables[i][prefix]
        return rank * 2 + players

    def boards(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rank, players = keys >> 1, (keys & 1).astype(np.int8)
        pits = np.empty((len(keys), PITS), dtype=np.int8)
        above = np.full(len(keys), self.seeds, dtype=np.int64)
        for i in range(PITS - 2, -1, -1):
            bar = np.searchsorted(self.bounds[i], rank, side="right") - 1
            rank = rank - self.bounds[i][bar]
            prefix = bar - i
            pits[:, i + 1] = above - prefix
            above = prefix
        pits[:, 0] = above
        return pits, players


@dataclass
class Moves:
    """The moves of a block of positions of one level: for each of the six
    choices, a kind (ILLEGAL, INNER: to a position of the same level, LOWER:
    a capture to a lower level, END: the game ends), the successor (its level
    and key) and what the move itself is worth to the opener (South)."""

    kind: np.ndarray        # (6, n) int8
    level: np.ndarray       # (6, n) int16: the successor's seeds
    key: np.ndarray         # (6, n) int64
    gain: np.ndarray        # (6, n) int16: to the opener
    passed: np.ndarray      # (n,) bool: no legal move (slot 0 is the pass, or the end)


ILLEGAL, INNER, LOWER, END = range(4)


class Kernel:
    """Ba-awa's moves on arrays of positions, from the fast kernel's sowing."""

    def __init__(self, rules: BaAwaRules) -> None:
        from ..fast.ba_awa.many import BaAwaBatch
        game = rules.game
        self.batch = BaAwaBatch(game)
        self.illegal_endless = rules.endless is Endless.ILLEGAL
        #: endless="cap-75": the laps a sowing is capped at (it then ends the game)
        self.cap = LAP_CAP if rules.endless is Endless.CAP_75 else None
        self.owners_keep = rules.no_move is NoMove.OWNERS
        self.empty_row = rules.no_move is NoMove.EMPTY_ROW      # (nobody passes)
        self.numberings: dict[int, Numbering] = {}

    def numbering(self, seeds: int) -> Numbering:
        if seeds not in self.numberings:
            self.numberings[seeds] = Numbering(seeds)
        return self.numberings[seeds]

    def _sow(self, pits: np.ndarray, players: np.ndarray, choice: int):
        """Sow pit *choice* of each mover's row: (legal, after, won, took,
        capped: stopped at the lap cap, with ``endless="cap-75"``)."""
        n = len(pits)
        pit = players.astype(np.intp) * HALF + choice
        legal = pits[np.arange(n), pit] > 0
        after = pits.copy()
        won = np.zeros((n, 2), dtype=np.int16)
        took = np.zeros(n, dtype=bool)
        capped = np.zeros(n, dtype=bool)
        rows = np.flatnonzero(legal)
        if rows.size:
            a, w, t, endless, _ = self.batch.sow(pits[rows], pit[rows], players[rows],
                                                 cap=self.cap)
            after[rows], won[rows], took[rows] = a, w, t
            if self.cap is not None:
                capped[rows[endless]] = True
            elif self.illegal_endless:
                legal[rows[endless]] = False
        return legal, after, won, took, capped

    def can_move(self, pits: np.ndarray, players: np.ndarray) -> np.ndarray:
        able = np.zeros(len(pits), dtype=bool)
        for choice in range(HALF):
            todo = np.flatnonzero(~able)
            if not todo.size:
                break
            legal, _, _, _, _ = self._sow(pits[todo], players[todo], choice)
            able[todo[legal]] = True
        return able

    def moves(self, seeds: int, pits: np.ndarray, players: np.ndarray) -> Moves:
        n = len(pits)
        kind = np.zeros((HALF, n), dtype=np.int8)
        level = np.full((HALF, n), seeds, dtype=np.int16)
        key = np.zeros((HALF, n), dtype=np.int64)
        gain = np.zeros((HALF, n), dtype=np.int16)
        other = (1 - players).astype(np.int8)
        for choice in range(HALF):
            legal, after, won, took, capped = self._sow(pits, players, choice)
            left = seeds - won[:, 0] - won[:, 1]
            if (won % FOUR).any():       # the levels rest on it: checked, not assumed
                raise RuntimeError("a capture took a number of seeds that is not a multiple "
                                   "of four: the levels of this solver do not hold")
            g = won[:, 0] - won[:, 1]
            # how the move ended, as the kernel reports it in the engine's order
            # (ba-awa-endless, ba-awa-no-move, ba-awa-eight: BaAwaBatch.ended), and
            # what the end gives the opener of the seeds left (the lap cap: shared
            # equally, and *left*, a multiple of four, is even)
            how, share = self.batch.ended(after, won, players, capped, left=left)
            end = legal & (how >= LAP_CAP_END)
            lower = legal & (how == CAPTURED)
            inner = legal & (how == GOES_ON)
            gain[choice] = np.where(end, g + share, np.where(lower, g, 0))
            kind[choice] = np.where(end, END, np.where(lower, LOWER, np.where(inner, INNER,
                                                                              ILLEGAL)))
            level[choice] = np.where(lower, left, seeds)
            k = np.zeros(n, dtype=np.int64)
            if inner.any():
                k[inner] = self.numbering(seeds).keys(after[inner], other[inner])
            for s in unique(left[lower]).tolist():
                rows = lower & (left == s)
                k[rows] = self.numbering(int(s)).keys(after[rows], other[rows])
            key[choice] = k
        # ba-awa-no-move: no legal move
        stuck = np.flatnonzero((kind == ILLEGAL).all(axis=0))
        if stuck.size:
            board = pits[stuck]
            if self.empty_row:                       # nobody passes: the opener takes them
                kind[0, stuck], gain[0, stuck] = END, seeds
            elif self.owners_keep:                   # the game ends; owners keep theirs
                held = board.reshape(len(stuck), 2, HALF).sum(axis=2)
                kind[0, stuck], gain[0, stuck] = END, held[:, 0] - held[:, 1]
            else:                                    # passed over, if the other can move
                able = self.can_move(board, other[stuck])
                kind[0, stuck] = np.where(able, INNER, END)
                gain[0, stuck] = np.where(able, 0, seeds)    # (the opener takes them)
                if able.any():
                    key[0, stuck[able]] = self.numbering(seeds).keys(
                        board[able], other[stuck[able]])
        passed = np.zeros(n, dtype=bool)
        passed[stuck] = True
        return Moves(kind, level, key, gain, passed)


def unique(values: np.ndarray, runs: bool = False) -> np.ndarray:
    """The distinct *values*, sorted: sorted, then repeats dropped (numpy 2.4's
    ``np.unique`` hashes, and took 98 s where sorting took 4 s, on 4 million
    keys of this solver's kind). *runs*: *values* are sorted runs one after
    the other, which the stable sort (timsort) merges."""
    ordered = np.sort(values, kind="stable" if runs else None)
    kept: np.ndarray = ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] \
        if len(ordered) else ordered
    return kept


def rows_of(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Where each of *keys* is in *sorted_keys* (as ``np.searchsorted``), the
    keys looked up in increasing order: a binary search for a key near the
    one before reads memory the search before brought into the cache, and
    the lookups of random keys in a level of millions were the enumeration's
    largest cost. The keys are sorted packed with their index (key bits above,
    index bits below: one ``int64`` sort, not an argsort), a piece at a time."""
    flat = keys.reshape(-1)
    found = np.empty(flat.size, dtype=np.int64)
    if not flat.size:
        return found.reshape(keys.shape)
    top = max(int(flat.max()), int(sorted_keys[-1]) if len(sorted_keys) else 0)
    shift = min(63 - top.bit_length(), 24)
    if shift < 16 or int(flat.min()) < 0:           # (no room to pack: plain)
        return np.searchsorted(sorted_keys, keys)
    piece, low = 1 << shift, (1 << shift) - 1
    for lo in range(0, flat.size, piece):
        part = flat[lo:lo + piece]
        packed = np.sort((part << shift) | np.arange(part.size, dtype=np.int64))
        found[lo + (packed & low)] = np.searchsorted(sorted_keys, packed >> shift)
    return found.reshape(keys.shape)


def member(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    at = np.searchsorted(sorted_keys, keys)
    at[at == len(sorted_keys)] = 0
    found: np.ndarray = sorted_keys[at] == keys if len(sorted_keys) else np.zeros(
        len(keys), dtype=bool)
    return found


@dataclass
class Level:
    """One level's positions and their moves, as enumeration found them:
    ``keys`` sorted (or, as the solve reads them, only their last bit: the
    player to move); ``inner[c]``: the row of the successor of choice *c* in
    this level (``len(keys)``: no such move, or one leaving the level);
    ``end_w``: the best move that ends the game, to the mover (-127: none);
    ``lower``: per lower level, the captures into it: (rows, successor's row
    in that level, what the capture is worth to the opener)."""

    seeds: int
    keys: np.ndarray
    inner: np.ndarray
    end_w: np.ndarray
    lower: dict[int, list[np.ndarray]] = field(default_factory=dict)
    seconds: float = 0.0        # enumerating it
    rounds: int = 0             # breadth-first rounds enumerating it
    #: pass steps: positions whose player to move has no legal move (nodes of the
    #: search, passed over, or the end; the engine passes inside the move before)
    passes: int = 0


#: positions a worker sows at a time
WORKER_CHUNK = 1 << 18
#: the fewest a worker sows at a time (a round with fewer is sown here)
WORKER_LEAST = 1 << 12

Expanded = tuple[np.ndarray, np.ndarray, np.ndarray,
                 dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]], np.ndarray, int]


def expand(kernel: Kernel, seeds: int, block: np.ndarray) -> Expanded:
    """The moves of the positions *block* (keys of the level *seeds*), as
    enumeration keeps them: the block; each choice's successor in the level
    (its key, -1 if none); the best move ending the game, to the mover
    (-127: none); per lower level, the captures into it (the position's
    key, the successor's key, the capture's worth to the opener); and the
    successors in the level, sorted, each once (sorted where the block is
    sown: in a worker, when there are workers); and the block's pass steps."""
    pits, players = kernel.numbering(seeds).boards(block)
    moves = kernel.moves(seeds, pits, players)
    side = np.where(players == 0, 1, -1).astype(np.int16)
    inner = moves.kind == INNER
    end_w = np.where(moves.kind == END, side * moves.gain, -127).max(axis=0)
    lowers = {}
    lower = moves.kind == LOWER
    for s in unique(moves.level[lower].ravel()).tolist():
        choice, row = np.nonzero(lower & (moves.level == s))
        lowers[int(s)] = (block[row], moves.key[choice, row], moves.gain[choice, row])
    succ = np.where(inner, moves.key, -1)
    return (block, succ, end_w.astype(np.int16), lowers, unique(moves.key[inner]),
            int(moves.passed.sum()))

"""The solver's retrograde analysis (see :mod:`mancala_spec.solve`): every
position reachable from the start enumerated breadth-first, numbered, and
solved level by level, fewest counters first, by value iteration within a level."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from . import Moves

NEG = -(1 << 14)        # "no such option" in int16 value arithmetic


@dataclass
class Graph:
    """The positions found, block by block in the order found, and their moves:
    for each move, the successor's number (-1 if the game is over) and the
    move's immediate worth to the mover (``NEG`` if the move is not legal)."""

    visited: np.ndarray         # by position number: reached?
    keys: list[np.ndarray] = field(default_factory=list)    # position numbers, per block
    succ: list[np.ndarray] = field(default_factory=list)    # (options, block) int32
    worth: list[np.ndarray] = field(default_factory=list)   # (options, block) int16


def enumerate_positions(moves: Moves, pits0, player0: int, report) -> Graph:
    """Every position reachable from the start, breadth-first, with its moves."""
    n = moves.n
    graph = Graph(np.zeros(2 * moves.levels[-1], dtype=bool))
    visited = graph.visited
    frontier = moves.keys(np.array([pits0], dtype=np.int8), np.array([player0], dtype=np.int8))
    visited[frontier] = True
    found = 1
    while len(frontier):
        report("enumerating", found, None)
        boards, players = moves.boards(frontier)
        fresh_keys = []
        for player in (0, 1):
            mine = players == player
            if not mine.any():
                continue
            block = boards[mine]
            block_succ = np.empty((n, len(block)), dtype=np.int32)
            block_worth = np.empty((n, len(block)), dtype=np.int16)
            for choice in range(n):
                legal, after, nxt, goes_on, worth = moves.play(block, player, choice)
                going = legal & goes_on
                keys = np.where(going, moves.keys(after, nxt), -1)
                block_succ[choice] = keys
                block_worth[choice] = np.where(legal, worth, NEG)
                fresh = going & ~visited[keys]       # visited[-1] is not a position: harmless
                fresh_keys.append(keys[fresh])
            graph.keys.append(frontier[mine])
            graph.succ.append(block_succ)
            graph.worth.append(block_worth)
        keys = np.sort(np.concatenate(fresh_keys))
        frontier = keys[np.concatenate(([True], keys[1:] != keys[:-1]))] if len(keys) else keys
        visited[frontier] = True
        found += len(frontier)
    report("enumerating", found, found)
    return graph


class _Rows:
    """The row of each reached position number in key order: a table by
    position number (int32; 4 bytes a number, 100 MB for the 25 million the
    command line allows), read with one gather."""

    def __init__(self, keys: np.ndarray, numbers: int) -> None:
        self.table = np.empty(numbers, dtype=np.int32)   # only reached numbers are read
        self.table[keys] = np.arange(len(keys), dtype=np.int32)

    def __call__(self, keys: np.ndarray) -> np.ndarray:
        rows: np.ndarray = self.table[keys]
        return rows


def number_positions(graph: Graph):
    """Renumber the positions in key order (fewest counters first). Returns the
    sorted keys and, per move, the successor's row (-1 if the game is over),
    the immediate worth (``NEG`` if not legal) and the sign that turns the
    successor's value into the mover's (-1, or +1 after a pass)."""
    keys = np.flatnonzero(graph.visited).astype(np.int32)
    rows = _Rows(keys, len(graph.visited))
    del graph.visited
    order = np.empty(len(keys), dtype=np.int32)     # the found order of each row
    order[rows(np.concatenate(graph.keys))] = np.arange(len(keys), dtype=np.int32)
    options = graph.succ[0].shape[0]
    succ = np.empty((options, len(keys)), dtype=np.int32)
    worth = np.empty((options, len(keys)), dtype=np.int16)
    sign = np.empty((options, len(keys)), dtype=np.int8)
    mover = keys & 1
    for c in range(options):
        found = np.concatenate([block[c] for block in graph.succ])[order]
        going = found >= 0
        succ[c] = np.where(going, rows(np.where(going, found, 0)), -1)
        sign[c] = np.where((found & 1) == mover, 1, -1)
        worth[c] = np.concatenate([block[c] for block in graph.worth])[order]
    return keys, succ, worth, sign


def solve_levels(moves: Moves, keys, succ, worth, sign, report) -> np.ndarray:
    """The value of every position, level by level, fewest counters first."""
    values = np.zeros(len(keys), dtype=np.int16)
    bounds = np.searchsorted(keys, [2 * level for level in [0, *moves.levels]])
    for level in range(len(moves.levels)):
        lo, hi = int(bounds[level]), int(bounds[level + 1])
        if lo < hi:
            _solve_level(values, lo, hi, succ, worth, sign)
        report("solving", hi, len(keys))
    return values


def _solve_level(values, lo, hi, succ, worth, sign) -> None:
    """Values of the positions lo..hi-1 (one level), those of lower levels known."""
    size = hi - lo
    options = succ.shape[0]
    exits = np.full(size, NEG, dtype=np.int16)       # the best move leaving the level
    # Moves within the level, as (worth, at): the successor's value, turned into
    # the mover's, is signed[at] (signed holds the level's values, numbered from
    # lo, then the same negated, then a 0); a move that leaves the level, or is
    # not legal, becomes (NEG, the 0), which is never the best.
    inner_at = np.full((options, size), 2 * size, dtype=np.int32)
    inner_worth = np.full((options, size), NEG, dtype=np.int16)
    edges_to: list[np.ndarray] = []
    edges_from: list[np.ndarray] = []
    for c in range(options):
        s, w, g = succ[c, lo:hi], worth[c, lo:hi], sign[c, lo:hi]
        # leaving: the game ends (s < 0), or a capture leads to a lower level
        value = w + np.where(s >= 0, g * values[s], 0)      # s < 0: values[-1] unused
        np.maximum(exits, np.where((s < lo) & (w != NEG), value, NEG), out=exits)
        source = np.flatnonzero(s >= lo)
        target = s[source] - lo
        inner_at[c, source] = np.where(g[source] > 0, target, target + size)
        inner_worth[c, source] = w[source]
        edges_to.append(target)
        edges_from.append(source)
    # the predecessors of each position in the level: sort (to << 32 | from)
    to = np.concatenate(edges_to)
    pred = (np.sort((to.astype(np.int64) << 32) | np.concatenate(edges_from))
            & 0xFFFFFFFF).astype(np.int32)
    start = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(to, minlength=size), out=start[1:])

    # Round 1: every position, from values 0.
    level = exits.copy()
    for c in range(options):
        np.maximum(level, inner_worth[c], out=level)      # (+ sign * 0)
    changed = np.flatnonzero(level)
    signed = np.zeros(2 * size + 1, dtype=np.int16)
    signed[:size], signed[size:2 * size] = level, -level
    level = signed[:size]                                  # (a view: kept in step)
    mark = np.zeros(size, dtype=bool)
    while changed.size:
        # the next round re-evaluates the predecessors of what changed
        first = start[changed]
        lengths = start[changed + 1] - first
        total = int(lengths.sum())
        if not total:
            break
        offsets = np.repeat(first - np.cumsum(lengths) + lengths, lengths)
        found = pred[np.arange(total) + offsets]
        if 16 * total > size:          # many: marked in a table, read in order
            mark[found] = True
            rows = np.flatnonzero(mark)
            mark[rows] = False
        else:                          # few: sorted, repeats dropped
            rows = np.sort(found)
            rows = rows[np.concatenate(([True], rows[1:] != rows[:-1]))]
        new = exits[rows]                                  # every read happens
        for c in range(options):                           # before any write
            np.maximum(new, inner_worth[c, rows] + signed[inner_at[c, rows]], out=new)
        differs = new != level[rows]
        changed = rows[differs]
        fresh = new[differs]
        signed[changed], signed[changed + size] = fresh, -fresh
    values[lo:hi] = level

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
    for each move, the successor's number (-1 if the game is over), the move's
    immediate worth to the mover (``NEG`` if the move is not legal) and whether
    the successor was turned round (the other player moves next). Every
    position is South's to move: one with North to move is found turned round
    (see :func:`enumerate_positions`); ``turned_keys`` holds, per block, the
    number of each position turned round, North to move."""

    visited: np.ndarray         # by position number: reached?
    keys: list[np.ndarray] = field(default_factory=list)    # position numbers, per block
    succ: list[np.ndarray] = field(default_factory=list)    # (options, block) int32
    worth: list[np.ndarray] = field(default_factory=list)   # (options, block) int16
    turned: list[np.ndarray] = field(default_factory=list)  # (options, block) bool
    turned_keys: list[np.ndarray] = field(default_factory=list)   # per block
    sides: list[np.ndarray] = field(default_factory=list)   # per block: side found on


def enumerate_positions(moves: Moves, pits0, player0: int, report) -> Graph:
    """Every position reachable from the start, breadth-first, with its moves,
    each seen from the side of the player to move: a position with North to
    move is the position with the rows swapped and South to move (its board
    turned round, :attr:`Moves.turn <mancala_spec.solve.Moves.turn>`). The
    rules are the same for both players, so both have the same value, from
    the mover's side: each is solved once (the positions reached as
    themselves and turned round are sorted out by :func:`reached_sides`, from
    the side each was first found on: 0 as itself, 1 turned round)."""
    n = moves.n
    graph = Graph(np.zeros(2 * moves.levels[-1], dtype=bool))
    visited = graph.visited
    start = np.array([pits0], dtype=np.int8)
    if player0:
        start = start[:, moves.turn]
    frontier = moves.keys(start, np.zeros(1, dtype=np.int8))
    sides = np.array([player0], dtype=np.int32)
    visited[frontier] = True
    found = 1
    while len(frontier):
        report("enumerating", found, None)
        block, _ = moves.boards(frontier)
        south = np.zeros(len(block), dtype=np.int8)
        block_succ = np.empty((n, len(block)), dtype=np.int32)
        block_worth = np.empty((n, len(block)), dtype=np.int16)
        block_turned = np.empty((n, len(block)), dtype=bool)
        fresh_keys = []
        for choice in range(n):
            legal, after, nxt, goes_on, worth = moves.play(block, 0, choice)
            going = legal & goes_on
            turned = nxt == 1                    # North moves next: seen from their side
            after = (after[:, moves.turn] if turned.all()       # (unless a player passes)
                     else np.where(turned[:, None], after[:, moves.turn], after))
            keys = np.where(going, moves.keys(after, south), -1)
            block_succ[choice] = keys
            block_worth[choice] = np.where(legal, worth, NEG)
            block_turned[choice] = turned
            fresh = going & ~visited[keys]       # visited[-1] is not a position: harmless
            # (a number is even: its last bit carries the side it is found on)
            fresh_keys.append(keys[fresh] | (sides[fresh] ^ turned[fresh]))
        graph.keys.append(frontier)
        graph.sides.append(sides)
        graph.succ.append(block_succ)
        graph.worth.append(block_worth)
        graph.turned.append(block_turned)
        graph.turned_keys.append(moves.keys(block[:, moves.turn], south + 1))
        codes = np.sort(np.concatenate(fresh_keys))
        keys = codes & ~1
        first = np.concatenate(([True], keys[1:] != keys[:-1]))[:len(keys)]
        frontier, sides = keys[first], codes[first] & 1
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
    sorted keys; per move, the successor's row (-1 if the game is over),
    the immediate worth (``NEG`` if not legal) and the sign that turns the
    successor's value into the mover's (-1, or +1 after a pass); each
    position's number turned round, and the side it was found on."""
    keys = np.flatnonzero(graph.visited).astype(np.int32)
    rows = _Rows(keys, len(graph.visited))
    del graph.visited
    order = np.empty(len(keys), dtype=np.int32)     # the found order of each row
    order[rows(np.concatenate(graph.keys))] = np.arange(len(keys), dtype=np.int32)
    options = graph.succ[0].shape[0]
    succ = np.empty((options, len(keys)), dtype=np.int32)
    worth = np.empty((options, len(keys)), dtype=np.int16)
    sign = np.empty((options, len(keys)), dtype=np.int8)
    for c in range(options):
        found = np.concatenate([block[c] for block in graph.succ])[order]
        going = found >= 0
        succ[c] = np.where(going, rows(np.where(going, found, 0)), -1)
        sign[c] = np.where(np.concatenate([block[c] for block in graph.turned])[order], -1, 1)
        worth[c] = np.concatenate([block[c] for block in graph.worth])[order]
    turned_keys = np.concatenate(graph.turned_keys)[order]
    sides = np.concatenate(graph.sides)[order]
    return keys, succ, worth, sign, turned_keys, sides


def solve_levels(moves: Moves, keys, succ, worth, sign, report) -> np.ndarray:
    """The value of every position, level by level, fewest counters first."""
    values = np.zeros(len(keys), dtype=np.int16)
    bounds = np.searchsorted(keys, [2 * level for level in [0, *moves.levels]])
    for level in range(len(moves.levels)):
        lo, hi = int(bounds[level]), int(bounds[level + 1])
        if lo < hi:
            _solve_level(values, lo, hi, succ=succ, worth=worth, sign=sign)
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
        rows = predecessors(changed, pred, start, mark)
        if not rows.size:
            break
        new = exits[rows]                                  # every read happens
        for c in range(options):                           # before any write
            np.maximum(new, inner_worth[c, rows] + signed[inner_at[c, rows]], out=new)
        differs = new != level[rows]
        changed = rows[differs]
        fresh = new[differs]
        signed[changed], signed[changed + size] = fresh, -fresh
    values[lo:hi] = level


def predecessors(changed: np.ndarray, pred: np.ndarray, start: np.ndarray,
                 mark: np.ndarray) -> np.ndarray:
    """The rows (sorted, each once) of the predecessors of the rows *changed*,
    which the next round of value iteration re-evaluates: those of row *r* are
    ``pred[start[r]:start[r + 1]]``. *mark*: a table of False, one a row of the
    level (left all False), to gather many."""
    first = start[changed]
    lengths = start[changed + 1] - first
    total = int(lengths.sum())
    offsets = np.repeat(first - np.cumsum(lengths) + lengths, lengths)
    found = pred[np.arange(total) + offsets]
    rows: np.ndarray
    if not total:
        return found
    if 16 * total > len(mark):         # many: marked in a table, read in order
        mark[found] = True
        rows = np.flatnonzero(mark)
        mark[rows] = False
    else:                              # few: sorted, repeats dropped
        rows = np.sort(found)
        rows = rows[np.concatenate(([True], rows[1:] != rows[:-1]))]
    return rows


def reached_sides(succ, sign, sides) -> np.ndarray:
    """``reached[side, row]``: whether the position of *row* is reached from the
    start as itself (side 0) and turned round (side 1), *sides* holding a side
    each is reached on. A move that passes the turn to the other player
    (``sign`` -1) turns its successor round, so the successor of a position
    reached on a side is reached on that side, or the other if the move turns
    it. A position is reached on both sides if it is the successor, on the
    side it was not found on, of a position on the side it was, or if it
    follows a position reached on both sides (and only then: a path reaching
    it on the other side leaves the found sides at one such move)."""
    size = succ.shape[1]
    sides = sides.astype(bool)
    both = np.zeros(size, dtype=bool)
    going = succ >= 0
    after = np.where(going, succ, 0)
    both[after[going & ((sides ^ (sign < 0)) != sides[after])]] = True
    frontier = np.flatnonzero(both)
    fresh = np.zeros(size, dtype=bool)
    while frontier.size:
        after = succ[:, frontier].reshape(-1)
        fresh[after[after >= 0]] = True
        fresh &= ~both
        both |= fresh
        frontier = np.flatnonzero(fresh)
        fresh[frontier] = False
    return np.stack((~sides | both, sides | both))


def unfold(keys, turned_keys, values, reached, numbers: int) -> tuple[np.ndarray, np.ndarray]:
    """The position numbers reached (sorted) and their values: each solved
    position as itself and turned round, where :func:`reached_sides` says it
    is reached, with the same value. *numbers*: how many position numbers there are."""
    found = np.concatenate((keys[reached[0]], turned_keys[reached[1]]))
    table = np.zeros(numbers, dtype=np.int16)
    table[found] = np.concatenate((values[reached[0]], values[reached[1]]))
    marked = np.zeros(numbers, dtype=bool)
    marked[found] = True
    all_keys = np.flatnonzero(marked).astype(np.int32)
    return all_keys, table[all_keys]

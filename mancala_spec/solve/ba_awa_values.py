"""The values of one level of Ba-awa's positions (:func:`solve_level`: value
iteration, within the level, as :mod:`mancala_spec.solve.ba_awa` says), and the
splits of the captured seeds it is solved for with ``decided=True``.

**The winner decided** (``decided=True``, as EveryBoard plays): the engine
(``Game.decided``, rule ``ba-awa-winner``) checks, after each complete move and
only then, once the lap cap, an emptied row and the last eight have not ended
the game (in that order), whether a player has captured more than half the 48
seeds or each has 24; if so the game ends there, and the seeds on the board
stay where they are: nobody takes them (the winner is who captured more). So a
position's value, the margin of the captures to come, depends on the captured
counts too. Nothing else does: a move that captures nothing leaves the counts
as they were (and they did not decide the game, or it would be over), and the
ends the engine checks first are functions of the board and the mover (see
:mod:`mancala_spec.solve.ba_awa`). At a level of *S* seeds the counts are a *split* of the 48 - *S*
captured: South's count *c* (North's is 48 - *S* - *c*), a multiple of four
from the opening, neither above 24 while the game goes on (7 splits at most,
at 24 seeds). Within a level the counts do not change, so the successors, the
ends and the repetition argument there are the same for every split: each
level is enumerated once and solved once for each split
(:func:`splits_of`: those the start's counts can reach), each capture
reading the lower level's values at the split it leaves. A capture's split
follows from what enumeration keeps: its *gain* to South (South's take less
North's) and the level's drop *D* (both takes), so South took (*D* + *gain*)
/ 2; if the new counts decide the game, the capture is worth its gain alone.
The positions enumerated are the same as without ``decided`` (some are then
reached only with counts that ended the game, and are never played from).
:meth:`~mancala_spec.solve.ba_awa.BaAwaSolution.value` then needs the counts (``captured=``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InvalidPositionError, OptionError, UnreachedPositionError, not_a, shown
from .ba_awa_levels import FOUR, HALF, PITS, Level
from .retrograde import predecessors

#: what play that never leaves a level is worth to the opener, as a multiple of
#: the seeds on the board, S (see :func:`mancala_spec.solve.ba_awa.solve`)
TOPS = {"opener": 1, "nothing": 0, "other": -1}


def solve_level(level: Level, lower_values: Sequence[dict[Any, np.ndarray]],
                endless_play: Sequence[str] = ("opener",),
                splits: Sequence[int | None] = (None,)) -> list[tuple[np.ndarray, int]]:
    """The values of one level's positions, from the opener's side, for each
    of *splits* (with ``decided``: South's captured count; None: the counts do
    not matter) and each of *endless_play* (what play that never leaves the
    level is worth: see :func:`solve`), with the lower levels' values of each
    (*lower_values*: seeds, or with ``decided`` (seeds, South's captured), ->
    the opener's values, by row). Returns, split by split and for each
    *endless_play*, the values and the rounds of value iteration."""
    keys, seeds = level.keys, level.seeds
    n = len(keys)
    opener = (keys & 1) == 0                         # South, the opener, to move
    sign = np.where(opener, 1, -1).astype(np.int16)
    # The mover's side: w = u with South to move, -u with North. exit_w: the best
    # move leaving the level, to the mover; at[c]: where the successor's value,
    # turned to the mover's side, is read in ext = (u, -u, no move).
    at = level.inner
    at[at == n] = 2 * n                                          # no move: -127
    np.add(at, n, out=at, where=(~opener)[None, :] & (at < n))  # North: read -u
    # the best capture of each position, for each split and scoring of endless
    # play: worked out before the predecessors are gathered, so the captures
    # need not be held beside them (unless there are many to work out)
    combos = [(south, lower, play) for south in splits
              for lower, play in zip(lower_values, endless_play)]
    exits = [exit_of(level, sign, south, lower) for south, lower, _ in combos] \
        if len(combos) <= EXITS_AHEAD else None
    if exits is not None:
        level.lower = {}
    pred, start = predecessor_lists(at, n)
    results = []
    for i, (south, lower, play) in enumerate(combos):
        exit_w = exit_of(level, sign, south, lower) if exits is None else exits[i]
        if exits is not None:
            exits[i] = exit_w[:0]
        top = TOPS[play] * seeds                     # the opener takes all S, 0 or -S
        results.append(_iterate(at, pred, start, exit_w, sign, top))
        del exit_w
    return results


#: the most best-capture arrays :func:`solve_level` works out before it gathers
#: the predecessors (each two bytes a position; the captures, about nine each)
EXITS_AHEAD = 4


def exit_of(level: Level, sign: np.ndarray, south: int | None,
            lower: dict[Any, np.ndarray]) -> np.ndarray:
    """The best move leaving the level of each position, to the mover: an end,
    or a capture (its gain and the value of where it leads, in *lower*)."""
    exit_w: np.ndarray = level.end_w.copy()
    for s, (rows, succ, gain) in level.lower.items():
        np.maximum.at(exit_w, rows, sign[rows] * captured_worth(
            level.seeds, s, south, lower, succ, gain.astype(np.int16)))
    return exit_w


#: successors placed at once (see predecessor_lists)
EDGES_AT_ONCE = 1 << 22


def predecessor_lists(at: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The predecessors of each of the *n* positions (row *r* moves to row
    ``at[c, r] % n`` where ``at[c, r] < 2n``): those of row *t* are
    ``pred[start[t]:start[t + 1]]``. A counting sort, a slice of the moves
    at a time: no array of all the edges' targets, nor their sort order, is
    held. Each edge is written at its target's next free place; where several
    of a slice share a target, one write stands (checked by reading it back)
    and the others are placed in the next pass."""
    counts = np.zeros(n, dtype=np.int64)
    for c in range(HALF):
        target = at[c][at[c] < 2 * n]
        target[target >= n] -= n
        counts += np.bincount(target, minlength=n)
        del target
    start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    del counts
    pred = np.empty(int(start[-1]), dtype=np.int32)
    free = start[:-1].copy()                         # each target's next free place
    if start[-1] < 2**31:                            # (half the bytes, where they fit)
        start = start.astype(np.int32)
    for c in range(HALF):
        for lo in range(0, n, EDGES_AT_ONCE):
            column = at[c, lo:lo + EDGES_AT_ONCE]
            source = np.flatnonzero(column < 2 * n).astype(np.int32)
            target = column[source]
            target[target >= n] -= n
            source += lo
            while source.size:
                place = free[target]
                pred[place] = source
                stood = pred[place] == source
                free[target[stood]] += 1
                source, target = source[~stood], target[~stood]
    return pred, start


def _iterate(at, pred, start, exit_w, sign, top: int) -> tuple[np.ndarray, int]:
    """Value iteration from *top* (see :func:`solve_level`): each round
    re-evaluates the predecessors of the positions that changed in the round
    before, until a round changes nothing."""
    n = len(exit_w)
    ext = np.empty(2 * n + 1, dtype=np.int16)        # (u, -u, no move)
    ext[:n], ext[n:2 * n], ext[2 * n] = top, -top, -127
    rounds = 1                                       # the first round: every row
    new = exit_w.copy()
    for c in range(HALF):
        np.maximum(new, ext[at[c]], out=new)
    new *= sign                                      # to the opener's side
    changed = np.flatnonzero(new != ext[:n])
    fresh = new[changed]
    del new
    ext[changed], ext[changed + n] = fresh, -fresh
    mark = np.zeros(n, dtype=bool)
    rows = predecessors(changed, pred, start, mark)
    while rows.size:
        rounds += 1
        new = exit_w[rows]
        for c in range(HALF):
            np.maximum(new, ext[at[c, rows]], out=new)
        new *= sign[rows]                            # to the opener's side
        differs = new != ext[rows]
        changed = rows[differs]
        fresh = new[differs]
        ext[changed], ext[changed + n] = fresh, -fresh
        rows = predecessors(changed, pred, start, mark)
    return ext[:n].astype(np.int8), rounds


def captured_worth(seeds: int, s: int, south: int | None, lower: dict[Any, np.ndarray],
                    succ: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """What captures from a level of *seeds* to one of *s* are worth to the
    opener: the capture's *gain* (South's take minus North's) and the value of
    the successor (row *succ*) in *lower*. With ``decided`` (*south*: South's
    captured count before the move), the successor's value is read at the
    counts the capture leaves: South took (drop + gain) / 2 of the drop
    ``seeds - s``; a capture that leaves a player with more than half the
    seeds, or each with half, ends the game there, the seeds on the board
    taken by nobody: worth the gain alone."""
    if south is None:
        return gain + lower[s][succ]
    worth = gain.copy()
    took = (seeds - s + gain) // 2                   # South's part of the drop
    for t in np.unique(took).tolist():
        south_after = south + int(t)
        north_after = TOTAL - s - south_after
        if is_decided(south_after, north_after):
            continue                                 # the game ends: the gain alone
        edges = took == t
        worth[edges] += lower[(s, south_after)][succ[edges]]
    return worth


#: the seeds in play, and the rule ``decided`` (ba-awa-winner) as the engine
#: checks it after a move (:meth:`~mancala_spec.engine.games.base.Game.decided`)
TOTAL = 48


def is_decided(south: int, north: int) -> bool:
    """Whether captured counts *south*, *north* end the game with ``decided``:
    one has more than half the seeds, or each has half."""
    return max(south, north) > TOTAL / 2 or south == north == TOTAL / 2


def splits_of(seeds: int, top: int, south0: int, north0: int) -> tuple[int, ...]:
    """South's captured counts a level of *seeds* can be reached with while the
    game goes on under ``decided``, from a start of *top* seeds with captured
    counts *south0*, *north0*: each capture takes four for one player."""
    return tuple(c for c in range(south0, south0 + top - seeds + 1, FOUR)
                 if TOTAL - seeds - c >= north0 and not is_decided(c, TOTAL - seeds - c))


def checked_captured(captured: object, seeds: int) -> tuple[int, int]:
    """*captured* as counts play can leave with *seeds* on the board (together
    48 less them) and the game going on; else an ``InvalidPositionError``."""
    if (not isinstance(captured, Sequence) or isinstance(captured, (str, bytes))
            or len(captured) != 2 or any(type(c) is not int or c < 0 for c in captured)
            or sum(captured) != TOTAL - seeds):
        raise InvalidPositionError(
            "with decided=true a value depends on the captured counts: captured must be "
            f"two whole numbers adding up to {TOTAL - seeds} (48 less the {seeds} seeds on "
            "the board)", field="captured")
    if is_decided(*captured):
        raise InvalidPositionError(
            f"captured {tuple(captured)}: the game is over (decided=true: a player has "
            "more than half the seeds, or each has half)", field="captured")
    return captured[0], captured[1]


def split_row(splits: dict[int, tuple[int, ...]], seeds: int, captured: object) -> int:
    """South's count in *captured*, checked, and solved at *seeds* (*splits*);
    else an ``InvalidPositionError`` (or ``UnreachedPositionError``)."""
    south, _ = checked_captured(captured, seeds)
    if south not in splits.get(seeds, ()):
        raise UnreachedPositionError(f"captured {tuple(captured)} with {seeds} seeds on "  # type: ignore[arg-type]
                                     "the board is not reachable from the start")
    return south


#: the most processes ``solve(workers=...)`` starts
MAX_WORKERS = 64


def checked_arguments(progress: Any, memory: Any, workers: Any, endless_play: Any = "opener",
                      also: Any = None) -> None:
    """Refuse, naming the argument, a *progress* that is not a function, a
    *memory* that is not a whole number of bytes (``True`` is not one byte),
    *workers* that is not a whole number from 1 to :data:`MAX_WORKERS`, and an
    *endless_play* or *also* that is not a key of :data:`TOPS` (*also*: or None)
    (:class:`~mancala_spec.errors.OptionError`)."""
    for name, value in (("endless_play", endless_play), ("also", also)):
        if not (isinstance(value, str) and value in TOPS or name == "also" and value is None):
            raise OptionError(f'{name} must be "opener", "nothing" or "other", not '
                              f'{shown(value)}', option=name, value=value)
    if progress is not None and not callable(progress):
        raise not_a("progress", progress, "a function or None")
    if memory is not None and (type(memory) is not int or memory <= 0):
        raise not_a("memory", memory, "a whole number of bytes, more than 0, or None")
    if type(workers) is not int or not 1 <= workers <= MAX_WORKERS:
        raise not_a("workers", workers, f"a whole number from 1 to {MAX_WORKERS}")


def checked_position(pits: object, to_move: object) -> tuple[tuple[int, ...], int]:
    """*pits* and *to_move* as a Ba-awa position; else an ``InvalidPositionError``."""
    shape = f"a position is {PITS} pit counts (whole numbers, at least 0) and player 0 or 1"
    if (isinstance(pits, (str, bytes)) or not isinstance(pits, Sequence) or len(pits) != PITS
            or any(type(x) is not int or x < 0 for x in pits) or sum(pits) > 48):
        raise InvalidPositionError(shape, field="pits")
    if type(to_move) is not int or to_move not in (0, 1):
        raise InvalidPositionError(shape, field="to_move")
    return tuple(pits), to_move

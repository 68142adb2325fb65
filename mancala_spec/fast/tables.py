"""The kernel's tables: where each seed of a lap falls, worked out once per board.

Plain tuples, built from the board's size and the ``skip_origin`` option alone,
so that each game's one-game steps, its many-games (numpy) steps and the
solver read the very same tables.

>>> step = sowing_next(6, skip_origin=True)   # pits a, b, c, A, B, C
>>> step[2][1], step[2][2], step[0][5]   # a lap lifted from c passes over c, one from a over a
(3, 3, 1)
>>> bakuk_laps(step, 7)[2][7]       # 7 from c: A, B, C, a, b, then A and B again
((1, 1, -7, 2, 2, 1), 4)
>>> lap_paths(step, 7)[2][7]        # the same lap, pit by pit
((3, 4, 5, 0, 1, 3), 4)
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from ..errors import InvalidPositionError, shown

Pits = tuple[int, ...]
#: ``next[origin][pit]``: the pit after *pit* in a lap lifted from *origin*
NextTable = tuple[tuple[int, ...], ...]
#: ``laps[origin][seeds]``: ``(change, last)``, see :func:`bakuk_laps`
LapTable = tuple[tuple[tuple[Pits, int], ...], ...]
#: ``paths[origin][seeds]``: ``(middle, last)``, see :func:`lap_paths`
PathTable = tuple[tuple[tuple[tuple[int, ...], int], ...], ...]

FOUR = 4                 #: ba-awa-owner-four, ba-awa-mover-four: a pit made to hold four
EIGHT = 8                #: ba-awa-eight: this many seeds or fewer end the game
CAPTURING = (2, 4)       #: bakuk-capture, bakuk-chain: the counts a Bakuk capture takes


def sowing_next(size: int, skip_origin: bool) -> NextTable:
    """The pit after each pit, one table per origin (the pit a lap was lifted
    from), counter-clockwise; with *skip_origin* a lap passes over its origin
    (``ba-awa-origin``, ``bakuk-origin``)."""
    def following(pit: int, origin: int) -> int:
        after = (pit + 1) % size
        if skip_origin and after == origin:
            after = (after + 1) % size
        return after
    return tuple(tuple(following(pit, origin) for pit in range(size)) for origin in range(size))


def bakuk_laps(step: NextTable, most: int) -> LapTable:
    """``laps[pit][seeds]``, for 0 to *most* seeds: what lifting *seeds* from
    *pit* and sowing them one by one adds to each pit (``-seeds`` at *pit*,
    plus any that come round to it), and the pit the last one falls in. A
    Bakuk lap captures nothing on the way, so it can be applied whole."""
    size = len(step)
    laps = []
    for pit in range(size):
        pit_laps = []
        for seeds in range(most + 1):
            change = [0] * size
            change[pit] -= seeds            # bakuk-choose: lift every counter of the hole
            last = pit
            for _ in range(seeds):          # bakuk-sow: one into each following hole
                last = step[pit][last]
                change[last] += 1
            pit_laps.append((tuple(change), last))
        laps.append(tuple(pit_laps))
    return tuple(laps)


#: ``sowers[origin][seeds]``: ``(sow, emptied, last, add)``, see :func:`bakuk_sowers`
SowerTable = tuple[tuple[tuple[Callable[[Pits], Pits], Callable[[Pits], Pits], int, int],
                         ...], ...]


@lru_cache(maxsize=8)
def bakuk_sowers(step: NextTable, most: int) -> SowerTable:
    """``sowers[pit][seeds]``: each lap of :func:`bakuk_laps` as functions, for
    pits whose *pit* holds *seeds*: ``sow(pits)`` is *pits* plus the lap's
    change (so *pit* is left holding what comes round to it), spelt out pit by
    pit with only the pits the lap changes added to (about twice as fast as
    :func:`adder` with the change); ``emptied(pits)`` the same with the pit of
    the last seed emptied (what a capture there leaves, bakuk-capture); that
    pit, *last*; and *add*, what the lap adds to it, so that ``pits[last] + add``
    is what it holds after the lap, known before sowing (the lap's change there).

    >>> step = sowing_next(6, skip_origin=False)
    >>> sow, emptied, last, add = bakuk_sowers(step, 7)[2][3]
    >>> sow((1, 2, 3, 4, 5, 6)), emptied((1, 2, 3, 4, 5, 6)), last, add
    ((1, 2, 0, 5, 6, 7), (1, 2, 0, 5, 6, 0), 5, 1)
    """
    def sower(pit: int, seeds: int, change: Pits, empty: int) -> Callable[[Pits], Pits]:
        terms = "".join("0, " if p == empty else f"{seeds + add}, " if p == pit
                        else f"a[{p}] + {add}, " if add else f"a[{p}], "
                        for p, add in enumerate(change))
        made: Callable[[Pits], Pits] = eval(f"lambda a: ({terms})")  # (numbers only)
        return made
    return tuple(tuple((sower(pit, seeds, change, empty=-1),
                        sower(pit, seeds, change, empty=last), last, change[last])
                       for seeds, (change, last) in enumerate(row))
                 for pit, row in enumerate(bakuk_laps(step, most)))


def lap_paths(step: NextTable, most: int) -> PathTable:
    """``paths[pit][seeds]``, for 0 to *most* seeds: the pits a lap of *seeds*
    lifted from *pit* sows one by one, as ``(middle, last)``: the pits of all
    seeds but the last, in order, and the pit of the last (*pit* itself for no
    seeds). A Ba-awa lap may capture on the way, so it is sown seed by seed,
    but along this path rather than stepping through *step* (about a fifth
    faster)."""
    paths = []
    for pit in range(len(step)):
        pit_paths = []
        for seeds in range(most + 1):
            path = [pit]
            for _ in range(seeds):
                path.append(step[pit][path[-1]])
            pit_paths.append((tuple(path[1:-1]), path[-1]))
        paths.append(tuple(pit_paths))
    return tuple(paths)


@cache
def adder(size: int) -> Callable[[Pits, Pits], Pits]:
    """``adder(size)(one, other)``: two tuples of *size* numbers added place by
    place, ``tuple(map(add, one, other))`` spelt out index by index (about
    twice as fast): the Ba-awa kernel adds each player's seeds won to their
    captured count this way.

    >>> adder(3)((1, 2, 3), (0, -2, 1))
    (1, 0, 4)
    """
    if type(size) is not int or not 0 < size <= 255:
        raise InvalidPositionError(f"adder adds tuples of 1 to 255 numbers, not {shown(size)}",
                                   field="players")
    terms = "".join(f"a[{i}] + b[{i}], " for i in range(size))
    adder: Callable[[Pits, Pits], Pits] = eval(f"lambda a, b: ({terms})")  # (numbers only)
    return adder


def chain_next(size: int, forward: bool) -> tuple[int, ...]:
    """``bakuk-chain``: the hole a capture chain looks at after each hole: the
    next in sowing order, or (``chain="backward"``) the one before."""
    return tuple((p + 1) % size if forward else (p - 1) % size for p in range(size))


def lap_arrays(size: int, skip_origin: bool, most: int) -> tuple[Any, Any]:
    """The lap table (:func:`bakuk_laps`) as numpy arrays, for the many-games
    steps (numpy needed): ``change[origin, seeds]`` (int16, one entry a pit) and
    ``last[origin, seeds]``."""
    import numpy as np
    laps = bakuk_laps(sowing_next(size, skip_origin), most)
    change = np.array([[lap[0] for lap in row] for row in laps], dtype=np.int16)
    last = np.array([[lap[1] for lap in row] for row in laps], dtype=np.intp)
    return change, last

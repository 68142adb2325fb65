"""Endless sowing on every board: :func:`sow_laps` counts one sowing's laps
with the kernel's sowing, :func:`exhaustive` sows every board of *n* seeds
(many at once, with the kernel's many-games sowing: numpy needed).

>>> sow_laps((4,) * 12, 0)            # the opening move from a: five laps
(5, False)
>>> sow_laps((0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1), 10)   # nine seeds: never ends
(72, True)

Nine seeds is the fewest with an endless sowing, but a board play cannot reach
(captures take fours, so play leaves 48 less a multiple of four on the board):
the smallest endless board play can reach has twelve seeds, the first that
:func:`exhaustive` finds among them (docs/analysis.md's table; the readings
studies use it).

"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from itertools import combinations
from math import comb

from ..engine.games import get_game
from ..errors import not_a
from ..fast import sow
from ..fast.ba_awa import ENDS_MOVE
from ..fast.tables import NextTable, sowing_next
from ..notation import format_pits
from .common import ROWS, SIZE, Table, worker_pool


def sow_laps(pits: tuple[int, ...], pit: int, skip_origin: bool = False) -> tuple[int, bool]:
    """Sow Ba-awa pit *pit* of the board *pits*; return ``(laps, endless)``.

    *laps* counts the laps sown (1 for a move without relay); *endless* is true
    when a lap would start again from a board and pit already seen in this
    move, so that the sowing repeats forever (rule ``ba-awa-endless``); *laps*
    is then the number of laps sown before the repetition, as the engine counts
    them with ``endless="stop"``. It is the
    kernel's own sowing (:func:`mancala_spec.fast.ba_awa.sow`): where seeds go,
    and whether the sowing ends, do not depend on who owns a pit or who moves,
    so neither is a parameter.
    """
    laps, endless = sow(tuple(pits), pit, 0, _sowing_next(skip_origin), ROWS)[3:]
    return laps, endless



@functools.cache
def _sowing_next(skip_origin: bool) -> NextTable:
    return sowing_next(SIZE, skip_origin)



def compositions(total: int, parts: int):
    """Every tuple of *parts* non-negative integers summing to *total*
    (stars and bars, in a fixed order).

    >>> list(compositions(2, 2))
    [(0, 2), (1, 1), (2, 0)]
    """
    if parts == 1:
        yield (total,)
        return
    bars = total + parts - 1
    for cuts in combinations(range(bars), parts - 1):
        previous = -1
        out = []
        for cut in cuts:
            out.append(cut - previous - 1)
            previous = cut
        out.append(bars - previous - 1)
        yield tuple(out)



@dataclass(frozen=True)
class EndlessCount:
    """What :func:`exhaustive` found for one seed count.

    ``positions`` is the number of distributions of ``seeds`` seeds on the
    twelve pits, ``pairs`` the number of (distribution, non-empty pit) pairs,
    ``endless`` how many of those pairs sow forever. ``example`` is the
    lexicographically smallest endless board with pit 0 (South's a) played,
    ``longest`` the most laps of a sowing that ends, and ``longest_example``
    the smallest board (pit 0 played) that takes that many.
    """

    seeds: int
    skip_origin: bool
    positions: int
    pairs: int
    endless: int
    example: tuple[int, ...] | None
    longest: int
    longest_example: tuple[int, ...] | None



Board = tuple[int, ...]

#: boards sown at once by :func:`_exhaustive_chunk` (arrays of a few MB: faster than larger)
CHUNK = 50_000


@functools.cache
def sowing_batch(skip_origin: bool, most: int):
    """The many-games Ba-awa sowing (:class:`~mancala_spec.fast.ba_awa.many.BaAwaBatch`)
    with tables for up to *most* seeds."""
    from ..fast.ba_awa.many import BaAwaBatch
    return BaAwaBatch(get_game("ba-awa", skip_origin=skip_origin), most=most)


def composition_array(total: int, parts: int):
    """:func:`compositions` as a numpy array (one row each, int8), in the same order."""
    import numpy as np
    if parts == 1:
        return np.full((1, 1), total, dtype=np.int8)
    blocks = []
    for first in range(total + 1):
        rest = (_small_compositions(total - first, parts - 1) if parts <= 9
                else composition_array(total - first, parts - 1))
        block = np.empty((len(rest), parts), dtype=np.int8)
        block[:, 0] = first
        block[:, 1:] = rest
        blocks.append(block)
    return np.concatenate(blocks)


@functools.cache
def _small_compositions(total: int, parts: int):
    """:func:`composition_array` of up to eight parts, remembered (a few MB)."""
    return composition_array(total, parts)


def _smallest(boards) -> Board | None:
    """The lexicographically smallest row of *boards*, or ``None`` if there is none."""
    if not len(boards):
        return None
    for column in range(boards.shape[1]):
        boards = boards[boards[:, column] == boards[:, column].min()]
    return tuple(int(x) for x in boards[0])


def _exhaustive_chunk(task: tuple[int, int, int, int, bool]
                      ) -> tuple[int, int, Board | None, int, Board | None]:
    """Sow pit 0 of every board with ``first`` seeds in pit 0, ``held`` in pit
    ``fixed`` and ``seeds`` in all; return (count, endless, smallest endless
    board, longest laps, smallest board taking them). The boards are sown many
    at once by the kernel's many-games sowing (the same sowing as
    :func:`sow_laps`, long ones handed to it)."""
    import numpy as np
    seeds, first, fixed, held, skip_origin = task
    batch = sowing_batch(skip_origin, max(seeds, 48))
    rest = composition_array(seeds - first - held, SIZE - 2)
    count = endless = longest = 0
    example: Board | None = None
    longest_example: Board | None = None
    for start in range(0, len(rest), CHUNK):
        part = rest[start:start + CHUNK]
        pits = np.empty((len(part), SIZE), dtype=np.int16)
        pits[:, 0], pits[:, fixed] = first, held
        pits[:, 1:fixed], pits[:, fixed + 1:] = part[:, :fixed - 1], part[:, fixed - 1:]
        zeros = np.zeros(len(part), dtype=np.intp)
        _, _, _, forever, laps = batch.sow(pits, zeros, zeros, captures=False)
        count += len(part)
        endless += int(forever.sum())
        found = _smallest(pits[forever])
        if found is not None and (example is None or found < example):
            example = found
        finite = laps[~forever]
        if finite.size:
            most = int(finite.max())
            if most >= longest:
                board = _smallest(pits[~forever][finite == most])
                if (most > longest or longest_example is None
                        or (board is not None and board < longest_example)):
                    longest, longest_example = most, board
    return count, endless, example, longest, longest_example


def _one_lap(task: tuple[int, int, int, int, bool]
             ) -> tuple[int, int, Board | None, int, Board | None]:
    """:func:`_exhaustive_chunk` of boards whose first lap ends the move, sown
    by counting: ``first`` seeds from pit 0 drop one by one into pits 1 to
    ``first`` (``fixed``), which holds ``held``: none, so the last seed falls
    into an empty pit (ba-awa-sowing-end), or three, so it makes four
    (ba-awa-mover-four). Every such sowing takes one lap and ends; the
    smallest board puts every other seed in the last pit it can."""
    seeds, first, fixed, held, _ = task
    board = [0] * SIZE
    board[0], board[fixed] = first, held
    board[SIZE - 1 if fixed != SIZE - 1 else SIZE - 2] += seeds - first - held
    return comb(seeds - first - held + SIZE - 3, SIZE - 3), 0, None, 1, tuple(board)

#: The most seeds :func:`exhaustive` sows every board of (each seed more
#: multiplies the boards by about 1.5: 20 seeds take about a minute).
MOST_EXHAUSTIVE = 20
#: The most worker processes :func:`exhaustive` starts: four per core (at least 4).
MOST_PROCESSES = 4 * max(1, os.cpu_count() or 1)


def exhaustive(seeds: int, skip_origin: bool = False, processes: int = 1) -> EndlessCount:
    """Sow every non-empty pit of every distribution of *seeds* seeds on the
    twelve pits, and count the sowings that never end.

    Where seeds go and whether a sowing ends depend only on the board and the
    pit played, and the same rules apply at every pit: sowing pit *k* of a board
    is sowing pit 0 of the board turned *k* pits. So only pit 0 is sown, on every
    board whose pit 0 holds seeds, and each count is multiplied by twelve (the
    test suite checks this against sowing every pit). *processes* > 1 shares the
    work among that many processes.

    >>> row = exhaustive(9)
    >>> row.pairs, row.endless, row.example
    (906984, 72, (2, 0, 1, 0, 1, 0, 1, 0, 1, 0, 2, 1))
    """
    _seeds("seeds", seeds, 0)
    if type(skip_origin) is not bool:
        raise not_a("skip_origin", skip_origin, "true or false")
    if type(processes) is not int or not 1 <= processes <= MOST_PROCESSES:
        raise not_a("processes", processes, f"a whole number from 1 to {MOST_PROCESSES}")
    if seeds < 1:
        return EndlessCount(seeds, skip_origin, 1, 0, 0, None, 0, None)
    # the boards by the seeds of pit 0 and of one more pit: the last of the first
    # lap if the lap ends there (fewer seeds than pits, so it passes no origin)
    tasks = [(seeds, first, first if first < SIZE else 1, held, skip_origin)
             for first in range(1, seeds + 1) for held in range(seeds - first + 1)]
    ends = [task for task in tasks if task[2] == task[1] and task[3] in ENDS_MOVE]
    tasks = [task for task in tasks if task not in ends]
    tasks.sort(key=lambda task: -comb(task[0] - task[1] - task[3] + SIZE - 3, SIZE - 3))
    if processes > 1:
        with worker_pool(processes) as pool:
            results = pool.map(_exhaustive_chunk, tasks, chunksize=1)
    else:
        results = [_exhaustive_chunk(task) for task in tasks]
    results += [_one_lap(task) for task in ends]
    count = endless = longest = 0
    example: Board | None = None
    longest_example: Board | None = None
    for n, e, ex, laps, lex in results:
        count += n
        endless += e
        if ex is not None and (example is None or ex < example):
            example = ex
        if lex is not None and (laps > longest or (laps == longest and (
                longest_example is None or lex < longest_example))):
            longest, longest_example = laps, lex
    assert count == comb(seeds - 1 + SIZE - 1, SIZE - 1)
    return EndlessCount(seeds, skip_origin, comb(seeds + SIZE - 1, SIZE - 1), SIZE * count,
                        SIZE * endless, example, longest, longest_example)



def _seeds(name: str, seeds: object, least: int, most: int = MOST_EXHAUSTIVE) -> None:
    """Refuse a seed count that is not a whole number from *least* to *most*."""
    if type(seeds) is not int or not least <= seeds <= most:
        raise not_a(name, seeds, f"a whole number of seeds from {least} to {most}")


@functools.lru_cache(maxsize=64)
def cached_exhaustive(seeds: int, skip_origin: bool, processes: int = 1) -> EndlessCount:
    """:func:`exhaustive`, remembered."""
    return exhaustive(seeds, skip_origin, processes)



def exhaustive_seed_counts(max_seeds: int) -> list[int]:
    """Every count up to 16, then the multiples of four (the counts play can reach).

    >>> exhaustive_seed_counts(24)[-4:]
    [15, 16, 20, 24]
    """
    _seeds("max_seeds", max_seeds, 1, most=4 * SIZE)
    return [n for n in range(1, max_seeds + 1) if n <= 16 or n % 4 == 0]



def board_text(pits: tuple[int, ...] | None) -> str:
    """A board of the table (twelve counts) in notation, as code; a dash for none."""
    if pits is None:
        return "—"
    if not (isinstance(pits, tuple) and len(pits) == SIZE
            and all(type(n) is int and 0 <= n <= 4 * SIZE for n in pits)):
        raise not_a("pits", pits, f"twelve seed counts from 0 to {4 * SIZE} (a tuple), or None")
    return f"`{format_pits(pits, 6)}`"



#: the most rows :func:`exhaustive_table` makes: one for each seed count it takes
MOST_ROWS = MOST_EXHAUSTIVE + 1


def exhaustive_table(seed_counts, skip_options=(False, True), processes: int = 1) -> Table:
    """:func:`exhaustive` for each seed count, without and with ``skip_origin``;
    the example boards (pit a played) are those without it."""
    if not (isinstance(seed_counts, (list, tuple, range)) and len(seed_counts) <= MOST_ROWS
            and all(type(n) is int for n in seed_counts)):
        raise not_a("seed_counts", seed_counts, f"a list of at most {MOST_ROWS} seed counts")
    for seeds in seed_counts:
        _seeds("seed_counts", seeds, 0)
    if not (isinstance(skip_options, (list, tuple)) and 1 <= len(skip_options) <= 2
            and all(type(skip) is bool for skip in skip_options)):
        raise not_a("skip_options", skip_options,
                    "a list of one or two of true and false (skip_origin)")
    if type(processes) is not int or not 1 <= processes <= MOST_PROCESSES:
        raise not_a("processes", processes, f"a whole number from 1 to {MOST_PROCESSES}")
    header = ["seeds", "boards", "(board, pit) pairs"]
    for skip in skip_options:
        suffix = ", skip_origin" if skip else ""
        header += [f"endless{suffix}", f"longest finite (laps){suffix}"]
    header += ["first endless board, a played", "first longest board, a played"]
    rows = []
    for seeds in seed_counts:
        results = [cached_exhaustive(seeds, skip, processes) for skip in skip_options]
        row = [str(seeds), f"{results[0].positions:,}", f"{results[0].pairs:,}"]
        for r in results:
            row += [f"{r.endless:,}", str(r.longest)]
        row += [board_text(results[0].example), board_text(results[0].longest_example)]
        rows.append(row)
    return header, rows

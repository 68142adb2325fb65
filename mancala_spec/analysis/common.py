"""What every study shares: the option sets compared, the random numbers of
each game, sharing games among processes, tables, and the 95 % Wilson interval.

>>> low, high = wilson(50, 100)
>>> round(low, 4), round(high, 4)
(0.4038, 0.5962)
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from numbers import Integral, Real
from typing import Any, TypeVar

from ..engine.games import get_game
from ..errors import OptionError, not_a

SIZE = 12                       #: Ba-awa's playing pits

ROWS = (0,) * 6 + (1,) * 6      #: who owns each pit (it does not change where seeds go)

Z95 = 1.959963984540054         #: the normal quantile of a two-sided 95 % interval

#: The engine options compared: the defaults, then three editorial alternatives, each
#: alone (docs/analysis.md names them).
CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "skip_origin": {"skip_origin": True},
    "endless-stop": {"endless": "stop"},
    "no-move-owners": {"no_move": "owners"},
}

POLICIES = ("random", "greedy")

Table = tuple[list[str], list[list[str]]]



def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of the proportion
    *successes* / *trials* (95 % by default; ``(0, 1)`` when there are no trials).

    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 4)
    (0.0, 0.2775)
    """
    for name, number in (("successes", successes), ("trials", trials)):
        if not isinstance(number, Integral) or isinstance(number, bool) \
                or not 0 <= number <= 2 ** 53:               # (as exact as a float)
            raise not_a(name, number, "a whole number from 0 to 2**53")
    if not isinstance(z, Real) or isinstance(z, bool) or not 0 < z < 100:
        raise not_a("z", z, "a positive number of standard deviations")
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise OptionError(f"successes must be from 0 to the {trials} trials, not {successes}",
                          option="successes", value=successes)
    share = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (share + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)      # exact at the ends
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high



def share_text(successes: int, trials: int) -> str:
    """A share with its 95 % Wilson interval, in percent, with enough decimals
    to show the interval's end nearest 0 % or 100 % to two significant digits.

    >>> share_text(602, 1000), share_text(2, 48521), share_text(999, 1000)
    ('60.2% (57.1–63.2)', '0.004% (0.001–0.015)', '99.90% (99.44–99.98)')
    """
    low, high = wilson(successes, trials)
    share = successes / trials if trials else 0.0
    margin = min(100 * high, 100 - 100 * low)
    decimals = max(1, 1 - math.floor(math.log10(margin))) if margin > 0 else 1
    return (f"{100 * share:.{decimals}f}% "
            f"({100 * low:.{decimals}f}–{100 * high:.{decimals}f})")



def game_rng(seed: int, number: int) -> random.Random:
    """The random numbers of game *number* of a run with *seed*: each game has
    its own, so a run of fewer games plays the same first games."""
    return random.Random(f"ba-awa {seed} {number}")



T = TypeVar("T")


def in_processes(func: Callable[[str, str, int, int, int], T], config: str, policy: str,
                 games: int, seed: int, first: int, processes: int) -> list[T]:
    """Share games *first*… among *processes* processes, each running *func* on
    its slice; return the parts in game order (games draw from ``game_rng``, so
    the split does not change them)."""
    share = -(-games // processes)
    tasks = [(config, policy, min(share, games - start), seed, first + start)
             for start in range(0, games, share)]
    with worker_pool(processes) as pool:
        return pool.starmap(func, tasks)


@contextmanager
def worker_pool(processes: int) -> Iterator[Any]:
    """A pool of *processes* forked worker processes, for a ``with`` block. Its
    work done, it is closed and joined: the workers leave by themselves (the
    pool's own ``with`` ends them with SIGTERM, and a full run once hung there,
    a worker waiting on the task queue's lock never ending); if the block
    fails, the workers are ended at once."""
    import multiprocessing

    pool = multiprocessing.get_context("fork").Pool(processes)
    try:
        yield pool
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()



def label(config: str) -> str:
    """The game a configuration of :data:`CONFIGS` names, as code (its ``repr``)."""
    check_config(config)
    return f"`{get_game('ba-awa', **CONFIGS[config])!r}`"


def check_config(config: object) -> None:
    """Refuse a name that is not one of :data:`CONFIGS`."""
    if type(config) is not str or config not in CONFIGS:
        raise not_a("config", config, "one of " + ", ".join(map(repr, CONFIGS)))



def runs(games: int, greedy_games: int):
    return (("random", games), ("greedy", greedy_games))



def markdown(table: Table) -> str:
    """A table as Markdown (a pipe table): *table* is (header, rows), each row a
    list of texts as long as the header."""
    check_table(table)
    header, rows = table
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)



def check_table(table: object) -> None:
    """Refuse what is not a :data:`Table`: a header of texts and rows of as many texts."""
    wanted = "a table: (a header, rows), each a list of texts, every row as long as the header"
    if not (isinstance(table, (tuple, list)) and len(table) == 2):
        raise not_a("table", table, wanted)
    header, rows = table
    if not (isinstance(header, (list, tuple)) and header and isinstance(rows, (list, tuple))):
        raise not_a("table", table, wanted)
    for row in (header, *rows):
        if not (isinstance(row, (list, tuple)) and len(row) == len(header)
                and all(type(cell) is str for cell in row)):
            raise not_a("table", table, wanted)


def version() -> str:
    from .. import __version__
    return __version__

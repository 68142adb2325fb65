"""The full solves of Ba-awa the site quotes, and what they tell before a solve.

:func:`quoted_run` is the full solve of the opening under the default rules
(:data:`QUOTED_RUN`), :func:`quoted_variants` those of the other option sets and
rulesets (:data:`QUOTED_VARIANTS`): the output of
``python benchmarks/bench_solve_ba_awa.py --json``, saved beside this module; the
tests re-derive what of them is cheap to check. From the positions per level the
run measured, :func:`expected_bytes` estimates a solve's memory before it starts
(:func:`mancala_spec.solve.ba_awa.solve` and the command line refuse a solve the
machine cannot hold).
"""
from __future__ import annotations

from math import comb
from typing import Any

from .ba_awa_levels import EIGHT, FOUR, PITS

#: bytes a position of the largest level costs while it is solved (the
#: levels are enumerated to files and solved one at a time, bottom up):
#: its successors' rows (24), its predecessors (4 each, and 16 for where
#: they begin and where the next goes while they are gathered), the values
#: iterated, the best ends and the player to move (about 15), and what
#: numpy's growing and freeing leaves held: the full solve of the opening
#: peaked at 1.97 GiB for 77.3 million positions (the largest level 22.9
#: million), which 88 and :data:`BYTES_KEPT` cover (see estimate_bytes)
BYTES_PER_POSITION = 88
#: bytes a position costs kept while the levels are solved: its values
#: (one a value; two with ``also``)
BYTES_KEPT = 2
#: bytes a position costs at the end, the solution whole: its key (8) and values
BYTES_SOLVED = 10


#: the full solve of the opening under the default rules that the site quotes:
#: the output of ``python benchmarks/bench_solve_ba_awa.py --json --also nothing``
#: saved beside this module (the tests re-derive what of it is cheap to check)
QUOTED_RUN = "ba_awa_run.json"


def quoted_run() -> dict[str, Any]:
    """The quoted full solve (:data:`QUOTED_RUN`): version, date, machine and
    load average; positions, seconds and rounds per level; wall and CPU
    seconds, peak memory; the opening's value and each opening move's (from
    the side of South, the opener); one perfectly played game."""
    import json
    from importlib import resources
    run: dict[str, Any] = json.loads(
        resources.files(__package__).joinpath(QUOTED_RUN).read_text("utf-8"))
    return run


#: positions per level (seeds on the board) reached from the opening under the
#: default rules, as measured by the full solve (:func:`quoted_run`);
#: :func:`expected_bytes` estimates a solve's memory from them before it starts
MEASURED: dict[int, int] = {int(seeds): level["positions"]
                            for seeds, level in quoted_run()["levels"].items()}
#: a level of at most this many boards is counted whole by expected_counts
SMALL_LEVEL = 3_000_000


def expected_counts(seeds: int) -> dict[int, int]:
    """The positions per level expected from a start with *seeds* seeds, for
    the levels where a number is known: those measured from the opening
    (:data:`MEASURED`, at most every board of the level), and the small levels
    (every board, when that is at most :data:`SMALL_LEVEL`: an overestimate).
    Levels of neither kind are left out (nothing is known of them before
    they are enumerated; :func:`solve` checks again then)."""
    counts = {}
    for s in range(seeds, EIGHT, -FOUR):
        boards = 2 * comb(s + PITS - 1, PITS - 1)
        if s in MEASURED:
            counts[s] = min(boards, MEASURED[s])
        elif boards <= SMALL_LEVEL:
            counts[s] = boards
    return counts


def expected_bytes(seeds: int) -> int:
    """The memory a solve from *seeds* seeds is expected to need (an estimate:
    :func:`estimate_bytes` of :func:`expected_counts`)."""
    return estimate_bytes(expected_counts(seeds))


def estimate_bytes(counts: dict[int, int]) -> int:
    """The peak memory of solving levels of these sizes (an estimate, from the
    arrays each level's solve holds: see :data:`BYTES_PER_POSITION`): the
    largest level while it is solved, or the solution whole at the end."""
    total = sum(counts.values())
    return max(BYTES_KEPT * total + BYTES_PER_POSITION * max(counts.values(), default=0),
               BYTES_SOLVED * total)


#: the full solves of the other option sets and rulesets that the site quotes:
#: the output of ``python benchmarks/bench_solve_ba_awa.py --json -O NAME=VALUE ...``
#: for each, saved together (a list of runs) beside this module
QUOTED_VARIANTS = "ba_awa_variants.json"


def quoted_variants() -> list[dict[str, Any]]:
    """The quoted full solves of the other option sets (:data:`QUOTED_VARIANTS`),
    each as :func:`quoted_run` and with its ``options`` (those not at their
    default, as the command line writes them)."""
    import json
    from importlib import resources
    runs: list[dict[str, Any]] = json.loads(
        resources.files(__package__).joinpath(QUOTED_VARIANTS).read_text("utf-8"))
    return runs

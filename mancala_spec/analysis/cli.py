"""``python -m mancala_spec.analysis``: print every table, with timings."""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

from .common import Table, markdown, version
from .endless import exhaustive_seed_counts, exhaustive_table
from .games import Endings, count_endings
from .opener import endings_table, in_play_table, longest_table, opener_table
from .recurrence import recurrence_search, recurrence_table, repetition_table

#: The sizes the rules site is built with (``--quick``).
QUICK = {"games": 4000, "greedy_games": 800, "seed": 2026, "max_seeds": 12,
         "ending_games": 0, "recurrence_games": 0, "budget": 3000}

#: The sizes of the run the analysis page quotes (no flag).
FULL = {"games": 100_000, "greedy_games": 20_000, "seed": 2026, "max_seeds": 20,
        "ending_games": 1_000_000, "recurrence_games": 300, "budget": 3000}


def count(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least *least*."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value
    return parse


def main(argv: list[str] | None = None) -> int:
    """``python -m mancala_spec.analysis``: print every table, with timings."""
    parser = argparse.ArgumentParser(
        prog="python -m mancala_spec.analysis",
        description="Ba-awa by experiment: print the analysis page's tables (Markdown).")
    parser.add_argument("--quick", action="store_true",
                        help="the sizes the rules site builds with")
    parser.add_argument("--games", type=count(1), help="random games per option set")
    parser.add_argument("--greedy-games", type=count(1), help="greedy games per option set")
    parser.add_argument("--seed", type=count(0), help="seed of the move choices")
    parser.add_argument("--max-seeds", type=count(1),
                        help="largest seed count searched exhaustively")
    parser.add_argument("--ending-games", type=count(0),
                        help="random games (default options) counted for how they end")
    parser.add_argument("--recurrence-games", type=count(0),
                        help="random games whose every position is searched for a recurrence")
    parser.add_argument("--budget", type=count(1), help="positions per recurrence search")
    parser.add_argument("--processes", type=count(1), default=os.cpu_count() or 1,
                        help="worker processes (default: one per core)")
    args = parser.parse_args(argv)
    sizes = dict(QUICK if args.quick else FULL)
    for key in sizes:
        if getattr(args, key, None) is not None:
            sizes[key] = getattr(args, key)
    games, greedy, seed = sizes["games"], sizes["greedy_games"], sizes["seed"]
    processes = max(1, args.processes)
    started = time.perf_counter()
    print(f"# Ba-awa by experiment\n\nmancala_spec {version()}, Python "
          f"{sys.version.split()[0]}, {processes} processes, started "
          f"{time.strftime('%Y-%m-%d %H:%M')}; sizes: {sizes}\n", flush=True)

    def section(title: str, make: Callable[[], Table]) -> None:
        t0 = time.perf_counter()
        table = make()
        print(f"## {title}\n\n{markdown(table)}\n\n({time.perf_counter() - t0:.1f} s)\n",
              flush=True)

    counts = exhaustive_seed_counts(sizes["max_seeds"])
    section(f"Every board of 1 to {sizes['max_seeds']} seeds",
            lambda: exhaustive_table(counts, processes=processes))
    section(f"The opener's results (seed {seed})",
            lambda: opener_table(games, greedy, seed, processes))
    section("In play", lambda: in_play_table(games, greedy, seed, processes))
    section("Longest finite moves met in play",
            lambda: longest_table(games, greedy, seed, processes))
    if sizes["ending_games"]:
        endings: list[Endings] = []      # counted once, for both tables

        def counted() -> Endings:
            endings.append(count_endings("default", "random", sizes["ending_games"], seed,
                                         processes=processes))
            return endings[0]

        section(f"How {sizes['ending_games']:,} random games end (seed {seed})",
                lambda: endings_table(counted()))
        section("The games that ended by repetition", lambda: repetition_table(endings[0]))
    if sizes["recurrence_games"]:
        section(f"Recurrence search ({sizes['recurrence_games']:,} random games, seed {seed}, "
                "default options)",
                lambda: recurrence_table(recurrence_search(
                    "default", sizes["recurrence_games"], seed, sizes["budget"],
                    processes=processes)))
    print(f"total: {time.perf_counter() - started:.1f} s")
    return 0

"""``python -m mancala_spec.analysis``: print every table, with timings."""
from __future__ import annotations

import argparse
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import NoReturn

from ..terminal import signals as _signals
from ..terminal.escape import shown
from ..terminal.output import Stdout
from ..terminal.status import MAX_ARGUMENTS, OutputError, ReaderGone
from .common import Table, markdown, version
from .endless import MOST_EXHAUSTIVE, MOST_PROCESSES, exhaustive_seed_counts, exhaustive_table
from .games import Endings, count_endings
from .opener import endings_table, in_play_table, longest_table, opener_table
from .recurrence import recurrence_search, recurrence_table, repetition_table

#: The sizes the rules site is built with (``--quick``).
QUICK = {"games": 4000, "greedy_games": 800, "seed": 2026, "max_seeds": 12,
         "ending_games": 0, "recurrence_games": 0, "budget": 3000}

#: The sizes of the run the analysis page quotes (no flag).
FULL = {"games": 100_000, "greedy_games": 20_000, "seed": 2026, "max_seeds": 20,
        "ending_games": 4_000_000, "recurrence_games": 300, "budget": 3000}


#: The largest value each size takes (a larger one would run for days or take
#: all memory): the full run's sizes and some room above them.
MOST = {"games": 10_000_000, "greedy_games": 1_000_000, "seed": 2**64 - 1,
        "max_seeds": MOST_EXHAUSTIVE,
        "ending_games": 10_000_000, "recurrence_games": 100_000, "budget": 1_000_000}


def count(least: int, most: int) -> Callable[[str], int]:
    """An argparse type: a whole number from *least* to *most*."""
    def parse(text: str) -> int:
        digits = text.strip()
        if digits.isdigit():               # leading zeros do not count towards the length
            digits = digits.lstrip("0") or "0"
        if len(digits) > 40:               # before int(): no digit-limit error, no slow parse
            raise argparse.ArgumentTypeError(f"must be from {least:,} to {most:,}, not a "
                                             f"number of {len(digits):,} characters")
        try:
            value = int(digits)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"must be from {least:,} to {most:,}, not {value:,}")
        return value
    return parse


_MAIN = os.getpid()
PROG = "python -m mancala_spec.analysis"
#: Ctrl-C, SIGTERM and SIGHUP (its terminal closed) stop a run.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))


def _stop(signum, frame):
    """Ctrl-C or SIGTERM: the main process kills its worker processes, says one
    line and leaves at once, without the pools' own shutdown (raising in the
    middle of a pool's start or teardown could leave it waiting, or leave
    workers running with the output pipes open). A worker ignores Ctrl-C (sent
    to the whole group, the main process ends it) and leaves quietly on the
    SIGTERM of a pool ending it."""
    if os.getpid() != _MAIN:
        if signum == signal.SIGINT:
            return
        os._exit(130)
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    for child in multiprocessing.active_children():
        child.kill()
    _signals.say(f"{PROG}: interrupted", _signals.INTERRUPTED)
    os._exit(_signals.INTERRUPTED)


def _watch_parent() -> None:
    """In every process forked from here: leave once the parent is gone, so no
    worker outlives an interrupted run (one forked just as the main process
    stopped, say), holds its output open or writes to it. On Linux the kernel
    kills the worker as the parent exits (a parent-death signal); elsewhere a
    thread looks every 0.2 s.

    A worker also leaves SIGTERM to the kernel (it ends the worker at once,
    whichever of its threads the signal meets) and ignores Ctrl-C: a Python
    handler runs only in the main thread, so a worker waiting in a pool's
    queue lock, the signal taken by another thread, would wait for ever (seen:
    a full run hung in a pool's shutdown)."""
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if hasattr(signal, "SIGHUP"):
            signal.signal(signal.SIGHUP, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:                          # (forked from a thread other than the main)
        pass
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)          # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:                  # gone before the signal was set
        os._exit(130)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(130)
    threading.Thread(target=watch, daemon=True).start()


class OneLineParser(argparse.ArgumentParser):
    """argparse whose errors are one line on stderr (not the usage as well), with
    exit status 2, as the ``mancala-spec`` commands' are."""

    def error(self, message: str) -> NoReturn:
        _signals.said(2)
        self.exit(2, shown(f"{self.prog}: error: {message} (see --help)") + "\n")


def main(argv: list[str] | None = None) -> int:
    """``python -m mancala_spec.analysis``: print every table, with timings.

    Standard output is written as ``mancala-spec`` writes it
    (:class:`~mancala_spec.terminal.output.Stdout`, each table as it is made): a
    closed standard output or a failed write (a full disk) is one line and exit
    status 4, a reader that has gone (``| head``) a quiet exit status 141.
    """
    _signals.begin()
    if sys.stdout is None:                      # started with standard output closed (>&-)
        return _fail("cannot write standard output: it is closed", 4)
    original = sys.stdout
    sys.stdout = Stdout(original, live=True)
    try:
        return _main(argv)
    except ReaderGone:
        _signals.said(ReaderGone.status)
        return ReaderGone.status
    except OutputError as error:
        return _fail(str(error), error.status)
    finally:
        sys.stdout = original


def _fail(message: str, status: int) -> int:
    _signals.said(status)
    try:
        print(shown(f"{PROG}: error: {message}"), file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass
    return status


def _main(argv: list[str] | None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if len(arguments) > MAX_ARGUMENTS:
        return _fail(f"{len(arguments):,} arguments: at most {MAX_ARGUMENTS:,} are taken", 2)
    parser = OneLineParser(
        prog=PROG,
        description="Ba-awa by experiment: print the analysis page's tables (Markdown).")
    parser.add_argument("--quick", action="store_true",
                        help="the sizes the rules site builds with")
    parser.add_argument("--games", type=count(1, MOST["games"]),
                        help=f"random games per option set (at most {MOST['games']:,})")
    parser.add_argument("--greedy-games", type=count(1, MOST["greedy_games"]),
                        help=f"greedy games per option set (at most {MOST['greedy_games']:,})")
    parser.add_argument("--seed", type=count(0, MOST["seed"]), help="seed of the move choices")
    parser.add_argument("--max-seeds", type=count(1, MOST["max_seeds"]),
                        help="largest seed count searched exhaustively (at most "
                             f"{MOST['max_seeds']}: each more multiplies the boards by about 1.5)")
    parser.add_argument("--ending-games", type=count(0, MOST["ending_games"]),
                        help="random games (default options) counted for how they end "
                             f"(at most {MOST['ending_games']:,})")
    parser.add_argument("--recurrence-games", type=count(0, MOST["recurrence_games"]),
                        help="random games whose every position is searched for a recurrence "
                             f"(at most {MOST['recurrence_games']:,})")
    parser.add_argument("--budget", type=count(1, MOST["budget"]),
                        help=f"positions per recurrence search (at most {MOST['budget']:,})")
    parser.add_argument("--processes", type=count(1, MOST_PROCESSES),
                        default=os.cpu_count() or 1,
                        help=f"worker processes (default: one per core; at most {MOST_PROCESSES})")
    args = parser.parse_args(arguments)
    os.register_at_fork(after_in_child=_watch_parent)
    previous = {number: signal.signal(number, _stop) for number in STOP_SIGNALS
                if signal.getsignal(number) != signal.SIG_IGN}      # nohup: left ignored
    try:
        return _run(args)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _run(args: argparse.Namespace) -> int:
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

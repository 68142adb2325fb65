"""The ``mancala-spec`` command.

    mancala-spec --version
    mancala-spec solve bakuk [--chain backward] [--leftovers owners]
                             [--no-move pass] [--skip-origin]

Each subcommand is a function decorated with :func:`command`, which names it,
gives its one-line help and its arguments; add one by writing another such
function, here or in a module listed in :data:`COMMAND_MODULES` (imported when
the parser is built). A subcommand returns the exit status. Errors in what the
user asked for (an unknown game, an
option that does not apply) are printed as one line on stderr, never as a
traceback, with an exit status from :data:`EXIT_STATUSES`.
"""
from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from .. import __version__
from ..errors import MancalaError

PROG = "mancala-spec"


@dataclass(frozen=True)
class ExitStatus:
    code: int
    name: str
    meaning: str


#: The exit statuses of every subcommand: the one table that ``--help``, the
#: command-line page and the tests read.
EXIT_STATUSES = (
    ExitStatus(0, "ok", "done; for conformance run, every case passed"),
    ExitStatus(1, "failures", "conformance run: a case failed, a suite case is invalid, or "
                              "fewer cases were supported than --min-supported"),
    ExitStatus(2, "bad input", "a usage error or bad input (unknown game or rule, malformed "
                               "position or record, illegal move, input over its size limit); "
                               "nothing was written"),
    ExitStatus(3, "engine failure", "conformance run: the engine could not be started, or "
                                    "the run stopped early after consecutive engine failures, "
                                    "or no case ran"),
    ExitStatus(4, "output error", "a file could not be written (missing folder, no permission, "
                                  "disk full, not a regular file) or standard output was "
                                  "closed; nothing half-written is left"),
    ExitStatus(70, "internal error", "a bug in mancala-spec; the line names it (set "
                                     "MANCALA_SPEC_DEBUG=1 for the traceback)"),
    ExitStatus(130, "interrupted", "stopped by Ctrl-C or SIGTERM; an engine under test is "
                                   "killed with its whole process group"),
)
EXIT = {status.name: status.code for status in EXIT_STATUSES}


def exit_status_text() -> str:
    """The exit-status table as plain text (the ``--help`` epilog)."""
    return "exit status:\n" + "\n".join(
        f"  {s.code:<4} {s.name}: {s.meaning}" for s in EXIT_STATUSES)


class CliError(MancalaError):
    """An error the command reports as one line on stderr with its exit status."""

    status = EXIT["bad input"]


class UsageError(CliError):
    """What the user asked for cannot be done; the message says why (exit status 2)."""


class OutputError(CliError):
    """A file or stream could not be written (exit status 4)."""

    status = EXIT["output error"]


class EngineFailure(CliError):
    """The engine under test could not be run (exit status 3)."""

    status = EXIT["engine failure"]


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


COMMANDS: dict[str, Command] = {}

#: Modules of this package whose import registers more subcommands.
COMMAND_MODULES = ("rules", "play", "diagram", "conformance", "rulesets")


Run = Callable[[argparse.Namespace], int]


def command(name: str, help: str,
            arguments: Callable[[argparse.ArgumentParser], None]) -> Callable[[Run], Run]:
    """Register the decorated ``run(args) -> exit status`` as subcommand *name*."""
    def register(run: Run) -> Run:
        COMMANDS[name] = Command(name, help, arguments, run)
        return run
    return register


def _load_commands() -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__package__}.{name}")


class _Parser(argparse.ArgumentParser):
    """argparse with the exit-status table under every help text."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("epilog", exit_status_text())
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        """One line on stderr and exit status 2 (argparse prints the usage too)."""
        self.exit(EXIT["bad input"], f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    _load_commands()
    parser = _Parser(
        prog=PROG, description="A citable, executable rules reference for Ba-awa and Bakuk.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND",
                                       parser_class=_Parser)
    for cmd in COMMANDS.values():
        sub = subparsers.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        cmd.arguments(sub)
        sub.set_defaults(run=cmd.run)
    return parser


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: ``finally`` blocks run (engines are killed)."""


def _on_sigterm(signum, frame):
    raise _Terminated()


def _quiet_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so the interpreter's
    final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the command line *argv* (default: ``sys.argv[1:]``); return the exit status.

    Every failure ends in one line on stderr and a status from :data:`EXIT_STATUSES`.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        print(f"{PROG}: error: give a command: {', '.join(COMMANDS)} (see --help)",
              file=sys.stderr)
        return EXIT["bad input"]
    name = f"{PROG} {args.command}"
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        status = args.run(args)
        sys.stdout.flush()
        return status
    except CliError as error:
        print(f"{name}: error: {error}", file=sys.stderr)
        return error.status
    except RecursionError:
        print(f"{name}: error: the input is nested too deeply", file=sys.stderr)
        return EXIT["bad input"]
    except MemoryError:
        print(f"{name}: error: out of memory", file=sys.stderr)
        return EXIT["bad input"]
    except (MancalaError, ValueError) as error:
        print(f"{name}: error: {error}", file=sys.stderr)
        return EXIT["bad input"]
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT["output error"]
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return EXIT["interrupted"]
    except OSError as error:
        if error.filename is None:             # a write to standard output failed
            _quiet_stdout()
            print(f"{name}: error: cannot write standard output: {error.strerror or error}",
                  file=sys.stderr)
        else:
            print(f"{name}: error: {error.filename}: {error.strerror or error}",
                  file=sys.stderr)
        return EXIT["output error"]
    except Exception as error:  # noqa: BLE001 - the last line of defence: no tracebacks
        if os.environ.get("MANCALA_SPEC_DEBUG"):
            raise
        print(f"{name}: internal error: {type(error).__name__}: {error} "
              "(a bug; MANCALA_SPEC_DEBUG=1 shows the traceback)", file=sys.stderr)
        return EXIT["internal error"]
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def check_target(target: str | os.PathLike[str]) -> Path:
    """The real path *target* names, if a file may be written there; else
    :class:`OutputError` saying why (no such folder, not a regular file)."""
    path = Path(target)
    try:
        real = path.resolve()
    except (OSError, RuntimeError) as error:
        raise OutputError(f"cannot write {target}: {error}") from None
    if real.exists() and not real.is_file():
        raise OutputError(f"cannot write {target}: it is not a regular file")
    if not real.parent.is_dir():
        raise OutputError(f"cannot write {target}: no folder {real.parent}")
    if not os.access(real.parent, os.W_OK):
        raise OutputError(f"cannot write {target}: no permission to write in {real.parent}")
    return real


def write_atomic(target: str | os.PathLike[str], data: bytes) -> Path:
    """Write *data* to *target* completely or not at all: into a temporary file
    in the target's folder, then renamed over it. A symlink is followed to the
    file it names; a target that exists and is not a regular file (a device
    such as /dev/full, a folder, a pipe) is refused. Raises :class:`OutputError`."""
    real = check_target(target)
    folder = real.parent
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(f"cannot write {target}: {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, real)
    except OSError as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise OutputError(f"cannot write {target}: {error.strerror or error}") from None
    return real


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# -- progress --------------------------------------------------------------------

class ProgressBar:
    """A one-line progress bar on *stream* (stderr by default), redrawn in place.

    Call it with (phase, done, total); *total* ``None`` means not known yet,
    shown as a block sweeping to and fro. On a stream that is not a terminal it
    writes one line as each phase ends instead.
    """

    def __init__(self, stream: TextIO | None = None, width: int = 30,
                 every: float = 0.1) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.every = every
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self.phase: str | None = None
        self.last = 0.0
        self.ticks = 0
        self.shown = ""

    def __call__(self, phase: str, done: int, total: int | None) -> None:
        if phase != self.phase:
            self._end_phase()
            self.phase = phase
        finished = total is not None and done >= total
        now = time.monotonic()
        if not finished and now - self.last < self.every:
            return
        self.last = now
        self.shown = self._line(phase, done, total)
        if self.live:
            self.stream.write("\r" + self.shown)
            self.stream.flush()

    def _line(self, phase: str, done: int, total: int | None) -> str:
        if total:
            filled = round(self.width * min(done, total) / total)
            bar = "#" * filled + "-" * (self.width - filled)
            return f"{phase:<12} [{bar}] {100 * done / total:5.1f}%  {done:,}/{total:,}"
        self.ticks += 1
        at = self.ticks % (2 * self.width - 6)
        at = at if at < self.width - 3 else 2 * self.width - 6 - at
        bar = "-" * at + "###" + "-" * (self.width - 3 - at)
        return f"{phase:<12} [{bar}]  {done:,}"

    def _end_phase(self) -> None:
        if self.phase is None:
            return
        self.stream.write(("\r" if self.live else "") + self.shown + "\n")
        self.stream.flush()
        self.phase = None

    def close(self) -> None:
        """End the bar's last line."""
        self._end_phase()


# -- solve -----------------------------------------------------------------------

def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="the game to solve: bakuk")
    parser.add_argument("--chain", choices=("forward", "backward"), default="forward",
                        help="the capture chain's direction (bakuk-chain; default forward)")
    parser.add_argument("--leftovers", choices=("unscored", "owners"), default="unscored",
                        help="counters left at the end score for nobody or for their "
                             "hole's owner (bakuk-leftovers; default unscored)")
    parser.add_argument("--no-move", choices=("end", "pass"), default="end",
                        help="a player to move without counters ends the game or passes "
                             "(bakuk-exhausted; default end)")
    parser.add_argument("--skip-origin", action="store_true",
                        help="a lap of six or more passes over the hole it left (bakuk-origin)")
    parser.add_argument("--pits-per-row", type=int, default=None, metavar="N",
                        help="a smaller or larger board, for experiments (default 3)")
    parser.add_argument("--seeds-per-pit", type=int, default=None, metavar="N",
                        help="counters in each hole at the start, for experiments (default 6)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


@command("solve", "solve a game: the value of every position reachable from the start",
         _solve_arguments)
def run_solve(args: argparse.Namespace) -> int:
    from ..engine.games import get_game
    from ..solve import Rules, solve

    game = get_game(args.game)           # an unknown game raises UnknownGameError
    if game.name != "bakuk":
        raise UsageError(f"only Bakuk can be solved here, not {game.title}: its positions "
                         "are too many")
    options = {"chain": args.chain, "leftovers": args.leftovers, "no_move": args.no_move,
               "skip_origin": args.skip_origin}
    rules = Rules.from_game(get_game("bakuk", **options))
    if args.pits_per_row is not None or args.seeds_per_pit is not None:
        rules = Rules(
            pits_per_row=rules.pits_per_row if args.pits_per_row is None else args.pits_per_row,
            seeds_per_pit=rules.seeds_per_pit if args.seeds_per_pit is None
            else args.seeds_per_pit, **options)
    _check_size(rules)
    progress = None if args.no_progress else ProgressBar()
    started = time.perf_counter()
    try:
        solution = solve(rules, progress=progress)
    finally:
        if progress is not None:
            progress.close()
    seconds = time.perf_counter() - started
    print(report(solution, seconds))
    return 0


#: The most positions ``solve`` sets out to solve (the default Bakuk board has
#: about 10.5 million; each position costs the solver a few hundred bytes).
MAX_SOLVE_POSITIONS = 25_000_000


def _check_size(rules) -> None:
    """Refuse a board whose positions would not fit in memory, before solving."""
    from math import comb

    holes = 2 * rules.pits_per_row
    total = holes * rules.seeds_per_pit
    if rules.pits_per_row < 1 or rules.seeds_per_pit < 1:
        raise UsageError("--pits-per-row and --seeds-per-pit must be at least 1")
    positions = 2 * comb(total + holes, holes)
    if positions > MAX_SOLVE_POSITIONS:
        raise UsageError(
            f"{rules.pits_per_row} holes a row with {rules.seeds_per_pit} "
            f"counter{'s' if rules.seeds_per_pit != 1 else ''} each "
            f"has up to {positions:,} positions; solve handles at most "
            f"{MAX_SOLVE_POSITIONS:,} (the limit keeps it within a few GB of memory)")


def report(solution, seconds: float | None = None) -> str:
    """The solution's summary, as ``mancala-spec solve`` prints it."""
    from ..engine.board import Board, player_name

    rules = solution.rules
    pits, to_move = solution.start
    board = Board(rules.pits_per_row)
    options = ", ".join(f"{name}={value}" for name, value in rules.options().items())
    size = "" if (rules.pits_per_row, rules.seeds_per_pit) == (3, 6) else \
        f", {rules.pits_per_row} holes a row, {rules.seeds_per_pit} counters each"
    moves = solution.move_values(pits, to_move)
    best = max(moves.values())
    lines = [
        f"Bakuk ({options}{size})",
        f"positions reachable from the start: {len(solution):,}",
        "value: the capture margin the player to move can force from there "
        "(endless play adds nothing)",
        f"value of the opening, {player_name(to_move)} to move: "
        f"{solution.value(pits, to_move):+d}",
        "first moves:",
        *(f"  {board.name(pit)}  {value:+d}{'   best' if value == best else ''}"
          for pit, value in moves.items()),
    ]
    if seconds is not None:
        parts = ", ".join(f"{name} {value:.1f}" for name, value in solution.seconds.items())
        lines.append(f"solved in {seconds:.1f} s ({parts})")
    return "\n".join(lines)


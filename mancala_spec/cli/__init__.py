"""The ``mancala-spec`` command.

    mancala-spec --version
    mancala-spec solve bakuk [--chain backward] [--leftovers owners]
                             [--no-move pass] [--skip-origin]

Each subcommand is a function decorated with :func:`command`, which names it,
gives its one-line help and its arguments; add one by writing another such
function, here or in a module listed in :data:`COMMAND_MODULES` (imported when
the parser is built). A subcommand returns the exit status. Errors in what the user asked for (an unknown game, an
option that does not apply) are printed as one message on stderr with exit
status 2, never as a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from .. import __version__
from ..errors import MancalaError

PROG = "mancala-spec"


class UsageError(MancalaError):
    """What the user asked for cannot be done; the message says why (exit status 2)."""


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


COMMANDS: dict[str, Command] = {}

#: Modules of this package whose import registers more subcommands.
COMMAND_MODULES = ("commands",)


def command(name: str, help: str, arguments: Callable[[argparse.ArgumentParser], None]):
    """Register the decorated ``run(args) -> exit status`` as subcommand *name*."""
    def register(run: Callable[[argparse.Namespace], int]):
        COMMANDS[name] = Command(name, help, arguments, run)
        return run
    return register


def _load_commands() -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__package__}.{name}")


def build_parser() -> argparse.ArgumentParser:
    _load_commands()
    parser = argparse.ArgumentParser(
        prog=PROG, description="A citable, executable rules reference for Ba-awa and Bakuk.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for cmd in COMMANDS.values():
        sub = subparsers.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        cmd.arguments(sub)
        sub.set_defaults(run=cmd.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line *argv* (default: ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.run(args)
    except (MancalaError, ValueError) as error:
        print(f"{PROG} {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130


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


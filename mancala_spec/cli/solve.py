"""The ``solve`` subcommand: Bakuk strongly solved, its opening's value and
the value of every first move.

Its option flags are not declared here: each is derived from the game's option
declarations (:func:`mancala_spec.options.game_options`), so a new value or a
new option of Bakuk reaches the command line and its help by itself. The
solver plays two players, so the options that only seat a third player are
left out.
"""
from __future__ import annotations

import argparse
import time
from math import comb
from typing import Any

from ..options import Option, kernel_options
from .progress import ProgressBar
from .registry import command
from .status import MissingExtraError, UsageError

#: The options of Bakuk that only matter with three players: not solved here.
SEAT_OPTIONS = ("players", "turn_order")

#: The most positions ``solve`` sets out to solve (the default Bakuk board has
#: about 10.5 million; each position costs the solver a few hundred bytes).
MAX_SOLVE_POSITIONS = 25_000_000


def solved_options() -> tuple[Option, ...]:
    """The options of Bakuk that ``solve`` takes as flags, as declared."""
    return tuple(o for o in kernel_options("bakuk") if o.name not in SEAT_OPTIONS)


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def flag(option: Option) -> str:
    """The option's flag: its name with hyphens (``no_move``: ``--no-move``)."""
    return "--" + option.name.replace("_", "-")


def _parser_of(option: Option):
    def parse(text: str) -> Any:
        try:
            return option.parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    parse.__name__ = option.name
    return parse


def add_option_flags(parser: argparse.ArgumentParser, options: tuple[Option, ...]) -> None:
    """One flag per option: a yes-or-no option as ``--name``/``--no-name``, any
    other as ``--name VALUE`` taking the values declared."""
    for option in options:
        rule = f"{option.rule}; default {_shown(option.default)}"
        if option.type is bool:
            parser.add_argument(flag(option), dest=option.name,
                                action=argparse.BooleanOptionalAction, default=option.default,
                                help=f"{option.help} ({rule})")
        else:
            shown = [_shown(c) for c in option.choices]
            parser.add_argument(flag(option), dest=option.name, type=_parser_of(option),
                                default=option.default, metavar="{" + ",".join(shown) + "}",
                                help=f"{option.help} ({rule})")


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="the game to solve: bakuk")
    add_option_flags(parser, solved_options())
    parser.add_argument("--pits-per-row", type=int, default=None, metavar="N",
                        help="a smaller or larger board, for experiments (default 3)")
    parser.add_argument("--seeds-per-pit", type=int, default=None, metavar="N",
                        help="counters in each hole at the start, for experiments (default 6)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


@command("solve", "solve a game: the value of every position reachable from the start "
                  "(needs numpy: the solve extra)", _solve_arguments)
def run_solve(args: argparse.Namespace) -> int:
    from ..engine.games import get_game

    game = get_game(args.game)           # an unknown game raises UnknownGameError
    if game.name != "bakuk":
        raise UsageError(f"only Bakuk can be solved here, not {game.title}: its positions "
                         "are too many")
    try:
        from ..solve import Rules, solve
    except ImportError:
        raise MissingExtraError("solve", "numpy", "solve") from None
    options = {o.name: getattr(args, o.name) for o in solved_options()}
    rules = Rules.from_game(get_game("bakuk", **options))
    if args.pits_per_row is not None or args.seeds_per_pit is not None:
        pits = rules.pits_per_row if args.pits_per_row is None else args.pits_per_row
        seeds = rules.seeds_per_pit if args.seeds_per_pit is None else args.seeds_per_pit
        check_size(pits, seeds)
        rules = Rules(pits_per_row=pits, seeds_per_pit=seeds, **options)
    check_size(rules.pits_per_row, rules.seeds_per_pit)
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


def check_size(pits_per_row: int, seeds_per_pit: int) -> None:
    """Refuse a board whose positions would not fit in memory, before solving."""
    if pits_per_row < 1 or seeds_per_pit < 1:
        raise UsageError("--pits-per-row and --seeds-per-pit must be at least 1")
    if pits_per_row > 64 or seeds_per_pit > 1000:
        positions = None
    else:
        holes = 2 * pits_per_row
        positions = 2 * comb(holes * seeds_per_pit + holes, holes)
    if positions is None or positions > MAX_SOLVE_POSITIONS:
        many = "far too many" if positions is None else f"up to {positions:,}"
        raise UsageError(
            f"{pits_per_row} holes a row with {seeds_per_pit} "
            f"counter{'s' if seeds_per_pit != 1 else ''} each "
            f"has {many} positions; solve handles at most "
            f"{MAX_SOLVE_POSITIONS:,} (the limit keeps it within a few GB of memory)")


def report(solution: Any, seconds: float | None = None) -> str:
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

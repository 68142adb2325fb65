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

from ..options import Option, solver_options
from ..options import option as option_of
from ..terminal.escape import shown as escaped
from ..terminal.status import OutputError, UsageError
from .command_registry import command
from .memory import (
    MAX_MEMORY_GIB,
    address_space_room,
    available_memory,
    check_room_to_load,
    gib,
    memory_gib,
    numpy_unloadable,
    peak_bytes,
)
from .progress import ProgressBar

#: The most positions ``solve`` sets out to solve (the default Bakuk board has
#: about 10.5 million; each position costs the solver a few hundred bytes).
MAX_SOLVE_POSITIONS = 25_000_000


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
    parser.add_argument("game", help="the game to solve: bakuk or ba-awa; or verify, to "
                                     "check a table of values (solve verify PATH)")
    parser.add_argument("table", nargs="?", default=None, metavar="PATH",
                        help="solve verify: the table to check (a folder written by "
                             "--write-table, or Bakuk's table file)")
    add_option_flags(parser, solver_options("bakuk"))
    add_ba_awa_flags(parser)
    parser.add_argument("--pits-per-row", type=int, default=None, metavar="N",
                        help="a smaller or larger board, for experiments (default 3)")
    parser.add_argument("--seeds-per-pit", type=int, default=None, metavar="N",
                        help="counters in each hole at the start, for experiments (default 6)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true",
                        help="Ba-awa: the result as JSON, for programs")
    parser.add_argument("--start", default=None, metavar="POSITION",
                        help="Ba-awa: solve from this position (our notation, as "
                             "'show' writes it) instead of the opening, for experiments")
    parser.add_argument("--memory", type=memory_gib, default=None, metavar="GIB",
                        help="Ba-awa: the memory the solve may use, in GiB, more than 0 "
                             f"and at most {MAX_MEMORY_GIB:,} (default: the memory "
                             "available now, within the address-space limit, ulimit -v); "
                             "a solve that needs more is refused before it starts")
    parser.add_argument("--write-table", default=None, metavar="DIR",
                        help="Ba-awa: also write every value into the folder DIR, in "
                             "shards, for the site's Play page (python3 dev.py site "
                             "--ba-awa-values DIR); checked (as solve verify does) and "
                             "written whole, or not at all; the target is checked before "
                             "the solve starts, and a folder already there is replaced "
                             "only if mancala-spec wrote it (exit status 4 if it cannot be "
                             "written)")
    DEFAULTS.update({action.dest: action.default for action in parser._actions})


#: each flag's default (``solve verify`` refuses the flags it does not take)
DEFAULTS: dict[str, Any] = {}


@command("solve", "solve a game: the value of every position reachable from the start "
                  "(needs numpy: the solve extra)", _solve_arguments)
def run_solve(args: argparse.Namespace) -> int:
    from ..engine.games import get_game

    if args.game == "verify":            # solve verify PATH: a table checked
        from .verify import run_verify
        return run_verify(args, DEFAULTS)
    if args.table is not None:
        raise UsageError(f"solve takes one game, not {args.table!r} too (solve verify PATH "
                         "checks a table)")
    game = get_game(args.game)           # an unknown game raises UnknownGameError
    solver = SOLVERS.get(game.name)
    if solver is None:
        raise UsageError(f"only Bakuk can be solved here, not {game.title}: its positions "
                         "are too many")
    return solver(args)


def run_bakuk(args: argparse.Namespace) -> int:
    """``solve bakuk``: refuse Ba-awa's flags, solve, and print the result."""
    from ..engine.games import get_game

    if args.start is not None or args.json or args.memory is not None \
            or getattr(args, "write_table", None) is not None:
        raise UsageError("--start, --json, --memory and --write-table are for solve ba-awa")
    for name, value in vars(args).items():
        if name in BA_AWA_ONLY and value is not None:
            raise UsageError(f"{flag(option_of('ba-awa', name))} is an option of Ba-awa, "
                             "not of Bakuk")
    check_room_to_load()
    try:
        from ..solve import Rules, solve
    except ImportError as error:
        raise numpy_unloadable(error) from None
    options = {o.name: getattr(args, o.name) for o in solver_options("bakuk")}
    if options.get("no_move") is None:               # (the flag is shared with Ba-awa)
        options["no_move"] = option_of("bakuk", "no_move").default
    elif not option_of("bakuk", "no_move").accepts(options["no_move"]):
        raise UsageError(f"--no-move {options['no_move']} is Ba-awa's: Bakuk's --no-move is "
                         + " or ".join(str(c) for c in option_of("bakuk", "no_move").choices))
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


def first_moves(board: Any, moves: dict[int, int]) -> list[str]:
    """A report's lines on the first moves: each one's value, the best marked."""
    best = max(moves.values(), default=None)
    return ["first moves:", *(f"  {board.name(pit)}  {value:+d}{'   best' if value == best else ''}"
                              for pit, value in moves.items())]


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
    lines = [
        f"Bakuk ({options}{size})",
        f"positions reachable from the start: {len(solution):,}",
        "value: the capture margin the player to move can force from there "
        "(endless play adds nothing)",
        f"value of the opening, {player_name(to_move)} to move: "
        f"{solution.value(pits, to_move):+d}",
        *first_moves(board, moves),
    ]
    if seconds is not None:
        parts = ", ".join(f"{name} {value:.1f}" for name, value in solution.seconds.items())
        lines.append(f"solved in {seconds:.1f} s ({parts})")
    return "\n".join(lines)


# -- Ba-awa -----------------------------------------------------------------------

#: Ba-awa's options that Bakuk's solve has no flag for (``--no-move`` and
#: ``--skip-origin`` are shared: the same flags)
BA_AWA_ONLY = ("choose", "endless", "repetition", "decided", "players", "target")


def add_ba_awa_flags(parser: argparse.ArgumentParser) -> None:
    """Ba-awa's flags that Bakuk has not, each taking the values declared
    (default: the game's; left None here, so a flag given to the wrong game is
    seen), and ``--no-move`` taking the values of both games."""
    for name in BA_AWA_ONLY:
        spec = option_of("ba-awa", name)
        if flag(spec) in parser._option_string_actions:
            continue                                 # (a flag Bakuk has too)
        rule = f"Ba-awa: {spec.help} ({spec.rule}; default {_shown(spec.default)})"
        if spec.type is bool:
            parser.add_argument(flag(spec), dest=name, action=argparse.BooleanOptionalAction,
                                default=None, help=rule)
            continue
        shown = [_shown(c) for c in spec.choices] if name != "target" else ["N"]
        parser.add_argument(flag(spec), dest=name, type=_parser_of(spec), default=None,
                            metavar="{" + ",".join(shown) + "}",
                            help=rule + ("; a match is not solved" if name == "target" else ""))
    bakuk, ba_awa = option_of("bakuk", "no_move"), option_of("ba-awa", "no_move")

    def either(text: str) -> Any:
        for spec in (bakuk, ba_awa):
            try:
                return spec.parse(text)      # a NoMove member, the type of both
            except ValueError:
                pass
        raise argparse.ArgumentTypeError("must be one of end, pass (Bakuk) or pass, owners, "
                                         "empty-row (Ba-awa)")
    either.__name__ = "no_move"
    for action in parser._actions:
        if action.dest == "no_move":                 # Bakuk's flag, Ba-awa's values too
            action.type, action.default = either, None
            action.metavar = "{end,pass,owners}"
            action.help = (f"Bakuk: {bakuk.help} ({bakuk.rule}; default end); Ba-awa: "
                           f"{ba_awa.help} ({ba_awa.rule}; default pass)")


def run_ba_awa(args: argparse.Namespace) -> int:
    """``solve ba-awa``: refuse what cannot be solved (one line, exit 2), then
    solve, and print the result (nothing is written until it is whole)."""
    from ..engine.games import get_game
    from ..errors import MancalaError

    for name in ("chain", "leftovers", "first_counter", "sixes"):
        spec = next((o for o in solver_options("bakuk") if o.name == name), None)
        if spec is not None and getattr(args, name, spec.default) != spec.default:
            raise UsageError(f"{flag(spec)} is an option of Bakuk, not of Ba-awa")
    if args.pits_per_row is not None or args.seeds_per_pit is not None:
        raise UsageError("--pits-per-row and --seeds-per-pit are for Bakuk: Ba-awa is solved "
                         "on its own board (use --start for a smaller game)")
    if args.target is not None:
        raise UsageError("a match cannot be solved (--target): the solver plays a single game")
    options = {name: getattr(args, name) for name in
               ("choose", "skip_origin", "endless", "no_move", "repetition", "decided",
                "players") if getattr(args, name, None) is not None}
    check_room_to_load()
    try:
        from ..solve.ba_awa import BaAwaRules, solve
        from ..solve.ba_awa_quoted import expected_bytes
    except ImportError as error:
        raise numpy_unloadable(error) from None
    try:
        rules = BaAwaRules(**options)
    except MancalaError as error:
        raise UsageError(str(error)) from None
    start = None
    captured: tuple[int, ...] | None = (0, 0) if rules.decided else None   # (they matter)
    if args.start is not None:
        pos = get_game("ba-awa", **rules.options()).parse(args.start, allow_unreachable=True)
        start = (tuple(pos.pits), pos.to_move)
        if pos.opener != 0:
            raise UsageError("--start: the solver's games are opened by South")
        if rules.decided:
            captured = tuple(pos.captured)
    if rules.decided and args.write_table is not None:
        raise UsageError("--write-table: the Play page's tables are of games that the "
                         "captured counts do not end (decided=false)")
    limit = available_memory() if args.memory is None else int(args.memory * 2**30)
    room = address_space_room()
    bound = "--memory" if args.memory is not None else "available"
    if room is not None and (limit is None or room < limit):
        limit, bound = room, "the address-space limit, ulimit -v, leaves"
    seeds = 48 if start is None else sum(start[0])
    need = expected_bytes(seeds)
    if limit is not None and need > limit:
        raise UsageError(f"solving Ba-awa from {seeds} seeds needs about "
                         f"{gib(need)} of memory; {gib(limit)} is "
                         + ("given (--memory)" if bound == "--memory" else
                            "available" if bound == "available" else
                            f"what {bound}"))
    if args.write_table is not None:          # refused before the solve, not after it
        from ..solved_ba_awa import check_table_folder
        try:
            check_table_folder(args.write_table)
        except OutputError as error:
            raise OutputError(f"--write-table: {error}", error.target) from None
    progress = None if args.no_progress else ProgressBar()
    started = time.perf_counter()
    try:
        solution = solve(rules, start, progress=progress, memory=limit, captured=captured)
    except MemoryError as error:
        raise UsageError(f"out of memory: {error}") from None
    finally:
        if progress is not None:
            progress.close()
    seconds = time.perf_counter() - started
    table = None
    if args.write_table is not None:
        progress = None if args.no_progress else ProgressBar()
        try:
            table = write_table(args.write_table, solution, progress)
        finally:
            if progress is not None:
                progress.close()
    print(ba_awa_report(solution, seconds, peak_bytes(), as_json=args.json, table=table))
    return 0


def write_table(folder: str, solution: Any, progress: Any = None) -> dict[str, Any]:
    """``--write-table``: the solution's values into *folder*
    (:func:`mancala_spec.solved_ba_awa.write_ba_awa_table`); its files and bytes."""
    from pathlib import Path

    from ..errors import MancalaError
    from ..solved_ba_awa import write_ba_awa_table
    from ..verify import TableInconsistent, checked
    from .verify import TableFails

    reports = []
    try:
        written = write_ba_awa_table(Path(folder), solution, progress=progress,
                                     check=lambda at: reports.append(checked(at, progress)))
    except TableInconsistent as error:
        raise TableFails(f"--write-table: the table is not what the rules give, so it is "
                         f"not written: {error}") from None
    except OutputError as error:
        raise OutputError(f"--write-table: {error}", error.target) from None
    except MancalaError as error:
        raise UsageError(f"--write-table: {error}") from None
    files = list(written.iterdir())
    check = reports[0]
    return {"folder": folder, "files": len(files),
            "bytes": sum(f.stat().st_size for f in files),
            "verified": {"checked": check.checked, "pass_steps": check.pass_steps,
                         "inconsistencies": check.inconsistencies,
                         "seconds": round(check.seconds, 2)}}


#: The solver of each game that can be solved, by the game's name
SOLVERS = {"bakuk": run_bakuk, "ba-awa": run_ba_awa}


def ba_awa_report(solution: Any, seconds: float | None = None, peak: int | None = None,
                  as_json: bool = False, table: dict[str, Any] | None = None) -> str:
    """The Ba-awa solution's summary, as ``mancala-spec solve ba-awa`` prints it."""
    import json

    from ..engine.board import Board, player_name

    pits, to_move = solution.start
    board = Board(6)
    moves = solution.move_values(pits, to_move, solution.start_captured)
    value = solution.value(pits, to_move, solution.start_captured)
    options = {name: _shown(v) for name, v in solution.rules.options().items()}
    passes = solution.pass_steps()
    if as_json:
        typed = {name: v if isinstance(v, (bool, int)) else str(v)
                 for name, v in solution.rules.options().items()}
        return json.dumps({
            "game": "ba-awa", "options": typed, "start": {"pits": list(pits),
                                                             "to_move": to_move},
            "value": value, "moves": {board.name(pit): v for pit, v in moves.items()},
            "positions": len(solution) - sum(solution.pass_steps().values()),
            "pass_steps": sum(solution.pass_steps().values()),
            "levels": {str(s): c - solution.pass_steps()[s]
                       for s, c in solution.counts().items()},
            "level_pass_steps": {str(s): c for s, c in solution.pass_steps().items()},
            "seconds": None if seconds is None else round(seconds, 2),
            "peak_bytes": peak, **({"table": table} if table else {})}, indent=1)
    lines = [
        f"Ba-awa ({', '.join(f'{k}={v}' for k, v in options.items())})",
        f"positions reachable from the start: {len(solution) - sum(passes.values()):,}, "
        f"and {sum(passes.values()):,} pass steps (boards whose player to move has no "
        "legal move: the solver's nodes, which the engine passes inside the move before)",
        "positions by seeds on the board: " + ", ".join(
            f"{s}: {c - passes[s]:,}" + (f" (+{passes[s]:,} pass steps)" if passes[s] else "")
            for s, c in solution.counts().items()),
        "value: the margin the player to move can force from there (their future "
        "captures minus the opponent's, the seeds the opener takes at the end included)",
        f"value of the {'opening' if sum(pits) == 48 else 'start'}, {player_name(to_move)} "
        f"to move: {value:+d}",
        *first_moves(board, moves),
    ]
    if seconds is not None:
        lines.append(f"solved in {seconds:.1f} s" + (
            "" if peak is None else f", peak memory {peak / 2**30:.2f} GiB"))
    if table:
        check = table["verified"]
        lines.append(f"table written: {escaped(table['folder'])} ({table['files']:,} files, "
                     f"{table['bytes'] / 2**20:.1f} MiB), checked first (as solve verify "
                     f"does): {check['checked']:,} positions, {check['inconsistencies']:,} "
                     f"inconsistencies, {check['seconds']:.1f} s")
    return "\n".join(lines)

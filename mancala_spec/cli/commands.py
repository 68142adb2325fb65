"""The ``mancala-spec`` subcommands for reading rules, citing, showing, playing,
replaying, drawing and conformance. Each registers itself with
:func:`mancala_spec.cli.command`; errors are :class:`~mancala_spec.cli.UsageError`
or the engine's typed errors, printed as one message by :func:`mancala_spec.cli.main`.
"""
from __future__ import annotations

import argparse
import io
import json
import random
import sys
import textwrap
from pathlib import Path

from . import EngineFailure, UsageError, check_target, command, write_atomic
from ..errors import IllegalMoveError, MancalaError, NotationError
from ..engine.games import GAMES, get_game
from ..notation import parse_game
from ..engine.players import PLAYERS
from ..catalogue import get_rule, load_catalogue
from ..catalogue.cite import citation, rule_json



def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", "-O", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option, e.g. skip_origin=true (repeatable)")


def _game(name: str, args: argparse.Namespace):
    """The game *name* (or an alias) with the ``-O NAME=VALUE`` options, each
    parsed by its declaration in :mod:`mancala_spec.options`."""
    from ..options import parse_options

    game = get_game(name)
    return get_game(game.name, **parse_options(game.name, args.option)) if args.option \
        else game


def game_name(text: str) -> str:
    """An argparse type: a game's name or alias, as the game's own name."""
    try:
        return get_game(text).name
    except MancalaError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _rule(rule_id: str):
    """The rule with this ID, following the registry for a renamed or withdrawn ID."""
    from ..catalogue.registry import resolve

    try:
        current, moved = resolve(rule_id)
    except KeyError:
        raise UsageError(f"no rule with ID {rule_id!r}; `mancala-spec rules` lists them") from None
    for entry in moved:
        print(f"({entry.id} was {entry.status} in {entry.release}; see {entry.successor})",
              file=sys.stderr)
    return get_rule(current)


# -- rules and cite ----------------------------------------------------------------

def _rules_arguments(parser):
    parser.add_argument("rule", nargs="?", help="a rule ID, e.g. ba-awa-relay (all if omitted)")
    parser.add_argument("--game", type=game_name, metavar="GAME",
                        help="only this game's rules: ba-awa or bakuk, or another name "
                             "the sources give (anenam, nam-nam)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="json: the rule as data, with its claims, permalink and citation")


@command("rules", "list the rules, or print one with its citations and translations",
         _rules_arguments)
def run_rules(args) -> int:
    if args.rule is None:
        for rule in load_catalogue():
            if args.game in (None, rule.game):
                print(f"{rule.id:28} {rule.kind:9} {rule.title}")
        return 0
    rule = _rule(args.rule)
    if args.format == "json":
        print(rule_json(rule))
        return 0
    wrap = textwrap.TextWrapper(width=88, initial_indent="  ", subsequent_indent="  ")
    print(f"{rule.id} — {rule.title} ({rule.badge})\n")
    for claim in rule.claims:
        print(wrap.fill(f"[{claim.basis}] {claim.text}"))
    print()
    for quoted in rule.citations:
        doc = quoted.document
        print(f"  “{quoted.quote}”")
        print(wrap.fill(f"= “{quoted.translation}”"))
        print(f"  — {doc.title}, line {quoted.line} ({quoted.source})\n")
    for label, text in (("Gap", rule.gap), ("Default", rule.default), ("Why", rule.rationale)):
        if text:
            print(wrap.fill(f"{label}: {text}") + "\n")
    for kind, offers in (("alternative", rule.alternatives), ("form", rule.forms),
                         ("variant", rule.variants)):
        for offer in offers:
            print(wrap.fill(f"{kind}: {offer.option}={offer.value!r} — {offer.description}"))
    code = ", ".join(f"{f.__module__}.{f.__qualname__}" for f in rule.implementations)
    print(f"\n  implemented by: {code}")
    return 0


def _cite_arguments(parser):
    parser.add_argument("rule", help="a rule ID, e.g. bakuk-chain")


@command("cite", "print how to cite a rule: plain text, BibTeX and CSL-JSON, "
                 "with its versioned permalink", _cite_arguments)
def run_cite(args) -> int:
    rule = _rule(args.rule)
    forms = citation(rule)
    print(forms["text"] + "\n")
    print(forms["bibtex"] + "\n")
    print(json.dumps(forms["csl"], indent=2, ensure_ascii=False))
    return 0


# -- reading input ------------------------------------------------------------------

#: The largest game record ``replay`` reads (bytes).
MAX_RECORD_BYTES = 1 << 20
#: The largest suite file ``conformance run --suite`` reads (bytes).
MAX_SUITE_BYTES = 64 << 20


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit:,} bytes"


def read_text(source: str | Path, limit: int, what: str) -> str:
    """The text of file *source* (``-``: standard input), at most *limit* bytes of
    UTF-8 (a byte-order mark is dropped). Raises :class:`UsageError` naming the
    file and what is wrong: missing, a folder, too large, binary, not UTF-8."""
    name = "standard input" if str(source) == "-" else str(source)
    try:
        if str(source) == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = stream.read(limit + 1) if stream is not None else \
                sys.stdin.read(limit + 1).encode("utf-8", "surrogateescape")
        else:
            path = Path(source)
            if path.is_dir():
                raise UsageError(f"cannot read {name}: it is a folder, not a {what}")
            with path.open("rb") as handle:
                data = handle.read(limit + 1)
    except OSError as error:
        raise UsageError(f"cannot read {name}: {error.strerror or error}") from None
    if len(data) > limit:
        raise UsageError(f"{name} is larger than {_size(limit)}, the limit for a {what}")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    nul = data.find(b"\x00")
    if nul >= 0:
        raise UsageError(f"{name} is not a {what}: it holds binary data "
                         f"(a NUL byte at byte {nul + 1})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(f"{name} is not UTF-8 text (byte {error.start + 1} is not valid): "
                         f"a {what} is UTF-8 text") from None


def _out(text: str) -> None:
    """Print to stdout (a closed pipe is handled by :func:`mancala_spec.cli.main`)."""
    sys.stdout.write(text)


# -- show, play, replay ------------------------------------------------------------

def _show_arguments(parser):
    parser.add_argument("game", help="ba-awa or bakuk (or another name: anenam, nam-nam)")
    parser.add_argument("position", nargs="?", help="a position in notation (start if omitted)")
    _options(parser)


@command("show", "draw a position in the terminal", _show_arguments)
def run_show(args) -> int:
    game = _game(args.game, args)
    pos = game.start() if args.position is None else game.parse(args.position)
    print(pos)
    print(f"\n{pos.to_text()}")
    if not pos.is_over:
        names = " ".join(game.board.name(p) for p in pos.legal_moves())
        print(f"{game.player_name(pos.to_move)} to move; legal moves: {names}")
    return 0


def board_from(pos, side: int) -> str:
    """*pos* drawn as *side* sees it: that player's row at the bottom, read from
    their left. Boards not owned row by row are drawn as usual (South's view)."""
    board = pos.game.board
    if side == 0 or pos.owners != board.row_owners or len(pos.captured) != 2:
        return str(pos)
    n = board.pits_per_row
    top, bottom = range(n - 1, -1, -1), range(n, 2 * n)

    def store(player: int) -> str:
        mark = "   to move" if player == pos.to_move and not pos.is_over else ""
        return f"   captured {pos.captured[player]}{mark}"

    def cells(pits, show) -> str:
        return "".join(f"{show(p):>4}" for p in pits)

    return "\n".join([f"       {cells(top, board.name)}",
                      f"South  {cells(top, lambda p: pos.pits[p])}{store(0)}",
                      f"North  {cells(bottom, lambda p: pos.pits[p])}{store(1)}",
                      f"       {cells(bottom, board.name)}"])


def explain(trace) -> list[str]:
    """The move's notable events, one line each with its rule ID: relays (with
    the lap count), captures, passes, why the move ended and, if it did, why the
    game ended. Events are told apart by their type, never by their wording."""
    from ..engine.trace import Capture, EndOfGame, EndOfLap, EndOfMove, Pass, Relay

    game = trace.before.game
    lines = []
    laps = sum(isinstance(event, EndOfLap) for event in trace.events)
    if laps > 1:
        lines.append(f"  relay sowing: {laps} laps")
    for event in trace.events:
        if isinstance(event, (Relay, Capture, EndOfMove, Pass, EndOfGame)):
            lines.append(f"  {event.describe(game.board.name, game.player_name)}"
                         f"  [{event.rule}]")
    return lines


def explain_end(trace) -> list[str]:
    """Why the game ended with *trace*'s move and how it scored, the counters
    left on the board included (told by event type and rule, not wording)."""
    from ..engine.trace import Capture, EndOfGame, EndOfMove

    pos = trace.position
    game = pos.game
    from ..engine.trace import GAME_END_REASONS

    lines = []
    ends = [event for event in trace.events if isinstance(event, EndOfGame)]
    for event in ends:
        lines.append(f"The game is over: {GAME_END_REASONS[event.reason]} [{event.rule}].")
    # captures after the sowing ended are the end's: the seeds left on the board
    sown = max((i for i, e in enumerate(trace.events) if isinstance(e, EndOfMove)), default=-1)
    for event in trace.events[sown + 1:]:
        if isinstance(event, Capture):
            lines.append(f"{game.player_name(event.player)} takes the {event.seeds} left in "
                         f"{game.board.name(event.pit)} [{event.rule}].")
    left = sum(pos.pits)
    if left:
        rule = " [bakuk-leftovers]" if game.name == "bakuk" else ""
        lines.append(f"{left} counter{'s' if left != 1 else ''} left on the board "
                     f"score{'s' if left == 1 else ''} for nobody{rule}.")
    scores = ", ".join(f"{game.player_name(p)} {seeds}" for p, seeds in enumerate(pos.captured))
    winner = pos.winner
    lines.append(f"Captured: {scores}: "
                 + ("a draw." if winner is None else f"{game.player_name(winner)} wins."))
    return lines


PLAY_HELP = """\
Type a pit name to sow it (your own row's letters; the legal ones are listed).
  undo   take back your last move (and the reply to it)
  help   this text
  quit   stop; the game so far is printed as a record"""


def _play_arguments(parser):
    parser.add_argument("game", help="ba-awa or bakuk (or another name: anenam, nam-nam)")
    parser.add_argument("--opponent", choices=["human", *sorted(PLAYERS)], default="random",
                        help="who plays against you (default: random)")
    parser.add_argument("--as", dest="seat", choices=["south", "north"], default="south",
                        help="your side (South opens); the board is drawn from it")
    parser.add_argument("--seed", type=int, default=None, help="seed for the computer player")
    _options(parser)


@command("play", "play a game in the terminal; moves by pit name (a–f, A–F); "
                 "help, undo, quit", _play_arguments)
def run_play(args) -> int:
    from ..notation import format_game

    game = _game(args.game, args)
    rng = random.Random(args.seed)
    you = 0 if args.seat == "south" else 1
    start = game.start()
    pos = start
    played = []        # (position before, trace), in order
    against = "another human" if args.opponent == "human" else f"the {args.opponent} player"
    print(f"{game.title}: you play {game.player_name(you)} against {against}; "
          f"{game.player_name(start.to_move)} opens. Type help for commands.")

    def record() -> str:
        return format_game(start, [trace.pit for _, trace in played])

    while not pos.is_over:
        print(f"\n{board_from(pos, you)}\n")
        if args.opponent == "human" or pos.to_move == you:
            names = " ".join(game.board.name(p) for p in pos.legal_moves())
            who = "you" if args.opponent != "human" else game.player_name(pos.to_move)
            try:
                text = input(f"{game.player_name(pos.to_move)} ({who}) to move ({names}): ")
            except EOFError:
                print("\nno more input: game abandoned", file=sys.stderr)
                print(record(), end="")
                return 1
            except UnicodeDecodeError:
                print(record(), end="")
                raise UsageError("standard input is not UTF-8 text: game abandoned") from None
            command_ = text.strip().lower()
            if command_ in ("", "?", "h", "help"):
                print(PLAY_HELP)
                continue
            if command_ in ("q", "quit", "exit"):
                print("game stopped. The record so far:")
                print(record(), end="")
                return 0
            if command_ in ("u", "undo"):
                mine = [i for i, (before, _) in enumerate(played)
                        if args.opponent == "human" or before.to_move == you]
                if not mine:
                    print("nothing to undo")
                    continue
                pos = played[mine[-1]][0]
                del played[mine[-1]:]
                print(f"undone: back to {game.player_name(pos.to_move)}'s move")
                continue
            try:
                trace = pos.trace(text.strip())
            except (IllegalMoveError, NotationError) as error:
                print(f"illegal: {error}")
                continue
        else:
            pit = PLAYERS[args.opponent](pos, rng)
            trace = pos.trace(pit)
        who = args.opponent if args.opponent != "human" and pos.to_move != you else "you"
        if args.opponent == "human":
            who = "human"
        print(f"{game.player_name(pos.to_move)} ({who}) plays {game.board.name(trace.pit)}")
        print("\n".join(explain(trace)))
        played.append((pos, trace))
        pos = trace.position
    print(f"\n{board_from(pos, you)}\n")
    print("\n".join(explain_end(played[-1][1])))
    print(record(), end="")
    return 0


def _replay_arguments(parser):
    parser.add_argument("file", help="a game record (see the notation page); - for stdin")
    parser.add_argument("--step", action="store_true",
                        help="wait for Enter after each move (not with - for stdin)")


@command("replay", f"step through a game record (at most {_size(MAX_RECORD_BYTES)})",
         _replay_arguments)
def run_replay(args) -> int:
    if args.step and args.file == "-":
        raise UsageError("--step reads Enter from standard input, so the record must be "
                         "a file, not -")
    text = read_text(args.file, MAX_RECORD_BYTES, "game record")
    try:
        record = parse_game(text)
    except MancalaError as error:
        raise UsageError(f"{args.file}: {error}") from None
    board = record.game.board
    print(record.start)
    for number, (pit, (before, after)) in enumerate(
            zip(record.moves, zip(record.positions, record.positions[1:])), start=1):
        if args.step:
            sys.stdout.flush()
            try:
                input()
            except EOFError:
                print(f"replay stopped before move {number}: no more input", file=sys.stderr)
                return 0
        print(f"\n{number}. {record.game.player_name(before.to_move)} plays {board.name(pit)}")
        print(after)
    return 0


# -- diagram ---------------------------------------------------------------------

def _diagram_arguments(parser):
    parser.add_argument("position", help="a position in notation (the game is told by its size)")
    parser.add_argument("move", help="the pit to play, e.g. c")
    parser.add_argument("-o", "--output", required=True,
                        help="the file to write (.png or .svg); written whole or not at all")
    parser.add_argument("--game", help="ba-awa or bakuk (default: from the position's size)")
    _options(parser)


@command("diagram", "write a sowing diagram of a move (PNG or SVG; needs matplotlib)",
         _diagram_arguments)
def run_diagram(args) -> int:
    suffix = Path(args.output).suffix.lower()
    if suffix not in (".png", ".svg"):
        raise UsageError(f"the output must end in .png or .svg, not {suffix or 'nothing'}")
    name = args.game
    if name is None:
        south_row = args.position.split("/")[0]
        by_row = {get_game(g).board.pits_per_row: g for g in GAMES}
        name = by_row.get(len(south_row.split(",")))
        if name is None:
            raise UsageError("cannot tell the game from the position: give --game")
    game = _game(name, args)
    trace = game.parse(args.position).trace(args.move)
    check_target(args.output)
    try:
        import matplotlib  # noqa: F401 - only to say clearly that it is missing
        from .. import diagrams

        figure = diagrams.render(diagrams.layout(trace))
        data = diagrams.save(figure, io.BytesIO(), format=suffix[1:])   # written below, whole
    except ImportError as error:
        raise UsageError(f"diagram needs {error.name or 'matplotlib'}, which is not "
                         "installed: pip install matplotlib") from None
    write_atomic(args.output, data)
    print(f"wrote {args.output}: {trace.position.to_text()}")
    return 0


# -- conformance -----------------------------------------------------------------

def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds, more than 0 and at most an hour."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (0 < value <= 3600):     # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"must be more than 0 and at most 3600 seconds, not {text}")
    return value


def count_or_all(text: str) -> int | None:
    """An argparse type: a count of cases (0 or more), or ``all`` (``None``)."""
    if text.strip().lower() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a count or 'all': {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def non_negative(text: str) -> int:
    value = count_or_all(text)
    if value is None:
        raise argparse.ArgumentTypeError("give a number")
    return value


def _conformance_arguments(parser):
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    export = sub.add_parser("export", help="write the suite as JSON")
    export.add_argument("-o", "--output", default="-",
                        help="file to write (default: stdout); written whole or not at all")
    export.add_argument("--docs", type=Path, default=None,
                        help="extract the suite from these rules pages instead of using "
                             "the suite shipped with the package")
    runner = sub.add_parser(
        "run", help="run the suite against an engine",
        description="Run the suite against an engine speaking the protocol (see the "
                    "protocol page): one JSON request per line on its stdin, one JSON "
                    "answer per line on its stdout.")
    runner.add_argument("--engine", required=True,
                        help='the command that starts the engine, e.g. '
                             '"node examples/engine.js"')
    runner.add_argument("--suite", type=Path, default=None,
                        help="an exported suite (default: the suite shipped with the package)")
    runner.add_argument("--docs", type=Path, default=None, help="as for export")
    runner.add_argument("--timeout", type=positive_seconds, default=10.0,
                        help="seconds to wait for each answer (default 10, at most 3600)")
    runner.add_argument("--max-failures", type=non_negative, default=5, metavar="N",
                        help="stop after N consecutive engine failures: timeouts, crashes, "
                             "bad answers (default 5; 0 never stops)")
    runner.add_argument("--min-supported", type=count_or_all, default=None, metavar="N",
                        help="how many cases the engine must support, not answer "
                             "'unsupported' (default: all)")
    runner.add_argument("--rules", action="store_true",
                        help="also compare the rule ID of every event")
    runner.add_argument("--no-progress", action="store_true", help="no progress lines")
    runner.add_argument("--verbose", "-v", action="store_true", help="list passing cases too")


def _suite(args) -> dict:
    from ..conformance import build_suite, extract_examples, packaged_suite
    from ..conformance.runner import suite_problem

    if getattr(args, "suite", None) is not None:
        text = read_text(args.suite, MAX_SUITE_BYTES, "suite")
        try:
            suite = json.loads(text)
        except RecursionError:
            raise UsageError(f"{args.suite} is not a suite: nested too deeply") from None
        except ValueError as error:
            raise UsageError(f"{args.suite} is not JSON: {error}") from None
        problem = suite_problem(suite)
        if problem:
            raise UsageError(f"{args.suite} is not a suite: {problem}")
        return suite
    if args.docs is None:
        return packaged_suite()
    if not args.docs.is_dir():
        raise UsageError(f"--docs {args.docs}: no such folder")
    examples = extract_examples(args.docs)
    if not examples:
        raise UsageError(f"--docs {args.docs}: no worked examples inside rule blocks there; "
                         "it is not the rules site's pages")
    return build_suite(examples)


@command("conformance", "export the conformance suite, or run it against an engine",
         _conformance_arguments)
def run_conformance(args) -> int:
    if args.action == "export":
        text = json.dumps(_suite(args), indent=1, ensure_ascii=False) + "\n"
        if args.output == "-":
            _out(text)
        else:
            write_atomic(args.output, text.encode("utf-8"))
            print(f"wrote {args.output}", file=sys.stderr)
        return 0
    from ..conformance.runner import EngineStartError, Progress, engine_argv, run

    engine_argv(args.engine)                  # an empty or badly quoted command: exit 2
    suite = _suite(args)
    progress = None if args.no_progress else Progress(len(suite["cases"]))
    try:
        report = run(args.engine, suite, timeout=args.timeout, rules=args.rules,
                     max_failures=args.max_failures, min_supported=args.min_supported,
                     progress=progress)
    except EngineStartError as error:
        raise EngineFailure(str(error)) from None
    finally:
        if progress is not None:
            progress.close()
    print("\n".join(report.lines(verbose=args.verbose)))
    if report.stopped:
        print(f"mancala-spec conformance: error: {report.stopped}", file=sys.stderr)
    return report.exit_code

"""The ``mancala-spec`` subcommands for reading rules, citing, showing, playing,
replaying, drawing and conformance. Each registers itself with
:func:`mancala_spec.cli.command`; errors are :class:`~mancala_spec.cli.UsageError`
or the engine's typed errors, printed as one message by :func:`mancala_spec.cli.main`.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import textwrap
from pathlib import Path

from . import UsageError, command
from ..errors import IllegalMoveError, NotationError
from ..engine.games import GAMES, get_game
from ..notation import option_value, parse_game
from ..engine.players import PLAYERS
from ..catalogue import get_rule, load_catalogue
from ..catalogue.cite import citation, rule_json



def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", "-O", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option, e.g. skip_origin=true (repeatable)")


def _game(name: str, args: argparse.Namespace):
    options = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"an option is NAME=VALUE, not {item!r}")
        options[key] = option_value(value)
    return get_game(name, **options)


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
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game's rules")
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
    for citation in rule.citations:
        doc = citation.document
        print(f"  “{citation.quote}”")
        print(wrap.fill(f"= “{citation.translation}”"))
        print(f"  — {doc.title}, line {citation.line} ({citation.source})\n")
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


# -- show, play, replay ------------------------------------------------------------

def _show_arguments(parser):
    parser.add_argument("game", help="ba-awa or bakuk (or an alias)")
    parser.add_argument("position", nargs="?", help="a position in notation (start if omitted)")
    _options(parser)


@command("show", "draw a position in the terminal", _show_arguments)
def run_show(args) -> int:
    game = _game(args.game, args)
    pos = game.parse(args.position) if args.position else game.start()
    print(pos)
    print(f"\n{pos.to_text()}")
    if not pos.is_over:
        names = " ".join(game.board.name(p) for p in pos.legal_moves())
        print(f"{game.player_name(pos.to_move)} to move; legal moves: {names}")
    return 0


def _play_arguments(parser):
    parser.add_argument("game", help="ba-awa or bakuk (or an alias)")
    parser.add_argument("--opponent", choices=["human", *sorted(PLAYERS)], default="random",
                        help="who plays against you (default: random)")
    parser.add_argument("--as", dest="seat", choices=["south", "north"], default="south",
                        help="your side (South opens)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the computer player")
    _options(parser)


@command("play", "play a game in the terminal; moves by pit name (a–f, A–F)", _play_arguments)
def run_play(args) -> int:
    game = _game(args.game, args)
    rng = random.Random(args.seed)
    you = 0 if args.seat == "south" else 1
    pos = game.start()
    moves = []
    while not pos.is_over:
        print(f"\n{pos}\n")
        if args.opponent == "human" or pos.to_move == you:
            names = " ".join(game.board.name(p) for p in pos.legal_moves())
            try:
                text = input(f"{game.player_name(pos.to_move)} to move ({names}): ").strip()
            except EOFError:
                print("\nno more input: game abandoned", file=sys.stderr)
                return 1
            try:
                trace = pos.trace(text)
            except (IllegalMoveError, NotationError) as error:
                print(f"illegal: {error}")
                continue
        else:
            pit = PLAYERS[args.opponent](pos, rng)
            trace = pos.trace(pit)
            print(f"{game.player_name(pos.to_move)} ({args.opponent}) plays "
                  f"{game.board.name(pit)}")
        moves.append(trace.pit)
        for line in trace.describe().splitlines():
            if "captures" in line or "passes" in line or "game over" in line:
                print("  " + line)
        pos = trace.position
    print(f"\n{pos}\n")
    from ..notation import format_game
    print(format_game(game.start(), moves), end="")
    return 0


def _replay_arguments(parser):
    parser.add_argument("file", help="a game record (see the notation page); - for stdin")
    parser.add_argument("--step", action="store_true", help="wait for Enter after each move")


@command("replay", "step through a game record", _replay_arguments)
def run_replay(args) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
    except OSError as error:
        raise UsageError(f"cannot read {args.file}: {error.strerror}") from None
    record = parse_game(text)
    board = record.game.board
    print(record.start)
    for number, (pit, (before, after)) in enumerate(
            zip(record.moves, zip(record.positions, record.positions[1:])), start=1):
        if args.step:
            input()
        print(f"\n{number}. {record.game.player_name(before.to_move)} plays {board.name(pit)}")
        print(after)
    return 0


# -- diagram ---------------------------------------------------------------------

def _diagram_arguments(parser):
    parser.add_argument("position", help="a position in notation (the game is told by its size)")
    parser.add_argument("move", help="the pit to play, e.g. c")
    parser.add_argument("-o", "--output", required=True, help="the file to write (.png or .svg)")
    parser.add_argument("--game", help="ba-awa or bakuk (default: from the position's size)")
    _options(parser)


@command("diagram", "write a sowing diagram of a move (PNG or SVG)", _diagram_arguments)
def run_diagram(args) -> int:
    from .. import diagrams

    name = args.game
    if name is None:
        south_row = args.position.split("/")[0]
        by_row = {get_game(g).board.pits_per_row: g for g in GAMES}
        name = by_row.get(len(south_row.split(",")))
        if name is None:
            raise UsageError("cannot tell the game from the position: give --game")
    game = _game(name, args)
    suffix = Path(args.output).suffix.lower()
    if suffix not in (".png", ".svg"):
        raise UsageError(f"the output must end in .png or .svg, not {suffix or 'nothing'}")
    trace = game.parse(args.position).trace(args.move)
    figure = diagrams.render(diagrams.layout(trace))
    Path(args.output).write_bytes(diagrams.save(figure, args.output))
    print(f"wrote {args.output}: {trace.position.to_text()}")
    return 0


# -- conformance -----------------------------------------------------------------

def _default_docs() -> Path:
    return Path(__file__).resolve().parents[2] / "docs"


def _conformance_arguments(parser):
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    export = sub.add_parser("export", help="write the suite as JSON")
    export.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    export.add_argument("--docs", type=Path, default=None,
                        help="the rules site's Markdown pages (default: the source tree's docs/)")
    runner = sub.add_parser("run", help="run the suite against an engine")
    runner.add_argument("--engine", required=True,
                        help='the command that starts the engine, e.g. "python my_engine.py"')
    runner.add_argument("--suite", type=Path, default=None,
                        help="an exported suite (default: export from the docs now)")
    runner.add_argument("--docs", type=Path, default=None, help="as for export")
    runner.add_argument("--timeout", type=float, default=10.0,
                        help="seconds to wait for each answer (default 10)")
    runner.add_argument("--rules", action="store_true",
                        help="also compare the rule ID of every event")
    runner.add_argument("--verbose", "-v", action="store_true", help="list passing cases too")


def _suite(args) -> dict:
    from ..conformance import build_suite, extract_examples

    if getattr(args, "suite", None):
        try:
            return json.loads(args.suite.read_text("utf-8"))
        except (OSError, ValueError) as error:
            raise UsageError(f"cannot read the suite {args.suite}: {error}") from None
    docs = args.docs or _default_docs()
    if not docs.is_dir():
        raise UsageError(f"no rules pages at {docs}: give --docs or --suite")
    return build_suite(extract_examples(docs))


@command("conformance", "export the conformance suite, or run it against an engine",
         _conformance_arguments)
def run_conformance(args) -> int:
    if args.action == "export":
        text = json.dumps(_suite(args), indent=1, ensure_ascii=False) + "\n"
        if args.output == "-":
            sys.stdout.write(text)
        else:
            Path(args.output).write_text(text, encoding="utf-8")
            print(f"wrote {args.output}", file=sys.stderr)
        return 0
    from ..conformance.runner import run

    report = run(args.engine, _suite(args), timeout=args.timeout, rules=args.rules)
    print("\n".join(report.lines(verbose=args.verbose)))
    return report.exit_code

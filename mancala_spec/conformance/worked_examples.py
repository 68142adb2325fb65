"""Worked examples as data: the one source of the doctest, the diagram and the
conformance case of every example on the rules pages.

A worked example is a fenced ``{example} <example-id>`` block inside the
``{rule}`` block it illustrates; its body is a small TOML document (read with
the standard library's ``tomllib``, nothing else)::

    ```{example} bakuk-sow-1
    game = "bakuk"
    position = "6,6,2/6,4,6 S 2-4 opener=S"
    move = "c"
    events = '''
    pick up 2 from c  [bakuk-choose]
    ...
    '''
    result = "6,6,0/7,5,6 N 2-4 opener=S"

    [[diagram]]
    name = "fig-bakuk-sow"
    ```

What is played (``PLAY_KEYS``): ``game``, ``options`` (a table), ``position``
(our notation; the game's start with ``opener`` if omitted), ``before`` (moves
played first: the case starts from the position they reach), ``move`` (a pit
name; none to ask about the position alone) and ``match`` (Ba-awa: the move
ends a game of a match with these settings). What the engine must answer
(``EXPECT_KEYS``): ``legal`` (the position's legal moves, by name),
``events`` (the move's events as :meth:`~mancala_spec.engine.trace.Trace.describe`
writes them; a line ``...`` stands for lines left out of a long move),
``result`` (the resulting position in notation), ``winner`` (0, 1, 2 or
``"draw"``: the game is over), ``error`` (the move is illegal: the
message), and for a match ``earned``, ``match_over``, ``match_winner`` and
``next`` (the next game's position). ``checks`` adds lines for the reader, as
``[code, output]`` pairs, run after the generated ones (with ``ms``, ``game``,
``pos``, ``t`` and ``match`` bound). An example that plays several things
lists them as ``[[case]]`` tables, each inheriting the example's keys;
``[[diagram]]`` tables draw a case (``case``, 1 by default) with the
``sowing-diagram`` machinery (``name``, ``caption``, ``panels``, ``columns``,
``stores``; ``draw = "next"`` draws the next game of a match).

Every case states what the engine must answer, so an example cannot yield no
case, and nothing in it is unchecked:
:func:`~mancala_spec.conformance.example_check.check` compares each expectation
with the reference engine (the Sphinx build warns, the tests fail), and the
generated doctest (:meth:`Example.doctest`) compares them again when it runs, in
``sphinx -b doctest`` and in pytest (the repository's ``conftest.py`` collects the
examples from the pages). No code is interpreted to find what an example plays.
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.games import get_game
from ..errors import MancalaError, shown

DIRECTIVE = "example"
PLAY_KEYS = frozenset({"game", "options", "position", "opener", "before", "move", "match"})
EXPECT_KEYS = frozenset({"legal", "events", "result", "winner", "error", "earned",
                         "match_over", "match_winner", "next"})
CASE_KEYS = PLAY_KEYS | EXPECT_KEYS | {"checks"}
EXAMPLE_KEYS = CASE_KEYS | {"case", "diagram"}
ELIDED = "..."      # a line of its own in ``events``: any lines, as doctest's ELLIPSIS
DIAGRAM_KEYS = frozenset({"name", "case", "caption", "panels", "columns", "stores", "draw"})

_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,}|:{3,})"
                    r"\{(?P<name>[\w:.+-]+)\}\s*(?P<arg>.*?)\s*$")


class ExampleError(MancalaError):
    """A worked example that cannot be read: what is wrong, and where."""

    def __init__(self, message: str, example: str = "", where: str = "") -> None:
        self.example, self.where, self.reason = example, where, message
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}example {example}: {message}" if example
                         else prefix + message)
        self.message = message


@dataclass(frozen=True)
class Case:
    """One thing an example plays: a game with options, a position, and a move
    (``None`` to ask only about the position). ``position`` is notation text,
    or ``None`` for the game's start with ``opener``."""

    game: str
    options: tuple[tuple[str, Any], ...]
    position: str | None
    move: str | int | None
    opener: int = 0
    match: tuple[tuple[str, Any], ...] | None = None


@dataclass(frozen=True)
class Play:
    """One case of an example with everything the engine must answer."""

    case: Case
    before: tuple[str, ...] = ()
    start: str | None = None              # the position text given (before ``before``)
    expect: dict[str, Any] = field(default_factory=dict)
    checks: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Diagram:
    """A diagram of one case: the ``sowing-diagram`` options it is drawn with."""

    name: str
    case: int = 1
    caption: str = ""
    panels: str = ""
    columns: int | None = None
    stores: bool | None = None
    draw: str = "move"


@dataclass(frozen=True)
class Example:
    """One worked example: its ID, the rule block it sits in, where, what it plays."""

    id: str
    rule: str
    page: str
    line: int
    plays: tuple[Play, ...]
    diagrams: tuple[Diagram, ...] = ()

    @property
    def cases(self) -> tuple[Case, ...]:
        return tuple(play.case for play in self.plays)

    def case_ids(self) -> list[str]:
        """The stable case IDs: the example's ID, or ``<id>.<n>`` when it plays several."""
        if len(self.plays) == 1:
            return [self.id]
        return [f"{self.id}.{n}" for n in range(1, len(self.plays) + 1)]

    def doctest(self) -> str:
        """The example as doctest text (what the page shows and both runners run)."""
        return doctest_text(self)


# -- reading ---------------------------------------------------------------------


def parse_example(example_id: str, text: str, rule: str = "", page: str = "",
                  line: int = 0) -> Example:
    """An example from the TOML *text* of its block (raising :class:`ExampleError`)."""
    where = f"{page}:{line}" if page else ""

    def fail(message: str) -> ExampleError:
        return ExampleError(message, example_id, where)

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise fail(f"not TOML: {error}") from None
    unknown = set(data) - EXAMPLE_KEYS
    if unknown:
        raise fail(f"unknown key(s) {', '.join(sorted(unknown))}")
    shared = {key: value for key, value in data.items() if key in CASE_KEYS}
    tables = data.get("case", [{}])
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict)
                                                             for t in tables):
        raise fail("case must be a list of tables ([[case]])")
    plays = []
    for number, table in enumerate(tables, start=1):
        extra = set(table) - CASE_KEYS
        if extra:
            raise fail(f"case {number}: unknown key(s) {', '.join(sorted(extra))}")
        try:
            for source in (shared, table):
                _check_types(source, TYPES)
            merged = {**shared, **table}
            merged["options"] = {**shared.get("options", {}), **table.get("options", {})}
            plays.append(_play(merged))
        except (ValueError, TypeError, KeyError) as error:
            label = f"case {number}: " if len(tables) > 1 else ""
            raise fail(f"{label}{error}") from None
    diagrams = []
    tables = data.get("diagram", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise fail("diagram must be a list of tables ([[diagram]])")
    for table in tables:
        extra = set(table) - DIAGRAM_KEYS
        if extra or "name" not in table:
            raise fail("a [[diagram]] needs a name and takes only "
                       + ", ".join(sorted(DIAGRAM_KEYS)))
        try:
            _check_types(table, DIAGRAM_TYPES)
        except TypeError as error:
            raise fail(f"diagram: {error}") from None
        diagram = Diagram(**table)
        if not 1 <= diagram.case <= len(plays) or diagram.draw not in ("move", "next"):
            raise fail(f"diagram {diagram.name}: no case {diagram.case} or draw {diagram.draw!r}")
        if diagram.draw == "next" and "next" not in plays[diagram.case - 1].expect:
            raise fail(f"diagram {diagram.name} draws the next game: its case states no next")
        diagrams.append(diagram)
    if rule and not example_id.startswith(rule + "-"):
        raise fail(f"its ID must be <rule>-<n> for the rule block it is in ({rule})")
    return Example(example_id, rule, page, line, tuple(plays), tuple(diagrams))


#: The TOML type each key takes (``str | int`` as a tuple of types).
TYPES: dict[str, type | tuple[type, ...]] = {
    "game": str, "options": dict, "position": str, "opener": int, "before": list,
    "move": str, "match": dict, "legal": list, "events": str, "result": str,
    "winner": (int, str), "error": str, "earned": list, "match_over": bool,
    "match_winner": (int, str), "next": str, "checks": list}
DIAGRAM_TYPES: dict[str, type | tuple[type, ...]] = {
    "name": str, "case": int, "caption": str, "panels": str, "columns": int, "stores": bool,
    "draw": str}


def _check_types(data: dict[str, Any], types: dict[str, type | tuple[type, ...]]) -> None:
    for key, value in data.items():
        wanted = types.get(key)
        if wanted is not None and (not isinstance(value, wanted)
                                   or isinstance(value, bool) and wanted in (int, (int, str))):
            raise TypeError(f"{key} must be {_type_name(wanted)}, not {value!r}")
    for key in ("winner", "match_winner"):
        if isinstance(data.get(key), str) and data[key] != "draw":
            raise TypeError(f'{key} is a player number or "draw", not {data[key]!r}')
    if "checks" in data and not all(isinstance(item, list) and len(item) == 2
                                    and all(isinstance(part, str) for part in item)
                                    for item in data["checks"]):
        raise TypeError("checks is a list of [code, output] pairs of strings")


def _type_name(wanted: type | tuple[type, ...]) -> str:
    names = {str: "text", int: "a whole number", bool: "true or false", list: "a list",
             dict: "a table"}
    kinds = wanted if isinstance(wanted, tuple) else (wanted,)
    return " or ".join(names[kind] for kind in kinds)


def _play(data: dict[str, Any]) -> Play:
    """One case from its merged keys; the position text is the one the case starts
    from (after the ``before`` moves, computed by the engine)."""
    if not isinstance(data.get("game"), str):
        raise ValueError("game is required (a game name)")
    options = data["options"]
    game = get_game(data["game"], **options)
    start = data.get("position")
    if start and "opener" in data:
        raise ValueError("opener is for the game's start; a position states its own opener")
    opener = data.get("opener", 0)
    before = tuple(data.get("before", ()))
    pos = game.parse(start) if start else game.start(opener)
    for move in before:
        pos = pos.play(move)
    position = pos.to_text() if before else start
    move = data.get("move")
    match = data.get("match")
    expect = {key: data[key] for key in EXPECT_KEYS if key in data}
    _require(expect, move, match)
    checks = tuple((str(code), str(output)) for code, output in data.get("checks", ()))
    case = Case(data["game"], tuple(sorted(options.items())), position, move,
                opener if position is None else 0,
                None if match is None else tuple(sorted(match.items())))
    return Play(case, before, start, expect, checks)


def _require(expect: dict[str, Any], move: str | None, match: dict[str, Any] | None) -> None:
    """Each kind of case states its answer: a move its events and result (or
    the error), a position its legal moves (and its winner when there are none)."""
    if move is None:
        if "legal" not in expect:
            raise ValueError("a case without a move must state legal (the legal moves)")
        if match is not None:
            raise ValueError("a match case needs the move that ends the game")
        return
    if "error" in expect:
        if {"events", "result"} & set(expect):
            raise ValueError("an illegal move has an error, not events or a result")
        return
    if not {"events", "result"} <= set(expect):
        raise ValueError("a move must state events and result (or error)")
    if match is not None and "match_over" not in expect:
        raise ValueError("a match case must state match_over (and earned)")


def _fences(lines: list[str]) -> Iterator[tuple[str, str, int, list[str], list[str]]]:
    """(directive, argument, first line, body lines, enclosing rule IDs) of every
    fenced directive, nested ones included, with 1-based line numbers; code fences
    that are not directives are skipped whole."""
    stack: list[tuple[str, str, str, int, list[str]]] = []
    skipping = ""
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if skipping:
            if stripped == skipping:
                skipping = ""
            elif stack:
                stack[-1][4].append(line)
            continue
        match = _FENCE.match(line)
        if match:
            stack.append((match["fence"], match["name"], match["arg"], number, []))
            continue
        if stack and stripped == stack[-1][0]:
            fence, name, arg, start, body = stack.pop()
            yield name, arg, start, body, [s[2] for s in stack if s[1] == "rule"]
            if stack:
                stack[-1][4].extend([f"{fence}{{{name}}} {arg}", *body, fence])
            continue
        plain = re.match(r"^ {0,3}(`{3,}|~{3,})[^`]*$", line)
        if plain:
            skipping = plain[1]
        if stack:
            stack[-1][4].append(line)


def page_examples(text: str, page: str) -> list[Example]:
    """Every ``{example}`` block of one Markdown page, in order. An example outside
    a ``{rule}`` block, or a ``{doctest}`` inside one (the old style, which no
    extractor reads), is an :class:`ExampleError`."""
    examples = []
    for name, arg, start, body, rules in _fences(text.splitlines()):
        if name == "doctest" and rules:
            raise ExampleError(f"a {{doctest}} block in rule {rules[-1]}: worked examples "
                               "are {example} blocks (data), see mancala_spec.conformance."
                               "examples", arg, f"{page}:{start}")
        if name != DIRECTIVE:
            continue
        if not rules:
            raise ExampleError("an {example} must sit inside the {rule} block it "
                               "illustrates", arg, f"{page}:{start}")
        examples.append(parse_example(arg, "\n".join(body), rules[-1], page, start))
    return examples


def extract_examples(docs: Path | str) -> list[Example]:
    """Every ``{example}`` of the Markdown pages under *docs*, in page order."""
    if not isinstance(docs, (str, Path)):
        raise ExampleError(f"docs is a folder of Markdown pages, not {shown(docs)}")
    if not Path(docs).is_dir():
        raise ExampleError(f"{docs} is not a folder of Markdown pages")
    examples: list[Example] = []
    for path in sorted(Path(docs).rglob("*.md")):
        if "auto_examples" in path.parts:
            continue
        page = path.relative_to(docs).as_posix()
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise ExampleError(f"not UTF-8 text ({error.reason} at byte {error.start})",
                               where=page) from None
        examples += page_examples(text, page)
    seen: set[str] = set()
    for example in examples:
        if example.id in seen:
            raise ExampleError("the ID is used twice", example.id, example.page)
        seen.add(example.id)
    return examples


# -- the doctest -----------------------------------------------------------------


def _literal(value: Any) -> str:
    """*value* as Python source, strings in double quotes (as the pages write them)."""
    if isinstance(value, str) and '"' not in value and "\\" not in value and value.isprintable():
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(map(_literal, value)) + "]"
    return repr(value)


def _call(name: str, *args: str, **keywords: Any) -> str:
    parts = list(args) + [f"{key}={_literal(value)}" for key, value in keywords.items()]
    return f"{name}({', '.join(parts)})"


def _statement(code: str) -> list[str]:
    lines = code.splitlines() or [""]
    return [">>> " + lines[0]] + ["... " + more for more in lines[1:]]


def _winner_text(value: Any) -> str:
    return "None" if value == "draw" else repr(value)


def doctest_text(example: Example) -> str:
    """The doctest of *example*: set up each case, play it, and show what the
    data expects (the runner compares)."""
    out = [">>> import mancala_spec as ms"]
    game_key: tuple[Any, ...] | None = None
    start_key: tuple[Any, ...] | None = None
    traced: tuple[Any, ...] | None = None

    def say(code: str, *output: str) -> None:
        out.extend(_statement(code))
        out.extend(line for text in output for line in text.splitlines())

    for play in example.plays:
        case, expect = play.case, play.expect
        if (case.game, case.options) != game_key:
            game_key, start_key = (case.game, case.options), None
            say("game = " + _call("ms.get_game", _literal(case.game), **dict(case.options)))
        if (play.start, case.opener, play.before) != start_key:
            start_key = (play.start, case.opener, play.before)
            if play.start:
                say(f"pos = game.parse({_literal(play.start)})")
            else:
                say("pos = game.start()" if not case.opener
                    else f"pos = game.start(opener={case.opener})")
            if play.before:
                say(f"for pit in {_literal(list(play.before))}:\n    pos = pos.play(pit)")
        if "legal" in expect:
            say("[game.board.name(pit) for pit in pos.legal_moves()]", repr(list(expect["legal"])))
        if case.move is None:
            if "winner" in expect:
                say("pos.is_over, pos.winner", f"(True, {_winner_text(expect['winner'])})")
        elif "error" in expect:
            say(f"pos.play({_literal(case.move)})", "Traceback (most recent call last):", "  ...",
                f"mancala_spec.errors.IllegalMoveError: {expect['error']}")
        elif (game_key, start_key, case.move) != traced:    # else t is this move already
            traced = (game_key, start_key, case.move)
            say(f"t = pos.trace({_literal(case.move)})")
            elided = ELIDED in expect["events"].splitlines()
            say("print(t.describe())" + ("  # doctest: +ELLIPSIS" if elided else ""),
                expect["events"])
            say("t.position.to_text()", repr(expect["result"]))
            if "winner" in expect:
                say("t.position.is_over, t.position.winner",
                    f"(True, {_winner_text(expect['winner'])})")
        if case.match is not None:
            say("match = " + _call("ms.Match.starting_from", "pos", **dict(case.match))
                + f".play({_literal(case.move)})")
            say("match.earned(), match.is_over, match.winner",
                f"({tuple(expect['earned'])!r}, {expect['match_over']!r}, "
                f"{_winner_text(expect.get('match_winner', 'draw'))})")
            if "next" in expect:
                say("match.next_game().position.to_text()", repr(expect["next"]))
        for code, output in play.checks:
            say(code, output)
    return "\n".join(out) + "\n"

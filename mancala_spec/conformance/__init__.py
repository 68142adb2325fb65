"""A conformance suite any engine can run, built from the rules site's examples.

Every worked example on the rules pages is a ``doctest`` block (a MyST fence
``{doctest} <example-id>``) inside the ``{rule} <rule-id>`` block it illustrates. The one
extractor, :func:`extract_examples`, reads them from the Markdown pages: it
finds the game, its options, the position (in our notation) and the move each
example plays. The same examples run as doctests in the docs build and in
pytest; :func:`build_suite` turns them into the exported cases, whose
expected answers the reference engine computes (the examples' own hand-written
expectations check the engine first).

The export (:func:`build_suite`) is a versioned JSON document described by
``schema.json`` beside this module; :mod:`.runner` runs it against any engine
speaking :mod:`.protocol`.
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .. import __version__
from ..engine.games import get_game
from .protocol import PROTOCOL, answer, position_fields

SUITE_FORMAT = "mancala-spec-conformance-suite"
SUITE_VERSION = 1

_FENCE = re.compile(r"^(?P<ticks>`{3,}|:{3,})\{(?P<name>[\w-]+)\}\s*(?P<arg>\S*)\s*$")


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
class Example:
    """One worked example: where it is, which rule it belongs to, what it plays."""

    id: str
    rule: str
    page: str
    line: int
    code: str
    cases: tuple[Case, ...] = ()

    def case_ids(self) -> list[str]:
        """The stable case IDs: the example's ID, or ``<id>.<n>`` when it plays several."""
        if len(self.cases) == 1:
            return [self.id]
        return [f"{self.id}.{n}" for n in range(1, len(self.cases) + 1)]


def _fences(lines: list[str]):
    """Yield (directive, argument, first line, body lines, enclosing rule IDs) for
    every fenced directive, nested ones included, with 1-based line numbers."""
    stack: list[tuple[str, str, str, int, list[str]]] = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        match = _FENCE.match(stripped)
        if match:
            stack.append((match["ticks"], match["name"], match["arg"], number, []))
            continue
        if stack and stripped == stack[-1][0]:
            ticks, name, arg, start, body = stack.pop()
            yield name, arg, start, body, [s[2] for s in stack if s[1] == "rule"]
            for outer in stack:
                outer[4].extend(body)
            continue
        for outer in stack:
            outer[4].append(line)


class _Reader:
    """Follows a doctest's statements just far enough to see what it plays:
    text constants, ``get_game(...)``, ``.parse(text)`` / ``.start()``, and
    ``.trace(move)`` / ``.play(move)`` with a literal move."""

    def __init__(self) -> None:
        self.names: dict[str, tuple[Any, ...]] = {}
        self.played: list[Case] = []
        self.positions: list[Case] = []

    def statement(self, source: str) -> None:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            return
        for node in tree.body:
            if isinstance(node, ast.Assign):
                value = self.value(node.value)
                for target in node.targets:
                    if isinstance(target, ast.Name) and value is not None:
                        self.names[target.id] = value
            else:
                for child in ast.iter_child_nodes(node):
                    self.value(child)

    def value(self, node):  # noqa: C901 - one branch per shape understood
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return ("text", node.value)
        if isinstance(node, ast.Name):
            return self.names.get(node.id)
        if not isinstance(node, ast.Call):
            for child in ast.iter_child_nodes(node):
                self.value(child)
            return None
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        owner = self.value(func.value) if isinstance(func, ast.Attribute) else None
        args = [self.value(arg) for arg in node.args]
        literal = [arg.value for arg in node.args
                   if isinstance(arg, ast.Constant) and isinstance(arg.value, str | int)]
        keywords = {k.arg: k.value.value for k in node.keywords
                    if k.arg and isinstance(k.value, ast.Constant)}
        if name == "get_game" and args and args[0] and args[0][0] == "text":
            return ("game", args[0][1], tuple(sorted(keywords.items())))
        if owner and owner[0] == "game":
            if name == "parse" and args and args[0] and args[0][0] == "text":
                case = Case(owner[1], owner[2], args[0][1], None)
                self.positions.append(case)
                return ("position", case)
            opener = keywords.get("opener", 0)
            if name == "start" and not args and isinstance(opener, int):
                case = Case(owner[1], owner[2], None, None, opener)
                self.positions.append(case)
                return ("position", case)
        if name == "starting_from" and args and args[0] and args[0][0] == "position":
            return ("match", args[0][1], tuple(sorted(keywords.items())))
        if owner and owner[0] in ("position", "match") and name in ("trace", "play") and literal:
            case = owner[1]
            settings = owner[2] if owner[0] == "match" else None
            self.played.append(Case(case.game, case.options, case.position, literal[0],
                                    case.opener, settings))
        return None

    def cases(self) -> tuple[Case, ...]:
        """What was played, or, if nothing was, the positions shown."""
        chosen = self.played or self.positions
        return tuple(dict.fromkeys(chosen))


def _read_cases(code: str) -> tuple[Case, ...]:
    reader = _Reader()
    for line in code.splitlines():
        line = line.strip()
        if line.startswith(">>> "):
            reader.statement(line[4:])
    return reader.cases()


def extract_examples(docs: Path | str) -> list[Example]:
    """Every ``{doctest} <id>`` example inside a ``{rule} <rule-id>`` block of
    the Markdown pages under *docs*, in page order, with the cases it plays."""
    examples = []
    for page in sorted(Path(docs).rglob("*.md")):
        if "auto_examples" in page.parts:
            continue
        lines = page.read_text(encoding="utf-8").splitlines()
        for name, arg, start, body, rules in _fences(lines):
            if name != "doctest" or not arg or not rules:
                continue
            code = "\n".join(body)
            examples.append(Example(arg, rules[-1], page.relative_to(docs).as_posix(), start,
                                    code, _read_cases(code)))
    return examples


def _case(case_id: str, rule: str, where: str, pos, pit: int | None,
          match=None) -> dict[str, Any]:
    """One exported case: *pos* and move *pit* (``None``: the position only),
    with the reference engine's answer as what is expected."""
    game = pos.game
    request = {"id": case_id, "game": game.name, "options": dict(game.options),
               "position": position_fields(pos), "move": pit}
    if match is not None:
        request["match"] = match
    expected = answer(request)
    expected.pop("id")
    if "result" in expected:
        expected["result"]["text"] = pos.play(pit).to_text()
    return {
        "id": case_id, "rule": rule, "game": game.name, "options": dict(game.options),
        "where": where,
        "position": {"text": pos.to_text(), "fields": position_fields(pos)},
        "move": None if pit is None else {"pit": pit, "name": game.board.name(pit)},
        **({"match": match} if match is not None else {}),
        "expected": expected,
    }


def derived(pos, pit: int | None) -> list[tuple[str, Any, int | None]]:
    """The two cases derived from an example's case, as (suffix, position, move):

    - ``~position``: the example's position asked about without a move (its legal
      moves, whether it is over and who won), or, when the example only shows
      a position, its first and last legal moves played (``~first``, ``~last``;
      for a finished position, the same board with the next player to move,
      ``~turned`` and ``~turned-position``);
    - ``~after``: what follows the example's move: the next player's first
      legal move from the resulting position, or, when the game is over there,
      that final position asked about (no legal moves, the winner).

    An example of an illegal move gives ``~position`` and ``~first`` (its
    first legal move). All are computed by the reference engine, like every
    expected answer."""
    out: list[tuple[str, Any, int | None]] = []
    moves = [] if pos.is_over else pos.legal_moves()
    if pit is not None and pit not in moves:      # an example of an illegal move
        out.append(("~position", pos, None))
        if moves:
            out.append(("~first", pos, moves[0]))
        return out
    if pit is None:
        if not moves:
            return _turned(pos)
        out.append(("~first", pos, moves[0]))
        if len(moves) > 1:
            out.append(("~last", pos, moves[-1]))
        return out
    out.append(("~position", pos, None))
    after = pos.play(pit)
    moves = [] if after.is_over else after.legal_moves()
    out.append(("~after", after, moves[0]) if moves else ("~after", after, None))
    return out


def _turned(pos) -> list[tuple[str, Any, int | None]]:
    """For a finished position shown without a move: the same board with the
    next player to move: its first legal move (``~turned``) and the position
    itself (``~turned-position``)."""
    game = pos.game
    try:
        turned = game.position(pos.pits, to_move=(pos.to_move + 1) % len(pos.captured),
                               captured=pos.captured, opener=pos.opener, owners=pos.owners)
    except ValueError:
        return []
    moves = [] if turned.is_over else turned.legal_moves()
    out = [("~turned", turned, moves[0] if moves else None)]
    if moves:
        out.append(("~turned-position", turned, None))
    return out


@dataclass(frozen=True)
class Supplement:
    """A case added where the rules pages' examples catch a plausible mistake
    only once: its rule, game, options, position and move, and why it is here.
    Its expected answer is the reference engine's, like every case's."""

    id: str
    rule: str
    game: str
    options: tuple[tuple[str, Any], ...]
    position: str
    move: str | None
    why: str


#: The supplementary cases (see :class:`Supplement`), each with the mistake it catches.
SUPPLEMENTS = (
    Supplement("bakuk-capture-six-1", "bakuk-capture", "bakuk", (), "1,5,6/6,6,6 S 3-3 opener=S",
               "a", "the last counter makes six in b: six is not two or four, nothing is "
               "taken (an engine that also takes sixes, as Koumma does, fails)"),
    Supplement("bakuk-capture-six-2", "bakuk-capture", "bakuk", (), "6,6,6/1,5,6 N 3-3 opener=S",
               "A", "the last counter makes six in B; again nothing is taken"),
    Supplement("bakuk-origin-3", "bakuk-origin", "bakuk", (("skip_origin", True),),
               "0,0,9/6,6,6 S 3-6 opener=S", "c",
               "nine counters from c pass over c itself on their second lap"),
)


def supplementary_cases() -> list[dict[str, Any]]:
    """The exported cases of :data:`SUPPLEMENTS`."""
    cases = []
    for extra in SUPPLEMENTS:
        game = get_game(extra.game, **dict(extra.options))
        pos = game.parse(extra.position)
        pit = None if extra.move is None else game.board.pit(extra.move)
        case = _case(extra.id, extra.rule, "mancala_spec/conformance/__init__.py:SUPPLEMENTS",
                     pos, pit)
        cases.append(case)
    return cases


def build_suite(examples: list[Example]) -> dict[str, Any]:
    """The exportable suite: one case per thing an example plays, each followed
    by the cases :func:`derived` from it, with the reference engine's answers
    as the expected values."""
    cases = []
    for example in examples:
        # the example's anchor on the built site: stable while the pages are edited
        where = f"{example.page.removesuffix('.md')}.html#example-{example.id}"
        for case_id, case in zip(example.case_ids(), example.cases):
            game = get_game(case.game, **dict(case.options))
            pos = game.parse(case.position) if case.position else game.start(case.opener)
            pit = None
            if case.move is not None:
                pit = game.board.pit(case.move) if isinstance(case.move, str) else case.move
            match = None
            if case.match is not None:
                from ..engine.games.ba_awa import BaAwa
                from ..engine.match import Match

                if not isinstance(game, BaAwa):
                    raise ValueError(f"example {example.id}: a match is Ba-awa's, "
                                     f"not {case.game}'s")
                settings = Match(game, **dict(case.match))
                match = {"target": settings.target, "opener": settings.opener,
                         "allocation": settings.allocation, "final_take": settings.final_take}
            cases.append(_case(case_id, example.rule, where, pos, pit, match))
            for suffix, other, move in derived(pos, pit):
                cases.append(_case(case_id + suffix, example.rule, where, other, move))
    cases.extend(supplementary_cases())
    return {"format": SUITE_FORMAT, "version": SUITE_VERSION, "mancala_spec": __version__,
            "protocol": PROTOCOL, "cases": cases}


def schema() -> dict[str, Any]:
    """The JSON Schema of the exported suite."""
    return json.loads(resources.files(__package__).joinpath("schema.json").read_text("utf-8"))


#: The suite shipped in the package (``suite.json`` beside this module), so that
#: ``mancala-spec conformance run`` needs no ``docs/``. ``python -m
#: mancala_spec.conformance.prebuilt`` regenerates it from the rules pages; a
#: test checks it equals a fresh extraction.
SUITE_FILE = "suite.json"


def packaged_suite() -> dict[str, Any]:
    """The prebuilt suite shipped with the package."""
    return json.loads(resources.files(__package__).joinpath(SUITE_FILE).read_text("utf-8"))


def suite_text(suite: dict[str, Any]) -> str:
    """A suite as the JSON text that is exported and shipped."""
    return json.dumps(suite, indent=1, ensure_ascii=False) + "\n"

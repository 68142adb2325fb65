"""A conformance suite any engine can run, built from the rules site's examples.

Every worked example on the rules pages is a ```{doctest} <example-id>```
block inside the ```{rule} <rule-id>``` block it illustrates. The one
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
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .. import __version__
from ..games import get_game
from .protocol import PROTOCOL, answer, position_fields

SUITE_FORMAT = "mancala-spec-conformance-suite"
SUITE_VERSION = 1

_FENCE = re.compile(r"^(?P<ticks>`{3,}|:{3,})\{(?P<name>[\w-]+)\}\s*(?P<arg>\S*)\s*$")


@dataclass(frozen=True)
class Example:
    """One worked example: where it is, which rule it belongs to, what it plays."""

    id: str
    rule: str
    page: str
    line: int
    code: str
    game: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    position: str | None = None
    move: str | int | None = None

    @property
    def is_case(self) -> bool:
        """Whether the example is a conformance case (it names a game and a position)."""
        return self.game is not None and self.position is not None


def _fences(lines: list[str]):
    """Yield (directive, argument, first line, body lines) for every fenced
    directive, nested ones included, with 1-based line numbers."""
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


def _literal_call(code: str):
    """Game name, options, position text and move found in doctest *code*."""
    game = position = move = None
    options: dict[str, Any] = {}
    for line in code.splitlines():
        line = line.strip()
        if not line.startswith(">>> "):
            continue
        try:
            tree = ast.parse(line[4:])
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if name == "get_game" and game is None and args:
                game = args[0]
                options = {k.arg: k.value.value for k in node.keywords
                           if k.arg and isinstance(k.value, ast.Constant)}
            elif name == "parse" and position is None and args and isinstance(args[0], str):
                position = args[0]
            elif name in ("trace", "play") and move is None and args and position is not None:
                move = args[0]
    return game, options, position, move


def extract_examples(docs: Path | str) -> list[Example]:
    """Every ```{doctest} <id>``` example inside a ```{rule} <rule-id>``` block of
    the Markdown pages under *docs*, in page order."""
    examples = []
    for page in sorted(Path(docs).rglob("*.md")):
        if "auto_examples" in page.parts:
            continue
        lines = page.read_text(encoding="utf-8").splitlines()
        for name, arg, start, body, rules in _fences(lines):
            if name != "doctest" or not arg or not rules:
                continue
            code = "\n".join(body)
            game, options, position, move = _literal_call(code)
            examples.append(Example(arg, rules[-1], str(page.relative_to(docs)), start, code,
                                    game, options, position, move))
    return examples


def build_suite(examples: list[Example]) -> dict[str, Any]:
    """The exportable suite: one case per example that plays a position, with the
    reference engine's answers as the expected values."""
    cases = []
    for example in examples:
        if not example.is_case:
            continue
        game = get_game(example.game, **example.options)
        pos = game.parse(example.position)
        pit = None
        if example.move is not None:
            pit = game.board.pit(example.move) if isinstance(example.move, str) else example.move
        request = {"id": example.id, "game": game.name, "options": dict(game.options),
                   "position": position_fields(pos), "move": pit}
        expected = answer(request)
        expected.pop("id")
        if "result" in expected:
            expected["result"]["text"] = pos.play(pit).to_text()
        cases.append({
            "id": example.id, "rule": example.rule, "game": game.name,
            "options": dict(game.options),
            "where": f"{example.page}:{example.line}",
            "position": {"text": pos.to_text(), "fields": position_fields(pos)},
            "move": None if pit is None else {"pit": pit, "name": game.board.name(pit)},
            "expected": expected,
        })
    return {"format": SUITE_FORMAT, "version": SUITE_VERSION, "mancala_spec": __version__,
            "protocol": PROTOCOL, "cases": cases}


def schema() -> dict[str, Any]:
    """The JSON Schema of the exported suite."""
    return json.loads(resources.files(__package__).joinpath("schema.json").read_text("utf-8"))

"""Sphinx extension: the ``{example}`` directive renders a worked example from its data.

Add ``"mancala_spec.sphinx.examples"`` to ``extensions``, then inside a ``{rule}``
block of a MyST page::

    ```{example} bakuk-sow-1
    game = "bakuk"
    position = "6,6,2/6,4,6 S 2-4 opener=S"
    move = "c"
    events = '''
    ...
    '''
    result = "6,6,0/7,5,6 N 2-4 opener=S seen=6,6,2/6,4,6:S"

    [[diagram]]
    name = "fig-bakuk-sow"
    ```

The body is the example's data (:mod:`mancala_spec.conformance.worked_examples` says
what it holds). From it the directive makes what the page shows: a doctest
block (a ``literal_block`` marked as ``sphinx.ext.doctest`` marks its own, with
the example's ID as its group, so ``sphinx -b doctest`` runs it and the
``{rule}`` block gives it its caption and anchor ``example-<id>``), then each
``[[diagram]]`` drawn by the ``sowing-diagram`` directive from the same data.
When the page is read, the data is checked against the reference engine: a
difference is a warning (an error under ``-W``), so even an HTML build refuses an
example whose stated events or result the engine does not produce.

``doctree-read`` checks that every example sits in a ``{rule}`` block and that a
rule block holds no other doctest (the old style, from which no conformance case
was made).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from .. import __version__
from ..conformance.example_check import case_position, check
from ..conformance.worked_examples import Diagram, Example, ExampleError, parse_example
from .diagrams import SowingDiagram

logger = logging.getLogger(__name__)
MARK = "mancala_example"        # set on the doctest node an {example} makes
DATA = "mancala_example_data"   # and the move it plays, for the page's "Try it" / "Open in Play"


def play_data(example: Example) -> dict[str, str]:
    """The first legal move the example plays, as the ``data-*`` attributes of its
    caption: game, position (notation), move (a pit name) and options
    (``name=value ...``). An example that plays no legal move (it states a
    position's legal moves, a refused move or an outcome) gives its first case's
    game, position and options without a move: the page offers no step-through for
    it, only the position to open in Play."""
    for play in example.plays:
        case = play.case
        if case.move is not None and "error" not in play.expect:
            return {"game": case.game, "position": case_position(case).to_text(),
                    "move": str(case.move), "options": _option_text(case.options)}
    for play in example.plays:
        case = play.case
        return {"game": case.game, "position": case_position(case).to_text(),
                "options": _option_text(case.options)}
    return {}


class example_caption(nodes.paragraph):
    """The caption of an example ("Example <id>"), with the move it plays as data
    (other builders than HTML show it as a plain paragraph)."""


def visit_example_caption(self, node: example_caption) -> None:
    attributes = {f"data-{key}": value for key, value in node["data"].items()}
    self.body.append(self.starttag(node, "p", "", **attributes))


def depart_example_caption(self, node: example_caption) -> None:
    self.body.append("</p>\n")


def engine_files() -> list[str]:
    """The source files an example's page depends on: the engine, the notation,
    the examples' own reading and checking, and this directive."""
    package = Path(__file__).resolve().parent.parent
    files = [package / "notation.py", *sorted((package / "engine").rglob("*.py")),
             *sorted((package / "conformance").glob("example*.py")), Path(__file__)]
    return [os.fspath(path) for path in files]


def _option_text(options: tuple[tuple[str, Any], ...]) -> str:
    return " ".join(f"{key}={str(value).lower() if isinstance(value, bool) else value}"
                    for key, value in options)


class ExampleDirective(SphinxDirective):
    """``{example} <example-id>``: a worked example, from its data."""

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        example_id = self.arguments[0]
        for path in engine_files():            # the engine decides what is checked
            self.env.note_dependency(path)
        try:
            example = parse_example(example_id, "\n".join(self.content),
                                    page=self.env.docname, line=self.lineno)
        except ExampleError as error:
            raise self.error(str(error)) from None
        for problem in check(example):
            logger.warning("example %s", problem, location=self.get_location(),
                           type="mancala", subtype="example")
        code = example.doctest()
        node = nodes.literal_block(code, code, testnodetype="doctest", groups=[example_id],
                                   language="pycon", options={})
        node[MARK] = example_id
        node[DATA] = play_data(example)
        self.set_source_info(node)
        out: list[nodes.Node] = [node]
        for diagram in example.diagrams:
            out += self.diagram(example, diagram)
        return out

    def diagram(self, example: Example, diagram: Diagram) -> list[nodes.Node]:
        """The ``sowing-diagram`` of one case, with its inputs from the example's data."""
        directive = SowingDiagram("sowing-diagram", [], diagram_options(example, diagram),
                                  StringList(), self.lineno, self.content_offset,
                                  self.block_text, self.state, self.state_machine)
        return directive.run()


def diagram_options(example: Example, diagram: Diagram) -> dict[str, Any]:
    """The ``sowing-diagram`` options of one of the example's diagrams."""
    play = example.plays[diagram.case - 1]
    case = play.case
    options: dict[str, Any] = {"game": case.game, "options": _option_text(case.options),
                               "example": example.id, "name": diagram.name,
                               "position": case.position or "",
                               "move": "" if case.move is None else str(case.move)}
    if case.position is None and case.opener:
        options["position"] = case_position(case).to_text()
    if diagram.draw == "next":
        options.update(position=play.expect["next"], move="")
    if diagram.caption:
        options["caption"] = diagram.caption
    if diagram.panels:
        options["panels"] = diagram.panels
    if diagram.columns:
        options["columns"] = diagram.columns
    if diagram.stores is not None:
        options["stores"] = "true" if diagram.stores else "false"
    return options


def check_placement(app, doctree: nodes.document) -> None:
    """Every example in a ``{rule}`` block, and no other doctest in one; each
    example's caption carries the move it plays (``doctree-read``)."""
    for node in list(doctree.findall(nodes.literal_block)):
        if node.get(DATA) and node.parent is not None:
            index = node.parent.index(node)
            previous = node.parent[index - 1] if index else None
            if (isinstance(previous, nodes.paragraph)
                    and "example-caption" in previous.get("classes", [])):
                caption = example_caption(previous.rawsource, "", *previous.children,
                                          **previous.attributes)
                caption["data"] = node[DATA]
                previous.replace_self(caption)
        if node.get("testnodetype") != "doctest":
            continue
        rule = node.parent
        while rule is not None and "rule" not in rule.get("classes", []):
            rule = rule.parent
        if node.get(MARK) and rule is None:
            logger.warning("example %s is not inside the {rule} block it illustrates",
                           node[MARK], location=node, type="mancala", subtype="example")
        elif rule is not None and not node.get(MARK):
            logger.warning("a {doctest} block inside a {rule} block: worked examples are "
                           "{example} blocks (data), from which the conformance suite is "
                           "made", location=node, type="mancala", subtype="example")


def setup(app) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.doctest")
    app.setup_extension("mancala_spec.sphinx.diagrams")
    app.add_node(example_caption, html=(visit_example_caption, depart_example_caption))
    app.add_directive("example", ExampleDirective)
    app.connect("doctree-read", check_placement)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}

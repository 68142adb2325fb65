"""Sphinx directives for the command-line and conformance reference pages.

``{cli-reference}``
    Every ``mancala-spec`` subcommand with its ``--help`` text, taken from the
    argument parser at build time (so the page cannot drift from the program).
``{conformance-summary}``
    The exported suite's cases counted per game and per rule, computed at
    build time from the rules pages.
``{exit-statuses}``
    The command's exit statuses, from the table the parser's help shows.
``{protocol-schema} request|answer``
    The JSON Schema of a protocol request or answer, derived from the engine
    (:mod:`mancala_spec.conformance.wire`).
``{protocol-exchanges}``
    Real traffic: a few cases run through the runner against the reference
    engine at build time, each request line and the answer line it got.

HTML builds also write the suite and its JSON Schema beside the pages as
``conformance-suite.json`` and ``conformance-schema.json``, and the protocol's
schemas as ``protocol-request-schema.json`` and ``protocol-answer-schema.json``,
for download.
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from .. import __version__
from .cache import suite_key
from .rule_nodes import table

SUITE_FILE = "conformance-suite.json"
SCHEMA_FILE = "conformance-schema.json"
PROTOCOL_FILE = "protocol-{}-schema.json"


_SUITES: dict[str, dict[str, Any]] = {}


def _suite_key(app) -> str:
    """The name the suite of these sources is kept under (:mod:`.cache`)."""
    return suite_key(Path(app.srcdir))


def site_suite(app) -> dict[str, Any]:
    """The conformance suite of the rules pages, which the summary table, the protocol
    page's exchanges and the download all show: built once (seconds of engine work),
    and kept (:mod:`.cache`) under a digest of the package and of the pages."""
    from ..conformance import build_suite, extract_examples
    from . import cache

    key = _suite_key(app)
    if key not in _SUITES:
        _SUITES[key] = cache.value(
            key, lambda: build_suite(extract_examples(Path(app.srcdir))))
    return _SUITES[key]


class CliReference(SphinxDirective):
    """One section per subcommand, with its help text as a literal block."""

    def run(self) -> list[nodes.Node]:
        from .. import cli

        parser = cli.build_parser()
        self.env.note_dependency(cli.__file__)
        result: list[nodes.Node] = [nodes.literal_block(text=parser.format_help(), language="text")]
        subparsers = next(a for a in parser._actions
                          if isinstance(a, argparse._SubParsersAction) and a.dest == "command")
        for name, sub in subparsers.choices.items():
            section = nodes.section(ids=[f"cli-{name}"], names=[f"cli-{name}"])
            section += nodes.title(text=f"mancala-spec {name}")
            section += nodes.literal_block(text=sub.format_help(), language="text")
            for action in sub._actions:
                if getattr(action, "choices", None) and isinstance(action.choices, dict):
                    for inner_name, inner in action.choices.items():
                        section += nodes.paragraph(text=f"mancala-spec {name} {inner_name}:")
                        section += nodes.literal_block(text=inner.format_help(), language="text")
            result.append(section)
        return result


class ConformanceSummary(SphinxDirective):
    """A table of the suite's cases per game and rule."""

    def run(self) -> list[nodes.Node]:
        suite = site_suite(self.env.app)
        counts = Counter((case["game"], case["rule"]) for case in suite["cases"])
        games = Counter(case["game"] for case in suite["cases"])
        rows = [(game, rule, str(count)) for (game, rule), count in counts.items()]
        rows += [(game, "all rules", str(count)) for game, count in games.items()]
        rows += [("both", "all rules", str(len(suite["cases"])))]
        return [text_table(["game", "rule", "cases"], rows)]


class ExitStatuses(SphinxDirective):
    """The exit-status table, from :data:`mancala_spec.cli.EXIT_STATUSES`."""

    def run(self) -> list[nodes.Node]:
        from .. import cli

        return [text_table(["status", "name", "meaning"],
                           [(str(status.code), status.name, status.meaning)
                            for status in cli.EXIT_STATUSES])]


def text_table(header: list[str], rows: Sequence[Sequence[str]]) -> nodes.table:
    """A table of plain-text cells (:func:`~mancala_spec.sphinx.rule_nodes.table`)."""
    return table(header, [[[nodes.Text(cell)] for cell in cells] for cells in rows])


class ProtocolSchema(SphinxDirective):
    """The request or answer schema as a JSON literal block."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from ..conformance import wire

        which = self.arguments[0]
        if which not in ("request", "answer"):
            raise self.error("protocol-schema takes request or answer")
        schema = getattr(wire, f"{which}_schema")()
        return [nodes.literal_block(text=json.dumps(schema, indent=1, ensure_ascii=False),
                                    language="json")]


#: The cases whose real traffic the protocol page shows: a move with its events,
#: a question about a position (move null), an illegal move, a match game's end.
EXCHANGE_CASES = ("bakuk-chain-1", "bakuk-draw-1", "bakuk-choose-1.1", "ba-awa-match-setup-1")


class ProtocolExchanges(SphinxDirective):
    """Request and answer lines of a real run against the reference engine."""

    def run(self) -> list[nodes.Node]:
        import sys

        from ..conformance.runner import run

        suite = site_suite(self.env.app)
        by_id = {case["id"]: case for case in suite["cases"]}
        missing = [case for case in EXCHANGE_CASES if case not in by_id]
        chosen = [by_id[case] for case in EXCHANGE_CASES if case in by_id]
        traffic: list[tuple[dict[str, Any], str]] = []
        report = run([sys.executable, "-m", "mancala_spec.conformance.engine"],
                     dict(suite, cases=chosen), timeout=60, traffic=traffic)
        if missing or not report.ok or len(traffic) != len(chosen):
            raise self.error(f"protocol-exchanges: cases {missing} missing or the run failed: "
                             + report.summary())
        result: list[nodes.Node] = []
        for case, (request, answer) in zip(chosen, traffic):
            result.append(nodes.paragraph(text=f"{case['id']} ({case['rule']}): request, "
                                               "then answer"))
            result.append(nodes.literal_block(text=json.dumps(request) + "\n" + answer,
                                              language="json"))
        return result


def _write_downloads(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from ..conformance import schema

    out = Path(app.outdir)
    (out / SUITE_FILE).write_text(json.dumps(site_suite(app), indent=1, ensure_ascii=False) + "\n",
                                  encoding="utf-8")
    (out / SCHEMA_FILE).write_text(json.dumps(schema(), indent=1) + "\n", encoding="utf-8")
    from ..conformance import wire

    for name, make in (("request", wire.request_schema), ("answer", wire.answer_schema)):
        (out / PROTOCOL_FILE.format(name)).write_text(
            json.dumps(make(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def setup(app) -> dict[str, Any]:
    app.add_directive("cli-reference", CliReference)
    app.add_directive("conformance-summary", ConformanceSummary)
    app.add_directive("protocol-schema", ProtocolSchema)
    app.add_directive("exit-statuses", ExitStatuses)
    app.add_directive("protocol-exchanges", ProtocolExchanges)
    app.connect("build-finished", _write_downloads)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}

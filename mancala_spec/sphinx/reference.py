"""Sphinx directives for the command-line and conformance reference pages.

``{cli-reference}``
    Every ``mancala-spec`` subcommand with its ``--help`` text, taken from the
    argument parser at build time (so the page cannot drift from the program).
``{conformance-summary}``
    The exported suite's cases counted per game and per rule, computed at
    build time from the rules pages.

HTML builds also write the suite and its JSON Schema beside the pages as
``conformance-suite.json`` and ``conformance-schema.json``, for download.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from .. import __version__

SUITE_FILE = "conformance-suite.json"
SCHEMA_FILE = "conformance-schema.json"


def _suite(app) -> dict[str, Any]:
    from ..conformance import build_suite, extract_examples

    return build_suite(extract_examples(Path(app.srcdir)))


class CliReference(SphinxDirective):
    """One section per subcommand, with its help text as a literal block."""

    def run(self) -> list[nodes.Node]:
        from .. import cli

        parser = cli.build_parser()
        self.env.note_dependency(cli.__file__)
        result: list[nodes.Node] = [nodes.literal_block(text=parser.format_help(), language="text")]
        subparsers = next(a for a in parser._actions if a.dest == "command")
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
        suite = _suite(self.env.app)
        counts = Counter((case["game"], case["rule"]) for case in suite["cases"])
        games = Counter(case["game"] for case in suite["cases"])
        table = nodes.table()
        group = nodes.tgroup(cols=3)
        table += group
        for width in (2, 4, 1):
            group += nodes.colspec(colwidth=width)

        def row(*cells: str) -> nodes.row:
            line = nodes.row()
            for cell in cells:
                entry = nodes.entry()
                entry += nodes.paragraph(text=cell)
                line += entry
            return line

        head = nodes.thead()
        head += row("game", "rule", "cases")
        group += head
        body = nodes.tbody()
        for (game, rule), count in counts.items():
            body += row(game, rule, str(count))
        for game, count in games.items():
            body += row(game, "all rules", str(count))
        body += row("both", "all rules", str(len(suite["cases"])))
        group += body
        return [table]


def _write_downloads(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from ..conformance import schema

    out = Path(app.outdir)
    (out / SUITE_FILE).write_text(json.dumps(_suite(app), indent=1, ensure_ascii=False) + "\n",
                                  encoding="utf-8")
    (out / SCHEMA_FILE).write_text(json.dumps(schema(), indent=1) + "\n", encoding="utf-8")


def setup(app) -> dict[str, Any]:
    app.add_directive("cli-reference", CliReference)
    app.add_directive("conformance-summary", ConformanceSummary)
    app.connect("build-finished", _write_downloads)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}

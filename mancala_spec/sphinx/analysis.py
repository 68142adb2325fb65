"""The analysis page's Sphinx directives: ``analysis-table`` and ``analysis-figure``
run the studies of :mod:`mancala_spec.analysis` when the page is read::

    ```{analysis-table} opener
    :games: 4000
    :greedy-games: 800
    :seed: 2026
    ```

(``"mancala_spec.sphinx.analysis"`` in ``extensions``.)
"""
from __future__ import annotations

import functools
import hashlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..analysis.cli import QUICK
from ..analysis.common import Table, version
from ..analysis.endless import exhaustive_seed_counts, exhaustive_table
from ..analysis.opener import FIGURES, in_play_table, longest_table, opener_table
from . import cache

FIGURE_FOLDER = "analysis-figures"



def _dependencies() -> list[str]:
    """The source files the page's results depend on."""
    package = Path(__file__).resolve().parent.parent
    folders = ("analysis", "fast", "engine", "diagrams")
    files = [package / "notation.py", package / "options.py"]   # options: the games' defaults
    files += sorted(path for folder in folders for path in (package / folder).rglob("*.py"))
    return [os.fspath(path) for path in files]



@functools.cache
def _code_digest() -> str:
    import matplotlib

    from ..version import BASE  # not the commit: the code itself is hashed below

    digest = hashlib.sha256(f"{BASE} {matplotlib.__version__}".encode())
    for path in _dependencies():
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()



#: what ``analysis-table`` computes, by kind: (games, greedy games, seed, max seeds) -> table
TABLES: dict[str, Callable[[int, int, int, int], Any]] = {
    "opener": lambda games, greedy, seed, most: opener_table(games, greedy, seed),
    "in-play": lambda games, greedy, seed, most: in_play_table(games, greedy, seed),
    "longest": lambda games, greedy, seed, most: longest_table(games, greedy, seed),
    "exhaustive": lambda games, greedy, seed, most: exhaustive_table(
        exhaustive_seed_counts(most), skip_options=(False,)),
}


def _table(kind: str, games: int, greedy: int, seed: int, most: int) -> Any:
    """One ``analysis-table``: kept (:mod:`.cache`) under a digest of the code it
    runs, the kind and the sizes."""
    sizes = f"{games} {greedy} {seed} {most}"
    digest = hashlib.sha256(f"{_code_digest()} {kind} {sizes}".encode()).hexdigest()
    return cache.value(f"analysis-{kind}-{digest[:16]}",
                       lambda: list(TABLES[kind](games, greedy, seed, most)))


def _figure_name(kind: str, games: int, greedy: int, seed: int) -> str:
    """The file name of one ``analysis-figure``: a digest of the code it runs, the
    kind and the sizes."""
    key = f"{_code_digest()} {kind} {games} {greedy} {seed}"
    return f"{kind}-{hashlib.sha256(key.encode()).hexdigest()[:16]}.png"


def _draw_figure(kind: str, games: int, greedy: int, seed: int, target: Path) -> None:
    from ..diagrams import save
    save(FIGURES[kind](games, greedy, seed), target, format="png", dpi=120)




def _make_directives():
    """The directive classes (made here, so that the module imports without Sphinx)."""
    from docutils import nodes
    from docutils.parsers.rst import directives
    from sphinx.util import logging
    from sphinx.util.docutils import SphinxDirective

    logger = logging.getLogger(__name__)

    def cell(text: str) -> nodes.entry:
        """A table cell; text between backticks is set as code."""
        paragraph = nodes.paragraph()
        for index, part in enumerate(text.split("`")):
            if part:
                paragraph += nodes.literal(part, part) if index % 2 else nodes.Text(part)
        return nodes.entry("", paragraph)

    def table_node(table: Table) -> nodes.table:
        header, rows = table
        group = nodes.tgroup(cols=len(header))
        group += [nodes.colspec(colwidth=1) for _ in header]
        group += nodes.thead("", nodes.row("", *map(cell, header)))
        group += nodes.tbody("", *(nodes.row("", *map(cell, values)) for values in rows))
        return nodes.table("", group, classes=["analysis-table"])

    common: dict[str, Callable[[str], Any]] = {
        "games": directives.positive_int,
        "greedy-games": directives.positive_int,
        "seed": directives.nonnegative_int,
        "max-seeds": directives.positive_int,
        "caption": directives.unchanged,
        "name": directives.unchanged,
    }

    class _Analysis(SphinxDirective):
        required_arguments = 1
        has_content = False
        option_spec = common

        def sizes(self) -> tuple[int, int, int]:
            return (self.options.get("games", QUICK["games"]),
                    self.options.get("greedy-games", QUICK["greedy_games"]),
                    self.options.get("seed", QUICK["seed"]))

        def finish(self, node, kind: str, seconds: float) -> list[nodes.Node]:
            logger.info(f"[analysis] {self.name} {kind}: {seconds:.1f} s")
            for path in _dependencies():
                self.env.note_dependency(path)
            messages: list[nodes.system_message] = []
            text = self.options.get("caption", "").strip()
            if text:
                inline, messages = self.parse_inline(text, lineno=self.lineno)
                title = nodes.caption if isinstance(node, nodes.figure) else nodes.title
                node.insert(len(node) if title is nodes.caption else 0,
                            title(text, "", *inline))
            self.set_source_info(node)
            self.add_name(node)
            return [node, *messages]

    class AnalysisTable(_Analysis):
        """``{analysis-table} <kind>``: a table computed when the page is read.
        Kinds: ``opener``, ``in-play``, ``longest``, ``exhaustive``."""

        def run(self) -> list[nodes.Node]:
            kind = self.arguments[0]
            games, greedy, seed = self.sizes()
            if kind not in TABLES:
                raise self.error(f"analysis-table: unknown table {kind!r}; use one of "
                                 + ", ".join(TABLES))
            t0 = time.perf_counter()
            header, rows = _table(kind, games, greedy, seed,
                                  self.options.get("max-seeds", QUICK["max_seeds"]))
            table = (list(header), [list(row) for row in rows])
            if not table[1]:
                table = (table[0], [["none"] + [""] * (len(table[0]) - 1)])
            return self.finish(table_node(table), kind, time.perf_counter() - t0)

    class AnalysisFigure(_Analysis):
        """``{analysis-figure} <kind>``: a figure drawn when the page is read.
        Kinds: ``opener``, ``laps``."""

        option_spec = {**common, "alt": directives.unchanged,
                       "width": directives.length_or_percentage_or_unitless}

        def run(self) -> list[nodes.Node]:
            kind = self.arguments[0]
            if kind not in FIGURES:
                raise self.error(f"analysis-figure: unknown figure {kind!r}; use one of "
                                 + ", ".join(FIGURES))
            games, greedy, seed = self.sizes()
            t0 = time.perf_counter()
            target = (Path(self.env.doctreedir) / FIGURE_FOLDER
                      / _figure_name(kind, games, greedy, seed))
            if not target.exists():
                cache.file(target, functools.partial(_draw_figure, kind, games, greedy, seed))
            uri = "/" + Path(os.path.relpath(target, self.env.srcdir)).as_posix()
            image = nodes.image(uri=uri, alt=self.options.get("alt", f"the {kind} figure"))
            if "width" in self.options:
                image["width"] = self.options["width"]
            figure = nodes.figure("", image, classes=["analysis-figure"])
            return self.finish(figure, kind, time.perf_counter() - t0)

    return AnalysisTable, AnalysisFigure



def setup(app) -> dict[str, Any]:
    """Register the ``analysis-table`` and ``analysis-figure`` directives."""
    table, figure = _make_directives()
    app.add_directive("analysis-table", table)
    app.add_directive("analysis-figure", figure)
    return {"version": version(), "parallel_read_safe": True, "parallel_write_safe": True}

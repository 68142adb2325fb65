"""Sphinx extension: what an implementer downloads from the site, and where the
project's source is.

``{downloads}``
    A table of the files the HTML build writes into ``download/`` (and beside
    the pages), each linked: the project's wheel (built by pip, as the Play page's
    is: ``dev.build_wheel``), the example engine ``examples/engine.js``, the
    conformance suite with its JSON Schema and the protocol's two schemas (those
    four written by :mod:`.reference`).
``{install-commands}``
    The commands that install this version's wheel, with and without the
    extras, and the wheel's file name in them.
``{conformance-run}``
    What ``mancala-spec conformance run`` prints, from a real run at build time
    against the package's minimal engine (the time taken left out).
``{source-location}``
    Where the project's source is: the address the ``mancala_source_url``
    setting gives (``$MANCALA_SPEC_SOURCE_URL``, or on Read the Docs the
    repository it builds from, ``$READTHEDOCS_GIT_CLONE_URL``), or, with none,
    that no address is published yet. No address is ever made up: pyproject.toml
    names no home page.

A test builds the site, follows every link of the table and compares each file
with what it should be (the wheel's metadata and modules with the package's).
"""
from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from .. import __version__
from ..catalogue.cite import RTD_CLONE, SOURCE_URL_VARIABLE, addresses
from .reference import PROTOCOL_FILE, SCHEMA_FILE, SUITE_FILE

#: the folder of the built site the wheel and the example engine are written to
FOLDER = "download"
ENGINE = "engine.js"


def wheel_name(version: str = __version__) -> str:
    """The file name of this version's wheel (pure Python, any platform).

    >>> wheel_name("0.2.0")
    'mancala_spec-0.2.0-py3-none-any.whl'
    """
    return f"mancala_spec-{version}-py3-none-any.whl"


def source_url(environ: Mapping[str, str] | None = None) -> str:
    """The address of the project's source, from the environment the site is
    built in; ``""`` when none is configured (the project publishes none yet).

    >>> source_url({"MANCALA_SPEC_SOURCE_URL": "https://git.example/ms/"})
    'https://git.example/ms'
    >>> source_url({"READTHEDOCS_GIT_CLONE_URL": "https://github.com/o/r.git"})
    'https://github.com/o/r'
    >>> source_url({})
    ''
    """
    url = next(filter(None, addresses(environ, SOURCE_URL_VARIABLE, RTD_CLONE)), "")
    if not url.startswith(("https://", "http://")):
        return ""                     # an ssh address or nothing: no link to give
    return url.removesuffix(".git")


def downloads() -> list[tuple[str, str]]:
    """(path in the built site, what it is) for each file offered."""
    return [
        (f"{FOLDER}/{wheel_name()}",
         f"the package, version {__version__}, as a wheel: pure Python, no dependencies "
         "(Python 3.11 or newer)"),
        (f"{FOLDER}/{ENGINE}",
         "the example engine, in JavaScript (Node.js), written from the protocol page "
         "alone: both games at their default options under this reference's rules, no "
         "match play, no events; start your own engine from it"),
        (SUITE_FILE, f"the conformance suite of version {__version__}: every case, with "
                     "the expected answers"),
        (SCHEMA_FILE, "the suite's JSON Schema (draft 2020-12)"),
        (PROTOCOL_FILE.format("request"), "the JSON Schema of a request the runner sends"),
        (PROTOCOL_FILE.format("answer"), "the JSON Schema of an engine's answer"),
    ]


def _link(path: str, docname: str) -> nodes.reference:
    """A link from page *docname* to the built site's file *path*."""
    up = "../" * docname.count("/")
    return nodes.reference("", "", nodes.literal(text=Path(path).name),
                           refuri=up + path, classes=["download-link"])


class Downloads(SphinxDirective):
    """``{downloads}``: the files offered, each linked, with what it is."""

    def run(self) -> list[nodes.Node]:
        table = nodes.table(classes=["downloads"])
        group = nodes.tgroup(cols=2)
        table += group
        group += nodes.colspec(colwidth=1)
        group += nodes.colspec(colwidth=2)
        head = nodes.thead()
        row = nodes.row()
        for title in ("file", "what it is"):
            row += nodes.entry("", nodes.paragraph(text=title))
        head += row
        group += head
        body = nodes.tbody()
        for path, what in downloads():
            row = nodes.row()
            row += nodes.entry("", nodes.paragraph("", "", _link(path, self.env.docname)))
            row += nodes.entry("", nodes.paragraph(text=what))
            body += row
        group += body
        return [table]


class InstallCommands(SphinxDirective):
    """``{install-commands}``: pip commands for this version's wheel."""

    def run(self) -> list[nodes.Node]:
        wheel = wheel_name()
        text = ("# the package alone\n"
                f"pip install {wheel}\n"
                "# with both extras\n"
                f'pip install "{wheel}[solve,diagram]"\n'
                "mancala-spec --help")
        return [nodes.literal_block(text=text, language="text")]


class ConformanceRun(SphinxDirective):
    """``{conformance-run}``: the report of a real run against the minimal engine."""

    def run(self) -> list[nodes.Node]:
        import re
        import sys

        from ..conformance.runner import run
        from .reference import site_suite

        engine = "mancala_spec.conformance.minimal_engine"
        report = run([sys.executable, "-m", engine], site_suite(self.env.app), timeout=60,
                     min_supported=0)
        if not report.ok:
            raise self.error("conformance-run: the minimal engine does not conform: "
                             + report.summary())
        lines = report.lines()
        lines[1] = re.sub(r" \(\d+\.\d+ s\)$", "", lines[1])   # the same page every build
        command = (f'$ mancala-spec conformance run --engine "python -m {engine}" '
                   "--min-supported 0\n")
        return [nodes.literal_block(text=command + "\n".join(lines), language="text")]


class SourceLocation(SphinxDirective):
    """``{source-location}``: where the source is, or that no address is known."""

    def run(self) -> list[nodes.Node]:
        url = self.config.mancala_source_url
        para = nodes.paragraph(classes=["source-location"])
        if url:
            para += nodes.Text("The project's source repository: ")
            para += nodes.reference(url, url, refuri=url)
            para += nodes.Text(".")
        else:
            para += nodes.Text(
                "The project has no published code repository yet: no address is "
                "configured for this build (the site names one when it is built with ")
            para += nodes.literal(text=SOURCE_URL_VARIABLE)
            para += nodes.Text(" set, or on Read the Docs, from the repository it builds), "
                               "and the package's metadata names no home page. The wheel "
                               "above holds the package's whole Python code.")
        return [para]


def _write(app: Any, exception: BaseException | None) -> None:
    """The wheel and the example engine, into ``download/`` of the built site."""
    if exception is not None or app.builder.format != "html":
        return
    # the checkout's dev.py (conf.py's folder is on sys.path)
    import dev

    folder = Path(app.outdir) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    wheel = dev.build_wheel(folder)
    if wheel.name != wheel_name():
        raise RuntimeError(f"the wheel built is {wheel.name}, the site links {wheel_name()}")
    shutil.copyfile(Path(app.confdir) / "examples" / ENGINE, folder / ENGINE)


def setup(app: Any) -> dict[str, Any]:
    app.add_config_value("mancala_source_url", source_url(), "env", types=(str,))
    app.add_directive("downloads", Downloads)
    app.add_directive("install-commands", InstallCommands)
    app.add_directive("source-location", SourceLocation)
    app.add_directive("conformance-run", ConformanceRun)
    # after the Play page's assets (conf.py, priority 500), which build the wheel
    app.connect("build-finished", _write, priority=600)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}

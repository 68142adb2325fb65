"""pytest runs the worked examples of the rules pages (docs/*.md).

pytest reads a page's Markdown source, not the rendered page, and an
``{example}`` block holds data, not doctest text. So this plugin collects each
``{example}`` of every ``docs/*.md`` page as a test item named by its ID
(``docs/bakuk.md::bakuk-sow-1``) and runs the doctest generated from its data:
the very text the page shows and ``sphinx -b doctest`` runs
(:meth:`mancala_spec.conformance.worked_examples.Example.doctest`). A page whose
examples cannot be read fails as one item. The other doctests of the pages
(``{doctest}`` blocks outside rule blocks) are still collected by
``--doctest-glob='*.md'``.

It also marks what needs more than Python and the ``test`` dependency group
(:data:`NEEDS`, markers registered in pyproject.toml, README "For packagers"): a
packager deselects them with ``-m "not browser and not node and not network and not
git and not docs"``. Modules that cannot even be imported without the docs toolchain
are then not collected at all (:func:`pytest_ignore_collect`). Without ``-m`` every
test runs, and one whose tool is missing fails (it never skips).

This is the repository's top-level conftest; the tests' fixtures are in
tests/conftest.py, the helpers they import in tests/helpers.py.
"""
from __future__ import annotations

import doctest
import io
from pathlib import Path

import pytest

from mancala_spec.conformance.worked_examples import DIRECTIVE, Example, page_examples

MARK = "{" + DIRECTIVE + "}"
ROOT = Path(__file__).resolve().parent

#: What each marker means: the tests that need it.
#:   browser  Debian's Chromium through Playwright
#:   node     Node.js with node_modules/ as `npm ci` fills it (axe-core, ajv, Pyodide)
#:   network  the package index (pip installs or builds in isolation)
#:   git      a git checkout (git ls-files, check-manifest)
#:   docs     the docs toolchain: the `docs` group (sphinx, matplotlib, fpdf2, ...)
#: Each entry is a path relative to the root, or a test's node ID (a prefix of it).
NEEDS: dict[str, tuple[str, ...]] = {
    "browser": ("tests/site/test_browser.py", "tests/site/test_phone.py",
                "tests/site/test_a11y.py", "tests/site/test_permalinks.py"),
    "node": ("tests/site/test_a11y.py", "tests/cli/test_schemas.py",
             "tests/cli/test_protocol.py::test_an_engine_in_javascript_passes_the_suite",
             "tests/site/test_browser.py", "tests/site/test_phone.py",
             "tests/site/test_permalinks.py"),
    "network": ("tests/catalogue/test_citation_tools.py::test_cffconvert",
                "tests/packaging/test_wheel.py", "tests/packaging/test_licences.py"),
    "git": ("tests/packaging/test_sdist.py",
            "tests/packaging/test_packaging.py::test_reuse_lint_passes",
            "tests/packaging/test_packaging.py::test_pyroma"),
    "docs": ("mancala_spec/sphinx", "mancala_spec/diagrams/render.py",
             "mancala_spec/diagrams/canvas.py", "mancala_spec/catalogue/pdf.py",
             "tests/site/test_site.py", "tests/site/test_site_cache.py",
             "tests/site/test_navigation.py", "tests/site/test_api_links.py",
             "tests/catalogue/test_pdf.py", "tests/site/test_gallery.py",
             "tests/site/test_diagrams.py", "tests/packaging/test_layout.py",
             "tests/kernel/test_readings.py", "tests/engine/test_rule_code.py",
             "tests/packaging/test_lint.py::test_mypy",
             "tests/catalogue/test_cite.py::test_an_old_anchor",
             "tests/catalogue/test_cite.py::test_every_page_is_canonical",
             "tests/site/test_a11y.py", "tests/site/test_browser.py", "tests/site/test_phone.py",
             "tests/site/test_permalinks.py"),
}
#: fixtures that bring a need with them: the built site needs the docs toolchain and
#: node_modules (the Play page's Pyodide), a browser the rest
FIXTURE_NEEDS = {"site": ("docs", "node"), "site_server": ("docs", "node", "browser"),
                 "chromium": ("browser",), "profile": ("browser",),
                 "playwright_driver": ("browser",), "wheel": ("network",)}


def _needs(nodeid: str) -> set[str]:
    """The marks *nodeid* (a test's, or a path's relative to the root) needs."""
    def under(prefix: str) -> bool:
        return nodeid == prefix or nodeid.startswith(
            prefix if "::" in prefix else (prefix + "::", prefix + "/"))

    return {mark for mark, prefixes in NEEDS.items() if any(map(under, prefixes))}


def pytest_ignore_collect(collection_path, config):
    """With ``-m`` deselecting what a whole module needs, the module is not collected:
    the modules of the site's extensions cannot even be imported without Sphinx."""
    expression = config.option.markexpr
    try:
        relative = collection_path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None
    needs = _needs(relative)
    if not expression or not needs:
        return None
    from _pytest.mark.expression import Expression

    # the module's tests carry at least these marks; if those alone deselect, skip it
    return not Expression.compile(expression).evaluate(
        lambda name, **kwargs: name in needs) or None


def pytest_collection_modifyitems(config, items):
    for item in items:
        needs = _needs(item.nodeid.replace("\\", "/"))
        for fixture in getattr(item, "fixturenames", ()):
            needs.update(FIXTURE_NEEDS.get(fixture, ()))
        for mark in sorted(needs):
            item.add_marker(mark)


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".md" and MARK in file_path.read_text(encoding="utf-8"):
        return ExamplePage.from_parent(parent, path=file_path)
    return None


class ExamplePage(pytest.File):
    """The ``{example}`` blocks of one page."""

    def collect(self):
        text = self.path.read_text(encoding="utf-8")
        for example in page_examples(text, self.path.name):
            yield ExampleItem.from_parent(self, name=example.id, example=example)


class ExampleItem(pytest.Item):
    """One worked example, run as the doctest its data makes."""

    def __init__(self, *, example: Example, **kwargs) -> None:
        super().__init__(**kwargs)
        self.example = example

    def runtest(self) -> None:
        test = doctest.DocTestParser().get_doctest(
            self.example.doctest(), {}, self.example.id, str(self.path), self.example.line)
        out = io.StringIO()
        runner = doctest.DocTestRunner()
        result = runner.run(test, out=out.write)
        if result.failed:
            raise ExampleFailed(out.getvalue())

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ExampleFailed):
            return f"example {self.example.id} fails:\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, self.example.line, f"example {self.example.id}"


class ExampleFailed(Exception):
    """The doctest of an example did not give what its data states."""

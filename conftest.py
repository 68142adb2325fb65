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
git and not docs and not openspiel and not pettingzoo"``. A marked module that cannot
even be imported without its tool is collected as one failing test with its marks
(:func:`pytest_make_collect_report`), so that ``-m`` deselects it too. Without ``-m``
every test runs, and one whose tool is missing fails (it never skips).

This is the repository's top-level conftest; the tests' fixtures are in
tests/conftest.py, the helpers they import in tests/helpers.py.
"""
from __future__ import annotations

import doctest
import io
import os
import sys
import tempfile
from pathlib import Path

import pytest


def _out_of_the_tree() -> None:
    """Tests write nothing inside the tree: what the tools they run keep between runs
    (Python's bytecode, Hypothesis's examples, ruff's and mypy's caches) goes to one
    folder per user in the system's temporary folder, for this process and the ones it
    starts. Settings already made in the environment are kept. Only the bytecode of
    this file is written beside it, before it runs (``python -B`` writes none, and then
    neither do the processes the tests start)."""
    scratch = Path(tempfile.gettempdir()) / f"mancala-spec-tests-{os.getuid()}"
    if sys.dont_write_bytecode:
        os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    elif not sys.pycache_prefix:
        sys.pycache_prefix = os.environ.setdefault("PYTHONPYCACHEPREFIX",
                                                   str(scratch / "pycache"))
    for variable, folder in (("HYPOTHESIS_STORAGE_DIRECTORY", "hypothesis"),
                             ("RUFF_CACHE_DIR", "ruff"), ("MYPY_CACHE_DIR", "mypy")):
        os.environ.setdefault(variable, str(scratch / folder))


_out_of_the_tree()

def _installed_mode() -> bool:
    """``MANCALA_SPEC_TEST_INSTALLED`` (any case): 1/true/yes/on turn the installed
    mode on, 0/false/no/off or unset leave it off; another value stops the run (a
    typo is taken for neither). tests/helpers.py's ``installed_mode`` reads it the
    same way for the processes the tests start (``package_env``)."""
    text = os.environ.get("MANCALA_SPEC_TEST_INSTALLED", "").strip().lower()
    if text not in ("1", "true", "yes", "on", "", "0", "false", "no", "off"):
        raise pytest.UsageError(f"MANCALA_SPEC_TEST_INSTALLED={text!r}: give 1/true/yes/on "
                                "or 0/false/no/off")
    return text in ("1", "true", "yes", "on")


#: ``MANCALA_SPEC_TEST_INSTALLED=1``: the tests import the installed package (a wheel
#: installed into the running environment), not the source tree beside them; the
#: processes they start too (tests/helpers.py, ``package_env``)
INSTALLED = _installed_mode()


def _installed_package() -> None:
    """Move the source tree to the end of ``sys.path`` (pytest's ``pythonpath``, the
    current folder of ``python -m pytest``, this file's folder), and keep it off the
    front for the processes the tests start (``PYTHONSAFEPATH``: no current folder or
    script folder first); then ``mancala_spec`` must come from site-packages."""
    import sysconfig

    root = Path(__file__).resolve().parent
    # the root stays last, after site-packages: the tests still import its tools
    # (dev.py, conf.py), and mancala_spec is found in site-packages first
    sys.path[:] = [entry for entry in sys.path
                   if entry and Path(entry).resolve() != root] + [str(root)]
    os.environ["PYTHONSAFEPATH"] = "1"
    import mancala_spec

    where = Path(mancala_spec.__file__).resolve().parent.parent
    installed = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    if where not in installed:
        pytest.exit(
            f"MANCALA_SPEC_TEST_INSTALLED is set, but mancala_spec comes from {where}, "
            f"not from {' or '.join(map(str, sorted(installed)))}: pip install a wheel "
            f"(not -e) into {sys.prefix}", returncode=pytest.ExitCode.USAGE_ERROR)


if INSTALLED:
    _installed_package()

from mancala_spec.conformance.worked_examples import DIRECTIVE, Example, page_examples  # noqa: E402

MARK = "{" + DIRECTIVE + "}"
ROOT = Path(__file__).resolve().parent

#: What each marker means: the tests that need it.
#:   browser  Debian's Chromium through Playwright
#:   node     Node.js with node_modules/ as `npm ci` fills it (axe-core, ajv, Pyodide)
#:   network  the package index (pip installs or builds in isolation)
#:   git      a git checkout (git ls-files, check-manifest)
#:   docs     the docs toolchain: the `docs` group (sphinx, matplotlib, fpdf2, ...)
#:   openspiel  the `openspiel` extra (open-spiel: wheels for CPython on Linux and macOS)
#:   pettingzoo the `pettingzoo` extra (pettingzoo, gymnasium)
#: Each entry is a test module's file name (wherever it is under tests/), or a test's
#: node ID under that name (a prefix of it); a path with a folder is a path from the
#: root (the package's modules).
NEEDS: dict[str, tuple[str, ...]] = {
    "browser": ("test_browser.py", "test_phone.py", "test_a11y.py", "test_permalinks.py",
                "test_play_values.py"),
    "node": ("test_a11y.py", "test_schemas.py",
             "test_protocol.py::test_an_engine_in_javascript_passes_the_suite",
             "test_browser.py", "test_phone.py", "test_permalinks.py", "test_play_values.py"),
    "network": ("test_citation_tools.py::test_cffconvert", "test_wheel.py",
                "test_licences.py"),
    "git": ("test_sdist.py", "test_version.py::test_in_a_checkout_the_version_names_head",
            "test_packaging.py::test_reuse_lint_passes",
            "test_packaging.py::test_pyroma",
            "test_packaging.py::test_no_registry_address_is_written_anywhere"),
    "docs": ("mancala_spec/sphinx", "mancala_spec/diagrams/render.py",
             "mancala_spec/diagrams/canvas.py", "mancala_spec/catalogue/pdf.py",
             "test_site.py", "test_site_cache.py", "test_site_search.py", "test_navigation.py",
             "test_api_links.py", "test_ba_awa_readings.py",
             "test_pdf.py", "test_gallery.py", "test_diagrams.py",
             "test_layout.py", "test_readings.py", "test_rule_code.py",
             "test_lint.py::test_mypy", "test_cite.py::test_an_old_anchor",
             "test_cite.py::test_every_page_is_canonical",
             "test_badges.py::test_the_site_badge_is_the_rules_badge",
             "test_figure_records.py::test_every_figure_on_every_built_page_is_traced",
             "test_a11y.py", "test_browser.py", "test_phone.py", "test_permalinks.py",
             "test_play_values.py",
             # sphinx-build, or the extensions' modules
             "test_analysis.py::test_directives_build_a_page",
             "test_doc_examples.py::test_example_in_a_rule_block_runs_in_sphinx_and_pytest",
             "test_compositions.py::test_every_composition_from_catalogue_fields_reads_as_sentences",
             # matplotlib (diagrams) or fpdf2 (the PDF edition)
             "test_cli.py::test_a_position_play_cannot_reach_is_taken_only_when_asked",
             "test_cli.py::test_diagram_writes_png_and_svg",
             "test_cli_outputs.py::test_a_diagram_named_in_bytes_that_are_not_utf8",
             "test_api_fuzz.py::test_each_target_takes_its_own_arguments[render",
             "test_api_fuzz.py::test_each_target_takes_its_own_arguments[draw_position]",
             "test_source_sentences.py::test_the_pdf_text_names_the_sources_only_with_a_reference"),
    "openspiel": ("mancala_spec/interop/openspiel.py", "docs/interop.md", "test_openspiel.py",
                  "test_values.py::test_the_perfect_bot",
                  "test_gallery.py::test_script_runs_and_draws[plot_10_openspiel",
                  "test_gallery.py::test_alt_text_says_what_the_figure_shows_not_its_drawn_titles"
                  "[plot_10_openspiel", "test_gallery.py::test_openspiel_script"),
    "pettingzoo": ("mancala_spec/interop/pettingzoo.py", "docs/interop.md", "test_pettingzoo.py",
                   "test_values.py::test_an_environment"),
}
#: fixtures that bring a need with them: the built site needs the docs toolchain and
#: node_modules (the Play page's Pyodide), a browser the rest
FIXTURE_NEEDS = {"site": ("docs", "node"), "site_server": ("docs", "node", "browser"),
                 "chromium": ("browser",), "profile": ("browser",),
                 "playwright_driver": ("browser",), "wheel": ("network",)}


def _needs(nodeid: str) -> set[str]:
    """The marks *nodeid* (a test's, or a path's relative to the root) needs."""
    path, _, rest = nodeid.partition("::")
    if path.startswith("tests/"):        # tests are named by their file's name
        nodeid = path.rpartition("/")[2] + ("::" + rest if rest else "")

    def under(prefix: str) -> bool:
        return nodeid == prefix or nodeid.startswith(
            prefix if "::" in prefix else (prefix + "::", prefix + "/"))

    return {mark for mark, prefixes in NEEDS.items() if any(map(under, prefixes))}


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """A module that needs more than the ``test`` group and cannot be imported
    without it (the site's extensions without Sphinx, say) is collected as one test
    that fails with the import error and carries the module's marks: ``-m`` then
    deselects it as it would the module's tests, and without ``-m`` it fails, as a
    test whose tool is missing does. pytest decides what ``-m`` selects; nothing
    here reads the expression."""
    report = yield
    path = getattr(collector, "path", None)
    if not report.failed or not isinstance(collector, pytest.File) or path is None:
        return report
    try:
        relative = Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return report
    if not _needs(relative):
        return report
    # a test module is collected twice (its tests, its doctests): one failing test
    reported = collector.config.stash.setdefault(UNIMPORTABLE, set())
    items = [] if relative in reported else [
        Unimportable.from_parent(collector, name="import", failure=str(report.longrepr))]
    reported.add(relative)
    return pytest.CollectReport(report.nodeid, "passed", None, items)


UNIMPORTABLE = pytest.StashKey[set[str]]()


class Unimportable(pytest.Item):
    """A module that could not be collected: it fails with the reason."""

    def __init__(self, *, failure: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.failure = failure

    def runtest(self) -> None:
        raise ModuleUnimportable(self.failure)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ModuleUnimportable):
            return f"{self.path.name} cannot be collected:\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"import {self.path.name}"


class ModuleUnimportable(Exception):
    """A module that needs a tool was not collected (its import failed)."""


def pytest_ignore_collect(collection_path, config):
    """With the installed package under test, the source tree's modules (and their
    doctests) are not collected: they are not what is imported."""
    if INSTALLED and collection_path.resolve().is_relative_to(ROOT / "mancala_spec"):
        return True
    return None


def pytest_report_header(config):
    if INSTALLED:
        import mancala_spec

        return f"mancala_spec under test: {Path(mancala_spec.__file__).parent} (installed)"
    return None


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

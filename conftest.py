"""pytest runs the worked examples of the rules pages (docs/*.md).

pytest reads a page's Markdown source, not the rendered page, and an
``{example}`` block holds data, not doctest text. So this plugin collects each
``{example}`` of every ``docs/*.md`` page as a test item named by its ID
(``docs/bakuk.md::bakuk-sow-1``) and runs the doctest generated from its data:
the very text the page shows and ``sphinx -b doctest`` runs
(:meth:`mancala_spec.conformance.examples.Example.doctest`). A page whose
examples cannot be read fails as one item. The other doctests of the pages
(``{doctest}`` blocks outside rule blocks) are still collected by
``--doctest-glob='*.md'``.

This is the repository's top-level conftest (the engine tests' helpers live in
tests/conftest.py, which test modules import as ``conftest``: a second conftest
beside the pages would take that name from them).
"""
from __future__ import annotations

import doctest
import io

import pytest

from mancala_spec.conformance.examples import DIRECTIVE, Example, page_examples

MARK = "{" + DIRECTIVE + "}"


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

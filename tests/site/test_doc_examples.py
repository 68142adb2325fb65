"""The site's examples are tests: a failing example fails both runners.

The worked examples on the rule pages are ```{example} blocks (data) inside {rule}
blocks; each becomes a doctest block on the page. They run in Sphinx's doctest
builder (tests/site/test_site.py runs it on the whole site) and in pytest, where the
repository's conftest.py collects every example of every docs/*.md page and runs
the same doctest (pytest reads the Markdown source, not the rendered page). Here a
one-page project with one rule block shows that an example whose stated result
is wrong fails both, and that the same example with the right result passes
both: the runners really run the examples.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PAGE = """\
# A rule with an example

````{{rule}} bakuk-turns
```{{example}} bakuk-turns-1
game = "bakuk"
move = "a"
events = '''
pick up 6 from a  [bakuk-choose]
...
move ends: the hand is empty after a single lap  [bakuk-sow]
'''
result = "1,7,7/7,7,7 {to_move} 0-0 opener=S seen=6,6,6/6,6,6:S"
```
````
"""

CONF = """\
extensions = ["myst_parser", "mancala_spec.sphinx.rules"]
mancala_traceability = False   # a one-page project renders one rule, on purpose
"""


def project(tmp_path: Path, to_move: str) -> Path:
    (tmp_path / "conf.py").write_text(CONF, encoding="utf-8")
    (tmp_path / "index.md").write_text(PAGE.format(to_move=to_move), encoding="utf-8")
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    return tmp_path


def sphinx_doctest(folder: Path) -> tuple[int, str, str]:
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "doctest", "-q", ".", "_out"],
                            cwd=folder, capture_output=True, text=True, timeout=300)
    report = folder / "_out" / "output.txt"
    return (result.returncode, report.read_text(encoding="utf-8") if report.exists() else "",
            result.stderr)


def pytest_doctest(folder: Path) -> tuple[int, str]:
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "--rootdir", str(folder), "-o", "addopts=",
                             "--doctest-glob=*.md", "index.md"],
                            cwd=folder, capture_output=True, text=True, timeout=300)
    return result.returncode, result.stdout


# After South's move it is North's turn (rule bakuk-turns): N, not S, is to move.
@pytest.mark.parametrize("to_move, passes", [("N", True), ("S", False)])
def test_example_in_a_rule_block_runs_in_sphinx_and_pytest(tmp_path, to_move, passes):
    folder = project(tmp_path, to_move)
    code, report, stderr = sphinx_doctest(folder)
    assert "bakuk-turns-1" in report          # the example ran, under its ID
    if passes:
        assert code == 0 and "0 failures in tests" in report, report
        assert "WARNING" not in stderr, stderr
    else:
        assert code != 0 and "1 failure in tests" in report, report
        # reading the page already compares the data with the engine
        assert "example bakuk-turns-1: result is" in stderr, stderr
    code, output = pytest_doctest(folder)
    if passes:
        assert code == 0 and "1 passed" in output, output
    else:
        assert code == 1 and "1 failed" in output and "bakuk-turns-1" in output, output


def test_pytest_collects_every_example_and_every_page_with_doctests():
    """Each worked example is one pytest item, named by its ID; the pages'
    other doctests are collected by --doctest-glob, one item per page."""
    from mancala_spec.conformance.worked_examples import extract_examples

    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                             "-p", "no:cacheprovider", "docs"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    collected = set(result.stdout.split())
    examples = extract_examples(ROOT / "docs")
    assert len(examples) >= 50
    for example in examples:
        assert f"docs/{example.page}::{example.id}" in collected, result.stdout
    items = {item for item in collected if "::" in item}
    assert len(items - {f"docs/{e.page}::{e.id}" for e in examples}) >= 2   # notation, index
    for page in ("notation", "index"):
        assert f"docs/{page}.md::{page}.md" in collected, result.stdout

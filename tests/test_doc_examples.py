"""The site's examples are tests: a failing example fails both runners.

The examples on the rule pages are ```{doctest} blocks inside {rule} blocks. They
run in Sphinx's doctest builder (tests/test_site.py runs it on the whole site) and
in pytest, which reads every docs/*.md as one doctest (``--doctest-glob='*.md'``
in pyproject.toml). Here a one-page project with one rule block shows that an
example whose expected output is wrong fails both, and that the same example with
the right output passes both: the runners really look inside rule blocks.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PAGE = """\
# A rule with an example

````{{rule}} ba-awa-turns
```{{doctest}} ba-awa-turns-1
>>> import mancala_spec as ms
>>> ms.get_game("ba-awa").start().play("c").to_move
{answer}

```
````
"""

CONF = """\
extensions = ["myst_parser", "mancala_spec.sphinx.rules"]
mancala_traceability = False   # a one-page project renders one rule, on purpose
"""


def project(tmp_path: Path, answer: str) -> Path:
    (tmp_path / "conf.py").write_text(CONF, encoding="utf-8")
    (tmp_path / "index.md").write_text(PAGE.format(answer=answer), encoding="utf-8")
    return tmp_path


def sphinx_doctest(folder: Path) -> tuple[int, str]:
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "doctest", "-q", ".", "_out"],
                            cwd=folder, capture_output=True, text=True, timeout=300)
    report = folder / "_out" / "output.txt"
    return result.returncode, report.read_text(encoding="utf-8") if report.exists() else ""


def pytest_doctest(folder: Path) -> tuple[int, str]:
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "--rootdir", str(folder), "-o", "addopts=",
                             "--doctest-glob=*.md", "index.md"],
                            cwd=folder, capture_output=True, text=True, timeout=300)
    return result.returncode, result.stdout


# After South's move it is North's turn: to_move is 1 (see rule ba-awa-turns).
@pytest.mark.parametrize("answer, passes", [("1", True), ("0", False)])
def test_example_in_a_rule_block_runs_in_sphinx_and_pytest(tmp_path, answer, passes):
    folder = project(tmp_path, answer)
    code, report = sphinx_doctest(folder)
    assert "ba-awa-turns-1" in report          # the example ran, under its ID
    if passes:
        assert code == 0 and "0 failures in tests" in report, report
    else:
        assert code != 0 and "1 failure in tests" in report, report
    code, output = pytest_doctest(folder)
    if passes:
        assert code == 0 and "1 passed" in output, output
    else:
        assert code == 1 and "1 failed" in output, output


def test_pytest_collects_every_page_with_examples():
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                             "-p", "no:cacheprovider", "docs"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    collected = set(result.stdout.split())
    for page in ("ba-awa", "bakuk", "editorial", "notation", "index"):
        assert f"docs/{page}.md::{page}.md" in collected, result.stdout

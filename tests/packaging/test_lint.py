"""The linters, as configured in pyproject.toml: ``ruff check .`` on the whole
repository and ``mypy`` on the package (strict on the engine, the options, the
errors and the fast kernel; the rest with its function bodies checked).

Both run from the test environment (``python -m ruff``, ``python -m mypy``):
they are in the ``test`` extra, so a missing one fails here, it does not skip.
"""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: modules mypy must check strictly (pyproject.toml's override), one of each group
STRICT = ["mancala_spec/engine/board.py", "mancala_spec/engine/games/bakuk.py",
          "mancala_spec/options.py", "mancala_spec/errors.py", "mancala_spec/fast/base.py"]
#: modules outside it: untyped functions allowed, their bodies still checked
BASELINE = ["mancala_spec/notation.py", "mancala_spec/sphinx/rules.py"]

#: appended to a module: an unannotated function whose body holds a type error
PROBE = "\n\ndef _lint_probe(x):\n    return len(3)\n"


def run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec(tool) is None:
        pytest.fail(f"{tool} is not installed in {sys.prefix}: python3 dev.py test installs "
                    "it, or pip install -e . --group test (pip 25.1 or later)")
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def report(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit status {result.returncode}\n{result.stdout}{result.stderr}"


def test_ruff_check_is_clean():
    result = run("ruff", "check", ".")
    assert result.returncode == 0, report(result)


def test_mypy_is_clean():
    result = run("mypy")          # files and flags from pyproject.toml
    assert result.returncode == 0, report(result)


def test_mypy_is_strict_exactly_where_configured(tmp_path):
    """A flag mypy ignores, or one that leaks to the whole package, shows here:
    the same probe is refused as untyped in the strict modules only, and its
    type error is found everywhere."""
    shadows = []
    for module in STRICT + BASELINE:
        shadow = tmp_path / module.replace("/", "_")
        shadow.write_text((ROOT / module).read_text(encoding="utf-8") + PROBE, encoding="utf-8")
        shadows += ["--shadow-file", module, str(shadow)]
    result = run("mypy", *shadows)
    assert result.returncode == 1, report(result)
    found: dict[str, set[str]] = {}
    for path, code in re.findall(r"^(\S+?):\d+: error: .*\[([\w-]+)\]$", result.stdout, re.M):
        found.setdefault(path, set()).add(code)
    expected = {module: {"no-untyped-def", "arg-type"} for module in STRICT}
    expected.update({module: {"arg-type"} for module in BASELINE})
    assert found == expected, report(result)

"""The markers a packager deselects by (README, "For packagers"): the root
conftest.py's table names tests that exist, and pytest's ``-m`` selects by it."""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def root_conftest():
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_entry_names_a_module_or_test_that_exists():
    """A test renamed or a module gone would silently lose its mark (and the
    packager's run would then fail on a missing tool)."""
    needs = root_conftest().NEEDS
    assert set(needs) == {"browser", "node", "network", "git", "docs", "openspiel",
                          "pettingzoo"}
    for mark, entries in needs.items():
        for entry in entries:
            path, _, test = entry.partition("::")
            if "/" in path:
                assert (ROOT / path).exists(), (mark, entry)
                continue
            found = [p for p in (ROOT / "tests").rglob(path) if p.is_file()]
            assert len(found) == 1, (mark, entry, found)
            name = test.partition("[")[0]
            if name:
                assert re.search(rf"^def {re.escape(name)}\w*\(", found[0].read_text("utf-8"),
                                 re.M), (mark, entry)


def test_dash_m_selects_by_the_table():
    """``-m docs`` collects exactly the tests of test_cli.py the table names (one
    whole, one a prefix of several), and nothing else of the file."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-m", "docs",
         "tests/cli/test_cli.py", "tests/engine/test_api_fuzz.py"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    ids = {line for line in result.stdout.splitlines() if "::" in line}
    assert ids == {
        "tests/cli/test_cli.py::test_a_position_play_cannot_reach_is_taken_only_when_asked",
        "tests/cli/test_cli.py::test_diagram_writes_png_and_svg",
        "tests/engine/test_api_fuzz.py::test_each_target_takes_its_own_arguments[render]",
        "tests/engine/test_api_fuzz.py::test_each_target_takes_its_own_arguments[render/options]",
        "tests/engine/test_api_fuzz.py::test_each_target_takes_its_own_arguments[render_laps]",
        "tests/engine/test_api_fuzz.py::test_each_target_takes_its_own_arguments[render_row]",
        "tests/engine/test_api_fuzz.py::test_each_target_takes_its_own_arguments[draw_position]",
    }, result.stdout + result.stderr

"""The README's examples run exactly as written (the virtual environment's
``bin`` folder stands for ``.venv/bin``, wherever the tests run from)."""
from __future__ import annotations

import contextlib
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import mancala_spec as ms
from mancala_spec.cli import EXIT_STATUSES

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text("utf-8")
BIN = Path(sys.executable).parent
COMMANDS = [line.strip().split("  #")[0].strip() for line in README.splitlines()
            if line.startswith(("    .venv/bin/mancala-spec ", "    mancala-spec "))]


def test_the_python_example_prints_pit_letters():
    (code,) = re.findall(r"```python\n(.*?)```", README, re.S)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    text = out.getvalue()
    game = ms.get_game("ba-awa")
    assert str(game.start()) in text
    assert re.search(r"^pick up 4 from c ", text, re.M)       # letters, not pit numbers
    assert re.search(r"^drop in d → 5 ", text, re.M)
    assert re.search(r"^move ends: .* ba-awa-sowing-end$", text, re.M)
    assert not re.search(r"^(drop in|pick up \d+ from) \d", text, re.M)


def test_the_readme_lists_its_commands():
    assert len(COMMANDS) == 9
    assert any("--engine \"node examples/engine.js\"" in c for c in COMMANDS)


@pytest.mark.parametrize("line", COMMANDS)
def test_each_command_line_runs_as_written(line):
    argv = shlex.split(line)
    assert argv[0] in (".venv/bin/mancala-spec", "mancala-spec")   # a checkout's, or pip's
    argv = [str(BIN / "mancala-spec"), *argv[1:]]
    argv = [a.replace(".venv/bin/python", sys.executable) for a in argv]
    stdin = "help\nundo\nquit\n" if argv[1] == "play" else None
    result = subprocess.run(argv, cwd=ROOT, input=stdin, capture_output=True, text=True,
                            timeout=120, stdin=None if stdin else subprocess.DEVNULL)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert "Traceback" not in result.stderr


def test_the_readmes_exit_statuses_are_the_programs():
    listed = ", ".join(f"{s.code} {s.name}" for s in EXIT_STATUSES)
    flat = " ".join(README.split())
    for status in EXIT_STATUSES:
        label = "conformance failures" if status.name == "failures" else status.name
        assert f"{status.code} {label}" in flat, listed


def test_the_readme_serves_a_pip_user_first_then_the_checkout():
    """The README is also the package index's page: what it is, pip, a first example
    and how to cite come before the checkout's commands (issue 43, item 6)."""
    order = ["**mancala_spec** is a citable", "python3 -m pip install mancala-spec",
             "```python", "## How to cite", "mancala-spec cite RULE-ID",
             "## From a checkout", "    python3 dev.py site ", "    python3 dev.py test "]
    places = [README.find(text) for text in order]
    assert -1 not in places and places == sorted(places), dict(zip(order, places))
    checkout = README[README.index("## From a checkout"):]
    commands = [line.strip() for line in checkout.splitlines() if line.startswith("    ")]
    assert [c.split("#")[0].strip() for c in commands[:2]] == [
        "python3 dev.py site", "python3 dev.py test"]


def test_every_prerequisite_is_named_by_its_debian_package_and_ci_installs_it():
    section = README[README.index("**Prerequisites**"):README.index("**How long.**")]
    named = set(re.findall(r"^\| `([\w.+-]+)`(?: \([^)]*\))?(?: and `([\w.+-]+)`)?",
                           section, re.M))
    packages = {p for pair in named for p in pair if p}
    assert {"python3-venv", "python3-doc", "chromium", "nodejs", "npm"} <= packages
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    installed = set(re.findall(r"missing\+=\(([\w.+-]+)\)", ci))
    # python3 runs .ci/run itself, and git made the clone it runs in
    assert packages - {"python3", "git"} == installed
    flat = " ".join(README.split())
    assert re.search(r"How long\.\*\* .* took \d+ s of tests on \d+ \w+ \d{4}", flat)

"""``MANCALA_SPEC_TEST_INSTALLED`` (R4-5 of issue 42): the installed mode tests the
installed package in the processes the tests start too, and "false" or "0" turn
it off. The processes get their environment from ``helpers.package_env``; no
test module sets ``PYTHONPATH`` to the checkout by itself."""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, TESTS, installed_mode, package_env


@pytest.mark.parametrize("value, on", [("1", True), ("true", True), ("TRUE", True),
                                       ("yes", True), ("on", True), ("", False), ("0", False),
                                       ("false", False), ("False", False), ("no", False),
                                       ("off", False)])
def test_the_mode_is_read_as_its_words_say(value, on):
    """R4-5: "false" turned the installed mode on (only "" and "0" were off)."""
    assert installed_mode(value) is on


def test_the_root_conftest_reads_the_mode_the_same_way(monkeypatch):
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for value in ("1", "true", "on", "", "0", "false", "off", "No"):
        monkeypatch.setenv("MANCALA_SPEC_TEST_INSTALLED", value)
        assert module._installed_mode() is installed_mode(value), value
    monkeypatch.setenv("MANCALA_SPEC_TEST_INSTALLED", "ture")
    with pytest.raises(pytest.UsageError):
        module._installed_mode()
    with pytest.raises(ValueError):
        installed_mode("ture")


def _path_of_a_started_process(env) -> list[str]:
    done = subprocess.run([sys.executable, "-c", "import json, sys; print(json.dumps(sys.path))"],
                          capture_output=True, text=True, timeout=60, env=env, cwd=ROOT)
    return [str(Path(entry).resolve()) for entry in json.loads(done.stdout) if entry]


def test_a_started_process_imports_the_package_under_test(monkeypatch, tmp_path):
    """R4-5: in the installed mode the processes the tests start had PYTHONPATH
    set to the checkout, so they tested the checkout."""
    monkeypatch.setenv("MANCALA_SPEC_TEST_INSTALLED", "1")
    assert str(ROOT) not in _path_of_a_started_process(package_env())
    assert str(tmp_path) in _path_of_a_started_process(package_env(tmp_path))
    monkeypatch.setenv("MANCALA_SPEC_TEST_INSTALLED", "false")
    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    assert str(ROOT) in _path_of_a_started_process(package_env())


def test_no_test_module_points_pythonpath_at_the_checkout():
    """R4-5: test_cli_outputs.py, test_cli_signals.py, test_runaway.py and the Ba-awa
    solve tests set PYTHONPATH to the root themselves; package_env is the one place."""
    setting = re.compile(r"[\"']PYTHONPATH[\"']\s*:")
    found = [str(path.relative_to(ROOT)) for path in TESTS.rglob("*.py")
             if path.name not in ("helpers.py", "test_installed_mode.py")
             and setting.search(path.read_text("utf-8"))]
    # the wheel's test runs the wheel's files, unpacked: not the checkout
    assert found == ["tests/packaging/test_wheel.py"]

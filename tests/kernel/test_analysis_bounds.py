"""Issue 21, bounds of ``python -m mancala_spec.analysis``: every size has an
upper bound checked before anything runs, and Ctrl-C (to the whole process
group, workers included) or SIGTERM ends it with one line, no pool traceback."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

PY = sys.executable


def analysis(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "mancala_spec.analysis", *argv], capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("argv, message", [
    (["--processes", "300"], "argument --processes: must be from 1 to "),
    (["--max-seeds", "99"], "argument --max-seeds: must be from 1 to 20, not 99"),
    (["--games", "0"], "argument --games: must be from 1 to 10,000,000, not 0"),
    (["--games", "99999999999"], "must be from 1 to 10,000,000, not 99,999,999,999"),
    (["--ending-games", "9" * 5000], "not a number of 5,000 characters"),
    (["--budget", "x"], "not a whole number: 'x'"),
])
def test_sizes_are_bounded(argv, message):
    result = analysis(*argv)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr       # one line, no usage
    assert result.stderr.startswith("python -m mancala_spec.analysis: error:")
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_leading_zeros_are_a_number_not_a_digit_limit():
    result = analysis("--games", "0" * 5000 + "3", "--greedy-games", "2", "--max-seeds", "1",
                      "--processes", "1", "--quick")
    assert result.returncode == 0, result.stderr
    assert "'games': 3" in result.stdout


@pytest.mark.parametrize("how", ["SIGINT to the group", "SIGTERM"])
def test_interrupted_cleanly(how):
    proc = subprocess.Popen([PY, "-m", "mancala_spec.analysis", "--processes", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 60         # wait until the pool has started
    while time.monotonic() < deadline:
        children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True,
                                  text=True).stdout.split()
        if len(children) >= 2:
            break
        time.sleep(0.1)
    time.sleep(0.5)
    if how == "SIGTERM":
        proc.send_signal(signal.SIGTERM)
    else:
        os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err == "python -m mancala_spec.analysis: interrupted\n"

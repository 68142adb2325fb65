"""Issue 21, runaway engines: no process an engine starts outlives the
conformance runner, however it escapes (a new session, a process group of its
own, a double-forked daemon) and however the run ends (the suite done, SIGHUP,
SIGTERM, SIGINT). Linux only (a subreaper and a parent-death signal); the
docs say what other systems get."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mancala_spec.cli import EXIT
from mancala_spec.conformance import packaged_suite
from mancala_spec.conformance.process import descendants
from mancala_spec.conformance.runner import run

PY = sys.executable
ENGINE = Path(__file__).parent / "engines" / "escaping.py"


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def engine_processes(marker: Path) -> list[int]:
    """The living processes whose command line names *marker* (the engine, its
    children and everything that escaped)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if str(marker).encode() in cmdline and alive(int(entry.name)):
                found.append(int(entry.name))
    return found


def escaped(pids: Path, count: int = 3, within: float = 60) -> list[int]:
    deadline = time.monotonic() + within
    while True:
        if pids.exists() and len(pids.read_text().split()) >= count:
            return [int(pid) for pid in pids.read_text().split()]
        if time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    raise AssertionError(f"the engine did not escape within {within} s")


def settle(marker: Path, within: float = 10) -> list[int]:
    deadline = time.monotonic() + within
    while engine_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return engine_processes(marker)


def _as_from_a_terminal() -> None:
    """Ctrl-C at its default in the runner, as a terminal starts it: a shell's
    background job (``pytest &``) ignores SIGINT, the runner inherits that and,
    as every Python program does, keeps ignoring it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def runner(pids: Path, *extra: str) -> subprocess.Popen:
    command = f'"{PY}" "{ENGINE}" all "{pids}" {" ".join(extra)}'
    return subprocess.Popen([PY, "-m", "mancala_spec", "conformance", "run", "--engine",
                             command, "--timeout", "300", "--no-progress", "--max-failures",
                             "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_as_from_a_terminal)


def test_nothing_survives_a_finished_run(tmp_path):
    pids = tmp_path / "pids"
    proc = runner(pids)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == EXIT["failures"], err   # every case unsupported
    assert len(escaped(pids, within=0)) == 3
    assert settle(pids) == []


@pytest.mark.parametrize("name", ["SIGHUP", "SIGTERM", "SIGINT"])
def test_nothing_survives_a_signal(tmp_path, name):
    pids = tmp_path / "pids"
    proc = runner(pids, "hang")
    escaped(pids)
    proc.send_signal(getattr(signal, name))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == EXIT["interrupted"]
    assert err.decode().strip() == "mancala-spec: interrupted"
    assert settle(pids) == []


def test_the_engine_dies_with_a_runner_killed_outright(tmp_path):
    """SIGKILL cannot be caught: the kernel's parent-death signal kills the
    engine (what it moved out of reach may live on: see the protocol page)."""
    pids = tmp_path / "pids"
    proc = runner(pids, "hang")

    def stat(pid: int) -> list[str]:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return []

    try:
        escaped(pids)
        # the engine itself: the runner's first child (a subreaper, the runner also
        # adopts the daemon the engine orphaned); stat field 22 is the start time
        children = [pid for pid in descendants(proc.pid) or ()
                    if stat(pid)[1:2] == [str(proc.pid)]]
        engine = min(children, key=lambda pid: int(stat(pid)[19]))
        proc.kill()
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while alive(engine) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(engine)
    finally:                                   # whatever happened: nothing left running
        proc.kill()
        proc.wait(timeout=30)
        for pid in engine_processes(pids):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_the_library_runner_spares_its_hosts_children(tmp_path):
    """``run()`` inside another program kills what the engine left, and nothing
    of the program's own."""
    host_child = subprocess.Popen([PY, "-c", "import time; time.sleep(60)"])
    try:
        pids = tmp_path / "pids"
        suite = packaged_suite()
        suite = {**suite, "cases": suite["cases"][:2]}
        report = run([PY, str(ENGINE), "all", str(pids)], suite, timeout=60)
        assert report.count("skipped") == 2
        assert len(escaped(pids, within=0)) == 3
        assert settle(pids) == []
        assert host_child.poll() is None
    finally:
        host_child.kill()
        host_child.wait()

"""Issue 21, runaway engines: no process an engine starts outlives the
conformance runner, however it escapes (a new session, a process group of its
own, a double-forked daemon) and however the run ends (the suite done, SIGHUP,
SIGTERM, SIGINT, SIGKILL), and it touches nothing but its own. Linux only (a
subreaper and a parent-death signal); the docs say what other systems get, and
tests/cli/test_supervision.py runs the portable branch."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import package_env

from mancala_spec.cli import EXIT
from mancala_spec.conformance import packaged_suite
from mancala_spec.conformance.runner import run

PY = sys.executable
ENGINE = Path(__file__).resolve().parents[1] / "engines" / "escaping.py"


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


def _children(pid: int) -> list[int]:
    return [int(entry.name) for entry in Path("/proc").iterdir()
            if entry.name.isdigit() and _stat(int(entry.name))[1:2] == [str(pid)]]


def _stat(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return []


def _supervisor(runner_pid: int, within: float = 30) -> tuple[int, int]:
    """The runner's supervisor and the engine it started."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for pid in _children(runner_pid):
            try:
                if b"supervisor.py" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    engines = [child for child in _children(pid)
                               if _stat(child)[3:4] == [str(child)]]      # a session leader
                    if engines:
                        return pid, engines[0]
            except OSError:
                pass
        time.sleep(0.05)
    raise AssertionError("no supervisor and engine found")


def _kill_all(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_nothing_survives_a_runner_killed_outright(tmp_path):
    """SIGKILL cannot be caught, but the supervisor sees the runner's end of
    their socket close: the engine and everything it started die, the helpers
    in sessions of their own and the orphaned daemon included."""
    pids = tmp_path / "pids"
    proc = runner(pids, "hang")
    try:
        escaped(pids)
        _supervisor(proc.pid)
        proc.kill()
        proc.wait(timeout=30)
        assert settle(pids) == []
    finally:                                   # whatever happened: nothing left running
        proc.kill()
        proc.wait(timeout=30)
        _kill_all(engine_processes(pids))


def test_a_supervisor_killed_outright_takes_only_the_engine(tmp_path):
    """The documented limit (docs/protocol.md): the supervisor killed by SIGKILL
    cannot clean up; the engine dies with it (its parent-death signal) and the
    runner, which touches nothing else, reports a crash, but the processes the
    engine moved out of its reach live on (here the three escapees)."""
    pids = tmp_path / "pids"
    proc = runner(pids, "hang")
    try:
        escapees = escaped(pids)
        supervisor, engine = _supervisor(proc.pid)
        os.kill(supervisor, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while alive(engine) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(engine)
        time.sleep(0.5)
        assert all(alive(pid) for pid in escapees)
    finally:
        proc.kill()
        proc.wait(timeout=30)
        _kill_all(engine_processes(pids))


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


HOST = Path(__file__).resolve().parents[1] / "engines" / "host.py"


def test_a_host_program_keeps_its_own_children(tmp_path):
    """Issue 35: ``run()`` inside a program that starts children of its own, before
    and while the engine runs, and waits for them with ``os.waitpid(-1)``: none is
    killed or reaped by the runner (each exit status reaches its parent), nothing
    of the engine's is left for the host to reap, and the engine's escapees are
    dead."""
    pids = tmp_path / "pids"
    env = package_env()
    result = subprocess.run([PY, str(HOST), str(pids)], capture_output=True, text=True,
                            timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen == {"children": {"before-3": 3, "before-4": 4, "before-6": 6,
                                 "after-3": 3, "after-5": 5, "after-7": 7},
                    "others": [], "skipped": 3}
    assert len(escaped(pids, within=0)) == 3
    assert settle(pids) == []


@pytest.mark.parametrize("attempt", range(3))
def test_a_helper_that_keeps_changing_its_pid_is_caught(tmp_path, attempt):
    """Issue 35: a helper in a session of its own that forks and exits every
    millisecond (a new PID each time) is killed with the rest when the run ends."""
    pids = tmp_path / "pids"
    suite = packaged_suite()
    report = run([PY, str(ENGINE), "hop", str(pids)], {**suite, "cases": suite["cases"][:2]},
                 timeout=60)
    assert report.count("skipped") == 2
    assert len(escaped(pids, count=1, within=0)) == 1
    left = settle(pids, within=5)
    for pid in left:                          # whatever happened: nothing left running
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert left == []

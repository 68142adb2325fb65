"""Issue 35, signals at any moment: each entry point (``mancala-spec``,
``python -m mancala_spec``, ``python -m mancala_spec.analysis``) ends on SIGINT,
SIGTERM and SIGHUP with one line and status 130 from its first instruction to
its last, the package's import included.

Each signal is sent at 20 moments from 0 to 1 s after the start, the entry
points taking the moments in turn (three processes at a time). Before the
interpreter has run the package's first line nothing of it can act; the test
tells that moment from the others by the signals the process catches
(``SigCgt`` in ``/proc/PID/status``: Python itself never catches SIGTERM or
SIGHUP, so once either is caught the package's first lines have run). Then the
outcome must be the system's default, as documented: killed by the signal,
nothing said (SIGINT: Python's own start-up reports it, outside the package).
"""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import package_env

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
ENV = package_env()
MOMENTS = [i / 19 for i in range(20)]

#: Each entry point: a command that runs until stopped, and its one line.
ENTRIES = [
    ([str(Path(PY).with_name("mancala-spec")), "play", "bakuk"], "mancala-spec: interrupted\n"),
    ([PY, "-m", "mancala_spec", "play", "bakuk"], "mancala-spec: interrupted\n"),
    ([PY, "-m", "mancala_spec.analysis", "--quick", "--processes", "1"],
     "python -m mancala_spec.analysis: interrupted\n"),
]


def caught(pid: int, number: int) -> bool:
    """Whether process *pid* catches signal *number* (has a handler for it)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (number - 1) & 1)
    raise AssertionError("no SigCgt line")


def stop_at(argv: list[str], number: int, moment: float) -> tuple[bool, int, str]:
    """Start *argv*, send it signal *number* *moment* seconds later; whether the
    package's handlers were in place then, the exit status and stderr."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=ENV)
    try:
        time.sleep(moment)
        assert proc.poll() is None, "the command ended before it was stopped"
        ours = caught(proc.pid, signal.SIGTERM if number == signal.SIGINT else number)
        proc.send_signal(number)
        status = proc.wait(timeout=60)          # (a signal not taken fails, never hangs)
        return ours, status, proc.stderr.read().decode("utf-8", "replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_at_any_moment_is_one_line_and_status_130(name):
    number = getattr(signal, name)
    shift = ["SIGINT", "SIGTERM", "SIGHUP"].index(name)
    runs = [(ENTRIES[(i + shift) % 3], moment) for i, moment in enumerate(MOMENTS)]
    with ThreadPoolExecutor(3) as pool:
        results = list(pool.map(lambda run: stop_at(run[0][0], number, run[1]), runs))
    ours = 0
    for ((argv, line), moment), (handled, status, err) in zip(runs, results):
        where = (argv[1:3], round(moment, 2), status, err)
        if (status, err) == (130, line):
            ours += handled
            continue
        # only before the package's first line: the system's default, nothing of ours
        assert not handled, where
        assert "/mancala_spec/" not in err, where     # no frame of the package
        if number == signal.SIGINT:
            assert status in (-number, 1), where
        else:
            assert (status, err) == (-number, ""), where
    assert ours >= 6, results           # (the first line runs by 0.05-0.4 s, load allowing)


def test_a_signal_the_user_ignores_stays_ignored():
    """``nohup mancala-spec ...``: SIGHUP ignored when the command starts stays
    ignored; SIGTERM still stops it."""
    proc = subprocess.Popen([PY, "-m", "mancala_spec", "play", "bakuk"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV,
                            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    try:
        deadline = time.monotonic() + 60
        while not caught(proc.pid, signal.SIGTERM) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)                         # main() has set its handlers too
        proc.send_signal(signal.SIGHUP)
        time.sleep(0.3)
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        assert (proc.wait(timeout=60), proc.stderr.read()) == (130, b"mancala-spec: interrupted\n")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("argv0, orig_argv, name", [
    ("/venv/bin/mancala-spec", [], "mancala-spec"),
    ("-m", ["python", "-m", "mancala_spec", "rules"], "mancala-spec"),
    ("-m", ["python", "-mmancala_spec.cli"], "mancala-spec"),
    ("-m", ["python", "-X", "importtime", "-W", "ignore", "-m", "mancala_spec.analysis"],
     "python -m mancala_spec.analysis"),
    ("-m", ["python", "-m", "pytest", "-m", "mancala_spec"], None),
    ("-c", ["python", "-c", "import mancala_spec", "-m", "mancala_spec"], None),
    ("app.py", ["python", "app.py", "-m", "mancala_spec"], None),
])
def test_the_commands_are_told_from_other_programs(argv0, orig_argv, name):
    from mancala_spec.terminal.signals import entry_name

    assert entry_name(argv0, orig_argv) == name


def test_a_library_keeps_its_own_handlers():
    """Importing the package (not running a command) installs nothing."""
    code = ("import signal, mancala_spec.cli; "
            "print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL, "
            "signal.getsignal(signal.SIGINT) is signal.default_int_handler)")
    result = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=ENV,
                            timeout=60)
    assert result.stdout == "True True\n", result.stderr


def test_a_signal_during_a_file_write_leaves_no_temporary_file(tmp_path):
    """SIGTERM while ``conformance export -o F`` writes F (sent from inside the
    write, so that it comes at that moment): one line, status 130, F as it was,
    and no temporary file beside it."""
    target = tmp_path / "suite.json"
    target.write_text("old\n")
    code = ("import os, signal, sys; from mancala_spec import cli; "
            "real = os.fsync\n"
            "def fsync(fd):\n"
            "    real(fd); os.kill(os.getpid(), signal.SIGTERM)\n"
            "os.fsync = fsync\n"
            "sys.exit(cli.main(['conformance', 'export', '-o', 'suite.json']))")
    result = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=ENV,
                            cwd=tmp_path, timeout=60)
    assert (result.returncode, result.stderr) == (130, "mancala-spec: interrupted\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["suite.json"]
    assert target.read_text() == "old\n"


def test_ending_at_once_removes_the_temporary_files(tmp_path):
    """A second signal, or one after the command has ended, ends the process at
    once: the temporary files still registered are removed first."""
    left = tmp_path / ".mancala-spec-000000000000.tmp"
    left.write_text("half")
    code = ("import sys; from mancala_spec.terminal import signals as _signals; "
            f"_signals.TEMPORARY.add({str(left)!r}); _signals.exit_now()")
    result = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=ENV,
                            timeout=60)
    assert (result.returncode, result.stderr) == (130, "mancala-spec: interrupted\n")
    assert not left.exists()


#: a sitecustomize that makes the first reading of the signals module stop with
#: Ctrl-C, as a SIGINT that arrives before its handlers are in place does
INTERRUPT_FIRST_READ = '''
import sys
class Stop:
    done = False
    def find_spec(self, name, path=None, target=None):
        if name == "mancala_spec.terminal.signals" and not Stop.done:
            Stop.done = True
            raise KeyboardInterrupt
        return None
sys.meta_path.insert(0, Stop())
'''


@pytest.mark.parametrize("argv, expected", [
    (["-m", "mancala_spec", "play", "bakuk"], (130, "mancala-spec: interrupted\n")),
    (["-m", "mancala_spec.analysis", "--quick"], (130, "python -m mancala_spec.analysis: "
                                                       "interrupted\n")),
    (["-c", "import mancala_spec"], (-signal.SIGINT, "KeyboardInterrupt")),
])
def test_ctrl_c_while_the_handlers_are_installed_is_still_one_line(tmp_path, argv, expected):
    """The window of the package's first import, before the handlers are in place
    (wider when Python has to compile the module, as in a fresh unpacked sdist):
    a command still says its one line with status 130; a program that imports
    the package as a library gets the ``KeyboardInterrupt`` back."""
    (tmp_path / "sitecustomize.py").write_text(INTERRUPT_FIRST_READ, "utf-8")
    env = package_env(tmp_path)
    done = subprocess.run([PY, *argv], stdin=subprocess.DEVNULL, capture_output=True,
                          env=env, timeout=60)
    err = done.stderr.decode("utf-8", "replace")
    status, said = expected
    assert done.returncode == status, err
    if status == 130:
        assert err == said
    else:
        assert err.rstrip().endswith(said), err

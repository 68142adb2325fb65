"""Issues 34 and 35: the engine's supervision on portable machinery. The same
engine-facing behaviour (answers, time limits, the size bound, crashes with
their status, start errors) with the Linux extras and without them (the
portable branch, forced here with ``portable=True`` as on a system without
them); what each branch kills; and that the extras are really left out."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from mancala_spec.conformance.process import (
    AnswerError,
    EngineProcess,
    EngineStartError,
    linux_extras,
)

PY = sys.executable
ENGINE = Path(__file__).resolve().parents[1] / "engines" / "escaping.py"
ECHO = ("import sys, json\nfor line in sys.stdin:\n"
        "    print(json.dumps({'id': json.loads(line)['id'], 'said': 'hi'}), flush=True)")
BRANCHES = pytest.mark.parametrize("portable", [False, True], ids=["linux", "portable"])


def engine(code: str) -> list[str]:
    return [PY, "-c", code]


def pipe_threads() -> int:
    return sum(t.name == "mancala-spec engine pipe" for t in threading.enumerate())


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_this_linux_has_the_extras():
    assert linux_extras()


@BRANCHES
def test_answers_time_limits_and_crashes(portable):
    before = pipe_threads()
    process = EngineProcess(engine(ECHO), portable=portable)
    try:
        assert process.ask({"id": "a"}, 30) == ({"id": "a", "said": "hi"},
                                                 '{"id": "a", "said": "hi"}')
        assert process.ask({"id": "b"}, 30)[0]["id"] == "b"
    finally:
        process.close()
    one_shot = ("import sys, json\nline = sys.stdin.readline()\n"
                "print(json.dumps({'id': json.loads(line)['id']}), flush=True)")
    process = EngineProcess(engine(one_shot), portable=portable)
    try:                                           # exits after each answer: started again
        for case in "abc":
            assert process.ask({"id": case}, 30)[0] == {"id": case}
            time.sleep(0.2)
    finally:
        process.close()
    process = EngineProcess(["sleep", "1000"], portable=portable)
    try:
        with pytest.raises(TimeoutError, match=r"^no answer within 0.3 s$"):
            process.ask({"id": "a"}, 0.3)
    finally:
        process.close()
    crash = "import sys\nsys.stdin.readline(); sys.stderr.write('bad luck\\n'); sys.exit(3)"
    process = EngineProcess(engine(crash), portable=portable)
    try:
        with pytest.raises(EOFError, match=r"^the engine exited with status 3$"):
            process.ask({"id": "a"}, 30)
        assert process.errors() == ["bad luck"]
    finally:
        process.close()
    process = EngineProcess(engine("import os\nos.kill(os.getpid(), 9)"), portable=portable)
    try:
        with pytest.raises(EOFError, match=r"^the engine exited with status -9$"):
            process.ask({"id": "a"}, 30)
    finally:
        process.close()
    deadline = time.monotonic() + 10
    while pipe_threads() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pipe_threads() == before                # every reader thread ended


@BRANCHES
def test_a_flood_is_cut_off(portable):
    """An answer line longer than the bound, written without end."""
    flood = "import sys\nwhile True: sys.stdout.write('x' * 65536)"
    process = EngineProcess(engine(flood), portable=portable, max_answer=1000)
    try:
        with pytest.raises(AnswerError, match=r"^answer longer than 1,000 bytes: cut off$"):
            process.ask({"id": "a"}, 30)
    finally:
        process.close()


@BRANCHES
@pytest.mark.parametrize("command, message", [
    ("no-such-engine-command", "cannot start the engine: no command 'no-such-engine-command'"),
    ("./plain.txt", "cannot start the engine: './plain.txt' is not executable"),
])
def test_an_engine_that_cannot_start(tmp_path, monkeypatch, portable, command, message):
    (tmp_path / "plain.txt").write_text("not a program")
    monkeypatch.chdir(tmp_path)
    process = EngineProcess(command, portable=portable)
    with pytest.raises(EngineStartError) as caught:
        process.ask({"id": "a"}, 30)
    assert str(caught.value) == message
    assert process.proc is None


GET_PDEATHSIG = ("import ctypes, json, sys\nvalue = ctypes.c_int(-1)\n"
                 "ctypes.CDLL(None).prctl(2, ctypes.byref(value), 0, 0, 0)\n"
                 "for line in sys.stdin:\n"
                 "    print(json.dumps({'id': json.loads(line)['id'], 'signal': value.value}),"
                 " flush=True)")


@BRANCHES
def test_the_extras_are_left_out_on_the_portable_branch(portable):
    """The engine's parent-death signal (``PR_GET_PDEATHSIG``): SIGKILL with the
    extras, none on the portable branch."""
    process = EngineProcess(engine(GET_PDEATHSIG), portable=portable)
    try:
        got = process.ask({"id": "a"}, 30)[0]
    finally:
        process.close()
    assert got["signal"] == (0 if portable else signal.SIGKILL)


@BRANCHES
def test_what_each_branch_kills(tmp_path, portable):
    """With the extras everything the engine started dies when it is stopped;
    on the portable branch its process group only (docs/protocol.md): the
    helpers in sessions or groups of their own live on."""
    pids = tmp_path / "pids"
    process = EngineProcess([PY, str(ENGINE), "all", str(pids)], portable=portable)
    try:
        assert process.ask({"id": "a"}, 60)[0] == {"id": "a", "unsupported": "escaping"}
        escapees = [int(pid) for pid in pids.read_text().split()]
        process.close()
        deadline = time.monotonic() + 10
        while any(map(alive, escapees)) and time.monotonic() < deadline and not portable:
            time.sleep(0.05)
        time.sleep(0.3)
        assert [alive(pid) for pid in escapees] == [portable] * 3
    finally:
        process.close()
        for pid in [int(pid) for pid in pids.read_text().split()] if pids.exists() else []:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

"""The engine under test, as a process the runner never waits on forever and
never leaves behind.

:class:`EngineProcess` starts the engine's command in its own session, writes
one request line, and reads one answer line with ``select`` within a time
limit, cutting off an answer longer than :data:`MAX_ANSWER_BYTES`. The runner
(:mod:`.runner`) decides what each answer means.

When the engine is stopped, everything it started goes with it. On Linux the
runner makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``), so
a process the engine starts stays the runner's descendant however it tries to
leave (a new session, a process group of its own, a double-forked daemon whose
parent has gone); stopping the engine kills its process group and then every
descendant of the runner that it did not have before the engine started,
until none is left, and reaps them. The engine itself gets a parent-death
signal (``PR_SET_PDEATHSIG``): if the runner is killed outright (SIGKILL, which
no program can catch), the kernel kills the engine. On other systems only the
engine's process group is killed: a process that an engine moves out of it
(``setsid``, ``setpgid``) can outlive the run there.
"""
from __future__ import annotations

import ctypes
import json
import os
import select
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from ..errors import RunnerError, shown

#: The longest answer line the runner reads (bytes, newline excluded).
MAX_ANSWER_BYTES = 1 << 20
#: How much of the engine's standard error is kept for reports (bytes).
STDERR_TAIL = 4096
#: The longest value shown in a report (characters).
SHOWN = 200


# -- what an engine leaves behind (Linux: a subreaper, a parent-death signal) -----

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37
PROC = Path("/proc")


def _prctl() -> Any:
    """libc's ``prctl`` on Linux, else ``None``."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl
    except (OSError, AttributeError):
        return None


def become_subreaper() -> bool | None:
    """Make this process adopt its orphaned descendants (Linux); return whether
    it did so before (to restore it), or ``None`` where that is not possible."""
    prctl = _prctl()
    if prctl is None:
        return None
    before = ctypes.c_int(0)
    if prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(before), 0, 0, 0) != 0:
        return None
    if prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        return None
    return bool(before.value)


def restore_subreaper(before: bool | None) -> None:
    prctl = _prctl()
    if prctl is not None and before is False:
        prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def _engine_preexec(parent: int, mask: set[int] | None) -> Callable[[], None] | None:
    """A ``preexec_fn``: the engine starts with the signal mask the runner had
    before it blocked its stop signals to start it (*mask*), and (Linux) is
    killed when the runner dies."""
    prctl = _prctl()
    if prctl is None and mask is None:
        return None

    def preexec() -> None:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != parent:          # the runner died before the signal was set
                os._exit(1)
    return preexec


def _parents() -> dict[int, int] | None:
    """Every process's parent, from /proc; ``None`` where there is no /proc."""
    if not PROC.is_dir():
        return None
    parents = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 1 and fields[0] != "Z":     # a zombie is dead already: reaped below
            parents[int(entry.name)] = int(fields[1])
    return parents


def descendants(root: int | None = None) -> set[int] | None:
    """The living descendants of process *root* (default: this one), from /proc;
    ``None`` where there is no /proc."""
    parents = _parents()
    if parents is None:
        return None
    root = os.getpid() if root is None else root
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found: set[int] = set()
    todo = list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, ()))
    return found


def _reap() -> None:
    """Reap this process's dead children that :mod:`subprocess` does not wait on."""
    if not PROC.is_dir():
        return
    me = str(os.getpid())
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[-1].split()
        except OSError:
            continue
        if len(fields) > 1 and fields[0] == "Z" and fields[1] == me:
            try:
                os.waitpid(int(entry.name), os.WNOHANG)
            except (ChildProcessError, OSError):
                pass


def kill_all(spare: set[int], within: float = 10.0) -> int:
    """Kill every descendant of this process not in *spare* (and not forked
    from one in it), round after round until none is left alive (a process may
    fork while a round runs; a killed one may take a moment to die on a busy
    machine), for at most *within* seconds; return how many were killed."""
    killed: set[int] = set()
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = descendants()
        if found is None:
            break
        spared = {pid for pid in found if pid in spare}
        for pid in list(spared):
            spared |= descendants(pid) or set()
        targets = found - spared
        if not targets:
            break
        for pid in targets:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        killed |= targets
        time.sleep(0.01)
        _reap()
    _reap()
    return len(killed)


class EngineStartError(RunnerError):
    """The engine's command could not be started (no such file, not executable):
    a :class:`~mancala_spec.errors.RunnerError` whose ``setting`` is
    ``"command"`` and ``value`` the program named."""

    def __init__(self, message: str, program: str) -> None:
        super().__init__(message, "command", program)


class AnswerError(Exception):
    """An answer that is too long, not UTF-8 or not JSON; the message says which."""


def engine_argv(command: str | list[str]) -> list[str]:
    """The engine command as an argument list; raises
    :class:`~mancala_spec.errors.RunnerError` if it is empty or its quoting is
    broken."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise RunnerError(f"cannot read the engine command {shown(command)}: {error}",
                              "command", command) from None
    elif isinstance(command, (list, tuple)) and all(isinstance(a, str) for a in command):
        argv = list(command)
    else:
        raise RunnerError(f"the engine command must be a string or a list of strings, not "
                          f"{short(shown(command), raw=True)}", "command", command)
    if not argv:
        raise RunnerError("the engine command is empty", "command", command)
    return argv


def _pipes(proc: subprocess.Popen[bytes]) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
    """The engine's standard input, output and error: the pipes
    :meth:`EngineProcess.start` opened."""
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    return proc.stdin, proc.stdout, proc.stderr


class EngineProcess:
    """An engine subprocess answering one JSON line per request, in its own
    process group (so everything it starts is killed with it)."""

    def __init__(self, command: str | list[str], max_answer: int = MAX_ANSWER_BYTES) -> None:
        self.argv = engine_argv(command)
        self.max_answer = max_answer
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.stderr = b""
        self.subreaper: bool | None = None
        self.spare: set[int] = set()

    def start(self) -> subprocess.Popen[bytes]:
        if self.subreaper is None:
            self.subreaper = become_subreaper()
            self.spare = descendants() or set()      # the host's own children live on
        # Ctrl-C, SIGTERM and SIGHUP wait until the engine is started and known
        # to stop(): arriving between the fork and `self.proc = proc`, they
        # would leave the engine running
        blocked = _block_stop_signals()
        try:
            try:
                proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        start_new_session=True,
                                        preexec_fn=_engine_preexec(os.getpid(), blocked))
            except FileNotFoundError:
                raise EngineStartError("cannot start the engine: no command "
                                       f"{shown(self.argv[0])}", self.argv[0]) from None
            except PermissionError:
                raise EngineStartError(f"cannot start the engine: {shown(self.argv[0])} is not "
                                       "executable", self.argv[0]) from None
            except OSError as error:
                raise EngineStartError(f"cannot start the engine {shown(self.argv[0])}: "
                                       f"{error.strerror or error}", self.argv[0]) from None
            self.proc = proc
            for stream in _pipes(proc):
                os.set_blocking(stream.fileno(), False)
            self.buffer = b""
            self.stderr = b""
        finally:
            _unblock(blocked)
        return proc

    def errors(self, lines: int = 5) -> list[str]:
        """The last *lines* lines the engine wrote on standard error."""
        text = self.stderr.decode("utf-8", "replace")
        return [printable(line[:SHOWN]) for line in text.split("\n")[-lines - 1:] if line][-lines:]

    def _read_stderr(self) -> None:
        if self.proc is None:
            return
        try:
            chunk = os.read(_pipes(self.proc)[2].fileno(), 65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        self.stderr = (self.stderr + chunk)[-STDERR_TAIL:]

    def ask(self, request: dict[str, Any], timeout: float) -> tuple[dict[str, Any] | Any, str]:
        """Send *request*; return (the decoded answer, its text).

        Raises TimeoutError, EOFError (the engine exited) or AnswerError."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            self.stop()
            proc = self.start()
        deadline = time.monotonic() + timeout
        data = (json.dumps(request) + "\n").encode()
        stdin, stdout, stderr = _pipes(proc)
        out, err, inp = stdout.fileno(), stderr.fileno(), stdin.fileno()
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                raise TimeoutError(f"the engine did not read the request within {timeout:g} s")
            readable, writable, _ = select.select([err], [inp], [], left)
            if err in readable:
                self._read_stderr()
            if inp in writable:
                try:
                    data = data[os.write(inp, data):]
                except BlockingIOError:
                    pass
                except OSError:
                    self.stop()
                    raise EOFError("the engine closed its input") from None
        while b"\n" not in self.buffer:
            if len(self.buffer) > self.max_answer:
                self.stop()
                raise AnswerError(f"answer longer than {self.max_answer:,} bytes: cut off")
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                raise TimeoutError(f"no answer within {timeout:g} s")
            readable, _, _ = select.select([out, err], [], [], left)
            if err in readable:
                self._read_stderr()
            if out in readable:
                try:
                    chunk = os.read(out, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    try:
                        code = proc.wait(timeout=0.5)
                    except subprocess.TimeoutExpired:
                        code = None
                    self._read_stderr_rest()
                    self.stop()
                    raise EOFError("the engine exited" +
                                   (f" with status {code}" if code is not None else ""))
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        if len(line) > self.max_answer:
            self.stop()
            raise AnswerError(f"answer longer than {self.max_answer:,} bytes: cut off")
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as error:
            self.stop()
            raise AnswerError(f"the answer is not UTF-8 (byte {error.start})") from None
        try:
            return json.loads(text), text
        except RecursionError:
            self.stop()
            raise AnswerError("the answer is nested too deeply") from None
        except ValueError as error:
            self.stop()      # what it writes next cannot be trusted to be in step
            raise AnswerError(f"the answer is not JSON ({error}): "
                              f"{short(text, raw=True)}") from None

    def _read_stderr_rest(self) -> None:
        if self.proc is None:
            return
        for _ in range(64):
            ready, _, _ = select.select([_pipes(self.proc)[2].fileno()], [], [], 0)
            if not ready:
                return
            before = len(self.stderr)
            self._read_stderr()
            if len(self.stderr) == before:
                return

    def stop(self) -> None:
        """Kill the engine, its process group and (Linux) every process it
        started wherever it went; close the pipes. Ctrl-C, SIGTERM and SIGHUP
        wait until it is done."""
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        blocked = _block_stop_signals()
        try:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, OSError):
                pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
            kill_all(self.spare)
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
        finally:
            _unblock(blocked)

    def close(self) -> None:
        """Stop the engine and give up being a subreaper, if this made it one."""
        self.stop()
        restore_subreaper(self.subreaper)
        self.subreaper = None


_STOP_SIGNALS = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                 if hasattr(signal, name)}


def _block_stop_signals() -> set[int] | None:
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS))


def _unblock(blocked: set[int] | None) -> None:
    if blocked is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def printable(text: str) -> str:
    """*text* safe to show on a terminal: every character that is not printable
    (control characters such as ESC, which start terminal control sequences,
    C1 controls, bidirectional overrides, line and paragraph separators) is
    written as its escape, ``\\x1b`` or ``\\u202e``. Applied twice it changes
    nothing more."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def short(value: Any, raw: bool = False) -> str:
    """*value* as JSON (or as it is, if *raw*), cut to :data:`SHOWN` characters
    and made :func:`printable`: what an engine sends never reaches the terminal
    raw."""
    text = value if raw and isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if len(text) > SHOWN:
        return printable(text[:SHOWN]) + f"… ({len(text):,} characters)"
    return printable(text)

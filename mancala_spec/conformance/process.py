"""The engine under test, as a process the runner never waits on forever and
never leaves behind, supervised without touching anything else.

:class:`EngineProcess` starts the engine's command through its supervisor
(:mod:`.supervisor`, a small Python process of its own), writes one request line,
and reads one answer line within a time limit, cutting off an answer longer
than :data:`MAX_ANSWER_BYTES`. The runner (:mod:`.runner`) decides what each
answer means. The engine's output is read by two threads (standard output and
error), the request written without blocking, so the waiting is done with
thread timeouts on every POSIX system, with no ``select`` on pipes.

The runner's process has one child per engine start, the supervisor, and waits
for it alone: it never scans for, kills or reaps any other process, so a
program that uses the runner as a library keeps its own children and their exit
statuses. The supervisor starts the engine in a new session and, when told to
stop, when the runner ends (however: it holds one end of a socket pair, and
sees it close) or when the engine exits, kills the engine's process group and,
on Linux, every process the engine started wherever it went (see
:mod:`.supervisor`). With ``portable=True`` the Linux extras are left out, as
they are on other systems: only the engine's process group is killed there.
"""
from __future__ import annotations

import errno
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from ..errors import RunnerError, shown
from . import supervisor

#: The longest answer line the runner reads (bytes, newline excluded).
MAX_ANSWER_BYTES = 1 << 20
#: How much of the engine's standard error is kept for reports (bytes).
STDERR_TAIL = 4096
#: The longest value shown in a report (characters).
SHOWN = 200
#: How long the supervisor may take to start the engine (seconds).
START_SECONDS = 60.0
SUPERVISOR = Path(supervisor.__file__)


def linux_extras() -> bool:
    """Whether this system has the supervisor's Linux extras (a child subreaper,
    a parent-death signal, ``/proc``)."""
    return supervisor.prctl() is not None


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


class _Reader:
    """One of the engine's output pipes, read by a daemon thread of its own
    until it ends. Standard output (*tail* false) is held until taken, and the
    thread stops reading while more than *limit* bytes wait (so a flooding engine
    cannot fill the memory); standard error (*tail*) keeps its last *limit* bytes.
    Only the thread closes the pipe."""

    def __init__(self, stream: IO[bytes], limit: int, tail: bool = False) -> None:
        self.limit = limit
        self.tail = tail
        self.data = bytearray()
        self.ended = False
        self.closed = False
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True,
                                       name="mancala-spec engine pipe")
        self.thread.start()

    def _read(self, stream: IO[bytes]) -> None:
        try:
            while True:
                with self.cond:
                    while not self.tail and len(self.data) > self.limit and not self.closed:
                        self.cond.wait()
                    if self.closed:
                        return
                try:
                    chunk = os.read(stream.fileno(), 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    return
                with self.cond:
                    self.data += chunk
                    if self.tail:
                        del self.data[:-self.limit]
                    self.cond.notify_all()
        finally:
            stream.close()
            with self.cond:
                self.ended = True
                self.cond.notify_all()

    def take(self, timeout: float) -> bytes | None:
        """What has come since the last take; ``b""`` once the pipe has ended,
        ``None`` if nothing came within *timeout* seconds."""
        with self.cond:
            self.cond.wait_for(lambda: self.data or self.ended, max(timeout, 0))
            if self.data:
                chunk = bytes(self.data)
                self.data.clear()
                self.cond.notify_all()
                return chunk
            return b"" if self.ended else None

    def text(self) -> bytes:
        with self.cond:
            return bytes(self.data)

    def wait_end(self, timeout: float) -> None:
        with self.cond:
            self.cond.wait_for(lambda: self.ended, timeout)

    def close(self) -> None:
        """Stop reading (the thread ends at once if it waits for room, else when
        the pipe ends)."""
        with self.cond:
            self.closed = True
            self.cond.notify_all()


_START_ERRORS = {errno.ENOENT: "no command {}", errno.EACCES: "{} is not executable",
                 errno.EPERM: "{} is not executable"}


class EngineProcess:
    """An engine subprocess answering one JSON line per request, started by its
    supervisor in a session of its own (so everything it starts is killed with
    it). *portable* leaves the Linux extras out (they are left out anyway where
    the system lacks them)."""

    def __init__(self, command: str | list[str], max_answer: int = MAX_ANSWER_BYTES,
                 portable: bool = False) -> None:
        self.argv = engine_argv(command)
        self.max_answer = max_answer
        self.portable = portable
        self.proc: subprocess.Popen[bytes] | None = None
        self.control: socket.socket | None = None
        self.said = b""
        self.pid: int | None = None
        self.out: _Reader | None = None
        self.err: _Reader | None = None
        self.buffer = b""

    def start(self) -> subprocess.Popen[bytes]:
        """Start the engine; raises :class:`EngineStartError` if it cannot be."""
        ours, theirs = socket.socketpair()
        argv = [sys.executable, "-I", "-S", str(SUPERVISOR),
                *(["--portable"] if self.portable else []), str(theirs.fileno()), "--",
                *self.argv]
        # Ctrl-C, SIGTERM and SIGHUP wait until the supervisor is started and
        # known to stop(); it unblocks them for the engine
        blocked = _block_stop_signals()
        try:
            try:
                proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, pass_fds=(theirs.fileno(),),
                                        start_new_session=True)
            except OSError as error:
                ours.close()
                raise EngineStartError(f"cannot start the engine {shown(self.argv[0])}: "
                                       f"cannot start Python ({shown(sys.executable)}) to "
                                       f"supervise it: {error.strerror or error}",
                                       self.argv[0]) from None
            finally:
                theirs.close()
            self.proc, self.control, self.said = proc, ours, b""
            assert proc.stdin is not None and proc.stdout is not None
            assert proc.stderr is not None
            os.set_blocking(proc.stdin.fileno(), False)
            self.out = _Reader(proc.stdout, self.max_answer)
            self.err = _Reader(proc.stderr, STDERR_TAIL, tail=True)
            self.buffer = b""
        finally:
            _unblock(blocked)
        word, _, value = (self._said(START_SECONDS) or "").partition(" ")
        if word != "started":
            self.stop()
            if word == "error" and value.isdigit():
                code = int(value)
                message = _START_ERRORS.get(code, "{}: " + os.strerror(code))
            else:
                message = "{}: its supervisor ended without starting it"
            raise EngineStartError("cannot start the engine: " +
                                   message.format(shown(self.argv[0])), self.argv[0])
        self.pid = int(value)
        return proc

    def _said(self, timeout: float) -> str | None:
        """The supervisor's next line, or ``None`` if none came within *timeout*."""
        control = self.control
        if control is None:
            return None
        deadline = time.monotonic() + timeout
        while b"\n" not in self.said:
            control.settimeout(max(deadline - time.monotonic(), 0))     # 0: do not wait
            try:
                chunk = control.recv(256)
            except OSError:             # the time ran out, or the socket failed
                return None
            if not chunk:
                return None
            self.said += chunk
        line, _, self.said = self.said.partition(b"\n")
        return line.decode("ascii", "replace")

    def errors(self, lines: int = 5) -> list[str]:
        """The last *lines* lines the engine wrote on standard error."""
        text = (self.err.text() if self.err is not None else b"").decode("utf-8", "replace")
        return [printable(line[:SHOWN]) for line in text.split("\n")[-lines - 1:] if line][-lines:]

    def ask(self, request: dict[str, Any], timeout: float) -> tuple[dict[str, Any] | Any, str]:
        """Send *request*; return (the decoded answer, its text).

        An engine that exits without answering (its input closed, its output
        ended) is started again and asked once more, and only if that one exits
        without answering too is it an EOFError: so an engine that answers and
        then exits (one answer a start, or after a linger) is handled the same
        way every run, however soon its exit is seen, and one that exits on the
        request is reported so every run. Raises TimeoutError, EOFError (the
        engine exited) or AnswerError."""
        try:
            return self._ask_once(request, timeout)
        except EOFError:
            self.stop()
            return self._ask_once(request, timeout)

    def _ask_once(self, request: dict[str, Any],
                  timeout: float) -> tuple[dict[str, Any] | Any, str]:
        proc = self.proc
        if proc is None or proc.poll() is not None or self._said(0) is not None:
            self.stop()                  # the engine has exited (its supervisor says so)
            proc = self.start()
        out = self.out
        assert proc.stdin is not None and out is not None
        deadline = time.monotonic() + timeout
        data = (json.dumps(request) + "\n").encode()
        pause = 0.0005
        while data:
            try:
                data = data[os.write(proc.stdin.fileno(), data):]
            except BlockingIOError:      # the pipe is full: the engine is not reading
                left = deadline - time.monotonic()
                if left <= 0:
                    self.stop()
                    raise TimeoutError(f"the engine did not read the request within "
                                       f"{timeout:g} s") from None
                time.sleep(min(pause, left))
                pause = min(pause * 2, 0.05)
            except OSError:              # its input is closed: has the engine exited?
                word, _, value = (self._said(0.5) or "").partition(" ")
                self.stop()
                raise EOFError(f"the engine exited with status {value}" if word == "exited"
                               else "the engine closed its input") from None
        while b"\n" not in self.buffer:
            if len(self.buffer) > self.max_answer:
                self.stop()
                raise AnswerError(f"answer longer than {self.max_answer:,} bytes: cut off")
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                raise TimeoutError(f"no answer within {timeout:g} s")
            chunk = out.take(left)
            if chunk is None:
                continue
            if not chunk:
                word, _, value = (self._said(0.5) or "").partition(" ")
                if self.err is not None:
                    self.err.wait_end(0.5)
                self.stop()
                raise EOFError("the engine exited" +
                               (f" with status {value}" if word == "exited" else ""))
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

    def stop(self) -> None:
        """Have the supervisor kill the engine and everything it started, and
        wait for it to end; close the pipes. Ctrl-C, SIGTERM and SIGHUP wait until
        it is done."""
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        blocked = _block_stop_signals()
        try:
            control, self.control = self.control, None
            if control is not None:
                try:
                    control.sendall(b"stop\n")
                except OSError:
                    pass
            try:
                proc.wait(timeout=supervisor.CLEANUP_SECONDS + 5)
                if proc.returncode != 0 and self.pid is not None:
                    _sweep_session(self.pid)   # the supervisor was killed: its cleanup, here
            except subprocess.TimeoutExpired:  # a supervisor stuck: the engine's group at least
                if self.pid is not None:
                    try:
                        os.killpg(self.pid, signal.SIGKILL)
                    except OSError:
                        pass
                proc.kill()
                proc.wait()
            if control is not None:
                control.close()
            if proc.stdin is not None:
                try:
                    proc.stdin.close()
                except OSError:
                    pass
            for reader in (self.out, self.err):
                if reader is not None:
                    reader.close()
            self.pid = None
        finally:
            _unblock(blocked)

    def close(self) -> None:
        """Stop the engine."""
        self.stop()


_STOP_SIGNALS = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                 if hasattr(signal, name)}


def _sweep_session(engine: int) -> None:
    """Kill the processes of the engine's session (the supervisor started the engine
    in a session of its own, its ID the engine's PID) and its process group: what
    the supervisor would have killed had the engine not killed it. A helper that
    made a session of its own is out of reach here (see docs/protocol.md)."""
    try:
        os.killpg(engine, signal.SIGKILL)
    except OSError:
        pass
    if not os.path.isdir("/proc/self"):
        return
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            if int(fields[3]) == engine:       # (state, ppid, pgrp, session, ...)
                os.kill(int(entry), signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            pass


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

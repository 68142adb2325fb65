"""The engine under test, as a process the runner never waits on forever.

:class:`EngineProcess` starts the engine's command in its own session (so that
killing it kills everything it started), writes one request line, and reads one
answer line with ``select`` within a time limit, cutting off an answer longer
than :data:`MAX_ANSWER_BYTES`. The runner (:mod:`.runner`) decides what each
answer means.
"""
from __future__ import annotations

import json
import os
import select
import shlex
import signal
import subprocess
import time
from typing import IO, Any

#: The longest answer line the runner reads (bytes, newline excluded).
MAX_ANSWER_BYTES = 1 << 20
#: How much of the engine's standard error is kept for reports (bytes).
STDERR_TAIL = 4096
#: The longest value shown in a report (characters).
SHOWN = 200


class EngineStartError(OSError):
    """The engine's command could not be started (no such file, not executable)."""


class AnswerError(Exception):
    """An answer that is too long, not UTF-8 or not JSON; the message says which."""


def engine_argv(command: str | list[str]) -> list[str]:
    """The engine command as an argument list; raises ValueError if it is empty or
    its quoting is broken."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise ValueError(f"cannot read the engine command {command!r}: {error}") from None
    else:
        argv = list(command)
    if not argv:
        raise ValueError("the engine command is empty")
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

    def start(self) -> subprocess.Popen[bytes]:
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         start_new_session=True)
        except FileNotFoundError:
            raise EngineStartError(f"cannot start the engine: no command {self.argv[0]!r}") \
                from None
        except PermissionError:
            raise EngineStartError(f"cannot start the engine: {self.argv[0]!r} is not "
                                   "executable") from None
        except OSError as error:
            raise EngineStartError(f"cannot start the engine {self.argv[0]!r}: "
                                   f"{error.strerror or error}") from None
        for stream in _pipes(proc):
            os.set_blocking(stream.fileno(), False)
        self.proc = proc
        self.buffer = b""
        self.stderr = b""
        return proc

    def errors(self, lines: int = 5) -> list[str]:
        """The last *lines* lines the engine wrote on standard error."""
        text = self.stderr.decode("utf-8", "replace")
        return [line[:SHOWN] for line in text.splitlines()[-lines:]]

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
        """Kill the engine and everything in its process group; close the pipes."""
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


def short(value: Any, raw: bool = False) -> str:
    """*value* as JSON (or as it is, if *raw*), cut to :data:`SHOWN` characters."""
    text = value if raw and isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN else text[:SHOWN] + f"… ({len(text):,} characters)"

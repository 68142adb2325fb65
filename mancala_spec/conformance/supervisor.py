"""The engine's supervisor: a small process of its own between the runner and
the engine, so that the runner touches only what it started.

The runner (:class:`~mancala_spec.conformance.process.EngineProcess`) starts
this file as a script, ``python -I -S supervisor.py [--portable] FD -- ENGINE...``,
in a session of its own, with the engine's three pipes as its standard streams
and FD one end of a socket pair whose other end the runner keeps. It uses the
standard library only and never imports the package.

The supervisor starts the engine in a new session (so a new process group),
handing it the pipes, and says on the socket ``started PID`` or ``error ERRNO``;
it keeps nothing of the pipes itself. When the engine exits it says
``exited STATUS`` (as ``subprocess.Popen.returncode`` gives it: ``-9`` for
SIGKILL). It stops the engine when the runner says ``stop``, when the socket
closes (the runner ended, however: killed outright with SIGKILL included) and
on SIGTERM, SIGINT or SIGHUP; then it kills what the engine left and exits.

What is killed:

- everywhere, the engine's process group;
- on Linux (the extras), also every process the engine started wherever it
  went: the supervisor is a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``),
  so a process that leaves the engine's session or group, or whose parent
  exits, becomes its child rather than init's. It kills its descendants (found
  in ``/proc``, signalled through a pidfd where the system has them) and reaps
  them, round after round, until it has no child at all, alive or dead: a
  helper that keeps forking to change its PID always leaves one, its new self,
  so it is caught. The engine also gets a parent-death signal
  (``PR_SET_PDEATHSIG``): killed outright, the supervisor takes the engine
  with it.

The supervisor has no other children, so nothing it kills or reaps belongs to
the program that uses the runner.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

#: How long the supervisor goes on killing what the engine left (seconds).
CLEANUP_SECONDS = 10.0

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_STOP_SIGNALS = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                 if hasattr(signal, name)]


def prctl() -> Any:
    """libc's ``prctl`` where the extras apply (Linux with ``/proc``), else ``None``."""
    if not sys.platform.startswith("linux") or not os.path.isdir("/proc/self"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (ImportError, OSError, AttributeError):
        return None


def _children(pid: int) -> list[int] | None:
    """The children of *pid* from ``/proc/PID/task/*/children``; ``None`` where
    the kernel does not list them."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.extend(int(child) for child in handle.read().split())
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{task}"):
                continue                        # the thread ended
            return None
        except (OSError, ValueError):
            continue
    return found


def _parents() -> dict[int, int]:
    """Every process's parent, from ``/proc/PID/stat``."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[-1].split()
                parents[int(entry)] = int(fields[1])
            except (OSError, ValueError, IndexError):
                continue
    return parents


def descendants(root: int) -> list[int]:
    """The descendants of process *root*, parents before their children."""
    by_parent: dict[int, list[int]] | None = None
    if _children(root) is None:                 # no children files: the whole table
        by_parent = {}
        for pid, parent in _parents().items():
            by_parent.setdefault(parent, []).append(pid)
    found: list[int] = []
    seen = {root}
    todo = [root]
    while todo:
        pid = todo.pop()
        children = by_parent.get(pid, []) if by_parent is not None else _children(pid) or []
        new = [child for child in children if child not in seen]
        seen.update(new)
        found.extend(new)
        todo.extend(new)
    return found


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return int(handle.read().rsplit(")", 1)[-1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _kill(pid: int, tree: set[int]) -> None:
    """SIGKILL *pid*, which was found in *tree*. Through a pidfd where there is
    one: it is opened first, then the process is checked to still have its
    parent in the tree, so a PID freed and taken by another process meanwhile is
    never signalled."""
    if hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal"):
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            return                              # gone already
        try:
            if _parent(pid) in tree:
                signal.pidfd_send_signal(fd, signal.SIGKILL)
        except OSError:
            pass
        finally:
            os.close(fd)
        return
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def _reap() -> bool:
    """Reap every dead child; return whether any child is left (alive)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True


def clean_up(engine: int, extras: bool, within: float = CLEANUP_SECONDS) -> None:
    """Kill the engine's process group and (*extras*) every descendant, until
    this process has no child left or *within* seconds have passed."""
    try:
        os.killpg(engine, signal.SIGKILL)
    except OSError:
        pass
    deadline = time.monotonic() + within
    pause = 0.0005
    me = os.getpid()
    while True:
        if extras:
            tree = {me}
            for pid in descendants(me):
                tree.add(pid)
                _kill(pid, tree)
        if not _reap() or time.monotonic() >= deadline:
            return
        time.sleep(pause)
        pause = min(pause * 2, 0.02)


def main(argv: list[str]) -> int:
    portable = argv[:1] == ["--portable"]
    if portable:
        argv = argv[1:]
    control = socket.socket(fileno=int(argv[0]))
    command = argv[2:]
    call = None if portable else prctl()
    extras = call is not None and call(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    me = os.getpid()

    def preexec() -> None:
        assert call is not None
        call(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != me:                  # the supervisor died before it was set
            os._exit(1)

    # the runner blocked its stop signals to start this; the engine gets none blocked
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    try:
        engine = subprocess.Popen(command, start_new_session=True,
                                  preexec_fn=preexec if call is not None else None)
    except OSError as error:
        control.sendall(f"error {error.errno or 0}\n".encode())
        return 0
    control.sendall(f"started {engine.pid}\n".encode())
    # the engine holds the pipes now: they close when it (and what it started) does
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)

    def stop(*_: object) -> None:
        try:
            os.killpg(engine.pid, signal.SIGKILL)
        except OSError:
            pass

    for number in _STOP_SIGNALS:
        signal.signal(number, stop)

    def watch() -> None:
        try:
            while True:
                data = control.recv(64)
                if not data or b"stop" in data:
                    break
        except OSError:
            pass
        stop()

    import threading

    threading.Thread(target=watch, daemon=True).start()
    while True:                                 # reaping what comes (adopted helpers too)
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:               # cannot happen: the engine is a child
            break
        if pid == engine.pid:
            try:
                control.sendall(f"exited {os.waitstatus_to_exitcode(status)}\n".encode())
            except OSError:
                pass
            break
    engine.returncode = 0                       # reaped above: Popen must not wait for it
    clean_up(engine.pid, extras)
    return 0


if __name__ == "__main__":
    os._exit(main(sys.argv[1:]))

"""SIGINT, SIGTERM and SIGHUP from a command's first instruction to its last.

``mancala_spec/__init__.py`` imports this module before anything else, and it
calls :func:`install_at_start`. When the process is one of the package's commands
(``mancala-spec``, ``python -m mancala_spec``, ``python -m mancala_spec.cli``,
``python -m mancala_spec.analysis``) it takes the three signals at once, while
the package is still being imported: a signal then writes one line
(``mancala-spec: interrupted``) and ends the process with status 130 at once
(nothing is started yet, so there is nothing to clean up; no exception is
raised in the middle of an import or of a class's creation). A program that
imports the package as a library keeps its own handlers: nothing is installed.

While a command runs, :func:`mancala_spec.cli.main` takes the signals with
:func:`raising`: the first one raises :class:`Terminated` (a
:class:`KeyboardInterrupt`), so that ``finally`` blocks run (engines killed,
temporary files removed) and the command says one line; a second one, or one
after the command has ended, ends the process at once, as at the start, after
removing the temporary files registered in :data:`TEMPORARY`. A
``KeyboardInterrupt`` that still escapes to the top is one line too
(:func:`sys.excepthook`).

A Ctrl-C that arrives while this module is first being read (before the
handlers are in place: a millisecond, or more when Python compiles it) reaches
``mancala_spec/__init__.py`` as a ``KeyboardInterrupt``; it reads the module
again and calls :func:`interrupted_at_start`, so a command says its one line then
too. Before the interpreter runs the package's first line (its own start-up, a few
tens of milliseconds) nothing of the package can act: a signal then ends it as
the system's default does (SIGTERM, SIGHUP: killed by the signal, no message;
SIGINT: Python's own start-up reports it).

Importing this module installs them (so ``mancala_spec/__init__.py`` imports it
first); it imports only ``os``, ``sys`` and ``signal`` (1 ms).
"""
from __future__ import annotations

import os
import signal as _signal
import sys

#: Exit status of a command stopped by a signal (as for Ctrl-C, 128 + SIGINT).
INTERRUPTED = 130

#: The commands, by the module ``python -m`` runs, and the name each speaks with.
ENTRY_MODULES = {"mancala_spec": "mancala-spec", "mancala_spec.cli": "mancala-spec",
                 "mancala_spec.analysis": "python -m mancala_spec.analysis"}
SCRIPTS = ("mancala-spec", "mancala-spec.exe")

SIGNALS = tuple(getattr(_signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                if hasattr(_signal, name))

#: Temporary files to remove if the process ends at once (see :func:`exit_now`).
TEMPORARY: set[str] = set()
#: Temporary folders (each made by the folder writer, :mod:`.folders`, with a
#: name of its own) to remove, with what they hold, if the process ends at once.
TEMPORARY_FOLDERS: set[str] = set()


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled as Ctrl-C is: ``finally`` blocks run."""


class _State:
    prog: str | None = None          # the command's name, when the process is one
    pid = -1                         # the process that installed the handlers
    said = False                     # the command's last line is written
    status: int | None = None        # the status the command has ended with, if it has
    raise_next = False               # the next signal raises (a command is running)


STATE = _State()


def entry_name(argv0: str | None = None, orig_argv: list[str] | None = None) -> str | None:
    """The command's name if this process is one of the package's commands, else ``None``."""
    argv0 = (sys.argv[0] if sys.argv else "") if argv0 is None else argv0
    if os.path.basename(argv0) in SCRIPTS:
        return "mancala-spec"
    args = list(getattr(sys, "orig_argv", [])) if orig_argv is None else orig_argv
    for index, arg in enumerate(args[1:], 1):
        if arg == "-m":
            module = args[index + 1] if index + 1 < len(args) else ""
        elif arg.startswith("-m"):
            module = arg[2:]
        elif arg in ("-c", "-") or not arg.startswith("-") and args[index - 1] not in (
                "-X", "-W", "--check-hash-based-pycs"):
            return None                         # a script, -c code or standard input
        else:
            continue
        return ENTRY_MODULES.get(module)
    return None


def said(status: int) -> None:
    """Note that the command has written its last line and ends with *status*:
    a signal after it ends the process with that status, saying nothing more."""
    STATE.said = True
    STATE.status = status


def say(line: str, status: int) -> None:
    """Write the command's last *line* on stderr, once (a later call writes nothing)."""
    if STATE.said:
        return
    said(status)
    try:
        os.write(2, (line + "\n").encode("utf-8", "backslashreplace"))
    except (OSError, ValueError):
        pass


def exit_now() -> None:
    """End the process at once: remove the registered temporary files, say
    ``interrupted`` unless the command has said its last line, and exit with
    status 130 (or the status of the line said)."""
    for name in list(TEMPORARY):
        try:
            os.unlink(name)
        except OSError:
            pass
    if TEMPORARY_FOLDERS:
        import shutil
        for name in list(TEMPORARY_FOLDERS):
            shutil.rmtree(name, ignore_errors=True)
    status = STATE.status if STATE.said and STATE.status is not None else INTERRUPTED
    say(f"{STATE.prog or 'mancala-spec'}: interrupted", INTERRUPTED)
    os._exit(status)


def _on_signal(signum, frame):
    if os.getpid() != STATE.pid:                # a forked worker: its parent speaks
        os._exit(INTERRUPTED)
    if STATE.raise_next:
        STATE.raise_next = False
        raise Terminated()
    exit_now()


def _excepthook(kind, value, traceback):
    if issubclass(kind, KeyboardInterrupt) and os.getpid() == STATE.pid:
        exit_now()
    _previous_hook(kind, value, traceback)


_previous_hook = sys.excepthook


def install_at_start() -> None:
    """Take the signals now if this process is one of the package's commands."""
    name = entry_name()
    if name is None or STATE.prog is not None:
        return
    STATE.prog = name
    STATE.pid = os.getpid()
    for number in SIGNALS:
        try:
            if _signal.getsignal(number) == _signal.SIG_IGN:
                continue                        # nohup: the user asked to ignore it
            _signal.signal(number, _on_signal)
        except (OSError, ValueError):           # not the main thread: leave them
            pass
    sys.excepthook = _excepthook


def interrupted_at_start() -> None:
    """Ctrl-C came while this module was first being read, before its handlers
    were in place (``mancala_spec/__init__.py`` reads it again to call this): a
    command ends as a handled signal ends it; otherwise nothing happens here."""
    if STATE.prog is not None:
        exit_now()


def handler():
    """The handler commands install while they run (see the module's text)."""
    return _on_signal


def begin() -> None:
    """A command starts (in this process): nothing is said yet."""
    STATE.said = False
    STATE.status = None
    STATE.pid = os.getpid()


def raising(on: bool) -> None:
    """From now on the next signal raises :class:`Terminated` (*on*), or ends the
    process at once (not *on*)."""
    STATE.raise_next = on


install_at_start()

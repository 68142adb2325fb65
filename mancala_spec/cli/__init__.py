"""The ``mancala-spec`` command.

    mancala-spec --version
    mancala-spec COMMAND --help

One module per subcommand (:data:`~mancala_spec.cli.command_registry.COMMAND_MODULES`):
:mod:`.rule_commands` (``rules``, ``cite``, ``options``), ``play`` (``show``,
``play``, ``replay``), ``diagram``, ``conformance``, ``solve`` and
:mod:`.ruleset_list` (``rulesets``). What they share lives beside them: the command
registry and the parser (:mod:`.command_registry`), reading input within bounds
(:mod:`.arguments`) and the progress bar (:mod:`.progress`); the exit statuses
and the errors that carry them (:mod:`mancala_spec.terminal.status`), standard
output and atomic file writes (:mod:`mancala_spec.terminal.output`) are shared
with ``python -m mancala_spec.analysis``, and this package re-exports them.

:func:`main` runs one command line. Every failure ends in one line on stderr,
never a traceback, with an exit status from :data:`EXIT_STATUSES`.
"""
from __future__ import annotations

import io
import os
import signal
import sys
import threading

from ..errors import MancalaError
from ..terminal import signals as _signals
from ..terminal.escape import shown
from ..terminal.output import Stdout, check_target, write_atomic
from ..terminal.status import (
    EXIT,
    EXIT_STATUSES,
    MAX_ARGUMENTS,
    CliError,
    EngineFailure,
    ExitStatus,
    MissingExtraError,
    OutputError,
    ReaderGone,
    UsageError,
    exit_status_text,
)
from .command_registry import COMMAND_MODULES, COMMANDS, PROG, Command, build_parser, command
from .progress import ProgressBar

#: The signals that stop a command as Ctrl-C does (SIGHUP: its terminal closed).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))


def _say(line: str, status: int, lead: str = "") -> None:
    """The command's last line, on stderr, through :func:`shown` (one line),
    after *lead*; nothing if the command has said its last line already (an
    interrupt that arrives as it reports an error)."""
    if _signals.STATE.said:
        return
    _signals.said(status)
    try:
        print(lead + shown(line), file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass                                    # standard error is gone too: nothing to do


def main(argv: list[str] | None = None) -> int:
    """Run the command line *argv* (default: ``sys.argv[1:]``); return the exit status.

    Every failure ends in one line on stderr and a status from :data:`EXIT_STATUSES`.
    SIGINT, SIGTERM and SIGHUP end it with one line and status 130 at any
    moment (see :mod:`mancala_spec.terminal.signals`).
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:                   # one that arrived as _main was handling another
        _say(f"{PROG}: interrupted", EXIT["interrupted"])
        status = _signals.STATE.status
        return EXIT["interrupted"] if status is None else status
    finally:
        _signals.raising(False)


def _main(argv: list[str] | None) -> int:
    _signals.begin()
    if sys.stderr is None:                      # started with standard error closed
        sys.stderr = io.StringIO()
    if sys.stdout is None:                      # started with standard output closed (>&-)
        _say(f"{PROG}: error: cannot write standard output: it is closed",
             EXIT["output error"])
        return EXIT["output error"]
    original = sys.stdout
    out = Stdout(original)
    previous: dict[int, object] = {}
    name = PROG
    try:
        sys.stdout = out
        if threading.current_thread() is threading.main_thread():
            _signals.raising(True)
            for number in STOP_SIGNALS:
                if signal.getsignal(number) != signal.SIG_IGN:     # nohup: left ignored
                    previous[number] = signal.signal(number, _signals.handler())
        arguments = sys.argv[1:] if argv is None else argv
        if len(arguments) > MAX_ARGUMENTS:
            raise UsageError(f"{len(arguments):,} arguments: at most {MAX_ARGUMENTS:,} are taken")
        try:
            args = build_parser().parse_args(arguments)
        except SystemExit:                      # --help, --version, a usage error
            out.finish()
            raise
        if not getattr(args, "run", None):
            _say(f"{PROG}: error: give a command: {', '.join(COMMANDS)} (see --help)",
                 EXIT["bad input"])
            return EXIT["bad input"]
        name = f"{PROG} {args.command}"
        if args.live(args):
            out.go_live()
        status = args.run(args)
        out.finish()
        return status
    except ReaderGone:                          # `| head`: stop quietly, as Unix tools do
        out.discard()
        _signals.said(EXIT["reader gone"])
        return EXIT["reader gone"]
    except CliError as error:
        out.discard()
        _say(f"{name}: error: {error}", error.status)
        return error.status
    except RecursionError:
        out.discard()
        _say(f"{name}: error: the input is nested too deeply", EXIT["bad input"])
        return EXIT["bad input"]
    except MemoryError:
        out.discard()
        _say(f"{name}: error: out of memory", EXIT["bad input"])
        return EXIT["bad input"]
    except (MancalaError, ValueError) as error:
        out.discard()
        _say(f"{name}: error: {error}", EXIT["bad input"])
        return EXIT["bad input"]
    except KeyboardInterrupt:
        out.discard()
        _say(f"{PROG}: interrupted", EXIT["interrupted"], "\n" if _on_terminal() else "")
        return EXIT["interrupted"]
    except OSError as error:
        out.discard()
        where = "standard output" if error.filename is None else error.filename
        _say(f"{name}: error: cannot write {where}: {error.strerror or error}",
             EXIT["output error"])
        return EXIT["output error"]
    except Exception as error:  # noqa: BLE001 - the last line of defence: no tracebacks
        out.discard()
        if os.environ.get("MANCALA_SPEC_DEBUG"):
            raise
        _say(f"{name}: internal error: {type(error).__name__}: {error} "
             "(a bug; MANCALA_SPEC_DEBUG=1 shows the traceback)", EXIT["internal error"])
        return EXIT["internal error"]
    finally:
        _signals.raising(False)                 # from here a signal ends the process at once
        sys.stdout = original
        for number, handler in previous.items():
            signal.signal(number, handler)      # type: ignore[arg-type]


def _on_terminal() -> bool:
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError, OSError):
        return False


__all__ = ["COMMANDS", "COMMAND_MODULES", "EXIT", "EXIT_STATUSES", "PROG", "CliError", "Command",
           "EngineFailure", "ExitStatus", "MissingExtraError", "OutputError", "ProgressBar",
           "ReaderGone", "Stdout", "UsageError", "build_parser", "check_target", "command",
           "exit_status_text", "main", "shown", "write_atomic"]

"""The ``mancala-spec`` command.

    mancala-spec --version
    mancala-spec COMMAND --help

One module per subcommand (:data:`~mancala_spec.cli.registry.COMMAND_MODULES`):
``rules`` (``rules``, ``cite``, ``options``), ``play`` (``show``, ``play``,
``replay``), ``diagram``, ``conformance`` and ``solve``. What they share lives
beside them: the command registry and the parser (:mod:`.registry`), the exit
statuses and the errors that carry them (:mod:`.status`), standard output and
atomic file writes (:mod:`.output`), reading input within bounds
(:mod:`.arguments`) and the progress bar (:mod:`.progress`).

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
from .output import Stdout, check_target, write_atomic
from .progress import ProgressBar
from .registry import COMMAND_MODULES, COMMANDS, PROG, Command, build_parser, command
from .status import (
    EXIT,
    EXIT_STATUSES,
    CliError,
    EngineFailure,
    ExitStatus,
    MissingExtraError,
    OutputError,
    UsageError,
    exit_status_text,
)


class _Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled as Ctrl-C is: ``finally`` blocks run (engines
    are killed)."""


def _on_signal(signum, frame):
    raise _Terminated()


#: The signals that stop a command as Ctrl-C does (SIGHUP: its terminal closed).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                     if hasattr(signal, name))


def _say(line: str) -> None:
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass                                    # standard error is gone too: nothing to do


def main(argv: list[str] | None = None) -> int:
    """Run the command line *argv* (default: ``sys.argv[1:]``); return the exit status.

    Every failure ends in one line on stderr and a status from :data:`EXIT_STATUSES`.
    """
    if sys.stderr is None:                      # started with standard error closed
        sys.stderr = io.StringIO()
    if sys.stdout is None:                      # started with standard output closed (>&-)
        _say(f"{PROG}: error: cannot write standard output: it is closed")
        return EXIT["output error"]
    original = sys.stdout
    out = Stdout(original)
    sys.stdout = out
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {number: signal.signal(number, _on_signal) for number in STOP_SIGNALS}
    name = PROG
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit:                      # --help, --version, a usage error
            out.finish()
            raise
        if not getattr(args, "run", None):
            _say(f"{PROG}: error: give a command: {', '.join(COMMANDS)} (see --help)")
            return EXIT["bad input"]
        name = f"{PROG} {args.command}"
        if args.live(args):
            out.go_live()
        status = args.run(args)
        out.finish()
        return status
    except CliError as error:
        out.discard()
        _say(f"{name}: error: {error}")
        return error.status
    except RecursionError:
        out.discard()
        _say(f"{name}: error: the input is nested too deeply")
        return EXIT["bad input"]
    except MemoryError:
        out.discard()
        _say(f"{name}: error: out of memory")
        return EXIT["bad input"]
    except (MancalaError, ValueError) as error:
        out.discard()
        _say(f"{name}: error: {error}")
        return EXIT["bad input"]
    except KeyboardInterrupt:
        out.discard()
        _say(f"\n{PROG}: interrupted")
        return EXIT["interrupted"]
    except OSError as error:
        out.discard()
        where = "standard output" if error.filename is None else error.filename
        _say(f"{name}: error: cannot write {where}: {error.strerror or error}")
        return EXIT["output error"]
    except Exception as error:  # noqa: BLE001 - the last line of defence: no tracebacks
        out.discard()
        if os.environ.get("MANCALA_SPEC_DEBUG"):
            raise
        _say(f"{name}: internal error: {type(error).__name__}: {error} "
             "(a bug; MANCALA_SPEC_DEBUG=1 shows the traceback)")
        return EXIT["internal error"]
    finally:
        sys.stdout = original
        for number, handler in previous.items():
            signal.signal(number, handler)


__all__ = ["COMMANDS", "COMMAND_MODULES", "EXIT", "EXIT_STATUSES", "PROG", "CliError", "Command",
           "EngineFailure", "ExitStatus", "MissingExtraError", "OutputError", "ProgressBar",
           "Stdout", "UsageError", "build_parser", "check_target", "command",
           "exit_status_text", "main", "write_atomic"]

"""The exit statuses of ``mancala-spec`` (and of ``python -m
mancala_spec.analysis``) and the errors that carry them.

:data:`EXIT_STATUSES` is the one table that ``--help``, the command-line page
of the site and the tests read. A :class:`CliError` is printed as one line on
standard error and ends the command with its ``status``.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import MancalaError


@dataclass(frozen=True)
class ExitStatus:
    code: int
    name: str
    meaning: str


#: The exit statuses of every subcommand: the one table that ``--help``, the
#: command-line page and the tests read.
EXIT_STATUSES = (
    ExitStatus(0, "ok", "done; for conformance run, every case passed"),
    ExitStatus(1, "failures", "conformance run: a case failed, a suite case is invalid, or "
                              "fewer cases were supported than --min-supported; solve "
                              "verify: the table is not what the rules give (the first bad "
                              "position is named); solve --write-table: likewise, and "
                              "nothing is written"),
    ExitStatus(2, "bad input", "a usage error or bad input (unknown game or rule, malformed "
                               "position, record or suite, illegal move, input over its size "
                               "limit, standard input closed or ended before play did, a "
                               "command whose extra is not installed); nothing was written "
                               "(play prints the record so far)"),
    ExitStatus(3, "engine failure", "conformance run: the engine could not be started, or "
                                    "the run stopped early after consecutive engine failures, "
                                    "or no case ran"),
    ExitStatus(4, "output error", "a file or standard output could not be written (missing "
                                  "folder, no permission, disk full, not a regular file, "
                                  "standard output closed or its reader gone, an encoding "
                                  "that cannot carry the text); no file is left half-written"),
    ExitStatus(70, "internal error", "a bug in mancala-spec; the line names it (set "
                                     "MANCALA_SPEC_DEBUG=1 for the traceback)"),
    ExitStatus(130, "interrupted", "stopped by Ctrl-C, SIGTERM or SIGHUP, at any moment (one "
                                   "line: interrupted); every process an engine under test "
                                   "started is killed, no temporary file is left"),
    ExitStatus(141, "reader gone", "standard output is a pipe whose reader has closed it "
                                   "(| head): the command stops quietly, nothing on standard "
                                   "error, as git log | head does (128 + SIGPIPE)"),
)
EXIT = {status.name: status.code for status in EXIT_STATUSES}


#: The most arguments a command line may have: argparse takes time that grows
#: as the square of their number (30,000 took 25 s), so more are refused first.
MAX_ARGUMENTS = 1000


def exit_status_text() -> str:
    """The exit-status table as plain text (the ``--help`` epilog)."""
    return "exit status:\n" + "\n".join(
        f"  {s.code:<4} {s.name}: {s.meaning}" for s in EXIT_STATUSES)


class CliError(MancalaError):
    """An error the command reports as one line on stderr with its exit status
    (``status``, an entry of :data:`EXIT`)."""

    status = EXIT["bad input"]


class UsageError(CliError):
    """What the user asked for cannot be done; the message says why (exit status 2)."""


class MissingExtraError(UsageError):
    """A command needs a package that is not installed (exit status 2).

    ``package`` is the missing module's name and ``extra`` the package extra
    that installs it (``pip install 'mancala-spec[EXTRA]'``).
    """

    def __init__(self, command: str, package: str, extra: str) -> None:
        super().__init__(f"{command} needs {package}, which is not installed: "
                         f"pip install 'mancala-spec[{extra}]'")
        self.command = command
        self.package = package
        self.extra = extra


class OutputError(CliError):
    """A file or stream could not be written (exit status 4).

    ``target`` is the file as given, or ``None`` for standard output.
    """

    status = EXIT["output error"]

    def __init__(self, message: str = "", target: str | None = None) -> None:
        super().__init__(message)
        self.target = target


class ReaderGone(OutputError):
    """Standard output's reader has closed the pipe (exit status 141, said by
    nothing: the reader wanted no more)."""

    status = EXIT["reader gone"]


class EngineFailure(CliError):
    """The engine under test could not be run (exit status 3)."""

    status = EXIT["engine failure"]

"""The exit statuses of ``mancala-spec`` and the errors that carry them: see
:mod:`mancala_spec.terminal.status` (shared with ``python -m mancala_spec.analysis``)."""
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

__all__ = ["EXIT", "EXIT_STATUSES", "MAX_ARGUMENTS", "CliError", "EngineFailure", "ExitStatus",
           "MissingExtraError", "OutputError", "ReaderGone", "UsageError", "exit_status_text"]

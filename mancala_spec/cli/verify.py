"""``mancala-spec solve verify PATH``: a table of solved values checked by a
second path (:mod:`mancala_spec.verify`): a folder written by ``solve ba-awa
--write-table``, or Bakuk's table file. Exit 0 with the report (positions
checked, inconsistencies, time, peak memory); 1 with the report, the first bad
position (in the notation ``--start`` reads) and its moves first; 2 if *PATH*
is not a table."""
from __future__ import annotations

import argparse
import json
import time
from typing import Any

from ..terminal.status import EXIT, CliError, MissingExtraError, UsageError
from .progress import ProgressBar

#: the flags of ``solve`` that ``solve verify`` takes (any other is refused)
TAKES = ("command", "run", "live", "game", "table", "json", "no_progress")


class TableFails(CliError):
    """The table checked, or written, is not what the rules give (exit status 1)."""

    status = EXIT["failures"]


def run_verify(args: argparse.Namespace, defaults: dict[str, Any]) -> int:
    """``solve verify PATH``."""
    from ..errors import MancalaError

    given = [name for name, value in vars(args).items()
             if name not in TAKES and value != defaults.get(name)]
    if given:
        raise UsageError(f"solve verify takes a table's path (and --json, --no-progress), "
                         f"not --{given[0].replace('_', '-')}")
    if args.table is None:
        raise UsageError("solve verify needs the table to check: a folder written by "
                         "solve ba-awa --write-table, or Bakuk's table file")
    try:
        from ..verify import verify_table
    except ImportError:
        raise MissingExtraError("solve", "numpy", "solve") from None
    progress = None if args.no_progress or args.json else ProgressBar()
    started = time.process_time()
    try:
        report = verify_table(args.table, progress)
    except MancalaError as error:
        raise UsageError(f"solve verify: {error}") from None
    finally:
        if progress is not None:
            progress.close()
    cpu = time.process_time() - started
    peak = peak_bytes()
    if args.json:
        print(json.dumps({**report.as_json(), "cpu_seconds": round(cpu, 2),
                          "peak_bytes": peak}, indent=1))
    else:
        print("\n".join(report.lines()) + f" ({cpu:.1f} s of CPU"
              + ("" if peak is None else f", peak memory {peak / 2**30:.2f} GiB") + ")")
    return 0 if report.ok else EXIT["failures"]


def peak_bytes() -> int | None:
    """This process's peak resident memory, in bytes (None where not known)."""
    try:
        import resource
    except ImportError:
        return None
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024

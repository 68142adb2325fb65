"""Solved values checked by a second path, sharing no code with the solvers.

:func:`~mancala_spec.verify.ba_awa.verify_ba_awa` checks a Ba-awa table (a
folder written by ``solve ba-awa --write-table``) and
:func:`~mancala_spec.verify.bakuk.verify_bakuk` Bakuk's (one file): each
position's moves recomputed by the fast kernel's many-games steps (held to the
reference engine by the differential tests), its value checked against the
best of them, and the table's positions against those reachable from its
start. :func:`verify_table` takes either; :func:`checked` raises
:class:`TableInconsistent` where a table fails. ``mancala-spec solve verify
PATH`` runs them, and every table written (``solve ba-awa --write-table``,
:func:`mancala_spec.solved.write_table`) is checked before it is put in place.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import TableError
from .report import Problem, Report, describe

__all__ = ["Problem", "Report", "TableInconsistent", "checked", "describe", "verify_table"]


class TableInconsistent(TableError):
    """A table whose values or positions are not what the rules give:
    ``report`` is what the check found (the first bad position first)."""

    def __init__(self, report: Report) -> None:
        first = report.problems[0] if report.problems else None
        super().__init__(f"{report.inconsistencies:,} inconsistenc"
                         f"{'y' if report.inconsistencies == 1 else 'ies'} in "
                         f"{report.checked:,} positions checked"
                         + (f"; the first: {describe(first)}" if first else ""),
                         field="values")
        self.report = report


def verify_table(path: str | Path, progress: Any = None) -> Report:
    """Check the table at *path*: a folder is a Ba-awa table, a file Bakuk's;
    :class:`~mancala_spec.errors.TableError` if it is neither."""
    path = Path(path)
    if path.is_dir():
        from .ba_awa import verify_ba_awa
        return verify_ba_awa(path, progress)
    if path.is_file():
        from .bakuk import verify_bakuk
        return verify_bakuk(path, progress)
    raise TableError(f"{path} is not there: a table of values is a folder (Ba-awa) or a "
                     "file (Bakuk)", field="format")


def checked(path: str | Path, progress: Any = None) -> Report:
    """:func:`verify_table`, raising :class:`TableInconsistent` if the table fails."""
    report = verify_table(path, progress)
    if not report.ok:
        raise TableInconsistent(report)
    return report

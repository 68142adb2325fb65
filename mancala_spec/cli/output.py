"""Standard output written whole and checked, and files written atomically: see
:mod:`mancala_spec.terminal.output` (shared with ``python -m mancala_spec.analysis``)."""
from ..terminal.output import STDOUT, Stdout, check_target, write_all, write_atomic

__all__ = ["STDOUT", "Stdout", "check_target", "write_all", "write_atomic"]

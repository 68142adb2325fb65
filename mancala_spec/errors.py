"""Typed errors. Every one subclasses :class:`ValueError`.

A call that raises one of these changes nothing: positions are immutable and
every check runs before anything is built.
"""
from __future__ import annotations


class MancalaError(ValueError):
    """Base class of every error this package raises on bad input."""


class InvalidPositionError(MancalaError):
    """A position that cannot exist: wrong pit count, negative seeds, seeds not
    conserved, an unknown player, or a state the rules would already have resolved."""


class IllegalMoveError(MancalaError):
    """A move that may not be played here; the message says why (not your pit,
    empty pit, endless sowing, game over, no such pit)."""


class NotationError(MancalaError):
    """Malformed position, move or game-record text.

    ``text`` is the text that was read and ``column`` the 1-based column (and
    ``line``, for multi-line records, the 1-based line) where reading failed,
    or ``None`` when the whole text is at fault.
    """

    def __init__(self, message: str, text: str = "", column: int | None = None,
                 line: int | None = None) -> None:
        where = []
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        full = f"{', '.join(where)}: {message}" if where else message
        super().__init__(full)
        self.text = text
        self.column = column
        self.line = line


class UnknownGameError(MancalaError):
    """A game name that :func:`mancala_spec.get_game` does not know."""


class OptionError(MancalaError):
    """An unknown option, or a known option given a value it does not accept."""

"""Typed errors. Every one subclasses :class:`ValueError`.

A call that raises one of these changes nothing: positions are immutable and
every check runs before anything is built. Each error carries what went wrong
as attributes (for programs), as well as in its message (for people): read
the attributes, never parse the message.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: the most characters of a value that an error message shows
SHOWN = 80


def shown(value: Any) -> str:
    """*value* as an error message shows it: its ``repr``, cut to :data:`SHOWN`
    characters (a value of a million characters makes no one-line message),
    and a whole number too long for ``repr`` (Python limits ``str(int)`` to
    4,300 digits) by its length.

    >>> shown("x"), shown(10 ** 5000), len(shown("a" * 1000))
    ("'x'", 'a whole number of 5,001 digits', 80)
    """
    try:
        text = repr(value)
    except ValueError:            # int too long to convert (or a repr that fails so)
        if isinstance(value, int):
            return f"a whole number of {_digits(value):,} digits"
        return f"a {type(value).__name__}"
    return text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"


def _digits(value: int) -> int:
    """The decimal digits of *value*, without converting it to text."""
    value = abs(value)
    digits = max(1, int(value.bit_length() * 0.30102999566398120))
    while 10 ** digits <= value:
        digits += 1
    while digits > 1 and 10 ** (digits - 1) > value:
        digits -= 1
    return digits


def not_a(name: str, value: Any, wanted: str) -> OptionError:
    """The :class:`OptionError` for an argument *name* of a call given
    *value*, which is not *wanted* (``option`` is *name*)."""
    return OptionError(f"{name} must be {wanted}, not {shown(value)}", option=name, value=value)


def not_a_position(name: str, value: Any) -> InvalidPositionError:
    """The :class:`InvalidPositionError` (``field="game"``) for an argument
    *name* that should be a :class:`~mancala_spec.engine.position.Position`."""
    return InvalidPositionError(f"{name} must be a position (Game.start or Game.parse gives "
                                f"one), not {shown(value)}", field="game")


class MancalaError(ValueError):
    """Base class of every error this package raises on bad input.

    ``message`` is the message without any location prefix.
    """

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self.message = message


class InvalidPositionError(MancalaError):
    """A position that cannot exist: wrong pit count, negative seeds, seeds not
    conserved, an unknown player, or a state the rules would already have resolved.

    ``field`` names the part of the position at fault (``"pits"``,
    ``"captured"``, ``"to_move"``, ``"opener"``, ``"owners"``, ``"history"``,
    ``"game"``, ``"player"`` (a player named by index), or ``"state"`` for a
    state of the fast kernel, and ``"pit"``,
    ``"mover"``, ``"step"``, ``"players"`` for ``mancala_spec.fast.sow``'s
    arguments), or is ``None`` when the position as a whole is at fault (seeds
    not conserved, a state the rules would already have resolved).
    """

    def __init__(self, message: str = "", field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class UnreachedPositionError(InvalidPositionError, KeyError):
    """A position of the board that no game from the solved start reaches, so
    that a solution (``mancala_spec.solve.Solution``, numpy needed) holds no value for
    it. Also a :class:`KeyError`, as a look-up that finds nothing.

    ``pits`` and ``to_move`` are the position as looked up; ``field`` is
    ``None`` (the position as a whole is at fault).
    """

    def __init__(self, message: str = "", pits: Sequence[int] = (), to_move: int = 0) -> None:
        super().__init__(message)
        self.pits = tuple(pits)
        self.to_move = to_move

    def __str__(self) -> str:
        return self.message             # not quoted, as a KeyError's would be


class IllegalMoveError(MancalaError):
    """A move that may not be played here; the message says why (not your pit,
    empty pit, endless sowing, game over, no such pit).

    ``pit`` is the pit's index when the move names a pit of the board, else
    the move as given (``None`` when no move is at fault, as when a match is
    over); ``reason`` is one of
    ``"no-such-pit"``, ``"game-over"``, ``"not-yours"``, ``"empty"``,
    ``"rule"`` (a rule of the game forbids it, such as an endless sowing), or
    ``None``.
    """

    def __init__(self, message: str = "", pit: Any = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.pit = pit
        self.reason = reason


class NotationError(MancalaError):
    """Malformed position, move or game-record text.

    ``text`` is the text that was read and ``column`` the 1-based column (and
    ``line``, for multi-line records, the 1-based line) where reading failed,
    or ``None`` when the whole text is at fault. ``message`` is the message
    without the "line …, column …:" prefix that ``str(error)`` starts with.
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
        self.message = message
        self.text = text
        self.column = column
        self.line = line


class UnknownGameError(MancalaError):
    """A game name that :func:`mancala_spec.get_game` does not know.

    ``name`` is the name as given and ``known`` the names of the known games.
    """

    def __init__(self, message: str = "", name: Any = None, known: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.name = name
        self.known = tuple(known)


class OptionError(MancalaError):
    """An unknown option, a known option given a value it does not accept,
    options whose values do not go together, or an argument of a call given a
    value it does not accept (``mancala_spec.fast.playouts``'s ``n``,
    ``seed``, ``record``; a playout's number, ``game``).

    ``game`` is the game's name, ``option`` the option's name, ``value`` the
    value given and ``choices`` the values it accepts (empty for an unknown
    option); each is ``None`` (``()``) where it does not apply.
    """

    def __init__(self, message: str = "", game: str | None = None, option: str | None = None,
                 value: Any = None, choices: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.game = game
        self.option = option
        self.value = value
        self.choices = tuple(choices)


class SuiteError(MancalaError):
    """A conformance suite the runner cannot run: not of the suite's JSON
    Schema, two cases with one ID, or no case at all.

    ``path`` is where in the document the fault is, as a JSON path
    (``"$.cases[3].expected.match"``; ``"$"`` for the whole document).
    """

    def __init__(self, message: str = "", path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class RunnerError(MancalaError):
    """A conformance runner setting out of range (a timeout, a count).

    ``setting`` is the setting's name (``"timeout"``, ``"max_failures"``,
    ``"min_supported"``, ``"command"``) and ``value`` the value given.
    """

    def __init__(self, message: str = "", setting: str | None = None,
                 value: Any = None) -> None:
        super().__init__(message)
        self.setting = setting
        self.value = value


class UnknownRuleError(MancalaError, KeyError):
    """A rule ID that the catalogue does not hold (:func:`mancala_spec.catalogue.get_rule`).
    Also a :class:`KeyError`, as a look-up that finds nothing.

    ``rule`` is the ID as given.
    """

    def __init__(self, message: str = "", rule: Any = None) -> None:
        super().__init__(message)
        self.rule = rule

    def __str__(self) -> str:
        return self.message             # not quoted, as a KeyError's would be


class TableError(MancalaError):
    """Bytes that are not a table of solved values
    (``mancala_spec.solved.ValueTable.from_bytes``).

    ``field`` is the part at fault: ``"format"`` (not such a table),
    ``"header"`` (its first line: not JSON, a board or option out of range),
    or ``"values"`` (not zlib data, or not one byte per position).
    """

    def __init__(self, message: str = "", field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class UnknownSourceError(MancalaError, KeyError):
    """A file name that is not one of the source documents
    (``mancala_spec.sources.SOURCES``). Also a :class:`KeyError`, as a
    look-up that finds nothing.

    ``file`` is the name as given and ``known`` the source documents' names.
    """

    def __init__(self, message: str = "", file: Any = None, known: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.file = file
        self.known = tuple(known)

    def __str__(self) -> str:
        return self.message             # not quoted, as a KeyError's would be


class CatalogueError(MancalaError):
    """The catalogue or the rule-ID registry is inconsistent (raised when it is
    loaded, so that it cannot ship broken).

    ``rule`` is the ID of the rule at fault, or ``None`` when no one rule is
    (duplicate IDs, a context entry).
    """

    def __init__(self, message: str = "", rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


#: What the API documents: the errors, and how a value is shown in their
#: messages (``not_a`` and ``not_a_position`` are the package's own shorthands).
__all__ = ["SHOWN", "CatalogueError", "IllegalMoveError", "InvalidPositionError", "MancalaError",
           "NotationError", "OptionError", "RunnerError", "SuiteError", "TableError",
           "UnknownGameError", "UnknownRuleError", "UnknownSourceError",
           "UnreachedPositionError", "shown"]

"""Immutable positions: plain data.

A :class:`Position` is a value: its fields, its :attr:`~Position.key`, equality,
hashing and pickling, and its text. It holds no rule: :meth:`Position.play`,
:meth:`Position.trace` and :meth:`Position.legal_moves` are one-line
conveniences that ask the position's game (:class:`Rules` says what a position
asks of it), and never change the position they are called on. ``repr(pos)``
can be pasted back into Python (after ``from mancala_spec import Position,
get_game``; a position whose captured counts play cannot reach, built with
``allow_unreachable=True``, says so in its repr too) and ``str(pos)`` draws the
board as South sees it.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ..errors import InvalidPositionError, NotationError, shown
from ..options import Option
from .board import Board
from .outcome import Outcome
from .trace import Trace

Key = tuple[tuple[int, ...], int]


class Rules(Protocol):
    """What a position asks of its game (:class:`~mancala_spec.engine.games.base.Game`
    is the one class that has it): its name, options and board, its moves, and
    its checks of a position given as text. Declared here, below the games, so
    that a position knows its game without importing it."""

    board: Board
    players: int

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def seeds_per_pit(self) -> int: ...
    @property
    def options(self) -> Mapping[str, Any]: ...
    def option(self, name: str) -> Option: ...
    def pit_index(self, pit: int | str) -> int: ...
    @property
    def total_seeds(self) -> int: ...
    def player_letter(self, player: int) -> str: ...
    def player_name(self, player: int) -> str: ...
    def next_pit(self, pit: int, origin: int) -> int: ...
    def moves(self, pos: Position) -> tuple[int, ...]: ...
    def trace(self, pos: Position, pit: int | str) -> Trace: ...
    def check_reachable(self, pos: Position) -> Position: ...
    def default_captured(self, missing: int) -> tuple[int, ...]: ...
    def start(self) -> Position: ...
    def parse(self, text: str, *, allow_unreachable: bool = False) -> Position: ...
    def position(self, pits: Sequence[int], to_move: int = 0,
                 captured: Sequence[int] | None = None, opener: int = 0,
                 owners: Sequence[int] | None = None,
                 history: Sequence[tuple[Sequence[int], int]] = (), *,
                 allow_unreachable: bool = False) -> Position: ...


class Position:
    """A position of one game: pits, player to move, stores, opener, owners and
    the positions seen since the last capture (for the repetition rules); once
    the game is over, its :attr:`outcome`.

    Build one with :meth:`Game.start <mancala_spec.engine.games.base.Game.start>`,
    :meth:`Game.position <mancala_spec.engine.games.base.Game.position>`, or from text::

        Position(get_game("bakuk"), "6,6,6/6,6,6 S 0-0 opener=S")

    Captured counts that play cannot reach are refused
    (:class:`~mancala_spec.errors.InvalidPositionError`, ``field="captured"``)
    unless ``allow_unreachable=True`` is given, as with :meth:`Game.position
    <mancala_spec.engine.games.base.Game.position>`.
    """

    __slots__ = ("game", "pits", "to_move", "captured", "opener", "owners", "history",
                 "outcome")

    game: Rules
    pits: tuple[int, ...]
    to_move: int
    captured: tuple[int, ...]
    opener: int
    owners: tuple[int, ...]
    history: tuple[Key, ...]
    #: How the game ended (an :class:`~mancala_spec.engine.outcome.Outcome`),
    #: or ``None`` while it goes on.
    outcome: Outcome | None

    def __init__(self, game: Rules, text: str, *, allow_unreachable: bool = False) -> None:
        if not callable(getattr(game, "parse", None)):
            raise InvalidPositionError(
                f"Position(game, text) needs a game (from get_game), not {shown(game)}",
                field="game")
        parsed = game.parse(text, allow_unreachable=allow_unreachable)
        for name in self.__slots__:
            object.__setattr__(self, name, getattr(parsed, name))

    @classmethod
    def unchecked(cls, game: Rules, *, pits: tuple[int, ...], to_move: int,
                  captured: tuple[int, ...], opener: int, owners: tuple[int, ...],
                  history: tuple[Key, ...] = (),
                  outcome: Outcome | None = None) -> Position:
        """A position built without any check, for the engine's own use (it only
        makes valid positions) and for tests and studies that need a board
        outside play. Every sequence must be a tuple. Everyone else builds
        positions with :meth:`Game.position
        <mancala_spec.engine.games.base.Game.position>`, which checks them."""
        self = object.__new__(cls)
        set_field = object.__setattr__    # the only way in: Position.__setattr__ refuses
        set_field(self, "game", game)
        set_field(self, "pits", pits)
        set_field(self, "to_move", to_move)
        set_field(self, "captured", captured)
        set_field(self, "opener", opener)
        set_field(self, "owners", owners)
        set_field(self, "history", history)
        set_field(self, "outcome", outcome)
        return self

    def replace(self, **changes: Any) -> Position:
        """This position with the fields named in *changes* replaced, unchecked
        (:meth:`unchecked`): for the engine's own steps, such as a turn passed."""
        fields = {name: getattr(self, name) for name in self.__slots__ if name != "game"}
        return Position.unchecked(self.game, **{**fields, **changes})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable; play() returns a new position")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Position is immutable; play() returns a new position")

    # -- reading ---------------------------------------------------------------

    @property
    def key(self) -> Key:
        """What the repetition rules compare: the pits and the player to move."""
        return (self.pits, self.to_move)

    @property
    def seeds_on_board(self) -> int:
        """The number of seeds in all pits together."""
        return sum(self.pits)

    @property
    def is_over(self) -> bool:
        """True once the game has ended (it has an :attr:`outcome`)."""
        return self.outcome is not None

    @property
    def winner(self) -> int | None:
        """The winning player's index; ``None`` for a draw or a game not over."""
        return None if self.outcome is None else self.outcome.winner

    # -- moving: the game's, for convenience --------------------------------------

    def legal_moves(self) -> list[int]:
        """The pits the player to move may play, as sorted indices."""
        return list(self.game.moves(self))

    def play(self, pit: int | str) -> Position:
        """The position after playing *pit* (an index, or a name like ``"c"``).

        Raises :class:`~mancala_spec.errors.IllegalMoveError` (saying why) when
        the move is not legal here; this position is unchanged either way.
        """
        after: Position = self.game.trace(self, pit).position
        return after

    def trace(self, pit: int | str) -> Trace:
        """Play *pit* and return the move's events with the resulting position."""
        return self.game.trace(self, pit)

    # -- text ------------------------------------------------------------------

    def to_text(self) -> str:
        """The position in one line of notation (see :mod:`mancala_spec.notation`)."""
        game = self.game
        n = game.board.pits_per_row
        letter = game.player_letter
        fields = [format_pits(self.pits, n), letter(self.to_move),
                  "-".join(map(str, self.captured)), f"opener={letter(self.opener)}"]
        if self.owners != game.board.default_owners:
            fields.append("owners=" + "".join(letter(owner) for owner in self.owners))
        if self.history:
            fields.append("seen=" + ";".join(f"{format_pits(pits, n)}:{letter(player)}"
                                             for pits, player in self.history))
        return " ".join(fields)

    @property
    def reachable(self) -> bool:
        """Whether play can reach this position's captured counts (the game's
        :meth:`~mancala_spec.engine.games.base.Game.check_reachable`): false only
        for a position built with ``allow_unreachable=True``, or played on from one."""
        try:
            self.game.check_reachable(self)
        except InvalidPositionError:
            return False
        return True

    def __repr__(self) -> str:
        unreachable = "" if self.reachable else ", allow_unreachable=True"
        return f"Position({self.game!r}, {self.to_text()!r}{unreachable})"

    def __str__(self) -> str:
        board = self.game.board
        n = board.pits_per_row
        north = range(2 * n - 1, n - 1, -1)
        south = range(n)

        def row(pits: range) -> str:
            return "".join(f"{self.pits[p]:>4}" for p in pits)

        def names(pits: range) -> str:
            return "".join(f"{board.name(p):>4}" for p in pits)

        def store(player: int) -> str:
            mark = "   to move" if player == self.to_move and not self.is_over else ""
            return f"   captured {self.captured[player]}{mark}"

        if self.owners == board.row_owners:
            lines = [f"       {names(north)}",
                     f"North  {row(north)}{store(1)}",
                     f"South  {row(south)}{store(0)}",
                     f"       {names(south)}"]
        else:  # pits owned otherwise than row by row (match play, three players)
            letter = self.game.player_letter

            def owner_row(pits: range) -> str:
                return "".join(f"{letter(self.owners[p]):>4}" for p in pits)

            stores = ", ".join(f"{self.game.player_name(p)} {seeds}"
                               for p, seeds in enumerate(self.captured))
            lines = [f"       {names(north)}", f"owner  {owner_row(north)}",
                     f"       {row(north)}", f"       {row(south)}",
                     f"owner  {owner_row(south)}", f"       {names(south)}",
                     f"captured: {stores}"
                     + ("" if self.is_over else f"; {self.game.player_name(self.to_move)} to move")]
        if self.is_over:
            winner = self.winner
            lines.append("game over: " + ("draw" if winner is None
                                         else f"{self.game.player_name(winner)} wins"))
        return "\n".join(lines)

    # -- value semantics -------------------------------------------------------

    def _value(self) -> tuple[object, ...]:
        return (self.game, self.pits, self.to_move, self.captured, self.opener, self.owners,
                self.history)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._value() == other._value()

    def __hash__(self) -> int:
        return hash(self._value())

    def __copy__(self) -> Position:
        return self

    def __deepcopy__(self, memo: object) -> Position:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        # the text, and the outcome (a finished Ba-awa board does not show why it ended)
        return (_restore, (self.game, self.to_text(), self.outcome))


def format_pits(pits: Sequence[int], pits_per_row: int) -> str:
    """``"a,b,c/A,B,C"``: South's row, then North's, each in sowing order."""
    south = ",".join(map(str, pits[:pits_per_row]))
    north = ",".join(map(str, pits[pits_per_row:]))
    return f"{south}/{north}"


def _restore(game: Rules, text: str, outcome: Outcome | None) -> Position:
    pos = Position(game, text, allow_unreachable=True)    # it was built, so it was allowed
    return pos if outcome == pos.outcome else pos.replace(outcome=outcome)


__all__ = ["Key", "NotationError", "Position", "Rules", "format_pits"]

"""Immutable positions.

A :class:`Position` is a value: :meth:`Position.play` returns a new position and
never changes the one it is called on. ``repr(pos)`` can be pasted back into
Python (after ``from mancala_spec import Position, get_game``) and ``str(pos)``
draws the board as South sees it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import IllegalMoveError, NotationError
from .trace import Trace

if TYPE_CHECKING:  # pragma: no cover
    from .games.base import Game, Seating
    from .sowing import Sowing

Key = tuple[tuple[int, ...], int]


class Position:
    """A position of one game: pits, player to move, stores, opener, owners and
    the positions seen since the last capture (for the repetition rules).

    Build one with :meth:`Game.start <mancala_spec.engine.games.base.Game.start>`,
    :meth:`Game.position <mancala_spec.engine.games.base.Game.position>`, or from text::

        Position(get_game("bakuk"), "6,6,6/6,6,6 S 0-0 opener=S")
    """

    __slots__ = ("game", "pits", "to_move", "captured", "opener", "owners", "history",
                 "seating", "_sowings", "_moves")

    game: Game
    pits: tuple[int, ...]
    to_move: int
    captured: tuple[int, ...]
    opener: int
    owners: tuple[int, ...]
    history: tuple[Key, ...]
    #: who owns which pits and who moves after whom (a
    #: :class:`~mancala_spec.engine.games.base.Seating`, worked out from the owners)
    seating: Seating

    def __init__(self, game: Game, text: str) -> None:
        parsed = game.parse(text)
        for name in ("game", "pits", "to_move", "captured", "opener", "owners", "history",
                     "seating"):
            object.__setattr__(self, name, getattr(parsed, name))
        object.__setattr__(self, "_sowings", None)
        object.__setattr__(self, "_moves", None)

    @classmethod
    def _make(cls, game: Game, pits, to_move: int, captured, opener: int, seating: Seating,
              history, moves: tuple[int, ...] | None = None) -> Position:
        """Build without checks; for the engine, which only makes valid positions
        (and gives their legal *moves* if it knows them). Every sequence must
        be a tuple already; the pits' owners are those of *seating*."""
        self = object.__new__(_Unfinished)
        self.game = game
        self.pits = pits
        self.to_move = to_move
        self.captured = captured
        self.opener = opener
        self.owners = seating.owners
        self.history = history
        self.seating = seating
        self._sowings = None     # made when first needed: most positions never need it
        self._moves = moves
        self.__class__ = Position   # from here on immutable
        return self

    def __setattr__(self, name, value):
        raise AttributeError("Position is immutable; play() returns a new position")

    def __delattr__(self, name):
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
        """True once the game has ended."""
        return not self._legal() and self.game.is_over(self)

    @property
    def winner(self) -> int | None:
        """The winning player's index; ``None`` for a draw or a game not over."""
        return self.game.winner(self) if self.is_over else None

    def legal_moves(self) -> list[int]:
        """The pits the player to move may play, as sorted indices."""
        moves = self._moves
        return list(self._legal() if moves is None else moves)

    def _legal(self) -> tuple[int, ...]:
        """The legal moves, worked out once (a position never changes)."""
        moves = self._moves
        if moves is None:
            moves = self.game.moves(self)
            object.__setattr__(self, "_moves", moves)
        return moves

    # -- moving ----------------------------------------------------------------

    def play(self, pit: int | str) -> Position:
        """The position after playing *pit* (an index, or a name like ``"c"``).

        Raises :class:`~mancala_spec.errors.IllegalMoveError` (saying why) when
        the move is not legal here; this position is unchanged either way.
        """
        return self.trace(pit).position

    def trace(self, pit: int | str) -> Trace:
        """Play *pit* and return the move's events with the resulting position."""
        moves = self._moves
        if moves is None:
            moves = self._legal()
        index = pit if type(pit) is int and pit in moves else self._checked(pit)
        # the sowing worked out for the legality check, if any, is used up here
        sowings = self._sowings
        sowing = (sowings and sowings.pop(index, None)) or self.game.sow_move(self, index)
        after = self.game.settle(self, sowing)
        return Trace.recorded(self, index, sowing.records, after)

    def sowing(self, pit: int) -> Sowing | None:
        """The (cached) sowing of *pit* before the end-of-move rules, or ``None``
        if the sowing never ends. For the engine's own use: do not change it,
        and do not keep it, as :meth:`trace` takes it from the cache and goes on
        with it (the next call sows afresh)."""
        sowings = self._sowings
        if sowings is None:
            sowings = {}
            object.__setattr__(self, "_sowings", sowings)
        if pit not in sowings:
            sowings[pit] = self.game.sow_move(self, pit)
        return sowings[pit]

    def _checked(self, pit) -> int:
        """The index of *pit* (an index or a name such as ``"c"``) if it is a
        legal move; otherwise raise the error that says why it is not."""
        index = self._pit_index(pit)
        self._check_move(index)
        return index

    def _pit_index(self, pit: int | str) -> int:
        board = self.game.board
        if isinstance(pit, str):
            try:
                return board.pit(pit)
            except NotationError as error:
                raise IllegalMoveError(str(error).split(": ", 1)[-1]) from None
        if isinstance(pit, bool) or not isinstance(pit, int):
            raise IllegalMoveError(f"a move is a pit index or name, not {pit!r}")
        if not 0 <= pit < board.size:
            raise IllegalMoveError(f"no pit {pit}: pits are numbered 0 to {board.size - 1}")
        return pit

    def _check_move(self, pit: int) -> None:
        name = self.game.board.name(pit)
        player = self.game.player_name
        mover = player(self.to_move)
        if self.is_over:
            raise IllegalMoveError(f"the game is over: no move can be played (pit {name})")
        if self.owners[pit] != self.to_move:
            raise IllegalMoveError(
                f"pit {name} belongs to {player(self.owners[pit])}, but {mover} is to move")
        if self.pits[pit] == 0:
            raise IllegalMoveError(f"pit {name} is empty: a move must lift seeds")
        if pit not in self.game.legal_moves(self):
            raise IllegalMoveError(self.game.why_illegal(self, pit))

    # -- text ------------------------------------------------------------------

    def to_text(self) -> str:
        """The position in one line of notation (see :mod:`mancala_spec.notation`)."""
        from ..notation import format_position
        return format_position(self)

    def __repr__(self) -> str:
        return f"Position({self.game!r}, {self.to_text()!r})"

    def __str__(self) -> str:
        board = self.game.board
        n = board.pits_per_row
        north = range(2 * n - 1, n - 1, -1)
        south = range(n)

        def row(pits) -> str:
            return "".join(f"{self.pits[p]:>4}" for p in pits)

        def names(pits) -> str:
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

            def owner_row(pits) -> str:
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

    def _value(self):
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

    def __deepcopy__(self, memo) -> Position:
        return self

    def __reduce__(self):
        return (Position, (self.game, self.to_text()))


class _Unfinished:
    """A position being built by :meth:`Position._make`: the same slots as
    :class:`Position` but none of its guards, so its fields are set directly
    (several times faster than round :meth:`Position.__setattr__`). Built,
    it becomes a :class:`Position` by changing its class."""

    __slots__ = Position.__slots__


__all__ = ["Position", "NotationError"]

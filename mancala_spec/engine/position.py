"""Immutable positions.

A :class:`Position` is a value: :meth:`Position.play` returns a new position and
never changes the one it is called on. ``repr(pos)`` can be pasted back into
Python (after ``from mancala_spec import Position, get_game``; a position whose
captured counts play cannot reach, built with ``allow_unreachable=True``, says so
in its repr too) and ``str(pos)`` draws the board as South sees it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import InvalidPositionError, NotationError, shown
from .illegal import illegal_move
from .outcome import Outcome
from .reach import reachable_captures
from .text import format_position, parse_position
from .trace import Trace

if TYPE_CHECKING:  # pragma: no cover
    from .games.base import Game
    from .sowing import Sowing

Key = tuple[tuple[int, ...], int]


class Position:
    """A position of one game: pits, player to move, stores, opener, owners and
    the positions seen since the last capture (for the repetition rules); once
    the game is over, its :attr:`outcome`.

    Build one with :meth:`Game.start <mancala_spec.engine.games.base.Game.start>`,
    :meth:`Game.position <mancala_spec.engine.games.variant.Variant.position>`, or from text::

        Position(get_game("bakuk"), "6,6,6/6,6,6 S 0-0 opener=S")

    Captured counts that play cannot reach are refused
    (:class:`~mancala_spec.errors.InvalidPositionError`, ``field="captured"``)
    unless ``allow_unreachable=True`` is given, as with :meth:`Game.position
    <mancala_spec.engine.games.variant.Variant.position>`.
    """

    __slots__ = ("game", "pits", "to_move", "captured", "opener", "owners", "history",
                 "outcome", "_sowings", "_moves")

    game: Game
    pits: tuple[int, ...]
    to_move: int
    captured: tuple[int, ...]
    opener: int
    owners: tuple[int, ...]
    history: tuple[Key, ...]
    #: How the game ended (an :class:`~mancala_spec.engine.outcome.Outcome`),
    #: or ``None`` while it goes on.
    outcome: Outcome | None
    _sowings: dict[int, Sowing]
    _moves: tuple[int, ...] | None

    def __init__(self, game: Game, text: str, *, allow_unreachable: bool = False) -> None:
        if not callable(getattr(game, "parse", None)):
            raise InvalidPositionError(
                f"Position(game, text) needs a game (from get_game), not {shown(game)}",
                field="game")
        parsed = parse_position(game, text, allow_unreachable=allow_unreachable)
        self._set(game, parsed.pits, parsed.to_move, parsed.captured, parsed.opener,
                  parsed.owners, parsed.history, parsed.outcome)

    @classmethod
    def unchecked(cls, game: Game, pits: tuple[int, ...], to_move: int,
                  captured: tuple[int, ...], opener: int, owners: tuple[int, ...],
                  history: tuple[tuple[tuple[int, ...], int], ...] = (),
                  outcome: Outcome | None = None) -> Position:
        """A position built without any check, for the engine's own use (it only
        makes valid positions) and for tests and studies that need a board
        outside play. Every sequence must be a tuple. Everyone else builds
        positions with :meth:`Game.position
        <mancala_spec.engine.games.variant.Variant.position>`, which checks them."""
        self = object.__new__(cls)
        self._set(game, pits, to_move, captured, opener, owners, history, outcome)
        return self

    def _set(self, game: Game, pits: tuple[int, ...], to_move: int,
             captured: tuple[int, ...], opener: int, owners: tuple[int, ...],
             history: tuple[Key, ...], outcome: Outcome | None) -> None:
        set_field = object.__setattr__    # the only way in: Position.__setattr__ refuses
        set_field(self, "game", game)
        set_field(self, "pits", pits)
        set_field(self, "to_move", to_move)
        set_field(self, "captured", captured)
        set_field(self, "opener", opener)
        set_field(self, "owners", owners)
        set_field(self, "history", history)
        set_field(self, "outcome", outcome)
        set_field(self, "_sowings", {})   # sowings worked out so far (see sowing())
        set_field(self, "_moves", None)   # the legal moves, once worked out

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

    def legal_moves(self) -> list[int]:
        """The pits the player to move may play, as sorted indices."""
        moves = self._moves
        if moves is None:            # worked out once: a position never changes
            moves = self.game.moves_unchecked(self)
            object.__setattr__(self, "_moves", moves)
        return list(moves)

    # -- moving ----------------------------------------------------------------

    def play(self, pit: int | str) -> Position:
        """The position after playing *pit* (an index, or a name like ``"c"``).

        Raises :class:`~mancala_spec.errors.IllegalMoveError` (saying why) when
        the move is not legal here; this position is unchanged either way.
        """
        after: Position = self.trace(pit).position
        return after

    def trace(self, pit: int | str) -> Trace:
        """Play *pit* and return the move's events with the resulting position."""
        index = self.game.pit_index(pit)
        self.check_move(index)
        # the sowing worked out for the legality check, if any, is used up here
        sowing = self._sowings.pop(index, None) or self.game.sow_move(self, index)
        after = self.game.settle_unchecked(self, sowing)
        return Trace.of_sowing(self, index, sowing, after)

    def sowing(self, pit: int) -> Sowing:
        """The sowing of *pit* before the end-of-move rules (worked out once, as
        a legality check may need it); its ``endless`` is true if it never
        ends (``ba-awa-endless``), and it is then left unfinished. Do not
        change it, and do not keep it: :meth:`trace` takes it and goes on with
        it (the next call sows afresh)."""
        sowing = self._sowings.get(pit)
        if sowing is None:
            sowing = self._sowings[pit] = self.game.sow_move(self, pit)
        return sowing

    def check_move(self, pit: int) -> None:
        """Raise :class:`~mancala_spec.errors.IllegalMoveError`, saying why
        (:func:`~mancala_spec.engine.illegal.illegal_move`), if the pit index
        *pit* is not a legal move here."""
        if pit not in self.legal_moves():
            raise illegal_move(self, pit)

    # -- text ------------------------------------------------------------------

    def to_text(self) -> str:
        """The position in one line of notation (see :mod:`mancala_spec.notation`)."""
        return format_position(self)

    @property
    def reachable(self) -> bool:
        """Whether play can reach this position's captured counts
        (:func:`~mancala_spec.engine.reach.reachable_captures`): false only
        for a position built with ``allow_unreachable=True``, or played on from one."""
        try:
            reachable_captures(self.game, self.pits, self.captured, self.opener, self.owners)
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


def _restore(game: Game, text: str, outcome: Outcome | None) -> Position:
    pos = Position(game, text, allow_unreachable=True)    # it was built, so it was allowed
    return pos if outcome == pos.outcome else Position.unchecked(
        game, pos.pits, pos.to_move, pos.captured, pos.opener, pos.owners, pos.history, outcome)


__all__ = ["Position", "NotationError"]

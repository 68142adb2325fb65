"""What every game shares: options, position checks, and the move cycle.

A game subclass supplies the rules: the board, the start, which pits may be
played, how a move is sown (:meth:`Game.sow_move`), what happens after it
(:meth:`Game.settle`), when the game is over and who won. This base class only
validates input and wires those steps together.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from ...options import Option
from ..board import Board
from ...errors import InvalidPositionError, OptionError
from ..position import Key, Position
from ..sowing import Sowing, sowing_order


class Game:
    """Base class of the games. Get one with :func:`mancala_spec.get_game`."""

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    #: the game's options, as declared in :mod:`mancala_spec.options`
    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, **options: Any) -> None:
        known = {option.name: option for option in self.OPTIONS}
        for name, value in options.items():
            if name not in known:
                raise OptionError(
                    f"unknown option {name!r} for {self.name}; its options are: "
                    + ", ".join(sorted(known)))
            known[name].check(value)
        values = {name: options.get(name, option.default) for name, option in known.items()}
        self.options = MappingProxyType(values)
        #: The number of players (the ``players`` option): 2, or 3.
        self.players: int = values["players"]
        self.board = self.make_board()
        #: the :class:`~mancala_spec.engine.sowing.SowingOrder` of this board and its
        #: ``skip_origin`` option (every game has it)
        self.sowing_order = sowing_order(self.board.size, values["skip_origin"])
        self._seatings: dict[tuple[int, ...], Seating] = {}

    # -- identity --------------------------------------------------------------

    def __repr__(self) -> str:
        changed = [f", {k}={v!r}" for k, v in self.options.items()
                   if v != self.option(k).default]
        return f"get_game({self.name!r}{''.join(changed)})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Game) and type(other) is type(self)
                and dict(other.options) == dict(self.options))

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))

    def __reduce__(self):
        return (_rebuild, (self.name, dict(self.options)))

    @classmethod
    def option(cls, name: str) -> Option:
        """The :class:`Option` called *name*."""
        for option in cls.OPTIONS:
            if option.name == name:
                return option
        raise OptionError(f"unknown option {name!r} for {cls.name}")

    # -- what a game must supply -----------------------------------------------

    seeds_per_pit: ClassVar[int]

    def make_board(self) -> Board:
        raise NotImplementedError

    def legal_moves(self, pos: Position) -> tuple[int, ...]:
        """The pits *pos*'s player to move may play (the game is not over)."""
        raise NotImplementedError

    def sow_move(self, pos: Position, pit: int) -> Sowing | None:
        """Sow *pit* from *pos*; ``None`` if the sowing would never end."""
        raise NotImplementedError

    def settle(self, before: Position, sowing: Sowing) -> Position:
        """Apply the end-of-move rules to a finished sowing; return the next position."""
        raise NotImplementedError

    def is_over(self, pos: Position) -> bool:
        raise NotImplementedError

    def moves(self, pos: Position) -> tuple[int, ...]:
        """The legal moves of *pos*, none once the game is over. (A game may
        work this out more directly than from :meth:`is_over` and
        :meth:`legal_moves`, so long as the answer is the same.)"""
        return () if self.is_over(pos) else self.legal_moves(pos)

    def winner(self, pos: Position) -> int | None:
        raise NotImplementedError

    def check_settled(self, pos: Position) -> None:
        """Raise :class:`InvalidPositionError` if the end-of-move rules would
        already have changed *pos* (so it cannot occur between moves)."""

    def why_illegal(self, pos: Position, pit: int) -> str:
        """The reason a non-empty pit of the player to move is not a legal move."""
        return f"pit {self.board.name(pit)} is not a legal move"

    # -- shared helpers --------------------------------------------------------

    @property
    def total_seeds(self) -> int:
        """The seeds in play: the setup count times the number of pits."""
        return self.seeds_per_pit * self.board.size

    def seating(self, owners: tuple[int, ...]) -> Seating:
        """The :class:`Seating` of *owners* (remembered: owners change only
        between the games of a match, and a position passes its seating on to
        the positions after it)."""
        seating = self._seatings.get(owners)
        if seating is None:
            seating = self._seatings[owners] = Seating(self, tuple(owners))
        return seating

    def own_pits_with_seeds(self, pos: Position) -> tuple[int, ...]:
        """The player to move's pits that hold seeds, in index order."""
        return pos.seating.seeded(pos.pits, pos.to_move)

    def has_seeds(self, pos: Position, player: int) -> bool:
        """Whether any pit *player* owns holds seeds."""
        return bool(pos.seating.seeded(pos.pits, player))

    def turn_order(self, mover: int, owners: tuple[int, ...] | None = None) -> tuple[int, ...]:
        """Who may move after *mover*: the next player first, *mover* last.

        Turns follow the sowing direction (player 0, 1, 2, …), or run against
        it with the ``turn_order="reverse"`` option of three-player games. A
        player who owns no pit (eliminated in a match) is left out.
        """
        if owners is not None:
            return self.seating(owners).turns[mover]
        direction = -1 if self.options["turn_order"] == "reverse" else 1
        return tuple((mover + direction * step) % self.players
                     for step in range(1, self.players + 1))

    def history_after(self, before: Position, sowing: Sowing) -> tuple[Key, ...]:
        """Positions seen since the last capture, for the repetition rules: a
        capture makes every earlier position unreachable, so it clears them."""
        return () if sowing.took else before.history + ((before.pits, before.to_move),)

    def after_move(self, sowing: Sowing, to_move: int, before: Position,
                   history: tuple[Key, ...], moves: tuple[int, ...] | None = None) -> Position:
        """The position a sowing leaves, with *to_move* to play next (and its
        legal *moves*, if the end-of-move rules have worked them out already)."""
        return Position._make(self, tuple(sowing.pits), to_move, sowing.captured, before.opener,
                              before.seating, history, moves)

    def finish(self, sowing: Sowing, before: Position, reason: str, rule: str,
               taker: Callable[[int], int] | None) -> Position:
        """End the game: *taker* (pit → player), if given, takes every seed left."""
        if taker is not None:
            sowing.take_all(taker, rule)
        sowing.end_game(reason, rule)
        return self.after_move(sowing, self.turn_order(sowing.mover, sowing.owners)[0], before, ())

    def most_captured(self, pos: Position) -> int | None:
        """The player with strictly the most captured seeds, or ``None`` on a tie."""
        best = max(pos.captured)
        leaders = [player for player, seeds in enumerate(pos.captured) if seeds == best]
        return leaders[0] if len(leaders) == 1 else None

    # -- building positions ----------------------------------------------------

    def start(self, opener: int = 0, owners: Sequence[int] | None = None) -> Position:
        """The opening position: every pit holds :attr:`seeds_per_pit`, nothing
        is captured, and *opener* moves first. *owners* gives each pit's owner
        (in a match, the pits each player won); by default each player owns
        their own row (with three players, equal consecutive blocks)."""
        return self.position([self.seeds_per_pit] * self.board.size, to_move=opener,
                             captured=[0] * self.players, opener=opener, owners=owners)

    def position(self, pits: Sequence[int], to_move: int = 0,
                 captured: Sequence[int] | None = None, opener: int = 0,
                 owners: Sequence[int] | None = None,
                 history: Sequence[tuple[Sequence[int], int]] = ()) -> Position:
        """Any valid position of this game.

        *captured* defaults to whatever the board is missing from the game's
        total, split evenly (it must then split evenly); *owners* defaults to
        each player owning their own row; *history* lists the (pits, player to
        move) pairs seen since the last capture, oldest first.

        Raises :class:`~mancala_spec.errors.InvalidPositionError` saying what is wrong.
        """
        size = self.board.size
        pits = _seed_counts(pits, size, "pits")
        if captured is None:
            missing = self.total_seeds - sum(pits)
            if missing < 0 or missing % self.players:
                raise InvalidPositionError(
                    f"the board holds {sum(pits)} seeds of {self.total_seeds}: give captured= "
                    "explicitly")
            captured = [missing // self.players] * self.players
        captured = _seed_counts(captured, self.players, "captured")
        to_move = _player(to_move, self.players, "to_move")
        opener = _player(opener, self.players, "opener")
        if owners is None:
            owners = self.board.default_owners
        else:
            if isinstance(owners, (str, bytes)) or len(owners) != size:
                raise InvalidPositionError(f"owners must list {size} players, one per pit")
            owners = tuple(_player(owner, self.players, "an owner") for owner in owners)
        total = sum(pits) + sum(captured)
        if total != self.total_seeds:
            raise InvalidPositionError(
                f"seeds are not conserved: {sum(pits)} on the board + {sum(captured)} captured "
                f"= {total}, but {self.name} is played with {self.total_seeds}")
        keys = []
        for number, entry in enumerate(history, start=1):
            try:
                earlier_pits, earlier_player = entry
            except (TypeError, ValueError):
                raise InvalidPositionError(
                    f"history entry {number} must be a (pits, player) pair") from None
            earlier_pits = _seed_counts(earlier_pits, size, f"history entry {number}")
            earlier_player = _player(earlier_player, self.players, f"history entry {number}")
            if sum(earlier_pits) != sum(pits):
                raise InvalidPositionError(
                    f"history entry {number} holds {sum(earlier_pits)} seeds, but history only "
                    f"goes back to the last capture, so it must hold {sum(pits)} like the board")
            keys.append((earlier_pits, earlier_player))
        pos = Position._make(self, pits, to_move, captured, opener, self.seating(owners),
                             tuple(keys))
        self.check_settled(pos)
        return pos

    def parse(self, text: str) -> Position:
        """The position written as *text* in our one-line notation."""
        from ...notation import parse_position
        return parse_position(self, text)

    def player_letter(self, player: int) -> str:
        """The player's letter in notation: 'S' or 'N' ('S', 'E' or 'N' with three players)."""
        return self.board.player_letters[player]

    def player_name(self, player: int) -> str:
        """'South' or 'North' ('South', 'East' or 'North' with three players)."""
        return self.board.player_names[player]


class Seating:
    """Who owns which pits and who moves after whom, for one assignment of
    pits to owners (see :meth:`Game.seating`)."""

    __slots__ = ("owners", "owned", "turns")

    def __init__(self, game: Game, owners: tuple[int, ...]) -> None:
        #: each pit's owner
        self.owners = owners
        #: ``owned[player]``: the pits *player* owns, in index order
        self.owned = tuple(tuple(pit for pit, owner in enumerate(owners) if owner == player)
                           for player in range(game.players))
        #: ``turns[mover]``: who may move after *mover* (:meth:`Game.turn_order`),
        #: leaving out a player who owns no pit
        self.turns = tuple(tuple(player for player in game.turn_order(mover)
                                 if player in owners or player == mover)
                           for mover in range(game.players))

    def seeded(self, pits, player: int) -> tuple[int, ...]:
        """The pits of *player* that hold seeds on *pits*, in index order."""
        return tuple([pit for pit in self.owned[player] if pits[pit]])


def _rebuild(name: str, options: dict[str, Any]) -> Game:
    from . import get_game
    return get_game(name, **options)


def _seed_counts(values: Any, length: int, what: str) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InvalidPositionError(f"{what} must be a sequence of {length} seed counts")
    if len(values) != length:
        raise InvalidPositionError(f"{what} must have {length} entries, not {len(values)}")
    for index, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidPositionError(f"{what}[{index}] must be a whole number, not {value!r}")
        if value < 0:
            raise InvalidPositionError(f"{what}[{index}] is negative ({value})")
    return tuple(values)


def _player(value: Any, players: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise InvalidPositionError(
            f"{what} must be a player index from 0 to {players - 1}, not {value!r}")
    return value

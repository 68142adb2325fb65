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

from ...catalogue import implements
from ...errors import IllegalMoveError, InvalidPositionError, NotationError, OptionError
from ...options import Option
from ..board import Board
from ..position import Key, Position
from ..sowing import Sowing, SowingOrder, sowing_order
from ..text import parse_position


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
        self.check_options(values)
        self.options = MappingProxyType(values)
        #: The number of players (the ``players`` option): 2, or 3.
        self.players: int = values["players"]
        self.board = self.make_board()

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

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), dict(self.options)))

    @classmethod
    def option(cls, name: str) -> Option:
        """The :class:`Option` called *name*."""
        for option in cls.OPTIONS:
            if option.name == name:
                return option
        raise OptionError(f"unknown option {name!r} for {cls.name}", game=cls.name, option=name)

    def check_options(self, values: dict[str, Any]) -> None:
        """Raise :class:`~mancala_spec.errors.OptionError`, saying why, if the
        options *values* (each valid on its own) do not go together. Every
        combination does, unless a game says otherwise."""

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

    # -- shared rules and helpers ----------------------------------------------

    @implements("ba-awa-sow", "ba-awa-origin", "bakuk-sow", "bakuk-origin")
    def next_pit(self, pit: int, origin: int) -> int:
        """Where the seed after one dropped in *pit* goes, in a lap lifted from
        *origin*: the next pit counter-clockwise (a, b, c … then A, B, C …
        then a again). A lap long enough to come round to *origin* drops a
        seed there like anywhere else; with the ``skip_origin`` option it
        passes over *origin* to the pit after it."""
        size = self.board.size
        after = (pit + 1) % size                  # the next pit counter-clockwise
        if after == origin and self.options["skip_origin"]:
            after = (after + 1) % size            # skip the origin: the pit after it
        return after

    @implements("bakuk-choose", "bakuk-three-players")
    def pits_with_seeds(self, pos: Position | Sowing, player: int) -> tuple[int, ...]:
        """The pits *player* owns (their row; with three players, or in a match,
        the pits they control) that hold seeds, in index order, on the board of
        *pos* (a position, or a move's sowing)."""
        pits = pos.pits
        return tuple([pit for pit, owner in enumerate(pos.owners)
                      if owner == player and pits[pit] > 0])

    def choice_pits(self, pos: Position, player: int) -> tuple[int, ...]:
        """The pits *player* chooses a move from, empty or not: the pits they own."""
        return tuple(pit for pit, owner in enumerate(pos.owners) if owner == player)

    def why_not_yours(self, pos: Position, pit: int) -> str:
        """Why *pit*, not among :meth:`choice_pits` of the player to move, is not
        theirs to choose: another player owns it."""
        return (f"pit {self.board.name(pit)} belongs to {self.player_name(pos.owners[pit])}, "
                f"but {self.player_name(pos.to_move)} is to move")

    @implements("ba-awa-turns", "ba-awa-three-turns", "bakuk-turns", "bakuk-three-turns",
                "ba-awa-match-elimination")
    def turn_order(self, mover: int, owners: Sequence[int] | None = None) -> tuple[int, ...]:
        """Who may move after *mover*: the next player first, *mover* last.

        Turns follow the sowing direction: South, North (three players: South,
        East, North), or run against it with the ``turn_order="reverse"``
        option of three-player games. Given the pits' *owners*, a player who
        owns no pit (eliminated in a match) is left out.
        """
        direction = -1 if self.options["turn_order"] == "reverse" else 1
        order = [(mover + direction * step) % self.players for step in range(1, self.players + 1)]
        if owners is not None:
            order = [player for player in order if player in owners or player == mover]
        return tuple(order)

    @property
    def total_seeds(self) -> int:
        """The seeds in play: the setup count times the number of pits."""
        return self.seeds_per_pit * self.board.size

    @property
    def sowing_order(self) -> SowingOrder:
        """:meth:`next_pit` as a table (a :class:`~mancala_spec.engine.sowing.SowingOrder`),
        for the fast kernel and the analysis."""
        return sowing_order(self.board.size, self.options["skip_origin"])

    def own_pits_with_seeds(self, pos: Position) -> tuple[int, ...]:
        """The player to move's pits that hold seeds, in index order."""
        return self.pits_with_seeds(pos, pos.to_move)

    def has_seeds(self, pos: Position | Sowing, player: int) -> bool:
        """Whether any pit *player* owns holds seeds."""
        return bool(self.pits_with_seeds(pos, player))

    def pit_index(self, pit: int | str) -> int:
        """The index of the pit *pit* names, as a move: an index, or a name
        such as ``"c"``. Raises :class:`~mancala_spec.errors.IllegalMoveError`
        for anything that is not a pit of this board."""
        board = self.board
        if isinstance(pit, str):
            try:
                return board.pit(pit)
            except NotationError as error:
                raise IllegalMoveError(error.message, pit=pit, reason="no-such-pit") from None
        if isinstance(pit, bool) or not isinstance(pit, int):
            raise IllegalMoveError(f"a move is a pit index or name, not {pit!r}",
                                   pit=pit, reason="no-such-pit")
        if not 0 <= pit < board.size:
            raise IllegalMoveError(f"no pit {pit}: pits are numbered 0 to {board.size - 1}",
                                   pit=pit, reason="no-such-pit")
        return pit

    @implements("ba-awa-repetition", "bakuk-repetition")
    def history_after(self, before: Position, sowing: Sowing) -> tuple[Key, ...]:
        """Positions seen since the last capture, for the repetition rules: a
        capture takes seeds off the board for good, so no earlier position can
        recur, and it clears them; otherwise the position before the move joins them."""
        if sowing.took:
            return ()
        return before.history + ((before.pits, before.to_move),)

    def after_move(self, sowing: Sowing, to_move: int, before: Position,
                   history: tuple[Key, ...]) -> Position:
        """The position a sowing leaves, with *to_move* to play next."""
        return Position.unchecked(self, tuple(sowing.pits), to_move, tuple(sowing.captured),
                                  before.opener, before.owners, history)

    def finish(self, sowing: Sowing, before: Position, reason: str, rule: str,
               taker: Callable[[int], int] | None) -> Position:
        """End the game: *taker* (pit → player), if given, takes every seed left."""
        if taker is not None:
            sowing.take_all(taker, rule)
        sowing.end_game(reason, rule)
        return self.after_move(sowing, self.turn_order(sowing.mover, sowing.owners)[0], before, ())

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
        pits = _seed_counts(pits, size, "pits", "pits")
        if captured is None:
            missing = self.total_seeds - sum(pits)
            if missing < 0 or missing % self.players:
                raise InvalidPositionError(
                    f"the board holds {sum(pits)} seeds of {self.total_seeds}: give captured= "
                    "explicitly", field="captured")
            captured = [missing // self.players] * self.players
        captured = _seed_counts(captured, self.players, "captured", "captured")
        to_move = _player(to_move, self.players, "to_move", "to_move")
        opener = _player(opener, self.players, "opener", "opener")
        if owners is None:
            owners = self.board.default_owners
        else:
            if isinstance(owners, (str, bytes)) or len(owners) != size:
                raise InvalidPositionError(f"owners must list {size} players, one per pit",
                                           field="owners")
            owners = tuple(_player(owner, self.players, "an owner", "owners") for owner in owners)
        total = sum(pits) + sum(captured)
        if total != self.total_seeds:
            raise InvalidPositionError(
                f"seeds are not conserved: {sum(pits)} on the board + {sum(captured)} captured "
                f"= {total}, but {self.name} is played with {self.total_seeds}")
        if isinstance(history, (str, bytes)) or not isinstance(history, Sequence):
            raise InvalidPositionError("history must be a sequence of (pits, player) pairs",
                                       field="history")
        keys: dict[Key, int] = {}       # each entry's number: a repeat is found in constant time
        for number, entry in enumerate(history, start=1):
            try:
                earlier_pits, earlier_player = entry
            except (TypeError, ValueError):
                raise InvalidPositionError(
                    f"history entry {number} must be a (pits, player) pair",
                    field="history") from None
            earlier_pits = _seed_counts(earlier_pits, size, f"history entry {number}", "history")
            earlier_player = _player(earlier_player, self.players, f"history entry {number}",
                                     "history")
            if sum(earlier_pits) != sum(pits):
                raise InvalidPositionError(
                    f"history entry {number} holds {sum(earlier_pits)} seeds, but history only "
                    f"goes back to the last capture, so it must hold {sum(pits)} like the board",
                    field="history")
            key = (earlier_pits, earlier_player)
            if key in keys:
                raise InvalidPositionError(
                    f"history entry {number} repeats entry {keys[key]}, but the game "
                    "ends when a position recurs, so no position is seen twice "
                    "(the repetition rule)", field="history")
            keys[key] = number
        pos = Position.unchecked(self, pits, to_move, captured, opener, owners, tuple(keys))
        self.check_settled(pos)
        return pos

    def parse(self, text: str) -> Position:
        """The position written as *text* in our one-line notation."""
        return parse_position(self, text)

    def player_letter(self, player: int) -> str:
        """The player's letter in notation: 'S' or 'N' ('S', 'E' or 'N' with three players)."""
        return self.board.player_letters[player]

    def player_name(self, player: int) -> str:
        """'South' or 'North' ('South', 'East' or 'North' with three players)."""
        return self.board.player_names[player]


def _rebuild(cls: type[Game], options: dict[str, Any]) -> Game:
    return cls(**options)


def _seed_counts(values: Any, length: int, what: str, field: str) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InvalidPositionError(f"{what} must be a sequence of {length} seed counts",
                                   field=field)
    if len(values) != length:
        raise InvalidPositionError(f"{what} must have {length} entries, not {len(values)}",
                                   field=field)
    for index, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidPositionError(f"{what}[{index}] must be a whole number, not {value!r}",
                                       field=field)
        if value < 0:
            raise InvalidPositionError(f"{what}[{index}] is negative ({value})", field=field)
    return tuple(values)


def _player(value: Any, players: int, what: str, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise InvalidPositionError(
            f"{what} must be a player index from 0 to {players - 1}, not {value!r}", field=field)
    return value

"""What every game shares: options, the move cycle, and the rules both games
state alike.

A game subclass supplies its rules: the board, the setup, which pits may be
played, how a move is sown (:meth:`Game.sow_move`) and what happens after it
(:meth:`Game.conclude`, the one place a game decides whether and how it ends).
This base class wires those steps together (:meth:`Game.settle`) and holds the
rules the two games state in the same words (turns, the winner): each such
function is tagged with both games' rule.
"""
from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from ...catalogue import implements
from ...errors import OptionError, shown
from ...options import Option, Repetition, TurnOrder, plain
from ..board import Board
from ..checks import checked_position
from ..outcome import Outcome, Reason
from ..position import Key, Position
from ..sowing import Sowing
from ..text import parse_position

#: How a game ends, as a game's ending rule finds it: why, and the rule's ID.
Ending = tuple[Reason, str]


class Game:
    """Base class of the games. Get one with :func:`mancala_spec.get_game`."""

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    #: the game's options, as declared in :mod:`mancala_spec.options`
    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, **options: Any) -> None:
        known = {option.name: option for option in self.OPTIONS}
        values: dict[str, Any] = {name: option.default for name, option in known.items()}
        for name, value in options.items():
            if name not in known:
                raise OptionError(
                    f"unknown option {shown(name)} for {self.name}; its options are: "
                    + ", ".join(sorted(known)), game=self.name, option=name, value=value)
            values[name] = known[name].check(value)     # a word becomes its enum member
        self.check_options(values)
        self.options = MappingProxyType(values)
        #: The number of players (the ``players`` option): 2, or 3.
        self.players: int = values["players"]
        self.board = self.make_board()

    # -- identity --------------------------------------------------------------

    def __repr__(self) -> str:
        changed = [f", {k}={plain(v)!r}" for k, v in self.options.items()
                   if v != self.option(k).default]
        return f"get_game({self.name!r}{''.join(changed)})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Game) and type(other) is type(self)
                and dict(other.options) == dict(self.options))

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), {k: plain(v) for k, v in self.options.items()}))

    @classmethod
    def option(cls, name: str) -> Option:
        """The :class:`Option` called *name*."""
        for option in cls.OPTIONS:
            if option.name == name:
                return option
        raise OptionError(f"unknown option {shown(name)} for {cls.name}", game=cls.name,
                          option=name, choices=tuple(option.name for option in cls.OPTIONS))

    def check_options(self, values: dict[str, Any]) -> None:
        """Raise :class:`~mancala_spec.errors.OptionError`, saying why, if the
        options *values* (each valid on its own) do not go together. Every
        combination does, unless a game says otherwise."""

    # -- what a game must supply -----------------------------------------------

    seeds_per_pit: ClassVar[int]

    def make_board(self) -> Board:
        raise NotImplementedError

    def setup(self) -> tuple[list[int], list[int]]:
        """The seeds in each pit and each player's store at the start."""
        raise NotImplementedError

    def legal_moves(self, pos: Position) -> tuple[int, ...]:
        """The pits *pos*'s player to move may play (the game is not over)."""
        raise NotImplementedError

    def sow_move(self, pos: Position, pit: int) -> Sowing:
        """Sow *pit* from *pos* (a sowing marked ``endless`` if it never ends)."""
        raise NotImplementedError

    def conclude(self, sowing: Sowing, pos: Position) -> Position:
        """The end-of-move rules, on the position *pos* a move leaves (the next
        player to move): the position to play on, or the finished one. The
        one place a game decides whether and how it ends: it also decides
        the positions built by hand (:func:`~mancala_spec.engine.checks.settled`)."""
        raise NotImplementedError

    # -- the move cycle ----------------------------------------------------------

    def moves(self, pos: Position) -> tuple[int, ...]:
        """The legal moves of *pos*, none once the game is over."""
        return () if pos.outcome is not None else self.legal_moves(pos)

    def settle(self, before: Position, sowing: Sowing) -> Position:
        """After a move's sowing: the turn passes (:meth:`next_turn`), then the
        game's end-of-move rules (:meth:`conclude`)."""
        return self.conclude(sowing, self.next_turn(before, sowing))

    @implements("ba-awa-turns", "bakuk-turns")
    def next_turn(self, before: Position, sowing: Sowing) -> Position:
        """The position a move leaves: the players move alternately, one move
        per turn, so the next player (:meth:`next_player`) is to move."""
        return Position.unchecked(self, tuple(sowing.pits), self.next_player(sowing.mover,
                                                                             sowing.owners),
                                  tuple(sowing.captured), before.opener, before.owners,
                                  self.history_after(before, sowing))

    @implements("ba-awa-three-turns", "bakuk-three-turns")
    def next_player(self, player: int, owners: Sequence[int]) -> int:
        """The player whose turn comes after *player*'s: with three, in the
        sowing direction (South, East, North), or against it with
        ``turn_order="reverse"``. A player who owns no pit is out (in a match:
        ``ba-awa-match-elimination``) and is passed by."""
        step = -1 if self.options["turn_order"] is TurnOrder.REVERSE else 1
        following = (player + step) % self.players
        while following not in owners and following != player:
            following = (following + step) % self.players
        return following

    def history_after(self, before: Position, sowing: Sowing) -> tuple[Key, ...]:
        """Positions seen since the last capture, for the repetition rules: a
        capture takes seeds off the board for good, so no earlier position can
        recur, and it clears them; otherwise the position before the move joins them."""
        if sowing.took or self.options.get("repetition") is Repetition.PLAY_ON:
            return ()                 # with repetition="play-on", no position is looked back to
        return before.history + ((before.pits, before.to_move),)

    def end_game(self, sowing: Sowing, pos: Position, ending: Ending) -> Position:
        """The finished position: *pos* (the position the move left) after the
        ending's takes, with its :class:`~mancala_spec.engine.outcome.Outcome`.
        Takes are captures, so they clear the positions seen."""
        reason, rule = ending
        sowing.end_game(reason, rule)
        captured = tuple(sowing.captured)
        taken = sum(sowing.pits) < pos.seeds_on_board
        return Position.unchecked(self, tuple(sowing.pits), pos.to_move, captured, pos.opener,
                                  pos.owners, () if taken else pos.history,
                                  Outcome(reason, rule, self.winner(captured)))

    @implements("ba-awa-winner", "bakuk-winner", "bakuk-draw")
    def winner(self, captured: Sequence[int]) -> int | None:
        """The player who has captured the most seeds (the end-of-game takes
        included); ``None`` for a draw, when the most is shared."""
        most = max(captured)
        leaders = [player for player, seeds in enumerate(captured) if seeds == most]
        return leaders[0] if len(leaders) == 1 else None

    def turn_order(self, mover: int, owners: Sequence[int] | None = None) -> tuple[int, ...]:
        """Every player in the order they move after *mover*, *mover* last
        (:meth:`next_player` over a whole round; by default everyone owns a pit)."""
        owners = range(self.players) if owners is None else owners
        order = [self.next_player(mover, owners)]
        while order[-1] != mover and len(order) < self.players:
            order.append(self.next_player(order[-1], owners))
        if order[-1] != mover:
            order.append(mover)
        return tuple(order)

    # -- sowing ------------------------------------------------------------------

    @implements("ba-awa-origin", "bakuk-origin")
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

    def pits_with_seeds(self, pos: Position | Sowing, player: int) -> tuple[int, ...]:
        """The pits *player* owns that hold seeds, in index order, on the board
        of *pos* (a position, or a move's sowing)."""
        pits = pos.pits
        return tuple([pit for pit, owner in enumerate(pos.owners)
                      if owner == player and pits[pit] > 0])

    def own_pits_with_seeds(self, pos: Position) -> tuple[int, ...]:
        """The player to move's pits that hold seeds, in index order."""
        return self.pits_with_seeds(pos, pos.to_move)

    def choice_pits(self, pos: Position, player: int) -> tuple[int, ...]:
        """The pits *player* chooses a move from, empty or not: the pits they own."""
        return tuple(pit for pit, owner in enumerate(pos.owners) if owner == player)

    @property
    def total_seeds(self) -> int:
        """The seeds in play: the setup count times the number of pits."""
        return self.seeds_per_pit * self.board.size

    # -- building positions ----------------------------------------------------

    @implements("ba-awa-turns", "bakuk-turns")
    def start(self, opener: int = 0, owners: Sequence[int] | None = None) -> Position:
        """The opening position: the game's :meth:`setup`, and *opener* (South
        unless another is given) moves first. *owners* gives each pit's owner
        (in a match, the pits each player won); by default each player owns
        their own row (with three players, equal consecutive blocks)."""
        pits, captured = self.setup()
        return self.position(pits, to_move=opener, captured=captured, opener=opener,
                             owners=owners)

    def position(self, pits: Sequence[int], to_move: int = 0,
                 captured: Sequence[int] | None = None, opener: int = 0,
                 owners: Sequence[int] | None = None,
                 history: Sequence[tuple[Sequence[int], int]] = ()) -> Position:
        """Any valid position of this game, finished or not.

        *captured* defaults to whatever the board is missing from the game's
        total, split evenly (it must then split evenly); *owners* defaults to
        each player owning their own row; *history* lists the (pits, player to
        move) pairs seen since the last capture, oldest first.

        Raises :class:`~mancala_spec.errors.InvalidPositionError` saying what is
        wrong (see :mod:`mancala_spec.engine.checks`).
        """
        return checked_position(self, pits, to_move, captured, opener, owners, history)

    def parse(self, text: str) -> Position:
        """The position written as *text* in our one-line notation."""
        return parse_position(self, text)

    def pit_index(self, pit: int | str) -> int:
        """The index of the pit *pit* names, as a move (:meth:`Board.pit_index
        <mancala_spec.engine.board.Board.pit_index>`)."""
        return self.board.pit_index(pit)

    # -- names and wording --------------------------------------------------------

    def player_letter(self, player: int) -> str:
        """The player's letter in notation (:meth:`Board.player_letter
        <mancala_spec.engine.board.Board.player_letter>`)."""
        return self.board.player_letter(player)

    def player_name(self, player: int) -> str:
        """The player's name (:meth:`Board.player_name
        <mancala_spec.engine.board.Board.player_name>`)."""
        return self.board.player_name(player)

    def why_not_yours(self, pos: Position, pit: int) -> str:
        """Why *pit*, not among :meth:`choice_pits` of the player to move, is not
        theirs to choose: another player owns it."""
        return (f"pit {self.board.name(pit)} belongs to {self.player_name(pos.owners[pit])}, "
                f"but {self.player_name(pos.to_move)} is to move")

    def why_illegal(self, pos: Position, pit: int) -> str:
        """The reason a non-empty pit of the player to move is not a legal move."""
        return f"pit {self.board.name(pit)} is not a legal move"


def _rebuild(cls: type[Game], options: dict[str, Any]) -> Game:
    return cls(**options)

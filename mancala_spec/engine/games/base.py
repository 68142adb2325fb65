"""The rules every game shares: the move cycle, and the rules both games state
alike.

A game subclass supplies its rules: the board, the setup, which pits may be
played, how a move is sown (:meth:`Game.sow_move`) and what happens after it
(:meth:`Game.conclude`, the one place a game decides whether and how it ends).
This base class wires those steps together (:meth:`Game.settle`) and holds the
rules the two games state in the same words (turns, the winner): each such
function is tagged with both games' rule. What is not a rule lives elsewhere:
option values, equality and pickling in :mod:`~mancala_spec.engine.games.variant`
(the base of :class:`Game`, with the entry points that build, read and name);
the checks on hand-built positions in :mod:`~mancala_spec.engine.checks`; why a
move is illegal, in words, in :mod:`~mancala_spec.engine.illegal`; names and
notation on :class:`~mancala_spec.engine.board.Board`.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ...catalogue import implements
from ...errors import IllegalMoveError, InvalidPositionError, not_a_position, shown
from ...options import Repetition, TurnOrder
from ..board import Board
from ..outcome import Outcome, Reason
from ..position import Key, Position
from ..sowing import Sowing
from .variant import Variant

#: How a game ends, as a game's ending rule finds it: why, and the rule's ID.
Ending = tuple[Reason, str]
#: (:meth:`Game.check_step` given no sowing to check)
NOT_GIVEN: Any = object()


class Game(Variant):
    """Base class of the games. Get one with :func:`mancala_spec.get_game`.

    It holds the rules: the steps a game must supply, the move cycle that
    composes them, and the rules both games state alike. What a game is besides
    its rules (its option values, as a value) is :class:`Variant`, its base."""

    def __init__(self, **options: Any) -> None:
        """A game with these *options* (:class:`Variant`), which go together
        (:meth:`check_options`), on its board (:meth:`make_board`)."""
        super().__init__(**options)
        self.check_options(dict(self.options))
        self.board = self.make_board()

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
        if pos.__class__ is not Position or pos.game is not self:
            self.check_step(pos)
        return () if pos.outcome is not None else self.legal_moves(pos)

    def settle(self, before: Position, sowing: Sowing) -> Position:
        """After a move's sowing: the turn passes (:meth:`next_turn`), then the
        game's end-of-move rules (:meth:`conclude`)."""
        if (before.__class__ is not Position or before.game is not self
                or sowing.__class__ is not Sowing or sowing.game is not self):
            self.check_step(before, sowing=sowing)
        return self.conclude(sowing, self.next_turn(before, sowing))

    # (what a position calls for itself: its own game and its own sowing, so
    # the checks above, for a caller's values, are skipped)
    def moves_unchecked(self, pos: Position) -> tuple[int, ...]:
        """:meth:`moves` without :meth:`check_step`: for a position's own calls,
        whose position is of this game by construction."""
        return () if pos.outcome is not None else self.legal_moves(pos)

    def settle_unchecked(self, before: Position, sowing: Sowing) -> Position:
        """:meth:`settle` without :meth:`check_step`: for a position's own calls,
        whose position and sowing are of this game by construction."""
        return self.conclude(sowing, self.next_turn(before, sowing))

    def check_step(self, pos: object, pit: object = 0, sowing: object = NOT_GIVEN) -> None:
        """Raise :class:`~mancala_spec.errors.InvalidPositionError`
        (``field="game"``) unless *pos* is a position of this game (this game or
        an equal one: the same rules and options), and *sowing*, if given, a
        sowing of this game too; :class:`~mancala_spec.errors.IllegalMoveError`
        (``reason="no-such-pit"``) unless *pit* is a pit index of its board.
        The steps of a move (:meth:`moves`, :meth:`legal_moves`,
        :meth:`sow_move`, :meth:`settle`) call it when a quick look finds
        something other than what a position's own moves pass them: another
        game's position would be read with this game's board and rules."""
        if not isinstance(pos, Position):
            raise not_a_position("pos", pos)
        if pos.game is not self and pos.game != self:
            raise InvalidPositionError(f"this is a position of {pos.game!r}, not of {self!r}: "
                                       f"play it with its own game (pos.game)", field="game")
        if sowing is not NOT_GIVEN and (not isinstance(sowing, Sowing) or sowing.game != self
                                   or len(sowing.pits) != len(pos.pits)):
            raise InvalidPositionError(f"sowing must be a sowing of {self!r} (pos.sowing(pit) "
                                       f"gives one), not {shown(sowing)}", field="game")
        if type(pit) is not int or not 0 <= pit < len(pos.pits):
            raise IllegalMoveError(f"no pit {shown(pit)} on this board: a move is a pit index "
                                   f"from 0 to {len(pos.pits) - 1}", pit=pit,
                                   reason="no-such-pit")

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

    def choice_pits(self, pos: Position, player: int) -> tuple[int, ...]:
        """The pits *player* chooses a move from, empty or not: the pits they own."""
        return tuple(pit for pit, owner in enumerate(pos.owners) if owner == player)

    @property
    def total_seeds(self) -> int:
        """The seeds in play: the setup count times the number of pits."""
        return self.seeds_per_pit * self.board.size

    # -- the opening -----------------------------------------------------------

    @implements("ba-awa-turns", "bakuk-turns")
    def start(self, opener: int = 0, owners: Sequence[int] | None = None) -> Position:
        """The opening position: the game's :meth:`setup`, and *opener* (South
        unless another is given) moves first. *owners* gives each pit's owner
        (in a match, the pits each player won); by default each player owns
        their own row (with three players, equal consecutive blocks)."""
        pits, captured = self.setup()
        return self.position(pits, to_move=opener, captured=captured, opener=opener,
                             owners=owners)

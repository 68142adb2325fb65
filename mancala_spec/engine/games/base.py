"""What every game is, and the rules every game shares.

A :class:`Game` is a value: equal to, hashed and pickled like another of the
same name and options, and shown as the :func:`~mancala_spec.get_game` call
that makes it. A subclass supplies its rules: the board, which pits may be
played, how a move is sown (:meth:`Game.sow_move`) and what happens after it
(:meth:`Game.after_move`, the one place a game decides whether and how it
ends), and what is its own about positions built by hand: its capture unit,
who may take at the end, why a position cannot stand. This class wires the
steps together (:meth:`Game.trace`) and holds those the games state alike,
parameterised by the game where they differ (:meth:`Game.pass_over`,
:meth:`Game.decided`). What knows no game about a position built by hand is
in :mod:`~mancala_spec.engine.checks`.
"""
from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from ...catalogue import implements
from ...errors import IllegalMoveError, InvalidPositionError, OptionError, not_a, shown
from ...options import Option, Repetition, TurnOrder, plain
from .. import checks
from ..board import Board
from ..checks import NOT_GIVEN
from ..outcome import Outcome, Reason
from ..position import Key, Position
from ..sowing import Sowing, WouldChange
from ..text import parse_position
from ..trace import Trace

#: How a game ends, as a game's ending rule finds it: why, and the rule's ID.
Ending = tuple[Reason, str]


class Game:
    """Base class of the games. Get one with :func:`mancala_spec.get_game`."""

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    #: the game's options, as declared in :mod:`mancala_spec.options`
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    seeds_per_pit: ClassVar[int]
    #: What every capture made during play takes: a whole number of this unit
    #: (the takes that end a game are the only others) …
    capture_unit: ClassVar[int] = 1
    #: … and the rules that make it so, in words.
    capture_rules: ClassVar[str] = ""
    #: Why a position built by hand cannot stand between moves, by the first
    #: thing the end-of-move rules would do to it: ``"take"`` seeds or
    #: ``"pass"`` the turn, and the rule that would do it. ``{seeds}``,
    #: ``{mover}``, ``{next}`` are filled in (:meth:`check_standing`).
    CANNOT_STAND: ClassVar[dict[tuple[str, str], str]] = {}
    board: Board

    def __init__(self, **options: Any) -> None:
        """A game with these *options*, each checked on its own (a word becomes
        its enum member; those not given take their defaults) and together
        (:meth:`check_options`), on its board (:meth:`make_board`)."""
        known = {option.name: option for option in self.OPTIONS}
        values: dict[str, Any] = {name: option.default for name, option in known.items()}
        for name, value in options.items():
            if name not in known:
                raise OptionError(
                    f"unknown option {shown(name)} for {self.name}; its options are: "
                    + ", ".join(sorted(known)), game=self.name, option=name, value=value)
            values[name] = known[name].check(value)
        self.options = MappingProxyType(values)
        #: The number of players (the ``players`` option): 2, or 3.
        self.players: int = values["players"]
        self.check_options(values)
        self.board = self.make_board()
        #: the position last asked about, its legal moves once worked out, its sowings
        self._last: tuple[Position | None, list[tuple[int, ...]], dict[int, Sowing]] = (
            None, [], {})

    def check_options(self, values: dict[str, Any]) -> None:
        """Raise :class:`~mancala_spec.errors.OptionError`, saying why, if the
        options *values* (each valid on its own) do not go together (by default they do)."""

    @classmethod
    def option(cls, name: str) -> Option:
        """The :class:`~mancala_spec.options.Option` called *name*."""
        for option in cls.OPTIONS:
            if option.name == name:
                return option
        raise OptionError(f"unknown option {shown(name)} for {cls.name}", game=cls.name,
                          option=name, choices=tuple(option.name for option in cls.OPTIONS))

    # -- a game as a value ---------------------------------------------------------

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

    # -- what a game must supply -----------------------------------------------

    def make_board(self) -> Board:
        raise NotImplementedError

    def legal_moves(self, pos: Position) -> tuple[int, ...]:
        """The pits *pos*'s player to move may play (the game is not over)."""
        raise NotImplementedError

    def sow_move(self, pos: Position, pit: int) -> Sowing:
        """Sow *pit* from *pos* (a sowing marked ``endless`` if it never ends)."""
        raise NotImplementedError

    def after_move(self, s: Sowing, pos: Position) -> Position:
        """The end-of-move rules, on the position *pos* a move leaves (the next
        player to move): the position to play on, or the ended one. The one
        place a game decides whether and how it ends: it also decides the
        positions built by hand (:meth:`check_standing`)."""
        raise NotImplementedError

    # -- the move cycle ----------------------------------------------------------

    def moves(self, pos: Position) -> tuple[int, ...]:
        """The legal moves of *pos*, none once the game is over."""
        if pos.__class__ is not Position or pos.game is not self:
            self.check_step(pos)
        if pos.outcome is not None:
            return ()
        last = self._last                    # (asked again as a move is checked, and played)
        if last[0] is not pos:
            last = self._last = (pos, [], {})
        moves = last[1]
        if not moves:
            moves.append(self.legal_moves(pos))
        return moves[0]

    def trace(self, pos: Position, pit: int | str) -> Trace:
        """Play *pit* (an index, or a name like ``"c"``) from *pos*: the move's
        events and the position it leads to. Raises
        :class:`~mancala_spec.errors.IllegalMoveError`, saying why
        (:meth:`illegal_move`), if it is not a legal move of *pos*."""
        index = self.pit_index(pit)
        if index not in self.moves(pos):
            raise self.illegal_move(pos, index)
        last = self._last
        sowing = (last[2].pop(index, None) if last[0] is pos else None) or self.sow_move(pos, index)
        return Trace.of_sowing(pos, index, sowing, self.after_move(sowing,
                                                                   self.next_turn(pos, sowing)))

    def sowing(self, pos: Position, pit: int) -> Sowing:
        """The sowing of *pit* from *pos*, worked out once for the position last
        asked about: a legality check may sow every pit (``ba-awa-endless``), and
        the move played then takes its own (:meth:`trace`) instead of sowing again."""
        sown = self._last_for(pos)[2]
        if pit not in sown:
            sown[pit] = self.sow_move(pos, pit)
        return sown[pit]

    def _last_for(self, pos: Position) -> tuple[Position | None, list[tuple[int, ...]],
                                                  dict[int, Sowing]]:
        if self._last[0] is not pos:
            self._last = (pos, [], {})
        return self._last

    def complete(self, before: Position, sowing: Sowing) -> Position:
        """After a move's sowing from *before*: the turn passes (:meth:`next_turn`),
        then the game's end-of-move rules (:meth:`after_move`)."""
        if (before.__class__ is not Position or before.game is not self
                or sowing.__class__ is not Sowing or sowing.game is not self):
            self.check_step(before, sowing=sowing)
        return self.after_move(sowing, self.next_turn(before, sowing))

    def check_step(self, pos: object, pit: object = 0, sowing: object = NOT_GIVEN) -> None:
        """:func:`~mancala_spec.engine.checks.check_step`: the steps of a move call
        it when a quick look finds other than what a position's own moves pass them."""
        checks.check_step(self, pos, pit, sowing)

    def illegal_move(self, pos: Position, pit: int) -> IllegalMoveError:
        """The error saying why the pit index *pit*, not a legal move of *pos*,
        is not, in the order a player would ask: the game is over; the pit is
        not theirs to choose from (:meth:`why_not_yours`); it is empty; or a
        rule forbids it (:meth:`why_illegal`)."""
        name = self.board.name(pit)
        if pos.is_over:
            return IllegalMoveError(f"the game is over: no move can be played (pit {name})",
                                    pit=pit, reason="game-over")
        if pit not in self.choice_pits(pos, pos.to_move):
            return IllegalMoveError(self.why_not_yours(pos, pit), pit=pit, reason="not-yours")
        if pos.pits[pit] == 0:
            return IllegalMoveError(f"pit {name} is empty: a move must lift seeds",
                                    pit=pit, reason="empty")
        return IllegalMoveError(self.why_illegal(pos, pit), pit=pit, reason="rule")

    def why_not_yours(self, pos: Position, pit: int) -> str:
        """Why *pit*, not among the pits the player to move chooses from, is not
        theirs to choose: another player owns it."""
        return (f"pit {self.board.name(pit)} belongs to {self.player_name(pos.owners[pit])}, "
                f"but {self.player_name(pos.to_move)} is to move")

    def why_illegal(self, pos: Position, pit: int) -> str:
        """Why a non-empty pit of the player to move is not a legal move."""
        return f"pit {self.board.name(pit)} is not a legal move"

    @implements("ba-awa-turns", "bakuk-turns")
    def next_turn(self, before: Position, sowing: Sowing) -> Position:
        """The position a move leaves: the players move alternately, one move
        per turn, so the next player (:meth:`next_player`) is to move."""
        return Position.unchecked(
            self, pits=tuple(sowing.pits), to_move=self.next_player(sowing.mover, sowing.owners),
            captured=tuple(sowing.captured), opener=before.opener, owners=before.owners,
            history=self.history_after(before, sowing))

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

    def end(self, s: Sowing, pos: Position, ending: Ending) -> Position:
        """The game ends: *pos* (the position the move left) after the ending's
        takes, with its :class:`~mancala_spec.engine.outcome.Outcome`. Takes
        are captures, so they clear the positions seen."""
        reason, rule = ending
        s.end_game(reason, rule)
        captured = tuple(s.captured)
        taken = sum(s.pits) < pos.seeds_on_board
        return pos.replace(pits=tuple(s.pits), captured=captured,
                           history=() if taken else pos.history,
                           outcome=Outcome(reason, rule, self.winner(captured)))

    @implements("ba-awa-winner", "bakuk-winner")
    def winner(self, captured: Sequence[int]) -> int | None:
        """The player who has captured the most seeds (the end-of-game takes
        included), if only one has (else :meth:`draw`)."""
        most = max(captured)
        leaders = [player for player, seeds in enumerate(captured) if seeds == most]
        return leaders[0] if not self.draw(leaders) else None

    @implements("bakuk-draw")
    def draw(self, leaders: Sequence[int]) -> bool:
        """A draw when the most seeds captured is shared by the *leaders*."""
        return len(leaders) > 1

    def turn_order(self, mover: int, owners: Sequence[int] | None = None) -> tuple[int, ...]:
        """Every player in the order they move after *mover*, *mover* last
        (:meth:`next_player` over a whole round; by default everyone owns a pit)."""
        owners = range(self.players) if owners is None else owners
        order = [self.next_player(mover, owners)]
        while order[-1] != mover and len(order) < self.players:
            order.append(self.next_player(order[-1], owners))
        return tuple(order) if order[-1] == mover else (*order, mover)

    # -- the steps both games take alike, each game saying when -------------------

    def passes(self) -> bool:
        """Whether a player to move who cannot move passes (an option of each game)."""
        return False

    def can_move(self, pos: Position, player: int) -> bool:
        """Whether *player* could move if it were their turn in *pos*: they own
        a pit that holds seeds."""
        pits = pos.pits
        return any(pits[pit] for pit, owner in enumerate(pos.owners) if owner == player)

    @implements("ba-awa-no-move", "bakuk-exhausted")
    def pass_over(self, s: Sowing, pos: Position, rule: str) -> Position:
        """If the game's players pass (:meth:`passes`) and the player to move
        cannot (:meth:`can_move`), the turn passes to the next player who can,
        each passed over by *rule* (if nobody can, nothing changes here, and
        the game's ending rule ends the game)."""
        if not self.passes() or self.can_move(pos, pos.to_move):
            return pos
        passed, player = [pos.to_move], self.next_player(pos.to_move, pos.owners)
        while player not in passed:             # each player once (the mover may own no pit)
            if self.can_move(pos, player):
                for each in passed:
                    s.pass_turn(each, rule)
                return pos.replace(to_move=player)
            passed.append(player)
            player = self.next_player(player, pos.owners)
        return pos

    def nothing_left_to_decide(self, pos: Position) -> bool:
        """Whether *pos* leaves nothing to decide, whoever has captured what."""
        return False

    @implements("ba-awa-winner", "bakuk-end")
    def decided(self, pos: Position, rule: str) -> Ending | None:
        """With ``decided`` (as EveryBoard plays Ba-awa and MancalaGames plays
        Bakuk), the game ends by *rule* as soon as its winner is decided: a
        player has captured more than half the seeds, or each has half, or the
        game says nothing is left to decide (:meth:`nothing_left_to_decide`)."""
        if not self.options["decided"]:
            return None
        half = self.total_seeds / 2
        if (max(pos.captured) > half or all(c == half for c in pos.captured)
                or self.nothing_left_to_decide(pos)):
            return "decided", rule
        return None

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
        return tuple([pit for pit, owner in enumerate(pos.owners) if owner == player and pits[pit]])

    def choice_pits(self, pos: Position, player: int) -> tuple[int, ...]:
        """The pits *player* chooses a move from, empty or not: the pits they own."""
        return tuple(pit for pit, owner in enumerate(pos.owners) if owner == player)

    @property
    def total_seeds(self) -> int:
        """The seeds in play: the setup count times the number of pits."""
        return self.seeds_per_pit * self.board.size

    # -- the opening -----------------------------------------------------------

    @implements("ba-awa-setup", "bakuk-setup")
    def setup(self) -> tuple[list[int], list[int]]:
        """The game's seeds in every pit; the stores empty: nobody has captured anything."""
        return [self.seeds_per_pit] * self.board.size, [0] * self.players

    @implements("ba-awa-turns", "bakuk-turns")
    def start(self, opener: int = 0, owners: Sequence[int] | None = None) -> Position:
        """The opening position: the game's :meth:`setup`, and *opener* (South
        unless another is given) moves first. *owners* gives each pit's owner
        (in a match, the pits each player won); by default each player owns
        their own row (with three players, equal consecutive blocks)."""
        pits, captured = self.setup()
        return self.position(pits, to_move=opener, captured=captured, opener=opener,
                             owners=owners)

    # -- positions built by hand -------------------------------------------------

    def position(self, pits: Sequence[int], to_move: int = 0,
                 captured: Sequence[int] | None = None, opener: int = 0,
                 owners: Sequence[int] | None = None,
                 history: Sequence[tuple[Sequence[int], int]] = (), *,
                 allow_unreachable: bool = False) -> Position:
        """Any position of this game that play can reach, finished or not.

        *captured* defaults to whatever the board is missing from the game's
        total, split in capture units as evenly as they go, South first
        (:meth:`default_captured`: Ba-awa's 36 missing seeds are 20 and 16);
        *owners* defaults to each player owning their own row; *history* lists
        the (pits, player to move) pairs seen since the last capture, oldest first.

        Raises :class:`~mancala_spec.errors.InvalidPositionError` saying what is
        wrong: the data (:mod:`~mancala_spec.engine.checks`), seeds not
        conserved, a position the end-of-move rules would not leave as it is
        (:meth:`check_standing`), and captured counts no game can reach
        (``field="captured"``: Ba-awa captures only fours, Bakuk only even
        numbers, until the take that ends the game; :meth:`check_reachable`).
        *allow_unreachable* accepts them, as long as the seeds are conserved:
        for studies and tests that build a board outside play on purpose.
        """
        if type(allow_unreachable) is not bool:       # ("no" would allow them silently)
            raise not_a("allow_unreachable", allow_unreachable, "True or False")
        pos = checks.checked_position(self, pits, to_move=to_move, captured=captured,
                                      opener=opener, owners=owners)
        if not allow_unreachable:
            self.check_reachable(pos)
        history = checks.history_keys(history, size=self.board.size, players=self.players,
                                      seeds=pos.seeds_on_board)
        return self.check_standing(pos.replace(history=history))

    def default_captured(self, missing: int) -> tuple[int, ...]:
        """The captured counts :meth:`position` gives when none are given: the
        *missing* seeds in the game's capture units, as evenly as they go
        (:func:`~mancala_spec.engine.checks.split_in_units`), or why they cannot be.

        >>> import mancala_spec as ms
        >>> ms.get_game("ba-awa").default_captured(36), ms.get_game("ba-awa").default_captured(40)
        ((20, 16), (20, 20))
        """
        return checks.captured_by_default(missing, unit=self.capture_unit,
                                          players=self.players, total=self.total_seeds)

    def end_takers(self, opener: int, owners: Sequence[int]) -> frozenset[int]:
        """The players who may have taken seeds as the game ended (takes not
        made of :attr:`capture_unit`): nobody, unless the game says otherwise."""
        return frozenset()

    def check_reachable(self, pos: Position) -> Position:
        """*pos*, if play can reach its captured counts: while seeds are on the
        board each count is a multiple of :attr:`capture_unit`, and once it is
        empty each count but the :meth:`end_takers`' still is; else
        :class:`~mancala_spec.errors.InvalidPositionError` (``field="captured"``)
        saying why (:func:`~mancala_spec.engine.checks.check_captures`).

        :meth:`position` checks every position built by hand so, unless
        ``allow_unreachable=True`` is given: this is for positions built with it.

        >>> import mancala_spec as ms
        >>> bakuk = ms.get_game("bakuk")
        >>> bakuk.check_reachable(bakuk.parse("0,0,0/2,0,0 S 20-14")).captured
        (20, 14)
        >>> study = bakuk.parse("0,0,0/1,0,0 S 20-15", allow_unreachable=True)
        >>> try:
        ...     bakuk.check_reachable(study)
        ... except ms.InvalidPositionError as error:
        ...     print(error.field, error.message[:40])
        captured North has captured 15, which play cannot
        """
        if not isinstance(pos, Position):
            raise InvalidPositionError(f"check_reachable takes a Position, not {shown(pos)}",
                                       field="game")
        self.check_captured(pos.pits, pos.captured, opener=pos.opener, owners=pos.owners)
        return pos

    def check_captured(self, pits: Sequence[int], captured: Sequence[int], *, opener: int,
                       owners: Sequence[int]) -> None:
        """:meth:`check_reachable` on a position's fields."""
        checks.check_captures(self.board, unit=self.capture_unit, why=self.capture_rules,
                              takers=self.end_takers(opener, owners), pits=pits,
                              captured=captured)

    def check_standing(self, pos: Position) -> Position:
        """*pos* as it stands between moves, with its outcome if the game has ended.

        Runs the game's end-of-move rules (:meth:`after_move`) on it: a position
        can stand between moves only if they leave it as it is. If they would
        take seeds or pass the turn, it cannot occur: raises
        :class:`~mancala_spec.errors.InvalidPositionError` naming the rule, in the
        game's words (:attr:`CANNOT_STAND`); if they end the game without changing
        it, the position has ended, with their outcome."""
        try:
            after = self.after_move(Sowing(pos, checking=True), pos)
        except WouldChange as change:
            seeds = pos.seeds_on_board
            following = self.after_move(Sowing(pos), pos).to_move
            words = self.CANNOT_STAND.get((change.change, change.rule), str(change))
            raise InvalidPositionError(words.format(
                seeds=f"{seeds} seed{'s' if seeds != 1 else ''}",
                mover=self.player_name(pos.to_move), next=self.player_name(following))) from None
        return after if after.outcome else pos

    def parse(self, text: str, *, allow_unreachable: bool = False) -> Position:
        """The position written as *text* in our one-line notation, checked as
        :meth:`position` checks it (*allow_unreachable* as there)."""
        return parse_position(self, text, allow_unreachable=allow_unreachable)

    # -- names ---------------------------------------------------------------------

    def pit_index(self, pit: int | str) -> int:
        """The index of the pit *pit* names, as a move (:meth:`Board.pit_index
        <mancala_spec.engine.board.Board.pit_index>`)."""
        return self.board.pit_index(pit)

    def player_letter(self, player: int) -> str:
        """The player's letter in notation (:meth:`Board.player_letter
        <mancala_spec.engine.board.Board.player_letter>`)."""
        return self.board.player_letter(player)

    def player_name(self, player: int) -> str:
        """The player's name (:meth:`Board.player_name
        <mancala_spec.engine.board.Board.player_name>`)."""
        return self.board.player_name(player)


def _rebuild(cls: type[Game], options: dict[str, Any]) -> Game:
    return cls(**options)

"""Ba-awa match play: a series of games in which captured seeds win pits.

After each game every player gets one pit for every four seeds captured
(``ba-awa-match-setup``); the match ends when a player controls the target
number of pits, twelve by default (``ba-awa-match-aim``). Which pits change
hands, who opens the next game, and what eliminates a player are editorial
completions (``ba-awa-match-allocation``, ``ba-awa-match-opener``,
``ba-awa-match-elimination``).

A :class:`Match` is a value, like a position: :meth:`Match.play` and
:meth:`Match.next_game` return a new match.

>>> import mancala_spec as ms
>>> match = ms.Match(ms.get_game("ba-awa"), target=10)
>>> match.position.owners == match.game.board.row_owners
True
>>> match.game_over, match.is_over
(False, False)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from ...catalogue import implements
from ...errors import IllegalMoveError, InvalidPositionError, OptionError, shown
from ...options import Allocation, FinalTake, Opener, match_settings
from ..position import Position
from .ba_awa import BaAwa

SEEDS_PER_PIT_WON = 4
#: The rules under which seeds are taken as a game ends (not captured as fours).
FINAL_TAKE_RULES = ("ba-awa-eight", "ba-awa-no-move", "ba-awa-repetition")
#: The settings of a match (keywords of :class:`Match`), as opposed to the game's
#: options; declared, with their values, in :mod:`mancala_spec.options`.
SETTINGS = tuple(setting.name for setting in match_settings("ba-awa"))


@dataclass(frozen=True)
class PlayedGame:
    """One game of a match: where it started and the pits played."""

    start: Position
    moves: tuple[int, ...]

    @cached_property
    def final(self) -> Position:
        """The position after the last move (worked out once)."""
        position = self.start
        for pit in self.moves:
            position = position.play(pit)
        return position


@dataclass(frozen=True)
class Match:
    """A Ba-awa match. ``Match(game, target=12, opener="alternate", allocation="extend")``.

    *game* is a Ba-awa game (two or three players, any options); *target* the
    number of pits that wins the match (12, or 10 or 11 as usually played);
    *opener* who opens each later game (``"alternate"``, ``"winner"``,
    ``"loser"``); *allocation* which pits a player receives (``"extend"`` or
    ``"consecutive"``); *final_take* whether the seeds taken as a game ends
    count towards the next game's pits (``"counted"`` or ``"uncounted"``). The
    first game starts from the usual opening, South to move. Raises
    :class:`~mancala_spec.errors.OptionError` for a bad setting.
    """

    game: BaAwa
    target: int = 12
    opener: Opener | str = Opener.ALTERNATE            # a word becomes its member
    allocation: Allocation | str = Allocation.EXTEND
    final_take: FinalTake | str = FinalTake.COUNTED
    played: tuple[PlayedGame, ...] = ()
    #: the game being played (by default the first game, from the usual opening)
    current: PlayedGame = None       # type: ignore[assignment]  # set by __post_init__
    #: where the current game stands (by default worked out from *current*)
    position: Position = None        # type: ignore[assignment]  # set by __post_init__

    def __post_init__(self) -> None:
        if not isinstance(self.game, BaAwa):
            raise OptionError(f"match play is a Ba-awa rule; got {shown(self.game)}", option="game",
                              value=self.game)
        for setting in match_settings("ba-awa"):     # a word becomes its enum member
            object.__setattr__(self, setting.name, setting.check(getattr(self, setting.name)))
        self._check_parts()
        if self.current is None:
            start = self.game.start()
            object.__setattr__(self, "current", PlayedGame(start, ()))
            object.__setattr__(self, "position", start)
        elif self.position is None:
            object.__setattr__(self, "position", self.current.final)

    def _check_parts(self) -> None:
        """Refuse, with an :class:`~mancala_spec.errors.OptionError` naming
        the argument (``option``), *played* that is not a tuple of whole games
        of this match's game, *current* that is not a game of it (a
        :class:`PlayedGame` of legal moves), and *position* that is not where
        *current* stands. Each game's moves are played once (:attr:`PlayedGame.final`
        is kept), so a match played move by move is not played again."""
        game = self.game

        def refuse(name: str, value: Any, why: str) -> OptionError:
            return OptionError(f"{name} must be {why}, not {shown(value)}", option=name,
                               value=value)

        def final(name: str, played: Any) -> Position:
            if not isinstance(played, PlayedGame):
                raise refuse(name, played, "a PlayedGame of this match")
            if not isinstance(played.start, Position) or played.start.game != game:
                raise refuse(name, played, f"a game of {game!r}")
            if type(played.moves) is not tuple or any(type(m) is not int for m in played.moves):
                raise refuse(name, played, "a game whose moves are a tuple of pit indices")
            try:
                return played.final
            except (IllegalMoveError, InvalidPositionError) as error:
                raise OptionError(f"{name}: {error.message}", option=name,
                                  value=played) from None

        if type(self.played) is not tuple:
            raise refuse("played", self.played, "a tuple of the games played (PlayedGame)")
        for number, played in enumerate(self.played, start=1):
            if not final("played", played).is_over:
                raise OptionError(f"played: game {number} is not over", option="played",
                                  value=played)
        if self.position is not None and (not isinstance(self.position, Position)
                                          or self.position.game != game):
            raise refuse("position", self.position, f"a position of {game!r}")
        if self.current is None:
            if self.position is not None:
                raise refuse("position", self.position, "None without current (the game "
                             "being played)")
            return
        here = final("current", self.current)
        if self.position is not None and (not isinstance(self.position, Position)
                                          or self.position != here):
            raise refuse("position", self.position, "where current stands (current.final)")

    @classmethod
    def starting_from(cls, position: Position, **settings: Any) -> Match:
        """A match whose current game starts from *position* (for instance a
        late position of a game, to study how the match goes on from there).
        *settings* are ``target``, ``opener``, ``allocation`` and ``final_take``."""
        if not isinstance(position, Position):
            raise InvalidPositionError(f"a match starts from a Position, not {shown(position)}",
                                       field="game")
        if not isinstance(position.game, BaAwa):
            raise OptionError(f"match play is a Ba-awa rule; got {shown(position.game)}",
                              option="game", value=position.game)
        return cls(position.game, **settings, current=PlayedGame(position, ()), position=position)

    # -- the current game ---------------------------------------------------

    @property
    def game_over(self) -> bool:
        """Whether the current game has ended."""
        return self.position.is_over

    def play(self, pit: int | str) -> Match:
        """The match after playing *pit* in the current game."""
        if self.game_over:
            raise IllegalMoveError(
                "this game of the match is over: start the next with next_game()")
        after = self.position.play(pit)
        index = self.game.pit_index(pit)
        current = PlayedGame(self.current.start, self.current.moves + (index,))
        current.__dict__["final"] = after          # (known: not played again)
        return replace(self, current=current, position=after)

    # -- between games ------------------------------------------------------

    @implements("ba-awa-match-setup")
    def earned(self) -> tuple[int, ...]:
        """Pits each player wins for the next game: one per four seeds captured.

        Captures in Ba-awa come in fours, so the pits always add up to twelve.
        (With ``no_move="owners"`` a player can end with a remainder, and with
        ``final_take="uncounted"`` the final take wins no pits; the pits left
        over then go one at a time to the players still in the game, largest
        remainder first, ties in turn order from the opener, and round again
        while pits are left: the twelve are always shared out.)
        """
        self._require_game_over()
        captured = self.counted_captures()
        pits = [seeds // SEEDS_PER_PIT_WON for seeds in captured]
        spare = self.game.board.size - sum(pits)
        order = [self.position.opener]                        # turn order from the opener
        while len(order) < self.game.players:
            order.append(self.game.next_player(order[-1], range(self.game.players)))
        in_game = [p for p in order if p in self.position.owners]   # not eliminated
        by_remainder = sorted(in_game, key=lambda p: -(captured[p] % SEEDS_PER_PIT_WON))
        for handed in range(spare):
            pits[by_remainder[handed % len(by_remainder)]] += 1
        return tuple(pits)

    @implements("ba-awa-match-setup")
    def counted_captures(self) -> tuple[int, ...]:
        """The seeds each player captured in the game just ended, as they count
        for the next game's pits: all of them by default (``final_take="counted"``);
        with ``final_take="uncounted"``, without the seeds taken as the game ended
        (the opener's last eight, ``ba-awa-eight``, or what remains when the game
        ends otherwise), which the sources call taken, not captured."""
        captured = list(self.position.captured)
        if self.final_take is FinalTake.UNCOUNTED and self.current.moves:
            before = PlayedGame(self.current.start, self.current.moves[:-1]).final
            for capture in before.trace(self.current.moves[-1]).captures:
                if capture.rule in FINAL_TAKE_RULES:
                    captured[capture.player] -= capture.seeds
        return tuple(captured)

    @property
    @implements("ba-awa-match-elimination")
    def eliminated(self) -> tuple[int, ...]:
        """Players who control no pit in the current game: out of the match."""
        return tuple(p for p in range(self.game.players) if p not in self.position.owners)

    @property
    def is_over(self) -> bool:
        """Over once a game has ended with a player winning the target number of
        pits (:meth:`aim_reached`), or with every other player eliminated
        (:meth:`one_left`), which is the same."""
        if not self.game_over:
            return False
        earned = self.earned()
        return self.aim_reached(earned) or self.one_left(earned)

    @implements("ba-awa-match-aim")
    def aim_reached(self, earned: Sequence[int]) -> bool:
        """Whether a player has won the target number of pits (*earned*)."""
        return max(earned) >= self.target

    @implements("ba-awa-match-elimination")
    def one_left(self, earned: Sequence[int]) -> bool:
        """Whether every player but one has won no pit (*earned*), so is out."""
        return sum(1 for n in earned if n) <= 1

    @property
    def winner(self) -> int | None:
        """The player who won the match, or ``None`` while it goes on."""
        if not self.is_over:
            return None
        earned = self.earned()
        return earned.index(max(earned))

    @implements("ba-awa-match-allocation")
    def allocate(self, earned: Sequence[int]) -> tuple[int, ...]:
        """The default owner of each pit for the next game, given *earned* pits.

        ``"extend"`` with two players: the player who earned more than a row
        keeps their row and extends counter-clockwise from its start into the
        opponent's row; the other keeps the rest. Otherwise (three players, or
        ``"consecutive"``): consecutive blocks in sowing order from pit a, in
        player order.
        """
        board = self.game.board
        n = board.pits_per_row
        if self.allocation is Allocation.EXTEND and self.game.players == 2:
            owners = list(board.row_owners)
            for player, count in enumerate(earned):
                if count > n:
                    first = player * n
                    for step in range(count):
                        owners[(first + step) % board.size] = player
                    for pit in range(board.size):
                        if not any((first + s) % board.size == pit for s in range(count)):
                            owners[pit] = 1 - player
            return tuple(owners)
        return board.consecutive_owners(earned)

    @implements("ba-awa-match-opener")
    def next_opener(self, owners: Sequence[int]) -> int:
        """Who opens the next game: by default the next player in turn order
        after this game's opener who still controls pits; with ``"winner"`` or
        ``"loser"``, the player who captured the most or the fewest seeds
        (among those still in the match), alternating on a tie."""
        final = self.position
        active = [p for p in range(self.game.players) if p in owners]
        if self.opener is not Opener.ALTERNATE:
            best = (max if self.opener is Opener.WINNER else min)(final.captured[p]
                                                                  for p in active)
            chosen = [p for p in active if final.captured[p] == best]
            if len(chosen) == 1:
                return chosen[0]
        return self.game.next_player(final.opener, active)

    def next_game(self, owners: Sequence[int] | None = None) -> Match:
        """The match with the next game started.

        Each pit again holds four seeds; *owners* (one player per pit) is the
        allocation the players chose, checked to give each player exactly the
        pits they earned; by default :meth:`allocate` decides.
        """
        self._require_game_over()
        if self.is_over:
            raise IllegalMoveError(f"the match is over: {self.game.player_name(self.winner or 0)} "
                                   "won it")
        earned = self.earned()
        if owners is None:
            owners = self.allocate(earned)
        else:
            owners = self._check_allocation(owners, earned)
        start = self.game.start(opener=self.next_opener(owners), owners=owners)
        return replace(self, played=self.played + (self.current,),
                       current=PlayedGame(start, ()), position=start)

    def _check_allocation(self, owners: Sequence[int], earned: tuple[int, ...]) -> tuple[int, ...]:
        size = self.game.board.size
        if (isinstance(owners, (str, bytes)) or not isinstance(owners, Sequence)
                or len(owners) != size):
            raise InvalidPositionError(f"an allocation names an owner for each of the {size} "
                                       f"pits, not {shown(owners)}", field="owners")
        players = self.game.players
        if any(isinstance(o, bool) or not isinstance(o, int) or not 0 <= o < players
               for o in owners):
            raise InvalidPositionError(f"owners must be player indices from 0 to {players - 1}")
        for player, count in enumerate(earned):
            if list(owners).count(player) != count:
                raise InvalidPositionError(
                    f"{self.game.player_name(player)} earned {count} pits "
                    f"(captured {self.counted_captures()[player]} seeds) but the allocation gives "
                    f"them {list(owners).count(player)} (rule ba-awa-match-setup)")
        return tuple(owners)

    def _require_game_over(self) -> None:
        if not self.game_over:
            raise IllegalMoveError("the current game of the match is not over yet")

    # -- records ------------------------------------------------------------

    @property
    def games(self) -> tuple[PlayedGame, ...]:
        """Every game of the match so far, the current one last."""
        return self.played + (self.current,)

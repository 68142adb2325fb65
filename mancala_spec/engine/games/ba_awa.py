"""Ba-awa (Twi/Akan, Ghana; also Anenam, Nam-Nam).

Each method below implements the catalogue rules named in its ``@implements``
line, and its steps follow the rule statements in order.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...catalogue import implements
from ...errors import InvalidPositionError, OptionError
from ...options import game_options
from ..board import Board
from ..position import Position
from ..sowing import Sowing
from ..trace import Capture
from .base import Game

FOUR = 4
EIGHT = 8
#: the laps after which MancalaGames stops a sowing (``endless="cap-75"``)
LAP_CAP = 75


class BaAwa(Game):
    """Ba-awa: 2 × 6 pits, four seeds each; multi-lap relay sowing; fours captured.

    Its options and their values are declared in :mod:`mancala_spec.options`.
    """

    name = "ba-awa"
    title = "Ba-awa"
    aliases = ("anenam", "nam-nam", "baawa")
    seeds_per_pit = 4
    OPTIONS = game_options("ba-awa")

    @implements("ba-awa-board", "ba-awa-stores")
    def make_board(self) -> Board:
        """Two rows of six playing pits, each row owned by the player in front of
        it. The optional end stores are not pits (nothing is sown into them):
        they are the players' captured counts."""
        return Board(pits_per_row=6, players=self.players)

    @implements("ba-awa-setup", "ba-awa-turns")
    def start(self, opener: int = 0, owners: Sequence[int] | None = None) -> Position:
        """Four seeds in every pit, stores empty; *opener* (South by default) moves first."""
        return self.position([self.seeds_per_pit] * self.board.size, to_move=opener,
                             captured=[0] * self.players, opener=opener, owners=owners)

    @implements("ba-awa-choose")
    def check_options(self, values: dict[str, Any]) -> None:
        """``choose="row"`` needs two players: with three, East has no row of
        their own (each player starts with four pits, and the rows are South's
        and North's), so "a pit of their side" names nothing for East."""
        if values["choose"] == "row" and values["players"] != 2:
            raise OptionError(
                f'option choose="row" of ba-awa needs two players, not players='
                f'{values["players"]}: with three there is no row of East\'s own to choose '
                'from (rule ba-awa-choose); use choose="owned"', game=self.name,
                option="choose", value="row")

    @implements("ba-awa-choose", "ba-awa-three-players")
    def choice_pits(self, pos: Position, player: int) -> tuple[int, ...]:
        """The pits *player* chooses from, empty or not: "one of their pits".

        With ``choose="owned"`` (the default), the pits they own: their row in a
        single two-player game; with three players, or in a match, the pits
        they control. With ``choose="row"``, the pits of their own row, whoever
        owns them now (the Catalan "of their side" read literally)."""
        if self.options["choose"] == "row":
            return tuple(pit for pit in range(self.board.size)
                         if self.board.row_owner(pit) == player)
        return tuple(pit for pit, owner in enumerate(pos.owners) if owner == player)

    def why_not_yours(self, pos: Position, pit: int) -> str:
        if self.options["choose"] == "row":
            row = self.player_name(self.board.row_owner(pit))
            return (f"pit {self.board.name(pit)} is in {row}'s row, but "
                    f'{self.player_name(pos.to_move)} is to move (choose="row": a player '
                    "chooses from their own row)")
        return super().why_not_yours(pos, pit)

    @implements("ba-awa-choose", "ba-awa-endless", "ba-awa-three-players")
    def legal_moves(self, pos: Position) -> tuple[int, ...]:
        """A pit the player to move chooses from (:meth:`choice_pits`) that
        holds seeds — unless, with ``endless="illegal"``, its relay sowing
        would never end."""
        return tuple(pit for pit in self.choice_pits(pos, pos.to_move)
                     if pos.pits[pit] > 0 and pos.sowing(pit) is not None)

    def why_illegal(self, pos: Position, pit: int) -> str:
        return (f"pit {self.board.name(pit)} starts a relay sowing that never ends: a lap "
                "would start again from a board and pit already seen in this move "
                "(rule ba-awa-endless)")

    @implements("ba-awa-sow", "ba-awa-relay", "ba-awa-sowing-end", "ba-awa-mover-four",
                "ba-awa-endless")
    def sow_move(self, pos: Position, pit: int) -> Sowing | None:
        """Sow *pit*, lap after lap, until the sowing ends:

        1. lift every seed of the chosen pit and sow a lap (``ba-awa-sow``);
        2. if the lap's last seed made exactly four, the mover captures them
           and the sowing ends (``ba-awa-mover-four``);
        3. if it landed in an empty pit, the sowing ends (``ba-awa-sowing-end``);
        4. otherwise lift that pit's seeds, the last one included, and sow a
           new lap from the next pit (``ba-awa-relay``);
        5. a lap that would start from a board and pit already seen in this
           move would repeat forever: return ``None`` (``endless="illegal"``)
           or stop there, the seeds staying put (``endless="stop"``).
        """
        s = Sowing(pos)
        seen = {(pos.pits, pit)}
        seeds = s.pick_up(pit, "ba-awa-sow")
        rule = "ba-awa-sow"
        while True:
            last, count = self.sow_lap(s, pit, seeds, rule)
            if count == FOUR:
                s.capture(last, s.mover, "ba-awa-mover-four")
                s.end_move("four", "ba-awa-mover-four")
                return s
            if count == 1:                  # the pit was empty before this seed
                s.end_move("empty-pit", "ba-awa-sowing-end")
                return s
            if self.lap_cap_reached(s):     # endless="cap-75" (MancalaGames' reading)
                s.end_move("lap-cap", "ba-awa-endless")
                return s
            state = (tuple(s.pits), last)
            if state in seen and self.options["endless"] != "cap-75":
                if self.options["endless"] == "illegal":
                    return None
                s.end_move("endless-stopped", "ba-awa-endless")
                return s
            seen.add(state)
            pit, rule = last, "ba-awa-relay"
            seeds = s.relay(pit, rule)

    @implements("ba-awa-sow", "ba-awa-origin", "ba-awa-owner-four", "ba-awa-three-players")
    def sow_lap(self, s: Sowing, origin: int, seeds: int, rule: str) -> tuple[int, int]:
        """Sow *seeds* seeds lifted from *origin*, one into each following pit
        counter-clockwise (passing over *origin* with ``skip_origin``: see
        :meth:`~mancala_spec.engine.games.base.Game.next_pit`). A seed other
        than the last that makes its pit hold exactly four gives those four to
        the pit's owner at once, whoever is moving, and the lap goes on.
        Return the pit of the last seed and its count."""
        pit = origin
        for left in range(seeds - 1, -1, -1):     # seeds still in hand after this one
            pit = self.next_pit(pit, origin)
            count = s.drop(pit, rule)
            if count == FOUR and left > 0:
                s.capture(pit, s.owners[pit], "ba-awa-owner-four")
        return pit, s.end_lap(pit, rule)

    @implements("ba-awa-turns", "ba-awa-three-turns", "ba-awa-eight", "ba-awa-eight-timing",
                "ba-awa-no-move", "ba-awa-repetition")
    def settle(self, before: Position, s: Sowing) -> Position:
        """After each complete move, in this order:

        1. eight seeds or fewer on the board: the opener takes them; game over
           (``ba-awa-eight``, ``ba-awa-eight-timing``);
        2. the turn goes to the next player (``ba-awa-turns``; with three
           players, in the sowing direction, ``ba-awa-three-turns``); one with no
           legal move is passed over, and if nobody can move the opener takes
           what remains — or, with ``no_move="owners"``, the game ends and each
           owner takes their pits' seeds (``ba-awa-no-move``);
        3. a whole position seen before: the opener takes what remains; game
           over (``ba-awa-repetition``).
        """
        opener = before.opener
        history = self.history_after(before, s)
        ended = self.other_programs_endings(before, s)            # options for other readings
        if ended is not None:
            return ended
        if sum(s.pits) <= EIGHT:                                   # 1. the last eight
            return self.finish(s, before, "eight-seeds", "ba-awa-eight", lambda pit: opener)
        if self.decided(s.captured):                               # decided (an option)
            return self.finish(s, before, "decided", "ba-awa-winner", None)
        order = self.turn_order(s.mover, s.owners)                 # 2. the next player
        passed = []
        for player in order:
            candidate = self.after_move(s, player, before, history)
            if candidate.legal_moves():
                break
            if self.options["no_move"] == "owners":
                return self.finish(s, before, "no-moves", "ba-awa-no-move",
                                   lambda pit: s.owners[pit])
            passed.append(player)
        else:
            return self.finish(s, before, "no-moves", "ba-awa-no-move", lambda pit: opener)
        for player in passed:
            s.pass_turn(player, "ba-awa-no-move")
        if candidate.key in history:                               # 3. a repetition
            return self.finish(s, before, "repetition", "ba-awa-repetition", lambda pit: opener)
        return candidate

    @implements("ba-awa-endless")
    def lap_cap_reached(self, s: Sowing) -> bool:
        """With ``endless="cap-75"`` (MancalaGames' reading), whether the sowing
        has sown its 75th lap and must stop instead of sowing another."""
        return self.options["endless"] == "cap-75" and s.laps >= LAP_CAP

    @implements("ba-awa-endless", "ba-awa-no-move")
    def other_programs_endings(self, before: Position, s: Sowing) -> Position | None:
        """The endings only other programs' readings have, checked first; the
        position they end the game in, or ``None``:

        * ``endless="cap-75"``: a sowing stopped at its 75th lap ends the game,
          and the seeds left are shared (:meth:`share_remaining`);
        * ``no_move="empty-row"``: a move that leaves the next player's pits
          empty ends the game, and the mover takes what remains; one that
          leaves the mover's own pits empty ends it too, and the next player
          takes what remains (EveryBoard's reading).
        """
        if s.records and s.records[-1][1:] == ("ba-awa-endless", "lap-cap"):
            self.share_remaining(s)
            return self.finish(s, before, "lap-cap", "ba-awa-endless", None)
        if self.options["no_move"] != "empty-row" or not sum(s.pits):
            return None
        following = self.turn_order(s.mover, s.owners)[0]
        for empty, taker in ((following, s.mover), (s.mover, following)):
            if not self.has_seeds(s, empty):
                return self.finish(s, before, "empty-row", "ba-awa-no-move",
                                   _everything_to(taker))
        return None

    @implements("ba-awa-endless")
    def share_remaining(self, s: Sowing) -> None:
        """Share the seeds left on the board equally between the two players,
        pit by pit in index order (South's share first); an odd seed goes to
        South if North has captured more, else to North."""
        left = sum(s.pits)
        south = left // 2 + (left % 2 if s.captured[1] > s.captured[0] else 0)
        for pit in range(len(s.pits)):
            seeds = s.pits[pit]
            mine = min(seeds, south)
            south -= mine
            for player, share in ((0, mine), (1, seeds - mine)):
                if share:
                    s.pits[pit] -= share
                    s.captured[player] += share
                    s.took = True
                    s.records.append((Capture, "ba-awa-endless", pit, share, player))

    @implements("ba-awa-winner")
    def decided(self, captured: Sequence[int]) -> bool:
        """With ``decided`` (EveryBoard's reading), whether the winner is
        decided, which ends the game: a player has captured more than half
        the seeds, or each has half."""
        if not self.options["decided"]:
            return False
        half = self.total_seeds / 2
        return max(captured) > half or all(c == half for c in captured)

    def is_over(self, pos: Position) -> bool:
        """Every way a Ba-awa game ends clears the board, so: the board is empty
        (unless, with ``decided``, it ended when its winner was decided)."""
        return pos.seeds_on_board == 0 or self.decided(pos.captured)

    @implements("ba-awa-winner")
    def winner(self, pos: Position) -> int | None:
        """The player who has captured the most seeds (the opener's final take
        included); ``None`` for a draw, when the most is shared."""
        most = max(pos.captured)
        leaders = [player for player, seeds in enumerate(pos.captured) if seeds == most]
        return leaders[0] if len(leaders) == 1 else None

    def check_settled(self, pos: Position) -> None:
        seeds = pos.seeds_on_board
        if seeds == 0 or (seeds > EIGHT and self.decided(pos.captured)):
            return
        if seeds <= EIGHT:
            raise InvalidPositionError(
                f"the board holds {seeds} seed{'s' if seeds > 1 else ''}, but when eight or "
                "fewer remain after a move the opener takes them and the game ends "
                "(rule ba-awa-eight)")
        if not pos.legal_moves():
            mover = self.player_name(pos.to_move)
            others = [p for p in self.turn_order(pos.to_move, pos.owners)[:-1]
                      if self.legal_moves(_with_mover(pos, p))]
            if self.options["no_move"] == "pass" and others:
                raise InvalidPositionError(
                    f"{mover} is to move but has no legal move, so the turn would have passed "
                    f"to {self.player_name(others[0])} (rule ba-awa-no-move)")
            raise InvalidPositionError(
                f"{mover} is to move but has no legal move, so the game would have ended "
                "(rule ba-awa-no-move)")
        if pos.key in pos.history:
            raise InvalidPositionError(
                "the position already occurs in its history, so the game would have ended "
                "(rule ba-awa-repetition)")


def _everything_to(player: int) -> Callable[[int], int]:
    """A taker (pit -> player) that gives every pit to *player*."""
    return lambda pit: player


def _with_mover(pos: Position, player: int) -> Position:
    return Position.unchecked(pos.game, pos.pits, player, pos.captured, pos.opener, pos.owners,
                              pos.history)

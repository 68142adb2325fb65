"""Ba-awa (Twi/Akan, Ghana; also Anenam, Nam-Nam).

A move is :meth:`BaAwa.sow_move` (the sowing, lap after lap) and then
:meth:`BaAwa.after_move` (the end-of-move rules), each a short composition of the
rule steps below. Each step is a method tagged (``@implements``) with the one
rule it decides, and does what that rule says in the order it says it.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...catalogue import implements
from ...errors import OptionError
from ...options import Choose, Endless, NoMove, game_options
from ..board import Board
from ..position import Position
from ..sowing import Sowing
from .base import Ending, Game

FOUR = 4
EIGHT = 8
#: the laps after which MancalaGames stops a sowing (``endless="cap-75"``)
LAP_CAP = 75
#: a lap's state, for ba-awa-endless: the board and the pit the lap starts from
LapState = tuple[tuple[int, ...], int]


class BaAwa(Game):
    """Ba-awa: 2 × 6 pits, four seeds each; multi-lap relay sowing; fours captured.

    Its options and their values are declared in :mod:`mancala_spec.options`.
    """

    name = "ba-awa"
    title = "Ba-awa"
    aliases = ("anenam", "nam-nam", "baawa")
    seeds_per_pit = FOUR
    OPTIONS = game_options("ba-awa")
    capture_unit = FOUR
    capture_rules = ("Ba-awa captures seeds only as fours (rules ba-awa-owner-four, "
                     "ba-awa-mover-four)")
    CANNOT_STAND = {
        ("take", "ba-awa-eight"): "the board holds {seeds}, but when eight or fewer remain "
                                  "after a move the opener takes them and the game ends "
                                  "(rule ba-awa-eight)",
        ("pass", "ba-awa-no-move"): "{mover} is to move but has no legal move, so the turn "
                                    "would have passed to {next} (rule ba-awa-no-move)",
        ("take", "ba-awa-no-move"): "{mover} is to move but has no legal move, so the game "
                                    "would have ended (rule ba-awa-no-move)",
        ("take", "ba-awa-repetition"): "the position already occurs in its history, so the "
                                       "game would have ended (rule ba-awa-repetition)",
    }

    # -- the board -----------------------------------------------------------

    @implements("ba-awa-board", "ba-awa-stores")
    def make_board(self) -> Board:
        """Two rows of six playing pits, each row owned by the player in front of
        it (:attr:`Board.row_owners <mancala_spec.engine.board.Board.row_owners>`).
        The optional end stores are not pits (nothing is sown into them):
        they are the players' captured counts."""
        return Board(pits_per_row=6, players=self.players, stores=True)

    @implements("ba-awa-choose")
    def check_options(self, values: dict[str, Any]) -> None:
        """``choose="row"`` needs two players: with three, East has no row of
        their own (each player starts with four pits, and the rows are South's
        and North's), so "a pit of their side" names nothing for East."""
        if values["choose"] is Choose.ROW and values["players"] != 2:
            raise OptionError(
                f'option choose="row" of ba-awa needs two players, not players='
                f'{values["players"]}: with three there is no row of East\'s own to choose '
                'from (rule ba-awa-choose); use choose="owned"', game=self.name,
                option="choose", value=values["choose"], choices=(Choose.OWNED,))

    def end_takers(self, opener: int, owners: Sequence[int]) -> frozenset[int]:
        """The players who may have taken seeds as the game ended: the opener
        takes what remains when eight seeds or fewer do (``ba-awa-eight``),
        when nobody can move (``ba-awa-no-move``) and when a position recurs
        (``ba-awa-repetition``); with ``no_move="owners"`` each pit's owner
        takes its seeds; with ``no_move="empty-row"`` the mover or the next
        player takes them, so anyone may have; with ``endless="cap-75"`` South
        and North share them. ``decided`` takes nothing (it only ends the game)
        and ``repetition="play-on"`` takes away an ending, so neither adds a
        taker; nor do three players or a match, whose games each start from the
        setup with nothing captured."""
        takers = {opener}
        if self.options["no_move"] is NoMove.OWNERS:
            takers |= set(owners)
        if self.options["no_move"] is NoMove.EMPTY_ROW:
            takers |= set(range(self.players))
        if self.options["endless"] is Endless.CAP_75:
            takers |= {0, 1}
        return frozenset(takers)

    # -- choosing a pit ------------------------------------------------------

    @implements("ba-awa-choose")
    def choice_pits(self, pos: Position, player: int) -> tuple[int, ...]:
        """The pits *player* chooses from, empty or not: "one of their pits".

        With ``choose="owned"`` (the default), the pits they own: their row in a
        single two-player game; with three players, or in a match, the pits
        they control. With ``choose="row"``, the pits of their own row, whoever
        owns them now (the Catalan "of their side" read literally)."""
        if self.options["choose"] is Choose.ROW:
            return tuple(pit for pit in range(self.board.size)
                         if self.board.row_owner(pit) == player)
        return tuple(pit for pit, owner in enumerate(pos.owners) if owner == player)

    @implements("ba-awa-choose")
    def legal_moves(self, pos: Position) -> tuple[int, ...]:
        """A pit the player to move chooses from (:meth:`choice_pits`) that
        holds at least one seed, and whose sowing ends (:meth:`never_ends`)."""
        if pos.__class__ is not Position or pos.game is not self:
            self.check_step(pos)              # (another game's position: refused)
        return tuple(pit for pit in self.choice_pits(pos, pos.to_move)
                     if pos.pits[pit] > 0 and not self.never_ends(pos, pit))

    @implements("ba-awa-endless")
    def never_ends(self, pos: Position, pit: int) -> bool:
        """Whether the relay sowing of *pit* never ends (:meth:`endless_lap`):
        such a move is not a legal move (with ``endless="stop"``, every sowing
        ends)."""
        return self.sowing(pos, pit).endless

    def why_not_yours(self, pos: Position, pit: int) -> str:
        """Why *pit* is not the player to move's to choose: another player owns
        it; with ``choose="row"``, it is in another player's row."""
        if self.options["choose"] is Choose.ROW:
            board = self.board
            return (f"pit {board.name(pit)} is in {board.player_name(board.row_owner(pit))}'s "
                    f"row, but {board.player_name(pos.to_move)} is to move "
                    '(choose="row": a player chooses from their own row)')
        return super().why_not_yours(pos, pit)

    def why_illegal(self, pos: Position, pit: int) -> str:
        """Why a non-empty pit of the player to move is not a legal move: its
        sowing never ends (ba-awa-endless)."""
        if self.never_ends(pos, pit):
            return (f"pit {self.board.name(pit)} starts a relay sowing that never ends: a lap "
                    "would start again from a board and pit already seen in this move "
                    "(rule ba-awa-endless)")
        return super().why_illegal(pos, pit)

    # -- sowing --------------------------------------------------------------

    def sow_move(self, pos: Position, pit: int) -> Sowing:
        """The sowing of *pit*: the first lap (:meth:`first_lap`); then, until
        a lap's last seed makes four (:meth:`mover_four`) or lands in an empty
        pit (:meth:`sowing_end`), or the lap would start again from a board and
        pit already seen (:meth:`endless_lap`; with ``endless="cap-75"``, the
        75th lap was sown), a relay lap (:meth:`relay`)."""
        if (pos.__class__ is not Position or pos.game is not self or pit.__class__ is not int
                or not 0 <= pit < len(pos.pits)):
            self.check_step(pos, pit)
        s = Sowing(pos)
        seen = {(pos.pits, pit)}
        last, count = self.first_lap(s, pit)
        while not (self.mover_four(s, last, count) or self.sowing_end(s, count)
                   or self.endless_lap(s, last, seen)):
            last, count = self.relay(s, last)
        return s

    @implements("ba-awa-sow")
    def first_lap(self, s: Sowing, pit: int) -> tuple[int, int]:
        """The mover takes all the seeds out of the chosen pit and sows them one
        by one, counter-clockwise, from the next pit (:meth:`sow_lap`). Return
        the pit of the last seed and its count."""
        seeds = s.pick_up(pit, "ba-awa-sow")
        return self.sow_lap(s, pit, seeds, "ba-awa-sow")

    @implements("ba-awa-owner-four")
    def sow_lap(self, s: Sowing, origin: int, seeds: int, rule: str) -> tuple[int, int]:
        """Sow *seeds* seeds lifted from *origin*, one into each following pit
        (:meth:`~mancala_spec.engine.games.base.Game.next_pit`). A seed other
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

    @implements("ba-awa-mover-four")
    def mover_four(self, s: Sowing, last: int, count: int) -> bool:
        """If the lap's last seed made its pit hold exactly four, the mover
        captures those four, and the sowing (so the move) ends."""
        if count != FOUR:
            return False
        s.capture(last, s.mover, "ba-awa-mover-four")
        s.end_move("four", "ba-awa-mover-four")
        return True

    @implements("ba-awa-sowing-end")
    def sowing_end(self, s: Sowing, count: int) -> bool:
        """If the lap's last seed landed in an empty pit (it holds only that
        seed), the sowing ends."""
        if count != 1:
            return False
        s.end_move("empty-pit", "ba-awa-sowing-end")
        return True

    @implements("ba-awa-endless")
    def endless_lap(self, s: Sowing, last: int, seen: set[LapState]) -> bool:
        """A lap that would start from *last* with the board as it was at an
        earlier lap of this move would repeat for ever: the sowing never ends,
        and is not a legal move (``endless="illegal"``), or it stops there,
        the seeds staying put (``endless="stop"``). With ``endless="cap-75"``
        no earlier lap is looked back to: the sowing stops at its 75th lap
        (:meth:`lap_cap`)."""
        endless = self.options["endless"]
        if endless is Endless.CAP_75:
            return self.lap_cap(s)
        state = (tuple(s.pits), last)
        if state not in seen:
            seen.add(state)
            return False
        if endless is Endless.ILLEGAL:
            s.endless = True
        else:
            s.end_move("endless-stopped", "ba-awa-endless")
        return True

    @implements("ba-awa-endless")
    def lap_cap(self, s: Sowing) -> bool:
        """With ``endless="cap-75"`` (as MancalaGames plays), a sowing that has
        sown its 75th lap stops there instead of sowing another (and
        :meth:`capped` then ends the game)."""
        if s.laps < LAP_CAP:
            return False
        s.end_move("lap-cap", "ba-awa-endless")
        return True

    @implements("ba-awa-relay")
    def relay(self, s: Sowing, last: int) -> tuple[int, int]:
        """The last seed landed in an occupied pit: all that pit's seeds, the
        last one included, are picked up and sown in a new lap from the next
        pit. Return the pit of the new lap's last seed and its count."""
        seeds = s.relay(last, "ba-awa-relay")
        return self.sow_lap(s, last, seeds, "ba-awa-relay")

    # -- after the move ------------------------------------------------------

    @implements("ba-awa-eight-timing")
    def after_move(self, s: Sowing, pos: Position) -> Position:
        """After each complete move, the next player to move (*pos*), in this
        order: the last eight seeds (:meth:`last_eight`); a player with no
        legal move is passed over (:meth:`pass_over`); nobody can move
        (:meth:`no_legal_move`) or a position recurs (:meth:`repetition`).
        Other programs' rules, as options, come first: a sowing stopped at
        its 75th lap (:meth:`capped`), a row left empty (:meth:`empty_row`), and
        after the last eight a winner decided (:meth:`decided`)."""
        ending = (self.capped(s) or self.empty_row(s, pos) or self.last_eight(s, pos)
                  or self.decided(pos, "ba-awa-winner"))
        if ending is None:
            moving = self.pass_over(s, pos, "ba-awa-no-move")
            ending = self.no_legal_move(s, moving) or self.repetition(s, moving)
            if ending is None:
                return moving
        return self.end(s, pos, ending)

    @implements("ba-awa-eight")
    def last_eight(self, s: Sowing, pos: Position) -> Ending | None:
        """When eight seeds or fewer remain on the board, the opener takes them
        and the game ends."""
        if pos.seeds_on_board > EIGHT:
            return None
        s.take_all(lambda pit: pos.opener, "ba-awa-eight")
        return "eight-seeds", "ba-awa-eight"

    @implements("ba-awa-endless")
    def capped(self, s: Sowing) -> Ending | None:
        """With ``endless="cap-75"`` (as MancalaGames plays), a sowing stopped
        at its 75th lap ends the game, and the seeds left on the board are
        shared equally, pit by pit in index order (South's share first); an
        odd seed goes to South if North has captured more, else to North."""
        if s.end_reason != "lap-cap":
            return None
        left = sum(s.pits)
        south = left // 2 + (left % 2 if s.captured[1] > s.captured[0] else 0)
        for pit, seeds in enumerate(list(s.pits)):
            mine = min(seeds, south)
            south -= mine
            for player, share in ((0, mine), (1, seeds - mine)):
                if share:
                    s.take(pit, share, player, "ba-awa-endless")
        return "lap-cap", "ba-awa-endless"

    @implements("ba-awa-no-move")
    def empty_row(self, s: Sowing, pos: Position) -> Ending | None:
        """With ``no_move="empty-row"`` (as EveryBoard plays): a move that
        leaves the next player's pits empty ends the game, and the mover takes
        what remains; one that leaves the mover's own pits empty ends it too,
        and the next player takes what remains."""
        if self.options["no_move"] is not NoMove.EMPTY_ROW or not sum(s.pits):
            return None
        for empty, taker in ((pos.to_move, s.mover), (s.mover, pos.to_move)):
            if not self.pits_with_seeds(s, empty):
                s.take_all(_everything_to(taker), "ba-awa-no-move")
                return "empty-row", "ba-awa-no-move"
        return None

    @implements("ba-awa-no-move")
    def passes(self) -> bool:
        """With ``no_move="pass"`` (the default), a player with no legal move
        is passed over (:meth:`~mancala_spec.engine.games.base.Game.pass_over`)."""
        return self.options["no_move"] is NoMove.PASS

    @implements("ba-awa-no-move")
    def can_move(self, pos: Position, player: int) -> bool:
        """Whether *player* would have a legal move with the turn in *pos*."""
        return bool(self.moves(pos if player == pos.to_move else pos.replace(to_move=player)))

    @implements("ba-awa-no-move")
    def no_legal_move(self, s: Sowing, pos: Position) -> Ending | None:
        """If the player to move still has no legal move, nobody has: the game
        ends and the opener takes the seeds that remain — or, with
        ``no_move="owners"`` (no passing), each owner takes their pits' seeds."""
        if pos.legal_moves():
            return None
        if self.options["no_move"] is NoMove.OWNERS:
            s.take_all(lambda pit: pos.owners[pit], "ba-awa-no-move")
        else:
            s.take_all(lambda pit: pos.opener, "ba-awa-no-move")
        return "no-moves", "ba-awa-no-move"

    @implements("ba-awa-repetition")
    def repetition(self, s: Sowing, pos: Position) -> Ending | None:
        """If the whole position (the seeds in every pit, the player to move)
        occurred before, the game ends and the opener takes the seeds that remain."""
        if pos.key not in pos.history:
            return None
        s.take_all(lambda pit: pos.opener, "ba-awa-repetition")
        return "repetition", "ba-awa-repetition"


def _everything_to(player: int) -> Callable[[int], int]:
    """A taker (pit -> player) that gives every pit to *player*."""
    return lambda pit: player

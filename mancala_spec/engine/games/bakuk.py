"""Bakuk (Jbala, northern Morocco).

A move is :meth:`Bakuk.sow_move` (a single lap and its captures) and then
:meth:`Bakuk.after_move` (the end-of-move rules), each a short composition of the
rule steps below. Each step is a method tagged (``@implements``) with the one
rule it decides, and does what that rule says in the order it says it.
"""
from __future__ import annotations

from collections.abc import Sequence

from ...catalogue import implements
from ...options import Chain, FirstCounter, Leftovers, NoMove, game_options
from ..board import Board
from ..position import Position
from ..sowing import Sowing
from .base import Ending, Game

CAPTURING_COUNTS = (2, 4)
SIX = 6


class Bakuk(Game):
    """Bakuk: 2 × 3 holes, six counters each; single-lap sowing; 2s and 4s captured.

    Its options and their values are declared in :mod:`mancala_spec.options`.
    """

    name = "bakuk"
    title = "Bakuk"
    seeds_per_pit = 6
    OPTIONS = game_options("bakuk")
    capture_unit = 2
    capture_rules = ("Bakuk captures only twos and fours, and sixes too under Koumma "
                     "(rules bakuk-capture, bakuk-chain)")
    CANNOT_STAND = {
        ("take", "bakuk-leftovers"): "this position ends the game, so with leftovers='owners' "
                                     "its counters would already belong to their owners "
                                     "(rule bakuk-leftovers)",
        ("pass", "bakuk-exhausted"): "{mover} is to move but has no counters, so with "
                                     "no_move='pass' the turn would have passed "
                                     "(rule bakuk-exhausted)",
    }

    @implements("bakuk-board")
    def make_board(self) -> Board:
        """Two rows of three holes and no stores; each player owns their row."""
        return Board(pits_per_row=3, players=self.players)

    def end_takers(self, opener: int, owners: Sequence[int]) -> frozenset[int]:
        """The players who may have taken counters as the game ended: nobody
        takes the counters left (``bakuk-leftovers``), or with
        ``leftovers="owners"`` each hole's owner."""
        return frozenset(owners if self.options["leftovers"] is Leftovers.OWNERS else ())

    # -- choosing a hole -----------------------------------------------------

    @implements("bakuk-choose")
    def legal_moves(self, pos: Position) -> tuple[int, ...]:
        """Any hole under the control of the player to move (their row; with
        three players, their pair of holes) that holds counters."""
        if pos.__class__ is not Position or pos.game is not self:
            self.check_step(pos)              # (another game's position: refused)
        return self.pits_with_seeds(pos, pos.to_move)

    # -- sowing --------------------------------------------------------------

    def sow_move(self, pos: Position, pit: int) -> Sowing:
        """The sowing of *pit*: a single lap (:meth:`sow`); if its last counter
        makes two or four (:meth:`capture`), the chain follows
        (:meth:`capture_chain`)."""
        if (pos.__class__ is not Position or pos.game is not self or pit.__class__ is not int
                or not 0 <= pit < len(pos.pits)):
            self.check_step(pos, pit)
        s = Sowing(pos)
        last = self.sow(s, pit)
        if self.capture(s, last):
            self.capture_chain(s, last)
        s.end_move("single-lap", "bakuk-sow")
        return s

    @implements("bakuk-sow")
    def sow(self, s: Sowing, pit: int) -> int:
        """The mover lifts every counter of *pit* and sows them one by one
        counter-clockwise, starting with the hole after it
        (:meth:`~mancala_spec.engine.games.base.Game.next_pit`), in a single
        lap: the sowing ends where the hand is empty. Return the last hole."""
        seeds = s.pick_up(pit, "bakuk-choose")
        last = self.first_hole(pit)
        s.drop(last, "bakuk-sow")
        for _ in range(seeds - 1):
            last = self.next_pit(last, pit)
            s.drop(last, "bakuk-sow")
        s.end_lap(last, "bakuk-sow")
        return last

    @implements("bakuk-capture")
    def capture(self, s: Sowing, last: int) -> bool:
        """If the last counter brought its hole, on either side, to exactly two
        or four counters (:meth:`captures`), the mover captures them."""
        if not self.captures(s.pits[last]):
            return False
        s.capture(last, s.mover, "bakuk-capture")
        return True

    @implements("bakuk-chain")
    def capture_chain(self, s: Sowing, last: int) -> None:
        """From the hole after *last* in the sowing direction (before it, with
        ``chain="backward"``), capture each hole holding two or four, until the
        first that does not. The chain wraps round the board; it cannot pass
        *last*, which it has just emptied."""
        step = self.board.next if self.options["chain"] is Chain.FORWARD else self.board.previous
        pit = step(last)
        while self.captures(s.pits[pit]):
            s.capture(pit, s.mover, "bakuk-chain")
            pit = step(pit)

    @implements("bakuk-sow")
    def first_hole(self, pit: int) -> int:
        """Where the first counter lifted from *pit* goes: the adjacent hole
        after it, as the source says of Bakuk; with ``first_counter="origin"``,
        back into the emptied hole itself, as it says of Koumma
        (001_1132cff477fa5791.txt line 24)."""
        if self.options["first_counter"] is FirstCounter.ORIGIN:
            return pit
        return self.next_pit(pit, pit)

    @implements("bakuk-capture")
    def captures(self, count: int) -> bool:
        """Whether a hole holding *count* counters is captured (by the last
        counter, or in the chain): two or four, no other count; with
        ``sixes``, six too. The source says only that in Koumma clusters of six
        can also be captured (001_1132cff477fa5791.txt line 24); that a six is
        captured as a two or a four is, by the last counter and in the chain, is
        our reading (the ``sixes`` variant of ``bakuk-capture``)."""
        return count in CAPTURING_COUNTS or (count == SIX and self.options["sixes"])

    # -- after the move ------------------------------------------------------

    @implements("bakuk-end")
    def after_move(self, s: Sowing, pos: Position) -> Position:
        """The game goes on until the moves are exhausted. After each move, the
        next player to move (*pos*): with ``decided`` (as MancalaGames plays)
        the game is over once its winner is decided (:meth:`decided`); a player
        without counters passes, with ``no_move="pass"`` (:meth:`pass_over`);
        the game is over when the player to move has no counters
        (:meth:`exhausted`) or the position recurs (:meth:`repetition`), and
        the counters left are dealt with (:meth:`leftovers`)."""
        ending = self.decided(pos, "bakuk-end")
        moving = pos if ending else self.pass_over(s, pos, "bakuk-exhausted")
        ending = ending or self.exhausted(moving) or self.repetition(s, moving)
        if ending is None:
            return moving
        self.leftovers(s, moving)
        return self.end(s, moving, ending)

    @implements("bakuk-end")
    def nothing_left_to_decide(self, pos: Position) -> bool:
        """With ``decided`` (:meth:`~mancala_spec.engine.games.base.Game.decided`),
        a single counter left on the board decides the game too: no capture can follow."""
        return pos.seeds_on_board == 1

    @implements("bakuk-exhausted")
    def passes(self) -> bool:
        """With ``no_move="pass"``, a player to move without counters passes
        (:meth:`~mancala_spec.engine.games.base.Game.pass_over`)."""
        return self.options["no_move"] is NoMove.PASS

    @implements("bakuk-exhausted")
    def exhausted(self, pos: Position) -> Ending | None:
        """The game ends when the player to move has no counters in their holes,
        and so no move."""
        return None if self.can_move(pos, pos.to_move) else ("exhausted", "bakuk-exhausted")

    @implements("bakuk-repetition")
    def repetition(self, s: Sowing, pos: Position) -> Ending | None:
        """The game ends at the first recurrence of a position (the counters in
        every hole, the player to move) since the last capture."""
        return ("repetition", "bakuk-repetition") if pos.key in pos.history else None

    @implements("bakuk-leftovers")
    def leftovers(self, s: Sowing, pos: Position) -> None:
        """Counters left on the board at the end score for nobody (they stay
        where they are); with ``leftovers="owners"``, each hole's counters go to
        its owner."""
        if self.options["leftovers"] is Leftovers.OWNERS:
            s.take_all(lambda pit: pos.owners[pit], "bakuk-leftovers")

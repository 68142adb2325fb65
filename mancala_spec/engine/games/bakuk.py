"""Bakuk (Jbala, northern Morocco).

Each method below implements the catalogue rules named in its ``@implements``
line, and its steps follow the rule statements in order.
"""
from __future__ import annotations

from ..board import Board
from ...errors import InvalidPositionError
from ..position import Position
from ...catalogue import implements
from ..sowing import Sowing
from ...options import game_options
from .base import Game

CAPTURING_COUNTS = (2, 4)


class Bakuk(Game):
    """Bakuk: 2 × 3 holes, six counters each; single-lap sowing; 2s and 4s captured.

    Its options and their values are declared in :mod:`mancala_spec.options`.
    """

    name = "bakuk"
    title = "Bakuk"
    seeds_per_pit = 6
    OPTIONS = game_options("bakuk")

    def __init__(self, **options) -> None:
        super().__init__(**options)
        step = self.board.next if self.options["chain"] == "forward" else self.board.previous
        #: ``chain_step[pit]``: the hole a capture chain goes on to after *pit*
        #: (the next in sowing order, or with ``chain="backward"`` the one before)
        self.chain_step = tuple(step(pit) for pit in range(self.board.size))

    @implements("bakuk-board")
    def make_board(self) -> Board:
        """Two rows of three holes and no stores; each player owns their row."""
        return Board(pits_per_row=3, players=self.players)

    @implements("bakuk-setup", "bakuk-turns", "bakuk-three-players")
    def start(self, opener: int = 0, owners=None) -> Position:
        """Six counters in every hole; *opener* (South by default) moves first."""
        return super().start(opener, owners)

    @implements("bakuk-choose")
    def legal_moves(self, pos: Position) -> tuple[int, ...]:
        """Any hole of the player to move that holds counters."""
        return self.own_pits_with_seeds(pos)

    @implements("bakuk-choose", "bakuk-sow", "bakuk-origin", "bakuk-capture")
    def sow_move(self, pos: Position, pit: int) -> Sowing:
        """Lift every counter of *pit* and sow them one by one counter-clockwise,
        from the next hole, in a single lap. If the last counter makes its hole
        hold exactly two or four, on either side, the mover captures them and
        the chain follows."""
        s = Sowing(pos)
        seeds = s.pick_up(pit, "bakuk-choose")
        last, count = s.sow_lap(pit, seeds, "bakuk-sow")
        if count in CAPTURING_COUNTS:
            s.capture(last, s.mover, "bakuk-capture")
            self.capture_chain(s, last)
        s.end_move("single-lap", "bakuk-sow")
        return s

    @implements("bakuk-chain")
    def capture_chain(self, s: Sowing, last: int) -> None:
        """From the hole after *last* in the sowing direction (before it, with
        ``chain="backward"``), capture each hole holding two or four, until the
        first that does not. The chain wraps round the board; it cannot pass
        *last*, which it has just emptied."""
        step = self.chain_step     # board.next, or with chain="backward" board.previous
        pit = step[last]
        while s.pits[pit] in CAPTURING_COUNTS:
            s.capture(pit, s.mover, "bakuk-chain")
            pit = step[pit]

    @implements("bakuk-turns", "bakuk-three-turns", "bakuk-end", "bakuk-exhausted",
                "bakuk-leftovers", "bakuk-repetition")
    def settle(self, before: Position, s: Sowing) -> Position:
        """After each move, in this order:

        1. the turn goes to the next player (``bakuk-turns``; with three
           players, in the sowing direction, ``bakuk-three-turns``);
        2. if that player has no counters, the game is over — or, with
           ``no_move="pass"``, they pass to the next player who has counters
           (``bakuk-end``, ``bakuk-exhausted``);
        3. if this position (pits, player to move) occurred since the last
           capture, the game is over (``bakuk-repetition``);
        4. when the game is over, counters left on the board score for nobody,
           or with ``leftovers="owners"`` for their hole's owner (``bakuk-leftovers``).
        """
        # bakuk-repetition: the positions since the last capture (history_after)
        history = () if s.took else before.history + ((before.pits, before.to_move),)
        pits, seats = tuple(s.pits), before.seating
        order = seats.turns[s.mover]
        to_move = order[0]
        # bakuk-choose: their holes with counters (as Seating.seeded, written out)
        moves = tuple([pit for pit in seats.owned[to_move] if pits[pit]])
        if not moves:
            able = [p for p in order if seats.seeded(pits, p)]
            if self.options["no_move"] == "end" or not able:
                return self._end(s, before, to_move, history, "exhausted", "bakuk-exhausted")
            for passed in order[:order.index(able[0])]:
                s.pass_turn(passed, "bakuk-exhausted")
            to_move = able[0]
            moves = seats.seeded(pits, to_move)
        if history and (pits, to_move) in history:
            return self._end(s, before, to_move, history, "repetition", "bakuk-repetition")
        # the next position (as after_move makes it; called directly, as Bakuk's
        # moves are so quick that the extra call shows)
        return Position._make(self, pits, to_move, s.captured, before.opener, seats, history,
                              moves)

    def _end(self, s: Sowing, before: Position, to_move: int, history, reason: str,
             rule: str) -> Position:
        """Step 4: the game is over, for *reason*; with ``leftovers="owners"``
        each hole's counters go to its owner."""
        if self.options["leftovers"] == "owners":
            s.take_all(lambda pit: s.owners[pit], "bakuk-leftovers")
            history = ()
        s.end_game(reason, rule)
        return self.after_move(s, to_move, before, history, ())

    @implements("bakuk-end", "bakuk-exhausted", "bakuk-repetition")
    def is_over(self, pos: Position) -> bool:
        """Over when the board is empty, the player to move has no counters,
        or the position recurred since the last capture."""
        return (pos.seeds_on_board == 0 or not self.has_seeds(pos, pos.to_move)
                or pos.key in pos.history)

    def moves(self, pos: Position) -> tuple[int, ...]:
        """The holes of the player to move that hold counters, none once the
        position recurred (so none once the game is over: see :meth:`is_over`)."""
        return () if pos.key in pos.history else self.own_pits_with_seeds(pos)

    @implements("bakuk-winner", "bakuk-draw")
    def winner(self, pos: Position) -> int | None:
        """The player with the most captured counters; ``None`` on equal captures."""
        return self.most_captured(pos)

    def check_settled(self, pos: Position) -> None:
        if pos.seeds_on_board == 0 or not self.is_over(pos):
            return
        if self.options["leftovers"] == "owners":
            raise InvalidPositionError(
                "this position ends the game, so with leftovers='owners' its counters would "
                "already belong to their owners (rule bakuk-leftovers)")
        stuck = not self.has_seeds(pos, pos.to_move)
        if stuck and self.options["no_move"] == "pass" and pos.key not in pos.history:
            raise InvalidPositionError(
                f"{self.player_name(pos.to_move)} is to move but has no counters, so with "
                "no_move='pass' the turn would have passed (rule bakuk-exhausted)")

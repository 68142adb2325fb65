"""Bakuk (Jbala, northern Morocco).

Each method below implements the catalogue rules named in its ``@implements``
line, and its steps follow the rule statements in order.
"""
from __future__ import annotations

from collections.abc import Sequence

from ...catalogue import implements
from ...errors import InvalidPositionError
from ...options import game_options
from ..board import Board
from ..position import Key, Position
from ..sowing import Sowing
from .base import Game

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

    @implements("bakuk-board")
    def make_board(self) -> Board:
        """Two rows of three holes and no stores; each player owns their row."""
        return Board(pits_per_row=3, players=self.players)

    @implements("bakuk-setup", "bakuk-turns")
    def start(self, opener: int = 0, owners: Sequence[int] | None = None) -> Position:
        """Six counters in every hole; *opener* (South by default) moves first."""
        return self.position([self.seeds_per_pit] * self.board.size, to_move=opener,
                             captured=[0] * self.players, opener=opener, owners=owners)

    @implements("bakuk-choose", "bakuk-three-players")
    def legal_moves(self, pos: Position) -> tuple[int, ...]:
        """Any hole under the control of the player to move (their row; with
        three players, their pair of holes) that holds counters."""
        return self.pits_with_seeds(pos, pos.to_move)

    @implements("bakuk-choose", "bakuk-sow", "bakuk-origin", "bakuk-capture")
    def sow_move(self, pos: Position, pit: int) -> Sowing:
        """Lift every counter of *pit* and sow them one by one counter-clockwise,
        from the next hole, in a single lap (passing over *pit* with
        ``skip_origin``: see :meth:`~mancala_spec.engine.games.base.Game.next_pit`).
        If the last counter makes its hole hold exactly two or four, on either
        side, the mover captures them and the chain follows."""
        s = Sowing(pos)
        seeds = s.pick_up(pit, "bakuk-choose")
        last = self.first_hole(pit)
        s.drop(last, "bakuk-sow")
        for _ in range(seeds - 1):
            last = self.next_pit(last, pit)
            s.drop(last, "bakuk-sow")
        count = s.end_lap(last, "bakuk-sow")
        if self.captures(count):
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
        step = self.board.next if self.options["chain"] == "forward" else self.board.previous
        pit = step(last)
        while self.captures(s.pits[pit]):
            s.capture(pit, s.mover, "bakuk-chain")
            pit = step(pit)

    @implements("bakuk-sow")
    def first_hole(self, pit: int) -> int:
        """Where the first counter lifted from *pit* goes: the adjacent hole
        after it, as the source says of Bakuk; with ``first_counter="origin"``,
        back into the emptied hole itself, as it says of Koumma."""
        if self.options["first_counter"] == "origin":
            return pit
        return self.next_pit(pit, pit)

    @implements("bakuk-capture", "bakuk-chain")
    def captures(self, count: int) -> bool:
        """Whether a hole holding *count* counters is captured (by the last
        counter, or in the chain): two or four; with ``sixes``, six too, as
        the source says of Koumma."""
        return count in CAPTURING_COUNTS or (count == SIX and self.options["sixes"])

    @implements("bakuk-end")
    def decided(self, pits: Sequence[int], captured: Sequence[int]) -> bool:
        """With ``decided`` (MancalaGames' reading), whether the game is
        decided, and so over: a player has captured more than half the
        counters, each has half, or a single counter is left on the board
        (no capture can follow)."""
        if not self.options["decided"]:
            return False
        half = self.total_seeds / 2
        return (max(captured) > half or all(c == half for c in captured)
                or sum(pits) == 1)

    @implements("bakuk-turns", "bakuk-three-turns", "bakuk-end", "bakuk-exhausted",
                "bakuk-repetition")
    def settle(self, before: Position, s: Sowing) -> Position:
        """After each move, in this order:

        1. the turn goes to the next player (``bakuk-turns``; with three
           players, in the sowing direction, ``bakuk-three-turns``);
        2. if that player has no counters, the game is over — or, with
           ``no_move="pass"``, they pass to the next player who has counters,
           and the game is over only if nobody has any (``bakuk-end``,
           ``bakuk-exhausted``);
        3. if this position (counters, player to move) occurred since the last
           capture, the game is over (``bakuk-repetition``);
        4. when the game is over, what is left on the board is dealt with by
           :meth:`game_over` (``bakuk-leftovers``).
        """
        history = self.history_after(before, s)   # the positions since the last capture
        order = self.turn_order(s.mover, s.owners)
        to_move = order[0]                                           # 1. the next player
        if self.decided(s.pits, s.captured):                         # decided (an option)
            return self.game_over(s, before, to_move, history, "decided", "bakuk-end")
        if not self.has_seeds(s, to_move):                           # 2. no counters
            able = [player for player in order if self.has_seeds(s, player)]
            if self.options["no_move"] == "end" or not able:
                return self.game_over(s, before, to_move, history, "exhausted", "bakuk-exhausted")
            for passed in order[:order.index(able[0])]:
                s.pass_turn(passed, "bakuk-exhausted")
            to_move = able[0]
        if (tuple(s.pits), to_move) in history:                      # 3. a repetition
            return self.game_over(s, before, to_move, history, "repetition", "bakuk-repetition")
        return self.after_move(s, to_move, before, history)

    @implements("bakuk-leftovers", "bakuk-end")
    def game_over(self, s: Sowing, before: Position, to_move: int, history: tuple[Key, ...],
                  reason: str, rule: str) -> Position:
        """The game is over, for *reason*. Counters left on the board score for
        nobody (they stay where they are); with ``leftovers="owners"`` each
        hole's counters go to its owner."""
        if self.options["leftovers"] == "owners":
            s.take_all(lambda pit: s.owners[pit], "bakuk-leftovers")
            history = ()
        s.end_game(reason, rule)
        return self.after_move(s, to_move, before, history)

    @implements("bakuk-end", "bakuk-exhausted", "bakuk-repetition")
    def is_over(self, pos: Position) -> bool:
        """Over when the board is empty, the player to move has no counters,
        or the position recurred since the last capture."""
        return (pos.seeds_on_board == 0 or not self.has_seeds(pos, pos.to_move)
                or pos.key in pos.history or self.decided(pos.pits, pos.captured))

    @implements("bakuk-winner", "bakuk-draw")
    def winner(self, pos: Position) -> int | None:
        """The player who has captured the most counters; ``None`` for a draw,
        when the most is shared."""
        most = max(pos.captured)
        leaders = [player for player, seeds in enumerate(pos.captured) if seeds == most]
        return leaders[0] if len(leaders) == 1 else None

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

"""A third game, for tests only: Two-by-two, a toy on a 2 × 2 board.

It shows what a new game costs (issue 33): one module, a :class:`Game` subclass
that supplies its board, its legal moves, its sowing and its end-of-move rules,
composed of the engine's primitives, with its options declared with
:class:`~mancala_spec.options.Option`. Nothing else of the package changes: it
plays through ``get_game``, the command line's ``show`` and the conformance
runner once :func:`registered` (tests/test_toy_game.py).

Its rules: two seeds in each of the four pits; a move lifts every seed of one of
the mover's pits and sows them one by one from the next pit (one lap); if the
last seed makes exactly two, the mover captures them. The game ends when the
player to move has no seeds, or a position recurs; seeds left stay where they
are. The toy is not a game of the rules reference, so its steps claim no rule
of the catalogue (no ``@implements``): they name their steps ``toy-...``.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

from mancala_spec.engine.board import Board
from mancala_spec.engine.games import GAMES
from mancala_spec.engine.games.base import Ending, Game
from mancala_spec.engine.position import Position
from mancala_spec.engine.sowing import Sowing
from mancala_spec.options import Choice, Option

TWO = 2


def _option(name: str, default: object, *values: object) -> Option:
    return Option("toy", name, tuple(Choice(value, str(value)) for value in values), default,
                  "toy-rules", f"the toy's {name}")


class Toy(Game):
    """Two-by-two: 2 × 2 pits, two seeds each; one lap; a last seed making two captures."""

    name = "toy"
    title = "Two-by-two"
    seeds_per_pit = TWO
    capture_unit = TWO
    capture_rules = "the toy captures only twos (its rule toy-capture)"
    OPTIONS = (_option("players", 2, 2), _option("turn_order", "sowing", "sowing"),
               _option("skip_origin", False, False, True))

    def make_board(self) -> Board:
        return Board(pits_per_row=2, players=self.players)

    def legal_moves(self, pos: Position) -> tuple[int, ...]:
        """Any pit of the mover's that holds seeds."""
        return self.pits_with_seeds(pos, pos.to_move)

    def sow_move(self, pos: Position, pit: int) -> Sowing:
        """One lap from the next pit; a last seed making two is captured."""
        s = Sowing(pos)
        seeds, last = s.pick_up(pit, "toy-sow"), pit
        for _ in range(seeds):
            last = self.next_pit(last, pit)
            s.drop(last, "toy-sow")
        if s.end_lap(last, "toy-sow") == TWO:
            s.capture(last, s.mover, "toy-capture")
        s.end_move("single-lap", "toy-sow")
        return s

    def after_move(self, s: Sowing, pos: Position) -> Position:
        """The game ends when the player to move has no seeds, or the position recurs."""
        ending: Ending | None = None
        if not self.can_move(pos, pos.to_move):
            ending = ("exhausted", "toy-end")
        elif pos.key in pos.history:
            ending = ("repetition", "toy-end")
        return pos if ending is None else self.end(s, pos, ending)


@contextlib.contextmanager
def registered() -> Iterator[type[Toy]]:
    """The toy known to ``get_game`` (and so to everything that asks it) while
    the block runs."""
    before = GAMES.get(Toy.name)
    GAMES[Toy.name] = Toy
    try:
        yield Toy
    finally:
        if before is None:
            del GAMES[Toy.name]
        else:
            GAMES[Toy.name] = before


def serve() -> None:
    """The reference engine behind the conformance protocol, the toy known to it."""
    from mancala_spec.conformance.protocol import serve as answer_lines

    with registered():
        answer_lines()

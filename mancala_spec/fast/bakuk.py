"""Bakuk in the kernel (the rules: :class:`mancala_spec.engine.games.bakuk.Bakuk`).

A Bakuk lap captures nothing on the way, so it is applied whole from the
table :func:`~mancala_spec.fast.tables.bakuk_laps` (which the numpy batch form,
:mod:`mancala_spec.fast.batch`, and the solver read too). Each step is
commented with the catalogue rule it implements.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product
from operator import add, itemgetter
from typing import TYPE_CHECKING

from .base import Counts, FastGame, History, Moves, State
from .tables import CAPTURING, LapTable, Pits, bakuk_laps, chain_next

if TYPE_CHECKING:
    from ..engine.games.base import Game


@lru_cache(maxsize=32)
def row_moves(owned: tuple[int, ...], most: int) -> dict[object, Moves]:
    """bakuk-choose: for every content of the holes *owned* (up to *most*
    counters in all, as ``itemgetter(*owned)`` reads it), the holes that hold
    counters; empty for rows of more than three holes (they are filled in as met)."""
    if not 1 <= len(owned) <= 3:
        return {}
    table: dict[object, Moves] = {}
    for row in product(range(most + 1), repeat=len(owned)):
        if sum(row) <= most:
            key = row if len(owned) > 1 else row[0]
            table[key] = tuple(p for p, seeds in zip(owned, row) if seeds)
    return table


class FastBakuk(FastGame):
    """Bakuk (the rules: :class:`mancala_spec.engine.games.bakuk.Bakuk`)."""

    game_name = "bakuk"

    def __init__(self, game: Game, opener: int = 0,
                 owners: Sequence[int] | None = None) -> None:
        super().__init__(game, opener, owners)
        #: ``lap[pit][seeds]``: what sowing *seeds* from *pit* adds to each pit,
        #: and where the last falls (bakuk-choose, bakuk-sow, bakuk-origin)
        self.lap: LapTable = bakuk_laps(self.sow_next, game.total_seeds)
        # bakuk-chain: the next hole of a capture chain: with the sowing, or (variant) against it
        self.chain_next = chain_next(self.size, game.options["chain"] == "forward")
        self.passing = game.options["no_move"] == "pass"
        self.owners_score = game.options["leftovers"] == "owners"
        # The legal moves for each content of a player's holes: a table worked
        # out at once for rows of up to three holes, else filled in as met.
        self._row: tuple[Callable[[Pits], object], ...] = tuple(
            itemgetter(*owned) if owned else (lambda pits: ()) for owned in self.owned)
        self._moves_for_row: tuple[dict[object, Moves], ...] = tuple(
            dict(row_moves(owned, game.total_seeds)) for owned in self.owned)
        # what play() reads at every move, fetched in one go
        self._tables = (self.lap, self.next_turn, self._row, self._moves_for_row)

    def own_moves(self, pits: Pits, player: int) -> Moves:
        """bakuk-choose: the holes of *player* that hold counters."""
        row = self._row[player](pits)
        moves = self._moves_for_row[player].get(row)
        if moves is None:
            moves = self._moves_for_row[player][row] = tuple(
                [p for p in self.owned[player] if pits[p]])
        return moves

    def derive_moves(self, pits: Pits, to_move: int, history: History) -> Moves:
        # bakuk-repetition: the game is over once a position recurs since the last capture
        if (pits, to_move) in history:
            return ()
        # bakuk-choose: any hole of the player to move that holds counters
        # (bakuk-end, bakuk-exhausted: with none, the game is over)
        return self.own_moves(pits, to_move)

    def play(self, state: State, pit: int) -> State:
        pits, mover, captured, history, moves = state
        if pit not in moves:
            raise self.illegal(state, pit)
        # bakuk-choose, bakuk-sow, bakuk-origin: lift the hole's counters and sow
        # them one by one, a single lap (applied whole: see lap)
        lap, next_turn, rows, moves_for_row = self._tables
        change, last = lap[pit][pits[pit]]
        won = pits[last] + change[last]
        if won in CAPTURING:          # bakuk-capture: the last makes 2 or 4: the mover's
            board = list(map(add, pits, change))
            board[last] = 0
            chain = self.chain_next   # bakuk-chain: then each next hole holding 2 or 4
            p = chain[last]
            while board[p] in CAPTURING:
                won += board[p]
                board[p] = 0
                p = chain[p]
            after = tuple(board)
            if self.players == 2:     # (the common case, spelt out because it is faster)
                captured = ((captured[0] + won, captured[1]) if mover == 0
                            else (captured[0], captured[1] + won))
            else:
                captured = (*captured[:mover], captured[mover] + won, *captured[mover + 1:])
            history = ()              # bakuk-repetition: positions since the last capture
        else:
            after = tuple(map(add, pits, change))
            history = history + ((pits, mover),)
        to_move = next_turn[mover]   # bakuk-turns, bakuk-three-turns
        following = moves_for_row[to_move].get(rows[to_move](after))
        if following is None:
            following = self.own_moves(after, to_move)
        if not following:
            # bakuk-exhausted: the player to move has no counters: the game is over,
            # or (no_move="pass") they pass to the next player who has counters
            if self.passing:
                for able in self.turns[mover][1:]:
                    following = self.own_moves(after, able)
                    if following:
                        to_move = able
                        break
            if not following:
                return self._end(after, to_move, captured, history)
        if history and (after, to_move) in history:   # bakuk-repetition: game over
            return self._end(after, to_move, captured, history)
        return (after, to_move, captured, history, following)

    def _end(self, pits: Pits, to_move: int, captured: Counts, history: History) -> State:
        # bakuk-leftovers: counters left score for nobody, or (leftovers="owners")
        # for their hole's owner.
        if not self.owners_score:
            return (pits, to_move, captured, history, ())
        taken = list(captured)
        for p, seeds in enumerate(pits):
            taken[self.owners[p]] += seeds
        return ((0,) * self.size, to_move, tuple(taken), (), ())

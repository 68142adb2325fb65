"""A stronger built-in player: iterative-deepening alpha-beta search on the kernel.

The Play page's "strong" player, and the benchmark that measures it
(``benchmarks/bench_strong_player.py``). It searches the game's moves with the
fast kernel (:class:`~mancala_spec.fast.base.FastGame`), so it plays exactly the
engine's rules with every option, two or three players. A leaf is scored by the
captured seeds: the searching player's minus the others' (with three players the
others are taken to play together against it, the "paranoid" reading of a
three-player game). Depth 1, 2, 3 … are searched in turn, each ordering the
moves by the one before, until the budget runs out; the move chosen is the best
of the deepest search completed (or, if the budget ran out at depth 1, of the
moves scored so far).

The budget is a number of positions (*nodes*) and a time (*seconds*), whichever
runs out first; the clock is read every :data:`CHECK_EVERY` positions, so a
search never runs past its time by more than that many positions. The clock can
be passed in (the tests pass a counting one), so the budget is checked without
timing anything:

>>> import random, mancala_spec as ms
>>> pos = ms.get_game("bakuk").parse("3,3,1/1,3,3 S 10-12 opener=S")
>>> result = search(pos, nodes=5_000)
>>> result.move in pos.legal_moves(), result.depth > 1, result.nodes <= 5_000
(True, True, True)
"""
from __future__ import annotations

import random as _random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import IllegalMoveError, not_a
from .base import FastGame, State, checked_state

if TYPE_CHECKING:
    from ..engine.position import Position

#: positions searched between two readings of the clock
CHECK_EVERY = 64
#: a win or loss at the end of the game outweighs any count of seeds
DECIDED = 1000
#: the node budget the Play page gives its strong player (and the benchmark
#: ``benchmarks/bench_strong_player.py`` measures it with): a fixed amount of
#: search, so its strength is the same in the page as in CPython
PAGE_NODES = 6_000
#: the time budget the Play page gives it, seconds (a slow device reaches it first)
PAGE_SECONDS = 1.0
#: the deepest search tried (a game has far fewer moves left long before)
MAX_DEPTH = 64


class _OutOfBudget(Exception):
    """The budget ran out in the middle of a search."""


@dataclass(frozen=True)
class Result:
    """What :func:`search` chose and what it cost."""

    move: int            # the pit index chosen
    value: int           # its score at the deepest depth completed (captured margin)
    depth: int           # the deepest depth completed (0: not even depth 1)
    nodes: int           # positions searched
    seconds: float       # time spent, by the clock given


class Search:
    """Alpha-beta search of one game's positions with a budget (see the module)."""

    def __init__(self, fast: FastGame, root_player: int, nodes: int, seconds: float,
                 clock: Callable[[], float]) -> None:
        self.fast = fast
        self.root = root_player
        self.max_nodes = nodes
        self.clock = clock
        self.deadline = clock() + seconds
        self.nodes = 0

    def score(self, state: State) -> int:
        """The root player's captured seeds minus the others'; once the game is
        over, a win or loss counts :data:`DECIDED` more."""
        captured = state[2]
        margin = 2 * captured[self.root] - sum(captured)
        if not state[4]:        # over
            best = max(captured)
            if captured[self.root] == best and captured.count(best) == 1:
                margin += DECIDED
            elif captured[self.root] < best:
                margin -= DECIDED
        return margin

    def visit(self) -> None:
        self.nodes += 1
        if self.nodes >= self.max_nodes:
            raise _OutOfBudget
        if self.nodes % CHECK_EVERY == 0 and self.clock() >= self.deadline:
            raise _OutOfBudget

    def alphabeta(self, state: State, depth: int, alpha: int, beta: int) -> int:
        self.visit()
        moves = state[4]
        if depth == 0 or not moves:
            return self.score(state)
        play = self.fast.play
        if state[1] == self.root:
            best = -(1 << 30)
            for pit in moves:
                value = self.alphabeta(play(state, pit), depth - 1, alpha, beta=beta)
                if value > best:
                    best = value
                if best > alpha:
                    alpha = best
                if alpha >= beta:
                    break
        else:
            best = 1 << 30
            for pit in moves:
                value = self.alphabeta(play(state, pit), depth - 1, alpha, beta=beta)
                if value < best:
                    best = value
                if best < beta:
                    beta = best
                if alpha >= beta:
                    break
        return best


def search(pos: Position, nodes: int = 200_000, seconds: float = 1.0,
           rng: _random.Random | None = None,
           clock: Callable[[], float] = time.perf_counter) -> Result:
    """The move the search chooses in *pos* (which must not be over), within
    *nodes* positions and *seconds* of *clock*; ties between equally scored
    moves are drawn with *rng* (by default the first in pit order)."""
    fast, state = FastGame.for_position(pos)
    return search_state(fast, state, nodes, seconds=seconds, rng=rng, clock=clock)


def search_state(fast: FastGame, state: State, nodes: int = 200_000, seconds: float = 1.0,
                 rng: _random.Random | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> Result:
    """:func:`search` on a kernel state. From then on *fast* remembers every
    position it meets (``remember_above``): a search meets them again at every depth.
    Its arguments are checked first (:class:`~mancala_spec.errors.OptionError`
    naming the one at fault)."""
    check_budget(nodes, seconds, rng, clock=clock)
    if not isinstance(fast, FastGame):
        raise not_a("fast", fast, "a FastGame")
    checked_state(state)
    started = clock()
    fast.remember_above = -1
    moves = list(state[4])
    if not moves:
        raise IllegalMoveError("the game is over: there is no move to search",
                               reason="game-over")
    if rng is not None:
        rng.shuffle(moves)          # ties: the order decides, so draw it
    searcher = Search(fast, state[1], nodes, seconds=seconds, clock=clock)
    chosen, value, completed = moves[0], 0, 0
    partial: dict[int, int] = {}
    try:
        for depth in range(1, MAX_DEPTH + 1):
            scores: dict[int, int] = {}
            alpha = -(1 << 30)
            for pit in moves:
                scores[pit] = searcher.alphabeta(fast.play(state, pit), depth - 1,
                                                 alpha, beta=1 << 30)
                alpha = max(alpha, scores[pit])
                if depth == 1:
                    partial = scores
            # the best first; the next depth searches it first (sort is stable)
            moves.sort(key=lambda pit: -scores[pit])
            chosen, value, completed = moves[0], scores[moves[0]], depth
            if abs(value) >= DECIDED // 2:     # the end is in sight: deeper cannot change it
                break
    except _OutOfBudget:
        if not completed and partial:
            chosen = max(partial, key=lambda pit: partial[pit])
            value = partial[chosen]
    return Result(chosen, value, completed, nodes=searcher.nodes, seconds=clock() - started)


#: the longest a search may be given (more than any run: a budget of nodes alone gives it)
MOST_SECONDS = 10 ** 12


def check_budget(nodes: Any, seconds: Any, rng: object, clock: object) -> None:
    """A search's budget and helpers, checked (an :class:`~mancala_spec.errors.OptionError`
    naming the one at fault)."""
    if type(nodes) is not int or nodes < 1:
        raise not_a("nodes", nodes, "a whole number of at least 1")
    if type(seconds) not in (int, float) or not 0 < seconds <= MOST_SECONDS:
        raise not_a("seconds", seconds, f"a number of seconds above 0, at most {MOST_SECONDS:,}")
    if rng is not None and not isinstance(rng, _random.Random):
        raise not_a("rng", rng, "None or a random.Random")
    if not callable(clock):
        raise not_a("clock", clock, "a function giving the time in seconds")


def search_move(pos: Position, rng: _random.Random, nodes: int = 200_000,
                seconds: float = 1.0) -> int:
    """A built-in player (as :data:`mancala_spec.engine.players.PLAYERS`): the
    pit :func:`search` chooses."""
    if not isinstance(rng, _random.Random):
        raise not_a("rng", rng, "a random.Random")
    return search(pos, nodes, seconds, rng=rng).move


__all__ = ["CHECK_EVERY", "PAGE_NODES", "PAGE_SECONDS", "Result", "Search", "search", "search_move",
           "search_state"]

"""The fast kernel: the same rules as the traced engine, on plain data, without events.

The traced engine (:meth:`Position.trace <mancala_spec.engine.position.Position.trace>`)
is the reference: every step of a move is an event naming its rule. The kernel
plays the *same* rules, with every option, for programs that play many moves
and need no account of them: random playouts, benchmarks, searches, the solver
(:mod:`mancala_spec.solve`) and the analysis (:mod:`mancala_spec.analysis`).
It is the second and last implementation of the rules; the tests
(``tests/kernel/test_fast.py``) play many random games through both, under every
combination of options, and compare every position.

* :mod:`~mancala_spec.fast.tables`: where each seed of a lap falls, worked out once;
* :mod:`~mancala_spec.fast.base`: :class:`FastGame`, states, positions, results
  and how a game ended (the reference engine's
  :class:`~mancala_spec.engine.outcome.Outcome`, the one type of both);
* :mod:`~mancala_spec.fast.ba_awa` and :mod:`~mancala_spec.fast.bakuk`: each
  game's kernel, in one place: its moves one game at a time (standard library
  only), and the same steps on many positions or games at once with numpy
  (:class:`~mancala_spec.fast.ba_awa.many.BaAwaBatch`,
  :class:`~mancala_spec.fast.bakuk.BakukBatch`, the solver's moves), which
  import numpy only when used, so ``import mancala_spec.fast`` needs no numpy;
* :mod:`~mancala_spec.fast.batch`: the harness many games run in
  (:func:`playouts`): no rules, only the games' bookkeeping.

A state is a plain tuple ``(pits, to_move, captured, history, moves)`` (see
:mod:`~mancala_spec.fast.base`):

>>> import mancala_spec as ms
>>> from mancala_spec.fast import FastGame
>>> fast = FastGame(ms.get_game("bakuk"))
>>> state = fast.play(fast.start(), 2)   # South sows c: A, B, C, a, b, and c again
>>> pits, to_move, captured, history, moves = state
>>> pits, to_move, moves
((7, 7, 1, 7, 7, 7), 1, (3, 4, 5))
>>> fast.to_position(state) == ms.get_game("bakuk").start().play("c")
True

A finished state's moves field is empty and says how the game ended
(:meth:`FastGame.outcome <mancala_spec.fast.base.FastGame.outcome>`):

>>> over = fast.from_position(ms.get_game("bakuk").parse("0,0,0/2,0,0 S 20-14"))
>>> fast.outcome(over)
Outcome(reason='exhausted', rule='bakuk-exhausted', winner=0)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.outcome import Outcome
from .ba_awa import FastBaAwa, sow
from .ba_awa.many import BaAwaBatch
from .bakuk import BakukBatch, FastBakuk
from .base import Ending, FastGame, State

if TYPE_CHECKING:
    from ..engine.games.base import Game
    from ..engine.position import Position
    from .batch import Playouts


def playouts(game: Game, n: int, seed: int | None = None, opener: int = 0,
             record: bool = False, start: Position | None = None) -> Playouts:
    """Play *n* random games of *game* at once (numpy needed): see
    :func:`mancala_spec.fast.batch.playouts`."""
    from .batch import playouts as batch_playouts
    return batch_playouts(game, n, seed, opener=opener, record=record, start=start)


def __getattr__(name: str) -> Any:
    if name == "Playouts":
        from .batch import Playouts as result
        return result
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BaAwaBatch", "BakukBatch", "Ending", "FastBaAwa", "FastBakuk", "FastGame",
           "Outcome", "State", "playouts", "sow"]

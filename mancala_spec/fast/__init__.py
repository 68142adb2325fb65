"""The fast kernel: the same rules as the traced engine, on plain data, without events.

The traced engine (:meth:`Position.trace <mancala_spec.engine.position.Position.trace>`)
is the reference: every step of a move is an event naming its rule. The kernel
plays the *same* rules, with every option, for programs that play many moves
and need no account of them: random playouts, benchmarks, searches, the solver
(:mod:`mancala_spec.solve`) and the analysis (:mod:`mancala_spec.analysis`).
It is the second and last implementation of the rules; the tests
(``tests/test_fast.py``) play many random games through both, under every
combination of options, and compare every position.

* :mod:`~mancala_spec.fast.tables`: where each seed of a lap falls, worked out once;
* :mod:`~mancala_spec.fast.base`: :class:`FastGame`, states, positions, results;
* :mod:`~mancala_spec.fast.ba_awa` and :mod:`~mancala_spec.fast.bakuk`: each
  game's moves, one game at a time (standard library only);
* :mod:`~mancala_spec.fast.batch` and :mod:`~mancala_spec.fast.batch_playouts`: the
  same on many positions or games at once, with numpy (the solver's
  :class:`~mancala_spec.fast.batch.BakukBatch`, and :func:`playouts`); imported
  only when used, so ``import mancala_spec.fast`` needs no numpy.

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
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .ba_awa import FastBaAwa, sow
from .bakuk import FastBakuk
from .base import FastGame, State

if TYPE_CHECKING:
    from ..engine.games.base import Game
    from ..engine.position import Position
    from .batch_playouts import Playouts


def playouts(game: Game, n: int, seed: int | None = None, opener: int = 0,
             record: bool = False, start: Position | None = None) -> Playouts:
    """Play *n* random games of *game* at once (numpy needed): see
    :func:`mancala_spec.fast.batch_playouts.playouts`."""
    from .batch_playouts import playouts as batch_playouts
    return batch_playouts(game, n, seed, opener=opener, record=record, start=start)


def __getattr__(name: str) -> Any:
    if name == "BakukBatch":
        from .batch import BakukBatch
        return BakukBatch
    if name == "Playouts":
        from .batch_playouts import Playouts as result
        return result
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FastBaAwa", "FastBakuk", "FastGame", "State", "playouts", "sow"]

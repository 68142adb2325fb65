"""How a game ended, as a value.

A finished position has an :class:`Outcome` (``pos.outcome``): why the game
ended, the catalogue rule that ended it, and who won. While the game goes on,
``pos.outcome`` is ``None``. The games decide it in one place each (their
``after_move`` step, run after every move and on every position built by hand),
so nothing reads the ending out of a move's events.

>>> import mancala_spec as ms
>>> pos = ms.get_game("bakuk").parse("1,1,1/1,0,0 S 14-18 opener=S").play("c")
>>> pos.outcome
Outcome(reason='exhausted', rule='bakuk-exhausted', winner=1)
>>> pos.outcome.draw, ms.get_game("bakuk").start().outcome
(False, None)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .trace import GAME_END_REASONS

#: Why a game ended: the ``reason`` of the ``end-of-game`` event, one of
#: :data:`~mancala_spec.engine.trace.GAME_END_REASONS`.
Reason = Literal["eight-seeds", "no-moves", "repetition", "exhausted", "decided", "empty-row",
                 "lap-cap"]


@dataclass(frozen=True)
class Outcome:
    """How a game ended: *reason* (a :data:`Reason`), the *rule* (a
    catalogue rule ID) that ended it, and the *winner* (a player index, or
    ``None`` for a draw)."""

    reason: Reason
    rule: str
    winner: int | None

    @property
    def draw(self) -> bool:
        """True when nobody won: the most seeds captured is shared."""
        return self.winner is None

    def describe(self) -> str:
        """Why the game ended, in English."""
        return GAME_END_REASONS[self.reason]

    def as_dict(self) -> dict[str, object]:
        """The outcome as plain data: ``{"reason", "rule", "winner"}``."""
        return {"reason": self.reason, "rule": self.rule, "winner": self.winner}


__all__ = ["Outcome", "Reason"]

"""Whether a solved value of Ba-awa holds for a position reached with a
history: :func:`value_holds` (standard library only, for the Play page too).

The solver's values (:mod:`mancala_spec.solve.ba_awa`, and the tables of
:mod:`mancala_spec.solved_ba_awa`) are exact for positions with no history, as
the opening and every position just after a capture. A position reached
since the last capture has a history, the positions before it, which the
repetition rule compares (``ba-awa-repetition``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import UnreachedPositionError


def value_holds(value: Any, pits: Sequence[int], to_move: int,
                history: Sequence[tuple[Sequence[int], int]]) -> bool:
    """Whether a solved value of Ba-awa's, a value with no history (as just after
    a capture: :meth:`BaAwaValueTable.value`,
    :meth:`mancala_spec.solve.ba_awa.BaAwaSolution.value`, either given as
    *value*), is the value of the position ``(pits, to_move)`` with *history*,
    the positions since the last capture (``(pits, to_move)`` each, South the
    opener), which the repetition rule compares (``ba-awa-repetition``: a
    recurrence ends the game, the opener taking what remains).

    With any history the opener can force at least the value (a recurrence
    gives the opener all there is), and may force more if a position of the
    history can recur. True where none can: no history; the value is already
    every seed on the board to the opener; or each position of the history is
    worth more to the opener than this one, so the other player's way of
    holding the opener to the value never meets it (see
    :mod:`mancala_spec.solve.ba_awa`). False: the value may be less than the
    opener can force here (or a position is not valued).
    (With ``repetition="play-on"`` no history matters: the value always holds.)
    """
    def south(board: Sequence[int], player: int) -> int | None:
        try:
            v = value(tuple(board), player)
        except UnreachedPositionError:
            return None
        return None if v is None else (v if player == 0 else -v)

    if not history:
        return True
    here = south(pits, to_move)
    if here is None:
        return False
    if here == sum(pits):
        return True
    for board, player in history:
        before = south(board, player)
        if before is None or before <= here:
            return False
    return True

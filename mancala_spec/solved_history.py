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
from typing import TYPE_CHECKING, Any

from .errors import UnreachedPositionError, not_a, not_a_position

if TYPE_CHECKING:
    from .engine.position import Position

#: how many positions :func:`searched_values` may visit by default (the Play page's
#: budget for a position no table holds)
SEARCH_NODES = 20_000


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


def searched_values(pos: Position, nodes: int = SEARCH_NODES) -> dict[int, int] | None:
    """{pit: the margin the player to move can force by playing it} for each legal
    move of a two-player *pos*, found by alpha-beta to the game's end on the fast
    kernel (the position's history, and so the repetition rule, included), exact;
    ``None`` if the search needs more than *nodes* positions."""
    from .fast import FastGame

    if type(nodes) is not int or nodes < 1:
        raise not_a("nodes", nodes, "a whole number of positions, 1 or more")
    from .engine.position import Position

    if not isinstance(pos, Position):
        raise not_a_position("pos", pos)
    fast, state = FastGame.for_position(pos)
    fast.remember_above = -1
    mover = state[1]
    before = state[2][mover] - state[2][1 - mover]
    budget = [nodes]

    class OutOfBudget(Exception):
        pass

    def search(state, alpha: int, beta: int) -> int:   # the mover's final margin
        budget[0] -= 1
        if budget[0] < 0:
            raise OutOfBudget
        moves = state[4]
        if not moves:
            return state[2][mover] - state[2][1 - mover]
        mine = state[1] == mover
        best = -999 if mine else 999
        for pit in moves:
            value = search(fast.play(state, pit), alpha, beta)
            if mine:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    try:
        return {pit: search(fast.play(state, pit), -999, 999) - before for pit in state[4]}
    except (OutOfBudget, RecursionError):          # (a line of play too long to follow)
        return None

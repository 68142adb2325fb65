"""Why a move is not legal, in words: the error :meth:`Position.play
<mancala_spec.engine.position.Position.play>` raises.

The rules decide which moves are legal (each game's ``legal_moves``); this
module only says why another pit is not one of them, in the order a player
would ask: the game is over; the pit is not theirs to choose from; it is
empty; or a rule forbids it (Ba-awa's ba-awa-endless: its sowing never ends).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import IllegalMoveError
from ..options import Choose

if TYPE_CHECKING:  # pragma: no cover
    from .position import Position


def illegal_move(pos: Position, pit: int) -> IllegalMoveError:
    """The error saying why the pit index *pit*, not a legal move of *pos*, is not."""
    name = pos.game.board.name(pit)
    if pos.is_over:
        return IllegalMoveError(f"the game is over: no move can be played (pit {name})",
                                pit=pit, reason="game-over")
    if pit not in pos.game.choice_pits(pos, pos.to_move):
        return IllegalMoveError(why_not_yours(pos, pit), pit=pit, reason="not-yours")
    if pos.pits[pit] == 0:
        return IllegalMoveError(f"pit {name} is empty: a move must lift seeds",
                                pit=pit, reason="empty")
    return IllegalMoveError(why_illegal(pos, pit), pit=pit, reason="rule")


def why_not_yours(pos: Position, pit: int) -> str:
    """Why *pit*, not among the pits the player to move chooses from, is not
    theirs to choose: another player owns it; with Ba-awa's ``choose="row"``,
    it is in another player's row."""
    board = pos.game.board
    mover = board.player_name(pos.to_move)
    if pos.game.options.get("choose") is Choose.ROW:
        return (f"pit {board.name(pit)} is in {board.player_name(board.row_owner(pit))}'s row, "
                f'but {mover} is to move (choose="row": a player chooses from their own row)')
    return (f"pit {board.name(pit)} belongs to {board.player_name(pos.owners[pit])}, "
            f"but {mover} is to move")


def why_illegal(pos: Position, pit: int) -> str:
    """Why a non-empty pit of the player to move is not a legal move: its
    sowing never ends (ba-awa-endless)."""
    if pos.sowing(pit).endless:
        return (f"pit {pos.game.board.name(pit)} starts a relay sowing that never ends: a lap "
                "would start again from a board and pit already seen in this move "
                "(rule ba-awa-endless)")
    return f"pit {pos.game.board.name(pit)} is not a legal move"

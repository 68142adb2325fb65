"""Which captured counts play can reach: the check :meth:`Game.position
<mancala_spec.engine.games.variant.Variant.position>` makes unless told
``allow_unreachable=True`` (:func:`reachable_captures`), and the captured
counts it gives when none are given (:func:`default_captured`).

Every game starts from its setup with nothing captured, and during play seeds
leave the board only as captures, each a whole number of the game's capture
unit; only the takes that end a game, each emptying the board, may be of any
size. No option changes the unit (Koumma's sixes, ``sixes=True`` of bakuk-capture,
are even too); the options decide who may take at the end (:func:`end_takers`). Its
own module (not :mod:`~mancala_spec.engine.checks`) so that
:class:`~mancala_spec.engine.position.Position` can ask it for its repr.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import InvalidPositionError
from ..options import Endless, Leftovers, NoMove

if TYPE_CHECKING:  # pragma: no cover
    from .games.base import Game


#: What each capture made during play takes, by game, as a multiple of a unit:
#: Ba-awa captures fours and only fours (``ba-awa-owner-four``,
#: ``ba-awa-mover-four``: a pit is taken when it holds exactly four); Bakuk
#: captures holes holding two or four, or with ``sixes`` (Koumma) six, the
#: last hole and each hole of the chain alike (``bakuk-capture``,
#: ``bakuk-chain``): always an even number.
CAPTURE_UNIT: dict[str, tuple[int, str]] = {
    "ba-awa": (4, "Ba-awa captures seeds only as fours (rules ba-awa-owner-four, "
                  "ba-awa-mover-four)"),
    "bakuk": (2, "Bakuk captures only twos and fours, and sixes too under Koumma "
                 "(rules bakuk-capture, bakuk-chain)"),
}


def default_captured(game: Game, missing: int) -> tuple[int, ...] | None:
    """The captured counts :meth:`Game.position
    <mancala_spec.engine.games.variant.Variant.position>` gives when none are
    given: the *missing* seeds in the game's capture units
    (:data:`CAPTURE_UNIT`), as evenly as they go, an odd unit to South first
    (then North, then East), so that play can reach them; if they are no
    whole number of units, split evenly if they split evenly (only an empty
    board's counts, or ``allow_unreachable``, can then stand); else ``None``.

    >>> import mancala_spec as ms
    >>> default_captured(ms.get_game("ba-awa"), 36), default_captured(ms.get_game("ba-awa"), 40)
    ((20, 16), (20, 20))
    """
    players = game.players
    if missing < 0:
        return None
    unit = CAPTURE_UNIT.get(game.name, (1, ""))[0]
    if missing % unit == 0:
        units = missing // unit
        return tuple(unit * (units // players + (player < units % players))
                     for player in range(players))
    if missing % players:
        return None
    return (missing // players,) * players


def end_takers(game: Game, opener: int, owners: Sequence[int]) -> frozenset[int]:
    """The players who may have taken seeds as the game ended, under *game*'s
    options: those takes are the only ones not made of :data:`CAPTURE_UNIT`.

    Ba-awa: the opener takes what remains when eight seeds or fewer do
    (``ba-awa-eight``), when nobody can move (``ba-awa-no-move``) and when a
    position recurs (``ba-awa-repetition``); with ``no_move="owners"`` each
    pit's owner takes its seeds; with ``no_move="empty-row"`` the mover or
    the next player takes them, so anyone may have; with ``endless="cap-75"``
    South and North share them. Bakuk: nobody takes the counters left
    (``bakuk-leftovers``), or with ``leftovers="owners"`` each hole's owner.
    ``decided`` takes nothing (it only ends the game) and ``repetition="play-on"``
    takes away an ending, so neither adds a taker; nor do three players or a
    match, whose games each start from the setup with nothing captured."""
    options = game.options
    if game.name == "ba-awa":
        takers = {opener}
        if options["no_move"] is NoMove.OWNERS:
            takers |= set(owners)
        if options["no_move"] is NoMove.EMPTY_ROW:
            takers |= set(range(game.players))
        if options["endless"] is Endless.CAP_75:
            takers |= {0, 1}
        return frozenset(takers)
    if game.name == "bakuk" and options["leftovers"] is Leftovers.OWNERS:
        return frozenset(owners)
    return frozenset()


def reachable_captures(game: Game, pits: Sequence[int], captured: Sequence[int], opener: int,
                       owners: Sequence[int]) -> None:
    """Raise :class:`~mancala_spec.errors.InvalidPositionError`
    (``field="captured"``) if no game can have captured *captured*.

    Every game starts from its setup with nothing captured (``ba-awa-setup``,
    ``bakuk-setup``; so does each game of a match), and during play seeds
    leave the board only as captures of :data:`CAPTURE_UNIT`, so each
    player's count is a multiple of it. The one exception is the end of the
    game: the takes that end it may be of any size, but each of them empties
    the board (every rule that takes the seeds left takes them all). So while
    seeds are on the board every count is a multiple of the unit; once the
    board is empty, every count but those of the players who may have taken
    the last seeds (:func:`end_takers`) still is."""
    unit, why = CAPTURE_UNIT.get(game.name, (1, ""))
    takers = end_takers(game, opener, owners) if not any(pits) else frozenset()
    for player, seeds in enumerate(captured):
        if seeds % unit and player not in takers:
            name = game.board.player_name(player)
            if any(pits):
                when = ("and a take that ends the game takes every seed left, so while "
                        "seeds are on the board")
            else:
                when = ("and " + name + " cannot have taken the seeds left at the end of "
                        "the game under these options, so")
            raise InvalidPositionError(
                f"{name} has captured {seeds}, which play cannot reach: {why}, {when} "
                f"every count is a multiple of {unit}", field="captured")


__all__ = ["CAPTURE_UNIT", "default_captured", "end_takers", "reachable_captures"]

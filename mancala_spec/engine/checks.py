"""The checks on a position built by hand that know no particular game.

:meth:`Game.position <mancala_spec.engine.games.base.Game.position>` (and so
``Game.parse`` and ``Position(game, text)``) checks the data with these: counts
(:func:`seed_counts`), players (:func:`player_index`), the history
(:func:`history_keys`), and that each player's captured count is a whole
number of the game's capture unit, but for the players who may have taken the
seeds left as the game ended (:func:`check_captures`). The game supplies what
is its own (its capture unit and who may take at the end), and then asks its
end-of-move rules whether the position can stand between moves
(:meth:`Game.check_standing <mancala_spec.engine.games.base.Game.check_standing>`).
"""
from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from ..errors import IllegalMoveError, InvalidPositionError, not_a_position, shown
from .board import Board
from .position import Key, Position, Rules
from .sowing import Sowing

#: (:func:`check_step` given no sowing to check)
NOT_GIVEN: Any = object()


def split_in_units(missing: int, unit: int, players: int) -> tuple[int, ...] | None:
    """*missing* seeds shared in whole units of *unit* as evenly as they go, an odd unit
    to South first (then North, then East), so that play can reach them; if
    they are no whole number of units, split evenly if they split evenly (only
    an empty board's counts, or ``allow_unreachable``, can then stand); else ``None``.

    >>> split_in_units(36, 4, 2), split_in_units(40, 4, 2), split_in_units(3, 2, 2)
    ((20, 16), (20, 20), None)
    """
    if missing < 0:
        return None
    if missing % unit == 0:
        units = missing // unit
        return tuple(unit * (units // players + (player < units % players))
                     for player in range(players))
    if missing % players:
        return None
    return (missing // players,) * players


def check_step(game: Rules, pos: object, pit: object = 0, sowing: object = NOT_GIVEN) -> None:
    """Raise :class:`~mancala_spec.errors.InvalidPositionError`
    (``field="game"``) unless *pos* is a position of *game* (or of an equal
    game), and *sowing*, if given, a sowing of it;
    :class:`~mancala_spec.errors.IllegalMoveError` (``reason="no-such-pit"``)
    unless *pit* is a pit index of its board: another game's position would be
    read with this game's board and rules."""
    if not isinstance(pos, Position):
        raise not_a_position("pos", pos)
    if pos.game is not game and pos.game != game:
        raise InvalidPositionError(f"this is a position of {pos.game!r}, not of {game!r}: "
                                   f"play it with its own game (pos.game)", field="game")
    if sowing is not NOT_GIVEN and (not isinstance(sowing, Sowing) or sowing.game != game
                               or len(sowing.pits) != len(pos.pits)):
        raise InvalidPositionError(f"sowing must be a sowing of {game!r} (game.sow_move(pos, "
                                   f"pit) gives one), not {shown(sowing)}", field="game")
    if type(pit) is not int or not 0 <= pit < len(pos.pits):
        raise IllegalMoveError(f"no pit {shown(pit)} on this board: a move is a pit index "
                               f"from 0 to {len(pos.pits) - 1}", pit=pit, reason="no-such-pit")


def captured_by_default(missing: int, *, unit: int, players: int, total: int) -> tuple[int, ...]:
    """:func:`split_in_units`, or :class:`~mancala_spec.errors.InvalidPositionError`
    saying why *missing* of the *total* seeds cannot be split."""
    captured = split_in_units(missing, unit, players)
    if captured is None:
        why = (f" (no game leaves this board while seeds are on it: {missing} are off "
               f"it, not a multiple of {unit}, as every capture is)"
               if missing > 0 and missing % unit else "")
        raise InvalidPositionError(f"the board holds {total - missing} seeds of {total}: give "
                                   f"captured= explicitly{why}", field="captured")
    return captured


def checked_position(game: Rules, pits: Sequence[int], *, to_move: int,
                     captured: Sequence[int] | None, opener: int,
                     owners: Sequence[int] | None) -> Position:
    """The position of *game* these fields describe, without history, its data
    checked: counts, players, owners, and the conservation of seeds; *captured*
    by default the game's (``game.default_captured``)."""
    size, players, total = game.board.size, game.players, game.total_seeds
    pits = seed_counts(pits, size, what="pits", field="pits")
    if captured is None:
        captured = game.default_captured(total - sum(pits))
    captured = seed_counts(captured, players, what="captured", field="captured")
    to_move = player_index(to_move, players, what="to_move", field="to_move")
    opener = player_index(opener, players, what="opener", field="opener")
    owners = game.board.default_owners if owners is None else owners_of(owners, size, players)
    if sum(pits) + sum(captured) != total:
        raise InvalidPositionError(
            f"seeds are not conserved: {sum(pits)} on the board + {sum(captured)} captured "
            f"= {sum(pits) + sum(captured)}, but {game.name} is played with {total}")
    return Position.unchecked(game, pits=tuple(pits), to_move=to_move, captured=tuple(captured),
                              opener=opener, owners=owners)


def check_captures(board: Board, *, unit: int, why: str, takers: Collection[int],
                   pits: Sequence[int], captured: Sequence[int]) -> None:
    """Raise :class:`~mancala_spec.errors.InvalidPositionError`
    (``field="captured"``) if no game can have captured *captured*.

    Every game starts from its setup with nothing captured (so does each game
    of a match), and during play seeds leave the board only as captures of a
    whole number of the game's *unit* (*why* says which rules make them so), so
    each player's count is a multiple of it. The one exception is the end of
    the game: the takes that end it may be of any size, but each of them
    empties the board (every rule that takes the seeds left takes them all).
    So while seeds are on the board every count is a multiple of the unit;
    once the board is empty, every count but those of the *takers* (the
    players who may have taken the last seeds) still is."""
    takers = takers if not any(pits) else ()
    for player, seeds in enumerate(captured):
        if seeds % unit and player not in takers:
            name = board.player_name(player)
            if any(pits):
                when = ("and a take that ends the game takes every seed left, so while "
                        "seeds are on the board")
            else:
                when = ("and " + name + " cannot have taken the seeds left at the end of "
                        "the game under these options, so")
            raise InvalidPositionError(
                f"{name} has captured {seeds}, which play cannot reach: {why}, {when} "
                f"every count is a multiple of {unit}", field="captured")


def owners_of(owners: Any, size: int, players: int) -> tuple[int, ...]:
    """*owners*, one player index for each of the *size* pits, as a tuple."""
    if isinstance(owners, (str, bytes)) or not isinstance(owners, Sequence) \
            or len(owners) != size:
        raise InvalidPositionError(f"owners must list {size} players, one per pit",
                                   field="owners")
    return tuple(player_index(owner, players, what="an owner", field="owners") for owner in owners)


def history_keys(history: Any, *, size: int, players: int, seeds: int) -> tuple[Key, ...]:
    """*history*, (pits, player to move) pairs since the last capture, each
    holding *seeds* like the board and none twice, as a tuple of keys."""
    if isinstance(history, (str, bytes)) or not isinstance(history, Sequence):
        raise InvalidPositionError("history must be a sequence of (pits, player) pairs",
                                   field="history")
    keys: dict[Key, int] = {}        # each entry, with its number (a dict: `in` is quick)
    for number, entry in enumerate(history, start=1):
        try:
            earlier_pits, earlier_player = entry
        except (TypeError, ValueError):
            raise InvalidPositionError(
                f"history entry {number} must be a (pits, player) pair",
                field="history") from None
        earlier_pits = seed_counts(earlier_pits, size, what=f"history entry {number}",
                                   field="history")
        earlier_player = player_index(earlier_player, players, what=f"history entry {number}",
                                      field="history")
        if sum(earlier_pits) != seeds:
            raise InvalidPositionError(
                f"history entry {number} holds {sum(earlier_pits)} seeds, but history only "
                f"goes back to the last capture, so it must hold {seeds} like the board",
                field="history")
        key = (earlier_pits, earlier_player)
        if key in keys:
            raise InvalidPositionError(
                f"history entry {number} repeats entry {keys[key]}, but the game "
                "ends when a position recurs, so no position is seen twice "
                "(the repetition rule)", field="history")
        keys[key] = number
    return tuple(keys)


def seed_counts(values: Any, length: int, *, what: str, field: str) -> tuple[int, ...]:
    """*values*, *length* whole numbers none negative, as a tuple (*what* names
    them in the error, *field* is its field)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InvalidPositionError(f"{what} must be a sequence of {length} seed counts",
                                   field=field)
    if len(values) != length:
        raise InvalidPositionError(f"{what} must have {length} entries, not {len(values)}",
                                   field=field)
    for index, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidPositionError(
                f"{what}[{index}] must be a whole number, not {shown(value)}", field=field)
        if value < 0:
            raise InvalidPositionError(f"{what}[{index}] is negative ({value})", field=field)
    return tuple(values)


def player_index(value: Any, players: int, *, what: str, field: str) -> int:
    """*value*, if it is a player index from 0 to *players* - 1."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise InvalidPositionError(
            f"{what} must be a player index from 0 to {players - 1}, not {shown(value)}",
            field=field)
    return value

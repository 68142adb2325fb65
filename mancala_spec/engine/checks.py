"""The checks on a position built by hand (:meth:`Game.position
<mancala_spec.engine.games.variant.Variant.position>`, or from text).

A position is checked in two parts. :func:`checked_position` checks the data:
counts, players, owners, the history, the conservation of seeds and, unless
``allow_unreachable=True``, whether play can reach the captured counts
(:func:`~mancala_spec.engine.reach.reachable_captures`). Then
:func:`settled` asks the game's own end-of-move rules (``conclude``, the one
place each game decides whether a position ends the game, and how): a position
can stand between moves only if those rules leave it as it is. If they would
pass the turn or take seeds, it cannot occur, and the error says which rule;
if they end the game without changing it, the position is finished and has
their :class:`~mancala_spec.engine.outcome.Outcome`.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InvalidPositionError, not_a, shown
from .position import Key, Position
from .reach import CAPTURE_UNIT, default_captured, reachable_captures
from .sowing import Sowing
from .trace import Capture, Pass

if TYPE_CHECKING:  # pragma: no cover
    from .games.base import Game

#: Why a position cannot stand between moves, by the first thing the end-of-move
#: rules would do to it: take seeds (``Capture``) or pass the turn (``Pass``), and
#: the rule that would do it. ``{seeds}``, ``{mover}``, ``{next}`` are filled in.
UNSETTLED: dict[tuple[type, str], str] = {
    (Capture, "ba-awa-eight"): "the board holds {seeds}, but when eight or fewer remain after a "
                               "move the opener takes them and the game ends (rule ba-awa-eight)",
    (Pass, "ba-awa-no-move"): "{mover} is to move but has no legal move, so the turn would have "
                              "passed to {next} (rule ba-awa-no-move)",
    (Capture, "ba-awa-no-move"): "{mover} is to move but has no legal move, so the game would "
                                 "have ended (rule ba-awa-no-move)",
    (Capture, "ba-awa-repetition"): "the position already occurs in its history, so the game "
                                    "would have ended (rule ba-awa-repetition)",
    (Capture, "bakuk-leftovers"): "this position ends the game, so with leftovers='owners' its "
                                  "counters would already belong to their owners "
                                  "(rule bakuk-leftovers)",
    (Pass, "bakuk-exhausted"): "{mover} is to move but has no counters, so with no_move='pass' "
                               "the turn would have passed (rule bakuk-exhausted)",
}


def settled(pos: Position) -> Position:
    """*pos* as it stands between moves, with its outcome if it is finished.

    Runs the game's end-of-move rules on it; raises
    :class:`~mancala_spec.errors.InvalidPositionError`, naming the rule, if
    they would change it."""
    game = pos.game
    sowing = Sowing(pos)
    after = game.conclude(sowing, pos)
    if sowing.records[:1] and sowing.records[0][0] in (Capture, Pass):
        kind, rule, *_ = sowing.records[0]
        seeds = pos.seeds_on_board
        raise InvalidPositionError(UNSETTLED[kind, rule].format(
            seeds=f"{seeds} seed{'s' if seeds != 1 else ''}",
            mover=game.board.player_name(pos.to_move),
            next=game.board.player_name(after.to_move)))
    return after if after.outcome else pos


def checked_position(game: Game, pits: Sequence[int], to_move: int = 0,
                     captured: Sequence[int] | None = None, opener: int = 0,
                     owners: Sequence[int] | None = None,
                     history: Sequence[tuple[Sequence[int], int]] = (), *,
                     allow_unreachable: bool = False) -> Position:
    """The position of *game* these values describe, checked (see
    :meth:`Game.position <mancala_spec.engine.games.variant.Variant.position>`):
    with *allow_unreachable*, captured counts that play cannot reach
    (:func:`~mancala_spec.engine.reach.reachable_captures`) are accepted, as long as the seeds are
    conserved."""
    if type(allow_unreachable) is not bool:       # ("no" would allow them silently)
        raise not_a("allow_unreachable", allow_unreachable, "True or False")
    size, players, total = game.board.size, game.players, game.total_seeds
    pits = _seed_counts(pits, size, "pits", "pits")
    if captured is None:
        missing = total - sum(pits)
        captured = default_captured(game, missing)
        if captured is None:
            unit = CAPTURE_UNIT.get(game.name, (1, ""))[0]
            why = (f" (no game leaves this board while seeds are on it: {missing} are off "
                   f"it, not a multiple of {unit}, as every capture is)"
                   if missing > 0 and missing % unit else "")
            raise InvalidPositionError(
                f"the board holds {sum(pits)} seeds of {total}: give captured= "
                f"explicitly{why}", field="captured")
    captured = _seed_counts(captured, players, "captured", "captured")
    to_move = _player(to_move, players, "to_move", "to_move")
    opener = _player(opener, players, "opener", "opener")
    if owners is None:
        owners = game.board.default_owners
    else:
        if isinstance(owners, (str, bytes)) or not isinstance(owners, Sequence) \
                or len(owners) != size:
            raise InvalidPositionError(f"owners must list {size} players, one per pit",
                                       field="owners")
        owners = tuple(_player(owner, players, "an owner", "owners") for owner in owners)
    if sum(pits) + sum(captured) != total:
        raise InvalidPositionError(
            f"seeds are not conserved: {sum(pits)} on the board + {sum(captured)} captured "
            f"= {sum(pits) + sum(captured)}, but {game.name} is played with {total}")
    if not allow_unreachable:
        reachable_captures(game, pits, captured, opener, owners)
    keys = _history(history, size, players, sum(pits))
    return settled(Position.unchecked(game, pits, to_move, captured, opener, owners, keys))


def check_reachable(pos: Position) -> Position:
    """*pos*, if play can reach its captured counts; else
    :class:`~mancala_spec.errors.InvalidPositionError` (``field="captured"``)
    saying why (:func:`~mancala_spec.engine.reach.reachable_captures`).

    :func:`checked_position` makes the same check on every position built
    by hand (:meth:`Game.position
    <mancala_spec.engine.games.variant.Variant.position>`, ``Game.parse``,
    ``Position(game, text)``) unless ``allow_unreachable=True`` is given, so
    this is for positions built with it, or by :meth:`Position.unchecked
    <mancala_spec.engine.position.Position.unchecked>`. Positions made by
    play are never checked (they are reachable if their start was).

    >>> import mancala_spec as ms
    >>> bakuk = ms.get_game("bakuk")
    >>> check_reachable(bakuk.parse("0,0,0/2,0,0 S 20-14")).captured
    (20, 14)
    >>> study = bakuk.parse("0,0,0/1,0,0 S 20-15", allow_unreachable=True)
    >>> try:
    ...     check_reachable(study)
    ... except ms.InvalidPositionError as error:
    ...     print(error.field, error.message[:40])
    captured North has captured 15, which play cannot
    """
    if not isinstance(pos, Position):
        raise InvalidPositionError(f"check_reachable takes a Position, not {shown(pos)}",
                                   field="game")
    reachable_captures(pos.game, pos.pits, pos.captured, pos.opener, pos.owners)
    return pos


def _history(history: Any, size: int, players: int, seeds: int) -> tuple[Key, ...]:
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
        earlier_pits = _seed_counts(earlier_pits, size, f"history entry {number}", "history")
        earlier_player = _player(earlier_player, players, f"history entry {number}", "history")
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


def _seed_counts(values: Any, length: int, what: str, field: str) -> tuple[int, ...]:
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


def _player(value: Any, players: int, what: str, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise InvalidPositionError(
            f"{what} must be a player index from 0 to {players - 1}, not {shown(value)}",
            field=field)
    return value

"""Exact values as a yardstick: the value of a state, and of each of its moves.

An :class:`Evaluator` reads the solved tables: Bakuk's (``mancala_spec.solved``,
solved in seconds, numpy needed: the ``solve`` extra) and Ba-awa's
(``mancala_spec.solved_ba_awa``: a folder written by ``mancala-spec solve ba-awa
--write-table DIR``, a full solve of minutes and gigabytes of memory). A value is the
margin the player to move can force from there on: their captures minus the
opponent's, with both playing perfectly. It takes a
:class:`~mancala_spec.engine.position.Position`, a state of the OpenSpiel adapter
or a PettingZoo environment of this package (their ``position``).

>>> import mancala_spec as ms
>>> evaluator = Evaluator.for_game(ms.get_game("bakuk"))
>>> start = ms.get_game("bakuk").start()
>>> evaluator.value(start), evaluator.move_values(start)
(2, {0: -2, 1: 0, 2: 2})
>>> evaluator.best_moves(start), evaluator.loss(start, 1)
([2], 2)

The values are those of the two-player game the table was solved for, without
the adapters' move bound (``max_moves``). Where no table holds the values, the
evaluator says so (:class:`NoValuesError`):

>>> Evaluator.for_game(ms.get_game("ba-awa"))      # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mancala_spec.interop.values.NoValuesError: no table of Ba-awa values was given: ...
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine.games import Game, get_game
from ..engine.position import Position
from ..errors import OptionError, TableError, shown
from ..solved import ValueTable
from ..solved_ba_awa import BaAwaValueTable


class NoValuesError(TableError):
    """No table of exact values holds this game's rules, or this position; ``field``
    is ``"rules"`` (the rules or players are not those of a table given or
    solvable), ``"table"`` (none given where one must be) or ``"position"`` (no game
    from the table's start reaches it)."""


def position_of(state: Any) -> Position:
    """The position of *state*: a Position, an OpenSpiel state of this package, or
    a PettingZoo environment of this package (wrapped or not)."""
    if isinstance(state, Position):
        return state
    for candidate in (state, getattr(state, "unwrapped", None)):
        pos = getattr(candidate, "position", None)
        if isinstance(pos, Position):
            return pos
    raise NoValuesError(f"a position, or a state or environment of this package's adapters, "
                        f"is evaluated, not {shown(state)}", field="position")


class Evaluator:
    """The exact values of *table*'s game (a ``mancala_spec.solved.ValueTable`` or
    ``mancala_spec.solved_ba_awa.BaAwaValueTable``). Build one with
    :meth:`for_game`."""

    def __init__(self, table: ValueTable | BaAwaValueTable, game: Game) -> None:
        self.table = table
        self.game = game

    @classmethod
    def for_game(cls, game: Game | str | Any, table: str | Path | ValueTable | BaAwaValueTable
                 | None = None) -> Evaluator:
        """The evaluator of *game* (a game, a name, or a state whose game is meant):
        for Bakuk the solved table (solved now unless *table*, a table or its file,
        is given); for Ba-awa the table of the folder *table*. :class:`NoValuesError`
        if there is none, or it holds other rules."""
        if isinstance(game, str):
            game = get_game(game)
        elif not isinstance(game, Game):
            played = position_of(game).game
            if not isinstance(played, Game):
                raise NoValuesError(f"{shown(played)} is not a game of this package",
                                    field="rules")
            game = played
        if game.players != 2:
            raise NoValuesError("the tables hold two-player games only: three players' "
                                "captures are not one margin", field="rules")
        if game.name == "bakuk":
            loaded: ValueTable | BaAwaValueTable = _bakuk_table(game, table)
        elif table is None:
            raise NoValuesError(
                "no table of Ba-awa values was given: write one with `mancala-spec solve "
                "ba-awa --write-table DIR` (a full solve: minutes, and gigabytes of memory) and "
                "give its folder", field="table")
        elif isinstance(table, BaAwaValueTable):
            loaded = table
        elif isinstance(table, (str, Path)):
            loaded = BaAwaValueTable.from_folder(table)
        else:
            raise NoValuesError(f"a Ba-awa table is a folder's path, not {shown(table)}",
                                field="table")
        if game.name == "ba-awa" and game.options["decided"]:
            raise NoValuesError("with decided=true a Ba-awa value depends on the captured "
                                "seeds, which the table's positions leave out", field="rules")
        if not loaded.holds_for(game):
            raise NoValuesError(f"the table holds other rules than {game!r}: "
                                + ", ".join(f"{what} is {have!r}, not {solved!r}" for what, have,
                                            solved in loaded.differences(game)), field="rules")
        return cls(loaded, game)

    def _position(self, state: Any) -> Position:
        pos = position_of(state)
        if pos.game != self.game:
            raise NoValuesError(f"this evaluator holds the values of {self.game!r}, not of "
                                f"{pos.game!r}", field="rules")
        if isinstance(self.table, BaAwaValueTable) and not self.table.holds(pos):
            raise NoValuesError("the table holds positions with each row its player's, as "
                                "at the start, not this one", field="position")
        return pos

    def value(self, state: Any) -> int:
        """The margin the player to move can force from *state* on (0 once it is over)."""
        pos = self._position(state)
        if pos.is_over:
            return 0
        value = self.table.value_of(pos)
        if value is None:
            raise _unreached(pos)
        return value

    def move_values(self, state: Any) -> dict[int, int]:
        """{pit: the margin the player to move can force by playing it} for each legal
        move of *state* (the engine plays it: what it captures now, and then the value
        of where it leads)."""
        pos = self._position(state)
        values = self.table.move_values(pos)
        if values is None:
            raise _unreached(pos)
        return values

    def best_moves(self, state: Any) -> list[int]:
        """The legal moves of greatest value, in pit order."""
        values = self.move_values(state)
        best = max(values.values())
        return [pit for pit, value in values.items() if value == best]

    def loss(self, state: Any, pit: int) -> int:
        """What playing *pit* loses against the best move: 0 for a perfect move."""
        values = self.move_values(state)
        if pit not in values:
            raise NoValuesError(f"pit {shown(pit)} is not a legal move here", field="position")
        return max(values.values()) - values[pit]


def _unreached(pos: Position) -> NoValuesError:
    return NoValuesError(f"the table does not hold {pos.to_text()} (no game from its start "
                         "reaches it)", field="position")


def _bakuk_table(game: Game, table: Any) -> ValueTable:
    if isinstance(table, ValueTable):
        return table
    if isinstance(table, (str, Path)):
        try:
            data = Path(table).read_bytes()
        except OSError as error:
            raise NoValuesError(f"cannot read the table {table}: {error.strerror}",
                                field="table") from None
        return ValueTable.from_bytes(data)
    if table is not None:
        raise NoValuesError(f"a Bakuk table is a ValueTable or its file, not {shown(table)}",
                            field="table")
    try:
        from ..solve import Rules, solve
    except ImportError as error:
        raise NoValuesError(f"Bakuk's values are solved now, and {error}", field="table") \
            from None
    try:
        rules = Rules.from_game(game)
    except OptionError as error:
        raise NoValuesError(f"no table holds these rules: {error}", field="rules") from None
    return ValueTable.from_solution(solve(rules))


__all__ = ["Evaluator", "NoValuesError", "position_of"]

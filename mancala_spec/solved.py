"""Bakuk's solved values as a compact table, read with the standard library only.

The solver (:mod:`mancala_spec.solve`) needs numpy, which the Play page's Python
(Pyodide, as the site ships it) does not have. So the site build solves Bakuk
once and writes every reachable position's value into a file
(:func:`write_table`), and the page reads it (:class:`ValueTable`): one signed
byte per position number of the solver's numbering (:meth:`mancala_spec.solve.Moves.keys`,
the rank of the board in the combinatorial number system, times two, plus the
player to move), :data:`UNREACHED` for numbers no game reaches, compressed with
zlib (about 1.7 MB for the standard board).

A move's value, for the player to move, is what it captures now minus what the
opponent captures now, plus (or, if the opponent moves next, minus) the value of
the position it leads to: exactly :meth:`mancala_spec.solve.Solution.move_values`.
A move that ends the game is worth what it scores now (the engine ends it, for
instance, at a repetition, which the solver's history-free positions do not
know).

The board of the solver's own example (two holes a row, three counters each,
the chain running backward: South takes all twelve):

>>> table = ValueTable.from_rules(pits_per_row=2, seeds_per_pit=3, chain="backward")
>>> table.value((3, 3, 3, 3), 0), table.value((12, 0, 0, 0), 1)
(12, None)
>>> ValueTable.from_bytes(table.to_bytes()).value((3, 3, 3, 3), 0)
12
"""
from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import InvalidPositionError, TableError, UnknownGameError, not_a, shown
from .options import Value, game_options, plain, solver_options

if TYPE_CHECKING:
    from .engine.position import Position

#: the byte of a position number that no game reaches
UNREACHED = -128
#: the first line of a table file names the format
MAGIC = "mancala_spec bakuk values 1"
#: the options the solver takes (:func:`mancala_spec.options.solver_options`);
#: every other option of Bakuk is at its default in the solved rules, since the
#: kernel plays no other value of it (:func:`solved_rules`)
SOLVED_OPTIONS = tuple(o.name for o in solver_options("bakuk"))
#: the largest board a table's header may name (far beyond what the solver can
#: number: the position count below is the bound that matters)
MOST_PER_ROW = {"pits_per_row": 64, "seeds_per_pit": 1024}


class ValueTable:
    """The value of every Bakuk position reachable from the opening, for the
    rules *header* names (``pits_per_row``, ``seeds_per_pit`` and the solver's
    options)."""

    def __init__(self, header: dict[str, Any], values: bytes) -> None:
        self.header = header
        self.pits_per_row = int(header["pits_per_row"])
        self.size = 2 * self.pits_per_row
        self.total = self.size * int(header["seeds_per_pit"])
        self.values = values
        # C(x + i, i + 1) for every prefix sum x and hole i (see Moves.keys)
        self.rank = [[comb(x + i, i + 1) for x in range(self.total + 1)]
                     for i in range(self.size)]

    # -- reading and writing ----------------------------------------------------

    @classmethod
    def from_bytes(cls, data: bytes) -> ValueTable:
        """A table from the bytes :meth:`to_bytes` wrote; else
        :class:`~mancala_spec.errors.TableError` saying what is wrong, having
        read no more than the table's header promises (the values are
        decompressed up to one byte past the positions the header's board has,
        and the board is held to the solver's own limit).

        >>> ValueTable.from_bytes(b"not a table")
        Traceback (most recent call last):
        ...
        mancala_spec.errors.TableError: not a table of Bakuk values: its first line is not JSON
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TableError(f"a table is bytes, not {shown(data)}", field="format")
        first, _, rest = bytes(data).partition(b"\n")
        try:
            header = json.loads(first)
        except ValueError:                  # JSONDecodeError and UnicodeDecodeError
            raise TableError("not a table of Bakuk values: its first line is not JSON",
                             field="format") from None
        if not isinstance(header, dict) or header.get("format") != MAGIC:
            raise TableError(f"not a table of Bakuk values: its first line does not say "
                             f"{MAGIC!r}", field="format")
        positions = _positions(header)
        inflate = zlib.decompressobj()
        try:
            values = inflate.decompress(rest, positions + 1)
        except zlib.error as error:
            raise TableError(f"the values are not zlib data ({error})", field="values") from None
        if len(values) != positions or inflate.unconsumed_tail or not inflate.eof \
                or inflate.unused_data:
            raise TableError(f"the values are not one zlib stream of one byte for each of the "
                             f"{positions:,} position numbers of this board", field="values")
        return cls(header, values)

    def to_bytes(self, level: int = 6) -> bytes:
        return (json.dumps(self.header, sort_keys=True).encode() + b"\n"
                + zlib.compress(self.values, level))

    @classmethod
    def from_rules(cls, **rules: Any) -> ValueTable:
        """Solve Bakuk (numpy needed) with *rules* (the keywords of
        :class:`mancala_spec.solve.Rules`) and tabulate its values."""
        from .solve import Rules, solve

        return cls.from_solution(solve(Rules(**rules)))

    @classmethod
    def from_solution(cls, solution) -> ValueTable:
        """The table of a :class:`mancala_spec.solve.Solution` (solved from the opening)."""
        import numpy as np

        from .solve import Moves

        solved = solution.rules
        moves = Moves(solved)
        dense = np.full(2 * moves.levels[-1], UNREACHED, dtype=np.int8)
        dense[solution.keys] = solution.values
        header = {"format": MAGIC, "pits_per_row": solved.pits_per_row,
                  "seeds_per_pit": solved.seeds_per_pit, **solved.options()}
        return cls(header, dense.tobytes())

    def holds_for(self, game) -> bool:
        """Whether these are the values of *game*'s rules: Bakuk with this board
        and every option of the game as the solver had it (:func:`differences`);
        :class:`~mancala_spec.errors.UnknownGameError` if *game* is not a game
        (:func:`mancala_spec.get_game` gives one)."""
        return not self.differences(game)

    def differences(self, game) -> list[Difference]:
        """How *game*'s rules differ from those these values hold for
        (:func:`differences`)."""
        return differences(game, self.header)

    # -- values -----------------------------------------------------------------

    def _board(self, pits: Any, to_move: Any) -> tuple[int, ...]:
        """*pits* as a board of this table, with *to_move* a player of it; else
        :class:`~mancala_spec.errors.InvalidPositionError`."""
        if isinstance(pits, (str, bytes)) or not isinstance(pits, Sequence) \
                or len(pits) != self.size \
                or not all(type(seeds) is int and seeds >= 0 for seeds in pits):
            raise InvalidPositionError(f"a board of this table is {self.size} counts of "
                                       f"counters, not {shown(pits)}", field="pits")
        if sum(pits) > self.total:
            raise InvalidPositionError(f"the board holds {sum(pits)} counters, more than the "
                                       f"{self.total} of this table's game", field="pits")
        if type(to_move) is not int or to_move not in (0, 1):
            raise InvalidPositionError(f"the player to move is 0 or 1, not {shown(to_move)}",
                                       field="to_move")
        return tuple(pits)

    def _position(self, pos: Any) -> Position:
        """*pos*, if it is a position of the rules this table holds; else
        :class:`~mancala_spec.errors.InvalidPositionError`."""
        from .engine.position import Position

        if not isinstance(pos, Position) or not self.holds_for(pos.game):
            raise InvalidPositionError(f"this table holds the values of {self.rules_named()}, "
                                       f"not of {shown(pos)}", field="game")
        return pos

    def rules(self) -> dict[str, Any]:
        """The rules these values hold for (:func:`solved_rules`)."""
        return solved_rules(self.header)

    def rules_named(self) -> str:
        """The rules of this table in words: the board and the solver's options."""
        options = ", ".join(f"{name}={self.header[name]!r}" for name in SOLVED_OPTIONS)
        return (f"Bakuk with {self.pits_per_row} holes a row and "
                f"{self.header['seeds_per_pit']} counters a hole ({options})")

    def key(self, pits, to_move: int) -> int:
        """The solver's number of the position (:meth:`mancala_spec.solve.Moves.keys`);
        :class:`~mancala_spec.errors.InvalidPositionError` if it is no position
        of this board."""
        pits = self._board(pits, to_move)
        rank, prefix = 0, 0
        for i, seeds in enumerate(pits):
            prefix += seeds
            rank += self.rank[i][prefix]
        return 2 * rank + to_move

    def value(self, pits, to_move: int) -> int | None:
        """The margin the player to move can force, or ``None`` if no game from
        the opening reaches this position
        (:class:`~mancala_spec.errors.InvalidPositionError` if it is no position
        of this board)."""
        byte = self.values[self.key(pits, to_move)]
        value = byte - 256 if byte > 127 else byte
        return None if value == UNREACHED else value

    def value_of(self, pos: Position) -> int | None:
        """:meth:`value` of a position of the game (``None`` once it is over;
        :class:`~mancala_spec.errors.InvalidPositionError` for a position of
        other rules)."""
        pos = self._position(pos)
        return None if pos.is_over else self.value(pos.pits, pos.to_move)

    def move_values(self, pos: Position) -> dict[int, int] | None:
        """{pit: the margin the player to move can force by playing it} for each
        legal move of *pos* (see the module), or ``None`` if a position it
        leads to is not in the table (:class:`~mancala_spec.errors.InvalidPositionError`
        for a position of other rules)."""
        pos = self._position(pos)
        mover = pos.to_move
        result = {}
        for pit in pos.legal_moves():
            after = pos.play(pit)
            gained = [a - b for a, b in zip(after.captured, pos.captured)]
            worth = gained[mover] - sum(g for p, g in enumerate(gained) if p != mover)
            if after.is_over:
                result[pit] = worth
                continue
            later = self.value(after.pits, after.to_move)
            if later is None:
                return None
            result[pit] = worth + (later if after.to_move == mover else -later)
        return result


#: one way a game's rules differ from the solved rules: what (an option's name,
#: or ``game``, ``pits_per_row``, ``seeds_per_pit``), the game's value, the solved value
Difference = tuple[str, Any, Any]


def standard_header() -> dict[str, Any]:
    """The header of the table the site ships (``write_table`` with no rules:
    the solver's defaults, :class:`mancala_spec.solve.Rules`, on Bakuk's own
    board), known without reading the table."""
    from .engine.games import get_game

    game = get_game("bakuk")
    return {"format": MAGIC, "pits_per_row": game.board.pits_per_row,
            "seeds_per_pit": game.seeds_per_pit,
            **{name: plain(game.options[name]) for name in SOLVED_OPTIONS}}


def solved_rules(header: dict[str, Any]) -> dict[str, Any]:
    """Every rule the values of a table with *header* hold for, from the one
    declaration of the options (:mod:`mancala_spec.options`): the game, the
    board, and each option of Bakuk, the header's value for those the solver
    takes (:data:`SOLVED_OPTIONS`) and the default for every other (the solver
    plays the game with the fast kernel, which plays no other value of them;
    the three-player form is not solved).

    >>> rules = solved_rules(standard_header())
    >>> rules["first_counter"], rules["sixes"], rules["players"], rules["pits_per_row"]
    ('next', False, 2, 3)
    """
    game = header.get("game", "bakuk")      # a Bakuk table's header names no game
    rules: dict[str, Any] = {"game": game, "pits_per_row": header["pits_per_row"],
                             "seeds_per_pit": header["seeds_per_pit"]}
    named = SOLVED_OPTIONS if game == "bakuk" else tuple(o.name for o in game_options(game))
    for declared in game_options(game):
        value: Value = header[declared.name] if declared.name in named else declared.default
        rules[declared.name] = plain(value)
    return rules


def differences(game, header: dict[str, Any] | None = None) -> list[Difference]:
    """How *game*'s rules differ from those the values of a table with *header*
    (by default the site's, :func:`standard_header`) hold for: ``(what, the
    game's, the solved)`` for the game, its board and each of its options (every
    option the game has, as declared), in that order; empty if they are the
    same rules. :class:`~mancala_spec.errors.UnknownGameError` if *game* is not
    a game (:func:`mancala_spec.get_game` gives one).

    >>> import mancala_spec as ms
    >>> differences(ms.get_game("bakuk"))
    []
    >>> differences(ms.get_game("bakuk", ruleset="koumma"))
    [('first_counter', 'origin', 'next'), ('sixes', True, False)]
    """
    from .engine.games import GAMES, Game

    if not isinstance(game, Game):
        raise UnknownGameError(f"the solved rules are compared with a game (get_game gives "
                               f"one), not {shown(game)}", name=game, known=tuple(GAMES))
    solved = solved_rules(standard_header() if header is None else header)
    if game.name != solved["game"]:
        return [("game", game.name, solved["game"])]
    have = {"game": game.name, "pits_per_row": game.board.pits_per_row,
            "seeds_per_pit": game.seeds_per_pit,
            **{name: plain(value) for name, value in game.options.items()}}
    out = [(name, have.get(name), solved.get(name)) for name in dict.fromkeys([*solved, *have])
           if have.get(name) != solved.get(name)
           or type(have.get(name)) is not type(solved.get(name))]
    return out


def _positions(header: dict[str, Any]) -> int:
    """How many position numbers the header's board has (two per board of at
    most its counters: :meth:`mancala_spec.solve.Moves.keys`), once its board
    and options are checked; :class:`~mancala_spec.errors.TableError` if not."""
    for name in ("pits_per_row", "seeds_per_pit"):
        number = header.get(name)
        if type(number) is not int or not 1 <= number <= MOST_PER_ROW[name]:
            raise TableError(f"the header's {name} is {shown(number)}, not a whole number "
                             f"from 1 to {MOST_PER_ROW[name]}", field="header")
    for name in SOLVED_OPTIONS:
        if name not in header:
            raise TableError(f"the header does not name the option {name}", field="header")
    size = 2 * header["pits_per_row"]
    positions = 2 * comb(size * header["seeds_per_pit"] + size, size)
    if positions >= 2 ** 31:                # the solver's own limit (solve.Moves)
        raise TableError(f"the header's board has {positions:,} position numbers, more "
                         "than the solver numbers", field="header")
    return positions


def write_table(path: Path, table: ValueTable | None = None, **rules: Any) -> Path:
    """Write *table* (by default: Bakuk solved with *rules*) to *path*, whole or not
    at all (the one file writer, :func:`mancala_spec.terminal.output.write_atomic`),
    once :func:`mancala_spec.verify.checked` has checked it (the second path: a
    table whose values or positions are not what the rules give raises
    :class:`~mancala_spec.verify.TableInconsistent`, and nothing is written)."""
    if not isinstance(path, (str, Path)):
        raise not_a("path", path, "a file's path")
    if table is not None and not isinstance(table, ValueTable):
        raise not_a("table", table, "a ValueTable")
    path = Path(path)
    data = (table or ValueTable.from_rules(**rules)).to_bytes()
    import tempfile

    from .terminal.output import write_atomic
    from .verify import checked

    with tempfile.TemporaryDirectory(prefix="mancala-spec-") as scratch:
        trial = Path(scratch) / "table"
        trial.write_bytes(data)
        checked(trial)             # the second path: TableInconsistent, nothing written
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data)
    return path


__all__ = ["MAGIC", "SOLVED_OPTIONS", "UNREACHED", "Difference", "ValueTable", "differences",
           "solved_rules", "standard_header", "write_table"]

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

import bisect
import json
import os
import shutil
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
    """Write *table* (by default: Bakuk solved with *rules*) to *path*."""
    if not isinstance(path, (str, Path)):
        raise not_a("path", path, "a file's path")
    if table is not None and not isinstance(table, ValueTable):
        raise not_a("table", table, "a ValueTable")
    path = Path(path)
    data = (table or ValueTable.from_rules(**rules)).to_bytes()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(path)
    return path


# -- Ba-awa: a table in shards -----------------------------------------------------

#: the format the index of a Ba-awa table names
BA_AWA_MAGIC = "mancala_spec ba-awa values 1"
#: the index's file in a Ba-awa table's folder: the rules, the start, and each
#: level's shards (the first key, positions and CRC-32 of each)
INDEX = "index.json"
#: the positions of a level a shard holds (the level's last shard fewer)
SHARD_POSITIONS = 32_768
#: the positions the exact search looks at, at most, for a position the table does
#: not hold (:func:`searched_values`)
SEARCH_NODES = 20_000
_BA_AWA_PITS = 12
# C(x + i, i + 1) for every prefix sum x (up to 48 seeds) and pit i < 11: the solver's
# numbering of a level's boards (mancala_spec.solve.ba_awa_levels.Numbering)
_BA_AWA_RANK = [[comb(x + i, i + 1) for x in range(49)] for i in range(_BA_AWA_PITS - 1)]


class MissingShards(TableError):
    """The shards of a Ba-awa table that a question needs and that are not there
    yet (``names``, the files of the table's folder); ``field`` is ``"missing"``.
    The Play page's worker fetches them and asks again."""

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__(f"the table's files {', '.join(names)} are needed and not loaded",
                         field="missing")
        self.names = tuple(names)


def ba_awa_key(pits: Sequence[int], to_move: int) -> int:
    """The solver's number of a Ba-awa position within its level (seeds on the
    board): its board's rank, times two, plus the player to move."""
    rank, prefix = 0, 0
    for i in range(_BA_AWA_PITS - 1):
        prefix += pits[i]
        rank += _BA_AWA_RANK[i][prefix]
    return 2 * rank + to_move


def shard_name(seeds: int, number: int) -> str:
    """The file of a level's shard *number* in a table's folder."""
    return f"{seeds}-{number:05d}.bin"


def ba_awa_standard_header() -> dict[str, Any]:
    """The rules of the Ba-awa table a site build ships by default (every option
    at its default), known before the table is read."""
    from .engine.games import get_game

    game = get_game("ba-awa")
    return {"format": BA_AWA_MAGIC, "game": "ba-awa", "pits_per_row": game.board.pits_per_row,
            "seeds_per_pit": game.seeds_per_pit,
            **{name: plain(value) for name, value in game.options.items()}}


class BaAwaValueTable:
    """Ba-awa's solved values (:mod:`mancala_spec.solve.ba_awa`), read with the
    standard library only, a shard at a time: a folder written by
    :func:`write_ba_awa_table` holds the index (:data:`INDEX`) and, for each
    level (seeds on the board), its positions sorted by the solver's number
    (:func:`ba_awa_key`) cut into shards of :data:`SHARD_POSITIONS`: each the
    numbers as differences from the one before (LEB128) and a signed byte a
    position, its value from the opener's (South's) side, compressed with zlib.

    *read* gives a file of the table's folder by name (``None`` if it is not
    there): a question whose shards are not there raises :class:`MissingShards`
    naming all it needs, so that they can be fetched and the question asked again.
    A damaged file raises :class:`~mancala_spec.errors.TableError`, one line.
    """

    def __init__(self, index: dict[str, Any], read: Any) -> None:
        self.header = _checked_index(index)
        self.read = read
        self.levels: dict[int, list[list[int]]] = {
            int(seeds): level["shards"] for seeds, level in index["levels"].items()}
        self.firsts = {seeds: [shard[0] for shard in shards]
                       for seeds, shards in self.levels.items()}
        self.shards: dict[str, tuple[list[int], bytes]] = {}

    @classmethod
    def from_folder(cls, folder: str | Path) -> BaAwaValueTable:
        """The table written into *folder*; :class:`~mancala_spec.errors.TableError`
        if its index is missing or not such an index."""
        folder = Path(folder)

        def read(name: str) -> bytes | None:
            try:
                return (folder / name).read_bytes()
            except FileNotFoundError:
                return None
            except OSError as error:
                raise TableError(f"cannot read {name} of the table: {error.strerror}",
                                 field="values") from None

        data = read(INDEX)
        if data is None:
            raise TableError(f"{folder} holds no table of Ba-awa values (no {INDEX})",
                             field="format")
        return cls.from_index(data, read)

    @classmethod
    def from_index(cls, data: bytes, read: Any) -> BaAwaValueTable:
        """The table of the index *data* (the bytes of :data:`INDEX`), its shards
        given by *read*."""
        try:
            index = json.loads(data)
        except ValueError:
            raise TableError("not a table of Ba-awa values: its index is not JSON",
                             field="format") from None
        return cls(index, read)

    def __len__(self) -> int:
        return sum(count for shards in self.levels.values() for _, count, _ in shards)

    def files(self) -> list[str]:
        """Every file of the table's folder: the index, then the shards."""
        return [INDEX, *(shard_name(seeds, n) for seeds, shards in sorted(self.levels.items())
                         for n in range(len(shards)))]

    # -- rules --------------------------------------------------------------------

    def differences(self, game) -> list[Difference]:
        """How *game*'s rules differ from those these values hold for
        (:func:`differences`)."""
        return differences(game, self.header)

    def holds_for(self, game) -> bool:
        return not self.differences(game)

    def holds(self, pos: Position) -> bool:
        """Whether these values are those of *pos*: its rules are the table's and
        each row is owned by its player, as at the start (the table's games are
        South's to open; a game North opened is the same game with the rows
        turned and the players swapped: :meth:`oriented`)."""
        return self.holds_for(pos.game) and tuple(pos.owners) == tuple(pos.game.start().owners)

    @staticmethod
    def oriented(pos: Position) -> tuple[tuple[int, ...], int]:
        """*pos* as the table holds it, ``(pits, to_move)``: as it is if South
        opened; if North did, each row moved to the other side and the players
        swapped (the rules treat the two players alike but for who opened, and
        sow both rows the same way round, so its value for the player to move
        is the same)."""
        pits = tuple(pos.pits)
        if pos.opener == 0:
            return pits, pos.to_move
        return pits[_BA_AWA_PITS // 2:] + pits[:_BA_AWA_PITS // 2], 1 - pos.to_move

    def value_of(self, pos: Position) -> int | None:
        """:meth:`value` of a position of a game the table holds (:meth:`holds`)."""
        return self.value(*self.oriented(pos))

    # -- shards -------------------------------------------------------------------

    def _where(self, pits: Sequence[int], to_move: int) -> tuple[str, int] | None:
        """The shard that would hold the position, and its number; None if no
        level or shard of the table can."""
        seeds = sum(pits)
        firsts = self.firsts.get(seeds)
        key = ba_awa_key(pits, to_move)
        if not firsts or key < firsts[0]:
            return None
        return shard_name(seeds, bisect.bisect_right(firsts, key) - 1), key

    def _shard(self, name: str) -> tuple[list[int], bytes] | None:
        """The shard *name* (its numbers and values), read once; None if it is not there."""
        if name not in self.shards:
            data = self.read(name)
            if data is None:
                return None
            seeds_text, number = name[:-len(".bin")].split("-")
            first, count, crc = self.levels[int(seeds_text)][int(number)]
            self.shards[name] = _decoded_shard(name, data, first, count, crc)
        return self.shards[name]

    def need(self, positions: Sequence[tuple[Sequence[int], int]]) -> list[str]:
        """The shards the *positions* ``(pits, to_move)`` need that are not there
        (they are read if they are)."""
        missing = []
        for pits, to_move in positions:
            where = self._where(pits, to_move)
            if where is not None and where[0] not in missing and self._shard(where[0]) is None:
                missing.append(where[0])
        return missing

    def value(self, pits: Sequence[int], to_move: int) -> int | None:
        """The margin the player to move can force (as in
        :meth:`mancala_spec.solve.ba_awa.BaAwaSolution.value`), or ``None`` if no
        game from the table's start reaches the position; :class:`MissingShards`
        if its shard is not there."""
        pits, to_move = _ba_awa_checked(pits, to_move)
        where = self._where(pits, to_move)
        if where is None:
            return None
        shard = self._shard(where[0])
        if shard is None:
            raise MissingShards([where[0]])
        keys, values = shard
        row = bisect.bisect_left(keys, where[1])
        if row == len(keys) or keys[row] != where[1]:
            return None
        u = values[row] - 256 if values[row] > 127 else values[row]
        return u if to_move == 0 else -u

    def move_values(self, pos: Position) -> dict[int, int] | None:
        """{pit: the margin the player to move can force by playing it} for each
        legal move of *pos*: what the move captures now (the engine plays it,
        so a move that ends the game, at a repetition say, is worth what it
        scores) and the value of the position it leads to; ``None`` if one of
        those is not in the table. :class:`MissingShards` names every shard
        needed that is not there."""
        mover = pos.to_move
        after = {pit: pos.play(pit) for pit in pos.legal_moves()}
        missing = self.need([self.oriented(a) for a in after.values() if not a.is_over])
        if missing:
            raise MissingShards(missing)
        result = {}
        for pit, later in after.items():
            gained = [a - b for a, b in zip(later.captured, pos.captured)]
            worth = gained[mover] - sum(g for p, g in enumerate(gained) if p != mover)
            if later.is_over:
                result[pit] = worth
                continue
            value = self.value_of(later)
            if value is None:
                return None
            result[pit] = worth + (value if later.to_move == mover else -value)
        return result


def _ba_awa_checked(pits: Any, to_move: Any) -> tuple[tuple[int, ...], int]:
    if isinstance(pits, (str, bytes)) or not isinstance(pits, Sequence) \
            or len(pits) != _BA_AWA_PITS or not all(type(x) is int and x >= 0 for x in pits) \
            or sum(pits) > 48:
        raise InvalidPositionError(f"a Ba-awa board is {_BA_AWA_PITS} counts of seeds, "
                                   f"48 at most, not {shown(pits)}", field="pits")
    if type(to_move) is not int or to_move not in (0, 1):
        raise InvalidPositionError(f"the player to move is 0 or 1, not {shown(to_move)}",
                                   field="to_move")
    return tuple(pits), to_move


def _checked_index(index: Any) -> dict[str, Any]:
    """The header of a table's *index* (the rules, the start, the version), once
    its format, rules and levels are checked; else :class:`TableError`."""
    if not isinstance(index, dict) or index.get("format") != BA_AWA_MAGIC:
        raise TableError(f"not a table of Ba-awa values: its index does not say "
                         f"{BA_AWA_MAGIC!r}", field="format")
    header = {k: v for k, v in index.items() if k != "levels"}
    missing = [o.name for o in game_options("ba-awa") if o.name not in header]
    if header.get("game") != "ba-awa" or missing:
        raise TableError("the index does not name the game ba-awa and each of its options"
                         + (f" ({', '.join(missing)} missing)" if missing else ""),
                         field="header")
    levels = index.get("levels")
    if not isinstance(levels, dict):
        raise TableError("the index has no levels", field="header")
    for seeds, level in levels.items():
        shards = level.get("shards") if isinstance(level, dict) else None
        if not (seeds.isdigit() and 12 <= int(seeds) <= 48 and int(seeds) % 4 == 0) \
                or not isinstance(shards, list) or not shards \
                or not all(isinstance(s, list) and len(s) == 3
                           and all(type(x) is int and x >= 0 for x in s)
                           and 0 < s[1] <= SHARD_POSITIONS for s in shards) \
                or any(a[0] >= b[0] for a, b in zip(shards, shards[1:])):
            raise TableError(f"the index's level {shown(seeds)} is not a list of shards "
                             "(first number, positions, CRC-32), in order", field="header")
    return header


def _decoded_shard(name: str, data: bytes, first: int, count: int,
                   crc: int) -> tuple[list[int], bytes]:
    """A shard's numbers and values from its bytes, checked against the index."""
    if zlib.crc32(data) != crc:
        raise TableError(f"the table's file {name} is damaged or of another table: its "
                         "CRC-32 is not the index's", field="values")
    try:
        inflate = zlib.decompressobj()
        raw = inflate.decompress(data, 11 * count + 1)
    except zlib.error as error:
        raise TableError(f"the table's file {name} is not zlib data ({error})",
                         field="values") from None
    keys = [0] * count
    at, key = 0, 0
    try:
        for n in range(count):
            shift = delta = 0
            while True:
                byte = raw[at]
                at += 1
                delta |= (byte & 0x7F) << shift
                if byte < 0x80:
                    break
                shift += 7
            key += delta
            keys[n] = key
    except IndexError:
        raise TableError(f"the table's file {name} ends before its {count:,} positions",
                         field="values") from None
    values = raw[at:]
    if keys[0] != first or len(values) != count or not inflate.eof:
        raise TableError(f"the table's file {name} does not hold the {count:,} positions "
                         "the index says", field="values")
    return keys, values


def check_table_folder(folder: str | Path) -> Path:
    """*folder*, if a table may be written there: it is not there, or empty, or
    holds a table (which is replaced); else :class:`TableError`."""
    folder = Path(folder)
    if folder.exists() and not (folder / INDEX).is_file() \
            and (not folder.is_dir() or any(folder.iterdir())):
        raise TableError(f"{folder} is not empty and holds no table of values: it is not "
                         "replaced", field="format")
    return folder


def write_ba_awa_table(folder: str | Path, solution: Any,
                       shard_positions: int = SHARD_POSITIONS, progress: Any = None) -> Path:
    """Write a :class:`~mancala_spec.solve.ba_awa.BaAwaSolution` (numpy needed)
    as a table into *folder* (:class:`BaAwaValueTable` reads it), whole or not
    at all: into a temporary folder beside it, renamed at the end (an
    interruption leaves nothing). A *folder* already there must be such a
    table (it is replaced) or empty; :class:`TableError` if not. *progress*, if
    given, is called as ``progress("writing", positions written, positions)``."""
    import numpy as np

    from . import __version__

    if not isinstance(folder, (str, Path)):
        raise not_a("folder", folder, "a folder's path")
    if type(shard_positions) is not int or not 1 <= shard_positions <= SHARD_POSITIONS:
        raise not_a("shard_positions", shard_positions,
                    f"a whole number from 1 to {SHARD_POSITIONS:,}")
    folder = check_table_folder(folder)
    game = solution.rules.game
    pits, to_move = solution.start
    header = {"format": BA_AWA_MAGIC, "game": "ba-awa",
              "pits_per_row": game.board.pits_per_row, "seeds_per_pit": game.seeds_per_pit,
              **{name: plain(value) for name, value in game.options.items()},
              "start": {"pits": list(pits), "to_move": to_move},
              "version": __version__}
    partial = folder.with_name(f".{folder.name}.{os.getpid()}.part")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    try:
        levels: dict[str, Any] = {}
        written = 0
        for seeds in sorted(solution.levels, reverse=True):
            keys = np.asarray(solution.levels[seeds], dtype=np.int64)
            values = np.asarray(solution.values[seeds], dtype=np.int8)
            shards = []
            for number, at in enumerate(range(0, len(keys), shard_positions)):
                part = keys[at:at + shard_positions]
                deltas = np.diff(part, prepend=0)
                data = zlib.compress(_leb128(deltas) + values[at:at + shard_positions].tobytes(), 9)
                (partial / shard_name(seeds, number)).write_bytes(data)
                shards.append([int(part[0]), len(part), zlib.crc32(data)])
                written += len(part)
                if progress is not None:
                    progress("writing", written, len(solution))
            levels[str(seeds)] = {"positions": len(keys), "shards": shards}
        (partial / INDEX).write_text(json.dumps({**header, "positions": len(solution),
                                                 "levels": levels}) + "\n", encoding="utf-8")
        if folder.exists():
            old = folder.with_name(f".{folder.name}.{os.getpid()}.old")
            folder.rename(old)
            partial.rename(folder)
            shutil.rmtree(old, ignore_errors=True)
        else:
            partial.rename(folder)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return folder


def _leb128(values: Any) -> bytes:
    """Non-negative whole numbers (a numpy array) as LEB128: seven bits a byte, the
    lowest first, the high bit set on every byte but a number's last."""
    import numpy as np

    v = values.astype(np.uint64)
    lengths = np.ones(len(v), dtype=np.int64)
    rest = v >> np.uint64(7)
    while rest.any():
        lengths += rest > 0
        rest >>= np.uint64(7)
    starts = np.cumsum(lengths) - lengths
    out = np.zeros(int(lengths.sum()), dtype=np.uint8)
    for j in range(int(lengths.max(initial=1))):
        sel = lengths > j
        byte = ((v[sel] >> np.uint64(7 * j)) & np.uint64(0x7F)).astype(np.uint8)
        byte |= (lengths[sel] > j + 1).astype(np.uint8) << np.uint8(7)
        out[starts[sel] + j] = byte
    return out.tobytes()


def searched_values(pos: Position, nodes: int = SEARCH_NODES) -> dict[int, int] | None:
    """{pit: the margin the player to move can force by playing it} for each legal
    move of a two-player *pos*, found by alpha-beta to the game's end on the fast
    kernel (the position's history, and so the repetition rule, included), exact;
    ``None`` if the search needs more than *nodes* positions."""
    from .fast import FastGame

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
    except OutOfBudget:
        return None


__all__ = ["BA_AWA_MAGIC", "INDEX", "MAGIC", "SHARD_POSITIONS", "SOLVED_OPTIONS", "UNREACHED",
           "BaAwaValueTable", "Difference", "MissingShards", "ValueTable", "ba_awa_key",
           "ba_awa_standard_header", "differences", "searched_values", "shard_name",
           "solved_rules", "standard_header", "write_ba_awa_table", "write_table"]

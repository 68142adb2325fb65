"""Ba-awa's solved values as a table in shards, read with the standard library only.

The Ba-awa solver (:mod:`mancala_spec.solve.ba_awa`) holds 77 million positions
from the opening: too many for one file the Play page could load. So
:func:`write_ba_awa_table` writes them as a folder: an index (:data:`INDEX`: the
rules solved, every option, the start, the version, and each level's shards by
first key, count and CRC-32) and shards of :data:`SHARD_POSITIONS` positions (the
keys delta-coded as LEB128, the values as signed bytes, compressed with zlib).
:class:`BaAwaValueTable` answers from the index and the shards a question needs,
and names those missing (:class:`MissingShards`), which the page's worker fetches
before it asks again. A position the table does not hold is searched
(:func:`~mancala_spec.solved_history.searched_values`: exact, or nothing, within
:data:`~mancala_spec.solved_history.SEARCH_NODES`).
Bakuk's table, one file, is :mod:`mancala_spec.solved`.
"""
from __future__ import annotations

import bisect
import json
import zlib
from collections.abc import Sequence
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import InvalidPositionError, TableError, not_a, not_a_position, shown
from .options import plain
from .solved import Difference, differences
from .solved_ba_awa_index import INDEX_BYTES, check_shard, checked_index, leb128, shard_bytes
from .solved_history import SEARCH_NODES, searched_values, value_holds
from .terminal.reading import folder_of, json_bounded, read_bounded

if TYPE_CHECKING:
    from .engine.position import Position

#: the format the index of a Ba-awa table names
BA_AWA_MAGIC = "mancala_spec ba-awa values 1"
#: the index's file in a Ba-awa table's folder: the rules, the start, and each
#: level's shards (the first key, positions and CRC-32 of each)
INDEX = "index.json"
#: the positions of a level a shard holds (the level's last shard fewer)
SHARD_POSITIONS = 32_768
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
    pits, to_move = _ba_awa_checked(pits, to_move)
    rank, prefix = 0, 0
    for i in range(_BA_AWA_PITS - 1):
        prefix += pits[i]
        rank += _BA_AWA_RANK[i][prefix]
    return 2 * rank + to_move


def shard_name(seeds: int, number: int) -> str:
    """The file of a level's shard *number* in a table's folder."""
    if type(seeds) is not int or not 0 <= seeds <= 48:
        raise not_a("seeds", seeds, "a whole number of seeds from 0 to 48")
    if type(number) is not int or not 0 <= number < 10**9:
        raise not_a("number", number, "a shard's number, a whole number from 0")
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
        if not callable(read):
            raise not_a("read", read, "a function giving a file of the table by name")
        self.header = checked_index(index, BA_AWA_MAGIC, SHARD_POSITIONS)
        self.read = read
        self.levels: dict[int, list[list[int]]] = {
            int(seeds): level["shards"] for seeds, level in index["levels"].items()}
        self.firsts = {seeds: [shard[0] for shard in shards]
                       for seeds, shards in self.levels.items()}
        self.shards: dict[str, tuple[list[int], bytes]] = {}
        start = self.header["start"]
        where = self._where(start["pits"], start["to_move"])
        if where is None or where[1] >= self._end(where[0]):
            raise TableError("not a table of Ba-awa values: no shard of its index holds its "
                             "start", field="header")

    @classmethod
    def from_folder(cls, folder: str | Path) -> BaAwaValueTable:
        """The table written into *folder*; :class:`~mancala_spec.errors.TableError`
        if its index is missing or not such an index. Every file is read by the
        one bounded reader (:func:`mancala_spec.terminal.reading.read_bounded`): regular
        files only, each no larger than what it can hold."""
        folder = folder_of(folder)

        def read(name: str) -> bytes | None:
            limit = INDEX_BYTES if name == INDEX else shard_bytes(SHARD_POSITIONS)
            return read_bounded(folder / name, limit, f"the table's file {name} in",
                                missing_ok=True, field="values")

        data = read(INDEX)
        if data is None:
            raise TableError(f"{shown(str(folder))} holds no table of Ba-awa values "
                             f"(no {INDEX})", field="format")
        return cls.from_index(data, read)

    @classmethod
    def from_index(cls, data: bytes, read: Any) -> BaAwaValueTable:
        """The table of the index *data* (the bytes of :data:`INDEX`), its shards
        given by *read*."""
        if not isinstance(data, (bytes, bytearray, str)):
            raise not_a("data", data, "the bytes of a table's index")
        if len(data) > INDEX_BYTES:
            raise TableError(f"not a table of Ba-awa values: its index has {len(data):,} "
                             f"bytes, more than an index holds ({INDEX_BYTES:,})",
                             field="format")
        index = json_bounded(data, "not a table of Ba-awa values: its index")
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
        game = _position(pos, ba_awa=False).game
        return self.holds_for(game) and tuple(pos.owners) == tuple(game.start().owners)

    @staticmethod
    def oriented(pos: Position) -> tuple[tuple[int, ...], int]:
        """*pos* as the table holds it, ``(pits, to_move)``: as it is if South
        opened; if North did, each row moved to the other side and the players
        swapped (the rules treat the two players alike but for who opened, and
        sow both rows the same way round, so its value for the player to move
        is the same)."""
        pits = tuple(_position(pos).pits)
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

    def _end(self, name: str) -> int:
        """The number after the last the shard *name* can hold: the next shard's first."""
        seeds, number = (int(x) for x in name[:-len(".bin")].split("-"))
        firsts = self.firsts[seeds]
        return firsts[number + 1] if number + 1 < len(firsts) else 1 << 62

    def _shard(self, name: str) -> tuple[list[int], bytes] | None:
        """The shard *name* (its numbers and values), read once; None if it is not there."""
        if name not in self.shards:
            seeds_text, number = name[:-len(".bin")].split("-")
            first, count, crc = self.levels[int(seeds_text)][int(number)]
            data = self.read(name)
            if data is None:
                return None
            if not isinstance(data, (bytes, bytearray)) or len(data) > shard_bytes(count):
                raise TableError(f"the table's file {name} is damaged: not the bytes of a "
                                 f"shard of {count:,} positions", field="values")
            self.shards[name] = _decoded_shard(name, bytes(data), first, count, crc)
        return self.shards[name]

    def need(self, positions: Sequence[tuple[Sequence[int], int]]) -> list[str]:
        """The shards the *positions* ``(pits, to_move)`` need that are not there
        (they are read if they are)."""
        if isinstance(positions, (str, bytes)) or not isinstance(positions, Sequence) \
                or not all(isinstance(p, Sequence) and len(p) == 2 for p in positions):
            raise not_a("positions", positions, "a list of (pits, player to move)")
        missing = []
        for pits, to_move in (_ba_awa_checked(*p) for p in positions):
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
            self._check_first(sum(pits), 0)
            return None
        shard = self._shard(where[0])
        if shard is None:
            raise MissingShards([where[0]])
        keys, values = shard
        row = bisect.bisect_left(keys, where[1])
        if row == len(keys):
            self._check_first(sum(pits), int(where[0][-9:-4]) + 1)
        if row == len(keys) or keys[row] != where[1]:
            return None
        u = values[row] - 256 if values[row] > 127 else values[row]
        return u if to_move == 0 else -u

    def _check_first(self, seeds: int, number: int) -> None:
        """A position the table does not hold, before the first number of a
        level's shard *number* (or past the last of the shard before it): that
        shard, if it is there, is read, so that a first number the index has
        wrong is a :class:`TableError`, not a position taken as unreachable."""
        if number < len(self.levels.get(seeds, ())):
            self._shard(shard_name(seeds, number))

    def value_holds(self, pos: Position) -> bool:
        """:func:`~mancala_spec.solved_history.value_holds` for *pos*: whether
        :meth:`value_of` holds with its history; or :class:`MissingShards`."""
        if not pos.history or self.header.get("repetition") == "play-on":
            return True
        pits, to_move = self.oriented(pos)
        half = _BA_AWA_PITS // 2
        seen = [(tuple(p), player) if pos.opener == 0
                else (tuple(p[half:]) + tuple(p[:half]), 1 - player) for p, player in pos.history]
        missing = self.need([(pits, to_move), *seen])
        if missing:
            raise MissingShards(missing)
        return value_holds(self.value, pits, to_move, seen)

    def move_values(self, pos: Position) -> dict[int, int] | None:
        """{pit: the margin the player to move can force by playing it} for each
        legal move of *pos*: what the move captures now (the engine plays it,
        so a move that ends the game, at a repetition say, is worth what it
        scores) and the value of the position it leads to; ``None`` if one of
        those is not in the table. :class:`MissingShards` names every shard
        needed that is not there."""
        mover = _position(pos).to_move
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


def _position(pos: Any, ba_awa: bool = True) -> Position:
    """*pos*, a position (of Ba-awa, if *ba_awa*); else a typed refusal naming ``pos``."""
    from .engine.position import Position

    if not isinstance(pos, Position):
        raise not_a_position("pos", pos)
    if ba_awa and pos.game.name != "ba-awa":
        raise InvalidPositionError(f"pos must be a position of Ba-awa, not of "
                                   f"{pos.game.title}", field="game")
    return pos


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


def check_table_files(folder: str | Path) -> BaAwaValueTable:
    """The table in *folder*, once every file its index names is there and whole
    (:func:`~mancala_spec.solved_ba_awa_index.check_shard`: its CRC-32, its zlib
    data, its count of positions); else :class:`TableError`, one line. What a
    site build checks before it ships a table."""
    table = BaAwaValueTable.from_folder(folder)
    for seeds, shards in sorted(table.levels.items()):
        for number, (first, count, crc) in enumerate(shards):
            name = shard_name(seeds, number)
            check_shard(name, table.read(name), first, count, crc)
    return table


def check_table_folder(folder: str | Path) -> Path:
    """The real path of *folder*, if a table may be written there now: the
    checks of the one folder writer (:func:`mancala_spec.terminal.folders.check_folder`:
    it is not there, or empty, or a folder mancala-spec wrote, which is replaced;
    its folder takes a new entry); else
    :class:`~mancala_spec.terminal.status.OutputError`, one line."""
    from .terminal.folders import check_folder

    return check_folder(folder_of(folder), "table of values")


def write_ba_awa_table(folder: str | Path, solution: Any,
                       shard_positions: int = SHARD_POSITIONS, progress: Any = None,
                       check: Any = None) -> Path:
    """Write a :class:`~mancala_spec.solve.ba_awa.BaAwaSolution` (numpy needed)
    as a table into *folder* (:class:`BaAwaValueTable` reads it), whole or not
    at all, by the one folder writer (:class:`mancala_spec.terminal.folders.WrittenFolder`):
    into a temporary folder beside it, renamed into place at the end (an
    interruption leaves nothing). A *folder* already there must be a folder
    mancala-spec wrote (its manifest names every file in it: it is replaced) or
    empty; else :class:`~mancala_spec.terminal.status.OutputError`, and nothing
    in it is touched. *progress*, if given, is called as
    ``progress("writing", positions written, positions)``.
    *check* is called with the finished temporary folder, before it replaces
    anything (by default :func:`mancala_spec.verify.checked`: the second path, which
    raises :class:`~mancala_spec.verify.TableInconsistent` if a value or position is
    not what the rules give, and then nothing is written)."""
    import numpy as np

    from . import __version__
    from .solve.ba_awa import BaAwaSolution
    from .terminal.folders import WrittenFolder

    target = folder_of(folder)
    if not isinstance(solution, BaAwaSolution):
        raise not_a("solution", solution, "a solution of Ba-awa (solve_ba_awa gives one)")
    if solution.rules.decided:
        raise not_a("solution", solution, "a solution of games the captured counts do not "
                    "end (decided=False): a table holds one value a position")
    if type(shard_positions) is not int or not 1 <= shard_positions <= SHARD_POSITIONS:
        raise not_a("shard_positions", shard_positions,
                    f"a whole number from 1 to {SHARD_POSITIONS:,}")
    if progress is not None and not callable(progress):
        raise not_a("progress", progress, "a function or None")
    game = solution.rules.game
    pits, to_move = solution.start
    header = {"format": BA_AWA_MAGIC, "game": "ba-awa",
              "pits_per_row": game.board.pits_per_row, "seeds_per_pit": game.seeds_per_pit,
              **{name: plain(value) for name, value in game.options.items()},
              "start": {"pits": list(pits), "to_move": to_move},
              "version": __version__}
    if check is None:                    # the second path, before it replaces anything
        from .verify import checked as check
    with WrittenFolder(target, "table of values", verify=check) as out:
        levels: dict[str, Any] = {}
        written = 0
        for seeds in sorted(solution.levels, reverse=True):
            keys = np.asarray(solution.levels[seeds], dtype=np.int64)
            if not len(keys):            # a level play skips (a double capture jumps it)
                continue
            values = np.asarray(solution.values[seeds], dtype=np.int8)
            shards = []
            for number, at in enumerate(range(0, len(keys), shard_positions)):
                part = keys[at:at + shard_positions]
                deltas = np.diff(part, prepend=0)
                data = zlib.compress(leb128(deltas) + values[at:at + shard_positions].tobytes(), 9)
                out.write(shard_name(seeds, number), data)
                shards.append([int(part[0]), len(part), zlib.crc32(data)])
                written += len(part)
                if progress is not None:
                    progress("writing", written, len(solution))
            levels[str(seeds)] = {"positions": len(keys), "shards": shards}
        index = (json.dumps({**header, "positions": len(solution), "levels": levels})
                 + "\n").encode("utf-8")
        if len(index) > INDEX_BYTES:
            raise TableError(f"the index would have {len(index):,} bytes, more than a "
                             f"reader takes ({INDEX_BYTES:,}): write larger shards",
                             field="header")
        out.write(INDEX, index)
    return out.real


__all__ = ["BA_AWA_MAGIC", "INDEX", "SEARCH_NODES", "SHARD_POSITIONS", "BaAwaValueTable",
           "MissingShards", "ba_awa_key", "ba_awa_standard_header", "check_table_files",
           "check_table_folder", "searched_values", "shard_name", "value_holds",
           "write_ba_awa_table"]

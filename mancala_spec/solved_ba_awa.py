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
(:func:`searched_values`: exact, or nothing, within :data:`SEARCH_NODES`).
Bakuk's table, one file, is :mod:`mancala_spec.solved`.
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

from .errors import InvalidPositionError, TableError, not_a, shown
from .options import game_options, plain
from .solved import Difference, differences
from .solved_history import value_holds

if TYPE_CHECKING:
    from .engine.position import Position

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
                       shard_positions: int = SHARD_POSITIONS, progress: Any = None,
                       check: Any = None) -> Path:
    """Write a :class:`~mancala_spec.solve.ba_awa.BaAwaSolution` (numpy needed)
    as a table into *folder* (:class:`BaAwaValueTable` reads it), whole or not
    at all: into a temporary folder beside it, renamed at the end (an
    interruption leaves nothing). A *folder* already there must be such a
    table (it is replaced) or empty; :class:`TableError` if not. *progress*, if
    given, is called as ``progress("writing", positions written, positions)``.
    *check* is called with the folder written, before it is put in place (by
    default :func:`mancala_spec.verify.checked`: the second path, which raises
    :class:`~mancala_spec.verify.TableInconsistent` if a value or position is
    not what the rules give, and then nothing is written)."""
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
            if not len(keys):            # a level play skips (a double capture jumps it)
                continue
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
        if check is None:                # the second path, before it is put in place
            from .verify import checked as check
        check(partial)
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


__all__ = ["BA_AWA_MAGIC", "INDEX", "SEARCH_NODES", "SHARD_POSITIONS", "BaAwaValueTable",
           "MissingShards", "ba_awa_key", "ba_awa_standard_header", "check_table_folder",
           "searched_values", "shard_name", "value_holds", "write_ba_awa_table"]

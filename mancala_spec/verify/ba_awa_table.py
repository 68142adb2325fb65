"""A Ba-awa table's levels as arrays, for the verifier: each level's numbers
and values, read from its shards (the format of
:mod:`mancala_spec.solved_ba_awa`: each shard zlib data of the numbers as
LEB128 differences, then a signed byte a position), every shard's CRC-32,
count and first number checked against the index. A level is read whole,
when first needed, and dropped when no longer needed: the verifier holds only
the level it checks and those below it that captures reach."""
from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import TableError

Array = np.ndarray[Any, Any]

#: the index's file, its format line, and the most positions a shard may hold
INDEX = "index.json"
FORMAT = "mancala_spec ba-awa values 1"
MOST_IN_SHARD = 32_768
#: the most bytes of an index read
MOST_INDEX_BYTES = 1 << 24


def read_index(folder: Path) -> dict[str, Any]:
    """The index of the table in *folder*; :class:`TableError` if there is none."""
    path = folder / INDEX
    try:
        with open(path, "rb") as file:
            data = file.read(MOST_INDEX_BYTES + 1)
    except FileNotFoundError:
        raise TableError(f"{folder} holds no table of Ba-awa values (no {INDEX})",
                         field="format") from None
    except OSError as error:
        raise TableError(f"cannot read {path}: {error.strerror}", field="format") from None
    if len(data) > MOST_INDEX_BYTES:
        raise TableError(f"{path} is larger than an index is", field="format")
    try:
        index = json.loads(data)
    except ValueError:
        raise TableError(f"{path} is not JSON", field="format") from None
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise TableError(f"{path} is not the index of a table of Ba-awa values",
                         field="format")
    levels = index.get("levels")
    if not isinstance(levels, dict) or not all(
            isinstance(k, str) and k.isdigit() and isinstance(v, dict)
            and isinstance(v.get("shards"), list) for k, v in levels.items()):
        raise TableError(f"{path} has no levels of shards", field="header")
    return index


class Levels:
    """The levels of the table in *folder* (its *index*), read when asked."""

    def __init__(self, folder: Path, index: dict[str, Any]) -> None:
        self.folder = folder
        self.shards = {int(s): level["shards"] for s, level in index["levels"].items()}
        self.loaded: dict[int, tuple[Array, Array]] = {}
        self.bytes_read = 0

    def seeds(self) -> list[int]:
        return sorted(self.shards, reverse=True)

    def __contains__(self, seeds: int) -> bool:
        return seeds in self.shards

    def get(self, seeds: int) -> tuple[Array, Array]:
        """The level's numbers (sorted, ``int64``) and values (``int8``, South's side)."""
        if seeds not in self.loaded:
            self.loaded[seeds] = self._read(seeds)
        return self.loaded[seeds]

    def drop(self, seeds: int) -> None:
        self.loaded.pop(seeds, None)

    def _read(self, seeds: int) -> tuple[Array, Array]:
        shards = self.shards[seeds]
        total = 0
        for shard in shards:
            if not (isinstance(shard, list) and len(shard) == 3
                    and all(type(x) is int and x >= 0 for x in shard)
                    and 0 < shard[1] <= MOST_IN_SHARD):
                raise TableError(f"the index's level {seeds} lists a shard that is not "
                                 "(first number, positions, CRC-32)", field="header")
            total += shard[1]
        numbers = np.empty(total, dtype=np.int64)
        values = np.empty(total, dtype=np.int8)
        at = 0
        for n, (first, count, crc) in enumerate(shards):
            name = f"{seeds}-{n:05d}.bin"
            k, v = self._shard(name, first, count, crc)
            numbers[at:at + count], values[at:at + count] = k, v
            at += count
        if total and (np.diff(numbers) <= 0).any():
            raise TableError(f"the numbers of level {seeds} are not in increasing order",
                             field="values")
        return numbers, values

    def _shard(self, name: str, first: int, count: int, crc: int) -> tuple[Array, Array]:
        path = self.folder / name
        try:
            with open(path, "rb") as file:
                data = file.read(12 * count + 1024 + 1)
        except FileNotFoundError:
            raise TableError(f"the table's file {name} is missing", field="values") from None
        except OSError as error:
            raise TableError(f"cannot read {path}: {error.strerror}", field="values") from None
        self.bytes_read += len(data)
        if len(data) > 12 * count + 1024:
            raise TableError(f"the table's file {name} is larger than {count:,} positions "
                             "take", field="values")
        if zlib.crc32(data) != crc:
            raise TableError(f"the table's file {name} is damaged or of another table: its "
                             "CRC-32 is not the index's", field="values")
        try:
            inflate = zlib.decompressobj()
            raw = np.frombuffer(inflate.decompress(data, 11 * count + 1), dtype=np.uint8)
        except zlib.error as error:
            raise TableError(f"the table's file {name} is not zlib data ({error})",
                             field="values") from None
        ends = np.flatnonzero(raw < 0x80)
        if len(ends) < count or not inflate.eof:
            raise TableError(f"the table's file {name} ends before its {count:,} positions",
                             field="values")
        stop = int(ends[count - 1]) + 1            # the numbers' bytes, then the values
        body, values = raw[:stop], raw[stop:]
        starts = np.concatenate(([0], ends[:count - 1] + 1))
        place = np.arange(stop) - np.repeat(starts, np.diff(np.append(starts, stop)))
        if place.max(initial=0) > 8:
            raise TableError(f"the table's file {name} holds a number too large",
                             field="values")
        parts = (body & 0x7F).astype(np.int64) << (7 * place)
        deltas = np.add.reduceat(parts, starts)
        numbers = np.cumsum(deltas)
        if len(values) != count or int(numbers[0]) != first:
            raise TableError(f"the table's file {name} does not hold the {count:,} "
                             "positions the index says", field="values")
        return numbers, values.view(np.int8)


def compare(first: Path, second: Path) -> list[tuple[int, int, int | None, int | None]]:
    """Where two tables of the same rules differ, level by level: (seeds, number,
    the first's value, the second's; None where a table lacks the position). A
    check of one table finds a value that is not the best of its moves; the
    values that are wrong only because they rest on it are consistent with it,
    and a table solved again (or by another solver) finds them."""
    a, b = Levels(first, read_index(first)), Levels(second, read_index(second))
    out: list[tuple[int, int, int | None, int | None]] = []
    for seeds in sorted(set(a.shards) | set(b.shards), reverse=True):
        ka, va = a.get(seeds) if seeds in a else (np.zeros(0, np.int64), np.zeros(0, np.int8))
        kb, vb = b.get(seeds) if seeds in b else (np.zeros(0, np.int64), np.zeros(0, np.int8))
        both, ia, ib = np.intersect1d(ka, kb, assume_unique=True, return_indices=True)
        for i in np.flatnonzero(va[ia] != vb[ib]).tolist():
            out.append((seeds, int(both[i]), int(va[ia[i]]), int(vb[ib[i]])))
        only_a, only_b = np.ones(len(ka), dtype=bool), np.ones(len(kb), dtype=bool)
        only_a[ia], only_b[ib] = False, False
        out += [(seeds, int(ka[i]), int(va[i]), None) for i in np.flatnonzero(only_a)]
        out += [(seeds, int(kb[i]), None, int(vb[i])) for i in np.flatnonzero(only_b)]
        a.drop(seeds)
        b.drop(seeds)
    return out

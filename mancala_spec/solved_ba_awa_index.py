"""The index of a table of Ba-awa's values (:mod:`mancala_spec.solved_ba_awa`),
every structural field checked before a value is read.

An index names the format, the game, its board, each option (a value the
option takes), the start (twelve counts, 48 seeds at most, the player to
move), the version, the positions, and for each level (seeds on the board:
the start's, and fewer by whole captures of four) its positions and its shards,
each ``[first number, positions, CRC-32]``: numbers within the level's
numbering, in order, each shard's first after the last number the shard
before can hold, the counts adding up to the level's and the levels' to the
table's. The start's level is there, and the start's number falls in one of
its shards. Anything else (``"levels": {}``, a key ``"²"`` or of 5,000 digits,
``players: 3``) is a :class:`~mancala_spec.errors.TableError`, one line.
"""
from __future__ import annotations

import re
import zlib
from math import comb
from typing import Any

from .errors import TableError, shown
from .options import game_options

#: the most bytes an index may have: the header, and at most 40 bytes for each
#: shard (a full solve from the opening has about 2,400 shards: 100 kB)
INDEX_BYTES = 16 * 2**20
_PITS = 12
_SEEDS = re.compile(r"[1-9][0-9]?", re.ASCII)


def keys_of(seeds: int) -> int:
    """How many numbers the solver's numbering of a level gives: two players on
    each board of *seeds* seeds in twelve pits."""
    return 2 * comb(seeds + _PITS - 1, _PITS - 1)


def shard_bytes(count: int) -> int:
    """The most bytes a shard of *count* positions can have: at most ten bytes of
    LEB128 and one of value a position, and zlib's worst case over that."""
    raw = 11 * count
    return raw + (raw >> 12) + (raw >> 14) + (raw >> 25) + 64


def _fail(message: str, field: str = "header") -> TableError:
    return TableError(f"not a table of Ba-awa values: {message}", field=field)


def _whole(value: Any) -> bool:
    return type(value) is int and value >= 0


def checked_index(index: Any, magic: str, shard_positions: int) -> dict[str, Any]:
    """The header of the table's *index* (everything but its levels) once every
    field is checked (see the module's text); else :class:`TableError`."""
    if not isinstance(index, dict) or index.get("format") != magic:
        raise TableError(f"not a table of Ba-awa values: its index does not say "
                         f"{magic!r}", field="format")
    header = {k: v for k, v in index.items() if k != "levels"}
    options = game_options("ba-awa")
    missing = [o.name for o in options if o.name not in header]
    if header.get("game") != "ba-awa" or missing:
        raise TableError("the index does not name the game ba-awa and each of its options"
                         + (f" ({', '.join(missing)} missing)" if missing else ""),
                         field="header")
    if header.get("pits_per_row") != _PITS // 2 or header.get("seeds_per_pit") != 4:
        raise _fail("its board is not Ba-awa's (6 pits a row, 4 seeds each)")
    for option in options:
        value = header[option.name]
        if not isinstance(value, (bool, int, str)) or not option.accepts(value):
            raise _fail(f"its option {option.name} is {shown(value)}, not a value it takes")
    if header["players"] != 2 or header["decided"] is not False:
        raise _fail("a table holds games of two players that the captured counts do not "
                    f"end, not players={shown(header['players'])}, "
                    f"decided={shown(header['decided'])}")
    start = header.get("start")
    pits = start.get("pits") if isinstance(start, dict) else None
    to_move = start.get("to_move") if isinstance(start, dict) else None
    if not isinstance(pits, list) or len(pits) != _PITS or not all(_whole(p) for p in pits) \
            or not 0 < sum(pits) <= 48 or (48 - sum(pits)) % 4 or to_move not in (0, 1) \
            or type(to_move) is not int:
        raise _fail(f"its start is {shown(start)}, not twelve counts of seeds and the "
                    "player to move")
    if not isinstance(header.get("version"), str) or not _whole(header.get("positions")):
        raise _fail("it has no version or no count of positions")
    levels = index.get("levels")
    if not isinstance(levels, dict) or str(sum(pits)) not in levels:
        raise _fail(f"it has no level of the start's {sum(pits)} seeds")
    total = 0
    for seeds_text, level in levels.items():
        total += _checked_level(seeds_text, level, sum(pits), shard_positions)
    if total != header["positions"]:
        raise _fail(f"its levels hold {total:,} positions, not the {header['positions']:,} "
                    "it says")
    return header


def _checked_level(seeds_text: Any, level: Any, most: int, shard_positions: int) -> int:
    """The positions of a level of the index, once it is checked."""
    where = f"its level {shown(seeds_text)}"
    if not isinstance(seeds_text, str) or not _SEEDS.fullmatch(seeds_text) \
            or int(seeds_text) > most or (most - int(seeds_text)) % 4:
        raise _fail(f"{where} is not a count of seeds on the board (the start's, less "
                    "whole captures of four)")
    seeds = int(seeds_text)
    shards = level.get("shards") if isinstance(level, dict) else None
    if not isinstance(shards, list) or not shards or not all(
            isinstance(s, list) and len(s) == 3 and all(_whole(x) for x in s)
            and 0 < s[1] <= shard_positions and s[2] < 2**32 for s in shards):
        raise _fail(f"{where} is not a list of shards (first number, positions, CRC-32)")
    end = 0
    for first, count, _ in shards:
        if first < end:
            raise _fail(f"{where}: its shards' first numbers are not in order, each after "
                        "the numbers of the shard before")
        end = first + count
    if end > keys_of(seeds):
        raise _fail(f"{where}: its numbers pass the {keys_of(seeds):,} of its numbering")
    count = sum(s[1] for s in shards)
    if level.get("positions") != count:
        raise _fail(f"{where} holds {count:,} positions in its shards, not the "
                    f"{shown(level.get('positions'))} it says")
    return count


def leb128(values: Any) -> bytes:
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


_HIGH = bytes(range(0x80, 0x100))


def check_shard(name: str, data: bytes | None, first: int, count: int, crc: int) -> None:
    """Check a shard's bytes against its index entry at the speed of zlib: there,
    within its bound, its CRC-32, zlib data that ends, as many numbers as the index
    says followed by as many values, the first number the index's; else
    :class:`TableError` (the full decoding, a position at a time, is the reader's)."""
    if data is None:
        raise TableError(f"the table lacks its file {name}", field="values")
    if len(data) > shard_bytes(count) or zlib.crc32(data) != crc:
        raise TableError(f"the table's file {name} is damaged or of another table: its "
                         "size or CRC-32 is not the index's", field="values")
    try:
        inflate = zlib.decompressobj()
        raw = inflate.decompress(data, 11 * count + 1)
    except zlib.error as error:
        raise TableError(f"the table's file {name} is not zlib data ({error})",
                         field="values") from None
    numbers = raw[:-count]
    key = shift = 0
    for byte in numbers[:10]:
        key |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            break
    if not inflate.eof or inflate.unused_data or len(raw) <= count \
            or len(numbers.translate(None, _HIGH)) != count or numbers[-1] >= 0x80 \
            or key != first:
        raise TableError(f"the table's file {name} does not hold the {count:,} positions "
                         "the index says", field="values")


__all__ = ["INDEX_BYTES", "check_shard", "checked_index", "keys_of", "leb128", "shard_bytes"]

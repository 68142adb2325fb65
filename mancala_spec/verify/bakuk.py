"""Bakuk's table (:mod:`mancala_spec.solved`, one file) checked by a second
path: :func:`verify_bakuk`.

Without the solver's code (:mod:`mancala_spec.solve`,
:mod:`mancala_spec.solve.retrograde`): the positions are walked breadth-first
from the opening (South to move), each position's moves played by the
many-games kernel (:meth:`~mancala_spec.fast.bakuk.BakukBatch.play`, held to
the reference engine by the differential tests), and the table is checked:
each reached position's value is the best, for the player to move, over its
moves of what the move scores now plus (or, the opponent moving next, minus)
the value of the position it leads to (nothing once the game is over); every
position reached has a value, and every value is of a position reached.
"""
from __future__ import annotations

import json
import time
import zlib
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import TableError
from .report import Problem, Report

Array = np.ndarray[Any, Any]

#: the first line's format (:data:`mancala_spec.solved.MAGIC`)
FORMAT = "mancala_spec bakuk values 1"
#: the byte of a number no game reaches
UNREACHED = -128
#: the most bytes of a table file read (the standard board's is about 1.7 MB)
MOST_BYTES = 1 << 28


def verify_bakuk(path: str | Path, progress: Any = None) -> Report:
    """Check the Bakuk table in the file *path* (see the module);
    :class:`~mancala_spec.errors.TableError` if it cannot be read as one."""
    from ..fast.bakuk import BakukBatch

    path = Path(path)
    clock = time.perf_counter()
    try:
        with open(path, "rb") as file:
            data = file.read(MOST_BYTES + 1)
    except OSError as error:
        raise TableError(f"cannot read {path}: {error.strerror}", field="format") from None
    if len(data) > MOST_BYTES:
        raise TableError(f"{path} is larger than a table of Bakuk values is", field="format")
    header, values = _read(path, data)
    n = header["pits_per_row"]
    size = 2 * n
    total = size * header["seeds_per_pit"]
    try:
        batch = BakukBatch(n, total, skip_origin=header["skip_origin"] is True,
                           chain=header["chain"], no_move=header["no_move"],
                           leftovers=header["leftovers"])
    except ValueError as error:
        raise TableError(f"{path}: the header's rules are not Bakuk's: {error}",
                         field="header") from None
    if len(values) != 2 * comb(total + size, size):
        raise TableError(f"{path} does not hold a value for each of its board's "
                         f"{2 * comb(total + size, size):,} position numbers", field="values")
    ranks = np.array([[comb(x + i, i + 1) for x in range(total + 1)] for i in range(size)],
                     dtype=np.int64)

    def keys(pits: Array, players: Array) -> Array:
        prefix = np.cumsum(pits, axis=1, dtype=np.intp)
        rank = np.zeros(len(pits), dtype=np.int64)
        for i in range(size):
            rank += ranks[i, prefix[:, i]]
        return rank * 2 + players

    report = Report(str(path), "bakuk", positions=int((values != UNREACHED).sum()))
    reached = np.zeros(len(values), dtype=bool)
    start = np.full((1, size), int(header["seeds_per_pit"]), dtype=np.int8)
    frontier, players = start, np.zeros(1, dtype=np.int8)
    reached[keys(frontier, players)] = True
    name = ("abcdefghijklmnopqrstuvwxyz"[:n] + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:n])
    while len(frontier):
        here = keys(frontier, players)
        told = values[here].astype(np.int16)
        best = np.full(len(frontier), -999, dtype=np.int16)
        worths, found_all = [], np.ones(len(frontier), dtype=bool)
        nexts = []
        for choice in range(n):
            worth = np.full(len(frontier), -999, dtype=np.int16)
            for player in (0, 1):
                rows = np.flatnonzero(players == player)
                if not rows.size:
                    continue
                legal, after, nxt, goes_on, gain = batch.play(frontier[rows], player, choice)
                w = gain.astype(np.int16)
                going = legal & goes_on
                k = keys(after[going], nxt[going])
                later = values[k].astype(np.int16)
                found_all[rows[going]] &= later != UNREACHED
                w[going] += np.where(nxt[going] == player, later, -later)
                worth[rows[legal]] = w[legal]
                fresh = np.flatnonzero(~reached[k])
                _, first = np.unique(k[fresh], return_index=True)
                fresh = fresh[first]
                reached[k] = True
                nexts.append((after[going][fresh], nxt[going][fresh]))
            worths.append(worth)
            best = np.maximum(best, worth)
        report.checked += len(frontier)
        bad = ((best != told) | (told == UNREACHED) | ~found_all).nonzero()[0]
        for i in bad.tolist():
            kind = "missing" if told[i] == UNREACHED or not found_all[i] else "value"
            moves: dict[str, int | str] = {
                name[int(players[i]) * n + c]: int(worths[c][i])
                for c in range(n) if worths[c][i] != -999}
            report.add(Problem(kind, int(frontier[i].sum()), int(here[i]),
                               tuple(frontier[i].tolist()), int(players[i]),
                               value=None if told[i] == UNREACHED else int(told[i]),
                               best=int(best[i]), moves=moves, game="bakuk"))
        frontier = np.concatenate([a for a, _ in nexts]) if nexts else start[:0]
        players = np.concatenate([p for _, p in nexts]) if nexts else players[:0]
        if progress is not None:
            progress("verifying", report.checked, report.positions)
    extra = np.flatnonzero((values != UNREACHED) & ~reached)
    for number in extra[:100].tolist():
        report.add(Problem("extra", -1, int(number), (), number & 1,
                           value=int(values[number]), game="bakuk"))
    report.inconsistencies += max(0, len(extra) - 100)
    report.seconds = time.perf_counter() - clock
    return report


def _read(path: Path, data: bytes) -> tuple[dict[str, Any], Array]:
    """The header and the values of a table file's bytes (the format of
    :mod:`mancala_spec.solved`: a line of JSON naming it, then one zlib stream
    of a signed byte a position number)."""
    first, _, rest = data.partition(b"\n")
    try:
        header = json.loads(first)
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT \
            or not all(type(header.get(k)) is int and 1 <= header[k] <= 64
                       for k in ("pits_per_row", "seeds_per_pit")) \
            or any(k not in header for k in ("skip_origin", "chain", "no_move", "leftovers")):
        raise TableError(f"{path} is not a table of Bakuk values", field="format")
    inflate = zlib.decompressobj()
    try:
        values = inflate.decompress(rest, MOST_BYTES)
    except zlib.error as error:
        raise TableError(f"{path}: the values are not zlib data ({error})",
                         field="values") from None
    return header, np.frombuffer(values, dtype=np.int8)

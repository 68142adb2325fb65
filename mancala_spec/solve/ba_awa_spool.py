"""Ba-awa's levels enumerated to files, for :mod:`mancala_spec.solve.ba_awa`:
each level's positions and moves are written to a temporary folder as the
level is enumerated, and read back one level at a time while the levels are
solved, bottom up; only the level at hand is held in memory.

A level's values depend on its own positions and the levels below it, so the
solve needs one level's moves at a time. Enumeration goes top down: a level
is complete only when its last breadth-first round is sown, so the successors
of its blocks are written as keys (:class:`Spool`), then turned into rows once
the level is sorted (``inner``, ``end``); a capture's successor, a key of a
lower level, is turned into a row when that level is complete. Worker
processes (forked) sow blocks of a round and write what they find to files
(no big array is pickled between processes); the main process merges the rounds.

The folder is made where :mod:`tempfile` makes them (``TMPDIR``); the full solve
of the opening wrote up to 4.7 GB there (sampled every five seconds, 5 December 2026).
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from typing import Any

import numpy as np

from .ba_awa_levels import (
    CHUNK,
    EIGHT,
    FOUR,
    HALF,
    WORKER_CHUNK,
    WORKER_LEAST,
    Kernel,
    Level,
    Progress,
    expand,
    member,
    rows_of,
    unique,
)


class Spool:
    """The temporary folder of one solve's levels (removed by :meth:`close`,
    with everything in it: the solve wrote all of it)."""

    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="mancala-spec-ba-awa-")
        self.counts: dict[int, int] = {}
        #: (upper, lower): captures from the level *upper* into *lower*
        self.captures: set[tuple[int, int]] = set()
        self.seconds: dict[int, float] = {}
        self.rounds: dict[int, int] = {}
        #: pass steps per level (positions whose player to move has no move)
        self.passes: dict[int, int] = {}

    def path(self, name: str) -> str:
        return os.path.join(self.folder, name)

    def write(self, name: str, array: np.ndarray, append: bool = False) -> None:
        with open(self.path(name), "ab" if append else "wb") as out:
            np.ascontiguousarray(array).tofile(out)

    def read(self, name: str, dtype: Any, remove: bool = False) -> np.ndarray:
        path = self.path(name)
        array = np.fromfile(path, dtype=dtype) if os.path.exists(path) \
            else np.zeros(0, dtype=dtype)
        if remove and os.path.exists(path):
            os.remove(path)
        return array

    def keys(self, seeds: int) -> np.ndarray:
        return self.read(f"keys{seeds}", np.int64)

    def level(self, seeds: int, players: bool = False) -> Level:
        """Level *seeds* as the solve needs it (its keys, successors' rows,
        best ends and captures); with *players*, the keys' last bit only
        (the player to move, ``int8``: all :func:`solve_level` reads)."""
        n = self.counts[seeds]
        keys = self.keys(seeds)
        if players:
            keys = (keys & 1).astype(np.int8)
        level = Level(seeds, keys,
                      self.read(f"inner{seeds}", np.int32).reshape(HALF, n),
                      self.read(f"end{seeds}", np.int16),
                      seconds=self.seconds[seeds], rounds=self.rounds[seeds],
                      passes=self.passes[seeds])
        for upper, lower in sorted(self.captures):
            if upper == seeds and lower in self.counts:
                level.lower[lower] = [self.read(f"cap{seeds}-{lower}.rows", np.int32),
                                      self.read(f"cap{seeds}-{lower}.succ", np.int32),
                                      self.read(f"cap{seeds}-{lower}.gain", np.int8)]
        return level

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def _worker_started() -> None:
    """A worker leaves Ctrl-C (and SIGHUP) to the main process, which ends the
    pool (with SIGTERM, which a worker therefore does not ignore): the worker
    prints nothing."""
    import signal
    stops = {getattr(signal, name) for name in ("SIGINT", "SIGHUP") if hasattr(signal, name)}
    for number in stops:
        signal.signal(number, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)    # (not the command line's handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)


#: a block sown: its name in the spool, and its captures per lower level
Job = tuple[str, dict[int, int]]
#: the kernel and spool of the worker processes (each inherits them when forked)
_WORKER: list[Any] = []


def sow_job(kernel: Kernel, spool: Spool, seeds: int, name: str,
            frontier: np.ndarray) -> tuple[str, int, dict[int, int], int]:
    """Sow the positions *frontier* (keys of level *seeds*) and write their
    moves to the spool under *name*: the block, each choice's successor key in
    the level (-1: none), the best end, the distinct successors in the level,
    and per lower level the captures (the position's key, the successor's key,
    the gain). Returns the name, the distinct successors' count, the
    captures per lower level, and the pass steps among *frontier*."""
    block, succ, best, lowers, fresh, passed = expand(kernel, seeds, frontier)
    spool.write(f"{name}.block", block)
    spool.write(f"{name}.succ", succ)
    spool.write(f"{name}.end", best)
    spool.write(f"{name}.fresh", fresh)
    for s, (rows, keys, gains) in lowers.items():
        spool.write(f"{name}.cap{s}.src", rows)
        spool.write(f"{name}.cap{s}.key", keys)
        spool.write(f"{name}.cap{s}.gain", gains.astype(np.int8))
    return name, len(fresh), {s: len(edge[0]) for s, edge in lowers.items()}, passed


def _sow_in_worker(job: tuple[int, str, int, int, str]) -> tuple[str, int, dict[int, int], int]:
    kernel, spool = _WORKER
    seeds, frontier_name, lo, hi, name = job
    frontier = np.fromfile(spool.path(frontier_name), dtype=np.int64, count=hi - lo,
                           offset=8 * lo)
    return sow_job(kernel, spool, seeds, name, frontier)


def _sown(pool: Any, workers: int, kernel: Kernel, spool: Spool, seeds: int, round_: int,
          frontier: np.ndarray):
    """:func:`sow_job` of every block of *frontier*, here or in the *pool*'s workers."""
    prefix = f"L{seeds}r{round_}b"
    if pool is None or len(frontier) < 2 * WORKER_LEAST:
        for i, lo in enumerate(range(0, len(frontier), CHUNK)):
            yield sow_job(kernel, spool, seeds, f"{prefix}{i}", frontier[lo:lo + CHUNK])
        return
    size = max(WORKER_LEAST, min(WORKER_CHUNK, -(-len(frontier) // (2 * workers))))
    spool.write(f"{prefix}.frontier", frontier)
    jobs = [(seeds, f"{prefix}.frontier", lo, min(lo + size, len(frontier)), f"{prefix}{i}")
            for i, lo in enumerate(range(0, len(frontier), size))]
    yield from pool.imap(_sow_in_worker, jobs)
    os.remove(spool.path(f"{prefix}.frontier"))


def enumerate_to(spool: Spool, kernel: Kernel, start_pits: tuple[int, ...],
                 start_player: int, report: Progress, workers: int = 1,
                 lowest: int = 12) -> dict[int, int]:
    """Every position reachable from the start, level by level, top down,
    breadth-first within a level, written to *spool* (see the module); the
    sowing shared among *workers* processes (forked: where ``fork`` is not
    available, or with one worker, all here). With workers, Ctrl-C can leave
    :meth:`multiprocessing.pool.Pool.terminate` waiting on a worker blocked
    writing its result (seen in about one try in four): the command line
    sows in one process; the benchmark, which nobody interrupts, in two.
    *lowest*: the fewest seeds enumerated. Returns the positions per level."""
    import multiprocessing
    pool = None
    if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
        import signal

        _WORKER[:] = [kernel, spool]
        # the workers are forked with Ctrl-C and SIGHUP blocked, and ignore them
        # before unblocking: one that came meanwhile is the main process's
        stops = {getattr(signal, name) for name in ("SIGINT", "SIGHUP")
                 if hasattr(signal, name)}
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, stops)
        try:
            pool = multiprocessing.get_context("fork").Pool(workers, _worker_started)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    try:
        seeds0 = sum(start_pits)
        first = kernel.numbering(seeds0).keys(np.array([start_pits], dtype=np.int8),
                                              np.array([start_player], dtype=np.int8))
        entries: dict[int, list[np.ndarray]] = {seeds0: [first]}
        found = 0
        for seeds in range(seeds0, max(EIGHT, lowest - 1), -FOUR):
            clock = time.perf_counter()
            jobs: list[Job] = []
            visited = _enumerate_level(pool, workers, kernel, spool, seeds,
                                       entries.pop(seeds, []), jobs, found, report)
            _settle_level(spool, seeds, visited, jobs, entries)
            spool.counts[seeds] = len(visited)
            found += len(visited)
            spool.seconds[seeds] = time.perf_counter() - clock
        report("enumerated", found, found)
        return dict(spool.counts)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        _WORKER.clear()


def _enumerate_level(pool: Any, workers: int, kernel: Kernel, spool: Spool, seeds: int,
                     entries: list[np.ndarray], jobs: list[Job], found: int,
                     report: Progress) -> np.ndarray:
    """The positions of level *seeds* (sorted keys), breadth-first from
    *entries*, each block's moves left in the spool (*jobs*: its name, and
    the captures per lower level)."""
    frontier = unique(np.concatenate(entries)) if entries else np.zeros(0, dtype=np.int64)
    visited = frontier
    rounds = passes = 0
    while frontier.size:
        fresh = []
        for name, _, lowers, passed in _sown(pool, workers, kernel, spool, seeds, rounds,
                                             frontier):
            passes += passed
            fresh.append(spool.read(f"{name}.fresh", np.int64, remove=True))
            jobs.append((name, lowers))
            report(f"enumerating {seeds} seeds", found + len(visited), None)
        rounds += 1
        new = unique(np.concatenate(fresh), runs=True)
        del fresh
        frontier = new[~member(visited, new)]
        visited = np.sort(np.concatenate((visited, frontier)), kind="stable")
    spool.rounds[seeds] = rounds
    spool.passes[seeds] = passes
    return visited


def _settle_level(spool: Spool, seeds: int, visited: np.ndarray, jobs: list[Job],
                  entries: dict[int, list[np.ndarray]]) -> None:
    """Level *seeds* complete (*visited*): its keys, its successors' rows and
    best ends written; its captures' positions turned into rows, their
    successors' keys kept for the level below (and its entries noted); the
    captures into it from above given their successors' rows."""
    n = len(visited)
    spool.write(f"keys{seeds}", visited)
    inner = np.full((HALF, n), n, dtype=np.int32)
    end_w = np.full(n, -127, dtype=np.int16)
    arriving: dict[int, list[np.ndarray]] = {}
    for name, lowers in jobs:
        block = spool.read(f"{name}.block", np.int64, remove=True)
        succ = spool.read(f"{name}.succ", np.int64, remove=True).reshape(HALF, -1)
        rows = np.searchsorted(visited, block)
        going = succ >= 0
        inner[:, rows] = np.where(going, rows_of(visited, np.where(going, succ, 0)), n)
        end_w[rows] = spool.read(f"{name}.end", np.int16, remove=True)
        del block, succ, going
        for s in lowers:
            edge = f"cap{seeds}-{s}"
            src = spool.read(f"{name}.cap{s}.src", np.int64, remove=True)
            spool.write(f"{edge}.rows", np.searchsorted(visited, src).astype(np.int32),
                        append=True)
            keys = spool.read(f"{name}.cap{s}.key", np.int64, remove=True)
            spool.write(f"{edge}.key", keys, append=True)
            arriving.setdefault(s, []).append(unique(keys))
            del keys
            spool.write(f"{edge}.gain", spool.read(f"{name}.cap{s}.gain", np.int8,
                                                   remove=True), append=True)
            spool.captures.add((seeds, s))
    spool.write(f"inner{seeds}", inner)
    spool.write(f"end{seeds}", end_w)
    del inner, end_w
    for s, parts in arriving.items():
        entries.setdefault(s, []).append(unique(np.concatenate(parts)))
    for upper, lower in sorted(spool.captures):
        if lower == seeds:            # captures into this level: their successors' rows
            edge = f"cap{upper}-{seeds}"
            keys = spool.read(f"{edge}.key", np.int64, remove=True)
            for lo in range(0, len(keys), CHUNK):
                spool.write(f"{edge}.succ", rows_of(visited, keys[lo:lo + CHUNK])
                            .astype(np.int32), append=True)
            if not len(keys):
                spool.write(f"{edge}.succ", np.zeros(0, dtype=np.int32))


def enumerate_levels(kernel: Kernel, start_pits: tuple[int, ...], start_player: int,
                     report: Progress, workers: int = 1, lowest: int = 12) -> dict[int, Level]:
    """Every position reachable from the start, level by level, with its
    moves (:class:`Level`), all in memory: the enumeration of
    :func:`enumerate_to` (which the solve
    uses, a level at a time), read back whole (for small starts and tests).
    *lowest*: the fewest seeds enumerated."""
    spool = Spool()
    try:
        enumerate_to(spool, kernel, start_pits, start_player, report, workers, lowest)
        return {seeds: spool.level(seeds) for seeds in spool.counts}
    finally:
        spool.close()

"""Ba-awa's written tables checked by a second path: :func:`verify_ba_awa`.

A table (:mod:`mancala_spec.solved_ba_awa`, written by ``solve ba-awa
--write-table``) holds a value for every position the solver reached from its
start. This checks it without the solver's code: level by level, most seeds
first, it walks the positions breadth-first from the table's start, each
position's moves recomputed by the many-games kernel and the end-of-move rules
(:mod:`mancala_spec.verify.ba_awa_moves`), and checks that

* its value is the best, for the player to move, over its moves of what the
  move gives now (captures, and the seeds the rules hand out where it ends the
  game) plus the value the table gives the position it leads to (a pass step's
  one move: to the same board, the other player to move, or the end);
* every position a move leads to is in the table (else: *missing*), and every
  position of the table is reached so (else: *extra*): the table's positions
  are exactly those reachable from its start;
* no value is beyond the seeds on the board.

A level is read whole when first needed (its numbers, eight bytes a position,
and values) and dropped once the levels above it are checked; so the memory
is that of the level checked and those below it, about 0.7 GB for the
opening's table. Tables with ``decided=true`` are not written, so not checked.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import TableError
from .ba_awa_moves import FEWER, NONE, ROW, SAME, Moves, boards, key_of
from .ba_awa_table import Levels, read_index
from .report import KEPT, Problem, Report

Array = np.ndarray[Any, Any]

#: positions expanded at a time
BLOCK = 1 << 17


def verify_ba_awa(folder: str | Path, progress: Any = None) -> Report:
    """Check the Ba-awa table in *folder* (see the module);
    :class:`~mancala_spec.errors.TableError` if it is not one that can be read.
    *progress*, if given, is called as ``progress(phase, done, total)``."""
    from ..engine.games import get_game
    from ..errors import MancalaError
    from ..options import option

    folder = Path(folder)
    clock = time.perf_counter()
    index = read_index(folder)
    options = {}
    for name in ("choose", "skip_origin", "endless", "no_move", "repetition", "decided",
                 "players"):
        try:
            options[name] = option("ba-awa", name).check(index.get(name))
        except MancalaError:
            raise TableError(f"the index's {name} is {index.get(name)!r}, not a value of "
                             "the option", field="header") from None
    if options["decided"] or options["players"] != 2:
        raise TableError("the table is of decided=true or three players, which are not "
                         "written as tables", field="header")
    start: Any = index.get("start")
    try:
        pits0 = tuple(int(x) for x in start["pits"])
        player0 = int(start["to_move"])
    except (TypeError, KeyError, ValueError):
        pits0, player0 = (), -1
    if len(pits0) != 12 or min(pits0) < 0 or not 8 < sum(pits0) <= 48 or player0 not in (0, 1):
        raise TableError("the index names no start (12 pit counts, player 0 or 1)",
                         field="header")
    game = get_game("ba-awa", **options)
    levels = Levels(folder, index)
    report = Report(str(folder), "ba-awa", positions=sum(
        c for shards in levels.shards.values() for _, c, _ in shards))
    Checker(game, levels, report, progress).run(sum(pits0), key_of(pits0, player0))
    report.seconds = time.perf_counter() - clock
    return report


class Checker:
    """The walk of :func:`verify_ba_awa` over one table."""

    def __init__(self, game: Any, levels: Levels, report: Report, progress: Any) -> None:
        self.game, self.levels, self.report = game, levels, report
        self.moves = Moves(game)
        self.progress = progress or (lambda phase, done, total: None)
        #: per level below the one checked: which of its rows captures reached
        self.reached: dict[int, Array] = {}

    def run(self, top: int, start: int) -> None:
        tops = [s for s in self.levels.seeds() if s not in range(top, 8, -4)]
        for s in tops:             # above the start, or no level of play: nothing reaches them
            self.extra(s, np.ones(self._rows(s), dtype=bool))
        numbers, _ = self.levels.get(top) if top in self.levels else (np.zeros(0, np.int64),
                                                                        None)
        self.reached[top] = np.zeros(len(numbers), dtype=bool)
        at = int(np.searchsorted(numbers, start))
        if at < len(numbers) and numbers[at] == start:
            self.reached[top][at] = True
        else:
            pits, to_move = boards(top, np.array([start]))
            self.report.add(Problem("missing", top, start, tuple(pits[0].tolist()),
                                    int(to_move[0]), missing="the start"))
        for seeds in range(top, 8, -4):
            if seeds in self.levels:
                self.level(seeds)
            self.levels.drop(seeds)
            self.reached.pop(seeds, None)

    def _rows(self, seeds: int) -> int:
        return sum(c for _, c, _ in self.levels.shards[seeds])

    def extra(self, seeds: int, unreached: Array) -> None:
        rows = np.flatnonzero(unreached)
        if not rows.size:
            return
        numbers, values = self.levels.get(seeds)
        for row in rows[:KEPT].tolist():
            pits, to_move = boards(seeds, numbers[row:row + 1])
            u = int(values[row])
            self.report.add(Problem("extra", seeds, int(numbers[row]),
                                    tuple(pits[0].tolist()), int(to_move[0]),
                                    value=u if to_move[0] == 0 else -u))
        self.report.inconsistencies += max(0, len(rows) - KEPT)

    def level(self, seeds: int) -> None:
        numbers, values = self.levels.get(seeds)
        reached = self.reached.setdefault(seeds, np.zeros(len(numbers), dtype=bool))
        done = np.zeros(len(numbers), dtype=bool)
        self.report.levels[seeds] = len(numbers)
        self.report.level_pass_steps[seeds] = 0
        while True:
            frontier = np.flatnonzero(reached & ~done)
            if not frontier.size:
                break
            for lo in range(0, len(frontier), BLOCK):
                rows = frontier[lo:lo + BLOCK]
                self.block(seeds, numbers, values, reached, rows)
                done[rows] = True
                self.report.checked += len(rows)
                self.progress(f"verifying {seeds} seeds", self.report.checked,
                              self.report.positions)
        self.extra(seeds, ~reached)

    def find(self, seeds: int, keys: Array) -> tuple[Array, Array, Array]:
        """Where *keys* are in level *seeds*: (found, row, value); marks them reached."""
        if seeds not in self.levels:
            return (np.zeros(len(keys), dtype=bool), np.zeros(len(keys), dtype=np.int64),
                    np.zeros(len(keys), dtype=np.int16))
        numbers, values = self.levels.get(seeds)
        if seeds not in self.reached:
            self.reached[seeds] = np.zeros(len(numbers), dtype=bool)
        # (looked up in increasing order: each search then reads memory the one
        # before brought into the cache, in levels of millions)
        order = np.argsort(keys)
        at = np.empty(len(keys), dtype=np.int64)
        at[order] = np.searchsorted(numbers, keys[order])
        at[at == len(numbers)] = 0
        found = numbers[at] == keys if len(numbers) else np.zeros(len(keys), dtype=bool)
        self.reached[seeds][at[found]] = True
        return found, at, values[at].astype(np.int16)

    def block(self, seeds: int, numbers: Array, values: Array, reached: Array,
              rows: Array) -> None:
        pits, players = boards(seeds, numbers[rows])
        moves = self.moves.choices(seeds, pits, players)
        n = len(rows)
        worth = np.zeros((ROW, n), dtype=np.int16)      # to South, each choice
        lost = np.zeros((ROW, n), dtype=bool)           # leads where the table has nothing
        for c in range(ROW):
            kind = moves.kind[c]
            for s in np.unique(moves.seeds[c][(kind == SAME) | (kind == FEWER)]).tolist():
                going = ((kind == SAME) | (kind == FEWER)) & (moves.seeds[c] == s)
                found, _, u = self.find(int(s), moves.key[c][going])
                worth[c, going] = u
                lost[c, going] = ~found
            worth[c] += moves.gain[c]
        side = np.where(players == 0, 1, -1).astype(np.int16)
        legal = moves.kind != NONE
        best = np.where(legal, worth * side, -999).max(axis=0)
        told = values[rows].astype(np.int16) * side
        bad = (best != told) & ~lost.any(axis=0)
        beyond = np.abs(told) > seeds
        passing = int(moves.passing.sum())
        self.report.pass_steps += passing
        self.report.level_pass_steps[seeds] += passing
        for i in np.flatnonzero(bad | beyond | lost.any(axis=0)).tolist():
            self.problem(seeds, numbers, rows[i], pits[i], int(players[i]), int(told[i]),
                         int(best[i]), moves, worth[:, i] * side[i], lost[:, i], i,
                         "value" if bad[i] else "bound" if beyond[i] else "missing")

    def problem(self, seeds, numbers, row, pits, player, told, best, moves, worth, lost, i,
                kind) -> None:
        board = self.game.board
        shown: dict[str, int | str] = {}
        missing = ""
        for c in range(ROW):
            k = int(moves.kind[c, i])
            if k == NONE:
                continue
            name = "pass" if moves.passing[i] else board.name(player * ROW + c)
            if lost[c]:
                shown[name] = "not in the table"
                s = int(moves.seeds[c, i])
                p, q = boards(s, moves.key[c, i:i + 1])
                missing = missing or Problem("missing", s, 0, tuple(p[0].tolist()),
                                             int(q[0])).position()
            else:
                shown[name] = int(worth[c])
        self.report.add(Problem(kind, seeds, int(numbers[row]), tuple(pits.tolist()), player,
                                value=told, best=best, moves=shown,
                                passing=bool(moves.passing[i]), missing=missing))


"""Random playouts, many games at once: numpy arrays, one row a game (numpy needed).

:func:`playouts` plays many random games at once and returns each game's
result (and, if asked, its moves), for Ba-awa and Bakuk with two players and
any options: the same rules as :mod:`mancala_spec.fast.ba_awa` and
:mod:`mancala_spec.fast.bakuk`, read from the same tables
(:mod:`mancala_spec.fast.tables`), Bakuk's moves by
:class:`~mancala_spec.fast.batch.BakukBatch`.

The games start from one position whose rows are owned by their players
(:class:`_Batch` refuses any other owners, and three players), and owners never
change during a game. So a player's row is exactly the pits they own, and
Ba-awa's two readings of a player's pits (option ``choose``, rule
``ba-awa-choose``: the pits they own, or the pits of their row) choose from the
same pits: both values are accepted, and played alike.

A Ba-awa lap changes each pit on its own: a pit that holds fewer than four
seeds and receives *k* more (none of them the lap's last) ends with
``(seeds + k) % 4`` and gives its owner four for every ``(seeds + k) // 4``
(``ba-awa-owner-four``), and a pit holding four or more never makes exactly four
again. So a lap is applied whole, pit by pit, from the lap table. A sowing still
relaying after :data:`BATCH_LAPS` laps is handed to the scalar kernel's
:func:`~mancala_spec.fast.ba_awa.sow`, which alone decides whether it is endless:
exact, however long the sowing.

>>> import mancala_spec as ms
>>> result = playouts(ms.get_game("bakuk"), 200, seed=1, record=True)
>>> len(result.moves), result.captured.shape
(200, (200, 2))
>>> final = ms.get_game("bakuk").start()
>>> for pit in result.record(0):
...     final = final.play(pit)
>>> final.is_over, final.captured == tuple(result.captured[0].tolist())
(True, True)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..options import check_kernel_options
from .ba_awa import sow
from .batch import BakukBatch, lap_arrays
from .tables import EIGHT, FOUR, sowing_next

if TYPE_CHECKING:
    from ..engine.games.base import Game
    from ..engine.position import Position

Array = np.ndarray[Any, Any]

#: laps a Ba-awa sowing is followed with arrays before the scalar kernel takes it over
BATCH_LAPS = 24


# -- random playouts ---------------------------------------------------------------


@dataclass
class Playouts:
    """What :func:`playouts` returns, one entry per game: ``moves`` played,
    ``captured`` seeds (one column per player, the end of the game's share-out
    included), ``winner`` (-1 for a draw), and with ``record=True`` every
    game's moves (pit indices, ``-1`` after the end)."""

    moves: Array
    captured: Array
    winner: Array
    records: Array | None = None

    def record(self, game: int) -> tuple[int, ...]:
        """The moves of game number *game* (``record=True`` only)."""
        if self.records is None:
            raise ValueError("these playouts were made without record=True")
        return tuple(int(p) for p in self.records[game, :int(self.moves[game])])


class _Batch:
    """The games still going: their pits, player to move, captured seeds,
    history (positions since the last capture, as packed keys) and moves."""

    def __init__(self, game: Game, n: int, start: Position, record: bool) -> None:
        size = game.board.size
        if game.players != 2:
            raise ValueError("batch playouts need two players")
        if tuple(start.owners) != game.board.row_owners:
            raise ValueError("batch playouts need each row owned by its player")
        self.size, self.row = size, size // 2
        self.pits = np.tile(np.array(start.pits, dtype=np.int16), (n, 1))
        self.mover = np.full(n, start.to_move, dtype=np.int8)
        self.captured = np.tile(np.array(start.captured, dtype=np.int16), (n, 1))
        self.count = np.zeros(n, dtype=np.int32)
        self.index = np.arange(n)              # each row's game number
        # each position packed in two int64: six bits a pit, and the player;
        # and in one, exactly if it fits (Bakuk), else hashed and then checked
        self.weights = (np.int64(64) ** np.arange(size // 2, dtype=np.int64)).astype(np.int64)
        self.packed = 12 * self.row + 1 <= 62
        depth = max(8, len(start.history))
        self.history = np.zeros((n, depth), dtype=np.int64)
        self.exact = None if self.packed else np.zeros((n, depth, 2), dtype=np.int64)
        self.seen = np.full(n, len(start.history), dtype=np.int32)
        if start.history:
            boards = np.array([p for p, _ in start.history], dtype=np.int16)
            players = np.array([player for _, player in start.history])
            self.history[:, :len(boards)] = self.key(self.keys(boards, players))
            if self.exact is not None:
                self.exact[:, :len(boards)] = self.keys(boards, players)
        self.last = np.full(n, 1 - start.to_move, dtype=np.int8)     # who moved last
        self.record = np.full((n, 64), -1, dtype=np.int8) if record else None

    def keys(self, pits: Array, player: Array) -> Array:
        """(rows, 2) int64: the positions packed (exact: a pit holds 63 at most)."""
        half = self.row
        low = pits[:, :half].astype(np.int64) @ self.weights
        high = pits[:, half:].astype(np.int64) @ self.weights
        return np.stack([low, high * 2 + player], axis=1)

    def key(self, keys: Array) -> Array:
        """One int64 per position: exact if :attr:`packed`, else a hash."""
        if self.packed:
            packed: Array = keys[:, 0] | (keys[:, 1] << (6 * self.row))
            return packed
        return keys[:, 0] * np.int64(-7046029254386353131) + keys[:, 1]

    def keep(self, rows: Array) -> None:
        """Keep only these rows (the games still going)."""
        for name in ("pits", "mover", "captured", "count", "index", "history", "exact",
                     "seen", "last", "record"):
            value = getattr(self, name)
            if value is not None:
                setattr(self, name, value[rows])

    def remember(self, rows: Array, before: Array, mover: Array, took: Array) -> None:
        """After a move in each of *rows*: a capture clears the history, else the
        position before the move joins it (``*-repetition``)."""
        seen = self.seen
        seen[rows[took]] = 0
        plain = rows[~took]
        if not plain.size:
            return
        if seen[plain].max() >= self.history.shape[1]:
            self.history = np.concatenate([self.history, np.zeros_like(self.history)], axis=1)
            if self.exact is not None:
                self.exact = np.concatenate([self.exact, np.zeros_like(self.exact)], axis=1)
        keys = self.keys(before[~took], mover[~took])
        self.history[plain, seen[plain]] = self.key(keys)
        if self.exact is not None:
            self.exact[plain, seen[plain]] = keys
        seen[plain] += 1

    def recurs(self, rows: Array, pits: Array, to_move: Array) -> Array:
        """For each of *rows*, whether (pits, to_move) is in its history."""
        if not rows.size:
            return np.zeros(0, dtype=bool)
        seen = self.seen[rows]
        depth = int(seen.max())
        if not depth:
            return np.zeros(len(rows), dtype=bool)
        keys = self.keys(pits, to_move)
        same = self.history[rows, :depth] == self.key(keys)[:, None]
        same &= np.arange(depth)[None, :] < seen[:, None]
        found: Array = same.any(axis=1)
        if self.exact is not None and found.any():     # a hash matched: check exactly
            hits = np.flatnonzero(found)
            past = self.exact[rows[hits], :depth]
            equal = (past == keys[hits][:, None, :]).all(axis=2) & same[hits]
            found[hits] = equal.any(axis=1)
        return found

    def played(self, rows: Array, pit: Array) -> None:
        """Count (and record) the move *pit* in each of *rows*."""
        if self.record is not None:
            if self.count[rows].max() >= self.record.shape[1]:
                self.record = np.concatenate([self.record, np.full_like(self.record, -1)],
                                             axis=1)
            self.record[rows, self.count[rows]] = pit
        self.count[rows] += 1


def _pick(candidates: Array, rng: np.random.Generator) -> Array:
    """For each row of *candidates* (bool, at least one true), a true column
    chosen uniformly at random."""
    total = candidates.sum(axis=1)
    nth = (rng.random(len(candidates)) * total).astype(np.int64)
    chosen: Array = np.argmax(np.cumsum(candidates, axis=1) > nth[:, None], axis=1)
    return chosen


def playouts(game: Game, n: int, seed: int | None = None, opener: int = 0,
             record: bool = False, start: Position | None = None) -> Playouts:
    """Play *n* random games of *game* (two players, each pit owned by its row's
    player) from the start, *opener* moving first, or from the position *start*
    (of *game*, not over), every move drawn uniformly from the legal moves with
    ``numpy.random.default_rng(seed)``."""
    if n < 0:
        raise ValueError("n must be at least 0")
    check_kernel_options(game.name, game.options)       # other readings: the reference only
    if start is None:
        if opener not in range(game.players):
            raise ValueError("opener must be a player of the game")
        start = game.start(opener)
    elif start.game != game or start.is_over:
        raise ValueError("start must be a position of this game, not over")
    kinds = {"ba-awa": _BaAwaPlayouts, "bakuk": _BakukPlayouts}
    if game.name not in kinds:
        raise TypeError(f"no fast path for {game!r}")
    return kinds[game.name](game, n, start, record).run(np.random.default_rng(seed))


class _Playouts:
    """The loop every game shares: move, then settle the games that ended."""

    def __init__(self, game: Game, n: int, start: Position, record: bool) -> None:
        self.game, self.n, self.opener = game, n, start.opener
        self.batch = _Batch(game, n, start, record)
        self.moves = np.zeros(n, dtype=np.int32)
        self.captured = np.zeros((n, 2), dtype=np.int16)
        self.records: list[tuple[Array, Array]] = []

    def finish(self, rows: Array, captured: Array) -> None:
        """Games in *rows* of the batch are over, with these captured seeds."""
        b = self.batch
        games = b.index[rows]
        self.moves[games] = b.count[rows]
        self.captured[games] = captured
        if b.record is not None:
            self.records.append((games, b.record[rows]))

    def step(self, rng: np.random.Generator) -> Array:
        """One move in every game still going; return the rows still going."""
        raise NotImplementedError

    def run(self, rng: np.random.Generator) -> Playouts:
        while len(self.batch.index):
            self.batch.keep(self.step(rng))
        winner = np.where(self.captured[:, 0] > self.captured[:, 1], 0,
                          np.where(self.captured[:, 1] > self.captured[:, 0], 1, -1))
        records = None
        if self.batch.record is not None:
            width = max([int(self.moves.max()) if self.n else 0, 1])
            records = np.full((self.n, width), -1, dtype=np.int8)
            for games, rows in self.records:
                cut = rows[:, :width]
                records[games, :cut.shape[1]] = cut
        return Playouts(self.moves, self.captured.astype(np.int32), winner, records)


class _BakukPlayouts(_Playouts):
    """Bakuk (the rules: :mod:`mancala_spec.fast.bakuk`)."""

    def __init__(self, game: Game, n: int, start: Position, record: bool) -> None:
        super().__init__(game, n, start, record)
        self.rules = BakukBatch(game.board.pits_per_row, game.total_seeds,
                                bool(game.options["skip_origin"]), game.options["chain"],
                                game.options["no_move"], game.options["leftovers"])

    def end(self, rows: Array, pits: Array, captured: Array) -> None:
        # bakuk-leftovers: counters left score for nobody, or their hole's owner
        if self.rules.owners_score:
            captured = captured + np.stack([self.rules.row_sum(pits, 0),
                                            self.rules.row_sum(pits, 1)], axis=1)
        self.finish(rows, captured)

    def step(self, rng: np.random.Generator) -> Array:
        b, rules, n = self.batch, self.rules, self.batch.row
        count = len(b.index)
        rows = np.arange(count)
        mover = b.mover.astype(np.intp)
        before = b.pits
        own = before.reshape(count, 2, n)[rows, mover]            # bakuk-choose
        pit = mover * n + _pick(own > 0, rng)
        b.played(rows, pit)
        seeds = before[rows, pit]
        after = before + rules.lap_add[pit, seeds]                # bakuk-sow, bakuk-origin
        gain = rules.capture(after, rules.lap_end[pit, seeds])    # bakuk-capture, -chain
        took = gain > 0
        b.captured[rows, mover] += gain
        b.remember(rows, before, b.mover, took)                   # bakuk-repetition
        sums = after.reshape(count, 2, n).sum(axis=2)
        to_move = 1 - mover                                       # bakuk-turns
        stuck = sums[rows, to_move] == 0                          # bakuk-exhausted
        if rules.passing:
            again = stuck & (sums[rows, mover] > 0)
            to_move = np.where(again, mover, to_move)
            stuck &= ~again
        over = stuck
        going = np.flatnonzero(~over)
        over[going] = b.recurs(going, after[going], to_move[going])   # bakuk-repetition
        ended = np.flatnonzero(over)
        if ended.size:
            self.end(ended, after[ended], b.captured[ended])
        b.pits = after
        b.mover = to_move.astype(np.int8)
        return np.flatnonzero(~over)


class _BaAwaPlayouts(_Playouts):
    """Ba-awa (the rules: :mod:`mancala_spec.fast.ba_awa`)."""

    def __init__(self, game: Game, n: int, start: Position, record: bool) -> None:
        super().__init__(game, n, start, record)
        size = game.board.size
        self.step_table = sowing_next(size, bool(game.options["skip_origin"]))
        change, self.lap_last = lap_arrays(size, bool(game.options["skip_origin"]),
                                           game.total_seeds)
        # drops[origin, seeds]: the seeds each pit receives in the lap
        self.drops = change + np.eye(size, dtype=np.int16)[:, None, :] * \
            np.arange(game.total_seeds + 1, dtype=np.int16)[None, :, None]
        self.endless_illegal = game.options["endless"] == "illegal"
        self.owners_take = game.options["no_move"] == "owners"
        self.owners = (0,) * (size // 2) + (1,) * (size // 2)
        # the player each pit's fours go to, as a matrix: caps @ owner = fours won
        self.owner = np.zeros((size, 2), dtype=np.int16)
        self.owner[np.arange(size), self.owners] = FOUR

    def sow(self, pits: Array, pit: Array, mover: Array) -> tuple[Array, Array, Array, Array]:
        """Sow *pit* of each board in *pits* for *mover*, lap after lap, a lap at
        a time (ba-awa-sow, -owner-four, -mover-four, -sowing-end, -relay).
        Returns the boards after, the seeds won (rows, 2), whether anything was
        captured, and whether the sowing is endless (``ba-awa-endless``)."""
        count = len(pits)
        board = pits.copy()
        won = np.zeros((count, 2), dtype=np.int16)
        took = np.zeros(count, dtype=bool)
        endless = np.zeros(count, dtype=bool)
        live = np.arange(count)
        origin = pit.astype(np.intp)
        seeds = board[live, origin].astype(np.intp)
        board[live, origin] = 0
        for _ in range(BATCH_LAPS):
            cur = board[live]
            last = self.lap_last[origin, seeds]
            drops = self.drops[origin, seeds]
            here = np.arange(len(live))
            drops[here, last] -= 1                  # every seed but the lap's last:
            total = cur + drops
            small = cur < FOUR                      # a pit of four or more never makes four
            caps = np.where(small, total >> 2, 0)   # ba-awa-owner-four
            cur = np.where(small, total & 3, total)
            fours = caps @ self.owner
            won[live] += fours
            took[live] |= fours.any(axis=1)
            landed = cur[here, last] + 1            # the lap's last seed
            cur[here, last] = landed
            four = landed == FOUR                   # ba-awa-mover-four
            cur[here[four], last[four]] = 0
            won[live[four], mover[live[four]]] += FOUR
            took[live[four]] = True
            relay = ~four & (landed != 1)           # ba-awa-sowing-end, ba-awa-relay
            cur[here[relay], last[relay]] = 0
            board[live] = cur
            live, origin, seeds = live[relay], last[relay], landed[relay].astype(np.intp)
            if not live.size:
                break
        for row in live.tolist():                   # long sowings: the scalar kernel
            after, gained, taken, _, forever = sow(
                tuple(pits[row].tolist()), int(pit[row]), int(mover[row]),
                self.step_table, self.owners)
            board[row], won[row], took[row], endless[row] = after, gained, taken, forever
        return board, won, took, endless

    def opener_takes(self, rows: Array, pits: Array) -> None:
        captured = self.batch.captured[rows].copy()
        captured[:, self.opener] += pits.sum(axis=1, dtype=np.int16)
        self.finish(rows, captured)

    def owners_keep(self, rows: Array, pits: Array) -> None:
        half = self.batch.row
        captured = self.batch.captured[rows] + np.stack(
            [pits[:, :half].sum(axis=1), pits[:, half:].sum(axis=1)], axis=1)
        self.finish(rows, captured)

    def step(self, rng: np.random.Generator) -> Array:
        b, half = self.batch, self.batch.row
        count = len(b.index)
        rows = np.arange(count)
        before = b.pits
        mover = b.mover.astype(np.intp)
        # ba-awa-choose: a pit of the mover's row (here also the pits they own,
        # whichever the option choose) that holds seeds, drawn uniformly;
        # ba-awa-endless: an endless one (endless="illegal") is not legal: draw again
        candidates = before.reshape(count, 2, half)[rows, mover] > 0
        after = np.empty_like(before)
        won = np.zeros((count, 2), dtype=np.int16)
        took = np.zeros(count, dtype=bool)
        pit = np.zeros(count, dtype=np.intp)
        stuck = np.zeros(count, dtype=bool)        # no legal move after all
        todo = rows
        while todo.size:
            pit[todo] = mover[todo] * half + _pick(candidates[todo], rng)
            after[todo], won[todo], took[todo], endless = self.sow(
                before[todo], pit[todo], mover[todo])
            if not self.endless_illegal:
                break
            bad = todo[endless]
            candidates[bad, pit[bad] - mover[bad] * half] = False
            left = candidates[bad].any(axis=1)
            stuck[bad[~left]] = True
            todo = bad[left]
        over = np.zeros(count, dtype=bool)
        moved = np.flatnonzero(~stuck)
        if moved.size:
            over[moved] = self.moved(moved, pit[moved], after[moved], won[moved], took[moved])
        if stuck.any():
            held = np.flatnonzero(stuck)
            over[held] = self.stuck(held)
        return np.flatnonzero(~over)

    def moved(self, rows: Array, pit: Array, after: Array, won: Array, took: Array) -> Array:
        """The end of a move in each of *rows*; return which games are over."""
        b, half = self.batch, self.batch.row
        sub = np.arange(len(rows))
        mover = b.mover[rows].astype(np.intp)
        b.played(rows, pit)
        b.captured[rows] += won
        b.remember(rows, b.pits[rows], b.mover[rows], took)   # ba-awa-repetition
        b.pits[rows] = after
        b.last[rows] = mover
        over: Array = after.sum(axis=1) <= EIGHT        # ba-awa-eight: the opener's
        if over.any():
            self.opener_takes(rows[over], after[over])
        sums = after.reshape(len(rows), 2, half).sum(axis=2)
        to_move = 1 - mover                             # ba-awa-turns: the next, if able
        blocked = ~over & (sums[sub, to_move] == 0)
        if blocked.any():                               # ba-awa-no-move
            if self.owners_take:
                self.owners_keep(rows[blocked], after[blocked])
                over |= blocked
            else:                                       # passed over: the mover again,
                to_move[blocked] = mover[blocked]       # and if not, the opener's
                nobody = blocked & (sums[sub, mover] == 0)
                if nobody.any():
                    self.opener_takes(rows[nobody], after[nobody])
                    over |= nobody
        b.mover[rows] = to_move
        self.recurring(rows, over)
        return over

    def stuck(self, rows: Array) -> Array:
        """The player to move in each of *rows* holds seeds but every pit of
        theirs sows forever: settle the end of the previous move again, as it
        would have been settled knowing that (ba-awa-no-move); return which
        games are over."""
        b, half = self.batch, self.batch.row
        sub = np.arange(len(rows))
        pits = b.pits[rows]
        over = np.ones(len(rows), dtype=bool)
        if self.owners_take:
            self.owners_keep(rows, pits)
            return over
        last = b.last[rows].astype(np.intp)
        sums = pits.reshape(len(rows), 2, half).sum(axis=2)
        # passed over: the previous mover moves again if they have seeds (and
        # were not the one stuck); otherwise nobody can move: the opener's
        over = np.asarray((b.mover[rows] == last) | (sums[sub, last] == 0))
        if over.any():
            self.opener_takes(rows[over], pits[over])
        b.mover[rows] = last
        self.recurring(rows, over)
        return over

    def recurring(self, rows: Array, over: Array) -> None:
        """ba-awa-repetition: a game still going (not *over*) whose position was
        seen before is over, the opener taking what remains (*over* is updated)."""
        b = self.batch
        going = np.flatnonzero(~over)
        if not going.size:
            return
        again = b.recurs(rows[going], b.pits[rows[going]], b.mover[rows[going]])
        if again.any():
            ended = rows[going[again]]
            self.opener_takes(ended, b.pits[ended])
            over[going[again]] = True

"""Many games at once: the harness the games' many-games steps run in (numpy needed).

The rules are not here: each game's many-games steps live beside its one-game
steps, reading the same tables (:class:`~mancala_spec.fast.ba_awa.many.BaAwaBatch`,
:class:`~mancala_spec.fast.bakuk.BakukBatch`). This module keeps the games
going: their pits, players, captures, the positions seen since the last capture
(for the repetition rules), the moves played, and how each game ended.

:func:`playouts` plays many random games at once and returns each game's
result (and, if asked, its moves), for Ba-awa and Bakuk with two players and
any options. The games start from one position whose rows are owned by their
players (three players and other owners are refused), and owners never
change during a game.

>>> import mancala_spec as ms
>>> result = playouts(ms.get_game("bakuk"), 200, seed=1, record=True)
>>> len(result.moves), result.captured.shape
(200, (200, 2))
>>> final = ms.get_game("bakuk").start()
>>> for pit in result.record(0):
...     final = final.play(pit)
>>> final.is_over, final.captured == tuple(result.captured[0].tolist())
(True, True)
>>> result.outcome(0).rule in ("bakuk-exhausted", "bakuk-repetition")
True
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..engine.outcome import Outcome
from ..errors import InvalidPositionError, MancalaError, OptionError, shown
from .base import Ending, FastGame, checked_player, kernel_of

if TYPE_CHECKING:
    from ..engine.games.base import Game
    from ..engine.position import Position

Array = np.ndarray[Any, Any]

#: the most games :func:`playouts` plays at once (about 150 bytes a game)
MOST_PLAYOUTS = 1_000_000


@dataclass
class Playouts:
    """What :func:`playouts` returns, one entry per game: ``moves`` played,
    ``captured`` seeds (one column per player, the end of the game's share-out
    included), ``winner`` (-1 for a draw), ``endings`` (how each game ended: an
    index into ``kinds``, the game's :class:`~mancala_spec.fast.base.Ending`
    values), and with ``record=True`` every game's moves (pit indices, ``-1``
    after the end)."""

    moves: Array
    captured: Array
    winner: Array
    endings: Array
    kinds: tuple[Ending, ...]
    records: Array | None = None

    def record(self, game: int) -> tuple[int, ...]:
        """The moves of game number *game* (``record=True`` only)."""
        if self.records is None:
            raise MancalaError("these playouts were made without record=True")
        game = self.number(game)
        return tuple(int(p) for p in self.records[game, :int(self.moves[game])])

    def outcome(self, game: int) -> Outcome:
        """How game number *game* ended: reason, rule and winner."""
        game = self.number(game)
        ending = self.kinds[int(self.endings[game])]
        winner = int(self.winner[game])
        return Outcome(ending.reason, ending.rule, None if winner < 0 else winner)


    def number(self, game: Any) -> int:
        """*game*, if it is the number of one of these games (from 0), else
        :class:`~mancala_spec.errors.OptionError` (``option="game"``)."""
        if type(game) is not int or not 0 <= game < len(self.moves):
            raise OptionError(f"game must be a game number from 0 to {len(self.moves) - 1}, "
                              f"not {shown(game)}", option="game", value=game)
        return game


class Games:
    """The games still going: their pits, player to move, captured seeds,
    history (positions since the last capture, as packed keys) and moves.
    Rows are games; :meth:`keep` drops the rows of games that ended.

    Each position is one int64 key: exact if it fits (six bits a pit and the
    player: Bakuk's six holes), else a hash of two exact words, a match then
    checked exactly. ``now`` holds the key of each game's position; only a
    game's first ``seen`` history entries are in use.
    """

    #: a history entry never written (no position's key is negative)
    EMPTY = -1

    def __init__(self, game: Game, n: int, start: Position, record: bool) -> None:
        size = game.board.size
        self.size, self.row = size, size // 2
        self.pits = np.tile(np.array(start.pits, dtype=np.int16), (n, 1))
        self.mover = np.full(n, start.to_move, dtype=np.int8)
        self.captured = np.tile(np.array(start.captured, dtype=np.int16), (n, 1))
        self.count = np.zeros(n, dtype=np.int32)
        self.index = np.arange(n)              # each row's game number
        self.packed = 6 * size + 1 <= 62
        self.weights = (np.int64(64) ** np.arange(size if self.packed else size // 2,
                                                  dtype=np.int64)).astype(np.int64)
        depth = max(8, len(start.history))
        self.history = np.full((n, depth), self.EMPTY, dtype=np.int64)
        self.exact = None if self.packed else np.zeros((n, depth, 2), dtype=np.int64)
        self.seen = np.full(n, len(start.history), dtype=np.int32)
        if start.history:
            boards = np.array([p for p, _ in start.history], dtype=np.int16)
            players = np.array([player for _, player in start.history])
            keys, exact = self.keys(boards, players)
            self.history[:, :len(boards)] = keys
            if self.exact is not None and exact is not None:
                self.exact[:, :len(boards)] = exact
        self.now, self.now_exact = self.keys(self.pits, self.mover)
        # a bit a history entry (of 64, by its key): a position whose bit is not
        # set is not in the history, and most are told so without a comparison
        self.bloom = np.zeros(n, dtype=np.uint64)
        for column in range(len(start.history)):
            self.bloom |= self.bit(self.history[:, column])
        self.last = np.full(n, 1 - start.to_move, dtype=np.int8)     # who moved last
        self.record = np.full((n, 64), -1, dtype=np.int8) if record else None

    def keys(self, pits: Array, player: Array) -> tuple[Array, Array | None]:
        """The positions' keys, and (when a key is a hash) their exact two words."""
        if self.packed:
            keys: Array = (pits.astype(np.int64) @ self.weights) * 2 + player
            return keys, None
        half = self.row
        low = pits[:, :half].astype(np.int64) @ self.weights
        high = pits[:, half:].astype(np.int64) @ self.weights * 2 + player
        hashed: Array = (low * np.int64(-7046029254386353131) + high) & np.int64(2 ** 62 - 1)
        return hashed, np.stack([low, high], axis=1)

    @staticmethod
    def bit(keys: Array) -> Array:
        """The bloom bit of each key (its top six bits after mixing)."""
        mixed = keys.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        bits: Array = np.uint64(1) << (mixed >> np.uint64(58))
        return bits

    _ROWS = ("pits", "mover", "captured", "count", "index", "seen", "last", "record", "now",
             "now_exact", "bloom")

    def keep(self, rows: Array) -> None:
        """Keep only these rows (the games still going)."""
        if len(rows) == len(self.index):
            return
        for name in self._ROWS:         # (take: faster than indexing with rows)
            value = getattr(self, name)
            if value is not None:
                setattr(self, name, value.take(rows, axis=0))
        # the history, halved while the longest kept needs at most a quarter of it
        depth = self.history.shape[1]
        need = int(self.seen.max()) + 1 if len(rows) else 0
        while depth > 8 and 4 * need <= depth:
            depth //= 2
        self.history = self.history[:, :depth].take(rows, axis=0)
        if self.exact is not None:
            self.exact = self.exact[:, :depth].take(rows, axis=0)

    def remember(self, rows: Array, took: Array) -> None:
        """Before a move in each of *rows*: a capture (*took*) clears the
        history, else the position before the move (``now``) joins it
        (``*-repetition``)."""
        seen = self.seen
        cleared = rows[took]
        if cleared.size:           # (its old entries stay, past seen: never compared)
            seen[cleared] = 0
            self.bloom[cleared] = 0
        plain = rows[~took]
        if not plain.size:
            return
        if seen[plain].max() >= self.history.shape[1]:
            self.history = np.concatenate([self.history, np.full_like(self.history, self.EMPTY)],
                                          axis=1)
            if self.exact is not None:
                self.exact = np.concatenate([self.exact, np.zeros_like(self.exact)], axis=1)
        at = seen[plain]
        self.history[plain, at] = self.now[plain]
        self.bloom[plain] |= self.bit(self.now[plain])
        if self.exact is not None and self.now_exact is not None:
            self.exact[plain, at] = self.now_exact[plain]
        seen[plain] += 1

    def recurs(self, rows: Array, pits: Array, to_move: Array) -> Array:
        """Each of *rows* is now at (pits, to_move) (it becomes ``now``): whether
        that position is in its history."""
        if not rows.size:
            return np.zeros(0, dtype=bool)
        keys, exact = self.keys(pits, to_move)
        self.now[rows] = keys
        if self.now_exact is not None and exact is not None:
            self.now_exact[rows] = exact
        found: Array = np.zeros(len(rows), dtype=bool)
        maybe = np.flatnonzero(self.bloom[rows] & self.bit(keys))   # only these may recur
        if not maybe.size:
            return found
        some = rows[maybe]
        seen = self.seen[some]
        depth = int(seen.max())
        same = self.history[some, :depth] == keys[maybe][:, None]
        same &= np.arange(depth)[None, :] < seen[:, None]     # the entries in use
        hit = same.any(axis=1)
        if self.exact is not None and exact is not None and hit.any():
            hits = np.flatnonzero(hit)           # a hash matched: check exactly
            past = self.exact[some[hits], :depth]
            equal = (past == exact[maybe[hits]][:, None, :]).all(axis=2) & same[hits]
            hit[hits] = equal.any(axis=1)
        found[maybe] = hit
        return found

    def played(self, rows: Array, pit: Array) -> None:
        """Count (and record) the move *pit* in each of *rows*."""
        if self.record is not None:
            if self.count[rows].max() >= self.record.shape[1]:
                self.record = np.concatenate([self.record, np.full_like(self.record, -1)],
                                             axis=1)
            self.record[rows, self.count[rows]] = pit
        self.count[rows] += 1


def pick(candidates: Array, rng: np.random.Generator) -> Array:
    """For each row of *candidates* (bool, at least one true), a true column
    chosen uniformly at random: the *k*-th true one, *k* drawn below their
    number. (Rows of up to eight columns are read as one byte each, and the
    count and the *k*-th column looked up in a table: the same choice, faster.)"""
    if candidates.shape[1] <= 8:
        counts, columns = _pick_tables()
        mask = np.packbits(candidates, axis=1, bitorder="little")[:, 0].astype(np.intp)
        nth = (rng.random(len(candidates)) * counts[mask]).astype(np.int64)
        looked_up: Array = columns[mask * 8 + nth]
        return looked_up
    total = candidates.sum(axis=1)
    nth = (rng.random(len(candidates)) * total).astype(np.int64)
    chosen: Array = np.argmax(np.cumsum(candidates, axis=1) > nth[:, None], axis=1)
    return chosen


@functools.cache
def _pick_tables() -> tuple[Array, Array]:
    """For each byte: how many of its bits are set, and (at byte * 8 + k) the
    column of its *k*-th set bit, lowest first."""
    counts = np.array([bin(byte).count("1") for byte in range(256)], dtype=np.int64)
    columns = np.zeros(256 * 8, dtype=np.intp)
    for byte in range(256):
        for k, column in enumerate(c for c in range(8) if byte >> c & 1):
            columns[byte * 8 + k] = column
    return counts, columns


class Rules(Protocol):
    """What a game's many-games steps offer the harness (see :class:`Run`)."""

    endings: tuple[Ending, ...]

    def step(self, run: Run, rng: np.random.Generator) -> Array:
        """One move in every game still going; return the rows still going."""


class Run:
    """The loop every game shares: *rules* move, then the games that ended are
    settled (:meth:`finish`) and dropped."""

    def __init__(self, game: Game, n: int, start: Position, record: bool, rules: Rules) -> None:
        self.game, self.n, self.opener, self.rules = game, n, start.opener, rules
        self.games = Games(game, n, start, record=record)
        self.moves = np.zeros(n, dtype=np.int32)
        self.captured = np.zeros((n, 2), dtype=np.int16)
        self.endings = np.zeros(n, dtype=np.int8)
        self.records: list[tuple[Array, Array]] = []

    def finish(self, rows: Array, captured: Array, ending: Ending) -> None:
        """Games in *rows* are over, for *ending* (one of the rules' endings),
        with these captured seeds."""
        b = self.games
        games = b.index[rows]
        self.moves[games] = b.count[rows]
        self.captured[games] = captured
        # (by identity: every Ending is an empty tuple, so all are equal)
        self.endings[games] = next(code for code, known in enumerate(self.rules.endings)
                                   if known is ending)
        if b.record is not None:
            self.records.append((games, b.record[rows]))

    def run(self, rng: np.random.Generator) -> Playouts:
        while len(self.games.index):
            self.games.keep(self.rules.step(self, rng))
        winner = np.where(self.captured[:, 0] > self.captured[:, 1], 0,
                          np.where(self.captured[:, 1] > self.captured[:, 0], 1, -1))
        records = None
        if self.games.record is not None:
            width = max([int(self.moves.max()) if self.n else 0, 1])
            records = np.full((self.n, width), -1, dtype=np.int8)
            for games, rows in self.records:
                cut = rows[:, :width]
                records[games, :cut.shape[1]] = cut
        return Playouts(self.moves, self.captured.astype(np.int32), winner, endings=self.endings,
                        kinds=self.rules.endings, records=records)


@functools.lru_cache(maxsize=16)
def _many(game: Game) -> Rules:
    """The game's many-games steps (their tables made once per game and options)."""
    rules: Rules = FastGame.kernels[game.name].many(game)
    return rules


def playouts(game: Game, n: int, seed: int | None = None, opener: int = 0,
             record: bool = False, start: Position | None = None) -> Playouts:
    """Play *n* random games of *game* (two players, each pit owned by its row's
    player) from the start, *opener* moving first, or from the position *start*
    (of *game*, not over), every move drawn uniformly from the legal moves with
    ``numpy.random.default_rng(seed)``."""
    kernel_of(game)                          # a game the kernel plays, else UnknownGameError
    if type(n) is not int or not 0 <= n <= MOST_PLAYOUTS:
        raise OptionError(f"n must be a whole number of games from 0 to {MOST_PLAYOUTS:,}, "
                          f"not {shown(n)}", game=game.name, option="n", value=n)
    if seed is not None and (type(seed) is not int or seed < 0):
        raise OptionError(f"seed must be a whole number of at least 0, or None, not {shown(seed)}",
                          game=game.name, option="seed", value=seed)
    if type(record) is not bool:
        raise OptionError(f"record must be True or False, not {shown(record)}",
                          game=game.name, option="record", value=record, choices=(False, True))
    if start is None:
        start = game.start(checked_player(opener, game.players, "opener", field="opener"))
    elif getattr(start, "game", None) != game or getattr(start, "is_over", True):
        raise InvalidPositionError("start must be a position of this game, not over",
                                   field="game")
    if game.players != 2:
        raise OptionError("batch playouts need two players", game=game.name, option="players",
                          value=game.players, choices=(2,))
    if tuple(start.owners) != game.board.row_owners:
        raise InvalidPositionError("batch playouts need each row owned by its player",
                                   field="owners")
    rules = _many(game)
    return Run(game, n, start, record=record, rules=rules).run(np.random.default_rng(seed))

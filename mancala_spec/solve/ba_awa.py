"""Ba-awa, strongly solved: the value of every position reachable from the start.

**The game solved.** Two-player Ba-awa, a single game (a match is not solved), with
the engine's options but those whose outcome depends on more than the board:
``decided`` (EveryBoard's reading: a game ends on the captured counts),
``endless="cap-75"`` (the game's end shares the leftovers by captured counts),
``no_move="empty-row"`` and ``repetition="play-on"`` (endless play has no
outcome) are refused (:data:`SOLVABLE`). South opens.

A *position* is what the engine's repetition rule compares (``ba-awa-repetition``):
the seeds in the pits and the player to move. Its *value* is the largest margin
the player to move can force from there: their future captures minus the
opponent's, counting the seeds the rules give to a player at the end (the opener
takes the last eight or fewer, what is left when nobody can move, and what is
left at a repetition; with ``no_move="owners"`` each owner their pits'). What was
captured before does not matter (``decided`` is off, so the counts never end a
game), but who opened does: the leftovers go to the opener. South opens every
game solved here, so the player to move says whether the mover opened.

**Levels.** A capture takes exactly four seeds (``ba-awa-owner-four``,
``ba-awa-mover-four``: a pit is emptied when it holds four), so the board holds
48, 44, ... seeds, and a move that captures leads to a lower *level*; a move that
does not keeps the level. With eight or fewer seeds the game is over
(``ba-awa-eight``), so the levels are 12 to 48 seeds. Each level's positions are
numbered by the rank of their board among the boards of that many seeds (the
combinatorial number system: at most C(59, 11), about 2 * 10^12, for 48 seeds),
times two, plus the player to move: one sorted ``int64`` array a level, looked up
with ``searchsorted``.

**Repetition, and endless relay sowings.** A sowing that never ends is the
kernel's to find (``ba-awa-endless``: the lap state recurs): with
``endless="illegal"`` such a move is not a legal move, with ``"stop"`` it is a
move to the board it stopped on; either way every move is a finite step here.
The repetition rule ends the game at the first recurrence of a whole position
and gives the opener what remains: history-dependent. But a capture clears the
history and lowers the level, so a recurrence can only be of a position of the
same level, since the last capture; and the opener taking all that remains is
the best the opener can have from there (a margin of the seeds on the board,
*S*). So within a level the solver plays the *stationary* game in which endless
play is worth *S* to the opener, and its values are those of the engine's game
(with the repetition rule) from any position with no history: the opening and
every position just after a capture. Why: value iteration from the top (every
position of the level worth *S* to the opener, then rounds of the minimax step
until a round changes nothing) reaches the greatest fixed point *u* of the
minimax equations, which is the stationary game's value. The opener gets at
least *u* in the engine's game by moving to a successor of equal value: along
the play *u* never drops, and a repetition gives *S*, at least *u*. The other
player holds the opener to *u* by moving, among the successors of least value,
to the one whose value was reached in the earliest round: along the play the
pair (value, round reached) then falls strictly at each move (it cannot rise at
the opener's turn, and falls at theirs), so no position ever recurs and the
game leaves the level at a capture or an end worth at most *u*. Both strategies
depend only on the position, so neither player gains by the history. A position
reached in the middle of a stretch, with history, is valued as if reached
just after a capture. The tests compare these values with a plain search that
plays the kernel's own repetition rule (no tables).

A player with no legal move (``ba-awa-no-move``) is a position with one move:
with ``no_move="pass"``, to the same board with the other player to move if
that player can move, else the end (the opener takes the rest); with
``no_move="owners"``, the end. (The engine never records such a position in
the history, as nobody moves from it; the argument above holds for the
positions moved from.)

**How.** Enumeration goes top down, level by level (breadth-first within a
level, the many-games sowing of :class:`~mancala_spec.fast.ba_awa.many.BaAwaBatch`
on arrays of positions, optionally in forked worker processes), keeping each
position's moves: the row of each successor in its level (``int32``), the best
move that ends the game, and the captures to lower levels. The solve then goes
bottom up, fewest seeds first; within a level, value iteration re-evaluates
only the predecessors of the positions that changed in the round before.
Values are ``int8``, kept from the opener's side and given from the side of
the player to move. A capture that took other than a multiple of four seeds
would break the levels: the solver checks every capture and stops if one does.
The positions counted include those whose player to move has no legal move
(passed over, or the end), as they are nodes of the search.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

try:
    import numpy as np
except ImportError as error:     # numpy is the optional extra "solve"
    raise ImportError("the solver needs numpy: pip install 'mancala-spec[solve]'") from error

from ..errors import InvalidPositionError, OptionError, UnreachedPositionError, shown
from ..options import Choose, Endless, NoMove, Repetition, Value, option

FOUR, EIGHT = 4, 8
PITS = 12
HALF = 6

#: the option values the solver takes (every other value is refused with a reason)
SOLVABLE: dict[str, tuple[Value, ...]] = {
    "choose": (Choose.OWNED, Choose.ROW),            # the same in a single two-player game
    "skip_origin": (False, True),
    "endless": (Endless.ILLEGAL, Endless.STOP),
    "no_move": (NoMove.PASS, NoMove.OWNERS),
    "repetition": (Repetition.END,),
    "decided": (False,),
    "players": (2,),
}
WHY_NOT = {
    "endless": "a sowing capped at 75 laps ends the game sharing the leftovers by the "
               "captured counts, which the positions solved do not hold",
    "no_move": "the empty-row reading is another program's, not solved here",
    "repetition": "with play-on, endless play has no outcome to value",
    "decided": "a game that ends on the captured counts depends on them, which the "
               "positions solved do not hold",
    "players": "three players are not solved",
}

Progress = Callable[[str, int, "int | None"], None]   # (phase, done, total or None)
#: positions sown at once (each costs a few hundred bytes while it is sown)
CHUNK = 1 << 20
#: bytes a position of the largest level costs at the peak of its enumeration
#: or solve: the successors' keys while it is enumerated (48), the sort of
#: its moves by successor and the predecessor lists while it is solved (about
#: 100) (see estimate_bytes)
BYTES_PER_POSITION = 110
#: bytes a position costs kept from its enumeration to the end: its key (8),
#: its successors' rows (24), its best end (2), its captures (about 13 each)
BYTES_KEPT = 50


def _text(value: object) -> str:
    """An option's value as the command line writes it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


class BaAwaRules:
    """The Ba-awa options solved (keywords as in ``get_game("ba-awa", ...)``),
    checked: a value the solver cannot solve raises
    :class:`~mancala_spec.errors.OptionError` saying why."""

    __slots__ = ("_options",)
    _options: dict[str, Value]

    def __init__(self, **options: Value) -> None:
        values: dict[str, Value] = {}
        for name, allowed in SOLVABLE.items():
            spec = option("ba-awa", name)
            value = spec.check(options.pop(name)) if name in options else spec.default
            if value not in allowed:
                raise OptionError(f"Ba-awa with {name}={_text(value)} cannot be solved: "
                                  f"{WHY_NOT.get(name, 'not solved here')}", game="ba-awa",
                                  option=name, value=value, choices=allowed)
            values[name] = value
        for name, value in options.items():
            raise OptionError(f"Ba-awa cannot be solved with {name}={_text(value)}: the "
                              "solver plays a single two-player game (no match settings)",
                              game="ba-awa", option=name, value=value)
        object.__setattr__(self, "_options", values)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("BaAwaRules are immutable")

    def __getattr__(self, name: str) -> Value:
        if name in SOLVABLE:
            return self._options[name]
        raise AttributeError(name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BaAwaRules) and self._options == other._options

    def __hash__(self) -> int:
        return hash(tuple(self._options.items()))

    def __repr__(self) -> str:
        return f"BaAwaRules({', '.join(f'{k}={v!r}' for k, v in self._options.items())})"

    def options(self) -> dict[str, Value]:
        """The engine options (as for ``get_game("ba-awa", **options)``)."""
        return dict(self._options)

    def game(self):
        from ..engine.games import get_game
        return get_game("ba-awa", **self._options)


class Numbering:
    """The number of each position of a level (seeds on the board *seeds*):
    its board's rank among the boards of 12 pits holding *seeds* seeds
    (prefix sums ``p_i``: the sum of C(p_i + i, i + 1) for i < 11), times
    two, plus the player to move."""

    def __init__(self, seeds: int) -> None:
        self.seeds = seeds
        top = seeds + PITS
        # table[i][x] = C(x + i, i + 1) for x = 0..seeds
        self.rank_tables = [np.array([comb(x + i, i + 1) for x in range(seeds + 1)],
                                     dtype=np.int64) for i in range(PITS - 1)]
        # bounds[i][b] = C(b, i + 1) for b = 0..top: the largest b with
        # bounds[i][b] <= r is found with searchsorted
        self.bounds = [np.array([comb(b, i + 1) for b in range(top + 1)], dtype=np.int64)
                       for i in range(PITS - 1)]
        self.count = comb(seeds + PITS - 1, PITS - 1)    # boards of this level

    def keys(self, pits: np.ndarray, players: np.ndarray) -> np.ndarray:
        prefix = pits[:, 0].astype(np.intp)
        rank = self.rank_tables[0][prefix]
        for i in range(1, PITS - 1):
            prefix += pits[:, i]
            rank += self.rank_tables[i][prefix]
        return rank * 2 + players

    def boards(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rank, players = keys >> 1, (keys & 1).astype(np.int8)
        pits = np.empty((len(keys), PITS), dtype=np.int8)
        above = np.full(len(keys), self.seeds, dtype=np.int64)
        for i in range(PITS - 2, -1, -1):
            bar = np.searchsorted(self.bounds[i], rank, side="right") - 1
            rank = rank - self.bounds[i][bar]
            prefix = bar - i
            pits[:, i + 1] = above - prefix
            above = prefix
        pits[:, 0] = above
        return pits, players


@dataclass
class Moves:
    """The moves of a block of positions of one level: for each of the six
    choices, a kind (ILLEGAL, INNER: to a position of the same level, LOWER:
    a capture to a lower level, END: the game ends), the successor (its level
    and key) and what the move itself is worth to the opener (South)."""

    kind: np.ndarray        # (6, n) int8
    level: np.ndarray       # (6, n) int16: the successor's seeds
    key: np.ndarray         # (6, n) int64
    gain: np.ndarray        # (6, n) int16: to the opener
    passed: np.ndarray      # (n,) bool: no legal move (slot 0 is the pass, or the end)


ILLEGAL, INNER, LOWER, END = range(4)


class Kernel:
    """Ba-awa's moves on arrays of positions, from the fast kernel's sowing."""

    def __init__(self, rules: BaAwaRules) -> None:
        from ..fast.ba_awa.many import BaAwaBatch
        game = rules.game()
        self.batch = BaAwaBatch(game)
        self.illegal_endless = rules.endless is Endless.ILLEGAL
        self.owners_keep = rules.no_move is NoMove.OWNERS
        self.numberings: dict[int, Numbering] = {}

    def numbering(self, seeds: int) -> Numbering:
        if seeds not in self.numberings:
            self.numberings[seeds] = Numbering(seeds)
        return self.numberings[seeds]

    def _sow(self, pits: np.ndarray, players: np.ndarray, choice: int):
        """Sow pit *choice* of each mover's row: (legal, after, won, took)."""
        n = len(pits)
        pit = players.astype(np.intp) * HALF + choice
        legal = pits[np.arange(n), pit] > 0
        after = pits.copy()
        won = np.zeros((n, 2), dtype=np.int16)
        took = np.zeros(n, dtype=bool)
        rows = np.flatnonzero(legal)
        if rows.size:
            a, w, t, endless, _ = self.batch.sow(pits[rows], pit[rows], players[rows])
            after[rows], won[rows], took[rows] = a, w, t
            if self.illegal_endless:
                legal[rows[endless]] = False
        return legal, after, won, took

    def can_move(self, pits: np.ndarray, players: np.ndarray) -> np.ndarray:
        able = np.zeros(len(pits), dtype=bool)
        for choice in range(HALF):
            todo = np.flatnonzero(~able)
            if not todo.size:
                break
            legal, _, _, _ = self._sow(pits[todo], players[todo], choice)
            able[todo[legal]] = True
        return able

    def moves(self, seeds: int, pits: np.ndarray, players: np.ndarray) -> Moves:
        n = len(pits)
        kind = np.zeros((HALF, n), dtype=np.int8)
        level = np.full((HALF, n), seeds, dtype=np.int16)
        key = np.zeros((HALF, n), dtype=np.int64)
        gain = np.zeros((HALF, n), dtype=np.int16)
        other = (1 - players).astype(np.int8)
        for choice in range(HALF):
            legal, after, won, took = self._sow(pits, players, choice)
            left = seeds - won.sum(axis=1)
            if (won % FOUR).any():       # the levels rest on it: checked, not assumed
                raise RuntimeError("a capture took a number of seeds that is not a multiple "
                                   "of four: the levels of this solver do not hold")
            g = won[:, 0] - won[:, 1]
            end = legal & (left <= EIGHT)           # ba-awa-eight: the opener takes them
            lower = legal & took & ~end
            inner = legal & ~took
            gain[choice] = np.where(end, g + left, np.where(lower, g, 0))
            kind[choice] = np.where(end, END, np.where(lower, LOWER, np.where(inner, INNER,
                                                                              ILLEGAL)))
            level[choice] = np.where(lower, left, seeds)
            k = np.zeros(n, dtype=np.int64)
            if inner.any():
                k[inner] = self.numbering(seeds).keys(after[inner], other[inner])
            for s in _unique(left[lower]).tolist():
                rows = lower & (left == s)
                k[rows] = self.numbering(int(s)).keys(after[rows], other[rows])
            key[choice] = k
        # ba-awa-no-move: no legal move
        stuck = np.flatnonzero((kind == ILLEGAL).all(axis=0))
        if stuck.size:
            board = pits[stuck]
            if self.owners_keep:                     # the game ends; owners keep theirs
                held = board.reshape(len(stuck), 2, HALF).sum(axis=2)
                kind[0, stuck], gain[0, stuck] = END, held[:, 0] - held[:, 1]
            else:                                    # passed over, if the other can move
                able = self.can_move(board, other[stuck])
                kind[0, stuck] = np.where(able, INNER, END)
                gain[0, stuck] = np.where(able, 0, seeds)    # (the opener takes them)
                if able.any():
                    key[0, stuck[able]] = self.numbering(seeds).keys(
                        board[able], other[stuck[able]])
        passed = np.zeros(n, dtype=bool)
        passed[stuck] = True
        return Moves(kind, level, key, gain, passed)


def _unique(values: np.ndarray) -> np.ndarray:
    """The distinct *values*, sorted: sorted, then repeats dropped (numpy 2.4's
    ``np.unique`` hashes, and took 98 s where sorting took 4 s, on 4 million
    keys of this solver's kind)."""
    ordered = np.sort(values)
    kept: np.ndarray = ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] \
        if len(ordered) else ordered
    return kept


def _member(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    at = np.searchsorted(sorted_keys, keys)
    at[at == len(sorted_keys)] = 0
    found: np.ndarray = sorted_keys[at] == keys if len(sorted_keys) else np.zeros(
        len(keys), dtype=bool)
    return found


@dataclass
class Level:
    """One level's positions and their moves, as enumeration found them:
    ``keys`` sorted; ``inner[c]``: the row of the successor of choice *c* in
    this level (``len(keys)``: no such move, or one leaving the level);
    ``end_w``: the best move that ends the game, to the mover (-127: none);
    ``lower``: per lower level, the captures into it: (rows, successor's key,
    then its row once that level is enumerated, what the capture is worth to
    the opener)."""

    seeds: int
    keys: np.ndarray
    inner: np.ndarray
    end_w: np.ndarray
    lower: dict[int, list[np.ndarray]] = field(default_factory=dict)
    seconds: float = 0.0        # enumerating it
    rounds: int = 0             # breadth-first rounds enumerating it


#: the kernel the worker processes of :func:`enumerate_levels` sow with (each
#: inherits it when forked)
_WORKER_KERNEL: list[Kernel] = []
#: positions a worker sows at a time
WORKER_CHUNK = 1 << 18

Expanded = tuple[np.ndarray, np.ndarray, np.ndarray,
                 dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]]


def expand(kernel: Kernel, seeds: int, block: np.ndarray) -> Expanded:
    """The moves of the positions *block* (keys of the level *seeds*), as
    enumeration keeps them: the block; each choice's successor in the level
    (its key, -1 if none); the best move ending the game, to the mover
    (-127: none); and per lower level, the captures into it (the position's
    key, the successor's key, the capture's worth to the opener)."""
    pits, players = kernel.numbering(seeds).boards(block)
    moves = kernel.moves(seeds, pits, players)
    side = np.where(players == 0, 1, -1).astype(np.int16)
    inner = moves.kind == INNER
    end_w = np.where(moves.kind == END, side * moves.gain, -127).max(axis=0)
    lowers = {}
    lower = moves.kind == LOWER
    for s in _unique(moves.level[lower].ravel()).tolist():
        choice, row = np.nonzero(lower & (moves.level == s))
        lowers[int(s)] = (block[row], moves.key[choice, row], moves.gain[choice, row])
    return block, np.where(inner, moves.key, -1), end_w.astype(np.int16), lowers


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


def _expand_in_worker(job: tuple[int, np.ndarray]) -> Expanded:
    return expand(_WORKER_KERNEL[0], *job)


def _expanded(pool: Any, kernel: Kernel, seeds: int, frontier: np.ndarray):
    """:func:`expand` of every block of *frontier*, in this process or the *pool*'s."""
    if pool is None or len(frontier) < 2 * WORKER_CHUNK:
        for lo in range(0, len(frontier), CHUNK):
            yield expand(kernel, seeds, frontier[lo:lo + CHUNK])
        return
    jobs = [(seeds, frontier[lo:lo + WORKER_CHUNK])
            for lo in range(0, len(frontier), WORKER_CHUNK)]
    yield from pool.imap(_expand_in_worker, jobs)


def enumerate_levels(kernel: Kernel, start_pits: tuple[int, ...], start_player: int,
                     report: Progress, workers: int = 1) -> dict[int, Level]:
    """Every position reachable from the start, level by level, top down,
    breadth-first within a level, with its moves (:class:`Level`); the
    sowing shared among *workers* processes (forked: where ``fork`` is not
    available, or with one worker, all here). With workers, Ctrl-C can leave
    :meth:`multiprocessing.pool.Pool.terminate` waiting on a worker blocked
    writing its result (seen in about one try in four): the command line
    sows in one process; the benchmark, which nobody interrupts, in two."""
    import multiprocessing
    pool = None
    if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
        import signal
        _WORKER_KERNEL[:] = [kernel]
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
        return _enumerate_levels(kernel, start_pits, start_player, report, pool)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        _WORKER_KERNEL.clear()


def _enumerate_levels(kernel: Kernel, start_pits: tuple[int, ...], start_player: int,
                      report: Progress, pool: Any) -> dict[int, Level]:
    seeds0 = sum(start_pits)
    first = kernel.numbering(seeds0).keys(np.array([start_pits], dtype=np.int8),
                                          np.array([start_player], dtype=np.int8))
    levels: dict[int, Level] = {}
    found = 0
    for seeds in range(seeds0, EIGHT, -FOUR):
        clock = time.perf_counter()
        # the level's first positions: the start's, and those the captures from
        # the levels above lead to (their keys, kept with the captures)
        entries = [first] if seeds == seeds0 else [
            above.lower[seeds][1] for above in levels.values() if seeds in above.lower]
        frontier = _unique(np.concatenate(entries)) if entries else first[:0]
        visited = frontier
        blocks: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        captures: dict[int, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
        rounds = 0
        while frontier.size:
            fresh = []
            rounds += 1
            for block, succ, best, lowers in _expanded(pool, kernel, seeds, frontier):
                fresh.append(succ[succ >= 0])
                blocks.append((block, succ, best))
                for s, (rows, keys, gains) in lowers.items():
                    captures.setdefault(s, []).append((rows, keys, gains))
                report(f"enumerating {seeds} seeds", found + len(visited), None)
            new = _unique(np.concatenate(fresh))
            frontier = new[~_member(visited, new)]
            visited = np.sort(np.concatenate((visited, frontier)), kind="stable")
        n = len(visited)
        inner_rows = np.full((HALF, n), n, dtype=np.int32)
        end_w = np.full(n, -127, dtype=np.int16)
        for block, succ, best in blocks:
            rows = np.searchsorted(visited, block)
            going = succ >= 0
            inner_rows[:, rows] = np.where(going, np.searchsorted(visited, succ), n)
            end_w[rows] = best
        del blocks
        level = Level(seeds, visited, inner_rows, end_w)
        for s, edges in captures.items():
            level.lower[s] = [np.searchsorted(visited, np.concatenate([e[0] for e in edges]))
                              .astype(np.int32),
                              np.concatenate([e[1] for e in edges]),
                              np.concatenate([e[2] for e in edges]).astype(np.int8)]
        del captures
        # the captures into this level from above: their successors' rows
        for above in levels.values():
            if seeds in above.lower:
                edge = above.lower[seeds]
                edge[1] = np.searchsorted(visited, edge[1]).astype(np.int32)
        levels[seeds] = level
        found += n
        level.seconds = time.perf_counter() - clock
        level.rounds = rounds
    report("enumerated", found, found)
    return levels


def solve_level(level: Level, lower_values: Sequence[dict[int, np.ndarray]],
                endless_play: Sequence[str] = ("opener",)) -> list[tuple[np.ndarray, int]]:
    """The values of one level's positions, from the opener's side, for each
    of *endless_play* (what play that never leaves the level is worth: see
    :func:`solve`), with the lower levels' values of each (*lower_values*:
    seeds -> the opener's values, by row). Returns, for each, the values and
    the rounds of value iteration."""
    keys, seeds = level.keys, level.seeds
    n = len(keys)
    opener = (keys & 1) == 0                         # South, the opener, to move
    sign = np.where(opener, 1, -1).astype(np.int16)
    # The mover's side: w = u with South to move, -u with North. exit_w: the best
    # move leaving the level, to the mover; at[c]: where the successor's value,
    # turned to the mover's side, is read in ext = (u, -u, no move).
    at = level.inner
    np.add(at, n, out=at, where=(~opener)[None, :] & (at < n))  # North: read -u
    at[at == n] = 2 * n                                          # no move: -127
    # the predecessors of each position, for the rounds after the first
    edges = at < 2 * n
    target = at[edges] % n
    source = np.broadcast_to(np.arange(n, dtype=np.int32), at.shape)[edges]
    del edges
    order = np.argsort(target, kind="stable")
    pred = source[order]
    del order, source
    start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(target, minlength=n), out=start[1:])
    del target
    results = []
    for lower, play in zip(lower_values, endless_play):
        exit_w = level.end_w.copy()
        for s, (rows, succ, gain) in level.lower.items():
            value = sign[rows] * (gain.astype(np.int16) + lower[s][succ])
            np.maximum.at(exit_w, rows, value)
        top = seeds if play == "opener" else 0       # the opener takes all S, or 0
        results.append(_iterate(at, pred, start, exit_w, sign, top))
    return results


def _iterate(at, pred, start, exit_w, sign, top: int) -> tuple[np.ndarray, int]:
    """Value iteration from *top* (see :func:`solve_level`): each round
    re-evaluates the predecessors of the positions that changed in the round
    before, until a round changes nothing."""
    n = len(exit_w)
    ext = np.empty(2 * n + 1, dtype=np.int16)        # (u, -u, no move)
    ext[:n], ext[n:2 * n], ext[2 * n] = top, -top, -127
    rows = np.arange(n)
    rounds = 0
    mark = np.zeros(n, dtype=bool)
    while rows.size:
        rounds += 1
        new = exit_w[rows]
        for c in range(HALF):
            np.maximum(new, ext[at[c, rows]], out=new)
        new *= sign[rows]                            # to the opener's side
        differs = new != ext[rows]
        changed = rows[differs]
        fresh = new[differs]
        ext[changed], ext[changed + n] = fresh, -fresh
        if not changed.size:
            break
        first = start[changed]
        lengths = start[changed + 1] - first
        total = int(lengths.sum())
        if not total:
            break
        offsets = np.repeat(first - np.cumsum(lengths) + lengths, lengths)
        found = pred[np.arange(total) + offsets]
        if 16 * total > n:             # many: marked in a table, read in order
            mark[found] = True
            rows = np.flatnonzero(mark)
            mark[rows] = False
        else:                          # few: sorted, repeats dropped
            rows = _unique(found)
    return ext[:n].astype(np.int8), rounds


@dataclass
class BaAwaSolution:
    """The values of every position reachable from :attr:`start`, from the
    point of view of the player to move there (South opens)."""

    rules: BaAwaRules
    start: tuple[tuple[int, ...], int]
    levels: dict[int, np.ndarray]        # seeds -> sorted position numbers
    values: dict[int, np.ndarray]        # seeds -> int8, the opener's (South's) side
    seconds: dict[str, float] = field(default_factory=dict)
    rounds: dict[int, int] = field(default_factory=dict)
    level_seconds: dict[int, float] = field(default_factory=dict)
    #: the values solved beside them (``solve(also=...)``), by level
    also: dict[int, np.ndarray] = field(default_factory=dict)
    #: seconds enumerating each level (``level_seconds``: solving it)
    enumerate_seconds: dict[int, float] = field(default_factory=dict)
    #: breadth-first rounds enumerating each level
    enumerate_rounds: dict[int, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return sum(len(k) for k in self.levels.values())

    def _kernel(self) -> Kernel:
        if not hasattr(self, "_kernel_cache"):
            self._kernel_cache = Kernel(self.rules)
        return self._kernel_cache

    def _row(self, pits: Sequence[int], to_move: int) -> tuple[int, int]:
        pits, to_move = _checked(pits, to_move)
        seeds = sum(pits)
        keys = self.levels.get(seeds)
        if keys is not None:
            key = int(self._kernel().numbering(seeds).keys(
                np.array([pits], dtype=np.int8), np.array([to_move], dtype=np.int8))[0])
            row = int(np.searchsorted(keys, key))
            if row < len(keys) and keys[row] == key:
                return seeds, row
        raise UnreachedPositionError(f"{tuple(pits)} with player {to_move} to move is not "
                                     "reachable from the start", pits, to_move)

    def value(self, pits: Sequence[int], to_move: int) -> int:
        """The margin the player to move can force from this position (its
        history cleared, as just after a capture)."""
        seeds, row = self._row(pits, to_move)
        u = int(self.values[seeds][row])
        return u if to_move == 0 else -u

    def move_values(self, pits: Sequence[int], to_move: int) -> dict[int, int]:
        """{pit: the margin the player to move can force by playing it} for each
        legal move (pits numbered as in the engine); a player with no legal
        move has none."""
        seeds, _ = self._row(pits, to_move)
        kernel = self._kernel()
        moves = kernel.moves(seeds, np.array([pits], dtype=np.int8),
                             np.array([to_move], dtype=np.int8))
        result: dict[int, int] = {}
        if moves.passed[0]:
            return result
        for c in range(HALF):
            kind = int(moves.kind[c, 0])
            if kind == ILLEGAL:
                continue
            u = int(moves.gain[c, 0])
            if kind in (INNER, LOWER):
                level = int(moves.level[c, 0])
                keys = self.levels[level]
                u += int(self.values[level][np.searchsorted(keys, moves.key[c, 0])])
            result[to_move * HALF + c] = u if to_move == 0 else -u
        return result

    def counts(self) -> dict[int, int]:
        """Positions per level (seeds on the board), most seeds first."""
        return {s: len(k) for s, k in sorted(self.levels.items(), reverse=True)}


def _checked(pits: object, to_move: object) -> tuple[tuple[int, ...], int]:
    shape = f"a position is {PITS} pit counts (whole numbers, at least 0) and player 0 or 1"
    if (isinstance(pits, (str, bytes)) or not isinstance(pits, Sequence) or len(pits) != PITS
            or any(type(x) is not int or x < 0 for x in pits) or sum(pits) > 48):
        raise InvalidPositionError(shape, field="pits")
    if type(to_move) is not int or to_move not in (0, 1):
        raise InvalidPositionError(shape, field="to_move")
    return tuple(pits), to_move


#: positions per level (seeds on the board) reached from the opening under the
#: default rules, as measured by the full solve (benchmarks/bench_solve_ba_awa.py);
#: :func:`expected_bytes` estimates a solve's memory from them before it starts
MEASURED: dict[int, int] = {}
#: a level of at most this many boards is counted whole by expected_counts
SMALL_LEVEL = 3_000_000


def expected_counts(seeds: int) -> dict[int, int]:
    """The positions per level expected from a start with *seeds* seeds, for
    the levels where a number is known: those measured from the opening
    (:data:`MEASURED`, at most every board of the level), and the small levels
    (every board, when that is at most :data:`SMALL_LEVEL`: an overestimate).
    Levels of neither kind are left out (nothing is known of them before
    they are enumerated; :func:`solve` checks again then)."""
    counts = {}
    for s in range(seeds, EIGHT, -FOUR):
        boards = 2 * comb(s + PITS - 1, PITS - 1)
        if s in MEASURED:
            counts[s] = min(boards, MEASURED[s])
        elif boards <= SMALL_LEVEL:
            counts[s] = boards
    return counts


def expected_bytes(seeds: int) -> int:
    """The memory a solve from *seeds* seeds is expected to need (an estimate:
    :func:`estimate_bytes` of :func:`expected_counts`)."""
    return estimate_bytes(expected_counts(seeds))


def estimate_bytes(counts: dict[int, int]) -> int:
    """The peak memory of solving levels of these sizes (an estimate, from the
    arrays each level's solve holds: see :data:`BYTES_PER_POSITION`)."""
    total = sum(counts.values())
    return BYTES_KEPT * total + BYTES_PER_POSITION * max(counts.values(), default=0)


def solve(rules: BaAwaRules | None = None, start: Any = None,
          progress: Progress | None = None, *,
          memory: int | None = None, endless_play: str = "opener",
          also: str | None = None, workers: int = 1) -> BaAwaSolution:
    """Solve every position reachable from *start* (``(pits, to_move)``; by
    default the opening, South to move; South is the opener) under *rules*
    (by default :class:`BaAwaRules()`). *memory*: the bytes the solve may use;
    if the levels found need more (:func:`estimate_bytes`), a ``MemoryError``
    is raised before they are solved.

    *endless_play*: what play that never leaves a level is worth: ``"opener"``,
    the engine's repetition rule (the opener takes what remains: these are the
    engine's values), or ``"nothing"`` (value iteration from 0: endless play
    scores nothing, as in the Bakuk solver; not the engine's game, for
    measuring what the repetition rule does). *also*: another of these, solved
    beside it in the same run (its values in :attr:`BaAwaSolution.also`).
    *workers*: processes sowing the positions while they are enumerated."""
    if endless_play not in ("opener", "nothing") or also not in (None, "opener", "nothing"):
        raise OptionError(f'endless_play must be "opener" or "nothing", not {shown(endless_play)}',
                          option="endless_play", value=endless_play)
    rules = BaAwaRules() if rules is None else rules
    if not isinstance(rules, BaAwaRules):
        raise OptionError(f"rules is not {shown(rules)}", option="rules", value=rules)
    if start is None:
        start = ((FOUR,) * PITS, 0)
    if (isinstance(start, (str, bytes)) or not isinstance(start, Sequence)
            or len(start) != 2):
        raise InvalidPositionError("start must be (12 pit counts, player 0 or 1)", field="pits")
    pits0, player0 = _checked(*start)
    if sum(pits0) % FOUR or sum(pits0) <= EIGHT:
        raise InvalidPositionError(
            f"start has {sum(pits0)} seeds on the board: play only reaches multiples of four "
            "(every capture takes four), and with eight or fewer the game is over",
            field="pits")
    if memory is not None and expected_bytes(sum(pits0)) > memory:
        raise MemoryError(f"solving from {sum(pits0)} seeds is expected to need about "
                          f"{expected_bytes(sum(pits0)) / 2**30:.1f} GiB, more than the "
                          f"{memory / 2**30:.1f} GiB allowed")
    report = progress or (lambda phase, done, todo: None)
    kernel = Kernel(rules)
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    graph = enumerate_levels(kernel, pits0, player0, report, workers)
    seconds["enumerate"] = time.perf_counter() - clock
    counts = {s: len(level.keys) for s, level in graph.items()}
    if memory is not None and estimate_bytes(counts) > memory:
        raise MemoryError(f"solving {sum(counts.values()):,} positions needs about "
                          f"{estimate_bytes(counts) / 2**30:.1f} GiB, more than the "
                          f"{memory / 2**30:.1f} GiB allowed")
    clock = time.perf_counter()
    values: dict[int, np.ndarray] = {}
    other: dict[int, np.ndarray] = {}
    rounds: dict[int, int] = {}
    level_seconds: dict[int, float] = {}
    enumerate_seconds = {seeds: level.seconds for seeds, level in graph.items()}
    enumerate_rounds = {seeds: level.rounds for seeds, level in graph.items()}
    levels: dict[int, np.ndarray] = {}
    done = 0
    for seeds in sorted(graph):
        tick = time.perf_counter()
        level = graph.pop(seeds)
        solved = solve_level(level, [values, other], [endless_play, also or ""][:1 + bool(also)])
        values[seeds], rounds[seeds] = solved[0]
        if also:
            other[seeds] = solved[1][0]
        levels[seeds] = level.keys
        del level
        level_seconds[seeds] = time.perf_counter() - tick
        done += counts[seeds]
        report("solving", done, sum(counts.values()))
    seconds["solve"] = time.perf_counter() - clock
    return BaAwaSolution(rules, (pits0, player0), levels, values, seconds, rounds,
                         level_seconds, other, enumerate_seconds, enumerate_rounds)

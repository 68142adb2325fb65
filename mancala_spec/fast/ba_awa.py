"""Ba-awa in the kernel (the rules: :class:`mancala_spec.engine.games.ba_awa.BaAwa`).

One game at a time, :class:`FastBaAwa` (standard library only); many at once,
:class:`BaAwaBatch` (numpy, imported when first used), from the same tables.
:func:`sow`, the one-game sowing, also sows the many-games sowing's rare long
sowings. Each step is commented with the catalogue rule it implements.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import add
from typing import TYPE_CHECKING, Any

from .base import Counts, Ending, FastGame, History, Key, Moves, State, checked_state, sow_arguments
from .tables import EIGHT, FOUR, NextTable, PathTable, Pits, lap_arrays, lap_paths, sowing_next

if TYPE_CHECKING:
    import numpy as np

    from ..engine.games.base import Game
    from .batch import Run

    Array = np.ndarray[Any, Any]

#: how a Ba-awa game ends: eight seeds or fewer, nobody able to move, a repetition
EIGHT_SEEDS = Ending("eight-seeds", "ba-awa-eight")
NO_MOVE = Ending("no-moves", "ba-awa-no-move")
REPETITION = Ending("repetition", "ba-awa-repetition")
ENDINGS = (EIGHT_SEEDS, NO_MOVE, REPETITION)

#: what :func:`sow` returns: the pits after, seeds won by each player, any
#: capture?, the laps sown, endless?
Sowing = tuple[Pits, Counts, bool, int, bool]
Sown = tuple[Pits, Counts, bool]   # the pits after, seeds won by each player, any capture?

#: positions whose sowings a :class:`FastBaAwa` remembers (then it forgets them
#: all, as :meth:`~FastBaAwa.forget` does): about 1 KB each, 20 MB in all
CACHE = 20_000
#: the seeds in a pit that make a lap ending there end the move: none (it
#: ends in an empty pit, ba-awa-sowing-end) or three (it makes four, ba-awa-mover-four)
ENDS_MOVE = (0, FOUR - 1)
#: laps :func:`sow` runs before it starts keeping the boards seen
QUICK_LAPS = 12
#: the most seeds a pit :func:`sow` takes on average (its lap tables grow with
#: the square of the seeds: 16 a pit on Ba-awa's board is about 7 MB)
MOST_SEEDS = 16


def sow(pits: Pits, pit: int, mover: int, step: NextTable, owners: Sequence[int],
        players: int = 2) -> Sowing:
    """Sow *pit* of *pits* lap after lap, for *mover*, with the sowing order
    *step* (:func:`~mancala_spec.fast.tables.sowing_next`) and the pit *owners*.

    When a lap would start again from a board and pit already seen in this move
    the sowing repeats forever (``ba-awa-endless``): it stops there, and the
    result says so (``endless``); the board is then the one it stopped on, as
    with ``endless="stop"``. *laps* counts the laps sown, the last included.
    A sowing that ends never repeated a lap, so it is first run for up to
    :data:`QUICK_LAPS` laps keeping no boards; only a longer one is sown again,
    keeping them.

    >>> from mancala_spec.fast.tables import sowing_next
    >>> step, owners = sowing_next(12, False), (0,) * 6 + (1,) * 6
    >>> sow((4,) * 12, 0, 0, step, owners)[2:]   # the opening move from a: five laps
    (False, 5, False)
    >>> sow((0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1), 10, 1, step, owners)[3:]
    (72, True)
    """
    # (checked, with at most MOST_SEEDS a pit: a lap carries at most every seed)
    pits, pit, mover = sow_arguments(pits, pit, mover, step, owners, players, MOST_SEEDS)
    most = max(sum(pits), FOUR * len(step))   # a game's board: four a pit (ba-awa-setup)
    return sow_along(pits, pit, mover, _paths(step, most), owners, players)


@lru_cache(maxsize=8)
def _paths(step: NextTable, most: int) -> PathTable:
    """:func:`~mancala_spec.fast.tables.lap_paths`, remembered (tables of the
    board, which :meth:`FastGame.forget` leaves): at most 8, one a sowing order."""
    return lap_paths(step, most)


def sow_along(pits: Pits, pit: int, mover: int, paths: PathTable, owners: Sequence[int],
              players: int = 2) -> Sowing:
    """:func:`sow`, with the table of lap paths
    (:func:`~mancala_spec.fast.tables.lap_paths`, for up to ``sum(pits)``
    seeds) rather than the sowing order."""
    sowing = _sow(pits, pit, mover, paths, owners, players, quick=True)
    if sowing is None:
        sowing = _sow(pits, pit, mover, paths, owners, players, quick=False)
        assert sowing is not None      # keeping the boards, it always stops
    return sowing


def _sow(pits: Pits, pit: int, mover: int, paths: PathTable, owners: Sequence[int],
         players: int, quick: bool) -> Sowing | None:
    """:func:`sow_along`, keeping the boards seen; or (*quick*) keeping none
    and giving up (``None``) after :data:`QUICK_LAPS` laps."""
    board = list(pits)
    won = [0] * players
    took = False
    # ba-awa-endless: each board and pit a lap starts from; a lap that would
    # start again from one of them repeats forever.
    seen = None if quick else {(pits, pit)}
    origin = pit
    seeds = board[pit]                 # ba-awa-sow: lift every seed of the pit
    board[pit] = 0
    laps = 1
    while True:
        # ba-awa-sow: one seed into each following pit (ba-awa-origin: skip_origin
        # passes over the origin), along the lap's path
        middle, last = paths[origin][seeds]
        for p in middle:
            count = board[p] + 1
            if count == FOUR:          # ba-awa-owner-four: not the last seed: the
                board[p] = 0           # pit's owner takes the four at once
                won[owners[p]] += FOUR
                took = True
            else:
                board[p] = count
        p = last                       # the lap's last seed
        count = board[p] + 1
        board[p] = count
        if count == FOUR:              # ba-awa-mover-four: the mover takes them; the move ends
            board[p] = 0
            won[mover] += FOUR
            return tuple(board), tuple(won), True, laps, False
        if count == 1:                 # ba-awa-sowing-end: an empty pit ends the move
            return tuple(board), tuple(won), took, laps, False
        if seen is None:
            if laps == QUICK_LAPS:     # a long sowing: sow it again, keeping the boards
                return None
        else:
            lap = (tuple(board), p)
            if lap in seen:            # ba-awa-endless: it would repeat forever
                return lap[0], tuple(won), took, laps, True
            seen.add(lap)
        origin = p                     # ba-awa-relay: lift them all, last seed too,
        seeds = count                  # and sow a new lap from the next pit
        board[p] = 0
        laps += 1


def _second_ends(pits: Pits, pit: int, seeds: int, last: int, size: int) -> bool:
    """Whether a second short lap, after a first of *seeds* from *pit*, ends the
    move in *last*: what *last* held then is in :data:`ENDS_MOVE`."""
    held = pits[last]
    if last == pit:                      # the first lap's origin, emptied
        held = 0
    elif (last - pit) % size < seeds:    # sown in the first lap (a four taken)
        held = 0 if held == FOUR - 1 else held + 1
    return held in ENDS_MOVE


#: what :func:`no_move` decides when the player next in turn has no legal
#: move and nobody else moves: each owner takes their pits' seeds
#: (``no_move="owners"``), or, when nobody can move, the opener takes them
OWNERS_KEEP, OPENER_TAKES = "owners keep", "opener takes"


def no_move(turns: Sequence[int], able: Callable[[int], bool],
            owners_take: bool) -> int | str:
    """ba-awa-turns, ba-awa-no-move: who moves after a move, *turns* being the
    players in turn order (the next first, the mover last) and ``able(player)``
    whether that player has a legal move: the next player if able; if not,
    with ``no_move="owners"`` nobody (:data:`OWNERS_KEEP`: the game ends), with
    ``no_move="pass"`` the next able player in turn, and if nobody is able,
    nobody (:data:`OPENER_TAKES`). The one place the rule is decided: the
    one-game steps ask it when the next player cannot move, the many-games
    steps tabulate it (:attr:`BaAwaBatch.decide`).

    >>> no_move((1, 0), {1: False, 0: True}.__getitem__, owners_take=False)
    0
    >>> no_move((1, 0), {1: False, 0: True}.__getitem__, owners_take=True)
    'owners keep'
    """
    for player in turns:
        if able(player):
            return player
        if owners_take:
            return OWNERS_KEEP
    return OPENER_TAKES


class FastBaAwa(FastGame):
    """Ba-awa (the rules: :class:`mancala_spec.engine.games.ba_awa.BaAwa`)."""

    game_name = "ba-awa"

    def __init__(self, game: Game, opener: int = 0,
                 owners: Sequence[int] | None = None) -> None:
        super().__init__(game, opener, owners)
        self.endless_illegal = game.options["endless"] == "illegal"
        self.owners_take = game.options["no_move"] == "owners"
        #: ``paths[origin][seeds]``: the pits a lap sows (ba-awa-sow, ba-awa-origin)
        self.paths: PathTable = lap_paths(self.sow_next, game.total_seeds)
        # ba-awa-choose: the pits each player chooses from: those they own
        # (choose="owned"), or those of their row, whoever owns them (choose="row")
        if game.options["choose"] == "row":
            half = self.size // 2
            self.choice: tuple[tuple[int, ...], ...] = (tuple(range(half)),
                                                        tuple(range(half, self.size)))
        else:
            self.choice = self.owned
        # The legal moves and sowings (see moves) of the last (pits, player) asked
        # about (a move asks for the next player's, playing one asks again), and
        # of every (pits, player) met, up to CACHE: games pass the same positions
        self._memo_key: Key = ((), -1)
        self._memo: dict[int, Sown | None] = {}
        self._cache: dict[Key, dict[int, Sown | None]] = {}

    def forget(self) -> None:
        self._memo_key, self._memo = ((), -1), {}
        self._cache.clear()

    def derive_moves(self, pits: Pits, to_move: int, history: History) -> Moves:
        if not any(pits):     # every ending clears the board; the first: ba-awa-eight
            return EIGHT_SEEDS
        return tuple(self.moves(pits, to_move))

    def sowings(self, pits: Pits, player: int) -> dict[int, Sown]:
        """*player*'s legal moves on *pits*, each with its sowing, in pit order."""
        moves = self.moves(pits, player)
        for pit, sown in moves.items():
            if sown is None:
                moves[pit] = sow_along(pits, pit, player, self.paths, self.owners,
                                       self.players)[:3]
        return moves  # type: ignore[return-value]

    def moves(self, pits: Pits, player: int) -> dict[int, Sown | None]:
        """*player*'s legal moves on *pits*, in pit order, each with its sowing,
        or ``None`` for one not sown yet (:meth:`play` sows it): legal whether it
        ends or not (``endless="stop"``), or known to end within two laps of
        fewer seeds than pits (each lap's last seed in a pit of :data:`ENDS_MOVE`).
        Remembered (see ``__init__``) until :meth:`forget`; do not change it."""
        memo_pits, memo_player = self._memo_key
        if player != memo_player or (pits is not memo_pits and pits != memo_pits):
            key = (pits, player)
            memo = self._cache.get(key)
            if memo is None:
                # ba-awa-choose: any pit the player chooses from that holds seeds ...
                # ba-awa-endless: ... unless (endless="illegal") its sowing never ends
                memo = {}
                paths, owners, players, illegal, size = (
                    self.paths, self.owners, self.players, self.endless_illegal, self.size)
                for pit in self.choice[player]:
                    seeds = pits[pit]
                    if not seeds:
                        continue
                    if not illegal:
                        memo[pit] = None
                        continue
                    if seeds < size:   # a short lap: one seed in each pit after *pit*
                        last = paths[pit][seeds][1]
                        held = pits[last]            # what its last pit held
                        if held in ENDS_MOVE or (held + 1 < size and _second_ends(
                                pits, pit, seeds, paths[last][held + 1][1], size)):
                            memo[pit] = None         # it ends with this lap or the next
                            continue
                    # (sow_along, its quick first try spelt out: a call less)
                    after, won, took, _, endless = (
                        _sow(pits, pit, player, paths, owners, players, quick=True)
                        or sow_along(pits, pit, player, paths, owners, players))
                    if not (endless and illegal):
                        memo[pit] = (after, won, took)
                if len(self._cache) >= CACHE:
                    self._cache.clear()
                self._cache[key] = memo
            self._memo, self._memo_key = memo, key
        return self._memo

    def play(self, state: State, pit: int) -> State:
        try:                          # (costs nothing unless it fails)
            pits, mover, captured, history, moves = state
            playable = pit in moves and pit.__class__ is int   # not 0.0, True, 0j
        except (TypeError, ValueError):
            raise self.illegal(checked_state(state), pit) from None
        if not playable:
            raise self.illegal(checked_state(state), pit)
        memo_pits, memo_player = self._memo_key      # (moves(pits, mover), remembered)
        legal = (self._memo if memo_pits is pits and memo_player == mover
                 else self.moves(pits, mover))
        sown = legal[pit]
        if sown is None:
            after, won, took, _, _ = (
                _sow(pits, pit, mover, self.paths, self.owners, self.players, quick=True)
                or sow_along(pits, pit, mover, self.paths, self.owners, self.players))
            sown = legal[pit] = (after, won, took)
        after, won, took = sown
        if took:
            captured = tuple(map(add, captured, won))
        # ba-awa-repetition: the positions seen since the last capture
        history = () if took else history + ((pits, mover),)
        turns = self.turns[mover]
        # ba-awa-eight, ba-awa-eight-timing: after a complete move, eight seeds or
        # fewer on the board go to the opener, and the game is over.
        if sum(after) <= EIGHT:
            return self._finish(after, turns[0], captured, None, EIGHT_SEEDS)
        # ba-awa-turns, ba-awa-three-turns: the next player moves, if they can
        # (ba-awa-no-move: if not, no_move decides who does, if anybody)
        to_move = turns[0]
        following = self.moves(after, to_move)
        if not following:
            decided = no_move(turns, lambda player: bool(self.moves(after, player)),
                              self.owners_take)
            if decided == OWNERS_KEEP:
                return self._finish(after, to_move, captured, self.owners, NO_MOVE)
            if decided == OPENER_TAKES:
                return self._finish(after, to_move, captured, None, NO_MOVE)
            to_move = int(decided)
            following = self.moves(after, to_move)
        # ba-awa-repetition: a whole position seen before: the opener takes what remains
        if (after, to_move) in history:
            return self._finish(after, turns[0], captured, None, REPETITION)
        return (after, to_move, captured, history, tuple(following))

    def _finish(self, pits: Pits, to_move: int, captured: Counts,
                owners: Sequence[int] | None, ending: Ending) -> State:
        """The game is over, for *ending*: each pit's seeds go to its owner in
        *owners*, or (``None``) to the opener."""
        taken = list(captured)
        if owners is None:
            taken[self.opener] += sum(pits)
        else:
            for p, seeds in enumerate(pits):
                taken[owners[p]] += seeds
        return ((0,) * self.size, to_move, tuple(taken), (), ending)

    @staticmethod
    def many(game: Game) -> BaAwaBatch:
        """The many-games steps of *game* (numpy needed)."""
        return BaAwaBatch(game)


# -- many games at once (numpy) ------------------------------------------------------

#: laps a sowing is followed with arrays before :func:`sow` takes it over
BATCH_LAPS = 24
#: what :func:`no_move` decided, as numbers (see :attr:`BaAwaBatch.decide`)
NEXT, MOVER, OWNERS, OPENER = range(4)


class BaAwaBatch:
    """Ba-awa's steps on many positions at once: numpy arrays, one row a
    position or game (two players, each row owned by its player, so both
    readings of ``choose`` choose the same pits), from the same tables.

    A pit holding fewer than four that receives *k* more in a lap (not the
    lap's last) ends with ``(seeds + k) % 4`` and gives its owner four for each
    ``(seeds + k) // 4`` (``ba-awa-owner-four``); one holding four or more
    never makes four again. So a lap is applied whole; a sowing still relaying
    after :data:`BATCH_LAPS` laps is handed to :func:`sow`, which alone decides
    whether it is endless: exact, however long the sowing.
    """

    endings = ENDINGS

    def __init__(self, game: Game, most: int | None = None) -> None:
        import numpy as np
        size = game.board.size
        skip = bool(game.options["skip_origin"])
        most = game.total_seeds if most is None else most   # the most seeds a lap may carry
        self.size, self.half = size, size // 2
        self.step_table = sowing_next(size, skip)
        change, self.lap_last = lap_arrays(size, skip, most)
        # drops[origin, seeds]: the seeds each pit receives in the lap
        self.drops = change + np.eye(size, dtype=np.int16)[:, None, :] * \
            np.arange(most + 1, dtype=np.int16)[None, :, None]
        # the pits' seeds fit in one byte when no lap carries more than 127
        self.dtype = np.int8 if most <= 127 else np.int16
        # passing[origin, seeds]: the seeds each pit receives in the lap but the last
        self.passing = (self.drops - np.eye(size, dtype=np.int16)[self.lap_last]
                        ).astype(self.dtype)
        self.row_start = np.arange(0, 0, size)     # row * size, grown as needed
        # (the same two tables indexed by origin * stride + seeds)
        self.stride = most + 1
        self.lap_last_flat = self.lap_last.reshape(-1)
        self.passing_flat = self.passing.reshape(size * (most + 1), size)
        self.endless_illegal = game.options["endless"] == "illegal"
        self.owners_take = game.options["no_move"] == "owners"
        #: ``decide[mover_able]``: what :func:`no_move` decides when the player
        #: next in turn has no legal move, by whether the mover has one: NEXT
        #: never, MOVER (moves again), OWNERS (keep their seeds) or OPENER (takes them)
        codes = {1: MOVER, OWNERS_KEEP: OWNERS, OPENER_TAKES: OPENER}
        self.decide = np.array([codes[no_move((0, 1), (False, mover_able).__getitem__,
                                              self.owners_take)]
                                for mover_able in (False, True)], dtype=np.int8)
        self.owners = game.board.row_owners
        # the player each pit's fours go to, as a matrix: caps @ owner = fours won
        self.owner = np.zeros((size, 2), dtype=np.int16)
        self.owner[np.arange(size), self.owners] = FOUR

    def sow(self, pits: Array, pit: Array, mover: Array, captures: bool = True
            ) -> tuple[Array, Array, Array, Array, Array]:
        """Sow *pit* of each board in *pits* for *mover*, lap after lap, a lap at
        a time (ba-awa-sow, -owner-four, -mover-four, -sowing-end, -relay).
        Returns the boards after, the seeds won (rows, 2), whether anything was
        captured, whether the sowing is endless (``ba-awa-endless``; the board
        is then the one it stopped on) and the laps sown, as :func:`sow` does;
        with ``captures=False`` the seeds won are not counted (all zero, and
        nothing captured): where the seeds go is the same, only faster.

        The boards still sowing are kept packed together, and each leaves the
        loop (its results written) in the lap its sowing ends."""
        import numpy as np
        count, size, half = len(pits), self.size, self.half
        if len(self.row_start) < count:
            self.row_start = np.arange(count) * size
        board = np.empty_like(pits)                    # each board once its sowing ends
        laps = np.ones(count, dtype=np.int32)
        endless = np.zeros(count, dtype=bool)
        mover_four = np.zeros(count, dtype=bool)       # ba-awa-mover-four ended it
        caught = np.zeros((count, size), dtype=self.dtype) if captures else None
        rows = np.arange(count)                        # the boards still sowing
        cur: Array = pits.astype(self.dtype)           # ... their pits (a copy)
        origin = pit.astype(np.intp)
        at = rows * size + origin
        seeds = cur.reshape(-1)[at].astype(np.intp)    # ba-awa-sow: lift every seed
        cur.reshape(-1)[at] = 0
        fours = np.zeros_like(cur) if captures else None   # fours taken, by pit
        stride, lap_last, passing = self.stride, self.lap_last_flat, self.passing_flat
        for _ in range(BATCH_LAPS):
            lap = origin * stride + seeds              # the lap: its origin and seeds
            last = lap_last.take(lap)
            total = cur + passing.take(lap, axis=0)    # every seed but the lap's last:
            made = (total >> 2) * (cur < FOUR)         # ba-awa-owner-four (a pit of four
            cur = total - (made << 2)                  # or more never makes four)
            if fours is not None:
                fours += made
            at = self.row_start[:len(rows)] + last
            flat = cur.reshape(-1)
            landed = flat[at] + 1                      # the lap's last seed: an empty pit
            flat[at] = landed == 1                     # keeps it, else the pit is emptied:
            four = landed == FOUR                      # ba-awa-mover-four, or ba-awa-relay
            relay = ~four & (landed != 1)              # (ba-awa-sowing-end)
            if not relay.all():
                ended = ~relay
                done = rows[ended]
                board[done] = cur[ended]
                mover_four[done] = four[ended]
                if caught is not None and fours is not None:
                    caught[done] = fours[ended]
                rows, cur, last, landed = rows[relay], cur[relay], last[relay], landed[relay]
                if fours is not None:
                    fours = fours[relay]
            if not rows.size:
                break
            origin, seeds = last, landed.astype(np.intp)
            laps[rows] += 1
        won = np.zeros((count, 2), dtype=np.int16)
        if caught is not None:
            won += caught.reshape(count, 2, half).sum(axis=2, dtype=np.int16) * FOUR
            won[mover_four, mover[mover_four]] += FOUR
        took: Array = np.asarray(won.any(axis=1))
        for row in rows.tolist():                      # long sowings: the one-game sowing
            after, gained, taken, lapped, forever = sow(
                tuple(pits[row].tolist()), int(pit[row]), int(mover[row]),
                self.step_table, self.owners)
            board[row], endless[row], laps[row] = after, forever, lapped
            if captures:
                won[row], took[row] = gained, taken
        return board, won, took, endless, laps

    def settle(self, run: Run, rows: Array, pits: Array, decided: Array) -> None:
        """End the games of *rows* that :attr:`decide` ends (ba-awa-no-move)."""
        keep, take = decided == OWNERS, decided == OPENER
        if keep.any():
            self.owners_keep(run, rows[keep], pits[keep])
        if take.any():
            self.opener_takes(run, rows[take], pits[take], NO_MOVE)

    def opener_takes(self, run: Run, rows: Array, pits: Array, ending: Ending) -> None:
        captured = run.games.captured[rows].copy()
        captured[:, run.opener] += pits.sum(axis=1, dtype=captured.dtype)
        run.finish(rows, captured, ending)

    def owners_keep(self, run: Run, rows: Array, pits: Array) -> None:
        rows_held = pits.reshape(len(rows), 2, self.half).sum(axis=2)
        run.finish(rows, run.games.captured[rows] + rows_held, NO_MOVE)

    def step(self, run: Run, rng: np.random.Generator) -> Array:
        """One random move in every game of *run* still going: a pit of the
        mover's row that holds seeds, drawn uniformly; return the rows still going."""
        import numpy as np

        from .batch import pick
        b, half = run.games, self.half
        count = len(b.index)
        rows = np.arange(count)
        before = b.pits
        mover = b.mover.astype(np.intp)
        # ba-awa-choose: a pit of the mover's row that holds seeds, drawn uniformly;
        # ba-awa-endless: an endless one (endless="illegal") is not legal: draw again
        candidates = before.reshape(count, 2, half)[rows, mover] > 0
        after, won = np.empty_like(before), np.zeros((count, 2), dtype=np.int16)
        took, pit = np.zeros(count, dtype=bool), np.zeros(count, dtype=np.intp)
        stuck = np.zeros(count, dtype=bool)        # no legal move after all
        todo = rows
        while todo.size:
            pit[todo] = mover[todo] * half + pick(candidates[todo], rng)
            after[todo], won[todo], took[todo], endless, _ = self.sow(
                before[todo], pit[todo], mover[todo])
            if not self.endless_illegal:
                break
            bad = todo[endless]
            candidates[bad, pit[bad] - mover[bad] * half] = False
            left = candidates[bad].any(axis=1)
            stuck[bad[~left]] = True
            todo = bad[left]
        over, moved, held = np.zeros(count, dtype=bool), ~stuck, np.flatnonzero(stuck)
        if moved.any():
            over[moved] = self.moved(run, rows[moved], pit[moved], after[moved], won[moved],
                                     took[moved])
        if held.size:
            over[held] = self.stuck(run, held)
        return np.flatnonzero(~over)

    def moved(self, run: Run, rows: Array, pit: Array, after: Array, won: Array,
              took: Array) -> Array:
        """The end of a move in each of *rows*; return which games are over."""
        import numpy as np
        b, half = run.games, self.half
        sub = np.arange(len(rows))
        mover = b.mover[rows].astype(np.intp)
        b.played(rows, pit)
        b.captured[rows] += won
        b.remember(rows, took)                          # ba-awa-repetition
        b.pits[rows] = after
        b.last[rows] = mover
        over: Array = after.sum(axis=1) <= EIGHT        # ba-awa-eight: the opener's
        if over.any():
            self.opener_takes(run, rows[over], after[over], EIGHT_SEEDS)
        sums = after.reshape(len(rows), 2, half).sum(axis=2)
        to_move = 1 - mover                             # ba-awa-turns: the next, if able
        blocked = np.flatnonzero(~over & (sums[sub, to_move] == 0))
        if blocked.size:                                # ba-awa-no-move, as no_move decides
            # (a player able to move by their seeds may yet have only endless sowings:
            # then the next step finds them stuck)
            decided = self.decide[(sums[blocked, mover[blocked]] > 0).astype(np.intp)]
            to_move[blocked[decided == MOVER]] = mover[blocked[decided == MOVER]]
            over[blocked[decided >= OWNERS]] = True
            self.settle(run, rows[blocked], after[blocked], decided)
        b.mover[rows] = to_move
        self.recurring(run, rows, over)
        return over

    def stuck(self, run: Run, rows: Array) -> Array:
        """In each of *rows* every pit of the player to move sows forever: settle
        the previous move again, knowing that (ba-awa-no-move); return which are over."""
        import numpy as np
        b, pits = run.games, run.games.pits[rows]
        last = b.last[rows].astype(np.intp)
        sums = pits.reshape(len(rows), 2, self.half).sum(axis=2)
        # the previous move again, the player next in turn unable (no_move decides):
        # the previous mover is able if they have seeds and were not the one stuck
        able = (b.mover[rows] != last) & (sums[np.arange(len(rows)), last] > 0)
        decided = self.decide[able.astype(np.intp)]
        over: Array = decided >= OWNERS
        self.settle(run, rows, pits, decided)
        b.mover[rows] = last
        self.recurring(run, rows, over)
        return over

    def recurring(self, run: Run, rows: Array, over: Array) -> None:
        """ba-awa-repetition: a game still going (not *over*) whose position was
        seen before is over, the opener taking what remains (*over* is updated)."""
        import numpy as np
        b, going = run.games, np.flatnonzero(~over)
        again = b.recurs(rows[going], b.pits[rows[going]], b.mover[rows[going]])
        if again.any():
            ended = rows[going[again]]
            self.opener_takes(run, ended, b.pits[ended], REPETITION)
            over[going[again]] = True

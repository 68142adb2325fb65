"""Ba-awa's many-games steps (numpy), beside the one-game kernel of
:mod:`mancala_spec.fast.ba_awa`, from the same tables and the same rules:
:func:`~mancala_spec.fast.ba_awa.sow` still sows the rare long sowings and
:func:`~mancala_spec.fast.ba_awa.no_move` decides who moves when no one can."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import not_a
from ...options import Endless, NoMove
from ..base import Ending, FastGame, kernel_of
from ..tables import EIGHT, FOUR, lap_arrays, sowing_next
from . import (
    EIGHT_SEEDS,
    ENDINGS,
    MOST_SEEDS,
    NO_MOVE,
    OPENER_TAKES,
    OWNERS_KEEP,
    REPETITION,
    FastBaAwa,
    no_move,
    sow,
)

if TYPE_CHECKING:
    import numpy as np

    from ...engine.games.base import Game
    from ..batch import Run

    Array = np.ndarray[Any, Any]

#: laps a sowing is followed with arrays before :func:`sow` takes it over
BATCH_LAPS = 24
#: what :func:`no_move` decided, as numbers (see :attr:`BaAwaBatch.decide`)
NEXT, MOVER, OWNERS, OPENER = range(4)
#: how a move ended (:meth:`BaAwaBatch.ended`): play goes on (no capture, or
#: a capture), or the game ends: a sowing stopped at its lap cap, a row left
#: empty, the last eight seeds
GOES_ON, CAPTURED, LAP_CAP_END, EMPTIED_ROW, LAST_EIGHT = range(5)


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
        if kernel_of(game) is not FastBaAwa or game.players != 2:
            raise not_a("game", game, "a two-player Ba-awa game (get_game('ba-awa'))")
        size = game.board.size
        if most is not None and (type(most) is not int or not 1 <= most <= MOST_SEEDS * size):
            raise not_a("most", most, f"None or a whole number from 1 to {MOST_SEEDS * size} "
                        "(the most seeds a lap carries)")
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
        self.endless_illegal = game.options["endless"] is Endless.ILLEGAL
        self.empty_row_ends = game.options["no_move"] is NoMove.EMPTY_ROW
        self.owners_take = game.options["no_move"] is NoMove.OWNERS
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

    def sow(self, pits: Array, pit: Array, mover: Array, captures: bool = True,
            cap: int | None = None) -> tuple[Array, Array, Array, Array, Array]:
        """Sow *pit* of each board in *pits* for *mover*, lap after lap, a lap at
        a time (ba-awa-sow, -owner-four, -mover-four, -sowing-end, -relay).
        Returns the boards after, the seeds won (rows, 2), whether anything was
        captured, whether the sowing is endless (``ba-awa-endless``; the board
        is then the one it stopped on) and the laps sown, as :func:`sow` does;
        with ``captures=False`` the seeds won are not counted (all zero, and
        nothing captured): where the seeds go is the same, only faster. With a
        *cap* (more than :data:`BATCH_LAPS`; ``endless="cap-75"``: 75) a
        sowing whose lap *cap* would relay stops there, ``endless`` saying so
        (as :func:`sow` with its *cap*).

        The boards still sowing are kept packed together, and each leaves the
        loop (its results written) in the lap its sowing ends."""
        import numpy as np
        if cap is not None and not (type(cap) is int and cap > BATCH_LAPS):
            raise not_a("cap", cap, f"None or a whole number above {BATCH_LAPS}")
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
                step=self.step_table, owners=self.owners, cap=cap)
            board[row], endless[row], laps[row] = after, forever, lapped
            if captures:
                won[row], took[row] = gained, taken
        return board, won, took, endless, laps

    def ended(self, after: Array, won: Array, mover: Array, capped: Array,
              opener: int = 0, captured: Array | None = None,
              left: Array | None = None) -> tuple[Array, Array]:
        """How each move ended, its sowing done (*after*, *won* and *capped*
        as :meth:`sow` returns them, by *mover*), in the engine's order
        (``BaAwa.after_move``): a sowing stopped at its lap cap (``cap=``,
        ``endless="cap-75"``: the seeds left shared equally, an odd one to
        South if North has *captured* more, counts after the move, else to
        North), a row left empty (``no_move="empty-row"``: the next player's,
        the mover taking what is left; else the mover's, the next player
        taking it), the last eight seeds or fewer (``ba-awa-eight``: the
        *opener* takes them); else play goes on, after a capture or not.
        Returns the ending (:data:`GOES_ON` ... :data:`LAST_EIGHT`) and what
        the end gives of the seeds left, South's share less North's (0 where
        play goes on). Whether the next player can move, and the captured
        counts deciding the game (``decided``), are for the caller to ask.
        *left*: the seeds on each board after, if the caller knows them."""
        import numpy as np
        n, half = len(after), self.half
        if left is None:
            left = after.sum(axis=1, dtype=np.int16)
        how = np.where(won.any(axis=1), CAPTURED, GOES_ON).astype(np.int8)
        share = np.zeros(n, dtype=np.int16)
        eight = left <= EIGHT                                           # ba-awa-eight
        how[eight] = LAST_EIGHT
        share[eight] = left[eight] if opener == 0 else -left[eight]
        if self.empty_row_ends:                                         # ba-awa-no-move
            held = after.reshape(n, 2, half).sum(axis=2, dtype=np.int16)   # per row
            sub = np.arange(n)
            next_empty = held[sub, 1 - mover] == 0
            emptied = (left > 0) & (next_empty | (held[sub, mover] == 0))
            taker = np.where(next_empty, mover, 1 - mover)
            how[emptied] = EMPTIED_ROW
            share[emptied] = np.where(taker == 0, left, -left)[emptied]
        capped = np.asarray(capped, dtype=bool)                         # ba-awa-endless
        how[capped] = LAP_CAP_END
        odd = capped & (left % 2 == 1)
        if odd.any():
            if captured is None:
                raise ValueError("an odd number of seeds left at the lap cap: its odd seed "
                                 "goes by the captured counts, which were not given")
            share[odd] = np.where(captured[odd, 1] > captured[odd, 0], 1, -1)
        share[capped & ~odd] = 0
        return how, share

    def settle(self, run: Run, rows: Array, pits: Array, decided: Array) -> None:
        """End the games of *rows* that :attr:`decide` ends (ba-awa-no-move)."""
        keep, take = decided == OWNERS, decided == OPENER
        if keep.any():
            self.owners_keep(run, rows[keep], pits[keep])
        if take.any():
            self.opener_takes(run, rows[take], pits[take], ending=NO_MOVE)

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

        from ..batch import pick
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
            over[moved] = self.moved(run, rows[moved], pit[moved], after=after[moved],
                                     won=won[moved], took=took[moved])
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
            self.opener_takes(run, rows[over], after[over], ending=EIGHT_SEEDS)
        sums = after.reshape(len(rows), 2, half).sum(axis=2)
        to_move = 1 - mover                             # ba-awa-turns: the next, if able
        blocked = np.flatnonzero(~over & (sums[sub, to_move] == 0))
        if blocked.size:                                # ba-awa-no-move, as no_move decides
            # (a player able to move by their seeds may yet have only endless sowings:
            # then the next step finds them stuck)
            decided = self.decide[(sums[blocked, mover[blocked]] > 0).astype(np.intp)]
            to_move[blocked[decided == MOVER]] = mover[blocked[decided == MOVER]]
            over[blocked[decided >= OWNERS]] = True
            self.settle(run, rows[blocked], after[blocked], decided=decided)
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
        self.settle(run, rows, pits, decided=decided)
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
            self.opener_takes(run, ended, b.pits[ended], ending=REPETITION)
            over[going[again]] = True


FastGame.many_steps["ba-awa"] = BaAwaBatch

"""Bakuk in the kernel (the rules: :class:`mancala_spec.engine.games.bakuk.Bakuk`).

One game at a time, :class:`FastBakuk` (standard library only); many
positions or games at once, :class:`BakukBatch` (numpy, imported when first
used: the solver's moves and the batch playouts'). A Bakuk lap captures
nothing on the way, so both apply it whole from the one table
:func:`~mancala_spec.fast.tables.bakuk_laps`. Each step is commented with the
catalogue rule it implements.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any

from ..errors import not_a
from ..options import Chain, Leftovers, NoMove, option
from .base import (
    MOST_PITS,
    Counts,
    Ending,
    FastGame,
    History,
    Moves,
    State,
    checked_state,
    kernel_of,
)
from .tables import (
    CAPTURING,
    LapTable,
    Pits,
    bakuk_laps,
    bakuk_sowers,
    chain_next,
    lap_arrays,
)

if TYPE_CHECKING:
    import numpy as np

    from ..engine.games.base import Game
    from .batch import Run

    Array = np.ndarray[Any, Any]

#: how a Bakuk game ends: the player to move has no counters, or a repetition
EXHAUSTED = Ending("exhausted", "bakuk-exhausted")
REPETITION = Ending("repetition", "bakuk-repetition")
ENDINGS = (EXHAUSTED, REPETITION)


@lru_cache(maxsize=32)
def row_moves(owned: tuple[int, ...], most: int) -> dict[Pits, Moves]:
    """bakuk-choose: for every content of the holes *owned* (up to *most*
    counters in all, as a tuple), the holes that hold counters; empty for rows
    of more than three holes (they are filled in as met)."""
    if not 1 <= len(owned) <= 3:
        return {}
    return {row: tuple(p for p, seeds in zip(owned, row) if seeds)
            for row in product(range(most + 1), repeat=len(owned)) if sum(row) <= most}


def row_span(owned: tuple[int, ...]) -> slice:
    """The holes from the first of *owned* to its last: ``pits[row_span(owned)]``
    is what FastBakuk's moves tables are keyed by (a slice is read faster than
    ``itemgetter(*owned)``); exactly *owned* when they are consecutive."""
    return slice(owned[0], owned[-1] + 1) if owned else slice(0, 0)


class FastBakuk(FastGame):
    """Bakuk (the rules: :class:`mancala_spec.engine.games.bakuk.Bakuk`)."""

    game_name = "bakuk"

    def __init__(self, game: Game, opener: int = 0,
                 owners: Sequence[int] | None = None) -> None:
        super().__init__(game, opener, owners)
        #: ``lap[pit][seeds]``: what sowing *seeds* from *pit* adds to each pit,
        #: and where the last falls (bakuk-choose, bakuk-sow, bakuk-origin)
        self.lap: LapTable = bakuk_laps(self.sow_next, game.total_seeds)
        # bakuk-chain: the next hole of a capture chain: with the sowing, or (variant) against it
        self.chain_next = chain_next(self.size, game.options["chain"] is Chain.FORWARD)
        self.passing = game.options["no_move"] is NoMove.PASS
        self.owners_score = game.options["leftovers"] is Leftovers.OWNERS
        # The legal moves for each content of a player's holes (from the first
        # to the last they own): a table worked out at once for rows of up to
        # three consecutive holes, else filled in as met.
        self._row: tuple[slice, ...] = tuple(row_span(owned) for owned in self.owned)
        self._moves_for_row: tuple[dict[Pits, Moves], ...] = tuple(
            dict(row_moves(owned, game.total_seeds)
                 if owned == tuple(range(span.start, span.stop)) else {})
            for owned, span in zip(self.owned, self._row))
        # what play() reads at every move, fetched in one go, for each mover:
        # the laps as functions (the same laps, faster applied), the next
        # player with their row and its moves, and their moves after each lap
        # that sows every hole they own (all of them, unless a capture empties
        # one; most laps do: a row is three holes), else ()
        sowers = bakuk_sowers(self.sow_next, game.total_seeds)
        self._tables = tuple((sowers, after, self._row[after], self._moves_for_row[after],
                              self._sowing_all(self.owned[after]))
                             for after in self.next_turn)

    def _sowing_all(self, holes: Moves) -> tuple[tuple[Moves, ...], ...]:
        """``[pit][seeds]``: *holes* if the lap of *seeds* from *pit* adds to
        every one of them, else ``()``."""
        return tuple(tuple(holes if holes and all(change[h] > 0 for h in holes) else ()
                           for change, _ in row) for row in self.lap)

    def own_moves(self, pits: Pits, player: int) -> Moves:
        """bakuk-choose: the holes of *player* that hold counters."""
        row = pits[self._row[player]]
        moves = self._moves_for_row[player].get(row)
        if moves is None:
            moves = self._moves_for_row[player][row] = tuple(
                [p for p in self.owned[player] if pits[p]])
        return moves

    def derive_moves(self, pits: Pits, to_move: int, history: History) -> Moves:
        # bakuk-repetition: the game is over once a position recurs since the last capture
        if (pits, to_move) in history:
            return REPETITION
        # bakuk-choose: any hole of the player to move that holds counters
        # (bakuk-end, bakuk-exhausted: with none, the game is over)
        return self.own_moves(pits, to_move) or EXHAUSTED

    def play(self, state: State, pit: int) -> State:
        try:                          # (costs nothing unless it fails)
            pits, mover, captured, history, moves = state
            playable = pit in moves and pit.__class__ is int   # not 0.0, True, 0j
        except (TypeError, ValueError):
            raise self.illegal(checked_state(state), pit) from None
        if not playable:
            raise self.illegal(checked_state(state), pit)
        # bakuk-choose, bakuk-sow, bakuk-origin: lift the hole's counters and sow
        # them one by one, a single lap (applied whole: see lap)
        sowers, to_move, row, moves_for_row, sowing_all = self._tables[mover]
        seeds = pits[pit]
        sow, emptied, last, add = sowers[pit][seeds]
        won = pits[last] + add        # what the last hole holds after the lap
        if won in CAPTURING:          # bakuk-capture: the last makes 2 or 4: the mover's
            after = emptied(pits)
            chain = self.chain_next   # bakuk-chain: then each next hole holding 2 or 4
            p = chain[last]
            if after[p] in CAPTURING:
                board = list(after)
                while board[p] in CAPTURING:
                    won += board[p]
                    board[p] = 0
                    p = chain[p]
                after = tuple(board)
            if self.players == 2:     # (the common case, spelt out because it is faster)
                captured = ((captured[0] + won, captured[1]) if mover == 0
                            else (captured[0], captured[1] + won))
            else:
                captured = (*captured[:mover], captured[mover] + won, *captured[mover + 1:])
            earlier: History = ()
            history = ()              # bakuk-repetition: positions since the last capture
            following: Moves = ()
        else:
            # (the position just left cannot be the one reached: its hole sown
            # from holds fewer counters now, so only the earlier ones are searched)
            earlier, history = history, history + ((pits, mover),)
            after = sow(pits)
            following = sowing_all[pit][seeds]
        # bakuk-turns, bakuk-three-turns: the next player; bakuk-choose: their moves
        if not following:             # (unless the lap sowed all their holes)
            try:
                following = moves_for_row[after[row]]
            except KeyError:          # (a row not met yet)
                following = self.own_moves(after, to_move)
        if not following:
            # bakuk-exhausted: the player to move has no counters: the game is over,
            # or (no_move="pass") they pass to the next player who has counters
            if self.passing:
                for able in self.turns[mover][1:]:
                    following = self.own_moves(after, able)
                    if following:
                        to_move = able
                        break
            if not following:
                return self._end(after, to_move, captured, history=history, ending=EXHAUSTED)
        if earlier and (after, to_move) in earlier:   # bakuk-repetition: game over
            return self._end(after, to_move, captured, history=history, ending=REPETITION)
        return (after, to_move, captured, history, following)

    def _end(self, pits: Pits, to_move: int, captured: Counts, history: History,
             ending: Ending) -> State:
        # bakuk-leftovers: counters left score for nobody, or (leftovers="owners")
        # for their hole's owner.
        if not self.owners_score:
            return (pits, to_move, captured, history, ending)
        taken = list(captured)
        for p, seeds in enumerate(pits):
            taken[self.owners[p]] += seeds
        return ((0,) * self.size, to_move, tuple(taken), (), ending)

    @staticmethod
    def many(game: Game) -> BakukBatch:
        """The many-games steps of *game* (numpy needed)."""
        return BakukBatch.for_game(game)


# -- many positions or games at once (numpy) -------------------------------------------


class BakukBatch:
    """Bakuk's moves for many positions at once (two players, a row each):
    numpy arrays, one row a position, from the same lap table as
    :class:`FastBakuk`. :meth:`play` plays one hole of many positions (the
    solver's step); :meth:`step` plays a random move in many games (the batch
    playouts')."""

    endings = ENDINGS

    def __init__(self, pits_per_row: int, total: int, skip_origin: bool = False,
                 chain: Chain | str = Chain.FORWARD, no_move: NoMove | str = NoMove.END,
                 leftovers: Leftovers | str = Leftovers.UNSCORED) -> None:
        """*skip_origin*, *chain*, *no_move* and *leftovers* are Bakuk's options
        (their values checked by their declarations: a word becomes its member)."""
        import numpy as np
        if type(pits_per_row) is not int or not 1 <= pits_per_row <= MOST_PITS // 2:
            raise not_a("pits_per_row", pits_per_row, f"a whole number from 1 to {MOST_PITS // 2}")
        if type(total) is not int or not 1 <= total <= 120:
            raise not_a("total", total, "a whole number from 1 to 120 (the solver's most)")
        self.n = n = pits_per_row
        self.m = m = 2 * n
        change, last = lap_arrays(m, skip_origin, total)
        # lap_add[origin, seeds]: what sowing *seeds* from *origin* adds to each
        # hole (bakuk-choose, bakuk-sow, bakuk-origin), and lap_end the hole of the last
        self.lap_add = change.astype(np.int8)
        self.lap_end = last
        # the same, indexed by origin * stride + seeds
        self.stride = total + 1
        self.lap_add_flat = self.lap_add.reshape(m * (total + 1), m)
        self.lap_end_flat = self.lap_end.reshape(-1)
        forward = option("bakuk", "chain").check(chain) is Chain.FORWARD
        self.chain = np.array(chain_next(m, forward), dtype=np.intp)   # bakuk-chain
        self.passing = option("bakuk", "no_move").check(no_move) is NoMove.PASS
        self.owners_score = option("bakuk", "leftovers").check(leftovers) is Leftovers.OWNERS

    @classmethod
    def for_game(cls, game: Game, pits_per_row: int | None = None,
                 total: int | None = None) -> BakukBatch:
        """The batch form of *game* (two players) and its options; on its board,
        or (the solver's experiments) on *pits_per_row* holes a row with
        *total* counters."""
        if kernel_of(game) is not FastBakuk or game.players != 2:
            raise not_a("game", game, "a two-player Bakuk game (get_game('bakuk'))")
        options = game.options
        return cls(game.board.pits_per_row if pits_per_row is None else pits_per_row,
                   game.total_seeds if total is None else total,
                   skip_origin=bool(options["skip_origin"]), chain=options["chain"],
                   no_move=options["no_move"], leftovers=options["leftovers"])

    def row_sum(self, pits: Array, player: int) -> Array:
        """The counters in *player*'s row, for each position."""
        import numpy as np
        total = pits[:, player * self.n].astype(np.int16)
        for hole in range(player * self.n + 1, (player + 1) * self.n):
            total += pits[:, hole]
        return total

    def capture(self, after: Array, last: Array) -> Array:
        """bakuk-capture, bakuk-chain: empty the last hole if it holds 2 or 4,
        then each next hole of the chain while it does; return the counters
        taken in each position (*after* is changed in place)."""
        import numpy as np
        count, m = len(after), self.m
        flat = after.reshape(-1)
        at = np.arange(count) * m + last
        landed = flat[at]
        gain = np.where((landed == CAPTURING[0]) | (landed == CAPTURING[1]),
                        landed, 0).astype(np.int16)
        rows = np.flatnonzero(gain)
        if rows.size:
            flat[at[rows]] = 0
            hole = last[rows]
            for _ in range(m - 1):
                hole = self.chain[hole]
                at = rows * m + hole
                here = flat[at]
                take = (here == CAPTURING[0]) | (here == CAPTURING[1])
                if not take.any():
                    break
                rows, hole, at, here = rows[take], hole[take], at[take], here[take]
                gain[rows] += here
                flat[at] = 0
        return gain

    def play(self, pits: Array, player: int,
             choice: int) -> tuple[Array, Array, Array, Array, Array]:
        """Every position in *pits* (int8, all with *player* to move) plays its
        hole number *choice* of that player's row. Returns, per position:
        whether the move is legal, the holes after it, the player to move next,
        whether the game goes on (else it is over), and the move's immediate
        worth to the mover (counters captured, plus leftovers if they score)."""
        import numpy as np
        count = len(pits)
        origin = player * self.n + choice
        seeds = pits[:, origin].astype(np.intp)
        legal = seeds > 0                                        # bakuk-choose
        after = pits + self.lap_add[origin][seeds]               # bakuk-sow, bakuk-origin
        gain = self.capture(after, self.lap_end[origin][seeds])
        mine = self.row_sum(after, player)
        theirs = self.row_sum(after, 1 - player)
        nxt = np.full(count, 1 - player, dtype=np.int8)          # bakuk-turns
        goes_on = theirs > 0
        if self.passing:                                         # bakuk-exhausted
            again = ~goes_on & (mine > 0)
            nxt[again] = player
            goes_on |= again
        worth = gain
        if self.owners_score:                                    # bakuk-leftovers
            worth = gain + np.where(goes_on, 0, mine - theirs).astype(np.int16)
        return legal, after, nxt, goes_on, worth

    def end(self, run: Run, rows: Array, pits: Array, captured: Array,
            ending: Ending) -> None:
        """bakuk-leftovers: the games in *rows* are over; counters left score for
        nobody, or their hole's owner."""
        import numpy as np
        if self.owners_score:
            captured = captured + np.stack([self.row_sum(pits, 0), self.row_sum(pits, 1)],
                                           axis=1)
        run.finish(rows, captured, ending)

    def step(self, run: Run, rng: np.random.Generator) -> Array:
        """One random move in every game of *run* still going: a hole of the
        mover's that holds counters, drawn uniformly; return the rows still going."""
        import numpy as np

        from .batch import pick
        b, n = run.games, self.n
        count = len(b.index)
        rows = np.arange(count)
        mover = b.mover.astype(np.intp)
        before = b.pits
        north = (mover == 1)[:, None]
        own = np.where(north, before[:, n:], before[:, :n])       # bakuk-choose
        pit = mover * n + pick(own > 0, rng)
        b.played(rows, pit)
        seeds = before.reshape(-1).take(rows * self.m + pit)
        lap = pit * self.stride + seeds                            # (flat table indices)
        after = before + self.lap_add_flat.take(lap, axis=0)      # bakuk-sow, bakuk-origin
        gain = self.capture(after, self.lap_end_flat.take(lap))   # bakuk-capture, -chain
        took = gain > 0
        b.captured[:, 0] += np.where(north[:, 0], 0, gain)
        b.captured[:, 1] += np.where(north[:, 0], gain, 0)
        b.remember(rows, took)                                    # bakuk-repetition
        south_left, north_left = after[:, 0].copy(), after[:, n].copy()
        for hole in range(1, n):                                  # (faster than sum)
            south_left += after[:, hole]
            north_left += after[:, n + hole]
        to_move = 1 - mover                                       # bakuk-turns
        theirs = np.where(north[:, 0], south_left, north_left)
        stuck = theirs == 0                                       # bakuk-exhausted
        if self.passing:
            again = stuck & (np.where(north[:, 0], north_left, south_left) > 0)
            to_move = np.where(again, mover, to_move)
            stuck &= ~again
        if stuck.any():
            ended = np.flatnonzero(stuck)
            self.end(run, ended, after[ended], captured=b.captured[ended], ending=EXHAUSTED)
        if stuck.any():
            going = np.flatnonzero(~stuck)
            again = b.recurs(going, after[going], to_move[going])  # bakuk-repetition
        else:
            going = rows
            again = b.recurs(rows, after, to_move)
        if again.any():
            ended = going[again]
            self.end(run, ended, after[ended], captured=b.captured[ended], ending=REPETITION)
        over = stuck
        over[going] = again
        b.pits = after
        b.mover = to_move.astype(np.int8)
        return np.flatnonzero(~over)

"""Ba-awa in the kernel (the rules: :class:`mancala_spec.engine.games.ba_awa.BaAwa`).

:func:`sow` is the one fast Ba-awa sowing: fast play, the analysis
(:mod:`mancala_spec.analysis`) and the batch playouts' rare long sowings
(:mod:`mancala_spec.fast.batch`) all call it. Each step is commented with the
catalogue rule it implements.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import add
from typing import TYPE_CHECKING

from .base import Counts, FastGame, History, Key, Moves, State
from .tables import EIGHT, FOUR, NextTable, PathTable, Pits, lap_paths

if TYPE_CHECKING:
    from ..engine.games.base import Game

#: what :func:`sow` returns: the pits after, seeds won by each player, whether
#: anything was captured, the laps sown, whether the sowing is endless
Sowing = tuple[Pits, Counts, bool, int, bool]
Sown = tuple[Pits, Counts, bool]   # the pits after, seeds won by each player, any capture?

#: positions whose sowings a :class:`FastBaAwa` remembers (then it forgets them
#: all and starts again; :meth:`~FastBaAwa.forget` too): each a dict of at most
#: a row of sowings, about 1 KB, so at most about 20 MB
CACHE = 20_000
#: the seeds in a pit that make a lap ending there end the move: none (it
#: ends in an empty pit, ba-awa-sowing-end) or three (it makes four, ba-awa-mover-four)
ENDS_MOVE = (0, FOUR - 1)
#: laps :func:`sow` runs before it starts keeping the boards seen
QUICK_LAPS = 12


def sow(pits: Pits, pit: int, mover: int, step: NextTable, owners: Sequence[int],
        players: int = 2) -> Sowing:
    """Sow *pit* of *pits* lap after lap, for *mover*, with the sowing order
    *step* (:func:`~mancala_spec.fast.tables.sowing_next`) and the pit *owners*.

    When a lap would start again from a board and pit already seen in this move
    the sowing repeats forever (``ba-awa-endless``): it stops there, and the
    result says so (``endless``); the board is then the one it stopped on, as
    with ``endless="stop"``. *laps* counts the laps sown, the last included.

    Keeping every board a lap starts from costs a tuple and a set entry a lap,
    while almost every sowing ends within a few laps, and a sowing that ends
    never repeated a lap (one that did would repeat forever). So the sowing is
    first run for up to :data:`QUICK_LAPS` laps keeping nothing; only one that
    runs longer is sown again from the start, keeping the boards.

    >>> from mancala_spec.fast.tables import sowing_next
    >>> step, owners = sowing_next(12, False), (0,) * 6 + (1,) * 6
    >>> sow((4,) * 12, 0, 0, step, owners)[2:]   # the opening move from a: five laps
    (False, 5, False)
    >>> sow((0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1), 10, 1, step, owners)[3:]
    (72, True)
    """
    # a lap carries at most every seed; a game's board holds four a pit (ba-awa-setup)
    most = max(sum(pits), FOUR * len(step))
    return sow_along(pits, pit, mover, _paths(step, most), owners, players)


@lru_cache(maxsize=8)
def _paths(step: NextTable, most: int) -> PathTable:
    """:func:`~mancala_spec.fast.tables.lap_paths`, remembered: tables of the
    board, not positions met, so :meth:`FastGame.forget` leaves them. At most
    8, each of ``size * (most + 1)`` laps (Ba-awa's board and seeds: 12 * 49
    laps, about 0.15 MB); for a game's boards one a sowing order."""
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
        # The legal moves, with their sowings (see moves), of the last (pits,
        # player) asked about: a move asks for the next player's (the pass
        # check), and playing one of them asks again, so each sowing is worked
        # out once.
        self._memo_key: Key = ((), -1)
        self._memo: dict[int, Sown | None] = {}
        # and every (pits, player) met, up to CACHE of them: games of the same
        # rules pass through the same positions, above all their first moves
        self._cache: dict[Key, dict[int, Sown | None]] = {}

    def forget(self) -> None:
        self._memo_key, self._memo = ((), -1), {}
        self._cache.clear()

    def derive_moves(self, pits: Pits, to_move: int, history: History) -> Moves:
        if not any(pits):          # every way a Ba-awa game ends clears the board
            return ()
        return tuple(self.moves(pits, to_move))

    def sowings(self, pits: Pits, player: int) -> dict[int, Sown]:
        """*player*'s legal moves on *pits*, each with its sowing, in pit order."""
        moves = self.moves(pits, player)
        sowings = {}
        for pit, sown in moves.items():
            if sown is None:
                sown = moves[pit] = self._sown(pits, pit, player)
            sowings[pit] = sown
        return sowings

    def moves(self, pits: Pits, player: int) -> dict[int, Sown | None]:
        """*player*'s legal moves on *pits*, in pit order, each with its sowing,
        or ``None`` for a sowing not worked out yet: one that is legal
        whether it ends or not (``endless="stop"``), or because it is a single
        lap that ends the move (fewer seeds than pits, so the lap's last seed
        falls where no other did, in a pit of :data:`ENDS_MOVE`); a legal
        move's sowing is needed only once it is played (:meth:`play` fills it
        in), the others must be sown to know whether they end. (Remembered for
        the last *pits* and *player* asked about, and for up to :data:`CACHE`
        others until :meth:`forget`; do not change it.)"""
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
                    if not illegal or (seeds < size
                                       and pits[paths[pit][seeds][1]] in ENDS_MOVE):
                        memo[pit] = None
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

    def sow(self, pits: Pits, pit: int, mover: int) -> Sown | None:
        """Sow *pit* lap after lap; ``None`` if the sowing never ends and
        ``endless="illegal"``."""
        after, won, took, _, endless = sow_along(pits, pit, mover, self.paths, self.owners,
                                                 self.players)
        return None if endless and self.endless_illegal else (after, won, took)

    def _sown(self, pits: Pits, pit: int, mover: int) -> Sown:
        """The sowing of a legal move (:meth:`moves`)."""
        after, won, took, _, _ = sow_along(pits, pit, mover, self.paths, self.owners,
                                           self.players)
        return after, won, took

    def play(self, state: State, pit: int) -> State:
        pits, mover, captured, history, moves = state
        if pit not in moves:
            raise self.illegal(state, pit)
        legal = self.moves(pits, mover)
        sown = legal[pit]
        if sown is None:
            sown = legal[pit] = self._sown(pits, pit, mover)
        after, won, took = sown
        if took:
            captured = tuple(map(add, captured, won))
        # ba-awa-repetition: the positions seen since the last capture
        history = () if took else history + ((pits, mover),)
        turns = self.turns[mover]
        # ba-awa-eight, ba-awa-eight-timing: after a complete move, eight seeds or
        # fewer on the board go to the opener, and the game is over.
        if sum(after) <= EIGHT:
            return self._finish(after, turns[0], captured, None)
        # ba-awa-turns, ba-awa-three-turns: the next player moves, if they can ...
        for to_move in turns:
            following = self.moves(after, to_move)
            if following:
                break
            # ba-awa-no-move: ... if not, (no_move="owners") the game ends and owners
            # take their pits' seeds, or (no_move="pass") the player is passed over,
            if self.owners_take:
                return self._finish(after, turns[0], captured, self.owners)
        else:   # ... and if nobody can move the opener takes what remains.
            return self._finish(after, turns[0], captured, None)
        # ba-awa-repetition: a whole position seen before: the opener takes what remains
        if (after, to_move) in history:
            return self._finish(after, turns[0], captured, None)
        return (after, to_move, captured, history, tuple(following))

    def _finish(self, pits: Pits, to_move: int, captured: Counts,
                owners: Sequence[int] | None) -> State:
        """The game is over: each pit's seeds go to its owner in *owners*, or
        (``None``) to the opener."""
        taken = list(captured)
        if owners is None:
            taken[self.opener] += sum(pits)
        else:
            for p, seeds in enumerate(pits):
                taken[owners[p]] += seeds
        return ((0,) * self.size, to_move, tuple(taken), (), ())

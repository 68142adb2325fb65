"""Ba-awa in the kernel (the rules: :class:`mancala_spec.engine.games.ba_awa.BaAwa`).

One game at a time, :class:`FastBaAwa` (standard library only, here); many at
once, :class:`~mancala_spec.fast.ba_awa.many.BaAwaBatch` (numpy, imported when
first used; in :mod:`mancala_spec.fast.ba_awa.many`), from the same tables.
:func:`sow`, the one-game sowing, also sows the many-games sowing's rare long
sowings. Each step is commented with the catalogue rule it implements.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ...options import Choose, Endless, NoMove
from ..base import (
    Counts,
    Ending,
    FastGame,
    History,
    Key,
    Moves,
    State,
    checked_state,
    sow_arguments,
)
from ..tables import EIGHT, FOUR, NextTable, PathTable, Pits, adder, lap_paths

if TYPE_CHECKING:
    from ...engine.games.base import Game

#: how a Ba-awa game ends: eight seeds or fewer, nobody able to move, a repetition
EIGHT_SEEDS = Ending("eight-seeds", "ba-awa-eight")
NO_MOVE = Ending("no-moves", "ba-awa-no-move")
REPETITION = Ending("repetition", "ba-awa-repetition")
ENDINGS: tuple[Ending, ...] = (EIGHT_SEEDS, NO_MOVE, REPETITION)

#: what :func:`sow` returns: the pits after, seeds won by each player, any
#: capture?, the laps sown, endless?
Sowing = tuple[Pits, Counts, bool, int, bool]
Sown = tuple[Pits, Counts, bool]   # the pits after, seeds won by each player, any capture?

#: positions whose sowings a :class:`FastBaAwa` remembers (then it forgets them
#: all, as :meth:`~FastBaAwa.forget` does): about 1 KB each, 20 MB in all
CACHE = 20_000
#: the share of a game's seeds that may be captured in a position a
#: :class:`FastBaAwa` remembers across games (see ``remember_above``)
REMEMBERED_CAPTURES = 1 / 3
#: the seeds in a pit that make a lap ending there end the move: none (it
#: ends in an empty pit, ba-awa-sowing-end) or three (it makes four, ba-awa-mover-four)
ENDS_MOVE = (0, FOUR - 1)
#: laps :func:`sow` runs before it starts keeping the boards seen
QUICK_LAPS = 12
#: the most seeds a pit :func:`sow` takes on average (its lap tables grow with
#: the square of the seeds: 16 a pit on Ba-awa's board is about 7 MB)
MOST_SEEDS = 16


def sow(pits: Pits, pit: int, mover: int, step: NextTable, owners: Sequence[int],
        players: int = 2, cap: int | None = None) -> Sowing:
    """Sow *pit* of *pits* lap after lap, for *mover*, with the sowing order
    *step* (:func:`~mancala_spec.fast.tables.sowing_next`) and the pit *owners*.

    When a lap would start again from a board and pit already seen in this move
    the sowing repeats forever (``ba-awa-endless``): it stops there, and the
    result says so (``endless``); the board is then the one it stopped on, as
    with ``endless="stop"``. *laps* counts the laps sown, the last included.
    A sowing that ends never repeated a lap, so it is first run for up to
    :data:`QUICK_LAPS` laps keeping no boards; only a longer one is sown again,
    keeping them. With a *cap* (``endless="cap-75"``: 75) no lap is looked
    back to: a sowing whose lap *cap* would relay stops there (``endless``
    then says it was capped), the last seed left in its pit.

    >>> from mancala_spec.fast.tables import sowing_next
    >>> step, owners = sowing_next(12, False), (0,) * 6 + (1,) * 6
    >>> sow((4,) * 12, 0, 0, step, owners)[2:]   # the opening move from a: five laps
    (False, 5, False)
    >>> sow((0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1), 10, 1, step, owners)[3:]
    (72, True)
    """
    # (checked, with at most MOST_SEEDS a pit: a lap carries at most every seed)
    pits, pit, mover = sow_arguments(pits, pit, mover, step=step, owners=owners,
                                     players=players, most_seeds=MOST_SEEDS)
    most = max(sum(pits), FOUR * len(step))   # a game's board: four a pit (ba-awa-setup)
    return sow_along(pits, pit, mover, paths=_paths(step, most), owners=owners, players=players,
                     cap=cap)


@lru_cache(maxsize=8)
def _paths(step: NextTable, most: int) -> PathTable:
    """:func:`~mancala_spec.fast.tables.lap_paths`, remembered (tables of the
    board, which :meth:`FastGame.forget` leaves): at most 8, one a sowing order."""
    return lap_paths(step, most)


def sow_along(pits: Pits, pit: int, mover: int, paths: PathTable, owners: Sequence[int],
              players: int = 2, cap: int | None = None) -> Sowing:
    """:func:`sow`, with the table of lap paths
    (:func:`~mancala_spec.fast.tables.lap_paths`, for up to ``sum(pits)``
    seeds) rather than the sowing order."""
    nobody = (0,) * players
    sowing = _sow(pits, pit, mover, paths=paths, owners=owners, nobody=nobody, cap=cap)
    if sowing is None:
        sowing = _sow(pits, pit, mover, paths=paths, owners=owners, nobody=nobody,
                      seen={(pits, pit)})
        assert sowing is not None      # keeping the boards, it always stops
    return sowing


def _sow(pits: Pits, pit: int, mover: int, paths: PathTable, owners: Sequence[int],
         nobody: Counts, seen: set[Key] | None = None, cap: int | None = None
         ) -> Sowing | None:
    """:func:`sow_along` (*nobody*: a zero for each player), keeping in *seen*
    the boards and pits laps start from; or, without *seen*, keeping none and
    giving up (``None``) after :data:`QUICK_LAPS` laps; or, with a *cap*,
    stopping at lap *cap* (``ba-awa-endless`` as MancalaGames plays it)."""
    board = list(pits)
    won = None                         # seeds won by each player, once anybody wins
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
                if won is None:
                    won = list(nobody)
                won[owners[p]] += FOUR
            else:
                board[p] = count
        count = board[last] + 1        # the lap's last seed
        if count == FOUR:              # ba-awa-mover-four: the mover takes them; the move ends
            board[last] = 0
            if won is None:
                won = list(nobody)
            won[mover] += FOUR
            return tuple(board), tuple(won), True, laps, False
        if count == 1:                 # ba-awa-sowing-end: an empty pit ends the move
            board[last] = 1
            if won is None:
                return tuple(board), nobody, False, laps, False
            return tuple(board), tuple(won), True, laps, False
        if cap is not None:
            if laps == cap:            # capped: the last seed stays where it fell
                board[last] = count
                return tuple(board), nobody if won is None else tuple(won), won is not None, \
                    laps, True
        elif seen is None:
            if laps == QUICK_LAPS:     # a long sowing: the caller sows it again, keeping boards
                return None
        else:
            # ba-awa-endless: a lap that would start again from a board and pit
            # already seen in this move repeats forever
            board[last] = count
            lap = (tuple(board), last)
            if lap in seen:
                return lap[0], nobody if won is None else tuple(won), won is not None, laps, True
            seen.add(lap)
        origin = last                  # ba-awa-relay: lift them all, last seed too,
        seeds = count                  # and sow a new lap from the next pit
        board[last] = 0
        laps += 1


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
    steps tabulate it (:attr:`~mancala_spec.fast.ba_awa.many.BaAwaBatch.decide`).

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
        self.endless_illegal = game.options["endless"] is Endless.ILLEGAL
        self.owners_take = game.options["no_move"] is NoMove.OWNERS
        self.add_counts = adder(self.players)      # captured + won, player by player
        #: ``paths[origin][seeds]``: the pits a lap sows (ba-awa-sow, ba-awa-origin)
        self.paths: PathTable = lap_paths(self.sow_next, game.total_seeds)
        #: ``lap_end[origin][seeds]``: the pit of the lap's last seed
        self.lap_end = tuple(tuple(last for _, last in row) for row in self.paths)
        # ba-awa-choose: the pits each player chooses from: those they own
        # (choose="owned"), or those of their row, whoever owns them (choose="row")
        if game.options["choose"] is Choose.ROW:
            half = self.size // 2
            self.choice: tuple[tuple[int, ...], ...] = (tuple(range(half)),
                                                        tuple(range(half, self.size)))
        else:
            self.choice = self.owned
        # The legal moves and sowings (see moves) of the last (pits, player) asked
        # about (a move asks for the next player's, playing one asks again), and
        # of the (pits, player) met with more than remember_above seeds on the
        # board, up to CACHE
        # a lap of as many seeds as pits or more passes each pit once a round
        # of this many pits (ba-awa-origin: skip_origin passes over the origin)
        period = self.size - 1 if game.options["skip_origin"] else self.size
        self._tables = (self.paths, self.lap_end, self.owners, self.players, self.nobody,
                        self.size, period)     # (what _ending reads, fetched in one go)
        self._memo_key: Key = ((), -1)
        self._memo: dict[int, Sown | None] = {}
        self._memo_seeds = 0                   # the seeds on the board of _memo_key
        self._cache: dict[Key, dict[int, Sown | None]] = {}
        #: the positions remembered across games are those with more seeds than
        #: this on the board (at most :data:`REMEMBERED_CAPTURES` of the game's
        #: seeds captured): random games from the start share their first
        #: positions but rarely meet a later one again (200 random games met
        #: positions with more captured 1,630 times, 51 of them a position met
        #: before), while every position remembered costs the garbage collector
        #: time (remembering them all, a tenth of those games' time). A search,
        #: which meets its positions again at every depth, sets it to -1:
        #: every position is remembered.
        self.remember_above = game.total_seeds - int(game.total_seeds * REMEMBERED_CAPTURES)

    def forget(self) -> None:
        super().forget()
        self._memo_key, self._memo, self._memo_seeds = ((), -1), {}, 0
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
                moves[pit] = sow_along(pits, pit, player, paths=self.paths, owners=self.owners,
                                       players=self.players)[:3]
        return moves  # type: ignore[return-value]

    def moves(self, pits: Pits, player: int) -> dict[int, Sown | None]:
        """*player*'s legal moves on *pits*, in pit order, each with its sowing,
        or ``None`` for one not sown yet (:meth:`play` sows it): legal whether it
        ends or not (``endless="stop"``), or known to end within three laps of
        fewer seeds than pits (see :meth:`_ending`).
        Remembered (see ``__init__``) until :meth:`forget`; do not change it."""
        memo_pits, memo_player = self._memo_key
        if player == memo_player and (pits is memo_pits or pits == memo_pits):
            return self._memo
        key = (pits, player)
        seeds = sum(pits)
        remember = seeds > self.remember_above
        memo = self._cache.get(key) if remember else None
        if memo is None:
            memo = self._moves_of(key, remember)
        self._memo, self._memo_key, self._memo_seeds = memo, key, seeds
        return memo

    def _moves_of(self, key: Key, remember: bool) -> dict[int, Sown | None]:
        """:meth:`moves` of ``key = (pits, player)``, not remembered yet: now
        remembered if *remember*."""
        pits, player = key
        # ba-awa-choose: any pit the player chooses from that holds seeds ...
        choice = self.choice[player]
        memo: dict[int, Sown | None]
        if not self.endless_illegal:
            memo = {pit: None for pit in choice if pits[pit]}
        else:
            memo = self._ending(pits, player, choice)
        if remember:
            if len(self._cache) >= CACHE:
                self._cache.clear()
            self._cache[key] = memo
        return memo

    def _ending(self, pits: Pits, player: int, choice: Sequence[int]
                ) -> dict[int, Sown | None]:
        """ba-awa-endless (endless="illegal"): the pits of *choice* that hold
        seeds and whose sowing ends, for :meth:`moves`. A sowing whose first,
        second or third lap ends the move (its last seed falls in a pit that
        held one of :data:`ENDS_MOVE`), each lap of fewer seeds than pits, is
        known to end without sowing it (``None``: :meth:`play` sows it if
        played): such a lap sows each pit after its origin once, so only the
        pit it ends in is followed: what it held at the start, emptied if it
        was lifted (the first origin, or a lap's end, whose seeds the next lap
        sows), one more for each earlier lap that passed it, emptied when that
        made four (ba-awa-owner-four). A first lap of more seeds, which goes
        round the board, ends the move the same way, its last pit passed once a
        round before the last seed falls. Any other pit is sown in full."""
        memo: dict[int, Sown | None] = {}
        paths, ends, owners, players, nobody, size, period = self._tables
        ends_move = ENDS_MOVE
        for pit in choice:
            seeds = pits[pit]
            if not seeds:
                continue
            if seeds < size:           # a short lap: one seed in each pit after *pit*
                last = ends[pit][seeds]
                held = pits[last]                    # what its last pit held
                if held in ends_move:
                    memo[pit] = None                 # it ends with this lap
                    continue
                relay = held + 1
                if relay < size:                     # a second short lap, to *second*:
                    second = ends[last][relay]
                    held = pits[second]              # what it held then
                    if second == pit:                # (the first lap's origin, emptied)
                        held = 0
                    elif (second - pit) % size < seeds:   # (sown in the first lap)
                        held = 0 if held == FOUR - 1 else held + 1
                    if held in ends_move:
                        memo[pit] = None             # it ends with the second lap
                        continue
                    if held + 1 < size:              # a third short lap, to *third*:
                        third = ends[second][held + 1]
                        if third == last:            # (the second lap's origin, emptied)
                            held = 0
                        else:
                            held = 0 if third == pit else pits[third]
                            if 0 < (third - pit) % size < seeds:  # (sown in the first lap)
                                held = 0 if held == FOUR - 1 else held + 1
                            if (third - last) % size < relay:     # (sown in the second)
                                held = 0 if held == FOUR - 1 else held + 1
                        if held in ends_move:
                            memo[pit] = None         # it ends with the third lap
                            continue
            else:                      # a long first lap: it passes its last pit
                last = ends[pit][seeds]    # once a round before the last seed falls
                held = 0 if last == pit else pits[last]
                passes = (seeds - 1) // period
                held = held + passes if held >= FOUR else (held + passes) % FOUR
                if held in ends_move:
                    memo[pit] = None                 # it ends with this lap
                    continue
            # (sow_along, its quick first try spelt out: a call less; positional
            # arguments, as in play: the kernel's busiest calls, where keywords
            # cost about 1-2 % of Ba-awa's playouts)
            after, won, took, _, endless = (_sow(pits, pit, player, paths, owners, nobody)
                                            or sow_along(pits, pit, player, paths, owners,
                                                         players))
            if not endless:
                memo[pit] = (after, won, took)
        return memo

    def play(self, state: State, pit: int) -> State:
        try:                          # (costs nothing unless it fails)
            pits, mover, captured, history, moves = state
            playable = pit in moves and pit.__class__ is int   # not 0.0, True, 0j
        except (TypeError, ValueError):
            raise self.illegal(checked_state(state), pit) from None
        if not playable:
            raise self.illegal(checked_state(state), pit)
        seen = self._memo_key          # (pits, mover), whose moves(pits, mover) ...
        if seen[0] is pits and seen[1] == mover:
            legal = self._memo         # ... were remembered last
        else:
            legal, seen = self.moves(pits, mover), (pits, mover)
        seeds = self._memo_seeds       # (on the board: sum(pits), remembered)
        sown = legal[pit]
        if sown is None:
            after, won, took, _, _ = (
                _sow(pits, pit, mover, self.paths, self.owners, self.nobody)
                or sow_along(pits, pit, mover, self.paths, self.owners, self.players))
            sown = legal[pit] = (after, won, took)
        after, won, took = sown
        if took:
            if self.players == 2:     # (the common case, spelt out: a call less)
                captured = (captured[0] + won[0], captured[1] + won[1])
                seeds -= won[0] + won[1]
            else:
                captured = self.add_counts(captured, won)
                seeds -= sum(won)
        # ba-awa-repetition: the positions seen since the last capture
        history = () if took else history + (seen,)
        turns = self.turns[mover]
        # ba-awa-eight, ba-awa-eight-timing: after a complete move, eight seeds or
        # fewer on the board go to the opener, and the game is over.
        if seeds <= EIGHT:
            return self._finish(after, turns[0], captured, owners=None, ending=EIGHT_SEEDS)
        # ba-awa-turns, ba-awa-three-turns: the next player moves, if they can
        # (ba-awa-no-move: if not, no_move decides who does, if anybody)
        to_move = turns[0]
        key = (after, to_move)       # (moves(after, to_move), spelt out: a call less)
        if seeds > self.remember_above:
            following = self._cache.get(key)
            if following is None:
                following = self._moves_of(key, True)
        elif self.endless_illegal:   # (_moves_of(key, False), spelt out: a call less)
            following = self._ending(after, to_move, self.choice[to_move])
        else:
            following = self._moves_of(key, False)
        self._memo, self._memo_key, self._memo_seeds = following, key, seeds
        if not following:
            decided = no_move(turns, lambda player: bool(self.moves(after, player)),
                              self.owners_take)
            if decided == OWNERS_KEEP:
                return self._finish(after, to_move, captured, owners=self.owners, ending=NO_MOVE)
            if decided == OPENER_TAKES:
                return self._finish(after, to_move, captured, owners=None, ending=NO_MOVE)
            to_move = int(decided)
            following, key = self.moves(after, to_move), (after, to_move)
        # ba-awa-repetition: a whole position seen before: the opener takes what remains
        if key in history:
            return self._finish(after, turns[0], captured, owners=None, ending=REPETITION)
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

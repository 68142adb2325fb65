"""Ba-awa by experiment: endless sowing, recurring positions, long moves, and
the opening player's advantage.

Everything here is a plain function with its sizes and seeds as parameters, so
that every figure on the analysis page can be recomputed:

* :func:`sow_laps` sows one move and says how many laps it takes and whether
  it never ends (the rules of :mod:`mancala_spec.engine.games.ba_awa`, without
  captures' owners, which do not change where seeds go);
* :func:`exhaustive` sows from every distribution of *n* seeds on the twelve
  pits, every non-empty pit in turn: how many sowings never end, and the
  longest that does;
* :func:`play_games` plays games between two random or two greedy players
  with the fast path (:mod:`mancala_spec.fast`): who wins, how often a
  position offers an endless sowing, the longest move, how games end;
* :func:`find_recurrence` and :func:`recurrence_search` look for moves that
  bring a whole position back, and :func:`describe_repetition` replays a game
  that ended that way with the traced engine;
* :func:`wilson` gives the 95 % Wilson score interval of a proportion.

Command line (prints the tables in Markdown and how long each took)::

    python -m mancala_spec.analysis --quick      # the sizes the rules site builds with
    python -m mancala_spec.analysis              # the larger run the analysis page quotes

As a Sphinx extension (``"mancala_spec.analysis"`` in ``extensions``) it adds
the ``analysis-table`` and ``analysis-figure`` directives, which run these
functions when the page is read::

    ```{analysis-table} opener
    :games: 4000
    :greedy-games: 800
    :seed: 2026
    ```

>>> sow_laps((4,) * 12, 0)            # the opening move from a: five laps
(5, False)
>>> sow_laps((0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1), 10)   # nine seeds: never ends
(72, True)
>>> low, high = wilson(50, 100)
>>> round(low, 4), round(high, 4)
(0.4038, 0.5962)
"""
from __future__ import annotations

import argparse
import functools
import hashlib
import math
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

from ..engine.games import get_game
from ..fast import FastGame, sow
from ..fast.tables import NextTable, sowing_next
from ..notation import format_game, format_pits, parse_game

SIZE = 12                       #: Ba-awa's playing pits
ROWS = (0,) * 6 + (1,) * 6      #: who owns each pit (it does not change where seeds go)
Z95 = 1.959963984540054         #: the normal quantile of a two-sided 95 % interval

#: The engine options compared: the defaults, then each editorial alternative alone.
CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "skip_origin": {"skip_origin": True},
    "endless-stop": {"endless": "stop"},
    "no-move-owners": {"no_move": "owners"},
}
POLICIES = ("random", "greedy")


# -- statistics ------------------------------------------------------------------


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of the proportion
    *successes* / *trials* (95 % by default; ``(0, 1)`` when there are no trials).

    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 4)
    (0.0, 0.2775)
    """
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and {trials}, not {successes}")
    share = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (share + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)      # exact at the ends
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def share_text(successes: int, trials: int) -> str:
    """A share with its 95 % Wilson interval, in percent, with enough decimals
    to show the interval's end nearest 0 % or 100 % to two significant digits.

    >>> share_text(602, 1000), share_text(2, 48521), share_text(999, 1000)
    ('60.2% (57.1–63.2)', '0.004% (0.001–0.015)', '99.90% (99.44–99.98)')
    """
    low, high = wilson(successes, trials)
    share = successes / trials if trials else 0.0
    margin = min(100 * high, 100 - 100 * low)
    decimals = max(1, 1 - math.floor(math.log10(margin))) if margin > 0 else 1
    return (f"{100 * share:.{decimals}f}% "
            f"({100 * low:.{decimals}f}–{100 * high:.{decimals}f})")


# -- one sowing, counted in laps ------------------------------------------------------


def sow_laps(pits: tuple[int, ...], pit: int, skip_origin: bool = False) -> tuple[int, bool]:
    """Sow Ba-awa pit *pit* of the board *pits*; return ``(laps, endless)``.

    *laps* counts the laps sown (1 for a move without relay); *endless* is true
    when a lap would start again from a board and pit already seen in this
    move, so that the sowing repeats forever (rule ``ba-awa-endless``); *laps*
    is then the number of laps sown before the repetition, as the engine counts
    them with ``endless="stop"``. It is the
    kernel's own sowing (:func:`mancala_spec.fast.ba_awa.sow`): where seeds go,
    and whether the sowing ends, do not depend on who owns a pit or who moves,
    so neither is a parameter.
    """
    laps, endless = sow(tuple(pits), pit, 0, _sowing_next(skip_origin), ROWS)[3:]
    return laps, endless


@functools.cache
def _sowing_next(skip_origin: bool) -> NextTable:
    return sowing_next(SIZE, skip_origin)


# -- every distribution of n seeds ----------------------------------------------------


def compositions(total: int, parts: int):
    """Every tuple of *parts* non-negative integers summing to *total*
    (stars and bars, in a fixed order).

    >>> list(compositions(2, 2))
    [(0, 2), (1, 1), (2, 0)]
    """
    if parts == 1:
        yield (total,)
        return
    bars = total + parts - 1
    for cuts in combinations(range(bars), parts - 1):
        previous = -1
        out = []
        for cut in cuts:
            out.append(cut - previous - 1)
            previous = cut
        out.append(bars - previous - 1)
        yield tuple(out)


@dataclass(frozen=True)
class EndlessCount:
    """What :func:`exhaustive` found for one seed count.

    ``positions`` is the number of distributions of ``seeds`` seeds on the
    twelve pits, ``pairs`` the number of (distribution, non-empty pit) pairs,
    ``endless`` how many of those pairs sow forever. ``example`` is the
    lexicographically smallest endless board with pit 0 (South's a) played,
    ``longest`` the most laps of a sowing that ends, and ``longest_example``
    the smallest board (pit 0 played) that takes that many.
    """

    seeds: int
    skip_origin: bool
    positions: int
    pairs: int
    endless: int
    example: tuple[int, ...] | None
    longest: int
    longest_example: tuple[int, ...] | None


def _exhaustive_chunk(task: tuple[int, int, int, bool]) -> tuple:
    """Sow pit 0 of every board with ``first`` seeds in pit 0, ``second`` in
    pit 1 and ``seeds`` in all; return (count, endless, smallest endless board,
    longest laps, smallest board taking them)."""
    seeds, first, second, skip_origin = task
    count = endless = longest = 0
    example = longest_example = None
    head = (first, second)
    for rest in compositions(seeds - first - second, SIZE - 2):
        pits = head + rest
        count += 1
        laps, forever = sow_laps(pits, 0, skip_origin)
        if forever:
            endless += 1
            if example is None or pits < example:
                example = pits
        elif laps >= longest:
            if laps > longest or pits < longest_example:
                longest, longest_example = laps, pits
    return count, endless, example, longest, longest_example


def exhaustive(seeds: int, skip_origin: bool = False, processes: int = 1) -> EndlessCount:
    """Sow every non-empty pit of every distribution of *seeds* seeds on the
    twelve pits, and count the sowings that never end.

    Where seeds go and whether a sowing ends depend only on the board and the
    pit played, and the same rules apply at every pit: sowing pit *k* of a board
    is sowing pit 0 of the board turned *k* pits. So only pit 0 is sown, on every
    board whose pit 0 holds seeds, and each count is multiplied by twelve (the
    test suite checks this against sowing every pit). *processes* > 1 shares the
    work among that many processes.

    >>> row = exhaustive(9)
    >>> row.pairs, row.endless, row.example
    (906984, 72, (2, 0, 1, 0, 1, 0, 1, 0, 1, 0, 2, 1))
    """
    if seeds < 1:
        return EndlessCount(seeds, skip_origin, 1, 0, 0, None, 0, None)
    tasks = [(seeds, first, second, skip_origin)
             for first in range(1, seeds + 1) for second in range(seeds - first + 1)]
    tasks.sort(key=lambda task: -comb(task[0] - task[1] - task[2] + SIZE - 3, SIZE - 3))
    if processes > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            results = pool.map(_exhaustive_chunk, tasks, chunksize=1)
    else:
        results = [_exhaustive_chunk(task) for task in tasks]
    count = endless = longest = 0
    example = longest_example = None
    for n, e, ex, laps, lex in results:
        count += n
        endless += e
        if ex is not None and (example is None or ex < example):
            example = ex
        if lex is not None and (laps > longest or (laps == longest and lex < longest_example)):
            longest, longest_example = laps, lex
    assert count == comb(seeds - 1 + SIZE - 1, SIZE - 1)
    return EndlessCount(seeds, skip_origin, comb(seeds + SIZE - 1, SIZE - 1), SIZE * count,
                        SIZE * endless, example, longest, longest_example)


# -- policies ------------------------------------------------------------------------


def capture_margin(fast: FastGame, state: tuple, pit: int) -> int:
    """How much playing *pit* changes the mover's captured seeds minus the
    opponent's: every capture of the move, and the seeds handed out if the move
    ends the game."""
    mover, before = state[1], state[2]
    after = fast.play(state, pit)[2]
    return (after[mover] - before[mover]) - (after[1 - mover] - before[1 - mover])


def greedy_moves(fast: FastGame, state: tuple) -> list[int]:
    """The legal moves with the largest :func:`capture_margin`, in pit order."""
    best, moves = None, []
    for pit in fast.legal_moves(state):
        margin = capture_margin(fast, state, pit)
        if best is None or margin > best:
            best, moves = margin, [pit]
        elif margin == best:
            moves.append(pit)
    return moves


def choose(policy: str, fast: FastGame, state: tuple, rng: random.Random) -> int:
    """The move *policy* picks: ``"random"``, uniformly among the legal moves;
    ``"greedy"``, uniformly among the moves of largest capture margin."""
    if policy == "random":
        return rng.choice(fast.legal_moves(state))
    if policy == "greedy":
        return rng.choice(greedy_moves(fast, state))
    raise ValueError(f"unknown policy {policy!r}: use one of {', '.join(POLICIES)}")


# -- playing many games --------------------------------------------------------------


@dataclass
class PlayResult:
    """What :func:`play_games` counted. Outcomes are from the opener's side:
    ``opener`` (the opener captured more), ``draw``, ``second``."""

    config: str
    policy: str
    games: int
    seed: int
    outcomes: Counter = field(default_factory=Counter)
    moves: int = 0
    positions: int = 0                  #: positions with a player to move
    endless_positions: int = 0          #: ... where one of the mover's pits sows forever
    games_with_endless: int = 0
    endless_pits: int = 0               #: endless (position, pit) pairs met
    sowings: int = 0                    #: (position, non-empty pit of the mover) pairs
    longest: int = 0                    #: most laps of a finite sowing available
    #: where: (game number, position text without history, pit name)
    longest_example: tuple[int, str, str] | None = None
    longest_played: int = 0             #: most laps of a finite move actually played
    endless_played: int = 0             #: endless moves played (only with endless="stop")
    laps_played: Counter = field(default_factory=Counter)
    end_reasons: Counter = field(default_factory=Counter)
    #: the games that ended by repetition: (game number, moves as pit indices)
    repetitions: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)

    def merge(self, other: PlayResult) -> None:
        """Add the counts of *other*, a run of other game numbers."""
        self.outcomes.update(other.outcomes)
        self.laps_played.update(other.laps_played)
        self.end_reasons.update(other.end_reasons)
        for name in ("moves", "positions", "endless_positions", "games_with_endless",
                     "endless_pits", "sowings", "endless_played"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.longest_played = max(self.longest_played, other.longest_played)
        if other.longest_example and (
                other.longest > self.longest or (other.longest == self.longest and
                                                 other.longest_example < self.longest_example)):
            self.longest, self.longest_example = other.longest, other.longest_example
        self.repetitions = sorted(self.repetitions + other.repetitions)


def end_reason(fast: FastGame, state: tuple, pit: int) -> str:
    """Why playing *pit* from *state* ends the game, as the traced engine says
    (``eight-seeds``, ``no-moves`` or ``repetition``)."""
    return fast.to_position(state).trace(pit).events[-1].reason


def game_rng(seed: int, number: int) -> random.Random:
    """The random numbers of game *number* of a run with *seed*: each game has
    its own, so a run of fewer games plays the same first games."""
    return random.Random(f"ba-awa {seed} {number}")


def _in_processes(func, config: str, policy: str, games: int, seed: int, first: int,
                  processes: int) -> list:
    """Share games *first*… among *processes* processes, each running *func* on
    its slice; return the parts in game order (games draw from ``game_rng``, so
    the split does not change them)."""
    import multiprocessing

    share = -(-games // processes)
    tasks = [(config, policy, min(share, games - start), seed, first + start)
             for start in range(0, games, share)]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        return pool.starmap(func, tasks)


def play_games(config: str = "default", policy: str = "random", games: int = 1000,
               seed: int = 2026, first: int = 0, processes: int = 1) -> PlayResult:
    """Play games number *first* … *first* + *games* − 1 of Ba-awa with the
    options ``CONFIGS[config]``, both players following *policy* (see
    :func:`choose`), South opening, game *k* drawing its moves from
    :func:`game_rng(seed, k) <game_rng>`.

    At every position with a player to move it also sows each of that player's
    non-empty pits with :func:`sow_laps`, to count the positions where a pit
    sows forever and the longest sowing that ends; the reason each game ended
    comes from the traced engine (:func:`end_reason`). *processes* > 1 shares
    the games among that many processes (the result is the same).
    """
    if processes > 1 and games > 1:
        parts = _in_processes(play_games, config, policy, games, seed, first, processes)
        result = PlayResult(config, policy, games, seed)
        for part in parts:
            result.merge(part)
        return result
    game = get_game("ba-awa", **CONFIGS[config])
    fast = FastGame(game)
    skip = game.options["skip_origin"]
    result = PlayResult(config, policy, games, seed)
    owned = fast.owned
    name = game.board.name
    for number in range(first, first + games):
        rng = game_rng(seed, number)
        state = fast.start()
        endless_game = False
        played = []
        while True:
            pits, mover = state[0], state[1]
            result.positions += 1
            laps_of = {}
            endless_here = False
            for pit in owned[mover]:
                if pits[pit]:
                    laps, forever = sow_laps(pits, pit, skip)
                    result.sowings += 1
                    laps_of[pit] = None if forever else laps
                    if forever:
                        endless_here = True
                        result.endless_pits += 1
                    elif laps > result.longest:
                        result.longest = laps
                        text = fast.to_position(state).to_text().split(" seen=")[0]
                        result.longest_example = (number, text, name(pit))
            if endless_here:
                result.endless_positions += 1
                endless_game = True
            pit = choose(policy, fast, state, rng)
            played.append(pit)
            laps = laps_of[pit]
            if laps is None:           # endless="stop": an endless move was played
                result.endless_played += 1
            else:
                result.laps_played[laps] += 1
                result.longest_played = max(result.longest_played, laps)
            result.moves += 1
            after = fast.play(state, pit)
            if fast.is_over(after):
                reason = end_reason(fast, state, pit)
                result.end_reasons[reason] += 1
                if reason == "repetition":
                    result.repetitions.append((number, tuple(played)))
                break
            state = after
        result.games_with_endless += endless_game
        winner = fast.winner(after)
        result.outcomes["draw" if winner is None else
                        "opener" if winner == fast.opener else "second"] += 1
    return result


@dataclass
class Endings:
    """How the games of :func:`count_endings` ended."""

    config: str
    policy: str
    games: int
    seed: int
    reasons: Counter = field(default_factory=Counter)
    #: the games that ended by repetition: (game number, moves as pit indices)
    repetitions: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)


def count_endings(config: str = "default", policy: str = "random", games: int = 1000,
                  seed: int = 2026, first: int = 0, processes: int = 1) -> Endings:
    """Play the same games as :func:`play_games` (game *k* draws from
    :func:`game_rng(seed, k) <game_rng>`), counting only how they end: for runs
    large enough to meet the rare repetition."""
    if processes > 1 and games > 1:
        parts = _in_processes(count_endings, config, policy, games, seed, first, processes)
        result = Endings(config, policy, games, seed)
        for part in parts:
            result.reasons.update(part.reasons)
            result.repetitions += part.repetitions
        result.repetitions.sort()
        return result
    fast = FastGame(get_game("ba-awa", **CONFIGS[config]))
    result = Endings(config, policy, games, seed)
    for number in range(first, first + games):
        rng = game_rng(seed, number)
        state = fast.start()
        played = []
        while True:
            pit = choose(policy, fast, state, rng)
            played.append(pit)
            after = fast.play(state, pit)
            if fast.is_over(after):
                break
            state = after
        reason = end_reason(fast, state, pit)
        result.reasons[reason] += 1
        if reason == "repetition":
            result.repetitions.append((number, tuple(played)))
    return result


@functools.lru_cache(maxsize=64)
def cached_play(config: str, policy: str, games: int, seed: int,
                processes: int = 1) -> PlayResult:
    """:func:`play_games`, remembered (the page's tables and figures share runs)."""
    return play_games(config, policy, games, seed, processes=processes)


# -- recurring positions --------------------------------------------------------------


def capture_free_moves(fast: FastGame, pits: tuple[int, ...], mover: int) -> list[tuple]:
    """The moves of *mover* on *pits* that capture nothing and leave the game
    going, each as ``(pit, (pits after, player to move next))``: the only moves
    after which an earlier position can come back (a capture clears the history)."""
    moves = []
    for pit, (after, _won, took) in list(fast.sowings(pits, mover).items()):
        if took:
            continue
        other = 1 - mover
        if fast.sowings(after, other):
            moves.append((pit, (after, other)))
        elif fast.owners_take:
            continue                 # no_move="owners": the game ends
        elif fast.sowings(after, mover):
            moves.append((pit, (after, mover)))
    return moves


def _search_cycle(fast: FastGame, state: tuple, budget: int):
    """Depth-first search behind :func:`find_recurrence`: ``(moves, position)``,
    the position being the one that recurs; or ``False`` / ``None``."""
    root = (state[0], state[1])
    history = set(state[3])
    colour = {root: 1}           # 1: on the current path, 2: finished
    path: list[tuple] = [(root, None, iter(capture_free_moves(fast, *root)))]
    while path:
        node, _, moves = path[-1]
        for pit, following in moves:
            mark = colour.get(following)
            if mark == 1 or following in history:
                return [entry[1] for entry in path[1:]] + [pit], following
            if mark is None:
                if len(colour) >= budget:
                    return None
                colour[following] = 1
                path.append((following, pit, iter(capture_free_moves(fast, *following))))
                break
        else:
            colour[node] = 2
            path.pop()
    return False


def find_recurrence(fast: FastGame, state: tuple, budget: int = 3000) -> list[int] | None | bool:
    """Look for moves from *state* that bring back a position seen since the
    last capture (so the game ends by ``ba-awa-repetition``).

    A depth-first search over the moves that capture nothing
    (:func:`capture_free_moves`): a move back to a position on the current path,
    or to one in the state's history, is a recurrence. Returns the moves (pit
    indices) from *state* to the recurrence; ``False`` if none exists (every
    position reachable without a capture was searched); ``None`` if the search
    stopped after *budget* positions without finding one.
    """
    found = _search_cycle(fast, state, budget)
    return found[0] if found else found


@dataclass
class RecurrenceResult:
    """What :func:`recurrence_search` found, by seeds on the board:
    ``found[n]`` positions from which a recurrence can be reached,
    ``none[n]`` positions from which none can, ``undecided[n]`` positions
    where the search stopped at its budget."""

    config: str
    games: int
    seed: int
    budget: int
    found: Counter = field(default_factory=Counter)
    none: Counter = field(default_factory=Counter)
    undecided: Counter = field(default_factory=Counter)

    @property
    def seed_counts(self) -> list[int]:
        """The seed counts met, most first."""
        return sorted(set(self.found) | set(self.none) | set(self.undecided), reverse=True)


def recurrence_search(config: str = "default", games: int = 100, seed: int = 2026,
                      budget: int = 3000, first: int = 0, processes: int = 1) -> RecurrenceResult:
    """At every position of random games number *first* … *first* + *games* − 1
    (game *k*'s moves from :func:`game_rng(seed, k) <game_rng>`, the same games
    as :func:`play_games` with ``policy="random"``), run :func:`find_recurrence`
    with *budget*."""
    if processes > 1 and games > 1:
        import multiprocessing
        share = -(-games // processes)
        tasks = [(config, min(share, games - start), seed, budget, first + start)
                 for start in range(0, games, share)]
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            parts = pool.starmap(recurrence_search, tasks)
        result = RecurrenceResult(config, games, seed, budget)
        for part in parts:
            result.found.update(part.found)
            result.none.update(part.none)
            result.undecided.update(part.undecided)
        return result
    fast = FastGame(get_game("ba-awa", **CONFIGS[config]))
    result = RecurrenceResult(config, games, seed, budget)
    for number in range(first, first + games):
        rng = game_rng(seed, number)
        state = fast.start()
        while not fast.is_over(state):
            found = find_recurrence(fast, state, budget)
            tally = (result.undecided if found is None else
                     result.none if found is False else result.found)
            tally[sum(state[0])] += 1
            state = fast.play(state, choose("random", fast, state, rng))
    return result


@dataclass(frozen=True)
class Repetition:
    """A game that ended because a whole position recurred, replayed with the
    traced engine (see :func:`describe_repetition`)."""

    record: str       #: the game record (:mod:`mancala_spec.notation`)
    moves: int        #: moves played
    seeds: int        #: seeds on the board when the position recurred
    cycle: int        #: moves from the position's first occurrence to its recurrence
    recurring: str    #: the recurring position: pits and player to move
    reason: str       #: why the traced engine ended the game


def describe_repetition(config: str, moves) -> Repetition:
    """Replay *moves* (pit indices) from the start with the traced engine and
    describe the end; the game must end with its last move."""
    game = get_game("ba-awa", **CONFIGS[config])
    record = format_game(game.start(), moves)
    positions = parse_game(record).positions                  # the traced engine
    if not positions[-1].is_over or any(pos.is_over for pos in positions[:-1]):
        raise ValueError("the moves must end the game with the last one")
    before = positions[-2]
    trace = before.trace(moves[-1])
    # the position the last move left, before the end of the game cleared the
    # board: the sowing's board, and the player whose turn it would have been
    board = list(before.pits)
    for event in trace.events:
        if event.kind == "end-of-move":
            break
        if event.kind in ("pick-up", "relay", "capture"):
            board[event.pit] -= event.seeds
        elif event.kind == "drop":
            board[event.pit] = event.count
    passed = {event.player for event in trace.events if event.kind == "pass"}
    to_move = before.to_move if 1 - before.to_move in passed else 1 - before.to_move
    key = (tuple(board), to_move)
    first = next((i for i, pos in enumerate(positions[:-1]) if pos.key == key), None)
    return Repetition(record, len(moves), sum(board),
                      len(moves) - first if first is not None else 0,
                      f"{format_pits(board, 6)} {'SN'[to_move]}", trace.events[-1].reason)


# -- tables ------------------------------------------------------------------------

Table = tuple[list[str], list[list[str]]]


def _label(config: str) -> str:
    return f"`{get_game('ba-awa', **CONFIGS[config])!r}`"


def _runs(games: int, greedy_games: int):
    return (("random", games), ("greedy", greedy_games))


def opener_table(games: int, greedy_games: int, seed: int, processes: int = 1) -> Table:
    """The opener's wins, draws and losses under each option set and policy."""
    header = ["game and options", "policy", "games", "opener wins", "draws",
              "second player wins", "moves per game"]
    rows = []
    for config in CONFIGS:
        for policy, n in _runs(games, greedy_games):
            r = cached_play(config, policy, n, seed, processes)
            rows.append([_label(config), policy, f"{n:,}",
                         share_text(r.outcomes["opener"], n), share_text(r.outcomes["draw"], n),
                         share_text(r.outcomes["second"], n), f"{r.moves / n:.2f}"])
    return header, rows


def in_play_table(games: int, greedy_games: int, seed: int, processes: int = 1) -> Table:
    """Endless sowings, long moves and repetitions in the positions reached."""
    header = ["game and options", "policy", "positions", "with an endless pit",
              "games meeting one", "endless moves played", "longest finite move (laps)",
              "longest move played", "games ended by repetition"]
    rows = []
    for config in CONFIGS:
        for policy, n in _runs(games, greedy_games):
            r = cached_play(config, policy, n, seed, processes)
            rows.append([_label(config), policy, f"{r.positions:,}",
                         f"{r.endless_positions:,}: "
                         + share_text(r.endless_positions, r.positions),
                         f"{r.games_with_endless:,}", f"{r.endless_played:,}", str(r.longest),
                         str(r.longest_played),
                         f"{r.end_reasons['repetition']:,}"])
    return header, rows


def longest_table(games: int, greedy_games: int, seed: int, processes: int = 1) -> Table:
    """Where each run met its longest finite move first."""
    header = ["game and options", "policy", "laps", "game number", "position", "pit"]
    rows = []
    for config in CONFIGS:
        for policy, n in _runs(games, greedy_games):
            r = cached_play(config, policy, n, seed, processes)
            number, text, pit = r.longest_example
            rows.append([_label(config), policy, str(r.longest), str(number), f"`{text}`", pit])
    return header, rows


def endings_table(endings: Endings) -> Table:
    """How a :func:`count_endings` run's games ended."""
    header = ["game and options", "policy", "games", "end of game", "games ending so"]
    rows = [[_label(endings.config), endings.policy, f"{endings.games:,}", f"`{reason}`",
             f"{count:,}: " + share_text(count, endings.games)]
            for reason, count in sorted(endings.reasons.items(), key=lambda item: -item[1])]
    if "repetition" not in endings.reasons:
        rows.append([_label(endings.config), endings.policy, f"{endings.games:,}",
                     "`repetition`", "0: " + share_text(0, endings.games)])
    return header, rows


def repetition_table(endings: Endings) -> Table:
    """The games of a :func:`count_endings` run that ended by repetition,
    replayed by the traced engine."""
    header = ["game and options", "policy", "game number", "moves", "seeds", "cycle (moves)",
              "recurring position", "end (traced engine)"]
    rows = []
    for number, moves in endings.repetitions:
        rep = describe_repetition(endings.config, moves)
        line = rep.record.strip().splitlines()[-1].removeprefix("moves:").strip()
        rows.append([_label(endings.config), endings.policy, str(number), f"`{line}`",
                     str(rep.seeds), str(rep.cycle), f"`{rep.recurring}`", f"`{rep.reason}`"])
    return header, rows


@functools.lru_cache(maxsize=64)
def cached_exhaustive(seeds: int, skip_origin: bool, processes: int = 1) -> EndlessCount:
    """:func:`exhaustive`, remembered."""
    return exhaustive(seeds, skip_origin, processes)


def _board_text(pits: tuple[int, ...] | None) -> str:
    return "—" if pits is None else f"`{format_pits(pits, 6)}`"


def exhaustive_table(seed_counts, skip_options=(False, True), processes: int = 1) -> Table:
    """:func:`exhaustive` for each seed count, without and with ``skip_origin``;
    the example boards (pit a played) are those without it."""
    header = ["seeds", "boards", "(board, pit) pairs"]
    for skip in skip_options:
        suffix = ", skip_origin" if skip else ""
        header += [f"endless{suffix}", f"longest finite (laps){suffix}"]
    header += ["first endless board, a played", "first longest board, a played"]
    rows = []
    for seeds in seed_counts:
        results = [cached_exhaustive(seeds, skip, processes) for skip in skip_options]
        row = [str(seeds), f"{results[0].positions:,}", f"{results[0].pairs:,}"]
        for r in results:
            row += [f"{r.endless:,}", str(r.longest)]
        row += [_board_text(results[0].example), _board_text(results[0].longest_example)]
        rows.append(row)
    return header, rows


def recurrence_table(result: RecurrenceResult) -> Table:
    """:func:`recurrence_search` by seeds on the board."""
    header = ["seeds on the board", "positions searched", "a recurrence can follow",
              "none can", f"undecided after {result.budget:,} positions"]
    rows = []
    for seeds in result.seed_counts:
        found, none, undecided = (result.found[seeds], result.none[seeds],
                                  result.undecided[seeds])
        rows.append([str(seeds), f"{found + none + undecided:,}", f"{found:,}", f"{none:,}",
                     f"{undecided:,}"])
    return header, rows


def markdown(table: Table) -> str:
    """A table as Markdown (a pipe table)."""
    header, rows = table
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


# -- figures -------------------------------------------------------------------------

OUTCOMES = (("opener", "opener wins"), ("draw", "draw"), ("second", "second player wins"))
_SHORT = {"default": "defaults", "skip_origin": "skip_origin\n=True",
          "endless-stop": 'endless\n="stop"', "no-move-owners": 'no_move\n="owners"'}


def opener_figure(games: int, greedy_games: int, seed: int, processes: int = 1):
    """Bars of the opener's outcomes, with 95 % Wilson intervals, for each option
    set and policy (a :class:`matplotlib.figure.Figure`)."""
    from matplotlib.figure import Figure

    from ..diagrams import OKABE_ITO

    colours = (OKABE_ITO["blue"], OKABE_ITO["yellow"], OKABE_ITO["vermillion"])
    hatches = ("", "..", "///")
    figure = Figure(figsize=(8, 4.4), layout="constrained")
    axes = figure.subplots(1, 2, sharey=True)
    for ax, (policy, n) in zip(axes, _runs(games, greedy_games)):
        for index, config in enumerate(CONFIGS):
            r = cached_play(config, policy, n, seed, processes)
            for k, (key, label) in enumerate(OUTCOMES):
                share = r.outcomes[key] / n
                low, high = wilson(r.outcomes[key], n)
                x = index + (k - 1) * 0.27
                ax.bar(x, share, width=0.25, color=colours[k], hatch=hatches[k],
                       edgecolor="black", linewidth=0.6, label=label if index == 0 else None)
                ax.errorbar(x, share, yerr=[[share - low], [high - share]], color="black",
                            capsize=2.5, linewidth=0.9)
        ax.set_xticks(range(len(CONFIGS)), [_SHORT[c] for c in CONFIGS], fontsize=8)
        ax.set_title(f"{policy} play, {n:,} games each", fontsize=10)
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
        ax.grid(axis="y", linewidth=0.4, alpha=0.6)
    axes[0].set_ylabel("share of games (95 % Wilson interval)")
    axes[0].legend(loc="upper right", fontsize=8)
    figure.suptitle(f"Ba-awa: the opener's results (seed {seed})", fontsize=11)
    return figure


def laps_figure(games: int, greedy_games: int, seed: int, processes: int = 1):
    """How many laps the moves played took (default options), log scale."""
    from matplotlib.figure import Figure

    from ..diagrams import OKABE_ITO

    figure = Figure(figsize=(8, 3.4), layout="constrained")
    ax = figure.subplots()
    for k, (policy, n) in enumerate(_runs(games, greedy_games)):
        r = cached_play("default", policy, n, seed, processes)
        total = sum(r.laps_played.values())
        laps = sorted(r.laps_played)
        ax.bar([lap + (k - 0.5) * 0.4 for lap in laps],
               [r.laps_played[lap] / total for lap in laps], width=0.4,
               color=(OKABE_ITO["blue"], OKABE_ITO["orange"])[k], hatch=("", "///")[k],
               edgecolor="black", linewidth=0.5, label=f"{policy} play ({total:,} moves)")
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{100 * value:g}%"))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("laps of the move played")
    ax.set_ylabel("share of moves")
    ax.legend(fontsize=8)
    ax.grid(axis="y", linewidth=0.4, alpha=0.6)
    ax.set_title(f"Ba-awa, default options: laps per move (seed {seed})", fontsize=10)
    return figure


FIGURES = {"opener": opener_figure, "laps": laps_figure}


# -- command line -----------------------------------------------------------------------

#: The sizes the rules site is built with (``--quick``).
QUICK = {"games": 4000, "greedy_games": 800, "seed": 2026, "max_seeds": 12,
         "ending_games": 0, "recurrence_games": 0, "budget": 3000}
#: The sizes of the run the analysis page quotes (no flag).
FULL = {"games": 100_000, "greedy_games": 20_000, "seed": 2026, "max_seeds": 20,
        "ending_games": 1_000_000, "recurrence_games": 300, "budget": 3000}


def exhaustive_seed_counts(max_seeds: int) -> list[int]:
    """Every count up to 16, then the multiples of four (the counts play can reach).

    >>> exhaustive_seed_counts(24)[-4:]
    [15, 16, 20, 24]
    """
    return [n for n in range(1, max_seeds + 1) if n <= 16 or n % 4 == 0]


def main(argv: list[str] | None = None) -> int:
    """``python -m mancala_spec.analysis``: print every table, with timings."""
    parser = argparse.ArgumentParser(
        prog="python -m mancala_spec.analysis",
        description="Ba-awa by experiment: print the analysis page's tables (Markdown).")
    parser.add_argument("--quick", action="store_true",
                        help="the sizes the rules site builds with")
    parser.add_argument("--games", type=int, help="random games per option set")
    parser.add_argument("--greedy-games", type=int, help="greedy games per option set")
    parser.add_argument("--seed", type=int, help="seed of the move choices")
    parser.add_argument("--max-seeds", type=int, help="largest seed count searched exhaustively")
    parser.add_argument("--ending-games", type=int,
                        help="random games (default options) counted for how they end")
    parser.add_argument("--recurrence-games", type=int,
                        help="random games whose every position is searched for a recurrence")
    parser.add_argument("--budget", type=int, help="positions per recurrence search")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: one per core)")
    args = parser.parse_args(argv)
    sizes = dict(QUICK if args.quick else FULL)
    for key in sizes:
        if getattr(args, key, None) is not None:
            sizes[key] = getattr(args, key)
    games, greedy, seed = sizes["games"], sizes["greedy_games"], sizes["seed"]
    processes = max(1, args.processes)
    started = time.perf_counter()
    print(f"# Ba-awa by experiment\n\nmancala_spec {_version()}, Python "
          f"{sys.version.split()[0]}, {processes} processes, started "
          f"{time.strftime('%Y-%m-%d %H:%M')}; sizes: {sizes}\n", flush=True)

    def section(title: str, make) -> None:
        t0 = time.perf_counter()
        table = make()
        print(f"## {title}\n\n{markdown(table)}\n\n({time.perf_counter() - t0:.1f} s)\n",
              flush=True)

    counts = exhaustive_seed_counts(sizes["max_seeds"])
    section(f"Every board of 1 to {sizes['max_seeds']} seeds",
            lambda: exhaustive_table(counts, processes=processes))
    section(f"The opener's results (seed {seed})",
            lambda: opener_table(games, greedy, seed, processes))
    section("In play", lambda: in_play_table(games, greedy, seed, processes))
    section("Longest finite moves met in play",
            lambda: longest_table(games, greedy, seed, processes))
    if sizes["ending_games"]:
        endings = []
        section(f"How {sizes['ending_games']:,} random games end (seed {seed})",
                lambda: endings_table(endings.append(count_endings(
                    "default", "random", sizes["ending_games"], seed,
                    processes=processes)) or endings[0]))
        section("The games that ended by repetition", lambda: repetition_table(endings[0]))
    if sizes["recurrence_games"]:
        section(f"Recurrence search ({sizes['recurrence_games']:,} random games, seed {seed}, "
                "default options)",
                lambda: recurrence_table(recurrence_search(
                    "default", sizes["recurrence_games"], seed, sizes["budget"],
                    processes=processes)))
    print(f"total: {time.perf_counter() - started:.1f} s")
    return 0


def _version() -> str:
    from .. import __version__
    return __version__


# -- Sphinx extension -------------------------------------------------------------------

FIGURE_FOLDER = "analysis-figures"


def _dependencies() -> list[str]:
    """The source files the page's results depend on."""
    package = Path(__file__).resolve().parent.parent
    folders = ("analysis", "fast", "engine", "diagrams")
    files = [package / "notation.py"]
    files += sorted(path for folder in folders for path in (package / folder).rglob("*.py"))
    return [os.fspath(path) for path in files]


@functools.cache
def _code_digest() -> str:
    import matplotlib

    digest = hashlib.sha256(f"{_version()} {matplotlib.__version__}".encode())
    for path in _dependencies():
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


def _make_directives():
    """The directive classes (made here, so that the module imports without Sphinx)."""
    from docutils import nodes
    from docutils.parsers.rst import directives
    from sphinx.util import logging
    from sphinx.util.docutils import SphinxDirective

    logger = logging.getLogger(__name__)

    def cell(text: str) -> nodes.entry:
        """A table cell; text between backticks is set as code."""
        paragraph = nodes.paragraph()
        for index, part in enumerate(text.split("`")):
            if part:
                paragraph += nodes.literal(part, part) if index % 2 else nodes.Text(part)
        return nodes.entry("", paragraph)

    def table_node(table: Table) -> nodes.table:
        header, rows = table
        group = nodes.tgroup(cols=len(header))
        group += [nodes.colspec(colwidth=1) for _ in header]
        group += nodes.thead("", nodes.row("", *map(cell, header)))
        group += nodes.tbody("", *(nodes.row("", *map(cell, values)) for values in rows))
        return nodes.table("", group, classes=["analysis-table"])

    common = {
        "games": directives.positive_int,
        "greedy-games": directives.positive_int,
        "seed": directives.nonnegative_int,
        "max-seeds": directives.positive_int,
        "caption": directives.unchanged,
        "name": directives.unchanged,
    }

    class _Analysis(SphinxDirective):
        required_arguments = 1
        has_content = False
        option_spec = common

        def sizes(self) -> tuple[int, int, int]:
            return (self.options.get("games", QUICK["games"]),
                    self.options.get("greedy-games", QUICK["greedy_games"]),
                    self.options.get("seed", QUICK["seed"]))

        def finish(self, node, kind: str, seconds: float) -> list[nodes.Node]:
            logger.info(f"[analysis] {self.name} {kind}: {seconds:.1f} s")
            for path in _dependencies():
                self.env.note_dependency(path)
            messages: list[nodes.Node] = []
            text = self.options.get("caption", "").strip()
            if text:
                inline, messages = self.parse_inline(text, lineno=self.lineno)
                title = nodes.caption if isinstance(node, nodes.figure) else nodes.title
                node.insert(len(node) if title is nodes.caption else 0,
                            title(text, "", *inline))
            self.set_source_info(node)
            self.add_name(node)
            return [node, *messages]

    class AnalysisTable(_Analysis):
        """``{analysis-table} <kind>``: a table computed when the page is read.
        Kinds: ``opener``, ``in-play``, ``longest``, ``exhaustive``."""

        def run(self) -> list[nodes.Node]:
            kind = self.arguments[0]
            games, greedy, seed = self.sizes()
            makers = {
                "opener": lambda: opener_table(games, greedy, seed),
                "in-play": lambda: in_play_table(games, greedy, seed),
                "longest": lambda: longest_table(games, greedy, seed),
                "exhaustive": lambda: exhaustive_table(
                    exhaustive_seed_counts(self.options.get("max-seeds", QUICK["max_seeds"])),
                    skip_options=(False,)),
            }
            if kind not in makers:
                raise self.error(f"analysis-table: unknown table {kind!r}; use one of "
                                 + ", ".join(makers))
            t0 = time.perf_counter()
            table = makers[kind]()
            if not table[1]:
                table = (table[0], [["none"] + [""] * (len(table[0]) - 1)])
            return self.finish(table_node(table), kind, time.perf_counter() - t0)

    class AnalysisFigure(_Analysis):
        """``{analysis-figure} <kind>``: a figure drawn when the page is read.
        Kinds: ``opener``, ``laps``."""

        option_spec = {**common, "alt": directives.unchanged,
                       "width": directives.length_or_percentage_or_unitless}

        def run(self) -> list[nodes.Node]:
            kind = self.arguments[0]
            if kind not in FIGURES:
                raise self.error(f"analysis-figure: unknown figure {kind!r}; use one of "
                                 + ", ".join(FIGURES))
            games, greedy, seed = self.sizes()
            t0 = time.perf_counter()
            key = f"{_code_digest()} {kind} {games} {greedy} {seed}"
            digest = hashlib.sha256(key.encode()).hexdigest()[:16]
            target = Path(self.env.doctreedir) / FIGURE_FOLDER / f"{kind}-{digest}.png"
            if not target.exists():
                from ..diagrams import save
                target.parent.mkdir(parents=True, exist_ok=True)
                save(FIGURES[kind](games, greedy, seed), target, dpi=120)
            uri = "/" + Path(os.path.relpath(target, self.env.srcdir)).as_posix()
            image = nodes.image(uri=uri, alt=self.options.get("alt", f"the {kind} figure"))
            if "width" in self.options:
                image["width"] = self.options["width"]
            figure = nodes.figure("", image, classes=["analysis-figure"])
            return self.finish(figure, kind, time.perf_counter() - t0)

    return AnalysisTable, AnalysisFigure


def setup(app) -> dict[str, Any]:
    """Register the ``analysis-table`` and ``analysis-figure`` directives."""
    table, figure = _make_directives()
    app.add_directive("analysis-table", table)
    app.add_directive("analysis-figure", figure)
    return {"version": _version(), "parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":   # pragma: no cover
    sys.exit(main())

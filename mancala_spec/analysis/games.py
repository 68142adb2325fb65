"""Games played by two random or two greedy players with the kernel
(:mod:`mancala_spec.fast`): who wins, how often a position offers an endless
sowing, the longest move, how games end.
"""
from __future__ import annotations

import functools
import hashlib
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..engine.games import get_game
from ..errors import MancalaError, OptionError, shown
from ..fast import FastGame, State
from .common import CONFIGS, POLICIES, game_rng, in_processes, worker_pool

if TYPE_CHECKING:
    from ..engine.games.base import Game
    from ..fast.batch import Playouts


def capture_margin(fast: FastGame, state: State, pit: int) -> int:
    """How much playing *pit* changes the mover's captured seeds minus the
    opponent's: every capture of the move, and the seeds handed out if the move
    ends the game."""
    mover, before = state[1], state[2]
    after = fast.play(state, pit)[2]
    return (after[mover] - before[mover]) - (after[1 - mover] - before[1 - mover])



def greedy_moves(fast: FastGame, state: State) -> list[int]:
    """The legal moves with the largest :func:`capture_margin`, in pit order."""
    best, moves = None, []
    for pit in fast.legal_moves(state):
        margin = capture_margin(fast, state, pit)
        if best is None or margin > best:
            best, moves = margin, [pit]
        elif margin == best:
            moves.append(pit)
    return moves



def choose(policy: str, fast: FastGame, state: State, rng: random.Random) -> int:
    """The move *policy* picks: ``"random"``, uniformly among the legal moves;
    ``"greedy"``, uniformly among the moves of largest capture margin."""
    if policy == "random":
        return rng.choice(fast.legal_moves(state))
    if policy == "greedy":
        return rng.choice(greedy_moves(fast, state))
    raise OptionError(f"unknown policy {shown(policy)}: use one of {', '.join(POLICIES)}",
                      option="policy", value=policy, choices=POLICIES)



@dataclass
class PlayResult:
    """What :func:`play_games` counted. Outcomes are from the opener's side:
    ``opener`` (the opener captured more), ``draw``, ``second``."""

    config: str
    policy: str
    games: int
    seed: int
    outcomes: Counter[str] = field(default_factory=Counter)
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
    laps_played: Counter[int] = field(default_factory=Counter)
    end_reasons: Counter[str] = field(default_factory=Counter)
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
                other.longest > self.longest
                or (other.longest == self.longest
                    and (self.longest_example is None
                         or other.longest_example < self.longest_example))):
            self.longest, self.longest_example = other.longest, other.longest_example
        self.repetitions = sorted(self.repetitions + other.repetitions)



def end_reason(fast: FastGame, state: State) -> str:
    """Why the game of the finished *state* ended, as the kernel's outcome
    says, in the reference engine's words (``eight-seeds``, ``no-moves`` or
    ``repetition``)."""
    outcome = fast.outcome(state)
    assert outcome is not None and outcome.reason is not None, "only for a game played to its end"
    return outcome.reason



def play_games(config: str = "default", policy: str = "random", games: int = 1000,
               seed: int = 2026, first: int = 0, processes: int = 1) -> PlayResult:
    """Play games number *first* … *first* + *games* − 1 of Ba-awa with the
    options ``CONFIGS[config]``, both players following *policy* (see
    :func:`choose`), South opening, game *k* drawing its moves from
    :func:`game_rng(seed, k) <game_rng>`.

    At every position with a player to move it also sows each of that player's
    non-empty pits with :func:`sow_laps`, to count the positions where a pit
    sows forever and the longest sowing that ends; the reason each game ended
    is the kernel's outcome (:func:`end_reason`). *processes* > 1 shares
    the games among that many processes (the result is the same).
    """
    if processes > 1 and games > 1:
        parts = in_processes(play_games, config, policy, games, seed, first, processes)
        result = PlayResult(config, policy, games, seed)
        for part in parts:
            result.merge(part)
        return result
    game = get_game("ba-awa", **CONFIGS[config])
    fast = kernel_for(game, policy)
    result = PlayResult(config, policy, games, seed)
    for chunk in range(first, first + games, CHUNK):
        met = Met()
        for number in range(chunk, min(chunk + CHUNK, first + games)):
            final = play_game(fast, policy, seed, number, result.end_reasons,
                              result.repetitions, met)
            winner = fast.winner(final)
            result.outcomes["draw" if winner is None else
                            "opener" if winner == fast.opener else "second"] += 1
        met.count(result, fast)
    return result


def kernel_for(game: Game, policy: str) -> FastGame:
    """The fast game *policy*'s games are played with: a greedy player plays
    every move of a position before it chooses one, so it meets each position
    again, and its kernel remembers every position (``remember_above``)."""
    fast = FastGame(game)
    if policy == "greedy":
        fast.remember_above = -1
    return fast


def play_game(fast: FastGame, policy: str, seed: int, number: int, reasons: Counter[str],
              repetitions: list[tuple[int, tuple[int, ...]]], met: Met | None = None) -> State:
    """Play game *number* of a run with *seed* to its end, both players following
    *policy*; count why it ended in *reasons*, keep its moves in *repetitions* if
    it ended by repetition, and tell *met* every position and move. Return the
    final state."""
    rng = game_rng(seed, number)
    state = fast.start()
    played = []
    while True:
        pit = choose(policy, fast, state, rng)
        if met is not None:
            met.add(number, state, pit)
        played.append(pit)
        state = fast.play(state, pit)
        if fast.is_over(state):
            break
    reason = end_reason(fast, state)
    reasons[reason] += 1
    if reason == "repetition":
        repetitions.append((number, tuple(played)))
    return state


#: games whose positions are sown at once by :class:`Met`
CHUNK = 2000


class Met:
    """The positions met in some games, and the move played at each: at the
    end, every non-empty pit of the player to move at every position is sown
    at once (:meth:`count`), with the kernel's many-games sowing (numpy
    needed), the same sowing as :func:`sow_laps`."""

    def __init__(self) -> None:
        self.numbers: list[int] = []
        self.states: list[State] = []
        self.pits: list[tuple[int, ...]] = []
        self.movers: list[int] = []
        self.played: list[int] = []

    def add(self, number: int, state: State, pit: int) -> None:
        """In game *number*, at *state*, *pit* was played."""
        self.numbers.append(number)
        self.states.append(state)
        self.pits.append(state[0])
        self.movers.append(state[1])
        self.played.append(pit)

    def count(self, result: PlayResult, fast: FastGame) -> None:
        """Add what was met to *result*, as if counted position by position in
        the order met."""
        import numpy as np

        from .endless import sowing_batch
        if not self.states:
            return
        pits = np.array(self.pits, dtype=np.int16)
        movers = np.array(self.movers, dtype=np.intp)
        numbers = np.array(self.numbers)
        owned = np.zeros((fast.players, fast.size), dtype=bool)
        for player, pits_owned in enumerate(fast.owned):
            owned[player, list(pits_owned)] = True
        choosable = owned[movers] & (pits > 0)          # (position, pit) pairs, in order
        where, pit = np.nonzero(choosable)
        zeros = np.zeros(len(where), dtype=np.intp)
        _, _, _, forever, laps = sowing_batch(bool(fast.game.options["skip_origin"]),
                                        max(48, fast.game.total_seeds)).sow(
            pits[where], pit, zeros, captures=False)
        result.positions += len(pits)
        result.moves += len(pits)
        result.sowings += len(where)
        result.endless_pits += int(forever.sum())
        endless_at = np.zeros(len(pits), dtype=bool)
        endless_at[where[forever]] = True
        result.endless_positions += int(endless_at.sum())
        result.games_with_endless += len(np.unique(numbers[endless_at]))
        finite = np.flatnonzero(~forever)
        if finite.size:
            most = int(laps[finite].max())
            if most > result.longest:               # the first sowing met that long
                pair = finite[np.argmax(laps[finite] == most)]
                state = self.states[int(where[pair])]
                text = fast.to_position(state).to_text().split(" seen=")[0]
                result.longest = most
                result.longest_example = (int(numbers[where[pair]]), text,
                                          fast.game.board.name(int(pit[pair])))
        # the moves played: their laps, or endless (endless="stop")
        lap_of = np.zeros((len(pits), fast.size), dtype=np.int32)
        lap_of[where, pit] = np.where(forever, -1, laps)
        made = lap_of[np.arange(len(pits)), np.array(self.played, dtype=np.intp)]
        result.endless_played += int((made < 0).sum())
        counts = np.bincount(made[made > 0])
        for lap in np.flatnonzero(counts):
            result.laps_played[int(lap)] += int(counts[lap])
        result.longest_played = max(result.longest_played, int(made.max()))



@dataclass
class Endings:
    """How the games of :func:`count_endings` ended."""

    config: str
    policy: str
    games: int
    seed: int
    reasons: Counter[str] = field(default_factory=Counter)
    #: the games that ended by repetition: (game number, moves as pit indices)
    repetitions: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)



#: the games of :func:`count_endings` played at once, in one batch
ENDING_BATCH = 20_000


def ending_batch(config: str, seed: int, batch: int) -> Playouts:
    """Batch number *batch* of a :func:`count_endings` run with *seed*:
    :data:`ENDING_BATCH` random games of the option set *config*, played at
    once by the kernel's many-games steps (:func:`mancala_spec.fast.playouts`,
    numpy needed) with their moves recorded. Its numpy seed is made from the
    run's seed and the batch's number, so game *k* of a run is always game
    ``k % ENDING_BATCH`` of batch ``k // ENDING_BATCH``, however many games the
    run plays and however many processes share them."""
    from ..fast import playouts

    digest = hashlib.sha256(f"ba-awa endings {seed} {batch}".encode()).digest()
    return playouts(get_game("ba-awa", **CONFIGS[config]), ENDING_BATCH,
                    seed=int.from_bytes(digest[:8], "big"), record=True)


def _count_batch(config: str, seed: int, batch: int, games: int) -> Endings:
    """How the first *games* games of :func:`ending_batch` ended."""
    played = ending_batch(config, seed, batch)
    result = Endings(config, "random", games, seed)
    for index in range(games):
        reason = played.outcome(index).reason
        result.reasons[reason] += 1
        if reason == "repetition":
            result.repetitions.append((batch * ENDING_BATCH + index, played.record(index)))
    return result


def count_endings(config: str = "default", policy: str = "random", games: int = 1000,
                  seed: int = 2026, first: int = 0, processes: int = 1,
                  known: PlayResult | None = None) -> Endings:
    """How *games* games end, both players following *policy*: for runs large
    enough to meet the rare repetition.

    Random games are played in batches (:func:`ending_batch`: numpy needed),
    game *k* being game ``k % ENDING_BATCH`` of batch ``k // ENDING_BATCH``;
    *processes* share the batches. Greedy games are the same games as
    :func:`play_games` (game *k* draws from :func:`game_rng(seed, k)
    <game_rng>`), played one at a time, from game *first*; *known*, a
    :func:`play_games` run of the same option set, policy and seed (so of
    games 0 on; *first* must then be 0), gives how its games ended, and only
    the games after them are played."""
    if policy == "random":
        if first or known is not None:
            raise MancalaError("random games are counted in batches from game 0: first and "
                               "known are for greedy games")
        sizes = [(config, seed, batch, min(ENDING_BATCH, games - batch * ENDING_BATCH))
                 for batch in range(-(-games // ENDING_BATCH))]
        if processes > 1 and len(sizes) > 1:
            with worker_pool(min(processes, len(sizes))) as pool:
                parts = pool.starmap(_count_batch, sizes)
        else:
            parts = [_count_batch(*size) for size in sizes]
        result = Endings(config, policy, games, seed)
        for part in parts:
            result.reasons.update(part.reasons)
            result.repetitions += part.repetitions
        return result
    if known is not None:
        if (known.config, known.policy, known.seed, first) != (config, policy, seed, 0) \
                or known.games > games:
            raise MancalaError("known must be a play_games run of the same option set, "
                               "policy and seed, of at most as many games, from game 0")
        rest = count_endings(config, policy, games - known.games, seed, known.games, processes)
        result = Endings(config, policy, games, seed)
        result.reasons.update(known.end_reasons)
        result.reasons.update(rest.reasons)
        result.repetitions = sorted(known.repetitions + rest.repetitions)
        return result
    if processes > 1 and games > 1:
        parts = in_processes(count_endings, config, policy, games, seed, first, processes)
        result = Endings(config, policy, games, seed)
        for part in parts:
            result.reasons.update(part.reasons)
            result.repetitions += part.repetitions
        result.repetitions.sort()
        return result
    fast = kernel_for(get_game("ba-awa", **CONFIGS[config]), policy)
    result = Endings(config, policy, games, seed)
    for number in range(first, first + games):
        play_game(fast, policy, seed, number, result.reasons, result.repetitions)
    return result



@functools.lru_cache(maxsize=64)
def cached_play(config: str, policy: str, games: int, seed: int,
                processes: int = 1) -> PlayResult:
    """:func:`play_games`, remembered (the page's tables and figures share runs)."""
    return play_games(config, policy, games, seed, processes=processes)

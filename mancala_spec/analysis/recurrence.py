"""Recurring positions: searching for moves that bring a whole position back,
and replaying a game that ended so with the traced engine."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from ..engine.games import get_game
from ..engine.trace import Capture, Drop, EndOfGame, EndOfMove, Pass, PickUp, Relay
from ..errors import OptionError, not_a
from ..fast import FastBaAwa, State
from ..fast.base import Key
from ..notation import format_game, format_pits, parse_game
from .common import CONFIGS, Table, game_rng, label, worker_pool
from .games import Endings, choose


def capture_free_moves(fast: FastBaAwa, pits: tuple[int, ...],
                       mover: int) -> list[tuple[int, Key]]:
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



def _search_cycle(fast: FastBaAwa, state: State,
                  budget: int) -> tuple[list[int], Key] | Literal[False] | None:
    """Depth-first search behind :func:`find_recurrence`: ``(moves, position)``,
    the position being the one that recurs; or ``False`` / ``None``."""
    root = (state[0], state[1])
    history = set(state[3])
    colour = {root: 1}           # 1: on the current path, 2: finished
    path: list[tuple[Key, int | None, Iterator[tuple[int, Key]]]] = [
        (root, None, iter(capture_free_moves(fast, *root)))]
    while path:
        node, _, moves = path[-1]
        for pit, following in moves:
            mark = colour.get(following)
            if mark == 1 or following in history:
                # the moves that led here (only the root has none)
                moves_here = [entry[1] for entry in path[1:] if entry[1] is not None]
                return moves_here + [pit], following
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



def find_recurrence(fast: FastBaAwa, state: State,
                    budget: int = 3000) -> list[int] | Literal[False] | None:
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
    found: Counter[int] = field(default_factory=Counter)      # by seeds on the board
    none: Counter[int] = field(default_factory=Counter)
    undecided: Counter[int] = field(default_factory=Counter)

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
        share = -(-games // processes)
        tasks = [(config, min(share, games - start), seed, budget, first + start)
                 for start in range(0, games, share)]
        with worker_pool(processes) as pool:
            parts = pool.starmap(recurrence_search, tasks)
        result = RecurrenceResult(config, games, seed, budget)
        for part in parts:
            result.found.update(part.found)
            result.none.update(part.none)
            result.undecided.update(part.undecided)
        return result
    fast = FastBaAwa(get_game("ba-awa", **CONFIGS[config]))
    fast.remember_above = -1       # (a search: it meets its positions again)
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
        raise OptionError("the moves must end the game with the last one", option="moves",
                          value=moves)
    before = positions[-2]
    trace = before.trace(moves[-1])
    # the position the last move left, before the end of the game cleared the
    # board: the sowing's board, and the player whose turn it would have been
    board = list(before.pits)
    for event in trace.events:
        if isinstance(event, EndOfMove):
            break
        if isinstance(event, PickUp | Relay | Capture):
            board[event.pit] -= event.seeds
        elif isinstance(event, Drop):
            board[event.pit] = event.count
    passed = {event.player for event in trace.events if isinstance(event, Pass)}
    to_move = before.to_move if 1 - before.to_move in passed else 1 - before.to_move
    key = (tuple(board), to_move)
    first = next((i for i, pos in enumerate(positions[:-1]) if pos.key == key), None)
    end = trace.events[-1]
    assert isinstance(end, EndOfGame)         # checked above: the last move ends the game
    return Repetition(record, len(moves), sum(board),
                      len(moves) - first if first is not None else 0,
                      f"{format_pits(board, 6)} {'SN'[to_move]}", end.reason)



def repetition_table(endings: Endings) -> Table:
    """The games of a :func:`count_endings` run that ended by repetition,
    replayed by the traced engine."""
    if not isinstance(endings, Endings):
        raise not_a("endings", endings, "what count_endings returns (Endings)")
    header = ["game and options", "policy", "game number", "moves", "seeds", "cycle (moves)",
              "recurring position", "end (traced engine)"]
    rows = []
    for number, moves in endings.repetitions:
        rep = describe_repetition(endings.config, moves)
        line = rep.record.strip().splitlines()[-1].removeprefix("moves:").strip()
        rows.append([label(endings.config), endings.policy, str(number), f"`{line}`",
                     str(rep.seeds), str(rep.cycle), f"`{rep.recurring}`", f"`{rep.reason}`"])
    return header, rows



def recurrence_table(result: RecurrenceResult) -> Table:
    """:func:`recurrence_search` by seeds on the board."""
    if not isinstance(result, RecurrenceResult):
        raise not_a("result", result, "what recurrence_search returns (RecurrenceResult)")
    header = ["seeds on the board", "positions searched", "a recurrence can follow",
              "none can", f"undecided after {result.budget:,} positions"]
    rows = []
    for seeds in result.seed_counts:
        found, none, undecided = (result.found[seeds], result.none[seeds],
                                  result.undecided[seeds])
        rows.append([str(seeds), f"{found + none + undecided:,}", f"{found:,}", f"{none:,}",
                     f"{undecided:,}"])
    return header, rows

"""Bakuk, strongly solved: the value of every position reachable from the start.

**The game solved.** Two-player Bakuk, with any of the engine's options (three
players are not solved here). A position is what the engine has between two moves: the
counters in the holes and the player to move (a :class:`~mancala_spec.engine.position.Position`'s
``key``). Its *value* is the largest margin the player to move can force from
there — their future captures minus the opponent's, plus, with
``leftovers="owners"``, their counters left on the board minus the opponent's
when the game ends because a player to move has no counters
(``bakuk-exhausted``). A game that ends scores nothing more, and a game that
goes on forever scores nothing more. What was captured before does not matter,
so it is not part of the position. The moves are the engine's
(:class:`~mancala_spec.engine.games.bakuk.Bakuk`, with any of its options), checked
against :mod:`mancala_spec.fast` in the tests.

**How it relates to the repetition rule.** The engine ends the game at the first
recurrence of a position since the last capture (``bakuk-repetition``), which
makes a position's future depend on its history. Between two captures nothing
is scored, and a capture clears the history, so each stretch between captures
is a game whose outcomes are its exits (a capture, worth its counters plus the
value of where it leads, or the end of the game) and whose endless play is
worth 0. In such a game, ending play at the first repetition with 0 gives every
position the same value as letting play go on forever with 0: a player whose
value is positive can reach an exit worth it without ever repeating a position
(the retrograde strategy climbs in value, and within one value it moves ever
closer to the exit), and a player whose value is 0 or less loses nothing by a
repetition. So with the default ``leftovers="unscored"`` (a repetition scores
nothing) the values here are exactly the engine's game, from the opening and
from any position just after a capture — the tests check this against plain
minimax with explicit repetition detection. With ``leftovers="owners"`` the
engine scores the leftovers at a repetition too; the values here still score
nothing for endless play, as the definition above says.

**How.** Every position reachable from the start is enumerated (breadth-first,
vectorised with numpy; each position numbered by its rank in the combinatorial
number system, which puts positions with fewer counters first). The rules are
the same for both players, so a position with North to move has the value of
the same position turned round (the rows swapped), South to move: only those
are enumerated and solved, half the positions, and each value then stands for
both where both are reached. Captures only
lower the number of counters on the board, so positions are solved level by
level, fewest counters first. Within a level the moves form a graph with cycles;
its values are found by value iteration from 0 — after *i* rounds each value is
that of the game cut off after *i* moves with 0 — until a round changes nothing,
which is exact with cycles: the values of the cut-off game stop changing once
*i* exceeds the longest forced sequence, and a round that changes nothing
changes nothing ever after. Each round re-evaluates only the predecessors of
the positions that changed in the round before.

A board small enough to work by hand — two holes a row, three counters each,
the capture chain running backward: a's three counters make b, A and B hold
four; B is taken, then A and b; a is empty. Sowing b takes all twelve likewise.
So the opening is the only position, and worth 12 to South:

>>> solution = solve(Rules(pits_per_row=2, seeds_per_pit=3, chain="backward"))
>>> len(solution), solution.value((3, 3, 3, 3), 0), solution.move_values((3, 3, 3, 3), 0)
(1, 12, {0: 12, 1: 12})
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb

try:
    import numpy as np
except ImportError as error:     # numpy is the optional extra "solve"
    raise ImportError("the solver needs numpy: pip install 'mancala-spec[solve]'") from error

from ..engine.games import Game, get_game
from ..engine.games.bakuk import Bakuk
from ..errors import (
    InvalidPositionError,
    OptionError,
    UnknownGameError,
    UnreachedPositionError,
    not_a,
    shown,
)
from ..fast.bakuk import BakukBatch
from ..options import Value, option, plain, solver_options
from .retrograde import (
    enumerate_positions,
    number_positions,
    reached_sides,
    solve_levels,
    unfold,
)

#: the game options the solver takes: every option of Bakuk declared in
#: :mod:`mancala_spec.options` that the fast kernel plays, but those of three
#: players (not solved here): :func:`mancala_spec.options.solver_options`
SOLVED_OPTIONS = tuple(o.name for o in solver_options("bakuk"))

Progress = Callable[[str, int, "int | None"], None]   # (phase, done, total or None)

#: The most memory :func:`solve` sets out to use, in bytes (1 GiB), as
#: :func:`estimated_bytes` estimates it: rules whose estimate exceeds it are
#: refused before any work. It admits every board the command line solves (at
#: most 25 million position numbers): the standard board (3 holes a row, 6
#: counters each) is estimated at 251 MB, 3 holes of 7 at 588 MB, and 3 of 8 at
#: 1.24 GB, refused.
MAX_SOLVE_BYTES = 1 << 30


def estimated_bytes(rules: Rules) -> int:
    """What :func:`solve` needs for *rules*' tables, in bytes, worked out
    before solving: for each position number (two per board of at most the
    game's counters: :meth:`Moves.keys`) a byte (reached?) and a row number (4
    bytes); for each position that can be reached (at most half of them, South
    to move) its moves (each a successor, a worth, two flags: 8 bytes) and its
    number, number turned round, side and value (14 bytes). The enumeration's
    frontier and numpy's temporaries come on top, and what is reached is
    usually fewer: 3 holes a row of 5 counters is estimated at 93 MB, and its
    solve (1,064,687 positions of 3.9 million numbers) peaked at 105 MB
    resident, the interpreter included."""
    numbers = 2 * comb(rules.total + rules.size, rules.size)
    return numbers * 5 + numbers // 2 * (8 * rules.pits_per_row + 14)


@dataclass(frozen=True, init=False, repr=False)
class Rules:
    """The Bakuk variant to solve: the engine's game with its options
    (:attr:`game`, from :func:`~mancala_spec.get_game`: the one value that says
    which rules, compared, hashed and pickled as a game is), and, for tests and
    experiments, the board's size and the counters each hole starts with
    (:attr:`pits_per_row`, :attr:`seeds_per_pit`). Those two are the solver's
    own: the engine's Bakuk has the board and counters its source gives
    (``bakuk-board``, ``bakuk-setup``), not options. The keywords are the
    engine's options the solver takes, each as declared in
    :mod:`mancala_spec.options` (its values checked, its default taken from
    there). A value: immutable, compared and hashed by those three fields.

    >>> rules = Rules(chain="backward")
    >>> rules.chain                                     # the option's typed value
    <Chain.BACKWARD: 'backward'>
    >>> rules.options() == {'skip_origin': False, 'chain': 'backward', 'no_move': 'end',
    ...                     'leftovers': 'unscored'}
    True
    >>> rules.game
    get_game('bakuk', chain='backward')
    >>> Rules(chain="sideways")                         # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mancala_spec.errors.OptionError: option chain of bakuk must be one of ...
    """

    #: the engine's game: Bakuk with the options solved
    game: Game
    pits_per_row: int
    seeds_per_pit: int

    def __init__(self, pits_per_row: int = 3, seeds_per_pit: int = 6, **options: Value) -> None:
        for name, value in options.items():
            if name not in SOLVED_OPTIONS:
                raise OptionError(f"the solver takes no option {shown(name)} (it takes "
                                  f"{', '.join(SOLVED_OPTIONS)})", game="bakuk", option=name,
                                  value=value)
        game = get_game("bakuk", **options)         # each value checked by its declaration
        for name, size in (("pits_per_row", pits_per_row), ("seeds_per_pit", seeds_per_pit)):
            if type(size) is not int or size < 1:
                raise OptionError(f"{name} must be a whole number of at least 1, not {shown(size)}",
                                  game="bakuk", option=name, value=size)
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "pits_per_row", pits_per_row)
        object.__setattr__(self, "seeds_per_pit", seeds_per_pit)
        if self.total > 120:
            raise OptionError(f"{shown(self.total)} counters is too many for this solver "
                              "(120 at most)",
                              game="bakuk", option="seeds_per_pit", value=seeds_per_pit)

    def __getattr__(self, name: str) -> Value:
        """An option's value, by its name (``rules.chain``)."""
        if name in SOLVED_OPTIONS:
            return self.game.options[name]
        raise AttributeError(f"{shown(type(self).__name__)} object has no attribute {shown(name)}")

    def __repr__(self) -> str:
        fields = [f"pits_per_row={self.pits_per_row}", f"seeds_per_pit={self.seeds_per_pit}"]
        fields += [f"{name}={value!r}" for name, value in self.options().items()]
        return f"Rules({', '.join(fields)})"

    @classmethod
    def from_game(cls, game: Game) -> Rules:
        """The rules of a two-player :class:`~mancala_spec.engine.games.bakuk.Bakuk` game
        (and its options); :class:`~mancala_spec.errors.OptionError` if an
        option the solver does not take is not at its default (Koumma's
        ``first_counter``, say: the solver would solve other rules)."""
        if not isinstance(game, Bakuk):
            raise UnknownGameError(f"only Bakuk can be solved, not {game.name}",
                                   name=game.name, known=("bakuk",))
        if game.players != 2:
            raise OptionError("only two-player Bakuk can be solved here", game="bakuk",
                              option="players", value=game.players, choices=(2,))
        for name, value in game.options.items():
            declared = option("bakuk", name)
            if name not in SOLVED_OPTIONS and value != declared.default:
                raise OptionError(f"the solver solves Bakuk with "
                                  f"{name}={plain(declared.default)}, not {name}={plain(value)}",
                                  game="bakuk", option=name, value=value,
                                  choices=(declared.default,))
        return cls(pits_per_row=game.board.pits_per_row, seeds_per_pit=game.seeds_per_pit,
                   **{name: game.options[name] for name in SOLVED_OPTIONS})

    @property
    def size(self) -> int:
        return 2 * self.pits_per_row

    @property
    def total(self) -> int:
        return self.size * self.seeds_per_pit

    def options(self) -> dict[str, Value]:
        """The engine options (as for ``get_game("bakuk", **options)``)."""
        return {name: self.game.options[name] for name in SOLVED_OPTIONS}


class Moves:
    """Bakuk's moves for many positions at once (numpy arrays, one row a
    position): the kernel's batch form (:class:`mancala_spec.fast.bakuk.BakukBatch`),
    and the numbering of positions."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n, m, total = rules.pits_per_row, rules.size, rules.total
        self.n, self.m = n, m
        #: the holes as the other player sees them: ``pits[:, turn]`` swaps the rows
        self.turn = np.r_[n:m, 0:n]
        self.batch = BakukBatch.for_game(rules.game, pits_per_row=n, total=total)
        #: :meth:`BakukBatch.play <mancala_spec.fast.bakuk.BakukBatch.play>`
        self.play = self.batch.play
        # The rank of a board: bar i+1 of its stars-and-bars picture stands at
        # prefix_i + i (prefix_i: the counters in holes 0..i), and the rank is the
        # sum of C(bar position, bar number) (the combinatorial number system).
        self.levels = [comb(t + m, m) for t in range(total + 1)]   # ranks below level t+1
        if 2 * self.levels[-1] >= 2 ** 31:
            raise OptionError(f"{m} holes and {total} counters are too many positions "
                              "for this solver", game="bakuk", option="seeds_per_pit",
                              value=rules.seeds_per_pit)
        self.rank_tables = [np.array([comb(x + i, i + 1) for x in range(total + 1)],
                                     dtype=np.int32) for i in range(m)]
        # unrank_tables[i][r]: the largest position b with C(b, i + 1) <= r
        self.unrank_tables = []
        for i in range(m):
            bounds = [comb(b, i + 1) for b in range(total + m + 1)]
            self.unrank_tables.append(np.repeat(np.arange(total + m, dtype=np.int8),
                                                np.diff(bounds)))

    def keys(self, pits: np.ndarray, players: np.ndarray) -> np.ndarray:
        """Each position's number: its rank among all hole contents with at most
        the game's counters (fewer counters first), times 2, plus the player."""
        prefix = pits[:, 0].astype(np.intp)
        rank = self.rank_tables[0][prefix]
        for i in range(1, self.m):
            prefix += pits[:, i]
            rank += self.rank_tables[i][prefix]
        rank *= 2
        rank += players
        return rank

    def boards(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The boards and players of position numbers (the inverse of :meth:`keys`)."""
        rank, players = keys >> 1, (keys & 1).astype(np.int8)
        pits = np.empty((len(keys), self.m), dtype=np.int8)
        above: np.ndarray | None = None
        for i in range(self.m - 1, -1, -1):
            bar = self.unrank_tables[i][rank]
            rank = rank - self.rank_tables[i][bar.astype(np.intp) - i] if i else rank
            prefix = bar.astype(np.int16) - i
            if above is not None:
                pits[:, i + 1] = above - prefix
            above = prefix
        assert above is not None        # the loop ran: a board has pits
        pits[:, 0] = above
        return pits, players


def _start(start: object, m: int, total: int) -> tuple[tuple[int, ...], int]:
    """*start*, checked: ``(pits, to_move)``, *m* whole hole counts (not 3.7,
    0.0 or True), *total* counters at most, player 0 or 1. (Whether play can
    reach it, :func:`solve` asks.)"""
    shape = f"start must be ({m} hole counts with at most {total} counters, player 0 or 1)"
    if isinstance(start, (str, bytes)) or not isinstance(start, Sequence) or len(start) != 2:
        raise InvalidPositionError(shape, field="pits")
    pits, player = start
    if (isinstance(pits, (str, bytes)) or not isinstance(pits, Sequence) or len(pits) != m
            or any(type(x) is not int or x < 0 for x in pits) or sum(pits) > total):
        raise InvalidPositionError(shape, field="pits")
    if type(player) is not int or player not in (0, 1):
        raise InvalidPositionError("start must be (hole counts, player 0 or 1)",
                                   field="to_move")
    return tuple(pits), player


@dataclass
class Solution:
    """The values of every position reachable from :attr:`start`, from the point
    of view of the player to move there."""

    rules: Rules
    start: tuple[tuple[int, ...], int]
    keys: np.ndarray            # sorted position numbers (see Moves.keys)
    values: np.ndarray          # int16, one per key
    seconds: dict[str, float] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.keys)

    def _moves(self) -> Moves:
        if not hasattr(self, "_moves_cache"):
            self._moves_cache = Moves(self.rules)
        return self._moves_cache

    def index(self, pits, to_move: int) -> int:
        """The position's row in :attr:`keys`;
        :class:`~mancala_spec.errors.UnreachedPositionError` (a ``KeyError`` too)
        if no game from the start reaches it, and
        :class:`~mancala_spec.errors.InvalidPositionError` if it is no position
        of this board."""
        pits, to_move = _start((pits, to_move), self.rules.size, self.rules.total)
        key = int(self._moves().keys(np.array([pits], dtype=np.int8),
                                     np.array([to_move]))[0])
        row = int(np.searchsorted(self.keys, key))
        if row == len(self.keys) or self.keys[row] != key:
            raise UnreachedPositionError(f"{tuple(pits)} with player {to_move} to move is "
                                         "not reachable from the start", pits, to_move)
        return row

    def value(self, pits, to_move: int) -> int:
        """The margin the player to move can force from this position."""
        return int(self.values[self.index(pits, to_move)])

    def move_values(self, pits, to_move: int) -> dict[int, int]:
        """{pit: the margin the player to move can force by playing it} for each
        legal move (pits numbered as in the engine)."""
        self.index(pits, to_move)                 # checked, and reached from the start
        moves = self._moves()
        n = self.rules.pits_per_row
        board = np.array([pits], dtype=np.int8)
        result = {}
        for choice in range(n):
            legal, after, nxt, goes_on, worth = moves.play(board.copy(), to_move, choice)
            if not legal[0]:
                continue
            value = int(worth[0])
            if goes_on[0]:
                later = self.value(tuple(int(x) for x in after[0]), int(nxt[0]))
                value += later if nxt[0] == to_move else -later
            result[to_move * n + choice] = value
        return result


def solve(rules: Rules | Game | None = None, start=None, progress: Progress | None = None, *,
          allow_unreachable: bool = False) -> Solution:
    """Solve every position reachable from *start* (``(pits, to_move)``; by
    default the opening, South to move) under *rules* (by default ``Rules()``; a
    game from :func:`~mancala_spec.get_game` is solved as :meth:`Rules.from_game`).
    *progress* is called now and then with (phase, done, total or ``None``).

    A *start* play cannot reach is refused
    (:class:`~mancala_spec.errors.InvalidPositionError`, ``field="captured"``):
    every capture takes an even number of counters, so while counters are on
    the board an even number are off it. *allow_unreachable* solves it all the
    same, as a smaller game. Rules whose tables :func:`estimated_bytes` puts
    above :data:`MAX_SOLVE_BYTES` are refused first
    (:class:`~mancala_spec.errors.OptionError` naming ``pits_per_row``, or
    ``seeds_per_pit`` on a board of 3 holes a row)."""
    rules = Rules() if rules is None else Rules.from_game(rules) if isinstance(rules, Game) \
        else rules
    if type(allow_unreachable) is not bool:
        raise not_a("allow_unreachable", allow_unreachable, "True or False")
    for name, value, ok in (("rules", rules, isinstance(rules, Rules)),
                            ("progress", progress, progress is None or callable(progress))):
        if not ok:
            raise OptionError(f"{name} is not {shown(value)}", option=name, value=value)
    need = estimated_bytes(rules)
    if need > MAX_SOLVE_BYTES:
        size = "pits_per_row" if rules.pits_per_row != 3 else "seeds_per_pit"
        raise OptionError(f"{rules.pits_per_row} holes a row with {rules.seeds_per_pit} counters "
                          f"each would need about {need / 1e9:,.1f} GB; solve takes at most "
                          f"{MAX_SOLVE_BYTES:,} bytes (MAX_SOLVE_BYTES)", game="bakuk",
                          option=size, value=getattr(rules, size))
    moves = Moves(rules)
    n, m, total = rules.pits_per_row, rules.size, rules.total
    if start is None:
        start = ((rules.seeds_per_pit,) * m, 0)
    pits0, player0 = _start(start, m, total)
    unit, why = Bakuk.capture_unit, Bakuk.capture_rules
    if not allow_unreachable and (total - sum(pits0)) % unit:
        raise InvalidPositionError(
            f"start has {total - sum(pits0)} of the {total} counters off the board, which play "
            f"cannot reach: {why}, so while counters are on the board the number off it is a "
            f"multiple of {unit} (allow_unreachable=True solves it as a smaller game)",
            field="captured")
    if not any(pits0[player0 * n:(player0 + 1) * n]):
        raise InvalidPositionError("the player to move at the start has no counters: the game "
                                   "is over")
    report = progress or (lambda phase, done, todo: None)
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    graph = enumerate_positions(moves, pits0, player0, report=report)
    seconds["enumerate"] = time.perf_counter() - clock
    clock = time.perf_counter()
    numbers = len(graph.visited)
    keys, succ, worth, sign, turned_keys, sides = number_positions(graph)
    seconds["number"] = time.perf_counter() - clock
    clock = time.perf_counter()
    values = solve_levels(moves, keys, succ, worth=worth, sign=sign, report=report)
    # every position solved stands for itself and for itself turned round
    reached = reached_sides(succ, sign, sides)
    keys, values = unfold(keys, turned_keys, values, reached=reached, numbers=numbers)
    seconds["solve"] = time.perf_counter() - clock
    return Solution(rules, (pits0, player0), keys, values=values, seconds=seconds)

"""Ba-awa, strongly solved: the value of every position reachable from the start.

**The game solved.** Two-player Ba-awa, a single game (a match is not solved),
with the engine's options but three players, which are refused with the
reason (:data:`SOLVABLE`, :data:`WHY_NOT`). South opens. Four rules of other
programs are solved as the sections below say: ``repetition="play-on"``
(endless play has no outcome: solved both ways), ``endless="cap-75"`` and
``no_move="empty-row"`` (their ends depend only on the board and the mover),
and ``decided`` (its end depends on the captured counts: each level is solved
once for each split of the captured seeds).

A *position* is what the engine's repetition rule compares (``ba-awa-repetition``):
the seeds in the pits and the player to move. Its *value* is the largest margin
the player to move can force from there: their future captures minus the
opponent's, counting the seeds the rules give to a player at the end (the opener
takes the last eight or fewer, what is left when nobody can move, and what is
left at a repetition; with ``no_move="owners"`` each owner their pits'). What was
captured before does not matter (but with ``decided``: see below), but who
opened does: the leftovers go to the opener. South opens every
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

**Play on** (``repetition="play-on"``, as MancalaGames and EveryBoard play): no
rule ends a game whose positions recur, so endless play has no outcome to value.
Each level is solved twice: endless play worth all *S* to the opener (the
greatest fixed point, *u*, as above) and worth all *S* to the other player
(value iteration from -*S*: the least fixed point, *l*). Any outcome one might
give endless play lies between, so the value of a position as a function of it
lies between *l* and *u*; where *l* = *u* = *v* the position has that value
however endless play is scored, and more: the opener, playing as the first
strategy above does in the game that scores endless play -*S* (with the roles
turned), gets at least *v* there, so if *v* > -*S* no play it allows is endless
and the opener forces an end worth at least *v*; likewise the other player, in
the game that scores it *S*, forces an end worth at most *v* if *v* < *S*. As
*S* > 0, at least one of them forces the end, with exactly *v*. A game under
play-on has no history the rules look at, so this holds from every position,
history or not. Where *l* < *u* the solver
gives no value (:class:`EndlessPlayError`); ``undecided()`` counts those
positions (the quoted run found none). Scoring endless play as nothing (0, as
``endless_play="nothing"``) would not do: it is no bound of the others (a player
who can choose between endless play and an end worth -4 to the opener has -4
with 0 or *S* for endless play, and -*S* with -*S*).

**The lap cap** (``endless="cap-75"``, as MancalaGames plays): no sowing is
endless; one whose 75th lap would relay stops there, the last seed left in its
pit, and the game ends, the seeds on the board shared equally, an odd seed going
by the captured counts. Every capture takes four, so the board holds a multiple
of four: the share is exactly half each and the odd seed never exists, so the
capped move is worth what it captured, a function of the board. The many-games
sowing caps the same way (``BaAwaBatch.sow(cap=75)``, tested against the traced
engine); a long but finite sowing of more than 75 laps is capped too.

**An emptied row** (``no_move="empty-row"``, as EveryBoard plays): a move that
leaves the next player's row empty ends the game, the mover taking what remains;
one that leaves the mover's own row empty ends it, the next player taking it
(before the last eight, as the engine orders them); a player with no legal move
is not passed over: the game ends and the opener takes what remains. All are
functions of the board and the mover.

**The winner decided** (``decided=True``, as EveryBoard plays): each level is
solved once for each split of the captured seeds, as
:mod:`mancala_spec.solve.ba_awa_values` says.

A player with no legal move (``ba-awa-no-move``) is a position with one move:
with ``no_move="pass"``, to the same board with the other player to move if
that player can move, else the end (the opener takes the rest); with
``no_move="owners"``, the end. (The engine never records such a position in
the history, as nobody moves from it; the argument above holds for the
positions moved from.)

**How.** Enumeration goes top down, level by level (breadth-first within a
level, the many-games sowing of :class:`~mancala_spec.fast.ba_awa.many.BaAwaBatch`
on arrays of positions, optionally in forked worker processes that write what
they sow to files), writing each level's positions and moves to a temporary
folder (:mod:`~mancala_spec.solve.ba_awa_spool`): the row of each successor in
its level (``int32``), the best move that ends the game, and the captures to
lower levels. The solve then goes bottom up, fewest seeds first, reading one
level at a time (a level's values depend only on it and the levels below);
within a level, value iteration re-evaluates only the predecessors of the
positions that changed in the round before. Only the level at hand is held in
memory, besides the values found so far; the positions' keys are read back
at the end. The folder is removed when the solve ends, however it ends.
Values are ``int8``, kept from the opener's side and given from the side of
the player to move. A capture that took other than a multiple of four seeds
would break the levels: the solver checks every capture and stops if one does.
The positions counted include the *pass steps*, counted apart
(:meth:`BaAwaSolution.pass_steps`): nodes whose player to move has no legal move.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

try:
    import numpy as np
except ImportError as error:     # numpy is the optional extra "solve"
    raise ImportError("the solver needs numpy: pip install 'mancala-spec[solve]'") from error

from ..engine.games import Game, get_game
from ..errors import (
    InvalidPositionError,
    MancalaError,
    OptionError,
    UnreachedPositionError,
    shown,
)
from ..options import Choose, Endless, NoMove, Repetition, Value, option
from .ba_awa_levels import (
    EIGHT,
    FOUR,
    HALF,
    ILLEGAL,
    INNER,
    LOWER,
    PITS,
    Kernel,
    Progress,
)
from .ba_awa_quoted import estimate_bytes, expected_bytes
from .ba_awa_spool import Spool, enumerate_to
from .ba_awa_values import (
    TOTAL,
    checked_arguments,
    checked_captured,
    checked_position,
    is_decided,
    solve_level,
    split_row,
    splits_of,
)

#: the option values the solver takes (every other value is refused with a reason)
SOLVABLE: dict[str, tuple[Value, ...]] = {
    "choose": (Choose.OWNED, Choose.ROW),            # the same in a single two-player game
    "skip_origin": (False, True),
    "endless": (Endless.ILLEGAL, Endless.STOP, Endless.CAP_75),
    "no_move": (NoMove.PASS, NoMove.OWNERS, NoMove.EMPTY_ROW),
    "repetition": (Repetition.END, Repetition.PLAY_ON),
    "decided": (False, True),
    "players": (2,),
}
WHY_NOT = {
    "players": "three players are out of scope: a value here is one player's margin over "
               "the other, and three players' captures are not one margin",
}


def as_written(value: object) -> str:
    """An option's value as the command line writes it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True, init=False, repr=False)
class BaAwaRules:
    """The Ba-awa options solved (keywords as in ``get_game("ba-awa", ...)``),
    checked: a value the solver cannot solve raises
    :class:`~mancala_spec.errors.OptionError` saying why. The rules are the
    engine's game (:attr:`game`), compared, hashed and pickled as a game is."""

    game: Game

    def __init__(self, **options: Value) -> None:
        values: dict[str, Value] = {}
        for name, allowed in SOLVABLE.items():
            spec = option("ba-awa", name)
            value = spec.check(options.pop(name)) if name in options else spec.default
            if value not in allowed:
                raise OptionError(f"Ba-awa with {name}={as_written(value)} cannot be solved: "
                                  f"{WHY_NOT.get(name, 'not solved here')}", game="ba-awa",
                                  option=name, value=value, choices=allowed)
            values[name] = value
        for name, value in options.items():
            raise OptionError(f"Ba-awa cannot be solved with {name}={as_written(value)}: the "
                              "solver plays a single two-player game (no match settings)",
                              game="ba-awa", option=name, value=value)
        object.__setattr__(self, "game", get_game("ba-awa", **values))

    def __getattr__(self, name: str) -> Value:
        if name in SOLVABLE:
            return self.game.options[name]
        raise AttributeError(name)

    def __repr__(self) -> str:
        return f"BaAwaRules({', '.join(f'{k}={v!r}' for k, v in self.options().items())})"

    def options(self) -> dict[str, Value]:
        """The engine options (as for ``get_game("ba-awa", **options)``)."""
        return {name: self.game.options[name] for name in SOLVABLE}


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
    #: with ``decided``: per level, South's captured counts solved (:func:`splits_of`);
    #: :attr:`values` and :attr:`also` then hold a row of values for each, in this order
    splits: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: with ``decided``: the captured counts at the start (South's, North's)
    start_captured: tuple[int, int] | None = None
    #: per level, the pass steps among its positions (:meth:`pass_steps`)
    passes: dict[int, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return sum(len(k) for k in self.levels.values())

    def _kernel(self) -> Kernel:
        if not hasattr(self, "_kernel_cache"):
            self._kernel_cache = Kernel(self.rules)
        return self._kernel_cache

    def _row(self, pits: Sequence[int], to_move: int) -> tuple[int, int]:
        pits, to_move = checked_position(pits, to_move)
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

    @property
    def play_on(self) -> bool:
        """Whether the rules are ``repetition="play-on"``: a value is then the
        one endless play is worth to the opener all (:attr:`values`) or nothing
        (:attr:`also`: the other player takes all), where the two agree."""
        return self.rules.repetition is Repetition.PLAY_ON

    def undecided(self) -> dict[int, int]:
        """Per level, the positions with no value under ``repetition="play-on"``
        (the two scorings of endless play disagree there); all 0 otherwise."""
        def count(differ: np.ndarray) -> int:       # (decided: at any split)
            return int((differ.any(axis=0) if differ.ndim > 1 else differ).sum())
        return {s: count(self.also[s] != v) if self.play_on else 0
                for s, v in sorted(self.values.items(), reverse=True)}

    @property
    def decided(self) -> bool:
        """Whether the rules are ``decided=True``: a value then depends on the
        captured counts too (``value(..., captured=...)``)."""
        return bool(self.rules.decided)

    def _south(self, seeds: int, captured: Sequence[int] | None) -> int | None:
        """The split (South's captured count) the values are read at: None
        unless ``decided`` (:func:`~mancala_spec.solve.ba_awa_values.split_row`)."""
        return split_row(self.splits, seeds, captured) if self.decided else None

    def _opener_value(self, seeds: int, row: int, south: int | None = None) -> int:
        def read(table: dict[int, np.ndarray]) -> int:
            values = table[seeds]
            return int(values[row] if south is None
                       else values[self.splits[seeds].index(south), row])
        u = read(self.values)
        low = read(self.also) if self.play_on else u
        if low != u:
            raise EndlessPlayError(
                f'a position of {seeds} seeds has no value under repetition="play-on": '
                f"whether play ends decides it (the opener can force {low:+d} or endless "
                f"play, the other player {u:+d} or endless play)")
        return u

    def value(self, pits: Sequence[int], to_move: int,
              captured: Sequence[int] | None = None) -> int:
        """The margin the player to move can force from this position (its
        history cleared, as just after a capture; with ``repetition="play-on"``
        the game has no history to clear, and a position whose value depends
        on what endless play would be worth raises :class:`EndlessPlayError`).
        *captured*: the captured counts (South's, North's), needed with
        ``decided=True`` only (otherwise they do not matter). Whether it holds
        with a history: :func:`mancala_spec.solved_ba_awa.value_holds`."""
        seeds, row = self._row(pits, to_move)
        u = self._opener_value(seeds, row, self._south(seeds, captured))
        return u if to_move == 0 else -u

    def move_values(self, pits: Sequence[int], to_move: int,
                    captured: Sequence[int] | None = None) -> dict[int, int]:
        """{pit: the margin the player to move can force by playing it} for each
        legal move (pits numbered as in the engine); a player with no legal
        move has none. *captured*: as for :meth:`value`."""
        seeds, _ = self._row(pits, to_move)
        south = self._south(seeds, captured)
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
                after = south
                if south is not None and kind == LOWER:     # what the capture left
                    after = south + (seeds - level + u) // 2
                    if is_decided(after, TOTAL - level - after):
                        result[to_move * HALF + c] = u if to_move == 0 else -u
                        continue
                keys = self.levels[level]
                u += self._opener_value(level, int(np.searchsorted(keys, moves.key[c, 0])),
                                        after)
            result[to_move * HALF + c] = u if to_move == 0 else -u
        return result

    def counts(self) -> dict[int, int]:
        """Positions per level (seeds on the board), most seeds first: the
        solver's nodes, the pass steps included (:meth:`pass_steps`)."""
        return {s: len(k) for s, k in sorted(self.levels.items(), reverse=True)}

    def pass_steps(self) -> dict[int, int]:
        """Per level, the *pass steps* of :meth:`counts`: boards whose player to
        move has no legal move, nodes here (one move: to the other player, or
        the end), which the engine refuses as positions (it passes inside the
        move before). The positions the engine accepts are the rest."""
        return {s: self.passes.get(s, 0) for s in self.counts()}


class EndlessPlayError(MancalaError):
    """A position whose value under ``repetition="play-on"`` depends on what
    endless play would be worth (which that rule leaves without an outcome)."""


def solve(rules: BaAwaRules | None = None, start: Any = None,
          progress: Progress | None = None, *,
          memory: int | None = None, endless_play: str = "opener",
          also: str | None = None, workers: int = 1,
          captured: Sequence[int] | None = None) -> BaAwaSolution:
    """Solve every position reachable from *start* (``(pits, to_move)``; by
    default the opening, South to move; South is the opener) under *rules*
    (by default :class:`BaAwaRules()`). *memory*: the bytes the solve may use;
    if the levels found need more
    (:func:`~mancala_spec.solve.ba_awa_quoted.estimate_bytes`), a ``MemoryError``
    is raised before they are solved.

    *endless_play*: what play that never leaves a level is worth: ``"opener"``,
    the engine's repetition rule (the opener takes what remains: these are the
    engine's values), or ``"nothing"`` (value iteration from 0: endless play
    scores nothing, as in the Bakuk solver; not the engine's game, for
    measuring what the repetition rule does). *also*: another of these, solved
    beside it in the same run (its values in :attr:`BaAwaSolution.also`).
    *workers*: processes sowing the positions while they are enumerated.
    *captured*: with ``decided=True``, the captured counts at the start (South's,
    North's; by default (0, 0), as at the opening); each level is solved for
    each split of the captured seeds play can reach from them
    (:func:`~mancala_spec.solve.ba_awa_values.splits_of`)."""
    checked_arguments(progress, memory, workers, endless_play, also)
    rules = BaAwaRules() if rules is None else rules
    if not isinstance(rules, BaAwaRules):
        raise OptionError(f"rules is not {shown(rules)}", option="rules", value=rules)
    if rules.repetition is Repetition.PLAY_ON:
        # endless play has no outcome: solved worth all to the opener, and to the other
        if endless_play != "opener" or also not in (None, "other"):
            raise OptionError('with repetition="play-on" endless play is solved both ways '
                              '(endless_play="opener", also="other"), nothing else',
                              option="endless_play", value=endless_play)
        also = "other"
    if start is None:
        start = ((FOUR,) * PITS, 0)
    if (isinstance(start, (str, bytes)) or not isinstance(start, Sequence)
            or len(start) != 2):
        raise InvalidPositionError("start must be (12 pit counts, player 0 or 1)", field="pits")
    pits0, player0 = checked_position(*start)
    if sum(pits0) % FOUR or sum(pits0) <= EIGHT:
        raise InvalidPositionError(
            f"start has {sum(pits0)} seeds on the board: play only reaches multiples of four "
            "(every capture takes four), and with eight or fewer the game is over",
            field="pits")
    top = sum(pits0)
    if rules.decided:
        captured = checked_captured((0, 0) if captured is None else captured, top)
    elif captured is not None:
        raise OptionError("captured counts are solved only with decided=true (otherwise they "
                          "do not matter)", option="captured", value=captured)
    if memory is not None and expected_bytes(sum(pits0)) > memory:
        raise MemoryError(f"solving from {sum(pits0)} seeds is expected to need about "
                          f"{expected_bytes(sum(pits0)) / 2**30:.1f} GiB, more than the "
                          f"{memory / 2**30:.1f} GiB allowed")
    report = progress or (lambda phase, done, todo: None)
    spool = Spool()
    try:
        return _solve(rules, spool, pits0, player0, report, memory, endless_play, also,
                      workers, captured)
    finally:
        spool.close()


def _solve(rules: BaAwaRules, spool: Spool, pits0: tuple[int, ...], player0: int,
           report: Progress, memory: int | None, endless_play: str, also: str | None,
           workers: int, captured: tuple[int, int] | None) -> BaAwaSolution:
    """:func:`solve`, its levels enumerated to *spool* and solved from it, a
    level at a time, bottom up."""
    top = sum(pits0)
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    counts = enumerate_to(spool, Kernel(rules), pits0, player0, report, workers)
    seconds["enumerate"] = time.perf_counter() - clock
    if memory is not None and estimate_bytes(counts) > memory:
        raise MemoryError(f"solving {sum(counts.values()):,} positions needs about "
                          f"{estimate_bytes(counts) / 2**30:.1f} GiB, more than the "
                          f"{memory / 2**30:.1f} GiB allowed")
    clock = time.perf_counter()
    values: dict[int, np.ndarray] = {}
    other: dict[int, np.ndarray] = {}
    rounds: dict[int, int] = {}
    level_seconds: dict[int, float] = {}
    done = 0
    splits: dict[int, tuple[int, ...]] = {}
    plays = [endless_play, also or ""][:1 + bool(also)]
    for seeds in sorted(counts):
        tick = time.perf_counter()
        level = spool.level(seeds, players=True)
        if rules.decided:
            assert captured is not None
            splits[seeds] = splits_of(seeds, top, captured[0], captured[1])
            lower_values: list[dict[Any, np.ndarray]] = [
                {(s, c): v[i] for s, v in table.items() for i, c in enumerate(splits[s])}
                for table in (values, other)]
            solved = solve_level(level, lower_values, plays, splits[seeds])
            width = len(plays)
            n = len(level.keys)
            values[seeds] = np.array([r[0] for r in solved[::width]], dtype=np.int8
                                     ).reshape(-1, n)
            rounds[seeds] = max((r[1] for r in solved), default=0)
            if also:
                other[seeds] = np.array([r[0] for r in solved[1::width]], dtype=np.int8
                                        ).reshape(-1, n)
        else:
            solved = solve_level(level, [values, other], plays)
            values[seeds], rounds[seeds] = solved[0]
            if also:
                other[seeds] = solved[1][0]
        del level, solved
        level_seconds[seeds] = time.perf_counter() - tick
        done += counts[seeds]
        report("solving", done, sum(counts.values()))
    levels = {seeds: spool.keys(seeds) for seeds in sorted(counts)}
    seconds["solve"] = time.perf_counter() - clock
    return BaAwaSolution(rules, (pits0, player0), levels, values, seconds, rounds,
                         level_seconds, other, dict(spool.seconds), dict(spool.rounds),
                         splits, captured if rules.decided else None, dict(spool.passes))

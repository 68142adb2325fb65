"""The Bakuk solver (mancala_spec.solve) against plain minimax, and against itself.

Plain minimax here plays the engine's rules (through mancala_spec.fast, which
tests/kernel/test_fast.py checks against the traced engine) with the engine's
repetition rule: the positions seen since the last capture are part of the
state, and a recurrence ends the game. Where that search is small enough — small
boards, few counters — the solver must give every reachable position exactly
the minimax value.
"""
from __future__ import annotations

import itertools
import random
import sys

import numpy as np
import pytest

import mancala_spec as ms
from mancala_spec.engine.board import Board
from mancala_spec.engine.games.bakuk import Bakuk
from mancala_spec.errors import InvalidPositionError, OptionError, UnknownGameError
from mancala_spec.fast import FastGame
from mancala_spec.solve import Moves, Rules, solve

OPTION_NAMES = ("skip_origin", "chain", "no_move", "leftovers")
ALL_OPTIONS = [dict(zip(OPTION_NAMES, values)) for values in itertools.product(
    (False, True), ("forward", "backward"), ("end", "pass"), ("unscored", "owners"))]


def label(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def small_bakuk(pits_per_row: int, seeds_per_pit: int, **options) -> Bakuk:
    """The engine's Bakuk on a board of another size."""
    cls = type(f"Bakuk{pits_per_row}x{seeds_per_pit}", (Bakuk,), {
        "seeds_per_pit": seeds_per_pit,
        "make_board": lambda self: Board(pits_per_row=pits_per_row, players=self.players)})
    return cls(**options)


class Minimax:
    """The margin the player to move can force, by exhaustive search.

    Moves come from the fast path with leftovers unscored, so that the end of
    every game can be seen for what it is: a recurrence since the last capture
    (``bakuk-repetition``) or a player to move without counters. With
    ``leftovers="owners"``, the leftovers are then scored at the latter, and at a
    recurrence too if *repetition_scores* (the engine's rule); without it a
    recurrence scores nothing (the solver's definition: endless play scores
    nothing more)."""

    def __init__(self, game: Bakuk, repetition_scores: bool = False) -> None:
        options = dict(game.options)
        self.owners_score = options["leftovers"] == "owners"
        options["leftovers"] = "unscored"
        self.fast = FastGame(type(game)(**options))
        self.repetition_scores = repetition_scores
        self.memo: dict = {}

    def value(self, pits, to_move: int) -> int:
        """From a position with an empty history (the start, or just after a capture)."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20000))
        try:
            return self._value(self.fast.state(pits, to_move))
        finally:
            sys.setrecursionlimit(limit)

    def _value(self, state) -> int:
        pits, mover, captured, history, moves = state
        key = (pits, mover, frozenset(history))
        if key not in self.memo:
            best = None
            for pit in moves:
                child = self.fast.play(state, pit)
                after, to_move, now, seen, following = child
                value = (now[mover] - captured[mover]) - (now[1 - mover] - captured[1 - mover])
                if following:
                    later = self._value(child)
                    value += later if to_move == mover else -later
                elif self.owners_score and (self.repetition_scores
                                            or (after, to_move) not in seen):
                    mine = sum(after[p] for p in self.fast.owned[mover])
                    value += mine - (sum(after) - mine)
                best = value if best is None else max(best, value)
            self.memo[key] = best
        return self.memo[key]


def positions(solution):
    """Every position of *solution*: (pits, to_move, value)."""
    boards, players = Moves(solution.rules).boards(solution.keys)
    for board, player, value in zip(boards.tolist(), players.tolist(), solution.values.tolist()):
        yield tuple(board), player, value


SMALL = [(2, 1, options) for options in ALL_OPTIONS] \
    + [(3, 1, options) for options in ALL_OPTIONS] \
    + [(2, 2, options) for options in ALL_OPTIONS] \
    + [(2, 3, options) for options in ALL_OPTIONS if not options["skip_origin"]]


@pytest.mark.parametrize("pits_per_row, seeds_per_pit, options", SMALL,
                         ids=[f"{n}x{k}-{label(o)}" for n, k, o in SMALL])
def test_every_position_of_a_small_board_has_its_minimax_value(pits_per_row, seeds_per_pit,
                                                               options):
    solution = solve(Rules(pits_per_row=pits_per_row, seeds_per_pit=seeds_per_pit, **options))
    minimax = Minimax(small_bakuk(pits_per_row, seeds_per_pit, **options))
    wrong = [(pits, player, value, minimax.value(pits, player))
             for pits, player, value in positions(solution)
             if minimax.value(pits, player) != value]
    assert not wrong


# Positions of the real board with six counters left, found in random play:
# solved from there, with every position they lead to.
REAL = [((0, 3, 1, 0, 1, 1), 0, ALL_OPTIONS), ((1, 0, 1, 2, 0, 2), 0, [{}])]


@pytest.mark.parametrize("pits, to_move, options",
                         [(p, t, o) for p, t, options in REAL for o in options],
                         ids=[f"{p}-{label(o)}" for p, t, options in REAL for o in options])
def test_real_board_positions_have_their_minimax_values(pits, to_move, options):
    solution = solve(Rules(**options), start=(pits, to_move))
    minimax = Minimax(ms.get_game("bakuk", **options))
    assert len(solution) > 1
    for board, player, value in positions(solution):
        assert minimax.value(board, player) == value, (board, player)


def test_a_hand_worked_opening():
    """2 holes a row, 3 counters each, chain backward: a (3 counters) makes b, A,
    B hold 4; B is taken, then backward A, b; a is empty. b likewise takes all:
    every opening move takes all 12 counters and ends the game."""
    solution = solve(Rules(pits_per_row=2, seeds_per_pit=3, chain="backward"))
    assert len(solution) == 1
    assert solution.move_values((3, 3, 3, 3), 0) == {0: 12, 1: 12}
    assert solution.value((3, 3, 3, 3), 0) == 12


def test_the_comparison_catches_a_different_rule():
    """The minimax check has teeth: solving the backward chain and searching the
    forward one disagree."""
    solution = solve(Rules(pits_per_row=2, seeds_per_pit=2, chain="backward"))
    minimax = Minimax(small_bakuk(2, 2))
    assert any(minimax.value(pits, player) != value
               for pits, player, value in positions(solution))


def test_the_engine_scores_leftovers_at_a_repetition_and_the_solver_does_not():
    """The documented difference under leftovers="owners" is real: with the
    engine's rule some positions of a small board have other values."""
    options = {"leftovers": "owners"}
    solution = solve(Rules(pits_per_row=2, seeds_per_pit=2, **options))
    engine = Minimax(small_bakuk(2, 2, **options), repetition_scores=True)
    differ = [(pits, player) for pits, player, value in positions(solution)
              if engine.value(pits, player) != value]
    assert 0 < len(differ) < len(solution)


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=label)
def test_the_solvers_moves_are_the_engines(options):
    """Moves.play (vectorised) against the fast path, on random positions."""
    rules = Rules(**options)
    moves = Moves(rules)
    fast = FastGame(ms.get_game("bakuk", **options))
    rng = random.Random(label(options))
    boards = []
    for _ in range(300):
        total = rng.randrange(2, 37)
        cuts = sorted(rng.randrange(total + 1) for _ in range(5))
        boards.append([b - a for a, b in zip([0, *cuts], [*cuts, total])])
    boards = np.array(boards, dtype=np.int8)
    for player in (0, 1):
        for choice in range(3):
            legal, after, nxt, goes_on, worth = moves.play(boards.copy(), player, choice)
            pit = player * 3 + choice
            for row, board in enumerate(boards.tolist()):
                assert legal[row] == (board[pit] > 0)
                if not legal[row] or not any(board[player * 3:player * 3 + 3]):
                    continue
                state = fast.play(fast.state(board, player), pit)
                end, to_move, captured, _, following = state
                gained = captured[player] - captured[1 - player]
                assert bool(goes_on[row]) == bool(following)
                if goes_on[row]:
                    assert tuple(after[row].tolist()) == end and nxt[row] == to_move
                # (when the game ends with leftovers="owners", the fast path has
                # given the leftovers to their owners, and so has worth)
                assert worth[row] == gained


@pytest.fixture(scope="module")
def full():
    return solve()


def test_the_full_solution_is_a_fixed_point(full):
    """Every position's value is the best, over its moves, of the move's worth
    plus (or minus) the value of where it leads; every successor was reached."""
    moves = Moves(full.rules)
    boards, players = moves.boards(full.keys)
    best = np.full(len(full), -10_000, dtype=np.int32)
    for player in (0, 1):
        rows = np.flatnonzero(players == player)
        for choice in range(3):
            legal, after, nxt, goes_on, worth = moves.play(boards[rows], player, choice)
            value = worth.astype(np.int32)
            going = legal & goes_on
            keys = moves.keys(after[going], nxt[going])
            at = np.searchsorted(full.keys, keys)
            assert (full.keys[at] == keys).all()             # closed under moves
            later = full.values[at].astype(np.int32)
            value[going] += np.where(nxt[going] == player, later, -later)
            value[~legal] = -10_000
            np.maximum.at(best, rows, value)
    assert (best == full.values).all()


def test_the_full_solution_agrees_with_minimax_where_few_counters_are_left(full):
    minimax = Minimax(ms.get_game("bakuk"))
    moves = Moves(full.rules)
    few = full.keys < 2 * moves.levels[4]              # four counters or fewer
    boards, players = moves.boards(full.keys[few])
    assert few.sum() > 100
    for board, player, value in zip(boards.tolist(), players.tolist(),
                                    full.values[few].tolist()):
        assert minimax.value(tuple(board), player) == value


def test_the_opening_value_is_its_best_move(full):
    start, to_move = full.start
    assert start == (6,) * 6 and to_move == 0
    first = full.move_values(start, to_move)
    assert sorted(first) == [0, 1, 2]
    assert full.value(start, to_move) == max(first.values())


def test_solution_lookups_and_errors(full):
    with pytest.raises(KeyError):
        full.value((36, 0, 0, 0, 0, 0), 1)        # not reachable from the start
    with pytest.raises(InvalidPositionError):
        full.value((6, 6, 6), 0)                  # not a position of this board
    with pytest.raises(InvalidPositionError, match="game is over"):
        solve(start=((0, 0, 0, 1, 1, 2), 0))
    # five counters on the board: 31 off it, odd, which play cannot reach
    with pytest.raises(InvalidPositionError, match="which play cannot reach") as odd:
        solve(start=((0, 2, 1, 0, 1, 1), 0))
    assert odd.value.field == "captured"
    smaller = solve(start=((0, 2, 1, 0, 1, 1), 0), allow_unreachable=True)
    assert len(smaller) > 1 and smaller.start == ((0, 2, 1, 0, 1, 1), 0)
    with pytest.raises(OptionError):                  # only True allows, not a truthy "no"
        solve(start=((0, 2, 1, 0, 1, 1), 0), allow_unreachable="no")
    with pytest.raises(InvalidPositionError) as bad_player:
        solve(start=((6,) * 6, 2))
    assert bad_player.value.field == "to_move"
    with pytest.raises(InvalidPositionError) as bad_pits:
        solve(start=((6,) * 5, 0))
    assert bad_pits.value.field == "pits"
    with pytest.raises(OptionError):
        Rules(chain="sideways")
    with pytest.raises(OptionError) as unknown:
        Rules(colour="red")
    assert (unknown.value.game, unknown.value.option, unknown.value.value) == (
        "bakuk", "colour", "red")
    with pytest.raises(OptionError) as size:
        Rules(pits_per_row=0)
    assert (size.value.option, size.value.value) == ("pits_per_row", 0)
    with pytest.raises(OptionError) as many:
        Rules(seeds_per_pit=30)
    assert many.value.option == "seeds_per_pit"
    with pytest.raises(OptionError, match="two-player") as three:
        Rules.from_game(ms.get_game("bakuk", players=3))
    assert (three.value.option, three.value.value, three.value.choices) == ("players", 3, (2,))
    with pytest.raises(UnknownGameError, match="only Bakuk") as other:
        Rules.from_game(ms.get_game("ba-awa"))
    assert (other.value.name, other.value.known) == ("ba-awa", ("bakuk",))
    assert Rules.from_game(ms.get_game("bakuk", chain="backward")) == Rules(chain="backward")
    # an option the solver does not take, not at its default: other rules, refused
    # (before, Koumma's game gave the default rules, whose values the Play page showed)
    for ruleset, name in (("koumma", "first_counter"), ("mancalagames", "decided")):
        with pytest.raises(OptionError, match=f"solves Bakuk with {name}=") as koumma:
            Rules.from_game(ms.get_game("bakuk", ruleset=ruleset))
        assert koumma.value.option == name


def test_the_rules_derive_from_the_option_declarations():
    """solve.Rules takes exactly Bakuk's declared two-player options, with
    their declared defaults, and is an immutable, hashable value."""
    import pickle

    from mancala_spec.options import kernel_options
    from mancala_spec.solve import SOLVED_OPTIONS
    declared = {o.name: o.default for o in kernel_options("bakuk")}
    assert set(SOLVED_OPTIONS) == set(declared) - {"players", "turn_order"}
    assert "sixes" not in SOLVED_OPTIONS     # Koumma's: the kernel does not play it
    rules = Rules()
    assert rules.options() == {name: declared[name] for name in SOLVED_OPTIONS}
    assert Rules(chain="backward") != rules and hash(Rules()) == hash(rules)
    assert pickle.loads(pickle.dumps(Rules(chain="backward"))) == Rules(chain="backward")
    with pytest.raises(AttributeError):
        rules.chain = "backward"


def test_the_rules_are_the_engine_game_and_a_board():
    """solve.Rules holds the engine's game value (its options are the game's,
    compared as a game is), and the solver takes that game itself too."""
    game = ms.get_game("bakuk", chain="backward", no_move="pass")
    rules = Rules(chain="backward", no_move="pass")
    assert rules.game == game and rules == Rules.from_game(game)
    assert Rules(2, 2, chain="backward") != Rules(chain="backward")      # another board
    assert rules.no_move is game.options["no_move"]
    start = ((0, 0, 1, 1, 2, 0), 0)
    by_game = solve(game, start=start, allow_unreachable=True)
    by_rules = solve(rules, start=start, allow_unreachable=True)
    assert by_game.rules == rules
    assert (by_game.keys.tolist(), by_game.values.tolist()) == (by_rules.keys.tolist(),
                                                                 by_rules.values.tolist())


class ReferenceMinimax:
    """The same search as :class:`Minimax`, on the reference engine's positions
    (``Position.play``), for games whose leftovers score nothing: a check of the
    solver that does not go through the kernel at all."""

    def __init__(self, game: Bakuk) -> None:
        assert game.options["leftovers"] == "unscored"
        self.game = game
        self.memo: dict = {}

    def value(self, pits, to_move: int) -> int:
        # captured: Game.position's default, the counters off the board in twos
        return self._value(self.game.position(pits, to_move=to_move))

    def _value(self, pos) -> int:
        key = (pos.pits, pos.to_move, frozenset(pos.history))
        if key not in self.memo:
            mover, best = pos.to_move, None
            for pit in pos.legal_moves():
                child = pos.play(pit)
                value = ((child.captured[mover] - pos.captured[mover])
                         - (child.captured[1 - mover] - pos.captured[1 - mover]))
                if not child.is_over:
                    later = self._value(child)
                    value += later if child.to_move == mover else -later
                best = value if best is None else max(best, value)
            self.memo[key] = best
        return self.memo[key]


@pytest.mark.parametrize("options", [o for o in ALL_OPTIONS if o["leftovers"] == "unscored"],
                         ids=label)
def test_sampled_positions_have_the_reference_engines_minimax_values(options):
    """Every position of the 2x2 board, and 15 sampled positions of the real
    board with six counters or fewer, against minimax on the reference engine."""
    small = solve(Rules(pits_per_row=2, seeds_per_pit=2, **options))
    search = ReferenceMinimax(small_bakuk(2, 2, **options))
    for pits, player, value in positions(small):
        assert search.value(pits, player) == value, (pits, player)
    start = ((0, 2, 1, 0, 1, 2), 0)
    real = solve(Rules(**options), start=start)
    search = ReferenceMinimax(ms.get_game("bakuk", **options))
    sample = random.Random(label(options)).sample(list(positions(real)), min(15, len(real)))
    for pits, player, value in sample:
        assert search.value(pits, player) == value, (pits, player)


def test_ba_awa_rules_are_the_engine_game():
    """The Ba-awa solver's rules are the engine's game too: compared, hashed
    and pickled as the game is, no equality of their own."""
    import pickle

    from mancala_spec.solve.ba_awa import BaAwaRules
    rules = BaAwaRules(no_move="owners")
    assert rules.game == ms.get_game("ba-awa", no_move="owners")
    assert rules == BaAwaRules(no_move="owners") != BaAwaRules()
    assert hash(rules) == hash(BaAwaRules(no_move="owners"))
    assert pickle.loads(pickle.dumps(rules)) == rules and rules.no_move == "owners"
    with pytest.raises(AttributeError):
        rules.no_move = "pass"

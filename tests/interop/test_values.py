"""Exact values as a yardstick (mancala_spec.interop.values): the evaluator reads the
solved tables for a position, an OpenSpiel state or a PettingZoo environment.

Bakuk's values are checked against a plain search of the engine's own game (no table,
no solver: the engine plays every line to its end) from positions just after a capture,
and by play: the perfect player, as an OpenSpiel bot, gets at least the start's value
against random play and exactly it against itself. Ba-awa's come from a table of a
twelve-seed start (solved here, some seconds), read through a PettingZoo environment
started there. Where no table holds the values the evaluator says so.
"""
from __future__ import annotations

import random

import pytest

import mancala_spec as ms
from mancala_spec.interop.values import Evaluator, NoValuesError

TWELVE = "1,1,1,1,1,1/1,1,1,1,1,1 S 20-16 opener=S"


@pytest.fixture(scope="module")
def bakuk():
    return Evaluator.for_game("bakuk")


@pytest.fixture(scope="module")
def ba_awa_table(tmp_path_factory):
    from mancala_spec.solve.ba_awa import solve
    from mancala_spec.solved_ba_awa import write_ba_awa_table

    solution = solve(start=((1,) * 12, 0))
    return solution, write_ba_awa_table(tmp_path_factory.mktemp("values") / "ba-awa", solution)


class TooLong(Exception):
    """The search looked at more positions than it was given."""


def searched(pos, budget: list[int]) -> int:
    """The margin the player to move can force, by playing every line of the engine's
    game to its end (the engine's repetition rule ends the lines that loop), looking
    at no more positions than *budget* holds (else :class:`TooLong`)."""
    if pos.is_over:
        return 0
    budget[0] -= 1
    if budget[0] < 0:
        raise TooLong
    mover, best = pos.to_move, None
    for pit in pos.legal_moves():
        after = pos.play(pit)
        gained = [a - b for a, b in zip(after.captured, pos.captured)]
        worth = gained[mover] - gained[1 - mover]
        later = searched(after, budget)
        value = worth + (later if after.to_move == mover else -later)
        best = value if best is None else max(best, value)
    return best


def endgames(count: int, most: int, nodes: int = 20_000):
    """Positions of random Bakuk games just after a capture (no history) with at most
    *most* counters on the board, each with its searched value and its moves': those
    whose search looks at no more than *nodes* positions (the seed makes them the same
    every run)."""
    game, rng, found = ms.get_game("bakuk"), random.Random(45), []
    while len(found) < count:
        pos = game.start()
        while not pos.is_over:
            pos = pos.play(rng.choice(pos.legal_moves()))
            if not pos.is_over and not pos.history and pos.seeds_on_board <= most:
                try:
                    budget = [nodes]
                    value = searched(pos, budget)
                    moves = {}
                    for pit in pos.legal_moves():
                        after = pos.play(pit)
                        gained = [a - b for a, b in zip(after.captured, pos.captured)]
                        later = searched(after, budget)
                        moves[pit] = gained[pos.to_move] - gained[1 - pos.to_move] + (
                            later if after.to_move == pos.to_move else -later)
                except TooLong:
                    break
                found.append((pos, value, moves))
                break
    return found


def test_bakuk_values_are_those_of_a_plain_search_of_the_engine(bakuk):
    positions = endgames(16, 6)
    assert max(pos.seeds_on_board for pos, _, _ in positions) == 6
    for pos, value, moves in positions:
        assert bakuk.value(pos) == value, pos.to_text()
        assert bakuk.move_values(pos) == moves, pos.to_text()


def test_the_perfect_bot_gets_the_value_of_the_start(bakuk):
    import pyspiel
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    from mancala_spec.interop.openspiel import PerfectBot

    game = pyspiel.load_game("mancala_spec_bakuk")
    start = bakuk.value(ms.get_game("bakuk").start())
    perfect = PerfectBot(bakuk, seed=1)
    for seat in (0, 1):
        for number in range(4):
            bots = [UniformRandomBot(1 - seat, random.Random(number)), perfect]
            if seat == 0:
                bots.reverse()
            returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, number)
            assert returns[seat] >= (start if seat == 0 else -start)
    returns = pyspiel.evaluate_bots(game.new_initial_state(), [perfect, PerfectBot(bakuk)], 0)
    assert returns == [start, -start]


def test_an_environment_of_ba_awa_is_valued_from_its_table(ba_awa_table):
    from mancala_spec.interop.pettingzoo import env

    solution, folder = ba_awa_table
    evaluator = Evaluator.for_game("ba-awa", table=folder)
    environment = env("ba-awa")
    environment.reset(options={"start": TWELVE})
    rng = random.Random(45)
    while not environment.unwrapped.position.is_over:
        pos = environment.unwrapped.position
        assert evaluator.value(environment) == solution.value(pos.pits, pos.to_move)
        values = evaluator.move_values(environment)
        assert max(values.values()) == evaluator.value(environment)
        assert evaluator.loss(environment, evaluator.best_moves(environment)[0]) == 0
        environment.step(rng.choice(pos.legal_moves()))
    assert evaluator.value(environment) == 0


def test_where_no_table_holds_the_values_the_evaluator_says_so(bakuk, ba_awa_table,
                                                               tmp_path):
    with pytest.raises(NoValuesError, match="no table of Ba-awa values") as caught:
        Evaluator.for_game("ba-awa")
    assert caught.value.field == "table"
    with pytest.raises(NoValuesError, match="two-player") as caught:
        Evaluator.for_game(ms.get_game("bakuk", players=3))
    assert caught.value.field == "rules"
    with pytest.raises(NoValuesError, match="no table holds these rules"):
        Evaluator.for_game(ms.get_game("bakuk", ruleset="koumma"))
    with pytest.raises(NoValuesError, match="other rules"):
        Evaluator.for_game(ms.get_game("ba-awa", skip_origin=True), table=ba_awa_table[1])
    with pytest.raises(NoValuesError, match="not of"):
        bakuk.value(ms.get_game("bakuk", chain="backward").start())
    evaluator = Evaluator.for_game("ba-awa", table=ba_awa_table[1])
    with pytest.raises(NoValuesError, match="does not hold") as caught:
        evaluator.value(ms.get_game("ba-awa").start())      # 48 seeds: not in a 12-seed table
    assert caught.value.field == "position"
    with pytest.raises(NoValuesError, match="not a legal move"):
        bakuk.loss(ms.get_game("bakuk").start(), 4)
    with pytest.raises(NoValuesError, match="not 'text'"):
        bakuk.value("text")
    with pytest.raises(ms.errors.TableError):
        Evaluator.for_game("ba-awa", table=tmp_path)         # no index there

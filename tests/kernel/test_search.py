"""The strong built-in player (mancala_spec.fast.search): legal moves under every
option, a budget that holds (checked with a counting clock, not by timing), and
a search that sees further than the greedy player.

How strong it is against the greedy player over 200 games is measured by the
benchmark benchmarks/bench_strong_player.py (a benchmark, not a test)."""
from __future__ import annotations

import random

import pytest

import mancala_spec as ms
from mancala_spec.engine.players import greedy_move
from mancala_spec.fast import FastGame
from mancala_spec.fast.search import CHECK_EVERY, PAGE_NODES, PAGE_SECONDS, search, search_state


class CountingClock:
    """A clock that moves on by *step* seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


@pytest.mark.parametrize("name, options", [
    ("ba-awa", {}), ("ba-awa", {"players": 3}),
    ("ba-awa", {"endless": "stop", "no_move": "owners"}),
    ("bakuk", {}), ("bakuk", {"chain": "backward", "no_move": "pass"}), ("bakuk", {"players": 3}),
])
def test_the_search_plays_legal_moves_to_the_end(name, options):
    game = ms.get_game(name, **options)
    pos, rng = game.start(), random.Random(4)
    moves = 0
    while not pos.is_over and moves < 80:
        result = search(pos, nodes=300, rng=rng)
        assert result.move in pos.legal_moves() and result.nodes <= 300
        pos = pos.play(result.move)
        moves += 1
    assert moves > 5


def test_the_node_budget_holds():
    pos = ms.get_game("ba-awa").start()
    for nodes in (1, 50, 1000):
        result = search(pos, nodes=nodes, seconds=1e9)
        assert result.nodes == nodes          # the budget, exactly: the search ran out
        assert result.move in pos.legal_moves()
    assert search(pos, nodes=1, seconds=1e9).depth == 0


def test_the_time_budget_holds_whatever_the_machine():
    """With a clock that says 0.01 s pass between readings, a one-second budget
    ends the search after about 100 readings: it reads the clock every
    CHECK_EVERY positions and stops at the first reading past its time."""
    pos = ms.get_game("ba-awa").start()
    clock = CountingClock(0.01)
    result = search(pos, nodes=10**9, seconds=1.0, clock=clock)
    assert 1.0 <= result.seconds <= 1.0 + 3 * 0.01
    assert result.nodes <= (clock.reads + 1) * CHECK_EVERY
    assert result.move in pos.legal_moves() and result.depth >= 1
    # the Play page's budget: a fixed amount of search, one second at most
    assert PAGE_NODES <= 20_000 and PAGE_SECONDS <= 1.0


def test_a_won_ending_is_taken():
    """Bakuk, South to move: sowing b makes a four in B, the last counters North
    could capture with; the search finds the capture the greedy player finds."""
    pos = ms.get_game("bakuk").parse("3,3,1/1,3,3 S 10-12 opener=S")
    result = search(pos, nodes=20_000)
    after = pos.play(result.move)
    assert after.captured[0] - pos.captured[0] >= 2


def test_the_search_beats_the_greedy_player_more_often_than_not():
    """A small match (the benchmark plays 200 games at the page's budget)."""
    game = ms.get_game("ba-awa")
    fast = FastGame(game)
    rng = random.Random(11)
    wins = 0
    for number in range(6):
        strong = number % 2
        pos = game.start()
        while not pos.is_over:
            if pos.to_move == strong:
                pit = search_state(fast, fast.from_position(pos), nodes=1500, rng=rng).move
            else:
                pit = greedy_move(pos, rng)
            pos = pos.play(pit)
        wins += pos.winner == strong
    assert wins >= 4, wins


def test_searching_a_finished_game_is_a_typed_error():
    """No move to search: the package's IllegalMoveError (reason game-over), not a
    plain ValueError."""
    import mancala_spec as ms
    from mancala_spec.fast import FastGame

    game = ms.get_game("bakuk")
    over = game.parse("0,0,0/0,0,0 S 18-18")
    fast = FastGame(game)
    with pytest.raises(ms.IllegalMoveError) as raised:
        search_state(fast, fast.from_position(over), nodes=10)
    assert raised.value.reason == "game-over"

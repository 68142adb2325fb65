"""The ending as a value: ``pos.outcome`` is None while a game goes on, and once it
is over says why (the reason and the rule) and who won; it is decided in one
place (each game's ``after_move``), for played and for constructed positions."""
from __future__ import annotations

import pickle
import random

import pytest
from helpers import game_end

import mancala_spec as ms
from mancala_spec.engine.outcome import Outcome

BA_AWA = ms.get_game("ba-awa")
BAKUK = ms.get_game("bakuk")


@pytest.mark.parametrize("name", ["ba-awa", "bakuk"])
def test_every_game_ends_with_the_outcome_its_last_event_states(name):
    game = ms.get_game(name)
    for seed in range(40):
        rng, pos = random.Random(seed), game.start()
        while pos.outcome is None:
            assert not pos.is_over and pos.winner is None and pos.legal_moves()
            trace = pos.trace(rng.choice(pos.legal_moves()))
            pos = trace.position
        end = game_end(trace)
        assert pos.outcome == Outcome(end.reason, end.rule, pos.winner)
        assert pos.is_over and pos.legal_moves() == []
        most = max(pos.captured)
        assert pos.outcome.draw == (pos.captured.count(most) > 1)


def test_the_outcome_of_each_way_a_game_ends():
    eight = BA_AWA.parse("1,3,0,0,0,0/2,2,2,2,0,0 S 16-20 opener=N").play("a")
    assert eight.outcome == Outcome("eight-seeds", "ba-awa-eight", 1)
    exhausted = BAKUK.parse("1,1,1/1,0,0 S 14-18 opener=S").play("c")
    assert exhausted.outcome == Outcome("exhausted", "bakuk-exhausted", 1)
    assert exhausted.outcome.describe() == "the player to move has no counters left"
    assert exhausted.outcome.as_dict() == {"reason": "exhausted", "rule": "bakuk-exhausted",
                                           "winner": 1}


def test_constructed_finished_positions_have_the_outcome_their_rules_give():
    empty = BA_AWA.position([0] * 12, captured=(24, 24))
    assert empty.outcome == Outcome("eight-seeds", "ba-awa-eight", None)   # 0 <= 8
    stuck = BAKUK.position([0, 0, 0, 6, 6, 4], captured=(10, 10))
    assert stuck.outcome == Outcome("exhausted", "bakuk-exhausted", None)
    seen = BAKUK.parse("1,0,0/0,1,0 S 18-16 seen=1,0,0/0,1,0:S")
    assert seen.outcome == Outcome("repetition", "bakuk-repetition", 0)
    assert BAKUK.start().outcome is None and BA_AWA.start().outcome is None


def test_an_outcome_survives_pickling_though_the_board_does_not_show_it():
    pos = BA_AWA.parse("1,3,0,0,0,0/2,2,2,2,0,0 S 16-20 opener=N").play("a")
    assert pickle.loads(pickle.dumps(pos)).outcome == pos.outcome
    assert ms.Outcome is Outcome

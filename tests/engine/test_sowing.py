"""The sowing primitives, the sowing order, and the way a move's events are recorded.

The reference engine sows seed by seed, asking the game where each seed goes
(``Game.next_pit``). These tests hold that order to the rules, and hold
recorded events to the events they are read as.
"""
from __future__ import annotations

import pickle

import pytest

import mancala_spec as ms
from mancala_spec.engine.sowing import Sowing
from mancala_spec.engine.trace import Drop, EndOfLap, Trace


def position(game_name, pits, **options):
    game = ms.get_game(game_name, **options)
    captured = game.total_seeds - sum(pits)
    return game.position(pits, captured=(captured, 0))


@pytest.mark.parametrize("skip_origin", [False, True])
@pytest.mark.parametrize("game_name", ["bakuk", "ba-awa"])
def test_the_sowing_order_is_counter_clockwise_passing_the_origin_only_if_told(game_name,
                                                                              skip_origin):
    game = ms.get_game(game_name, skip_origin=skip_origin)
    size = game.board.size
    for origin in range(size):
        for pit in range(size):
            expected = (pit + 1) % size
            if skip_origin and expected == origin:
                expected = (expected + 1) % size      # the origin is passed over
            assert game.next_pit(pit, origin) == expected


@pytest.mark.parametrize("skip_origin", [False, True])
def test_a_long_ba_awa_lap_drops_into_every_pit_but_perhaps_its_origin(skip_origin):
    game = ms.get_game("ba-awa", skip_origin=skip_origin)
    # (a holds none: 24 seeds on the board, a number play can leave, captures being fours)
    pos = position("ba-awa", [0, 2, 1, 2, 1, 2, 9, 1, 2, 1, 2, 1], skip_origin=skip_origin)
    for seeds in (11, 12, 13, 23, 24, 25):
        s = Sowing(pos)
        s.pits[6] = 0
        last, count = game.sow_lap(s, 6, seeds, "ba-awa-sow")
        drops = [e.pit for e in s.events if isinstance(e, Drop)]
        assert len(drops) == seeds
        assert (6 in drops) == (not skip_origin and seeds >= 12)
        assert s.events[-1] == EndOfLap("ba-awa-sow", 0, last, count)
        assert sum(s.pits) + sum(s.captured) == game.total_seeds - 9 + seeds


def test_a_capture_on_the_way_is_recorded_between_its_drops():
    # Ba-awa: a drop that makes four (not the last) goes to the pit's owner at once.
    # (F holds 3, untouched: 12 seeds on the board, a number play can leave)
    pos = position("ba-awa", [0, 3, 3, 0, 0, 0, 3, 0, 0, 0, 0, 3])
    game = pos.game
    s = Sowing(pos)
    s.pits[0] = 3                                  # three seeds in hand from a
    last, count = game.sow_lap(s, 0, 3, "ba-awa-sow")
    kinds = [(e.kind, e.pit) for e in s.events]
    assert kinds == [("drop", 1), ("capture", 1), ("drop", 2), ("capture", 2), ("drop", 3),
                     ("end-of-lap", 3)]
    assert (last, count) == (3, 1) and s.captured == [pos.captured[0] + 8, 0] and s.took


def test_recorded_events_are_read_once_as_the_events_of_the_move():
    pos = ms.get_game("bakuk").start()
    trace = pos.trace("c")
    first = trace.events
    assert trace.events is first                    # built once, then kept
    assert first == tuple(pos.game.sow_move(pos, 2).events)
    assert [e.kind for e in first] == ["pick-up"] + ["drop"] * 6 + ["end-of-lap", "end-of-move"]


def test_a_trace_is_a_read_only_value():
    pos = ms.get_game("ba-awa").start()
    trace = pos.trace("c")
    for name in ("before", "pit", "events", "position"):
        with pytest.raises(AttributeError):
            setattr(trace, name, None)
    with pytest.raises(AttributeError):
        del trace.pit
    assert trace == pos.trace("c") and hash(trace) == hash(pos.trace("c"))
    assert trace != pos.trace("d")
    assert pickle.loads(pickle.dumps(trace)) == trace
    assert Trace(trace.before, trace.pit, trace.events, trace.position) == trace
    assert trace.replace(position=pos).position is pos and trace.position is not pos
    with pytest.raises(TypeError, match="no field 'laps'"):
        trace.replace(laps=3)

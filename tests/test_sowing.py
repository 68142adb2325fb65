"""The sowing primitives and the way a move's events are recorded.

A lap with nothing happening on the way is applied whole and recorded as one
record; these tests hold it to the seed-by-seed lap it stands for, and hold
recorded events to the events they are read as.
"""
from __future__ import annotations

import pickle

import pytest

import mancala_spec as ms
from mancala_spec.engine.sowing import Sowing, SowingOrder
from mancala_spec.engine.trace import Drop, EndOfLap, Trace, build_events

NEVER = 10 ** 9   # an owner_takes count no pit reaches: the lap is sown seed by seed


def position(game_name, pits, **options):
    game = ms.get_game(game_name, **options)
    captured = game.total_seeds - sum(pits)
    return game.position(pits, captured=(captured, 0))


@pytest.mark.parametrize("skip_origin", [False, True])
@pytest.mark.parametrize("game_name", ["bakuk", "ba-awa"])
def test_a_whole_lap_is_the_seed_by_seed_lap(game_name, skip_origin):
    game = ms.get_game(game_name, skip_origin=skip_origin)
    size = game.board.size
    pits = [(3 * pit + 1) % 5 for pit in range(size)]
    pos = position(game_name, pits, skip_origin=skip_origin)
    for origin in range(size):
        for seeds in range(0, 3 * size + 2):       # up to three times round the board
            whole, by_seed = Sowing(pos), Sowing(pos)
            whole.pits[origin] = by_seed.pits[origin] = 0
            ends = (whole.sow_lap(origin, seeds, "r"), by_seed.sow_lap(origin, seeds, "r", NEVER))
            assert ends[0] == ends[1], (origin, seeds)
            assert whole.pits == by_seed.pits, (origin, seeds)
            assert whole.events == by_seed.events, (origin, seeds)
            assert len(whole.records) == 2                    # one record for all the drops
            drops = [e for e in whole.events if isinstance(e, Drop)]
            assert len(drops) == seeds
            if skip_origin and seeds:
                assert origin not in {d.pit for d in drops}   # the origin is passed over
            assert whole.events[-1] == EndOfLap("r", 0, ends[0][0], ends[0][1])


def test_the_lap_table_grows_on_demand_and_agrees_with_next():
    order = SowingOrder(6, False)            # a fresh one (sowing_order's are shared)
    gains, last = order.lap(1, 20)           # asks for 0 … 20 seeds from b at once
    assert len(order.laps[1]) == 21
    assert sum(gains) == 20 and last == (1 + 20) % 6
    pit, counts = 1, [0] * 6
    for _ in range(20):
        pit = order.next[1][pit]
        counts[pit] += 1
    assert (tuple(counts), pit) == (gains, last)


def test_a_capture_on_the_way_is_recorded_between_its_drops():
    # Ba-awa: a drop that makes four (not the last) goes to the pit's owner at once.
    pos = position("ba-awa", [0, 3, 3, 0, 0, 0, 3, 0, 0, 0, 0, 1])
    s = Sowing(pos)
    s.pits[0] = 3                                  # three seeds in hand from a
    last, count = s.sow_lap(0, 3, "ba-awa-sow", owner_takes=4, owner_rule="ba-awa-owner-four")
    kinds = [(e.kind, e.pit) for e in s.events]
    assert kinds == [("drop", 1), ("capture", 1), ("drop", 2), ("capture", 2), ("drop", 3),
                     ("end-of-lap", 3)]
    assert (last, count) == (3, 1) and s.captured == (pos.captured[0] + 8, 0) and s.took


def test_recorded_events_are_read_once_as_the_events_of_the_move():
    pos = ms.get_game("bakuk").start()
    trace = pos.trace("c")
    first = trace.events
    assert trace.events is first                    # built once, then kept
    assert first == build_events(pos.game.sow_move(pos, 2).records)
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

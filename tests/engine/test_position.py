"""The Position API (DESIGN.md, "Public API contract"), on both games."""
from __future__ import annotations

import copy
import pickle

import pytest
from helpers import NORTH, SOUTH, make

import mancala_spec as ms
from mancala_spec.engine.trace import Event

BA_AWA = ms.get_game("ba-awa")
BAKUK = ms.get_game("bakuk")
NAMESPACE = {"Position": ms.Position, "get_game": ms.get_game}

# A few positions of each game: start, after moves, custom owners, history, over.
SAMPLES = [
    BA_AWA.start(),
    BA_AWA.start().play("c"),
    BA_AWA.start(opener=NORTH).play("A").play("b"),
    ms.get_game("ba-awa", skip_origin=True, endless="stop").start().play("f"),
    make(BA_AWA, [2, 2, 2, 2, 0, 3, 3, 0, 0, 2, 2, 2], owners=[SOUTH] * 7 + [NORTH] * 5),
    BA_AWA.position([0] * 12, captured=(20, 28), opener=NORTH),
    BAKUK.start(),
    BAKUK.start().play("a").play("B"),
    ms.get_game("bakuk", chain="backward", leftovers="owners").start(opener=NORTH).play("C"),
    BAKUK.parse("0,1,0/0,0,1 S 14-20 opener=S seen=0,0,1/0,0,1:N"),
    BAKUK.parse("0,1,3/0,0,0 N 16-16 opener=S"),
]
IDS = [f"{p.game.name}-{i}" for i, p in enumerate(SAMPLES)]


def value(pos):
    return (pos.game, pos.pits, pos.to_move, pos.captured, pos.opener, pos.owners, pos.history)


# -- reading -------------------------------------------------------------------------


def test_fields_of_the_start():
    pos = BA_AWA.start()
    assert isinstance(pos.pits, tuple) and pos.pits == (4,) * 12
    assert pos.to_move == 0 and pos.captured == (0, 0) and pos.opener == 0
    assert pos.owners == (0,) * 6 + (1,) * 6 and pos.history == ()
    assert pos.is_over is False and pos.winner is None
    assert BAKUK.start().owners == (0, 0, 0, 1, 1, 1)


def test_pit_indices_run_counter_clockwise_from_souths_left():
    # Index 0 is South's leftmost pit (a); North's pits follow from A, so a seed
    # sown from South's f (5) lands in North's A (6), and from F (11) in a (0).
    pos = ms.Position(ms.get_game("ba-awa"), "9,1,2,3,4,5/6,7,0,0,10,1 S 0-0 opener=S")
    assert pos.pits[0] == 9 and pos.pits[6] == 6 and pos.pits[11] == 1
    assert [BA_AWA.board.pit(n) for n in "afAF"] == [0, 5, 6, 11]
    assert BA_AWA.board.name(BA_AWA.board.next(5)) == "A"
    assert BA_AWA.board.name(BA_AWA.board.next(11)) == "a"


@pytest.mark.parametrize("pos", SAMPLES, ids=IDS)
def test_legal_moves_sorted_own_pits_empty_iff_over(pos):
    moves = pos.legal_moves()
    assert isinstance(moves, list) and moves == sorted(moves)
    assert all(pos.owners[p] == pos.to_move and pos.pits[p] > 0 for p in moves)
    assert bool(moves) == (not pos.is_over)
    moves.append(99)                              # a fresh list each call
    assert 99 not in pos.legal_moves()


@pytest.mark.parametrize("pos", SAMPLES, ids=IDS)
def test_winner_is_none_unless_over(pos):
    if not pos.is_over:
        assert pos.winner is None
    else:
        best = max(pos.captured)
        expected = pos.captured.index(best) if pos.captured.count(best) == 1 else None
        assert pos.winner == expected


def test_winner_and_draw():
    assert BA_AWA.position([0] * 12, captured=(24, 24)).winner is None
    assert BA_AWA.position([0] * 12, captured=(20, 28)).winner == NORTH
    assert BAKUK.position([0] * 6, captured=(20, 16)).winner == SOUTH
    over = BAKUK.parse("0,1,3/0,0,0 N 16-16 opener=S")        # North has no counters
    assert over.is_over and over.winner is None


# -- moving ------------------------------------------------------------------------------


@pytest.mark.parametrize("pos", SAMPLES, ids=IDS)
def test_play_never_mutates_and_agrees_with_trace(pos):
    before = value(pos)
    text = pos.to_text()
    for pit in pos.legal_moves():
        after = pos.play(pit)
        trace = pos.trace(pit)
        assert value(pos) == before and pos.to_text() == text
        assert trace.before is pos and trace.pit == pit
        assert trace.position == after
        assert pos.play(pos.game.board.name(pit)) == after       # by name, same move
        assert isinstance(trace.events, tuple) and trace.events
        assert all(isinstance(e, Event) for e in trace.events)
        assert trace.events[0].kind == "pick-up" and trace.events[0].pit == pit
        assert sum(after.pits) + sum(after.captured) == pos.game.total_seeds


def test_trace_describe_is_one_line_per_event_with_names_and_rules():
    trace = BAKUK.parse("2,4,3/0,0,1 S 12-14 opener=S").trace("c")
    lines = trace.describe().splitlines()
    assert len(lines) == len(trace.events)
    assert lines[0] == "pick up 3 from c  [bakuk-choose]"
    assert "South captures 2 from C  [bakuk-capture]" in lines
    assert "South captures 4 from b  [bakuk-chain]" in lines
    assert all(line.endswith("]") for line in lines)
    assert trace.laps == 1 and len(trace.captures) == 3


def test_sowing_cache_is_not_shared_between_moves():
    pos = BA_AWA.start()
    first = pos.trace("c")
    second = pos.trace("c")
    assert first.events == second.events and first.position == second.position


# -- text, equality, immutability ------------------------------------------------------------


@pytest.mark.parametrize("pos", SAMPLES, ids=IDS)
def test_repr_pastes_back(pos):
    text = repr(pos)
    assert text.startswith("Position(get_game(")
    again = eval(text, NAMESPACE)                  # noqa: S307 - our own repr
    assert again == pos and value(again) == value(pos)


def test_repr_names_non_default_options_only():
    pos = ms.get_game("bakuk", chain="backward", skip_origin=False).start()
    assert repr(pos) == ("Position(get_game('bakuk', chain='backward'), "
                         "'6,6,6/6,6,6 S 0-0 opener=S')")


@pytest.mark.parametrize("pos", SAMPLES, ids=IDS)
def test_position_from_text_equals_parse(pos):
    assert ms.Position(pos.game, pos.to_text()) == pos == pos.game.parse(pos.to_text())


def test_str_draws_north_on_top_right_to_left_with_pit_names():
    pos = BA_AWA.position([1, 2, 3, 4, 5, 6, 7, 8, 9, 3, 0, 0], captured=(0, 0))
    lines = str(pos).splitlines()
    assert len(lines) == 4
    assert lines[0].split() == list("FEDCBA")
    assert lines[1].split()[:7] == ["North", "0", "0", "3", "9", "8", "7"]
    assert "captured 0" in lines[1] and "to move" not in lines[1]
    assert lines[2].split()[:7] == ["South", "1", "2", "3", "4", "5", "6"]
    assert lines[2].endswith("to move")
    assert lines[3].split() == list("abcdef")
    # Columns line up: each pit's name sits straight above/below its count.
    assert lines[0].index("F") == lines[1].index("0")          # F holds 0
    assert lines[0].index("C") == lines[1].index("9")          # C holds 9
    assert lines[3].index("a") == lines[2].index("1")          # a holds 1
    assert lines[3].index("f") == lines[2].index("6")          # f holds 6


def test_str_of_a_bakuk_game_over():
    text = str(BAKUK.parse("0,1,3/0,0,0 N 16-16 opener=S"))
    lines = text.splitlines()
    assert lines[0].split() == list("CBA") and lines[3].split() == list("abc")
    assert lines[2].split()[:4] == ["South", "0", "1", "3"]
    assert "to move" not in text
    assert lines[-1] == "game over: draw"
    won = str(BA_AWA.position([0] * 12, captured=(20, 28)))
    assert won.splitlines()[-1] == "game over: North wins"


def test_equality_and_hash():
    a = BA_AWA.start().play("c")
    b = BA_AWA.start().play("c")
    assert a == b and hash(a) == hash(b) and a is not b
    assert len({a, b, BA_AWA.start()}) == 2
    assert a != BA_AWA.start().play("d")
    # The game and its options are part of the value.
    other = ms.get_game("ba-awa", skip_origin=True)
    assert BA_AWA.start() != other.start()
    assert BA_AWA.start() == ms.get_game("ba-awa", skip_origin=False).start()
    # So are the opener and the history.
    assert BA_AWA.position([4] * 12, opener=NORTH) != BA_AWA.start()
    plain = make(BAKUK, [1, 0, 0, 1, 1, 1])
    with_history = make(BAKUK, [1, 0, 0, 1, 1, 1], history=[([0, 1, 0, 1, 1, 1], NORTH)])
    assert plain != with_history
    assert make(BAKUK, [1, 0, 0, 1, 1, 1], opener=NORTH) != plain
    assert (BA_AWA.start() == "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S") is False


@pytest.mark.parametrize("name", ["pits", "to_move", "captured", "opener", "owners", "history",
                                  "game", "anything"])
def test_setting_an_attribute_raises(name):
    pos = BA_AWA.start()
    with pytest.raises(AttributeError, match="immutable"):
        setattr(pos, name, (0,) * 12)
    assert pos == BA_AWA.start()


def test_deleting_an_attribute_raises():
    pos = BA_AWA.start()
    with pytest.raises(AttributeError):
        del pos.pits
    assert pos.pits == (4,) * 12


def test_copies_are_the_same_value():
    pos = BAKUK.start().play("b")
    assert copy.copy(pos) == pos and copy.deepcopy(pos) == pos


@pytest.mark.parametrize("pos", SAMPLES, ids=IDS)
def test_pickle_round_trip(pos):
    again = pickle.loads(pickle.dumps(pos))
    assert again == pos and value(again) == value(pos)
    assert again.game.options == pos.game.options
    assert again.legal_moves() == pos.legal_moves()


def test_positions_of_different_games_differ():
    assert BA_AWA.start() != BAKUK.start()
    assert BA_AWA != BAKUK and BA_AWA == ms.get_game("nam-nam")
    assert hash(BA_AWA) == hash(ms.get_game("anenam"))


def test_owners_that_are_not_a_sequence_and_counts_with_many_leading_zeros():
    bakuk = ms.get_game("bakuk")
    with pytest.raises(ms.InvalidPositionError, match="owners must list 6 players"):
        bakuk.position([6] * 6, owners=5)
    # int() refuses over 4300 digits; leading zeros are not digits of the count
    assert bakuk.parse("0" * 5000 + "6,6,6/6,6,6 S 0-0") == bakuk.start()

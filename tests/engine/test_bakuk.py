"""Bakuk, rule by rule, on hand-picked positions.

Every expected value below was worked out by hand from the rule statement named
in the test's ``@covers(...)``; the comments show the working. Holes are written
``[a, b, c,  A, B, C]`` (indices 0–2 South, 3–5 North); sowing runs a b c A B C,
then a again.
"""
from __future__ import annotations

import pytest
from helpers import (
    NORTH,
    SOUTH,
    captures,
    catalogue_ids,
    covered_rules,
    covers,
    drops,
    game_end,
    laps,
    make,
    move_end,
    passes,
)

import mancala_spec as ms
from mancala_spec.engine.trace import Drop, EndOfGame, EndOfMove, PickUp, Relay

GAME = ms.get_game("bakuk")


# -- board, setup, turns, choosing ------------------------------------------------------


@covers("bakuk-board")
def test_board_has_two_rows_of_three_and_no_stores():
    board = GAME.board
    assert board.pits_per_row == 3 and board.size == 6
    assert [board.name(p) for p in range(6)] == list("abcABC")
    assert board.row_owners == (SOUTH,) * 3 + (NORTH,) * 3
    assert [board.next(p) for p in range(6)] == [1, 2, 3, 4, 5, 0]
    assert len(GAME.start().pits) == 6 and len(GAME.start().captured) == 2


@covers("bakuk-setup")
def test_setup_six_counters_in_every_hole():
    pos = GAME.start()
    assert pos.pits == (6,) * 6 and sum(pos.pits) == 36
    assert pos.captured == (0, 0) and pos.to_move == SOUTH and pos.opener == SOUTH


@covers("bakuk-turns")
def test_players_alternate():
    pos = GAME.start()
    assert pos.play("a").to_move == NORTH
    assert pos.play("a").play("A").to_move == SOUTH
    assert GAME.start(opener=NORTH).to_move == NORTH
    assert GAME.start(opener=NORTH).legal_moves() == [3, 4, 5]


@covers("bakuk-choose")
def test_choose_any_own_hole_with_counters():
    pos = make(GAME, [0, 3, 0, 1, 0, 2])
    assert pos.legal_moves() == [1]
    assert make(GAME, [0, 3, 0, 1, 0, 2], to_move=NORTH).legal_moves() == [3, 5]
    with pytest.raises(ms.IllegalMoveError, match="pit a is empty"):
        pos.play("a")
    with pytest.raises(ms.IllegalMoveError, match="pit A belongs to North"):
        pos.play("A")
    trace = pos.trace("b")
    assert trace.events[0] == PickUp("bakuk-choose", 1, 3)


# -- sowing -------------------------------------------------------------------------------


@covers("bakuk-sow")
def test_single_lap_no_relay_from_an_occupied_last_hole():
    # b(2) → c 0→1, A 4→5: the hand is empty; A is occupied but there is no relay,
    # and 5 is neither 2 nor 4.
    trace = make(GAME, [1, 2, 0, 4, 0, 3]).trace("b")
    assert drops(trace) == ["c", "A"]
    assert not [e for e in trace.events if isinstance(e, Relay)]
    assert laps(trace) == [("A", 5)]
    assert move_end(trace) == EndOfMove("bakuk-sow", "single-lap")
    assert {e.rule for e in trace.events if isinstance(e, Drop)} == {"bakuk-sow"}
    assert trace.position.pits == (1, 0, 1, 5, 0, 3) and captures(trace) == []


@covers("bakuk-sow", "bakuk-origin")
@pytest.mark.parametrize("skip_origin, sown, after", [
    # a(6): b c A B C get one each and the 6th comes back into a (emptied): a = 1.
    (False, "bcABCa", (1, 7, 7, 7, 7, 7)),
    # skip_origin: a is passed over, the 6th goes on into b: b = 8.
    (True, "bcABCb", (0, 8, 7, 7, 7, 7)),
])
def test_lap_of_six_from_the_start(skip_origin, sown, after):
    game = ms.get_game("bakuk", skip_origin=skip_origin)
    trace = game.start().trace("a")
    assert "".join(drops(trace)) == sown
    assert trace.position.pits == after and captures(trace) == []
    assert trace.position.to_move == NORTH


@covers("bakuk-origin", "bakuk-capture")
@pytest.mark.parametrize("skip_origin, sown, taken, after", [
    # a(7): b c A B C a b — b gets two: 1 → 3, no capture.
    (False, "bcABCab", [], (1, 3, 1, 1, 1, 1)),
    # skip_origin: b c A B C b c — c gets two: 0 → 2, captured (A = 1: no chain).
    (True, "bcABCbc", [("c", 2, SOUTH, "bakuk-capture")], (0, 3, 0, 1, 1, 1)),
])
def test_lap_of_seven_with_and_without_skip_origin(skip_origin, sown, taken, after):
    game = ms.get_game("bakuk", skip_origin=skip_origin)
    trace = make(game, [7, 1, 0, 0, 0, 0]).trace("a")
    assert "".join(drops(trace)) == sown
    assert captures(trace) == taken
    assert trace.position.pits == after


# -- captures ------------------------------------------------------------------------------


@covers("bakuk-capture")
@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("side", ["own", "opponent"])
def test_last_counter_making_two_or_four_captures_on_either_side(side, count):
    # own:      a(1) → b: (count−1) → count; the next hole c holds 1, so no chain.
    # opponent: c(1) → A: (count−1) → count; the next hole B holds 1, so no chain.
    # C, which the move never reaches, holds 3 or 4: an even number of counters
    # on the board, as play leaves it (captures take twos and fours, and sixes under Koumma).
    if side == "own":
        pits, move, hole, index = [1, count - 1, 1, 0, 1, 3], "a", "b", 1
    else:
        pits, move, hole, index = [0, 0, 1, count - 1, 1, 3], "c", "A", 3
    pits[5] += sum(pits) % 2
    pos = make(GAME, pits)
    trace = pos.trace(move)
    assert laps(trace) == [(hole, count)]
    if count in (2, 4):
        assert captures(trace) == [(hole, count, SOUTH, "bakuk-capture")]
        assert trace.position.pits[index] == 0
        assert trace.position.captured == (pos.captured[0] + count, pos.captured[1])
    else:                                   # 1 (empty hole), 3, 5 and 6 are not captured
        assert captures(trace) == []
        assert trace.position.pits[index] == count
        assert trace.position.captured == pos.captured


@covers("bakuk-capture")
def test_north_captures_on_souths_side():
    # C(1) → a: 3 → 4, captured by North, the mover; b = 1 stops the chain.
    trace = make(GAME, [3, 1, 1, 0, 0, 1], to_move=NORTH).trace("C")
    assert captures(trace) == [("a", 4, NORTH, "bakuk-capture")]
    assert trace.position.pits == (0, 1, 1, 0, 0, 0)


@covers("bakuk-chain", "bakuk-capture")
def test_forward_chain_wraps_from_the_last_hole_to_the_first():
    # c(3) → A 0→1, B 0→1, C 1→2: captured. Forward: a holds 2, b holds 4 (both
    # taken, on South's side), c was emptied by the pick-up: the chain stops.
    pos = make(GAME, [2, 4, 3, 0, 0, 1])
    trace = pos.trace("c")
    assert captures(trace) == [("C", 2, SOUTH, "bakuk-capture"), ("a", 2, SOUTH, "bakuk-chain"),
                               ("b", 4, SOUTH, "bakuk-chain")]
    assert trace.position.pits == (0, 0, 0, 1, 1, 0)
    assert trace.position.captured == (pos.captured[0] + 8, pos.captured[1])


@covers("bakuk-chain")
def test_chain_stops_at_the_first_hole_without_two_or_four():
    # a(1) → b 1→2: captured. Forward: c holds 3 — the chain stops there, so A and
    # B, holding 2 each, stay on the board. (C holds 1: ten counters on the
    # board, an even number, as play leaves it.)
    trace = make(GAME, [1, 1, 3, 2, 2, 1]).trace("a")
    assert captures(trace) == [("b", 2, SOUTH, "bakuk-capture")]
    assert trace.position.pits == (0, 0, 3, 2, 2, 1)


@covers("bakuk-chain")
@pytest.mark.parametrize("chain, taken, after", [
    # a(2) → b 1→2, c 1→2 (last): captured. Forward: A 4 taken, B 3 stops.
    ("forward", [("c", 2, SOUTH, "bakuk-capture"), ("A", 4, SOUTH, "bakuk-chain")],
     (0, 2, 0, 0, 3, 1)),
    # Backward (variant): b 2 taken, a (emptied) stops.
    ("backward", [("c", 2, SOUTH, "bakuk-capture"), ("b", 2, SOUTH, "bakuk-chain")],
     (0, 0, 0, 4, 3, 1)),
])
def test_chain_direction_option(chain, taken, after):
    game = ms.get_game("bakuk", chain=chain)
    # (C holds 1, untouched: twelve counters on the board, an even number.)
    trace = make(game, [2, 1, 1, 4, 3, 1]).trace("a")
    assert captures(trace) == taken
    assert trace.position.pits == after


@covers("bakuk-chain")
@pytest.mark.parametrize("chain, taken", [
    # B(2) → C 1→2, a 3→4 (last): North captures a. Forward: b holds 3: stop.
    ("forward", [("a", 4, NORTH, "bakuk-capture")]),
    # Backward: C holds 2 (wrapping from a back to C): taken; B was emptied: stop.
    ("backward", [("a", 4, NORTH, "bakuk-capture"), ("C", 2, NORTH, "bakuk-chain")]),
])
def test_backward_chain_wraps_from_the_first_hole_to_the_last(chain, taken):
    game = ms.get_game("bakuk", chain=chain)
    # (A holds 1, untouched: ten counters on the board, an even number.)
    trace = make(game, [3, 3, 0, 1, 2, 1], to_move=NORTH).trace("B")
    assert captures(trace) == taken


# -- the end of the game ---------------------------------------------------------------------

# South a(1) → b 0→1, no capture; North, to move next, has no counters.
EXHAUST = [1, 0, 3, 0, 0, 0]
AFTER_EXHAUST = (0, 1, 3, 0, 0, 0)


@covers("bakuk-end", "bakuk-exhausted", "bakuk-leftovers", "bakuk-draw")
def test_game_ends_when_the_player_to_move_has_no_counters():
    pos = make(GAME, EXHAUST)                     # 16–16 captured
    trace = pos.trace("a")
    assert game_end(trace) == EndOfGame("bakuk-exhausted", "exhausted")
    after = trace.position
    # Leftovers are not scored by default: they stay on the board, unscored.
    assert after.pits == AFTER_EXHAUST and after.captured == (16, 16)
    assert after.is_over and after.legal_moves() == [] and after.to_move == NORTH
    assert after.winner is None                   # 16–16: a draw


@covers("bakuk-leftovers", "bakuk-exhausted", "bakuk-winner")
def test_leftovers_owners_score_their_holes():
    game = ms.get_game("bakuk", leftovers="owners")
    trace = make(game, EXHAUST).trace("a")
    assert captures(trace) == [("b", 1, SOUTH, "bakuk-leftovers"),
                               ("c", 3, SOUTH, "bakuk-leftovers")]
    assert game_end(trace) == EndOfGame("bakuk-exhausted", "exhausted")
    after = trace.position
    assert after.pits == (0,) * 6 and after.captured == (20, 16)
    assert after.is_over and after.winner == SOUTH


@covers("bakuk-exhausted")
def test_no_move_pass_the_player_without_counters_passes():
    game = ms.get_game("bakuk", no_move="pass")
    trace = make(game, EXHAUST).trace("a")
    assert passes(trace) == [(NORTH, "bakuk-exhausted")]
    assert game_end(trace) is None
    after = trace.position
    assert after.pits == AFTER_EXHAUST and after.to_move == SOUTH and not after.is_over
    assert after.legal_moves() == [1, 2]


@covers("bakuk-exhausted")
def test_no_move_pass_game_ends_when_nobody_can_move():
    # a(1) → b 1→2: captured; c is empty, no chain. The board is empty.
    game = ms.get_game("bakuk", no_move="pass")
    trace = make(game, [1, 1, 0, 0, 0, 0]).trace("a")
    assert game_end(trace) == EndOfGame("bakuk-exhausted", "exhausted")
    assert passes(trace) == [] and trace.position.is_over


@covers("bakuk-winner")
@pytest.mark.parametrize("captured, winner", [((18, 14), SOUTH), ((14, 18), NORTH),
                                              ((16, 16), None)])
def test_most_captured_wins(captured, winner):
    after = make(GAME, EXHAUST, captured=captured).play("a")
    assert after.is_over and after.winner == winner


@covers("bakuk-draw")
def test_equal_captures_are_a_draw():
    pos = GAME.position([0] * 6, captured=(18, 18))
    assert pos.is_over and pos.winner is None


# Two lone counters chase each other round the board: b, C, c, A, a, B each sow
# one counter into an empty hole (no capture), and after six moves the first
# position (board 0,1,0/0,0,1, South to move) comes back.
CYCLE = "0,1,0/0,0,1 S 14-20 opener=S"
CYCLE_MOVES = "b C c A a B"


@covers("bakuk-repetition", "bakuk-leftovers")
def test_play_that_cycles_ends_at_the_first_recurrence():
    pos = GAME.parse(CYCLE)
    moves = CYCLE_MOVES.split()
    for move in moves[:-1]:
        trace = pos.trace(move)
        assert game_end(trace) is None and captures(trace) == []
        pos = trace.position
    assert len(pos.history) == 5
    trace = pos.trace(moves[-1])
    assert game_end(trace) == EndOfGame("bakuk-repetition", "repetition")
    after = trace.position
    assert after.key == GAME.parse(CYCLE).key       # the start position, recurred
    assert after.is_over and after.legal_moves() == []
    assert after.captured == (14, 20) and after.winner == NORTH   # leftovers unscored


@covers("bakuk-repetition", "bakuk-leftovers")
def test_repetition_with_leftovers_owners():
    game = ms.get_game("bakuk", leftovers="owners")
    pos = game.parse(CYCLE)
    for move in CYCLE_MOVES.split():
        trace = pos.trace(move)
        pos = trace.position
    assert captures(trace) == [("b", 1, SOUTH, "bakuk-leftovers"),
                               ("C", 1, NORTH, "bakuk-leftovers")]
    assert game_end(trace).reason == "repetition"
    assert pos.captured == (15, 21) and pos.pits == (0,) * 6 and pos.is_over


@covers("bakuk-repetition")
def test_repetition_from_a_given_history():
    # a(1) → b 0→1, no capture: (0,1,0,1,1,1) with North to move is in the history.
    pos = make(GAME, [1, 0, 0, 1, 1, 1], history=[([0, 1, 0, 1, 1, 1], NORTH)])
    assert not pos.is_over
    trace = pos.trace("a")
    assert game_end(trace).reason == "repetition"
    assert trace.position.is_over and trace.position.pits == (0, 1, 0, 1, 1, 1)
    # The same move without that history plays on.
    assert not make(GAME, [1, 0, 0, 1, 1, 1]).play("a").is_over


@covers("bakuk-repetition", "bakuk-exhausted")
def test_lone_counter_circling_with_no_move_pass_ends_by_repetition():
    # One counter: South sows it a→b→c→A (North passes twice), North sows it
    # A→B→C→a (South passes twice); then South is to move with the counter in a
    # again: the start recurs.
    game = ms.get_game("bakuk", no_move="pass")
    # A lone counter is a board play cannot leave (35 captured: captures take
    # twos and fours, sixes under Koumma), but only one counter can circle without ever
    # capturing, which is what the pass-and-repeat mechanics need: built anyway.
    pos = make(game, [1, 0, 0, 0, 0, 0], allow_unreachable=True)
    record = []
    for move in "abcABC":
        trace = pos.trace(move)
        record.append((passes(trace), game_end(trace)))
        pos = trace.position
    assert [p for p, _ in record] == [[(NORTH, "bakuk-exhausted")]] * 2 + [[]] \
        + [[(SOUTH, "bakuk-exhausted")]] * 2 + [[]]
    assert [e for _, e in record][:-1] == [None] * 5
    assert record[-1][1] == EndOfGame("bakuk-repetition", "repetition")
    assert pos.pits == (1, 0, 0, 0, 0, 0) and pos.is_over


@covers("bakuk-exhausted")
def test_lone_counter_with_default_no_move_ends_at_once():
    # (a lone counter: unreachable, 35 captured being odd; built anyway, as above)
    trace = make(GAME, [1, 0, 0, 0, 0, 0], allow_unreachable=True).trace("a")
    assert game_end(trace).reason == "exhausted"


# -- every rule has a test -------------------------------------------------------------------


def test_every_bakuk_rule_has_a_test_here():
    covered = covered_rules("engine/test_bakuk.py", "engine/test_match.py")
    missing = sorted(set(catalogue_ids("bakuk")) - set(covered))
    assert not missing, f"catalogue rules without a @covers test in test_bakuk.py: {missing}"

"""Ba-awa, rule by rule, on hand-picked positions.

Every expected value below was worked out by hand from the rule statement named
in the test's ``@covers(...)``; the comments show the working. Pits are written
``[a, b, c, d, e, f,  A, B, C, D, E, F]`` (indices 0–5 South, 6–11 North); sowing
runs a→f, A→F, then a again.
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
    naive_ba_awa_sowing,
    passes,
)

import mancala_spec as ms
from mancala_spec.engine.games.ba_awa import BaAwa
from mancala_spec.engine.trace import EndOfLap, EndOfMove, PickUp, Relay

GAME = ms.get_game("ba-awa")


# -- board, stores, setup, turns, choosing -------------------------------------------


@covers("ba-awa-board")
def test_board_has_two_rows_of_six_each_owned_by_the_player_in_front():
    board = GAME.board
    assert board.pits_per_row == 6 and board.size == 12
    assert [board.name(p) for p in range(12)] == list("abcdefABCDEF")
    assert board.row_owners == (SOUTH,) * 6 + (NORTH,) * 6
    assert GAME.start().owners == board.row_owners
    assert [board.next(p) for p in (4, 5, 10, 11)] == [5, 6, 11, 0]


@covers("ba-awa-stores")
def test_no_seed_is_ever_sown_into_a_store():
    # South sows f (2 seeds): the seed after f goes straight into A, then B.
    south = make(GAME, [0, 0, 0, 0, 0, 2, 0, 0, 3, 3, 3, 1])
    trace = south.trace("f")
    assert drops(trace) == ["A", "B"]
    assert trace.position.captured == south.captured == (20, 16)
    # North sows F (2 seeds): the seed after F goes straight into a, then b.
    north = make(GAME, [0, 0, 3, 3, 3, 1, 0, 0, 0, 0, 0, 2], to_move=NORTH)
    trace = north.trace("F")
    assert drops(trace) == ["a", "b"]
    assert trace.position.pits == (1, 1, 3, 3, 3, 1, 0, 0, 0, 0, 0, 0)
    # The engine keeps captured counts instead of store pits.
    assert len(trace.position.pits) == 12 and len(trace.position.captured) == 2


@covers("ba-awa-setup")
def test_setup_four_seeds_in_every_pit_stores_empty():
    pos = GAME.start()
    assert pos.pits == (4,) * 12 and sum(pos.pits) == 48
    assert pos.captured == (0, 0)
    assert (pos.to_move, pos.opener, pos.history) == (SOUTH, SOUTH, ())
    assert not pos.is_over


@covers("ba-awa-turns")
def test_players_alternate_and_the_opener_is_remembered():
    pos = GAME.start()
    after = pos.play("a")
    assert (after.to_move, after.opener) == (NORTH, SOUTH)
    for pit in after.legal_moves():
        assert after.play(pit).to_move == SOUTH
    north_opens = GAME.start(opener=NORTH)
    assert (north_opens.to_move, north_opens.opener) == (NORTH, NORTH)
    assert north_opens.play("A").to_move == SOUTH
    assert north_opens.play("A").opener == NORTH


@covers("ba-awa-choose")
def test_choose_an_own_pit_with_seeds():
    assert GAME.start().legal_moves() == [0, 1, 2, 3, 4, 5]
    assert GAME.start(opener=NORTH).legal_moves() == [6, 7, 8, 9, 10, 11]
    # Only f holds South seeds here.
    pos = make(GAME, [0, 0, 0, 0, 0, 2, 0, 0, 3, 3, 3, 1])
    assert pos.legal_moves() == [5]
    with pytest.raises(ms.IllegalMoveError, match="pit a is empty"):
        pos.play("a")
    with pytest.raises(ms.IllegalMoveError, match="pit C belongs to North, but South is to move"):
        pos.play("C")


ROW = ms.get_game("ba-awa", choose="row")
#: South won eight pits in a match's first game: their row and North's A and B
MATCH_OWNERS = (SOUTH,) * 8 + (NORTH,) * 4


@covers("ba-awa-choose")
def test_the_two_readings_of_their_pits_agree_in_a_single_game():
    """A single two-player game: each row is its player's, so choose="row" and
    choose="owned" allow the same moves in every position of a random game."""
    import random
    rng = random.Random(5)
    for opener in (SOUTH, NORTH):
        owned, row = GAME.start(opener), ROW.start(opener)
        while not owned.is_over:
            assert row.legal_moves() == owned.legal_moves()
            pit = rng.choice(owned.legal_moves())
            owned, row = owned.play(pit), row.play(pit)
        assert row.is_over and row.captured == owned.captured


@covers("ba-awa-choose")
def test_in_a_match_the_row_reading_chooses_from_the_row_whoever_owns_it():
    north = GAME.start(opener=NORTH, owners=MATCH_OWNERS)
    assert north.legal_moves() == [8, 9, 10, 11]                 # C-F: the pits North owns
    north_row = ROW.start(opener=NORTH, owners=MATCH_OWNERS)
    assert north_row.legal_moves() == [6, 7, 8, 9, 10, 11]       # A-F: North's row
    with pytest.raises(ms.IllegalMoveError, match="pit A belongs to South, but North is to move"):
        north.play("A")
    after = north_row.play("A")                    # North sows A, which South owns ...
    assert after.owners == MATCH_OWNERS            # ... and it stays South's
    south = GAME.start(owners=MATCH_OWNERS)
    assert south.legal_moves() == list(range(8))                 # a-f, A, B
    south_row = ROW.start(owners=MATCH_OWNERS)
    assert south_row.legal_moves() == list(range(6))             # a-f only
    with pytest.raises(ms.IllegalMoveError) as error:
        south_row.play("A")
    assert str(error.value).startswith("pit A is in North's row, but South is to move")
    assert error.value.reason == "not-yours"
    with pytest.raises(ms.IllegalMoveError, match="pit C is in North's row"):
        south_row.play("C")


@covers("ba-awa-choose", "ba-awa-owner-four")
def test_with_the_row_reading_fours_still_go_to_the_owner():
    # North, choosing from their row, sows A (South's): the first seed makes B
    # (South's) four, which South takes; the last lands in the empty C. (D holds
    # 3, not 2: 24 seeds on the board, as play can leave, captures being fours.)
    pos = make(ROW, [2, 2, 2, 2, 2, 2, 2, 3, 0, 3, 2, 2], to_move=NORTH, owners=MATCH_OWNERS)
    trace = pos.trace("A")
    assert captures(trace) == [("B", 4, SOUTH, "ba-awa-owner-four")]
    assert move_end(trace) == EndOfMove("ba-awa-sowing-end", "empty-pit")
    # the last seed's four is the mover's, whoever owns the pit (B here)
    pos = make(ROW, [2, 2, 2, 2, 2, 2, 1, 3, 0, 2, 3, 3], to_move=NORTH, owners=MATCH_OWNERS)
    assert captures(pos.trace("A")) == [("B", 4, NORTH, "ba-awa-mover-four")]


@covers("ba-awa-choose", "ba-awa-three-players")
def test_the_row_reading_is_refused_with_three_players():
    with pytest.raises(ms.OptionError, match="needs two players") as error:
        ms.get_game("ba-awa", choose="row", players=3)
    assert "no row of East's own" in str(error.value) and error.value.option == "choose"
    assert ms.get_game("ba-awa", choose="owned", players=3).players == 3


# -- sowing, relay, end of sowing ------------------------------------------------------


@covers("ba-awa-sow", "ba-awa-relay", "ba-awa-sowing-end")
def test_opening_move_a_worked_by_hand():
    # Lap 1: lift a(4) → b c d e become 5; e was occupied (5, not 4): relay.
    # Lap 2: lift e(5) → f A B C D = 5; relay D.  Lap 3: lift D(5) → E F = 5, a = 1,
    # b c = 6; relay c.  Lap 4: lift c(6) → d 6, e 1, f A B C 6; relay C.
    # Lap 5: lift C(6) → D 1, E F 6, a 2, b 7, c 1: c was empty, the sowing ends.
    trace = GAME.start().trace("a")
    first = trace.events[:7]
    assert first[0] == PickUp("ba-awa-sow", 0, 4)
    assert [(e.pit, e.count, e.rule) for e in first[1:5]] == [
        (1, 5, "ba-awa-sow"), (2, 5, "ba-awa-sow"), (3, 5, "ba-awa-sow"), (4, 5, "ba-awa-sow")]
    assert first[5] == EndOfLap("ba-awa-sow", 1, 4, 5)
    assert first[6] == Relay("ba-awa-relay", 4, 5)
    assert laps(trace) == [("e", 5), ("D", 5), ("c", 6), ("C", 6), ("c", 1)]
    relays = [(GAME.board.name(e.pit), e.seeds) for e in trace.events if isinstance(e, Relay)]
    assert relays == [("e", 5), ("D", 5), ("c", 6), ("C", 6)]
    assert move_end(trace) == EndOfMove("ba-awa-sowing-end", "empty-pit")
    assert trace.position.pits == (2, 7, 1, 6, 1, 6, 6, 6, 0, 1, 6, 6)
    assert trace.position.captured == (0, 0) and captures(trace) == []


@covers("ba-awa-relay", "ba-awa-sowing-end")
def test_relay_lifts_the_last_seed_with_the_pit():
    # a(1) → b: 2 + 1 = 3, occupied and not four: relay all 3 from b → c d e = 1,
    # e was empty: the sowing ends.
    pos = make(GAME, [1, 2, 0, 0, 0, 0, 3, 3, 3, 0, 0, 0])
    trace = pos.trace("a")
    assert [e for e in trace.events if isinstance(e, Relay)] == [Relay("ba-awa-relay", 1, 3)]
    assert drops(trace) == ["b", "c", "d", "e"]
    assert laps(trace) == [("b", 3), ("e", 1)]
    assert move_end(trace).reason == "empty-pit"
    assert trace.position.pits == (0, 0, 1, 1, 1, 0, 3, 3, 3, 0, 0, 0)


@covers("ba-awa-sowing-end", "ba-awa-mover-four")
@pytest.mark.parametrize("pits, move, ending", [
    ([1, 0, 2, 2, 2, 1, 2, 2, 2, 2, 0, 0], "a", ("empty-pit", "ba-awa-sowing-end")),  # b was empty
    ([1, 3, 0, 2, 2, 0, 2, 2, 2, 2, 0, 0], "a", ("four", "ba-awa-mover-four")),      # b: 3 → 4
])
def test_the_sowing_ends_in_an_empty_pit_or_on_a_four(pits, move, ending):
    trace = make(GAME, pits).trace(move)
    assert laps(trace) == [("b", 1 if ending[0] == "empty-pit" else 4)]
    assert (move_end(trace).reason, move_end(trace).rule) == ending
    assert isinstance(trace.events[-1], EndOfMove)


# -- captures of four ------------------------------------------------------------------


@covers("ba-awa-mover-four")
@pytest.mark.parametrize("pits, to_move, move, taken, after", [
    # South's last seed makes four on South's own side (b: 3 → 4).
    ([1, 3, 0, 2, 2, 0, 2, 2, 2, 2, 0, 0], SOUTH, "a", ("b", 4, SOUTH),
     [0, 0, 0, 2, 2, 0, 2, 2, 2, 2, 0, 0]),
    # South's last seed makes four on NORTH's side (A: 3 → 4): South takes it.
    ([2, 2, 0, 0, 0, 1, 3, 0, 2, 2, 2, 2], SOUTH, "f", ("A", 4, SOUTH),
     [2, 2, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2]),
    # North's last seed makes four on SOUTH's side (a: 3 → 4): North takes it.
    ([3, 0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 1], NORTH, "F", ("a", 4, NORTH),
     [0, 0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0]),
])
def test_last_seed_four_goes_to_the_mover_whichever_side(pits, to_move, move, taken, after):
    pos = make(GAME, pits, to_move=to_move)
    trace = pos.trace(move)
    assert captures(trace) == [(*taken, "ba-awa-mover-four")]
    assert move_end(trace) == EndOfMove("ba-awa-mover-four", "four")
    assert list(trace.position.pits) == after
    gained = [b - a for a, b in zip(pos.captured, trace.position.captured)]
    assert gained == ([4, 0] if to_move == SOUTH else [0, 4])
    assert trace.position.to_move == 1 - to_move


@covers("ba-awa-mover-four", "ba-awa-relay")
def test_last_seed_of_a_relay_lap_makes_four_for_the_mover():
    # a(1) → b = 2: relay 2 from b → c = 1, d: 3 → 4 with the lap's last seed.
    # (F holds 2: 16 seeds on the board, a number play can leave.)
    trace = make(GAME, [1, 1, 0, 3, 0, 0, 2, 2, 2, 2, 1, 2]).trace("a")
    assert laps(trace) == [("b", 2), ("d", 4)]
    assert captures(trace) == [("d", 4, SOUTH, "ba-awa-mover-four")]
    assert trace.position.pits == (0, 0, 1, 0, 0, 0, 2, 2, 2, 2, 1, 2)


@covers("ba-awa-owner-four")
@pytest.mark.parametrize("pits, to_move, move, taken, after", [
    # Mid-lap four on the MOVER's side: a(3) → b 3→4 (South's pit: South takes it),
    # c = 1, d = 1 (empty before): the sowing ends.
    ([3, 3, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2], SOUTH, "a", ("b", 4, SOUTH),
     [0, 0, 1, 1, 0, 2, 2, 2, 2, 2, 2, 2]),
    # Mid-lap four on the OPPONENT's side: f(3) → A 3→4 (North's pit: North takes
    # it, during South's move), B = 1, C = 1: the sowing ends.
    ([2, 2, 2, 2, 0, 3, 3, 0, 0, 2, 2, 2], SOUTH, "f", ("A", 4, NORTH),
     [2, 2, 2, 2, 0, 0, 0, 1, 1, 2, 2, 2]),
    # North moving: F(3) → a 3→4 goes to South, the owner; b = 1, c = 1.
    ([3, 0, 0, 2, 2, 2, 2, 2, 2, 2, 0, 3], NORTH, "F", ("a", 4, SOUTH),
     [0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 0, 0]),
])
def test_mid_lap_four_goes_to_the_pit_owner_and_sowing_continues(pits, to_move, move, taken,
                                                                  after):
    trace = make(GAME, pits, to_move=to_move).trace(move)
    assert captures(trace) == [(*taken, "ba-awa-owner-four")]
    assert len(drops(trace)) == 3                 # the sowing went on after the capture
    assert move_end(trace) == EndOfMove("ba-awa-sowing-end", "empty-pit")
    assert list(trace.position.pits) == after


@covers("ba-awa-owner-four")
def test_owner_means_the_pits_current_owner():
    # In match play a pit can belong to the other player. Here South owns A (index 6):
    # f(3) → A 3→4 mid-lap goes to South, B = 1, C = 1.
    owners = [SOUTH] * 7 + [NORTH] * 5
    pos = make(GAME, [2, 2, 2, 2, 0, 3, 3, 0, 0, 2, 2, 2], owners=owners)
    assert pos.legal_moves() == [0, 1, 2, 3, 5, 6]
    trace = pos.trace("f")
    assert captures(trace) == [("A", 4, SOUTH, "ba-awa-owner-four")]


@covers("ba-awa-owner-four", "ba-awa-mover-four")
def test_several_fours_in_one_move_for_both_players():
    # e(4): f 3→4 (not last: South, the owner, takes it), A 3→4 (not last: North,
    # the owner, takes it), B 0→1, C 3→4 with the last seed: South, the mover.
    pos = make(GAME, [2, 2, 2, 0, 4, 3, 3, 0, 3, 2, 2, 1])
    trace = pos.trace("e")
    assert captures(trace) == [("f", 4, SOUTH, "ba-awa-owner-four"),
                               ("A", 4, NORTH, "ba-awa-owner-four"),
                               ("C", 4, SOUTH, "ba-awa-mover-four")]
    assert trace.position.pits == (2, 2, 2, 0, 0, 0, 0, 1, 0, 2, 2, 1)
    assert trace.position.captured == (pos.captured[0] + 8, pos.captured[1] + 4)
    assert trace.position.to_move == NORTH and not trace.position.is_over


# -- laps of twelve or more --------------------------------------------------------------


@covers("ba-awa-origin", "ba-awa-sowing-end")
def test_lap_of_twelve_sows_into_its_emptied_origin_by_default():
    # a(12): one seed into each of b…F (11 pits), the 12th into a itself, which
    # was emptied at the pick-up: the last seed lands in an empty pit, the move ends.
    trace = make(GAME, [12] + [0] * 11).trace("a")
    assert drops(trace) == list("bcdefABCDEFa")
    assert laps(trace) == [("a", 1)]
    assert move_end(trace).reason == "empty-pit"
    assert trace.position.pits == (1,) * 12
    assert trace.position.to_move == NORTH


@covers("ba-awa-origin", "ba-awa-relay")
def test_lap_of_twelve_skips_its_origin_with_skip_origin():
    # a(12) skipping a: b…F get one each, the 12th goes to b (→ 2): relay.
    # Then 2s relay round the board: b→c d, d→e f, f→A B, B→C D, D→E F, and F(2)
    # sows a = 1, b = 1 (b was emptied by its relay): the sowing ends.
    game = ms.get_game("ba-awa", skip_origin=True)
    trace = make(game, [12] + [0] * 11).trace("a")
    assert drops(trace)[:12] == list("bcdefABCDEFb")
    assert laps(trace) == [("b", 2), ("d", 2), ("f", 2), ("B", 2), ("D", 2), ("F", 2), ("b", 1)]
    assert trace.position.pits == (1, 1, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0)


@covers("ba-awa-origin", "ba-awa-owner-four")
@pytest.mark.parametrize("skip_origin, first_lap, lap_ends, after", [
    # Default: a(14) → b 2→3, c…F = 1, a = 1 (12th seed), b 3→4 (13th, not last:
    # South takes it), c 1→2 (14th, last): relay c. Then 2s relay: c→d e, e→f A,
    # A→B C, C→D E, E→F a, a(2)→b 1, c 1 (c was emptied by its relay): the end.
    (False, "bcdefABCDEFabc", [("c", 2), ("e", 2), ("A", 2), ("C", 2), ("E", 2), ("a", 2),
                               ("c", 1)],
     (0, 1, 1, 2, 0, 2, 0, 2, 0, 2, 0, 2)),
    # skip_origin: b 2→3, c…F = 1, a skipped, b 3→4 (12th seed, not last: South
    # takes it), c 1→2, d 1→2 (last): relay d. Then d→e f, f→A B, B→C D, D→E F,
    # F(2)→a 1, b 1 (b was emptied by the capture): the end.
    (True, "bcdefABCDEFbcd", [("d", 2), ("f", 2), ("B", 2), ("D", 2), ("F", 2), ("b", 1)],
     (1, 1, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0)),
])
def test_long_lap_passes_a_pit_twice_and_makes_four(skip_origin, first_lap, lap_ends, after):
    game = ms.get_game("ba-awa", skip_origin=skip_origin)
    pos = make(game, [14, 2] + [0] * 10)
    trace = pos.trace("a")
    assert "".join(drops(trace)[:14]) == first_lap
    assert captures(trace) == [("b", 4, SOUTH, "ba-awa-owner-four")]
    assert laps(trace) == lap_ends
    assert trace.position.pits == after
    assert trace.position.captured == (pos.captured[0] + 4, pos.captured[1])


# -- endless relay sowing ------------------------------------------------------------------

# Found by searching random Ba-awa positions with the engine for game.sow_move(pos, pit).endless.
# B (2 seeds) starts a relay sowing whose lap states come back to the start after
# 60 laps, so it never ends. The other North moves end: A(1) → B 3, relay 3 from B
# → C 1, D 2, E 1 (empty): end; D(1) → E 1: end; F(2) → a 2, b 1: end.
ENDLESS = "1,0,2,1,0,2/1,2,0,1,0,2 N 16-20 opener=S"
ENDLESS_PIT, ENDLESS_LAPS = 7, 60
# The smallest board with an endless sowing (exhaustive search of every board of
# 1–10 seeds, every pit): 9 seeds. e(3) cycles for 72 laps; the other South moves
# end: b(1) → c 1; d(1) → e 3→4 for the mover; f(1) → A 1. A board play cannot
# reach: captures take fours, so 39 seeds cannot be off the board while seeds
# are on it; it is built with allow_unreachable=True (see board()).
SMALLEST_ENDLESS = "0,1,0,1,3,1/0,1,0,1,0,1 S 19-20 opener=S"
SMALLEST_PIT, SMALLEST_LAPS = 4, 72
# The smallest endless board play can reach: twelve seeds (docs/analysis.md's
# exhaustive table, whose first endless board of 12 seeds this is). a(2)
# cycles for 60 laps; b and d are empty; c, e and f end.
REACHABLE_ENDLESS = "2,0,1,0,2,1/0,2,1,0,2,1 S 20-16 opener=S"
REACHABLE_PIT, REACHABLE_LAPS = 0, 60


def board(game, text):
    """*text* as a position of *game*: SMALLEST_ENDLESS only with allow_unreachable
    (the nine-seed board is a board outside play, kept as the smallest study)."""
    return game.parse(text, allow_unreachable=text == SMALLEST_ENDLESS)


@pytest.mark.parametrize("text, pit, cycle, legal", [
    (ENDLESS, ENDLESS_PIT, ENDLESS_LAPS, [6, 9, 11]),
    (SMALLEST_ENDLESS, SMALLEST_PIT, SMALLEST_LAPS, [1, 3, 5]),
    (REACHABLE_ENDLESS, REACHABLE_PIT, REACHABLE_LAPS, [2, 4, 5]),
])
def test_endless_sowing_is_really_endless(text, pit, cycle, legal):
    # Independent of the engine: sow with the naive model and watch the lap states.
    pos = board(GAME, text)
    pits, gained, ending, states = naive_ba_awa_sowing(pos.pits, pos.owners, pos.to_move, pit,
                                                       max_laps=cycle)
    assert ending is None and gained == (0, 0)
    assert len(set(states[:cycle])) == cycle          # no repeat before lap `cycle` …
    assert states[cycle] == states[0] == (pos.pits, pit)   # … then back to the start
    assert pos.legal_moves() == legal


@covers("ba-awa-endless")
@pytest.mark.parametrize("text, pit", [(ENDLESS, ENDLESS_PIT), (SMALLEST_ENDLESS, SMALLEST_PIT),
                                       (REACHABLE_ENDLESS, REACHABLE_PIT)])
def test_endless_sowing_is_not_a_legal_move_by_default(text, pit):
    pos = board(GAME, text)
    assert pos.game.sow_move(pos, pit).endless and GAME.never_ends(pos, pit)
    assert pit not in pos.legal_moves()
    with pytest.raises(ms.IllegalMoveError, match="never ends") as info:
        pos.play(pit)
    assert "ba-awa-endless" in str(info.value)
    with pytest.raises(ms.IllegalMoveError, match="never ends"):
        pos.trace(GAME.board.name(pit))
    assert pos == board(GAME, text)                     # nothing half-applied
    assert pos.legal_moves()                            # and still usable


@covers("ba-awa-endless")
@pytest.mark.parametrize("text, pit, cycle", [(ENDLESS, ENDLESS_PIT, ENDLESS_LAPS),
                                               (SMALLEST_ENDLESS, SMALLEST_PIT, SMALLEST_LAPS),
                                               (REACHABLE_ENDLESS, REACHABLE_PIT, REACHABLE_LAPS)])
def test_endless_sowing_stops_at_first_repeated_lap_state_with_endless_stop(text, pit, cycle):
    game = ms.get_game("ba-awa", endless="stop")
    pos = board(game, text)
    assert pit in pos.legal_moves()
    trace = pos.trace(pit)
    assert len(laps(trace)) == cycle
    assert move_end(trace) == EndOfMove("ba-awa-endless", "endless-stopped")
    assert captures(trace) == []
    after = trace.position
    assert sum(after.pits) + sum(after.captured) == 48
    # The repeated state is the start itself (board and pit), and the lap that
    # would start from it is not sown: every seed is back where it was.
    assert after.pits == pos.pits and after.captured == pos.captured
    assert after.to_move == 1 - pos.to_move and not after.is_over
    assert after.history == (pos.key,)


# -- the end of the game ----------------------------------------------------------------------


@covers("ba-awa-eight", "ba-awa-mover-four")
@pytest.mark.parametrize("opener, final", [(NORTH, (20, 28)), (SOUTH, (28, 20))])
def test_eight_seeds_left_go_to_the_opener_even_when_north_opened(opener, final):
    # f(1) → A 3→4: South takes 4; a b C D hold the last 8, which the opener takes.
    pos = make(GAME, [2, 2, 0, 0, 0, 1, 3, 0, 2, 2, 0, 0], opener=opener, captured=(16, 20))
    trace = pos.trace("f")
    assert captures(trace) == [("A", 4, SOUTH, "ba-awa-mover-four"),
                               ("a", 2, opener, "ba-awa-eight"), ("b", 2, opener, "ba-awa-eight"),
                               ("C", 2, opener, "ba-awa-eight"), ("D", 2, opener, "ba-awa-eight")]
    end = game_end(trace)
    assert (end.reason, end.rule) == ("eight-seeds", "ba-awa-eight")
    after = trace.position
    assert after.pits == (0,) * 12 and after.captured == final
    assert after.is_over and after.legal_moves() == [] and after.winner == opener


@covers("ba-awa-eight")
def test_twelve_seeds_left_play_on():
    # Same move with four seeds more on the board: 16 → 12 is not "eight or
    # fewer". (Twelve, not nine: captures are fours, so play leaves the board a
    # multiple of four, and twelve is the first count above eight it can leave.)
    trace = make(GAME, [2, 2, 0, 0, 0, 1, 3, 0, 2, 2, 2, 2]).trace("f")
    assert sum(trace.position.pits) == 12
    assert game_end(trace) is None and not trace.position.is_over
    assert trace.position.to_move == NORTH


@covers("ba-awa-eight-timing", "ba-awa-owner-four", "ba-awa-mover-four")
@pytest.mark.parametrize("opener, final", [(SOUTH, (32, 16)), (NORTH, (28, 20))])
def test_double_capture_from_twelve_to_four_then_opener_takes_the_four(opener, final):
    # e(2): f 3→4 not last (South owns it) — the board holds 8 now, mid-sowing, and
    # the sowing goes on — A 3→4 with the last seed (South, the mover). Board 12 → 4
    # after the complete move; the opener takes the 4 (a b c D) and the game ends.
    pos = make(GAME, [1, 1, 1, 0, 2, 3, 3, 0, 0, 1, 0, 0], opener=opener)
    assert sum(pos.pits) == 12
    trace = pos.trace("e")
    assert captures(trace) == [("f", 4, SOUTH, "ba-awa-owner-four"),
                               ("A", 4, SOUTH, "ba-awa-mover-four"),
                               ("a", 1, opener, "ba-awa-eight"), ("b", 1, opener, "ba-awa-eight"),
                               ("c", 1, opener, "ba-awa-eight"), ("D", 1, opener, "ba-awa-eight")]
    assert game_end(trace).reason == "eight-seeds"
    assert trace.position.captured == final and trace.position.is_over


# South a(1) → b 1; the board keeps 12 seeds, all South's, and North has none.
NO_NORTH_SEEDS = [1, 0, 3, 3, 3, 2, 0, 0, 0, 0, 0, 0]
AFTER_NO_NORTH = (0, 1, 3, 3, 3, 2, 0, 0, 0, 0, 0, 0)


@covers("ba-awa-no-move")
def test_player_without_a_legal_move_is_passed_over():
    pos = make(GAME, NO_NORTH_SEEDS, opener=NORTH)
    trace = pos.trace("a")
    assert passes(trace) == [(NORTH, "ba-awa-no-move")]
    after = trace.position
    assert after.pits == AFTER_NO_NORTH and after.to_move == SOUTH and not after.is_over
    assert after.legal_moves() == [1, 2, 3, 4, 5]
    assert game_end(trace) is None


@covers("ba-awa-no-move")
def test_no_move_owners_ends_the_game_and_owners_take_their_seeds():
    # The opener is North, so "opener takes" would give North the 12 seeds; with
    # no_move="owners" South, whose pits hold them, takes them.
    game = ms.get_game("ba-awa", no_move="owners")
    trace = make(game, NO_NORTH_SEEDS, opener=NORTH).trace("a")
    assert passes(trace) == []
    assert captures(trace) == [(name, seeds, SOUTH, "ba-awa-no-move")
                               for name, seeds in zip("bcdef", (1, 3, 3, 3, 2))]
    end = game_end(trace)
    assert (end.reason, end.rule) == ("no-moves", "ba-awa-no-move")
    assert trace.position.captured == (32, 16) and trace.position.is_over


class _StuckBaAwa(BaAwa):
    """Ba-awa in which every sowing from the board AFTER_NO_NORTH counts as endless.

    No real position is known in which a player with seeds has only endless moves
    (an exhaustive search of every board of up to 17 seeds found none), so nobody
    can really be without a legal move while the board holds more than eight
    seeds. This subclass fakes it, to exercise the branch of ba-awa-no-move that
    the rule states for that case.
    """

    def sow_move(self, pos, pit):
        sowing = super().sow_move(pos, pit)
        sowing.endless = sowing.endless or pos.pits == AFTER_NO_NORTH
        return sowing


@covers("ba-awa-no-move")
@pytest.mark.parametrize("no_move, final", [("pass", (20, 28)), ("owners", (32, 16))])
def test_nobody_can_move(no_move, final):
    # North has no seeds and (by construction) every South move is endless.
    game = _StuckBaAwa(no_move=no_move)
    trace = make(game, NO_NORTH_SEEDS, opener=NORTH).trace("a")
    assert game_end(trace).reason == "no-moves"
    taker = NORTH if no_move == "pass" else SOUTH        # the opener, or the owners
    assert {player for _, _, player, _ in captures(trace)} == {taker}
    assert {rule for *_, rule in captures(trace)} == {"ba-awa-no-move"}
    assert trace.position.captured == final and trace.position.is_over


REPEAT_FROM = [1, 0, 2, 2, 2, 1, 2, 2, 2, 2, 0, 0]
REPEAT_TO = [0, 1, 2, 2, 2, 1, 2, 2, 2, 2, 0, 0]      # after a(1) → b 1 (b was empty)


@covers("ba-awa-repetition")
@pytest.mark.parametrize("opener", [SOUTH, NORTH])
def test_a_recurring_position_ends_the_game_and_the_opener_takes_the_rest(opener):
    pos = make(GAME, REPEAT_FROM, opener=opener, history=[(REPEAT_TO, NORTH)])
    trace = pos.trace("a")
    end = game_end(trace)
    assert (end.reason, end.rule) == ("repetition", "ba-awa-repetition")
    assert {player for _, _, player, _ in captures(trace)} == {opener}
    assert sum(seeds for _, seeds, _, _ in captures(trace)) == 16
    assert trace.position.is_over and trace.position.pits == (0,) * 12
    expected = [16, 16]
    expected[opener] += 16
    assert list(trace.position.captured) == expected


@covers("ba-awa-repetition")
def test_history_grows_without_captures_and_a_capture_clears_it():
    pos = make(GAME, REPEAT_FROM)
    after = pos.play("a")                                # no capture, no repetition
    assert after.pits == tuple(REPEAT_TO) and not after.is_over
    assert after.history == (pos.key,)
    # A capture makes every earlier position unreachable: history is cleared.
    captured = make(GAME, [1, 3, 0, 2, 2, 0, 2, 2, 2, 2, 0, 0],
                    history=[([1, 3, 2, 0, 2, 0, 2, 2, 2, 2, 0, 0], NORTH)]).play("a")
    assert captured.history == ()


@covers("ba-awa-winner")
@pytest.mark.parametrize("captured, winner", [((24, 24), None), ((28, 20), SOUTH),
                                              ((20, 28), NORTH)])
def test_more_captured_seeds_win_equal_is_a_draw(captured, winner):
    pos = GAME.position([0] * 12, captured=captured)
    assert pos.is_over and pos.winner == winner


@covers("ba-awa-winner", "ba-awa-eight")
def test_winner_counts_the_seeds_the_opener_takes():
    # Before the end the two stand level at 20–20, but North opened and takes the
    # last 8. (A lead of South's that North's take overturns cannot arise in
    # play: every count is a multiple of four until that take.)
    trace = make(GAME, [2, 2, 0, 0, 0, 1, 3, 0, 2, 2, 0, 0], opener=NORTH,
                 captured=(16, 20)).trace("f")
    assert trace.position.captured == (20, 28) and trace.position.winner == NORTH
    assert GAME.start().winner is None                     # not over: no winner


# -- every rule has a test ------------------------------------------------------------------


def test_every_ba_awa_rule_has_a_test_here():
    covered = covered_rules("engine/test_ba_awa.py", "engine/test_match.py")
    missing = sorted(set(catalogue_ids("ba-awa")) - set(covered))
    assert not missing, f"catalogue rules without a @covers test in test_ba_awa.py: {missing}"


def test_every_catalogue_rule_has_a_test_and_no_test_names_an_unknown_rule():
    covered = covered_rules("engine/test_ba_awa.py", "engine/test_bakuk.py",
                            "engine/test_match.py")
    ids = set(catalogue_ids())
    assert not sorted(ids - set(covered)), f"untested rules: {sorted(ids - set(covered))}"
    assert not sorted(set(covered) - ids), f"unknown rule IDs: {sorted(set(covered) - ids)}"

"""Match play and the three-player games (rules ba-awa-three-*, bakuk-three-*, ba-awa-match-*)."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from helpers import covers

import mancala_spec as ms
from mancala_spec.engine.games.match import PlayedGame

BA_AWA = ms.get_game("ba-awa")
BA_AWA_3 = ms.get_game("ba-awa", players=3)
BAKUK_3 = ms.get_game("bakuk", players=3)
S, N = 0, 1
S3, E3, N3 = 0, 1, 2


def finished(match: ms.Match, captured, opener=0) -> ms.Match:
    """*match* with its current game replaced by a finished one with *captured*
    (a game that starts finished: a match's position is where its current game stands)."""
    game = match.game
    final = game.position([0] * game.board.size, captured=list(captured), opener=opener,
                          owners=match.position.owners, to_move=opener)
    assert final.is_over
    return replace(match, current=PlayedGame(final, ()), position=final)


# -- three players -------------------------------------------------------------

@covers('ba-awa-three-players')
def test_ba_awa_three_players_start_with_four_consecutive_pits_each():
    pos = BA_AWA_3.start()
    assert Counter(pos.owners) == {S3: 4, E3: 4, N3: 4}
    # ba-awa-three-turns: consecutive blocks in sowing order, South a-d, East e-B, North C-F
    east = [BA_AWA_3.board.name(p) for p in range(12) if pos.owners[p] == E3]
    assert east == ["e", "f", "A", "B"]
    assert pos.legal_moves() == [0, 1, 2, 3]
    assert pos.captured == (0, 0, 0)
    assert "East" in str(pos) and "owner" in str(pos)


@pytest.mark.parametrize("order, expected", [("sowing", [E3, N3, S3]), ("reverse", [N3, E3, S3])])
@covers('ba-awa-three-turns')
def test_three_player_turns_follow_the_option(order, expected):
    game = ms.get_game("ba-awa", players=3, turn_order=order)
    # a position where every move lands in an empty pit at once, so each player moves once
    # (20 seeds on the board, so that the 28 captured are fours, as in play)
    pits = [1, 0, 0, 5, 1, 0, 0, 5, 1, 0, 0, 7]
    missing = 48 - sum(pits)
    pos = game.position(pits, captured=[missing, 0, 0])
    movers = []
    for _ in range(3):
        movers.append(pos.to_move)
        pos = pos.play(pos.legal_moves()[0])
    assert movers == [S3] + expected[:2]


@covers('ba-awa-owner-four')
def test_three_player_owner_four_goes_to_the_pits_owner():
    # South sows 3 seeds from d: e (East's, 3 -> 4: East captures), f, A (last seed, empty).
    pits = [5, 5, 5, 3, 3, 0, 0, 3, 6, 6, 6, 6]
    pos = BA_AWA_3.position(pits, captured=[0, 0, 48 - sum(pits)])
    trace = pos.trace("d")
    assert [(c.pit, c.seeds, c.player, c.rule) for c in trace.captures] == \
        [(4, 4, E3, "ba-awa-owner-four")]
    assert trace.position.to_move == E3


@covers('bakuk-three-players', 'bakuk-three-turns')
def test_bakuk_three_players_command_adjacent_pairs():
    pos = BAKUK_3.start()
    assert pos.owners == (S3, S3, E3, E3, N3, N3)
    assert pos.legal_moves() == [0, 1]
    after = pos.play("b")     # 6 from b: c A B C a b -> last in b (emptied, now 1): no capture
    assert after.pits == (7, 1, 7, 7, 7, 7) and after.to_move == E3


@covers('bakuk-three-turns')
def test_bakuk_three_players_ending_uses_the_two_player_completions():
    # East (next) has no counters after South's move: the game ends (no_move="end").
    pos = BAKUK_3.position([1, 0, 0, 0, 3, 0], captured=[10, 12, 10])
    after = pos.play("a")     # a -> b (1): no capture
    assert after.is_over and after.to_move == E3
    passing = ms.get_game("bakuk", players=3, no_move="pass")
    pos = passing.position([1, 0, 0, 0, 3, 0], captured=[10, 12, 10])
    trace = pos.trace("a")
    assert [(e.kind, e.player) for e in trace.events if e.kind == "pass"] == [("pass", E3)]
    assert trace.position.to_move == N3


@covers('ba-awa-match-elimination')
def test_player_without_pits_is_skipped():
    owners = [S3] * 6 + [N3] * 6
    pos = BA_AWA_3.start(owners=owners)
    after = pos.play("a")
    assert after.to_move == N3


# -- match play ----------------------------------------------------------------

def test_match_starts_with_the_usual_opening():
    match = ms.Match(BA_AWA)
    assert match.position == BA_AWA.start()
    assert not match.game_over and not match.is_over and match.winner is None


@pytest.mark.parametrize("captured, earned", [((24, 24), (6, 6)), ((32, 16), (8, 4)),
                                              ((48, 0), (12, 0))])
@covers('ba-awa-match-setup')
def test_each_player_earns_one_pit_per_four_seeds(captured, earned):
    assert finished(ms.Match(BA_AWA), captured).earned() == earned


@pytest.mark.parametrize("allocation", ["extend", "consecutive"])
@covers('ba-awa-match-setup')
def test_pits_left_over_by_an_uncounted_final_take_go_round_until_all_twelve_are_shared(allocation):
    # North has no move after f: every player takes the seeds of their own pits
    # (no_move="owners"), North 20 of them; uncounted, only 12 and 16 win pits
    game = ms.get_game("ba-awa", no_move="owners")
    late = game.parse("0,0,0,2,1,1/0,0,1,14,1,0 N 12-16 opener=N owners=SSSNNNNNNNNN")
    match = ms.Match.starting_from(late, final_take="uncounted", allocation=allocation).play("f")
    assert match.position.outcome.reason == "no-moves"
    assert match.position.captured == (12, 36) and match.counted_captures() == (12, 16)
    # 3 + 4 pits by fours; the 5 left over one at a time from the opener, North
    assert match.earned() == (5, 7)
    owners = match.next_game().position.owners
    assert (owners.count(S), owners.count(N)) == (5, 7)


@covers('ba-awa-match-allocation')
def test_extend_allocation_keeps_the_row_and_grows_counter_clockwise():
    match = ms.Match(BA_AWA)
    # South earned 8: a-f and then A, B (counter-clockwise from a into North's row)
    assert match.allocate((8, 4)) == (S,) * 8 + (N,) * 4
    # North earned 8: A-F and then a, b; South keeps c-f
    assert match.allocate((4, 8)) == (N, N, S, S, S, S) + (N,) * 6
    assert match.allocate((6, 6)) == BA_AWA.board.row_owners
    consecutive = ms.Match(BA_AWA, allocation="consecutive")
    assert consecutive.allocate((4, 8)) == (S,) * 4 + (N,) * 8


@covers('ba-awa-match-setup')
def test_next_game_refills_every_pit_and_hands_over_pits():
    match = finished(ms.Match(BA_AWA), (28, 20)).next_game()
    pos = match.position
    assert pos.pits == (4,) * 12 and pos.captured == (0, 0)
    assert Counter(pos.owners) == {S: 7, N: 5}
    assert pos.owners == (S,) * 7 + (N,) * 5
    assert len(match.played) == 1 and match.games[-1].start == pos


@covers('ba-awa-match-allocation')
def test_an_explicit_allocation_is_accepted_and_checked():
    match = finished(ms.Match(BA_AWA), (28, 20))
    chosen = (N, S) * 5 + (S, S)
    assert match.next_game(owners=chosen).position.owners == chosen
    with pytest.raises(ms.InvalidPositionError, match="South earned 7 pits .* gives them 6"):
        match.next_game(owners=(S, N) * 6)
    with pytest.raises(ms.InvalidPositionError, match="for each of the 12 pits"):
        match.next_game(owners=(S,) * 11)
    with pytest.raises(ms.InvalidPositionError, match="player indices"):
        match.next_game(owners=(S,) * 7 + (5,) * 5)


@pytest.mark.parametrize("policy, captured, opener", [
    ("alternate", (28, 20), N), ("winner", (20, 28), N), ("winner", (28, 20), S),
    ("loser", (28, 20), N), ("loser", (24, 24), N)])
@covers('ba-awa-match-opener')
def test_who_opens_the_next_game(policy, captured, opener):
    match = finished(ms.Match(BA_AWA, opener=policy), captured, opener=S)
    assert match.next_game().position.opener == opener
    assert match.next_game().position.to_move == opener


@pytest.mark.parametrize("target, captured, over", [(12, (44, 4), False), (11, (44, 4), True),
                                                    (10, (40, 8), True), (10, (36, 12), False)])
@covers('ba-awa-match-aim')
def test_the_match_ends_at_the_target(target, captured, over):
    match = finished(ms.Match(BA_AWA, target=target), captured)
    assert match.is_over is over
    assert match.winner == (S if over else None)
    if over:
        with pytest.raises(ms.IllegalMoveError, match="the match is over: South won it"):
            match.next_game()


@covers('ba-awa-match-elimination')
def test_three_player_elimination_leaves_two_on_the_whole_board():
    match = finished(ms.Match(BA_AWA_3), (24, 0, 24))
    assert not match.is_over
    nxt = match.next_game()
    assert nxt.eliminated == (E3,)
    assert nxt.position.owners == (S3,) * 6 + (N3,) * 6
    assert nxt.position.opener == N3     # alternate: East is out, so North opens
    assert finished(ms.Match(BA_AWA_3), (44, 0, 4)).is_over is False
    assert finished(ms.Match(BA_AWA_3), (48, 0, 0)).winner == S3


def test_match_errors():
    with pytest.raises(ms.OptionError, match="target must be one of 10, 11, 12, not 9"):
        ms.Match(BA_AWA, target=9)
    with pytest.raises(ms.OptionError, match="opener must be one of"):
        ms.Match(BA_AWA, opener="random")
    with pytest.raises(ms.OptionError, match="match play is a Ba-awa rule"):
        ms.Match(ms.get_game("bakuk"))
    with pytest.raises(ms.IllegalMoveError, match="not over yet"):
        ms.Match(BA_AWA).next_game()
    done = finished(ms.Match(BA_AWA), (28, 20))
    with pytest.raises(ms.IllegalMoveError, match="next_game"):
        done.play("a")


def test_match_record_errors():
    text = ms.format_match(ms.Match(BA_AWA).play("a"))
    assert ms.parse_match(text) == ms.Match(BA_AWA).play("a")
    with pytest.raises(ms.NotationError, match="line 6: game 1: .*belongs to North"):
        ms.parse_match(text.replace("moves=a", "moves=A"))
    with pytest.raises(ms.NotationError, match="line 1: bad match settings"):
        ms.parse_match(text.replace("target: 12", "target: 9"))


# -- random matches: the invariants ----------------------------------------------

def play_random_match(game, target, rng, max_games=2000):
    match = ms.Match(game, target=target)
    games = 0
    while True:
        start = match.position
        assert sum(start.pits) == 48 and start.captured == (0,) * game.players
        while not match.game_over:
            match = match.play(rng.choice(match.position.legal_moves()))
        games += 1
        earned = match.earned()
        assert all(seeds % 4 == 0 for seeds in match.position.captured)
        assert earned == tuple(seeds // 4 for seeds in match.position.captured)
        assert sum(earned) == 12
        if match.is_over:
            return match, games
        assert games < max_games, "match did not end"
        match = match.next_game()
        owners = match.position.owners
        assert len(owners) == 12 and set(owners) <= set(range(game.players))
        assert tuple(owners.count(p) for p in range(game.players)) == earned
        assert match.position.opener in owners


@pytest.mark.parametrize("game", [BA_AWA, BA_AWA_3], ids=["two", "three"])
def test_random_matches_keep_every_invariant_and_end(game):
    rng = random.Random(7)
    for _ in range(3):
        match, games = play_random_match(game, 10, rng)
        assert max(match.earned()) >= 10
        assert ms.parse_match(ms.format_match(match)) == match


def test_random_three_player_bakuk_games_conserve_seeds():
    rng = random.Random(3)
    for _ in range(300):
        pos = BAKUK_3.start()
        while not pos.is_over:
            pos = pos.play(rng.choice(pos.legal_moves()))
            assert sum(pos.pits) + sum(pos.captured) == 36
            assert BAKUK_3.parse(pos.to_text()) == pos

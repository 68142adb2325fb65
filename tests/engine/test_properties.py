"""Properties over random positions and random games (hypothesis), and the
10,000-random-games conservation run.

Why random play terminates (so the move cap in helpers.random_game is only a
bound on random play, never a rule): between two captures the board total T is
constant, and both games end at the first recurrence of a position (pits and
player to move) since the last capture (ba-awa-repetition, bakuk-repetition), so
at most 2·C(T+n−1, n−1) moves can separate two captures, and every capture lowers
T. A single Ba-awa move is finite too: its laps are deterministic in the lap
state (board, pit), a repeated lap state is detected exactly (ba-awa-endless),
and there are finitely many. In 20,000 random games with default options the
longest Ba-awa game had 35 moves and the longest Bakuk game 106; the cap is 1000.
"""
from __future__ import annotations

import random

import pytest
from helpers import (
    MOVE_CAP,
    naive_ba_awa_sowing,
    naive_bakuk_sowing,
    option_combinations,
    random_game,
    replay,
)
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import mancala_spec as ms
from mancala_spec.engine.trace import Capture, EndOfMove, Pass

RULE_IDS = frozenset(rule.id for rule in ms.load_catalogue())
COMBINATIONS = {name: list(option_combinations(name)) for name in ("ba-awa", "bakuk")}
# Captures at the end of a game, which take whatever is left (any number of seeds).
END_TAKES = {"ba-awa-eight", "ba-awa-no-move", "ba-awa-repetition", "bakuk-leftovers"}

PROPERTY = settings(deadline=None, database=None, max_examples=400,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
GAMES = settings(PROPERTY, max_examples=150)


# -- strategies -------------------------------------------------------------------------


@st.composite
def seed_vectors(draw, length, total):
    """*length* seed counts adding up to *total* (cut points drawn at random)."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=length - 1,
                                max_size=length - 1)))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total])]


@st.composite
def positions(draw, name):
    """A random valid position of *name* with random options; positions the
    rules reject (InvalidPositionError) are discarded with assume()."""
    game = ms.get_game(name, **draw(st.sampled_from(COMBINATIONS[name])))
    size, everything = game.board.size, game.total_seeds
    if name == "ba-awa":        # eight or fewer on the board is never a position between moves
        on_board = draw(st.one_of(st.just(0), st.integers(9, 16), st.integers(9, everything)))
    else:
        on_board = draw(st.integers(0, everything))
    unit = game.capture_unit
    if on_board:
        # while seeds are on the board each count captured is a multiple of the capture
        # unit (Game.check_reachable): draw only such counts, not mostly refused ones
        on_board += (everything - on_board) % unit
    pits = draw(seed_vectors(size, on_board))
    if on_board:
        south = unit * draw(st.integers(0, (everything - on_board) // unit))
    else:
        south = draw(st.integers(0, everything))
    owners = draw(st.one_of(st.none(), st.lists(st.integers(0, 1), min_size=size,
                                                 max_size=size)))
    history = draw(st.lists(st.tuples(seed_vectors(size, on_board), st.integers(0, 1)),
                            max_size=2))
    try:
        return game.position(pits, to_move=draw(st.integers(0, 1)),
                             captured=(south, everything - on_board - south),
                             opener=draw(st.integers(0, 1)), owners=owners, history=history)
    except ms.InvalidPositionError:
        assume(False)


# -- checks shared by the properties ------------------------------------------------------


def fields(pos):
    return (pos.game, pos.pits, pos.to_move, pos.captured, pos.opener, pos.owners, pos.history)


def check_position(pos):
    """Seeds conserved; re-validates through game.position with the same fields;
    legal moves non-empty iff the game is not over."""
    game = pos.game
    assert sum(pos.pits) + sum(pos.captured) == game.total_seeds
    assert min(pos.pits) >= 0 and min(pos.captured) >= 0
    again = game.position(pos.pits, to_move=pos.to_move, captured=pos.captured,
                          opener=pos.opener, owners=pos.owners,
                          history=[(list(p), player) for p, player in pos.history])
    assert fields(again) == fields(pos)
    assert bool(pos.legal_moves()) == (not pos.is_over)
    if pos.is_over:
        assert pos.winner in (*range(pos.game.players), None)
    else:
        assert pos.winner is None


def check_trace(trace):
    """Event order, rule IDs, replay, captures of four (Ba-awa)."""
    before, after, events = trace.before, trace.position, trace.events
    assert all(event.rule in RULE_IDS for event in events), [e.rule for e in events]
    kinds = [event.kind for event in events]
    assert kinds[0] == "pick-up" and kinds.count("end-of-move") == 1
    end_of_move = kinds.index("end-of-move")
    assert set(kinds[end_of_move + 1:]) <= {"pass", "capture", "end-of-game"}
    assert kinds.count("end-of-game") <= 1
    assert after.is_over == ("end-of-game" in kinds)
    if "end-of-game" in kinds:
        assert kinds[-1] == "end-of-game"
    assert replay(trace) == (after.pits, after.captured)
    for index, capture in enumerate(events):
        if not isinstance(capture, Capture):
            continue
        if index > end_of_move:
            assert capture.rule in END_TAKES, capture
        elif before.game.name == "ba-awa":
            assert capture.seeds == 4, capture
            expected = (before.owners[capture.pit] if capture.rule == "ba-awa-owner-four"
                        else before.to_move)
            assert capture.rule in {"ba-awa-owner-four", "ba-awa-mover-four"}
            assert capture.player == expected, capture
        else:
            assert capture.seeds in (2, 4) and capture.player == before.to_move, capture
            assert capture.rule in {"bakuk-capture", "bakuk-chain"}
    passed = [e.player for e in events if isinstance(e, Pass)]
    if not after.is_over:
        # a player who owns no pit takes no turn (rule ba-awa-match-elimination);
        # a player who owns pits but cannot move is passed over with a Pass event
        order = before.game.turn_order(before.to_move, before.owners)
        assert passed == list(order[:len(passed)])
        assert after.to_move == order[len(passed)]


def sowing_part(trace):
    """(pits, captured) once the sowing is over, before the end-of-move rules."""
    cut = next(i for i, e in enumerate(trace.events) if isinstance(e, EndOfMove)) + 1
    partial = type(trace)(trace.before, trace.pit, trace.events[:cut], trace.position)
    return replay(partial)


def check_against_naive_model(pos, pit):
    """The engine's sowing agrees with the naive model written from the rules."""
    game = pos.game
    trace = pos.trace(pit)
    pits, captured = sowing_part(trace)
    gained = tuple(b - a for a, b in zip(pos.captured, captured))
    if game.name == "bakuk":
        expected = naive_bakuk_sowing(pos.pits, pos.to_move, pit, game.options["skip_origin"],
                                      game.options["chain"])
        assert (pits, gained) == expected[:2]
        return
    naive_pits, naive_gained, ending, states = naive_ba_awa_sowing(
        pos.pits, pos.owners, pos.to_move, pit, game.options["skip_origin"], max_laps=5000)
    end = next(e for e in trace.events if isinstance(e, EndOfMove))
    if end.reason == "endless-stopped":
        assert ending is None and len(set(states)) < len(states)
    else:
        assert (pits, gained, end.reason) == (naive_pits, naive_gained, ending)


# -- random positions ------------------------------------------------------------------------


@PROPERTY
@given(pos=positions("ba-awa"))
def test_random_ba_awa_positions(pos):
    check_random_position(pos)


@PROPERTY
@given(pos=positions("bakuk"))
def test_random_bakuk_positions(pos):
    check_random_position(pos)


def check_random_position(pos):
    game = pos.game
    check_position(pos)
    before = fields(pos)
    legal = pos.legal_moves()
    # the pits the mover chooses from (ba-awa-choose): those they own, or with
    # choose="row" those of their row, whoever owns them
    if game.options.get("choose") == "row":
        own = [p for p in range(game.board.size)
               if p // game.board.pits_per_row == pos.to_move and pos.pits[p]]
    else:
        own = [p for p in range(game.board.size) if pos.owners[p] == pos.to_move and pos.pits[p]]
    assert set(legal) <= set(own)
    if pos.is_over:
        event("game over")
        assert legal == []
        return
    for pit in own:
        if pit in legal:
            continue
        event("an own pit with seeds is not a legal move")
        # Only Ba-awa rejects an own pit with seeds, and only as endless: the naive
        # model confirms the lap states repeat.
        assert game.name == "ba-awa" and game.options["endless"] == "illegal"
        assert pos.game.sow_move(pos, pit).endless
        *_, ending, states = naive_ba_awa_sowing(pos.pits, pos.owners, pos.to_move, pit,
                                                 game.options["skip_origin"], max_laps=5000)
        assert ending is None and len(set(states)) < len(states)
        with pytest.raises(ms.IllegalMoveError, match="never ends"):
            pos.play(pit)
    for pit in legal:
        trace = pos.trace(pit)
        assert fields(pos) == before                          # play never mutates
        assert pos.play(pit) == trace.position
        check_trace(trace)
        check_position(trace.position)
        check_against_naive_model(pos, pit)
    assert fields(pos) == before


# -- random games --------------------------------------------------------------------------------


def check_random_game(name, options, rng):
    game = ms.get_game(name, **options)
    start = game.start(rng.randrange(2))
    traces = random_game(start, rng)                  # fails past MOVE_CAP moves
    for trace in traces:
        before = fields(trace.before)
        check_trace(trace)
        check_position(trace.position)
        assert fields(trace.before) == before
        # the legal moves the end-of-move rules worked out are those of the same
        # position read afresh from its notation
        afresh = ms.Position(game, trace.position.to_text())
        assert afresh == trace.position and afresh.legal_moves() == trace.position.legal_moves()
    final = traces[-1].position
    assert final.is_over and final.legal_moves() == []
    if name == "ba-awa":                              # every Ba-awa ending clears the board
        assert final.pits == (0,) * 12


@GAMES
@given(options=st.sampled_from(COMBINATIONS["ba-awa"]), rng=st.randoms(use_true_random=False))
def test_random_ba_awa_games(options, rng):
    check_random_game("ba-awa", options, rng)


@GAMES
@given(options=st.sampled_from(COMBINATIONS["bakuk"]), rng=st.randoms(use_true_random=False))
def test_random_bakuk_games(options, rng):
    check_random_game("bakuk", options, rng)


ALL_COMBINATIONS = [(name, options) for name, combinations in COMBINATIONS.items()
                    for options in combinations]


@pytest.mark.parametrize("name, options", ALL_COMBINATIONS, ids=[
    name + "".join(f"-{key}={value}" for key, value in options.items())
    for name, options in ALL_COMBINATIONS])
def test_every_option_combination_plays_random_games(name, options):
    rng = random.Random(2)
    for _ in range(5):
        check_random_game(name, options, rng)


# -- 10,000 random games of each game ---------------------------------------------------------

SEEDS = (1, 2, 3, 4)
GAMES_PER_SEED = 2_500


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", ["ba-awa", "bakuk"])
def test_ten_thousand_random_games_conserve_seeds(name, seed):
    """Issue 2: 10,000 random games of each game (4 seeds × 2,500), default
    options; the seeds are conserved after every move and every game ends."""
    game = ms.get_game(name)
    total = game.total_seeds
    rng = random.Random(seed)
    choice = rng.choice
    moves = 0
    for _ in range(GAMES_PER_SEED):
        pos = game.start()
        count = 0
        while not pos.is_over:
            pos = pos.play(choice(pos.legal_moves()))
            count += 1
            assert sum(pos.pits) + sum(pos.captured) == total, pos
            assert count <= MOVE_CAP, pos
        moves += count
    assert moves > GAMES_PER_SEED


# -- endless sowings on the smallest boards that have them -----------------------------------


def test_engine_and_naive_model_agree_on_every_endless_sowing_of_nine_seeds():
    """Every board of 9 seeds (the fewest that allow an endless sowing; boards of
    1–8 seeds have none) and every pit: the naive model finds the endless ones,
    and the engine refuses exactly those (and only those) moves."""
    import itertools

    game = ms.get_game("ba-awa")
    owners = game.board.row_owners
    endless = []
    for bars in itertools.combinations(range(9 + 11), 11):      # 9 seeds in 12 pits
        edges = (-1, *bars, 20)
        pits = tuple(edges[i + 1] - edges[i] - 1 for i in range(12))
        for pit in range(12):
            if pits[pit]:
                *_, ending, states = naive_ba_awa_sowing(pits, owners, owners[pit], pit,
                                                         max_laps=200)
                if ending is None:
                    assert len(set(states)) < len(states)
                    endless.append((pits, pit))
    assert len(endless) == 72
    for pits, pit in endless:
        # nine seeds: boards play cannot leave (39 captured, captures being
        # fours), the smallest with an endless sowing, built on purpose
        pos = game.position(pits, to_move=owners[pit], captured=(20, 19),
                            allow_unreachable=True)
        assert pos.game.sow_move(pos, pit).endless and pit not in pos.legal_moves()
        others = [p for p in range(12) if owners[p] == owners[pit] and pits[p] and p != pit
                  and (pits, p) not in endless]
        assert set(others) <= set(pos.legal_moves())

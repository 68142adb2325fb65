"""Issue 35, item 5: the API's edges refuse what they cannot handle with a
typed error (a MancalaError) naming the field, up front, before any work:
the fast kernel given more seeds than its game holds, a game's steps given
another game's position, a Match given values that are not its parts, and the
solver given a board too large for memory. Each test here failed before the fix
(an IndexError, garbage, a later failure or an unbounded run)."""
from __future__ import annotations

import pytest

import mancala_spec as ms
from mancala_spec import errors, fast
from mancala_spec import solve as S
from mancala_spec.engine.games.match import PlayedGame
from mancala_spec.fast import FastGame

BA, BK = ms.get_game("ba-awa"), ms.get_game("bakuk")
BA_OTHER = ms.get_game("ba-awa", skip_origin=True)


def refused(cls, call):
    with pytest.raises(cls) as info:
        call()
    assert isinstance(info.value, errors.MancalaError)
    return info.value


# -- the fast kernel: no more seeds than the game holds --------------------------------

@pytest.mark.parametrize("game", [BA, BK])
@pytest.mark.parametrize("extra, field", [
    ({"pits": "many"}, "pits"), ({"captured": "many"}, "captured"),
    ({"history": "many"}, "history"),
])
def test_a_state_holds_no_more_seeds_than_its_game(game, extra, field):
    kernel = FastGame(game)
    size, total = game.board.size, game.total_seeds
    pits, captured, history = (game.seeds_per_pit,) * size, None, ()
    if "pits" in extra:                          # (100,) * size: 1,200 / 600 seeds
        pits = (100,) * size
    elif "captured" in extra:                    # the board full, and captures beside it
        captured = (total, 0)
    else:                                        # a position seen earlier held too many
        history = [((100,) * size, 0)]
    error = refused(errors.InvalidPositionError,
                    lambda: kernel.state(pits, 0, captured, history))
    assert error.field == field
    assert str(total) in str(error)


@pytest.mark.parametrize("game", [BA, BK])
def test_a_state_of_fewer_seeds_is_still_played(game):
    """Endgames of fewer seeds (the solver's tests build them) stay welcome."""
    kernel = FastGame(game)
    pits = (1,) + (0,) * (game.board.size // 2 - 1) + (1,) + (0,) * (game.board.size // 2 - 1)
    state = kernel.play(kernel.state(pits, 0), 0)
    assert sum(state[0]) + sum(state[2]) == 2


# -- a game's steps: only positions (and sowings) of that game -------------------------

OTHER_POSITIONS = [(BK, BA.start()), (BA, BK.start()), (BA, BA_OTHER.start())]


@pytest.mark.parametrize("game, pos", OTHER_POSITIONS, ids=["bakuk/ba-awa", "ba-awa/bakuk",
                                                            "ba-awa/variant"])
def test_game_steps_refuse_another_games_position(game, pos):
    for call in (lambda: game.sow_move(pos, 0), lambda: game.moves(pos),
                 lambda: game.legal_moves(pos),
                 lambda: game.complete(pos, pos.game.sow_move(pos, 0))):
        assert refused(errors.InvalidPositionError, call).field == "game"


@pytest.mark.parametrize("game", [BA, BK])
def test_game_steps_refuse_what_is_not_a_position(game):
    for call in (lambda: game.sow_move("x", 0), lambda: game.moves(None),
                 lambda: game.complete((6,) * 6, None)):
        assert refused(errors.InvalidPositionError, call).field == "game"


@pytest.mark.parametrize("game", [BA, BK])
@pytest.mark.parametrize("pit", [-1, 12, 99, 1.0, True, "a", None])
def test_sow_move_refuses_a_pit_that_is_not_an_index(game, pit):
    error = refused(errors.IllegalMoveError, lambda: game.sow_move(game.start(), pit))
    assert error.pit == pit and error.reason == "no-such-pit"


def test_complete_refuses_a_sowing_of_another_position():
    before = BK.start()
    sowing = BA.sow_move(BA.start(), 0)
    assert refused(errors.InvalidPositionError, lambda: BK.complete(before, sowing)).field == "game"


def test_game_steps_still_play_an_equal_games_positions():
    """An equal game (the same options, another instance) plays the position."""
    twin = ms.get_game("bakuk")
    pos = BK.start()
    assert twin.complete(pos, twin.sow_move(pos, 0)) == pos.play(0)
    assert twin.moves(pos) == tuple(pos.legal_moves())


# -- Match: its parts of its game, checked when made ----------------------------------

MATCH = ms.Match(BA)


@pytest.mark.parametrize("kwargs, field", [
    ({"played": (1, 2)}, "played"),
    ({"played": [PlayedGame(BA.start(), ())]}, "played"),
    ({"played": (PlayedGame(BK.start(), ()),)}, "played"),
    ({"played": (PlayedGame(BA.start(), ("a",)),)}, "played"),
    ({"played": (PlayedGame(BA.start(), (0,)),)}, "played"),   # not a whole game
    ({"current": PlayedGame(BK.start(), ())}, "current"),
    ({"current": BA.start()}, "current"),
    ({"current": PlayedGame(BA.start(), (99,))}, "current"),
    ({"current": PlayedGame(BA.start(), (0.0,))}, "current"),
    ({"position": 5}, "position"),
    ({"position": BK.start()}, "position"),
    ({"current": PlayedGame(BA.start(), ()), "position": BA.start().play(0)}, "position"),
])
def test_match_refuses_parts_that_are_not_its_own(kwargs, field):
    error = refused(errors.MancalaError, lambda: ms.Match(BA, **kwargs))
    assert getattr(error, "option", getattr(error, "field", None)) == field


def test_match_still_takes_its_own_parts():
    match = MATCH.play(0).play(MATCH.play(0).position.legal_moves()[0])
    again = ms.Match(BA, played=match.played, current=match.current, position=match.position)
    assert again == match
    finished = MATCH
    while not finished.game_over:
        finished = finished.play(finished.position.legal_moves()[0])
    later = finished.next_game()
    assert ms.Match(BA, played=later.played, current=later.current) == later


# -- the solver: refuses a board too large, before any work --------------------------

@pytest.mark.parametrize("pits, seeds, field", [(3, 9, "seeds_per_pit"),
                                                (3, 12, "seeds_per_pit"),
                                                (5, 3, "pits_per_row"), (4, 4, "pits_per_row")])
def test_solve_refuses_a_board_beyond_its_memory_bound(pits, seeds, field):
    rules = S.Rules(pits, seeds)
    calls = []
    error = refused(errors.OptionError,
                    lambda: S.solve(rules, progress=lambda *a: calls.append(a)))
    assert error.option == field and calls == []         # refused before any work
    assert S.estimated_bytes(rules) > S.MAX_SOLVE_BYTES
    assert f"{S.MAX_SOLVE_BYTES:,}" in str(error) or "GB" in str(error)


def test_solve_estimate_admits_the_standard_board_and_what_the_cli_allows():
    assert S.estimated_bytes(S.Rules()) <= S.MAX_SOLVE_BYTES          # 3 holes a row, 6 each
    assert S.estimated_bytes(S.Rules(3, 7)) <= S.MAX_SOLVE_BYTES
    assert S.estimated_bytes(S.Rules(2, 30)) <= S.MAX_SOLVE_BYTES     # 120 counters
    assert S.estimated_bytes(S.Rules(3, 8)) > S.MAX_SOLVE_BYTES


# -- found by the fuzz: the search's budget, the batch steps' constructors -------------

@pytest.mark.parametrize("kwargs, option", [
    ({"nodes": "x"}, "nodes"), ({"nodes": 0}, "nodes"), ({"seconds": "x"}, "seconds"),
    ({"seconds": float("nan")}, "seconds"), ({"rng": 0}, "rng"), ({"clock": None}, "clock"),
])
def test_search_checks_its_budget(kwargs, option):
    from mancala_spec.fast.search import search
    error = refused(errors.OptionError, lambda: search(BK.start(), **{"nodes": 50, **kwargs}))
    assert error.option == option


def test_search_move_takes_a_random_generator():
    from mancala_spec.fast.search import search_move
    assert refused(errors.OptionError, lambda: search_move(BK.start(), 0)).option == "rng"


@pytest.mark.parametrize("call, option", [
    (lambda: fast.BaAwaBatch(BK), "game"), (lambda: fast.BaAwaBatch(None), None),
    (lambda: fast.BaAwaBatch(BA, most=1.5), "most"),
    (lambda: fast.BaAwaBatch(BA, most=10**6), "most"),
    (lambda: fast.BakukBatch(-1, 36), "pits_per_row"), (lambda: fast.BakukBatch(3, "x"), "total"),
    (lambda: fast.BakukBatch.for_game(BA), "game"), (lambda: fast.BakukBatch.for_game(0), None),
])
def test_the_batch_steps_check_their_arguments(call, option):
    """(Something not a game at all is an UnknownGameError, as for FastGame.)"""
    error = refused(errors.MancalaError, call)
    if option is None:
        assert isinstance(error, errors.UnknownGameError)
    else:
        assert error.option == option

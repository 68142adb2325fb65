"""Issue 21: the fast kernel's public entry points refuse bad values with the
package's typed errors (each a ValueError), their fields filled, never a
TypeError, IndexError or AttributeError, and never take a value that only
compares equal to a pit index (0.0, True, 0j)."""
from __future__ import annotations

import pytest

import mancala_spec as ms
from mancala_spec import errors, fast
from mancala_spec.fast import FastGame
from mancala_spec.fast.tables import sowing_next

BA_AWA = ms.get_game("ba-awa")
BAKUK = ms.get_game("bakuk")


def raised(cls, call):
    with pytest.raises(cls) as info:
        call()
    assert type(info.value) is cls and isinstance(info.value, ValueError)
    return info.value


@pytest.mark.parametrize("game", [BA_AWA, BAKUK])
@pytest.mark.parametrize("pit", [0.0, True, False, 0j, 1.0, None, [0], "x"])
def test_play_takes_only_whole_number_pits(game, pit):
    kernel = FastGame(game)
    error = raised(errors.IllegalMoveError, lambda: kernel.play(kernel.start(), pit))
    assert error.pit == pit and error.reason == "no-such-pit"


@pytest.mark.parametrize("game", [BA_AWA, BAKUK])
def test_play_still_takes_its_pits(game):
    kernel = FastGame(game)
    assert kernel.to_position(kernel.play(kernel.start(), 1)) == game.start().play(1)


@pytest.mark.parametrize("state", [None, "x", (), (1, 2, 3, 4, 5)])
def test_a_state_that_is_not_one_is_an_invalid_position(state):
    kernel = FastGame(BA_AWA)
    for call in (lambda: kernel.play(state, 0), lambda: kernel.outcome(state),
                 lambda: kernel.winner(state), lambda: kernel.to_position(state)):
        assert raised(errors.InvalidPositionError, call).field == "state"
    if not isinstance(state, tuple) or len(state) < 5:    # (is_over reads only the moves)
        assert raised(errors.InvalidPositionError, lambda: kernel.is_over(state)).field == "state"


@pytest.mark.parametrize("kwargs, field", [
    ({"owners": 5}, "owners"), ({"owners": "abc"}, "owners"), ({"owners": (0, 1)}, "owners"),
    ({"owners": (0,) * 11 + (2,)}, "owners"), ({"owners": (0,) * 11 + (True,)}, "owners"),
    ({"opener": "x"}, "opener"), ({"opener": 2}, "opener"), ({"opener": True}, "opener"),
])
def test_fast_game_checks_opener_and_owners(kwargs, field):
    assert raised(errors.InvalidPositionError, lambda: FastGame(BA_AWA, **kwargs)).field == field


@pytest.mark.parametrize("game", [None, "bakuk", 3, type(BAKUK)])
def test_fast_game_of_something_not_a_game(game):
    error = raised(errors.UnknownGameError, lambda: FastGame(game))
    assert error.name is game and set(error.known) == {"ba-awa", "bakuk"}


@pytest.mark.parametrize("args, field", [
    (("x", 0), "pits"), (((4,) * 11, 0), "pits"), (((4.0,) * 12, 0), "pits"),
    (((4,) * 12, 0, (0, -1)), "captured"), (((4,) * 12, 0, "00"), "captured"),
    (((4,) * 12, 2), "to_move"), (((4,) * 12, None), "to_move"),
    (((4,) * 12, 0, None, [None]), "history"), (((4,) * 12, 0, None, [((4,) * 12,)]), "history"),
    (((4,) * 12, 0, None, 7), "history"),
])
def test_state_checks_shape_and_types(args, field):
    kernel = FastGame(BA_AWA)
    assert raised(errors.InvalidPositionError, lambda: kernel.state(*args)).field == field


def test_from_position_takes_a_position_of_its_own_game():
    kernel = FastGame(BAKUK)
    assert raised(errors.InvalidPositionError, lambda: kernel.from_position("x")).field == "game"
    other = BAKUK.start(opener=1)
    assert raised(errors.InvalidPositionError, lambda: kernel.from_position(other)).field == "game"


@pytest.mark.parametrize("kwargs, option", [
    ({"n": "x"}, "n"), ({"n": 1.5}, "n"), ({"n": -1}, "n"), ({"n": True}, "n"),
    ({"n": 10 ** 12}, "n"), ({"n": 2, "seed": "x"}, "seed"), ({"n": 2, "seed": -1}, "seed"),
    ({"n": 2, "seed": 1.0}, "seed"), ({"n": 2, "record": "yes"}, "record"),
])
def test_playouts_check_their_arguments(kwargs, option):
    error = raised(errors.OptionError, lambda: fast.playouts(BAKUK, **kwargs))
    assert error.option == option and error.value == next(iter(kwargs.values())) \
        if option == "n" else error.option == option


@pytest.mark.parametrize("kwargs, field", [
    ({"opener": 5}, "opener"), ({"opener": "x"}, "opener"), ({"start": "x"}, "game"),
    ({"start": BA_AWA.start()}, "game"),
])
def test_playouts_check_opener_and_start(kwargs, field):
    assert raised(errors.InvalidPositionError,
                  lambda: fast.playouts(BAKUK, 2, **kwargs)).field == field


def test_playouts_of_something_not_a_game():
    assert raised(errors.UnknownGameError, lambda: fast.playouts(None, 2)).name is None


@pytest.mark.parametrize("game", [-1, 3, "0", 1.0, None])
def test_a_playout_is_asked_for_by_its_number(game):
    result = fast.playouts(BAKUK, 3, seed=1, record=True)
    for call in (lambda: result.record(game), lambda: result.outcome(game)):
        assert raised(errors.OptionError, call).option == "game"


STEP = sowing_next(12, False)
OWNERS = (0,) * 6 + (1,) * 6


@pytest.mark.parametrize("args, field", [
    (((4,) * 12, 0.0, 0, STEP, OWNERS), "pit"), (((4,) * 12, 12, 0, STEP, OWNERS), "pit"),
    (((4,) * 12, 0, 2, STEP, OWNERS), "mover"), (((4,) * 12, 0, 0, None, OWNERS), "step"),
    (((4,) * 12, 0, 0, sowing_next(6, False), OWNERS), "step"),
    (((4,) * 12, 0, 0, STEP, 5), "owners"), (((4,) * 12, 0, 0, STEP, (0,) * 12, "2"), "players"),
    ((None, 0, 0, STEP, OWNERS), "pits"), (((4.5,) * 12, 0, 0, STEP, OWNERS), "pits"),
])
def test_sow_checks_its_arguments(args, field):
    assert raised(errors.InvalidPositionError, lambda: fast.sow(*args)).field == field


@pytest.mark.parametrize("start, field", [
    (((3.7, 6, 6, 6, 6, 6), 0), "pits"), (((True, 6, 6, 6, 6, 6), 0), "pits"),
    ((("6",) * 6, 0), "pits"), ("x", "pits"), (((6,) * 6,), "pits"), (((6,) * 6, True), "to_move"),
    (((6,) * 6, 0.0), "to_move"),
])
def test_solve_takes_whole_numbers_only(start, field):
    from mancala_spec.solve import solve
    assert raised(errors.InvalidPositionError, lambda: solve(start=start)).field == field


# -- what the fuzzing of the whole public API found (issue 21) --------------------------------

HUGE = 10 ** 4400          # more digits than Python's str(int) converts


@pytest.mark.parametrize("call", [
    lambda: ms.get_game(HUGE), lambda: ms.get_game("bakuk", players=HUGE),
    lambda: BAKUK.position((6,) * 6, to_move=HUGE), lambda: BAKUK.start().play(HUGE),
    lambda: BAKUK.pit_index(HUGE), lambda: FastGame(BAKUK, opener=HUGE),
    lambda: fast.playouts(BAKUK, HUGE), lambda: ms.Match(BA_AWA, target=HUGE),
])
def test_a_number_too_long_to_show_is_refused_with_its_length(call):
    with pytest.raises(errors.MancalaError) as info:
        call()
    assert "a whole number of 4,401 digits" in str(info.value)


def test_an_over_long_value_is_shown_cut_short():
    with pytest.raises(ms.UnknownGameError) as info:
        ms.get_game("é" * 100_000)
    assert len(str(info.value)) < 300 and info.value.name == "é" * 100_000


@pytest.mark.parametrize("player", [None, -1, 2, 0.0, True, "S", HUGE],
                         ids=["None", "-1", "2", "0.0", "True", "S", "huge"])
def test_a_player_is_named_by_index_only(player):
    for call in (lambda: BAKUK.player_name(player), lambda: BAKUK.player_letter(player)):
        assert raised(errors.InvalidPositionError, call).field == "player"


@pytest.mark.parametrize("value", [None, "x", 0, BAKUK.start().game])
def test_functions_of_positions_and_matches_take_only_those(value):
    from mancala_spec.notation import format_match
    for call in (lambda: BAKUK.check_reachable(value), lambda: FastGame.for_position(value),
                 lambda: format_match(value), lambda: ms.Match.starting_from(value)):
        assert raised(errors.InvalidPositionError, call).field == "game"


def test_format_game_result_is_true_or_false():
    from mancala_spec.notation import format_game
    assert raised(errors.OptionError,
                  lambda: format_game(BAKUK.start(), ["a"], result=0.0)).option == "result"


@pytest.mark.parametrize("pits, to_move", [(None, 0), ("x", 0), ((2.0, 2, 2, 2), 0),
                                           ((2, 2, 2, 2), None), ((2, 2, 2, 2), 0.0),
                                           ((2, 2, 2, 2), -1), ((2, 2), 0)])
def test_solution_lookups_check_the_position(pits, to_move):
    from mancala_spec.solve import Rules, solve
    solution = solve(Rules(2, 2))
    for call in (lambda: solution.value(pits, to_move), lambda: solution.index(pits, to_move),
                 lambda: solution.move_values(pits, to_move)):
        assert raised(errors.InvalidPositionError, call).field in ("pits", "to_move")


def test_solve_checks_rules_and_progress():
    from mancala_spec.solve import solve
    assert raised(errors.OptionError, lambda: solve("x")).option == "rules"
    assert raised(errors.OptionError, lambda: solve(progress=5)).option == "progress"


def test_a_rule_id_not_in_the_catalogue_is_a_typed_key_error():
    for rule in (None, 0.0, "bakuk-nothing", ["bakuk-sow"]):
        error = raised(errors.UnknownRuleError, lambda rule=rule: ms.get_rule(rule))
        assert isinstance(error, KeyError) and error.rule == rule


@pytest.mark.parametrize("timeout", [HUGE, 3601, 10.0 ** 300], ids=["huge", "3601", "1e300"])
def test_the_runner_takes_a_timeout_of_an_hour_at_most(timeout):
    from mancala_spec.conformance import packaged_suite
    from mancala_spec.conformance.runner import run
    error = raised(errors.RunnerError, lambda: run("true", packaged_suite(), timeout=timeout))
    assert error.setting == "timeout" and error.value == timeout


def test_an_engine_that_cannot_start_is_a_runner_error_naming_the_command():
    from mancala_spec.conformance import packaged_suite
    from mancala_spec.conformance.process import EngineStartError
    from mancala_spec.conformance.runner import run
    with pytest.raises(EngineStartError) as info:
        run(["/nonexistent/engine"], packaged_suite())
    assert isinstance(info.value, errors.RunnerError)
    assert (info.value.setting, info.value.value) == ("command", "/nonexistent/engine")


def test_sow_takes_a_board_of_at_most_120_pits():
    assert raised(errors.InvalidPositionError,
                  lambda: fast.sow((0,) * 1_000_000, 0, 0, STEP, OWNERS)).field == "pits"

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

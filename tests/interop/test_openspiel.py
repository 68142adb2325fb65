"""The games under OpenSpiel (mancala_spec.interop.openspiel), tested by OpenSpiel's own
suite: ``pyspiel.random_sim_test`` (random play, legal-action masks, cloning,
serialisation and its round trip, observations and information states at every step,
returns summing to zero and within the game's bounds) for each game with each value of
each option (one at a time, the rest at their defaults; turn_order with three
players), each named ruleset, both kinds of returns, and a move bound that stops
games. Three simulations each: the run takes seconds.

Our own tests beside it: the parameters are the options as declared, a state plays
exactly the engine's game, the returns are the engine's margins and winners, and a
bad parameter is refused.
"""
from __future__ import annotations

import random

import pyspiel
import pytest

import mancala_spec as ms
from mancala_spec.interop.adapter import adapted, features
from mancala_spec.interop.openspiel import SHORT_NAMES
from mancala_spec.options import game_options, plain
from mancala_spec.rulesets import names


def variants(game: str) -> list[dict[str, object]]:
    """Each option value but the default, one at a time; every named ruleset; the
    adapter's own parameters."""
    out: list[dict[str, object]] = [{}]
    for declared in game_options(game):
        for value in declared.choices:
            if value != declared.default:
                extra = {"players": 3} if declared.name == "turn_order" else {}
                out.append({declared.name: plain(value), **extra})
    out += [{"ruleset": name} for name in names(game) if name != "mancala_spec"]
    out += [{"returns": "win-loss"}, {"returns": "win-loss", "players": 3},
            {"max_moves": 4}]
    return out


def game_string(game: str, params: dict[str, object]) -> str:
    def written(value: object) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    inside = ",".join(f"{k}={written(v)}" for k, v in params.items())
    return SHORT_NAMES[game] + (f"({inside})" if inside else "")


CASES = [(game, params) for game in ("ba-awa", "bakuk") for params in variants(game)]


@pytest.mark.parametrize(("game", "params"), CASES,
                         ids=[game_string(g, p) for g, p in CASES])
def test_random_sim_test_passes(game, params):
    loaded = pyspiel.load_game(game_string(game, params))
    pyspiel.random_sim_test(loaded, num_sims=3, serialize=True, verbose=False)


def test_every_option_and_named_ruleset_is_run():
    """The cases above are derived from the declarations: every value of every
    option of both games, and every named ruleset, is among them."""
    for game in ("ba-awa", "bakuk"):
        run = variants(game)
        for declared in game_options(game):
            assert {plain(v) for v in declared.choices} - {plain(declared.default)} \
                <= {p.get(declared.name) for p in run}
        assert set(names(game)) - {"mancala_spec"} <= {p.get("ruleset") for p in run}
    assert len(CASES) >= 30


def test_parameters_are_the_options_as_declared():
    for game in ("ba-awa", "bakuk"):
        spec = pyspiel.load_game(SHORT_NAMES[game]).get_type().parameter_specification
        declared = {o.name: plain(o.default) for o in game_options(game)}
        assert {k: v for k, v in spec.items() if k in declared} == declared
        assert set(spec) - set(declared) == {"ruleset", "returns", "max_moves"}


def test_a_parameter_chooses_the_engines_game():
    state = pyspiel.load_game("mancala_spec_bakuk(chain=backward)").new_initial_state()
    assert state.position.game == ms.get_game("bakuk", chain="backward")
    koumma = pyspiel.load_game("mancala_spec_bakuk(ruleset=koumma)")
    assert koumma.new_initial_state().position.game == ms.get_game("bakuk", ruleset="koumma")
    # the game's string names the values played, and loads the same game again
    assert "first_counter=origin" in str(koumma) and "sixes=True" in str(koumma)
    again = pyspiel.load_game(str(koumma))
    assert str(again) == str(koumma)
    three = pyspiel.load_game("mancala_spec_ba_awa(players=3,turn_order=reverse)")
    assert three.num_players() == 3
    assert three.new_initial_state().position.game == ms.get_game(
        "ba-awa", players=3, turn_order="reverse")


@pytest.mark.parametrize("text", ["mancala_spec_bakuk(chain=sideways)",
                                  "mancala_spec_bakuk(ruleset=everyboard)",
                                  "mancala_spec_bakuk(returns=points)",
                                  "mancala_spec_ba_awa(max_moves=0)",
                                  "mancala_spec_ba_awa(colour=red)"])
def test_a_bad_parameter_is_refused(text):
    with pytest.raises((pyspiel.SpielError, ValueError)):
        pyspiel.load_game(text)


@pytest.mark.parametrize("game", ["ba-awa", "bakuk"])
@pytest.mark.parametrize("extra", [{}, {"players": 3}, {"ruleset": "mancalagames"}])
def test_a_state_plays_the_engines_game(game, extra):
    """Random games through OpenSpiel and through the engine, move for move: the same
    positions, legal actions, action names, and at the end the engine's margins (and
    with win-loss its winner)."""
    params = {"max_moves": 10_000, **extra}
    loaded = pyspiel.load_game(game_string(game, params))
    win_loss = pyspiel.load_game(game_string(game, {**params, "returns": "win-loss"}))
    engine = ms.get_game(game, **{k: v for k, v in extra.items()})
    rng = random.Random(45)
    for _ in range(20):
        state, pos = loaded.new_initial_state(), engine.start()
        other = win_loss.new_initial_state()
        while not state.is_terminal():
            assert state.position == pos and state.current_player() == pos.to_move
            assert state.legal_actions() == pos.legal_moves()
            action = rng.choice(pos.legal_moves())
            assert state.action_to_string(pos.to_move, action) == engine.board.name(action)
            state.apply_action(action)
            other.apply_action(action)
            pos = pos.play(action)
        assert pos.is_over and other.is_terminal()
        captured = pos.captured
        k = len(captured)
        margins = [c - (sum(captured) - c) / (k - 1) for c in captured]
        assert state.returns() == pytest.approx(margins)
        assert sum(state.returns()) == pytest.approx(0)
        winner = pos.winner
        assert other.returns() == pytest.approx(
            [0.0] * k if winner is None else [1.0 if p == winner else -1 / (k - 1)
                                             for p in range(k)])


def test_observations_and_information_states():
    game = pyspiel.load_game("mancala_spec_bakuk")
    state = game.new_initial_state()
    for pit in (0, 4):
        state.apply_action(pit)
    assert state.information_state_string(0) == "moves: a B"
    assert state.observation_string(1) == str(state.position)
    adapt = adapted("bakuk", {})
    assert state.observation_tensor(1) == pytest.approx(features(adapt, state.position, 1))
    tensor = state.information_state_tensor(0)
    size = len(features(adapt, state.position, 0))
    moves = [tensor[size + 6 * row: size + 6 * row + 6] for row in range(3)]
    assert moves == [[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0], [0] * 6]
    assert game.information_state_tensor_size() == size + 1000 * 6


def test_a_game_stopped_at_max_moves_is_scored_by_what_was_captured():
    game = pyspiel.load_game("mancala_spec_bakuk(max_moves=6)")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    assert len(state.history()) == 6 and not state.position.is_over
    south, north = state.position.captured
    assert state.returns() == [south - north, north - south]


def test_without_open_spiel_the_module_says_which_extra_to_install(tmp_path):
    import subprocess
    import sys

    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "import mancala_spec.interop.openspiel\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last == ("ImportError: mancala_spec.interop.openspiel needs open-spiel: "
                    "pip install 'mancala-spec[openspiel]'")

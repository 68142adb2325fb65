"""The games as PettingZoo environments (mancala_spec.interop.pettingzoo), tested by
PettingZoo's own suites: ``pettingzoo.test.api_test`` on the AEC environment and
``parallel_api_test`` on its parallel form, for each game with each value of each
option (one at a time; turn_order with three players), each named ruleset, both
kinds of returns and a move bound that truncates games. api_test plays one game per
run until every agent is done; each case is run on several seeds of the action
spaces, so that several games are played.

Our own tests beside it: an environment plays exactly the engine's game (action
masks, rewards, who is to move), renders the board as text, starts from a given
position, and refuses what it does not take.
"""
from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

import mancala_spec as ms
from mancala_spec.errors import IllegalMoveError, OptionError
from mancala_spec.interop.pettingzoo import env, parallel_env
from mancala_spec.options import game_options, plain
from mancala_spec.rulesets import names

SEEDS = 3


def variants(game: str) -> list[dict[str, object]]:
    out: list[dict[str, object]] = [{}]
    for declared in game_options(game):
        for value in declared.choices:
            if value != declared.default:
                extra = {"players": 3} if declared.name == "turn_order" else {}
                out.append({declared.name: plain(value), **extra})
    out += [{"ruleset": name} for name in names(game) if name != "mancala_spec"]
    out += [{"returns": "win-loss"}, {"max_moves": 4}]
    return out


CASES = [(game, params) for game in ("ba-awa", "bakuk") for params in variants(game)]


def seeded(environment, seed: int):
    for agent in environment.possible_agents:
        environment.action_space(agent).seed(seed)
    return environment


@pytest.mark.parametrize(("game", "params"), CASES,
                         ids=[f"{g}-{','.join(f'{k}={v}' for k, v in p.items())}"
                              for g, p in CASES])
def test_api_test_and_parallel_api_test_pass(game, params):
    with warnings.catch_warnings():
        # api_test warns that a dictionary observation is "not a NumPy array" for every
        # environment but PettingZoo's own classic games (it lists them by name);
        # PettingZoo's classic games observe {"observation", "action_mask"} as these do
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        for seed in range(SEEDS):
            api_test(seeded(env(game, **params), seed), num_cycles=1000)
            parallel_api_test(parallel_env(game, **params), num_cycles=1000)


def test_every_option_and_named_ruleset_is_run():
    for game in ("ba-awa", "bakuk"):
        run = variants(game)
        for declared in game_options(game):
            assert {plain(v) for v in declared.choices} - {plain(declared.default)} \
                <= {p.get(declared.name) for p in run}
        assert set(names(game)) - {"mancala_spec"} <= {p.get("ruleset") for p in run}


@pytest.mark.parametrize("game", ["ba-awa", "bakuk"])
@pytest.mark.parametrize("extra", [{}, {"players": 3}, {"ruleset": "mancalagames"}])
def test_an_environment_plays_the_engines_game(game, extra):
    engine = ms.get_game(game, **extra)
    environment = env(game, **extra)
    rng = random.Random(45)
    for _ in range(10):
        environment.reset()
        pos = engine.start()
        while not pos.is_over:
            agent = environment.agent_selection
            assert agent == f"player_{pos.to_move}"
            observation, reward, terminated, truncated, _ = environment.last()
            assert not (terminated or truncated) and reward == 0
            mask = observation["action_mask"]
            assert np.flatnonzero(mask).tolist() == pos.legal_moves()
            for other in environment.agents:
                if other != agent:
                    assert not environment.observe(other)["action_mask"].any()
            action = rng.choice(pos.legal_moves())
            environment.step(action)
            pos = pos.play(action)
            assert environment.unwrapped.position == pos
        captured = pos.captured
        k = len(captured)
        assert all(environment.terminations.values())
        for player in range(k):
            reward = environment._cumulative_rewards[f"player_{player}"]
            assert reward == pytest.approx(
                captured[player] - (sum(captured) - captured[player]) / (k - 1))


def test_a_bound_on_moves_truncates():
    environment = env("bakuk", max_moves=3)
    environment.reset()
    for _ in range(3):
        observation, *_ = environment.last()
        environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert all(environment.truncations.values())
    assert not any(environment.terminations.values())


def test_render_ansi_is_the_board_as_text():
    environment = env("bakuk", render_mode="ansi")
    environment.reset()
    assert environment.render() == str(ms.get_game("bakuk").start())
    assert "captured 0   to move" in environment.render()


def test_reset_takes_a_start():
    environment = env("ba-awa")
    text = "0,0,0,0,0,4/0,0,5,0,0,7 S 16-16 opener=S"
    environment.reset(options={"start": text})
    assert environment.unwrapped.position == ms.get_game("ba-awa").parse(text)
    observation, *_ = environment.last()
    assert np.flatnonzero(observation["action_mask"]).tolist() == [5]


def test_what_it_does_not_take_is_refused():
    with pytest.raises(OptionError, match="render_mode"):
        env("bakuk", render_mode="human")
    with pytest.raises(OptionError, match="chain"):
        env("bakuk", chain="sideways")
    with pytest.raises(OptionError, match="unknown parameter"):
        env("bakuk", colour="red")
    with pytest.raises(ms.UnknownGameError):
        env("oware")
    environment = env("bakuk")
    environment.reset()
    with pytest.raises(IllegalMoveError):
        environment.step(4)          # North's pit, South to move
    assert environment.unwrapped.position == ms.get_game("bakuk").start()   # nothing played


def test_options_given_win_over_the_ruleset():
    environment = env("bakuk", ruleset="mancalagames", chain="forward")
    assert environment.unwrapped.position.game == ms.get_game(
        "bakuk", ruleset="mancalagames", chain="forward")


def test_without_pettingzoo_the_module_says_which_extra_to_install():
    import subprocess
    import sys

    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "import mancala_spec.interop.pettingzoo\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last == ("ImportError: mancala_spec.interop.pettingzoo needs pettingzoo: "
                    "pip install 'mancala-spec[pettingzoo]'")

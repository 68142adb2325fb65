"""Ba-awa and Bakuk as OpenSpiel games (extra ``openspiel``).

Importing this module registers ``mancala_spec_ba_awa`` and ``mancala_spec_bakuk``
(:data:`SHORT_NAMES`) with OpenSpiel. Every option of the game is a parameter with
its name and values, and so are ``ruleset``, ``returns`` and ``max_moves``
(:mod:`mancala_spec.interop.adapter`)::

    import pyspiel
    import mancala_spec.interop.openspiel   # registers the games
    game = pyspiel.load_game("mancala_spec_bakuk(chain=backward)")
    game = pyspiel.load_game("mancala_spec_ba_awa(ruleset=everyboard,returns=win-loss)")

An action is a pit's index (``a`` is 0, then in sowing order; its string is the
pit's name). A state plays the reference engine: ``state.position`` is its
:class:`~mancala_spec.engine.position.Position`. The game is sequential,
deterministic, of perfect information and zero-sum, with two or three players
(``players=3``); returns come at the end. The observation (string: the board as
South sees it; tensor: :func:`~mancala_spec.interop.adapter.features`) is the
position; the information state (perfect recall) adds the moves played (string:
``moves: c A ...``; tensor: one row a move, a one at the pit played).

:class:`PerfectBot` plays the moves of greatest exact value
(:class:`~mancala_spec.interop.values.Evaluator`).

Written against OpenSpiel's Python game API as its own Python games use it
(``open_spiel/python/games/tic_tac_toe.py`` and ``iterated_prisoners_dilemma.py`` in
google-deepmind/open_spiel, commit 112b77704631fc2ce7ad8e4581f6ca09798ce15a; Apache-2.0),
compared, not copied; the version checked is the ``open-spiel`` the locks pin.
"""
from __future__ import annotations

import random
from typing import Any

from . import missing
from .adapter import Adapted, adapted, feature_shapes, features, moves_text, parameter_spec

try:
    import numpy as np
    import pyspiel
except ImportError as error:         # the optional extra "openspiel"
    raise ImportError(missing("openspiel", "open-spiel", "mancala_spec.interop.openspiel")) \
        from error

from ..engine.games import GAMES
from .values import Evaluator

#: each game's name in OpenSpiel
SHORT_NAMES = {name: "mancala_spec_" + name.replace("-", "_") for name in GAMES}


def game_type(name: str) -> Any:
    """The ``pyspiel.GameType`` of game *name*."""
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=f"{GAMES[name].title} (mancala_spec)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(o.choices[-1] for o in GAMES[name].OPTIONS if o.name == "players"),
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_spec(name))


class MancalaGame(pyspiel.Game):
    """One of the games, with its parameters (OpenSpiel gives every one)."""

    name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.adapt: Adapted = adapted(self.name, params or {}, filled=True)
        low, high = self.adapt.utility_range()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.adapt.pits, max_chance_outcomes=0,
            num_players=self.adapt.players, min_utility=low, max_utility=high,
            utility_sum=0.0, max_game_length=self.adapt.max_moves)
        super().__init__(game_type(self.name), info, self.adapt.parameters())

    def new_initial_state(self) -> MancalaState:
        return MancalaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.adapt, recall)


class MancalaState(pyspiel.State):
    """A state: the engine's position and the moves that led to it."""

    def __init__(self, game: MancalaGame) -> None:
        super().__init__(game)
        self.adapt = game.adapt
        self.position = self.adapt.game.start()
        self.moves: list[int] = []

    def current_player(self) -> int:
        return int(pyspiel.PlayerId.TERMINAL) if self.is_terminal() else self.position.to_move

    def is_terminal(self) -> bool:
        return self.position.is_over or len(self.moves) >= self.adapt.max_moves

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.position.to_move:
            return []
        return self.position.legal_moves()

    def _apply_action(self, action: int) -> None:
        self.position = self.position.play(int(action))
        self.moves.append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.adapt.game.board.name(int(action))

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.adapt.players
        return self.adapt.returns_of(self.position)

    def __str__(self) -> str:
        return self.position.to_text()


class Observer:
    """What a player observes (OpenSpiel's Python observer): the position, or with
    *recall* (the information state) the position and the moves played."""

    def __init__(self, adapt: Adapted, recall: bool) -> None:
        self.adapt = adapt
        self.recall = recall
        shapes = feature_shapes(adapt)
        if recall:
            shapes["moves"] = (adapt.max_moves, adapt.pits)
        self.tensor = np.zeros(sum(int(np.prod(shape)) for shape in shapes.values()),
                               np.float32)
        self.dict: dict[str, Any] = {}
        offset = 0
        for part, shape in shapes.items():
            size = int(np.prod(shape))
            self.dict[part] = self.tensor[offset:offset + size].reshape(shape)
            offset += size

    def set_from(self, state: MancalaState, player: int) -> None:
        flat = features(self.adapt, state.position, player)
        self.tensor.fill(0)
        self.tensor[:len(flat)] = flat
        if self.recall:
            moves = self.dict["moves"]
            for number, pit in enumerate(state.moves):
                moves[number, pit] = 1

    def string_from(self, state: MancalaState, player: int) -> str:
        if self.recall:
            return moves_text(self.adapt, state.moves)
        return str(state.position)


class PerfectBot(pyspiel.Bot):
    """An OpenSpiel bot that plays a move of greatest exact value
    (:meth:`Evaluator.best_moves <mancala_spec.interop.values.Evaluator.best_moves>`),
    drawn at random among equals with *seed* (the lowest pit without one)."""

    def __init__(self, evaluator: Evaluator, seed: int | None = None) -> None:
        super().__init__()
        self.evaluator = evaluator
        self.rng = None if seed is None else random.Random(seed)

    def restart_at(self, state: MancalaState) -> None:
        pass

    def inform_action(self, state: MancalaState, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False

    def step(self, state: MancalaState) -> int:
        best = self.evaluator.best_moves(state)
        return best[0] if self.rng is None else self.rng.choice(best)


def _register() -> dict[str, type[MancalaGame]]:
    classes = {}
    for name in GAMES:
        cls = type(f"{GAMES[name].__name__}Game", (MancalaGame,), {"name": name,
                                                                   "__module__": __name__})
        pyspiel.register_game(game_type(name), cls)
        classes[name] = cls
    return classes


#: the registered game classes, by our game name
GAME_CLASSES = _register()

__all__ = ["GAME_CLASSES", "MancalaGame", "MancalaState", "Observer", "PerfectBot",
           "SHORT_NAMES", "game_type"]

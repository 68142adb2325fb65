"""Ba-awa and Bakuk as PettingZoo environments (extra ``pettingzoo``).

``env(game="ba-awa", **parameters)`` is an AEC environment (agents ``player_0``
(South), ``player_1`` (North, or East with three players), ``player_2``), with
PettingZoo's order-enforcing and bounds-checking wrappers around
:class:`MancalaEnv`. Its parameters are the game's options with their names and
values, ``ruleset``, ``returns`` and ``max_moves``
(:mod:`mancala_spec.interop.adapter`); an option given here wins over the
ruleset's value::

    from mancala_spec.interop.pettingzoo import env
    play = env(game="bakuk", chain="backward", render_mode="ansi")
    play.reset(seed=0)

An action is a pit's index (``a`` is 0, then in sowing order). An observation is a
dictionary: ``observation``, the position's
:func:`~mancala_spec.interop.adapter.features` (float32), and ``action_mask``, a one
for each legal move of the agent to move (int8). Rewards come when the game ends:
each agent's return. A game stopped at ``max_moves`` is truncated (PettingZoo's
``truncations``), scored as the adapter says. ``render_mode="ansi"``: ``render()``
returns the board as text. ``reset(options={"start": text})`` starts from a
position in the notation of :meth:`Game.parse
<mancala_spec.engine.games.base.Game.parse>`. ``env.unwrapped.position`` is the
engine's :class:`~mancala_spec.engine.position.Position`.

``parallel_env(...)`` is the same game as a ParallelEnv, through PettingZoo's own
``turn_based_aec_to_parallel`` (every agent gives an action, the one to move
counts). PettingZoo has no Gymnasium form of a turn-based game of several agents,
so none is made here.
"""
from __future__ import annotations

from typing import Any

from . import missing
from .adapter import adapted, feature_shapes, features

try:
    import numpy as np
    from gymnasium import logger, spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
except ImportError as error:         # the optional extra "pettingzoo"
    raise ImportError(missing("pettingzoo", "pettingzoo", "mancala_spec.interop.pettingzoo")) \
        from error

from ..errors import OptionError, shown

RENDER_MODES = ("ansi",)


class MancalaEnv(AECEnv):
    """The AEC environment of *game* with *parameters* (see the module)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "mancala_spec_v0",
                "is_parallelizable": False}

    def __init__(self, game: str = "ba-awa", render_mode: str | None = None,
                 **parameters: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OptionError(f"render_mode must be None or 'ansi', not {shown(render_mode)}",
                              option="render_mode", value=render_mode,
                              choices=(None, *RENDER_MODES))
        self.adapt = adapted(game, parameters)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{player}" for player in range(self.adapt.players)]
        size = sum(int(np.prod(shape)) for shape in feature_shapes(self.adapt).values())
        high = float(self.adapt.game.total_seeds)
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0.0, high, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.adapt.pits,), np.int8)})
            for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.adapt.pits)
                              for agent in self.possible_agents}
        self.position = self.adapt.game.start()
        self.moves: list[int] = []

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        start = (options or {}).get("start")
        self.position = (self.adapt.game.start() if start is None
                         else self.adapt.game.parse(start))
        self.moves = []
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, self.position.is_over)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.position.to_move]

    def observe(self, agent: str) -> dict[str, Any]:
        player = self.possible_agents.index(agent)
        mask = np.zeros(self.adapt.pits, np.int8)
        if player == self.position.to_move and not self._ended():
            mask[self.position.legal_moves()] = 1
        return {"observation": np.array(features(self.adapt, self.position, player),
                                        np.float32),
                "action_mask": mask}

    def _ended(self) -> bool:
        return self.position.is_over or len(self.moves) >= self.adapt.max_moves

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.position = self.position.play(int(action))
        self.moves.append(int(action))
        self._clear_rewards()
        if self._ended():
            returns = self.adapt.returns_of(self.position)
            self.rewards = {name: returns[player] for player, name in enumerate(self.agents)}
            ended = dict.fromkeys(self.agents, True)
            if self.position.is_over:
                self.terminations = ended
            else:
                self.truncations = ended
        self._accumulate_rewards()
        self.agent_selection = self.agents[self.position.to_move]

    def render(self) -> str | None:
        if self.render_mode is None:
            logger.warn("render() was called without a render_mode (the one mode: 'ansi')")
            return None
        return str(self.position)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return f"mancala_spec {self.adapt.game!r}"


def env(game: str = "ba-awa", render_mode: str | None = None, **parameters: Any) -> Any:
    """The AEC environment of *game* (wrapped as PettingZoo's own environments are)."""
    wrapped: Any = MancalaEnv(game, render_mode=render_mode, **parameters)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(game: str = "ba-awa", render_mode: str | None = None,
                 **parameters: Any) -> Any:
    """The same game as a ParallelEnv (PettingZoo's ``turn_based_aec_to_parallel``)."""
    return turn_based_aec_to_parallel(env(game, render_mode=render_mode, **parameters))


__all__ = ["MancalaEnv", "RENDER_MODES", "env", "parallel_env"]

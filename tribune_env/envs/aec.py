"""Tribune as a PettingZoo AEC environment (agents ``player_0`` ... ``player_{n-1}``).

Each observation is ``{"observation": float32 vector, "action_mask": int8 vector}``, exactly
the keys of PettingZoo's classic games, so code written for them (tutorials that unpack
``obs.values()``, tools that iterate the Dict) works unchanged; RLlib's key names are
:class:`~tribune_env.envs.multi_agent.TribuneMultiAgentEnv`'s.
The mask is also in ``infos[agent]["action_mask"]`` and from ``action_mask(agent)``. Turns
follow the game, not a fixed rotation: ``agent_selection`` is whoever must decide now.
Every agent receives its final reward (see :mod:`tribune_env.envs.rewards`); a game that
reaches the round limit ends in ``truncations`` with the ``score`` rewards.

``action_space(agent).sample()`` without a mask draws a random legal action when that
agent is to act (:class:`~tribune_env.envs.single.LegalDiscrete`), so generic tools that
step unmasked samples, RLlib's ``PettingZooEnv`` validation among them, play real games.
Any other illegal action raises :class:`~tribune_env.errors.IllegalActionError` and changes
nothing; with ``illegal_action="lose"`` it ends the game instead, as in PettingZoo's classic
games: -1 for the agent that played it, 0 for the others, ``infos[agent]["illegal_action"]``.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ..data import MAX_PLAYERS
from ..engine import Game
from ..errors import IllegalActionError
from ..game_config import GameConfig
from .observation_space import observation_space
from .rewards import check_scheme, final_rewards, forfeit_rewards
from .settings import (
    RENDER_MODES,
    check_illegal_action,
    check_render_mode,
    check_text_view,
    rendered,
    text_info,
    text_seats,
)
from .single import LegalDiscrete, SampledAction

OBSERVATION, ACTION_MASK = "observation", "action_mask"


def env(**config):
    """The AEC environment wrapped in PettingZoo's call-order checks.

    PettingZoo's action-bounds wrapper is left out: the environment itself rejects any
    action that is not legal now, out of bounds or not, with an IllegalActionError.
    """
    return _OrderEnforcing(raw_env(**config))


class _OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper, with ``last`` and ``step`` reaching the environment directly.

    The inherited methods read their attributes through the wrapper's ``__getattr__``,
    which together cost more than a decision of the engine. The checks are the same.
    """

    def last(self, observe: bool = True):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self.env.step(action)


class raw_env(AECEnv):
    """Unwrapped AEC environment.

    Parameters: the game, as ``config`` (a :class:`~tribune_env.GameConfig`) or as its settings
    by name; ``reward`` (``win``, ``rank`` or ``score``), ``render_mode`` (``ansi``, ``human``,
    ``rgb_array``), ``illegal_action`` (``raise`` or ``lose``) and ``text_view``: with it, the
    acting agent's info also holds its view in words, ``prompt`` and ``view``
    (:mod:`tribune_env.text_seat`, docs/text-seat.md).
    """

    metadata = {"render_modes": RENDER_MODES, "name": "tribune_v0", "is_parallelizable": False}

    def __init__(
        self,
        *,
        reward: str = "win",
        render_mode: str | None = None,
        illegal_action: str = "raise",
        text_view: bool = False,
        config: GameConfig | None = None,
        **settings,
    ):
        super().__init__()
        self.illegal_action = check_illegal_action(illegal_action)
        self.text_view = check_text_view(text_view)
        self._forfeited = False
        self.render_mode = check_render_mode(render_mode, self.metadata)
        self.reward_scheme = check_scheme(reward)
        self.config = GameConfig.of(config, **settings)
        self.possible_agents = [f"player_{i}" for i in range(self.config.num_players)]
        layout, actions = self.config.obs_layout, self.config.actions.size
        obs_space = spaces.Dict(
            {OBSERVATION: observation_space(layout), ACTION_MASK: spaces.Box(0, 1, (actions,), np.int8)}
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: LegalDiscrete(actions, partial(self._legal, a)) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, np.inf, (MAX_PLAYERS * layout.size,), np.float32)
        self._no_actions = np.zeros(actions, dtype=np.int8)
        self._no_actions.flags.writeable = False  # shared by every agent not to act
        self._seeds = np.random.default_rng()
        self._game = None  # dealt by reset()

    @property
    def game(self) -> Game:
        """The game in play, which ``reset()`` deals: before it, ResetNeeded says so."""
        if self._game is None:
            raise ResetNeeded("call reset() first: the environment deals its game there")
        return self._game

    def _legal(self, agent: str) -> np.ndarray:
        """The legal actions of `agent` now, for its action space's samples."""
        to_act = getattr(self, "agent_selection", None) == agent and not self._over  # None before reset
        return self.game.legal_mask() if to_act else self._no_actions

    @property
    def _over(self) -> bool:
        return self.game.is_over or self._forfeited

    def __setstate__(self, state):
        self.__dict__.update(state)
        for agent, space in self.action_spaces.items():  # a copy samples its own game's legal moves
            space.bind(partial(self._legal, agent))

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """A new game: from `seed` if given, else from the environment's own seeded sequence."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self._game = Game.from_config(self.config, seed=int(self._seeds.integers(2**63)), log=self.text_view)
        self._forfeited = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"action_mask": self._no_actions} for a in self.agents}
        self._text = text_seats(self.text_view, range(self.game.n))
        self._update_selection(None)

    def _seat(self, agent) -> int:
        return self.possible_agents.index(agent)

    def action_mask(self, agent) -> np.ndarray:
        """The legal actions of `agent` now (a shared read-only zero mask unless it is to act).

        The acting agent's mask is copied once per step and shared by its observation and info.
        """
        if agent != self.agent_selection or self._over:
            return self._no_actions
        return self._mask

    def observe(self, agent):
        return {OBSERVATION: self.game.observe(self._seat(agent)), ACTION_MASK: self.action_mask(agent)}

    def state(self) -> np.ndarray:
        """Every seat's observation, seat 0 first, padded to 5 seats: for centralised critics."""
        out = np.zeros(self.state_space.shape, dtype=np.float32)
        size = self.game.obs_layout.size
        for p in range(self.game.n):
            self.game.observe(p, out[p * size : (p + 1) * size])
        return out

    def step(self, action):
        if not self.agents:
            raise IllegalActionError("the game is over and every agent has left it: call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, SampledAction):
            action = action.resolve(self.game.legal_mask())
        try:
            self.game.step(action)  # an illegal action raises, changing nothing
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._forfeit(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        self._update_selection(agent)
        if self.game.is_over:  # rewards are all zero until the end
            rewards = final_rewards(self.game, self.reward_scheme)
            ended = self.truncations if self.game.truncated else self.terminations
            for a in self.agents:
                self.rewards[a] = float(rewards[self._seat(a)])
                ended[a] = True
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _forfeit(self, agent) -> None:
        """End the game for an illegal action of `agent` under ``illegal_action="lose"``."""
        self._forfeited = True
        self._cumulative_rewards[agent] = 0.0
        rewards = forfeit_rewards(self.game.n, self._seat(agent))
        for a in self.agents:
            self.rewards[a] = float(rewards[self._seat(a)])
            self.terminations[a] = True
            self.infos[a] = {"action_mask": self._no_actions}
        self.infos[agent]["illegal_action"] = True
        self._accumulate_rewards()

    def _update_selection(self, previous):
        """Select the agent to act and refresh the masks in the infos of `previous` and it."""
        player = self.game.current_player
        if previous is not None:
            self.infos[previous] = {"action_mask": self._no_actions}
        if player is None:
            return
        self.agent_selection = self.possible_agents[player]
        self._mask = self.game.legal_mask().copy()
        self.infos[self.agent_selection] = {"action_mask": self._mask, **text_info(self._text, self.game, player)}

    def render(self):
        if self.render_mode is None:
            return None
        return rendered(self.game.render(), self.render_mode)

    def close(self):
        pass

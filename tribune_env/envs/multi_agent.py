"""Tribune as an RLlib ``MultiAgentEnv`` (RLlib's current API stack), for 2 to 5 players.

Turn-based: each step takes the action of the one agent to act and returns an observation
for the next one only. An observation is a dict under the keys RLlib's action-masking
modules expect: ``observations`` (the seat's float32 vector, docs/observation.md) and
``action_mask`` (1.0 for each legal action). When the game ends every agent receives its
own final observation and final reward (:mod:`tribune_env.envs.rewards`), whoever moved
last; a game cut at the round limit ends ``truncated``, not ``terminated``.

Actions sampled without the mask: ``action_space.sample()`` (what generic tools call,
RLlib's environment validation among them) draws a random *legal* action of the decision
waiting, as in :class:`~tribune_env.envs.single.LegalDiscrete`, so such tools play real
games. Any other illegal action raises :class:`~tribune_env.errors.IllegalActionError`
naming it, and the game is left as it was; with ``illegal_action="lose"`` it ends the game
instead: -1 for the agent that played it, 0 for the others, its info holding
``illegal_action``. Importing this module imports Ray.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from gymnasium import spaces

from ..errors import IllegalActionError, install_hint

try:
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as error:
    raise ImportError(f"{error}; TribuneMultiAgentEnv needs Ray's RLlib, {install_hint('ray')}") from None

from ..engine import Game
from ..game_config import GameConfig
from .observation_space import observation_space
from .rewards import check_scheme, final_rewards, forfeit_rewards
from .settings import check_illegal_action
from .single import LegalDiscrete, SampledAction

OBSERVATIONS, ACTION_MASK = "observations", "action_mask"


def agent_id(seat: int) -> str:
    return f"player_{seat}"


def seat_of(agent: str) -> int:
    """The seat of an agent id ``player_<seat>``."""
    return int(agent.rsplit("_", 1)[1])


class TribuneMultiAgentEnv(MultiAgentEnv):
    """One game per episode; ``config`` (RLlib's ``env_config``) may hold ``reward`` (``win``),
    ``illegal_action`` (``raise``) and the game: under ``config`` a
    :class:`~tribune_env.GameConfig`, or its settings by name (``num_players`` 2 unless given),
    as the other adapters take them.

    ``reset(seed=...)`` seeds the environment's generator, from which every game's deal is
    drawn: the same seed gives the same games for the same actions. ``game_seed`` is the
    current game's own seed (agents playing in it are seeded from it, as in a tournament);
    it is no agent's observation.
    """

    def __init__(self, config: dict | None = None):
        super().__init__()
        settings = dict(config or {})
        self.reward_scheme = check_scheme(settings.pop("reward", "win"))
        self.illegal_action = check_illegal_action(settings.pop("illegal_action", "raise"))
        if settings.get("config") is None:  # no GameConfig given: 2 players unless said
            settings.setdefault("num_players", 2)
        self.config = GameConfig.of(**settings)
        self._forfeited = False
        self.game, self.game_seed = None, 0
        n, actions = self.config.num_players, self.config.actions.size
        self.agents = self.possible_agents = [agent_id(seat) for seat in range(n)]
        with_mask = spaces.Dict(
            {
                OBSERVATIONS: observation_space(self.config.obs_layout),
                ACTION_MASK: spaces.Box(0.0, 1.0, (actions,), np.float32),
            }
        )
        self.observation_spaces = {a: with_mask for a in self.agents}
        self.action_spaces = {a: LegalDiscrete(actions, partial(self._legal, seat_of(a))) for a in self.agents}
        self._rng = np.random.default_rng()

    def __setstate__(self, state):
        self.__dict__.update(state)
        for agent, space in self.action_spaces.items():  # a copy samples its own game's legal moves
            space.bind(partial(self._legal, seat_of(agent)))

    def _legal(self, seat: int) -> np.ndarray:
        """The legal actions of `seat`: the game's mask while it is to act (all zero once the game
        is over), none otherwise (nor before the first game)."""
        game = self.game
        to_act = game is not None and game.current_player == seat and not self._forfeited
        return game.legal_mask() if to_act else np.zeros(self.config.actions.size, np.int8)

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            for number, space in enumerate(self.action_spaces.values()):
                space.seed(int(np.random.SeedSequence([seed, number]).generate_state(1)[0]))
        self.game_seed = int(self._rng.integers(2**63))
        self.game = Game.from_config(self.config, seed=self.game_seed, log=False)
        self._forfeited = False
        acting = agent_id(self.game.current_player)
        return {acting: self._observe(self.game.current_player)}, {acting: {}}

    def step(self, action_dict: dict):
        game = self.game
        if game.is_over or self._forfeited:
            raise IllegalActionError("the game is over: call reset() before step()")
        acting = agent_id(game.current_player)
        if set(action_dict) != {acting}:
            raise IllegalActionError(
                f"it is {acting}'s turn alone: step() takes {{{acting!r}: action}}, got actions for {sorted(action_dict)}"
            )
        action = action_dict[acting]
        if isinstance(action, SampledAction):
            action = action.resolve(game.legal_mask())
        try:
            game.step(action)  # an illegal action raises, changing nothing
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            return self._forfeit(acting)
        if not game.is_over:
            following = agent_id(game.current_player)
            done = {"__all__": False}
            return {following: self._observe(game.current_player)}, {acting: 0.0}, done, done, {}
        rewards = final_rewards(game, self.reward_scheme)
        ending = {"winners": game.winners(), "scores": [int(s) for s in game.scores()]}
        observations = {a: self._observe(seat) for seat, a in enumerate(self.agents)}
        terminated = {a: game.terminated for a in self.agents} | {"__all__": game.terminated}
        truncated = {a: game.truncated for a in self.agents} | {"__all__": game.truncated}
        rewarded = {a: float(rewards[seat]) for seat, a in enumerate(self.agents)}
        return observations, rewarded, terminated, truncated, {a: dict(ending) for a in self.agents}

    def _forfeit(self, acting: str):
        """End the game for an illegal action of `acting` under ``illegal_action="lose"``."""
        self._forfeited = True
        rewards = forfeit_rewards(self.game.n, seat_of(acting))
        observations = {a: self._observe(seat) for seat, a in enumerate(self.agents)}
        terminated = {a: True for a in self.agents} | {"__all__": True}
        truncated = {a: False for a in self.agents} | {"__all__": False}
        rewarded = {a: float(rewards[seat]) for seat, a in enumerate(self.agents)}
        return observations, rewarded, terminated, truncated, {acting: {"illegal_action": True}}

    def _observe(self, seat: int) -> dict:
        return {
            OBSERVATIONS: self.game.observe(seat),
            ACTION_MASK: self._legal(seat).astype(np.float32),
        }

    def render(self):
        """The table in full (an RLlib environment is watched by its user, not by a seat)."""
        return self.game.render()

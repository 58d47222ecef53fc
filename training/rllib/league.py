"""The league of RLlib self-play: who sits where in each game, and how baseline agents play.

Module ids: ``main`` is the policy that learns; it plays every learning seat.
``baseline_<k>`` is the k-th baseline agent of the config's pool (``random``, ``heuristic``
or any agent spec), a :class:`~agents.rllib_modules.BaselineModule` that never trains.
``snapshot_<steps>`` is a frozen copy of ``main`` taken at that many steps.

Each game seats ``main`` in one seat drawn at random and fills every other seat with a
member drawn by weight (baselines, snapshots). The draws come from a generator seeded by
the episode id, so that every seat of one game is mapped from the same draw.

Baseline agents decide in the env runner, where their games are: the connector
:class:`BaselineMoves` asks the agent of each baseline seat about to act for its move,
from that seat's observation and view (never more than the seat knows), and narrows the
seat's action mask to that move, which the baseline module then plays.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
from ray.rllib.connectors.connector_v2 import ConnectorV2

from agents import make_agent
from tribune_env import PlayerView
from tribune_env.envs.multi_agent import ACTION_MASK, seat_of

from ..arena.games import derive_seed

MAIN = "main"


def baseline_id(number: int) -> str:
    return f"baseline_{number}"


def snapshot_id(steps: int) -> str:
    return f"snapshot_{steps}"


@dataclass(frozen=True)
class League:
    """The agent-to-module mapping of every game: ``main`` in one seat, members drawn by weight elsewhere."""

    players: int
    members: tuple  # (module id, weight) of the opponents

    def lineup(self, key: str) -> list[str]:
        """The module of each seat in the game whose episode id is `key`."""
        rng = np.random.default_rng(int(hashlib.sha256(key.encode()).hexdigest()[:16], 16))
        learner = int(rng.integers(self.players))
        ids = [module for module, _ in self.members]
        weights = np.array([weight for _, weight in self.members], dtype=np.float64)
        drawn = rng.choice(len(ids), size=self.players, p=weights / weights.sum())
        return [MAIN if seat == learner else ids[k] for seat, k in enumerate(drawn)]

    def __call__(self, agent_id, episode, **kwargs) -> str:
        return self.lineup(episode.id_)[seat_of(agent_id)]


class BaselineMoves(ConnectorV2):
    """Env-to-module connector: the move of every baseline seat about to act, as its narrowed mask.

    `specs` maps baseline module ids to agent specs. Each sub-environment's seats have their
    own agents, reset at every new game from the game's seed and the seat, as in a tournament.
    """

    def __init__(self, input_observation_space=None, input_action_space=None, *, env=None, specs=None, **kwargs):
        super().__init__(input_observation_space, input_action_space, **kwargs)
        self.env, self.specs = env, dict(specs or {})
        self._agents: dict = {}  # (sub-environment, module, seat) -> (agent, game seed it was reset for)

    def __call__(self, *, rl_module, batch, episodes, explore=None, shared_data=None, **kwargs):
        if self.env is None or not self.specs:
            return batch
        games = [env.unwrapped for env in self.env.envs]
        if len(episodes) != len(games):  # the pass over finished episodes: no one is about to act
            return batch
        for index, episode in enumerate(episodes):
            if episode.is_done:
                continue
            tribune = games[index]
            for agent_id in episode.get_agents_to_act():
                module = episode.module_for(agent_id)
                if module in self.specs:
                    self._play(index, module, agent_id, episode, tribune)
        return batch

    def _play(self, index: int, module: str, agent_id: str, episode, tribune) -> None:
        seat, game = seat_of(agent_id), tribune.game
        key = (index, module, seat)
        agent, seed = self._agents.get(key, (None, None))
        if agent is None:
            agent = make_agent(self.specs[module])
        if seed != tribune.game_seed:
            agent.reset(seed=derive_seed(tribune.game_seed, seat))
        self._agents[key] = (agent, tribune.game_seed)
        move = int(agent.act(game.observe(seat), game.legal_mask(), PlayerView(game, seat)))
        observation = episode.get_observations(-1)[agent_id]
        chosen = np.zeros_like(observation[ACTION_MASK])
        chosen[move] = 1.0
        episode.set_observations(new_data={agent_id: {**observation, ACTION_MASK: chosen}}, at_indices=-1)


def baseline_moves(env=None, spaces=None, device=None, *, specs):
    """The ``env_to_module_connector`` of the config: a :class:`BaselineMoves` for the runner's env."""
    return [BaselineMoves(env=env, specs=specs)]

"""The PettingZoo AEC environment: masks, rewards and endings for 2-5 players (its conformance
tests, for every player count and victory card, are in test_conformance.py)."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import render_test
from pettingzoo.utils import BaseWrapper

import tribune_env.envs
from tribune_env import ConfigError, IllegalActionError
from tribune_env.envs.rewards import final_rewards


def test_pettingzoo_render_test():
    render_test(lambda render_mode=None: tribune_env.envs.env(num_players=3, render_mode=render_mode))
    e = tribune_env.envs.env(num_players=2, render_mode="ansi")
    e.reset(seed=1)
    assert "player_0" in e.render() and "To act:" in e.render()


def play_random(e, seed):
    """Random legal play to the end; return each agent's reward as last() reports it when done."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert np.array_equal(obs["action_mask"], e.unwrapped.action_mask(agent))
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        e.step(int(rng.choice(legal)))
    return final


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_agent_receives_its_win_reward(n):
    e = tribune_env.envs.env(num_players=n)
    final = play_random(e, seed=n)
    game = e.unwrapped.game
    assert sorted(final) == sorted(e.possible_agents)  # losers included
    assert game.terminated
    (winner,) = game.winners()
    expected = {f"player_{p}": 1.0 if p == winner else -1.0 / (n - 1) for p in range(n)}
    assert final == pytest.approx(expected)


def test_round_limit_truncates_with_score_rewards():
    e = tribune_env.envs.env(num_players=4, round_limit=2, reward="win")
    final = play_random(e, seed=3)
    game = e.unwrapped.game
    assert game.truncated and all(e.unwrapped.truncations.values())
    assert not any(e.unwrapped.terminations.values())
    points = game.scores().astype(float)
    spread = max(1.0, points.max() - points.min())
    assert final == pytest.approx({f"player_{p}": (points[p] - points.mean()) / spread for p in range(4)})


def test_rank_and_score_schemes_on_known_outcomes():
    g = tribune_env.Game(4, seed=0, log=False)
    rng = np.random.default_rng(0)
    while not g.is_over:
        g.step(int(rng.choice(g.legal_actions())))
    assert g.terminated
    points = g.scores()
    (winner,) = g.winners()
    rank = final_rewards(g, "rank")
    assert rank[winner] == 1.0 and rank.sum() == pytest.approx(0.0)
    others = [p for p in range(4) if p != winner]
    assert [rank[p] for p in sorted(others, key=lambda p: -points[p])] == sorted(rank[others], reverse=True)
    score = final_rewards(g, "score")
    assert score.sum() == pytest.approx(0.0)
    assert np.argmax(score) == np.argmax(points)
    assert set(np.round(np.diff(np.sort(rank)), 6)) <= {0.0, round(2 / 3, 6)}


def test_observation_and_state_follow_the_engine():
    e = tribune_env.envs.raw_env(num_players=3)
    e.reset(seed=7)
    agent = e.agent_selection
    seat = e.possible_agents.index(agent)
    assert np.array_equal(e.observe(agent)["observation"], e.game.observe(seat))
    other = next(a for a in e.possible_agents if a != agent)
    assert not e.action_mask(other).any()  # only the agent to act has actions
    state = e.state()
    size = e.game.obs_layout.size
    assert state.shape == (5 * size,)
    for p in range(3):
        assert np.array_equal(state[p * size : (p + 1) * size], e.game.observe(p))
    assert not state[3 * size :].any()


@pytest.mark.parametrize(
    "config, words",
    [
        ({"num_players": 6}, "num_players"),
        ({"reward": "money"}, "reward"),
        ({"render_mode": "rgb"}, "render_mode"),
        ({"victory_card": "veni"}, "victory card"),
        ({"round_limit": 0}, "round_limit"),
    ],
)
def test_bad_configuration_raises(config, words):
    with pytest.raises(ConfigError, match=words):
        tribune_env.envs.env(**config)


def test_illegal_action_raises_and_changes_nothing():
    e = tribune_env.envs.raw_env(num_players=2)
    e.reset(seed=1)
    illegal = int(np.flatnonzero(e.action_mask(e.agent_selection) == 0)[0])
    before = e.game.to_dict()
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert e.game.to_dict() == before


def test_stepping_after_every_agent_has_left_is_a_clear_error():
    env = tribune_env.envs.raw_env(num_players=2)
    env.reset(seed=0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
    with pytest.raises(IllegalActionError, match="every agent has left"):
        env.step(0)


def test_observations_hold_exactly_pettingzoos_keys():
    """As PettingZoo's classic games: code that unpacks or iterates the Dict sees each value once."""
    e = tribune_env.envs.env(num_players=3)
    e.reset(seed=0)
    space = e.observation_space(e.agent_selection)
    assert list(e.last()[0]) == ["observation", "action_mask"]  # in that order, as the tutorial unpacks them
    assert sorted(space) == ["action_mask", "observation"]  # Gymnasium sorts a Dict space's keys
    assert space.contains(e.last()[0])


def test_pettingzoos_registry_makes_the_environment():
    import pettingzoo

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the registry is PettingZoo's undeprecated way
        e = pettingzoo.make("aec", "Tribune-v0", num_players=3, reward="rank")
    e.reset(seed=2)
    assert e.possible_agents == ["player_0", "player_1", "player_2"] and e.unwrapped.reward_scheme == "rank"


class SB3ActionMaskWrapper(BaseWrapper, gym.Env):
    """The Gymnasium-like wrapper of PettingZoo's SB3 action-masking tutorial: one model for
    every seat, the observation without its mask, the mask through ``action_mask()``."""

    def reset(self, seed=None, options=None):
        super().reset(seed, options)
        self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        return self.observe(self.agent_selection), {}

    def step(self, action):
        acting = self.agent_selection
        super().step(action)
        ended = (self.terminations[acting], self.truncations[acting])
        return self.observe(self.agent_selection), self._cumulative_rewards[acting], *ended, self.infos[acting]

    def observe(self, agent):
        return super().observe(agent)["observation"]

    def action_mask(self):
        return super().observe(self.agent_selection)["action_mask"]


def test_pettingzoos_sb3_action_masking_tutorial_runs(tmp_path):
    """Its training, then its evaluation loop as written, which unpacks ``obs.values()``
    (a trained player_1 against random moves of player_0)."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from sb3_contrib.common.wrappers import ActionMasker

    from tribune_env.envs import tribune_v0

    env = SB3ActionMaskWrapper(tribune_v0.env(num_players=2))
    env.reset(seed=0)
    model = MaskablePPO(MaskableActorCriticPolicy, ActionMasker(env, lambda env: env.action_mask()), n_steps=64)
    model.learn(total_timesteps=64)
    model.save(tmp_path / "tribune")
    model = MaskablePPO.load(tmp_path / "tribune")

    env = tribune_v0.env(num_players=2)
    env.reset(seed=1)
    env.action_space(env.possible_agents[0]).seed(1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        observation, action_mask = obs.values()
        if termination or truncation:
            break
        if agent == env.possible_agents[0]:
            act = env.action_space(agent).sample(action_mask)
        else:
            act = int(model.predict(observation, action_masks=action_mask, deterministic=True)[0])
        env.step(act)
    assert env.unwrapped.game.is_over and sorted(env.rewards.values()) == [-1.0, 1.0]


def test_before_reset_the_environment_says_reset_deals_its_game():
    env = tribune_env.envs.raw_env(num_players=2)
    for use in (lambda: env.game, env.state, lambda: env.observe("player_0")):
        with pytest.raises(gym.error.ResetNeeded, match="call reset"):
            use()
    env.reset(seed=3)
    assert env.game.n == 2 and env.state().shape == env.state_space.shape

"""SingleAgentEnv (Tribune-v0): one learner against opponent policies, seen from the learner's side."""

import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

import tribune_env.envs
from tribune_env import ConfigError, IllegalActionError
from tribune_env.envs import SingleAgentEnv
from tribune_env.envs.rewards import final_rewards

ROOT = Path(__file__).resolve().parents[1]


class Recorder:
    """A random opponent that records the seat and legality of every call."""

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)
        self.seats, self.resets = [], 0

    def reset(self):
        self.resets += 1

    def act(self, observation, action_mask, view):
        if len(self.seats) % 50 == 0:  # the view's search copy: same seat to act
            assert view.determinize().current_player == view.seat
        assert np.array_equal(observation, view._game.observe(view.seat))
        self.seats.append(view.seat)
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])


def play_game(env, rng, seed=None):
    """Random legal learner moves to the end; checks the learner is to act at every step."""
    obs, info = env.reset(seed=seed)
    steps, done = 0, False
    while not done:
        game = env.unwrapped.game
        assert game.current_player == env.unwrapped.learner
        assert np.array_equal(obs, game.observe(env.unwrapped.learner))
        assert np.array_equal(info["action_mask"], game.legal_mask())
        legal = np.flatnonzero(env.unwrapped.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        steps += 1
        done = terminated or truncated
        if not done:
            assert reward == 0.0
    return reward, terminated, truncated, info, steps


def test_gymnasium_check_env_through_make():
    # Gymnasium's checker steps with an action sampled *before* a reset: the sample is a random
    # legal move, which stays one in the new game (test_conformance.py covers every setting).
    env = gym.make("Tribune-v0", num_players=4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gym_check_env(env.unwrapped)
    messages = [str(w.message) for w in caught]
    # Only two advisories: counts have no upper bound, and text rendering has no frame rate.
    assert all("maximum value is infinity" in m or "render_fps" in m for m in messages), messages


def test_make_returns_the_registered_environment():
    env = gym.make("Tribune-v0", num_players=3, opponents="random")  # registered by importing tribune_env.envs
    assert isinstance(env.unwrapped, SingleAgentEnv)
    obs, info = env.reset(seed=4)
    assert obs.shape == env.observation_space.shape and env.observation_space.contains(obs)
    masks = env.action_masks()  # make returns the environment itself
    assert masks.dtype == bool and masks.any()


def test_make_imports_the_adapters_itself():
    """A fresh interpreter makes it by "module:id", without importing tribune_env first."""
    code = (
        "import gymnasium as gym\n"
        "env = gym.make('tribune_env.envs:Tribune-v0', num_players=2)\n"
        "print(type(env.unwrapped).__name__, env.reset(seed=0)[0].shape)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "SingleAgentEnv"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_learner_gets_its_final_reward_losses_included(n):
    opponent = Recorder(n)
    env = SingleAgentEnv(num_players=n, opponents=opponent, reward="win")
    rng = np.random.default_rng(n)
    wins = losses = ended_by_opponents = 0
    for g in range(12):
        obs, info = env.reset(seed=100 * n + g)
        done = False
        while not done:
            calls = len(opponent.seats)
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = terminated or truncated
        game, learner = env.game, env.learner
        assert (terminated, truncated) == (game.terminated, game.truncated)
        assert info["winners"] == game.winners() and np.array_equal(info["scores"], game.scores())
        if truncated:  # random play sometimes reaches the round limit
            assert reward == pytest.approx(final_rewards(game, "score")[learner])
            continue
        assert reward == pytest.approx(1.0 if learner in game.winners() else -1.0 / (n - 1))
        assert learner not in opponent.seats[calls:]
        wins += reward > 0
        losses += reward < 0
        ended_by_opponents += len(opponent.seats) > calls
    assert wins and losses and ended_by_opponents


@pytest.mark.parametrize("n", [2, 4])
def test_every_step_is_the_learners_and_opponents_play_only_their_seats(n):
    opponent = Recorder()
    env = SingleAgentEnv(num_players=n, opponents=opponent)
    rng = np.random.default_rng(1)
    for g in range(3):
        start = len(opponent.seats)
        play_game(env, rng, seed=g)
        assert set(opponent.seats[start:]) == set(range(n)) - {env.learner}
    assert opponent.resets == 3  # once per game, though it holds n-1 seats


def test_opponents_per_seat_sit_in_order_after_the_learner():
    first, second = Recorder(1), Recorder(2)
    env = SingleAgentEnv(num_players=3, opponents=[first, second], learner_seat=1)
    play_game(env, np.random.default_rng(0), seed=0)
    assert set(first.seats) == {2} and set(second.seats) == {0}


def test_plain_functions_are_opponents():
    seen = []

    def lowest_legal(observation, action_mask):
        seen.append(observation.shape)
        return int(np.flatnonzero(action_mask)[0])

    env = SingleAgentEnv(num_players=2, opponents=lowest_legal)
    play_game(env, np.random.default_rng(0), seed=0)
    assert seen and set(seen) == {(env.observation_space.shape[0],)}


def test_learner_seats_rotate_by_default_and_can_be_fixed_or_random():
    env = SingleAgentEnv(num_players=3)
    assert [env.reset(seed=7 if i == 0 else None)[1]["learner_seat"] for i in range(6)] == [0, 1, 2, 0, 1, 2]
    fixed = SingleAgentEnv(num_players=4, learner_seat=2)
    assert {fixed.reset()[1]["learner_seat"] for _ in range(5)} == {2}
    seats = [SingleAgentEnv(num_players=5, learner_seat="random") for _ in range(2)]
    runs = [[e.reset(seed=3 if i == 0 else None)[1]["learner_seat"] for i in range(20)] for e in seats]
    assert runs[0] == runs[1] and len(set(runs[0])) > 2


def test_same_seed_same_game():
    def trajectory():
        env = SingleAgentEnv(num_players=4)
        obs, _ = env.reset(seed=11)
        env.action_space.seed(11)
        out, done = [obs.copy()], False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            out.append(obs.copy())
            done = terminated or truncated
        return np.array(out), reward

    (a, ra), (b, rb) = trajectory(), trajectory()
    assert len(a) > 20 and np.array_equal(a, b) and ra == rb


def test_action_space_samples_are_legal():
    env = SingleAgentEnv(num_players=3)
    env.reset(seed=2)
    env.action_space.seed(2)
    for _ in range(300):
        action = env.action_space.sample()
        assert env.action_masks()[action]
        *_, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()


def test_round_limit_truncates_with_the_score_reward():
    env = SingleAgentEnv(num_players=3, round_limit=1, reward="win")
    reward, terminated, truncated, info, _ = play_game(env, np.random.default_rng(0), seed=5)
    assert truncated and not terminated and env.game.truncated
    assert reward == pytest.approx(final_rewards(env.game, "score")[env.learner])


def test_illegal_action_raises_and_changes_nothing():
    env = SingleAgentEnv(num_players=2)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = env.game.to_dict()
    for bad in (illegal, 400, -1, 1.5, None):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert env.game.to_dict() == before


def test_illegal_action_lose_ends_the_game_below_any_outcome():
    env = SingleAgentEnv(num_players=2, illegal_action="lose")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not env.action_masks().any() and not info["action_mask"].any()  # no one acts any more
    with pytest.raises(gym.error.ResetNeeded):  # the forfeited game is over
        env.step(0)
    env.reset()
    assert env.action_masks().any()


def test_stepping_a_finished_game_asks_for_reset():
    env = SingleAgentEnv(num_players=2)
    play_game(env, np.random.default_rng(0), seed=1)
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)


@pytest.mark.parametrize(
    "config, message",
    [
        ({"opponents": ["random"]}, "need 3 opponents"),
        ({"opponents": "greedy"}, "unknown agent 'greedy'"),
        ({"opponents": 3}, "an opponent must be"),
        ({"learner_seat": 4}, "learner_seat"),
        ({"learner_seat": "first"}, "learner_seat"),
        ({"reward": "points"}, "reward scheme"),
        ({"render_mode": "rgb"}, "render_mode"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"num_players": 6}, "num_players"),
    ],
)
def test_bad_configuration_names_the_problem(config, message):
    with pytest.raises(ConfigError, match=message):
        SingleAgentEnv(**{"num_players": 4, **config})


def test_render_shows_the_learners_view():
    env = SingleAgentEnv(num_players=3, render_mode="ansi", learner_seat=1)
    env.reset(seed=0)
    assert env.render() == env.game.render(1)


def test_maskable_ppo_trains_on_it_with_legal_actions_only():
    from sb3_contrib import MaskablePPO

    env = SingleAgentEnv(num_players=2)  # an illegal action would raise
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256


def test_works_inside_subproc_vec_env():
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import SubprocVecEnv

    venv = SubprocVecEnv([lambda: SingleAgentEnv(num_players=2)] * 2)
    try:
        venv.seed(3)
        venv.reset()
        rng = np.random.default_rng(0)
        finished = []
        for _ in range(3000):
            masks = get_action_masks(venv)
            assert masks.shape == (2, 400) and masks.any(axis=1).all()
            actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
            _, rewards, dones, infos = venv.step(np.array(actions))
            finished += [(r, info) for r, d, info in zip(rewards, dones, infos) if d]
            if len(finished) >= 2:
                break
        assert len(finished) >= 2
        for reward, info in finished:
            assert "terminal_observation" in info
            assert reward == pytest.approx(1.0 if info["learner_seat"] in info["winners"] else -1.0)
    finally:
        venv.close()


def test_an_opponent_pool_is_drawn_from_for_every_game():
    a, b = Recorder(1), Recorder(2)
    env = SingleAgentEnv(num_players=3, opponents=tribune_env.envs.OpponentPool([a, b], weights=[3, 1]))
    rng = np.random.default_rng(0)
    lineups = []
    for g in range(40):
        env.reset(seed=g if g == 0 else None)
        lineups.append(tuple(id(p) for p in env._by_seat if p is not None))
    assert len(set(lineups)) > 1  # the draw changes between games
    share_a = sum(lineup.count(id(a)) for lineup in lineups) / (2 * len(lineups))
    assert 0.6 < share_a < 0.9  # weight 3 of 4
    late = Recorder(3)
    env.add_opponent(late, weight=1000)
    env.reset()
    assert all(p is late for p in env._by_seat if p is not None)
    play_game(env, rng)
    assert late.seats


@pytest.mark.parametrize(
    "pool, message",
    [
        (([], None), "at least one member"),
        ((["random"], [1, 2]), "one weight per member"),
        ((["random"], [0]), "weight must be positive"),
    ],
)
def test_bad_opponent_pools(pool, message):
    with pytest.raises(ConfigError, match=message):
        tribune_env.envs.OpponentPool(*pool)


def test_adding_to_fixed_opponents_is_refused():
    env = SingleAgentEnv(num_players=2)
    with pytest.raises(ConfigError, match="OpponentPool"):
        env.add_opponent("random")


def learner_trace(env, seed, moves=80):
    """The learner's observations over its first `moves` moves (its first legal action each time)."""
    obs, info = env.reset(seed=seed)
    seen = [obs]
    for _ in range(moves):
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        seen.append(obs)
        if terminated or truncated:
            obs, info = env.reset()
    return np.array(seen)


def test_an_agent_spec_is_an_opponent():
    """The spec "heuristic" is built by the agents package's resolver, found through an entry point."""
    env = gym.make("tribune_env.envs:Tribune-v0", num_players=3, opponents=["heuristic", "random"])
    assert type(env._lineup.members[0].agent).__name__ == "HeuristicAgent"
    assert learner_trace(env, 5).shape == (81, env.observation_space.shape[0])


def test_an_agent_spec_is_reseeded_by_the_environment_at_each_game():
    """A network sampling its moves plays the same games for the same seed, other games for another."""
    pytest.importorskip("torch")
    spec = f"policy:{ROOT / 'agents/trained/2p.pt'},deterministic=false"

    def trace(seed):
        return learner_trace(SingleAgentEnv(num_players=2, opponents=spec), seed, moves=100)

    assert np.array_equal(trace(5), trace(5))
    assert not np.array_equal(trace(5), trace(6))


def test_an_agent_spec_without_its_resolver_says_what_is_missing(monkeypatch):
    """As in a source tree that was never installed: no entry point declares the resolver."""
    monkeypatch.setattr(tribune_env.envs.opponents, "entry_points", lambda **selection: ())
    with pytest.raises(ConfigError, match="needs the tribune package installed"):
        SingleAgentEnv(num_players=2, opponents="heuristic")


def test_a_vector_environment_takes_an_agent_spec():
    """Its heuristic opponents are seeded from the environment's seed: the same seed, the same games."""
    pytest.importorskip("stable_baselines3")
    from tribune_env.envs import VectorEnv

    def trace(seed):
        env = VectorEnv(num_envs=3, num_players=2, opponents="heuristic", seed=seed)
        assert type(env._lineup.members[0].agent).__name__ == "HeuristicAgent"
        seen = [env.reset()]
        for _ in range(40):
            seen.append(env.step(np.array([np.flatnonzero(mask)[0] for mask in env.action_masks()]))[0])
        return np.array(seen)

    assert np.array_equal(trace(0), trace(0))
    assert not np.array_equal(trace(0), trace(1))

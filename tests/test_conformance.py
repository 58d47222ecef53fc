"""Every interface the README names, as its users call it, for 2-5 players and every victory card.

The generic checkers (PettingZoo's ``api_test`` and ``seed_test``, Gymnasium's and
stable-baselines3's ``check_env``) run on the default configuration of each environment,
and so do the first lines a stable-baselines3 user writes: ``model.predict`` with the
masks, then ``env.step`` with what it returned (a 0-d numpy array).
"""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, seed_test
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import tribune_env.envs
from tribune_env import Game, IllegalActionError
from tribune_env.data import VICTORY_CARDS, VictoryCard
from tribune_env.envs import SingleAgentEnv, VectorEnv

# every (players, victory card) the data allows, and the point-value variant for each count
SETTINGS = [
    (n, {"victory_card": card}) for n in (2, 3, 4, 5) for card in sorted(VICTORY_CARDS) if n in VICTORY_CARDS[card].need
]
SETTINGS += [(n, {"point_variant": True}) for n in (2, 3, 4, 5)]
IDS = [f"{n}p-{kw.get('victory_card', 'points')}" for n, kw in SETTINGS]


def test_every_player_count_has_its_victory_cards():
    """Four titles (five cards) for two to four players, two for five (clarifications §3)."""
    cards = {
        n: sorted(kw["victory_card"] for m, kw in SETTINGS if m == n and "victory_card" in kw) for n in (2, 3, 4, 5)
    }
    assert cards[5] == ["ave-caesar", "quinque-viri"]
    assert all(len(cards[n]) == 5 for n in (2, 3, 4))
    assert VICTORY_CARDS["ave-caesar"] == VictoryCard("ave-caesar", 8, 2, 25, 4, {5: 4}, None, "short")


def test_five_player_games_draw_between_both_five_player_cards():
    drawn = {Game(5, seed=seed, log=False).victory_card.id for seed in range(40)}
    assert drawn == {"ave-caesar", "quinque-viri"}


@pytest.mark.parametrize("n, kw", SETTINGS, ids=IDS)
def test_pettingzoo_api_and_seed_tests(n, kw):
    api_test(tribune_env.envs.env(num_players=n, **kw), num_cycles=300)
    seed_test(lambda: tribune_env.envs.env(num_players=n, **kw), num_cycles=300)


@pytest.mark.parametrize("n, kw", SETTINGS, ids=IDS)
def test_gymnasium_and_sb3_check_env(n, kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gym_check_env(gym.make("Tribune-v0", num_players=n, **kw).unwrapped)
        sb3_check_env(SingleAgentEnv(num_players=n, **kw))
    # Only two advisories: counts have no upper bound, and text rendering has no frame rate. A
    # ResourceWarning is the garbage collector's, about whatever an earlier test in this process left.
    others = [f"{w.category.__name__}: {w.message}" for w in caught if not issubclass(w.category, ResourceWarning)]
    assert all("maximum value is infinity" in m or "render_fps" in m for m in others), [
        m for m in others if "maximum value is infinity" not in m and "render_fps" not in m
    ]


def test_a_sample_drawn_before_a_reset_is_a_legal_move_of_the_new_game():
    """What Gymnasium's checker does: sample, reset, step. A sample is a random legal move."""
    env = SingleAgentEnv(num_players=4)
    env.reset(seed=1)
    env.action_space.seed(5)
    sample = env.action_space.sample()
    assert env.action_masks()[sample]
    env.reset(seed=2)
    before = env.game.to_dict()
    env.step(sample)  # legal here too: no error
    assert env.game.to_dict() != before
    with pytest.raises(IllegalActionError):  # a plain integer gets no such help
        env.reset(seed=2)
        env.step(int(np.flatnonzero(~env.action_masks())[0]))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_model_predict_then_step(n):
    """The first lines a stable-baselines3 user writes, for every player count."""
    env = SingleAgentEnv(num_players=n)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0)
    obs, _ = env.reset(seed=n)
    for _ in range(30):
        action, _ = model.predict(obs, action_masks=env.action_masks())
        assert isinstance(action, np.ndarray) and action.shape == ()
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            obs, _ = env.reset()


def integer_forms(action: int) -> list:
    """Every form of an integer that Gymnasium's Discrete space accepts (bools aside)."""
    return [
        action,
        np.int64(action),
        np.int32(action),
        np.uint16(action),
        np.array(action),
        np.array(action, dtype=np.int16),
    ]


NOT_ACTIONS = [None, 3.0, "3", np.array([3]), np.float32(3), True, np.bool_(True), [3]]


def test_the_engine_takes_every_integer_form_and_names_the_rest():
    action = int(Game(3, seed=0).legal_actions()[0])
    expected = Game(3, seed=0)
    expected.step(action)
    for form in integer_forms(action):
        g = Game(3, seed=0)
        g.step(form)
        assert g.to_dict() == expected.to_dict(), repr(form)
    g = Game(3, seed=0)
    before = g.to_dict()
    for bad in NOT_ACTIONS:
        with pytest.raises(IllegalActionError, match="must be an integer"):
            g.step(bad)
    with pytest.raises(IllegalActionError, match="label must be a string"):
        g.step_label(None)
    assert g.to_dict() == before


def test_every_environment_takes_a_0d_array():
    aec = tribune_env.envs.env(num_players=3)
    aec.reset(seed=0)
    aec.step(np.array(int(np.flatnonzero(aec.last()[0]["action_mask"])[0])))
    single = SingleAgentEnv(num_players=3)
    single.reset(seed=0)
    single.step(np.array(int(np.flatnonzero(single.action_masks())[0])))
    vector = VectorEnv(num_envs=2, num_players=3, seed=0)
    vector.reset()
    vector.step(np.array([np.flatnonzero(m)[0] for m in vector.action_masks()]))
    with pytest.raises(IllegalActionError, match="must be an integer"):
        aec.step(1.5)
    with pytest.raises(IllegalActionError, match="must be an integer"):
        single.step(None)

"""Tribune in the frameworks researchers bring, called in each framework's own idiom.

The examples of docs/frameworks.md run here as written, each as a script of its own; the
tests after them pin what each idiom needs from the environment: legal samples from copies
and vector environments, masks through ``gymnasium.make``, the ``rgb_array`` mode vector
helpers ask for, and the ``lose`` rule for tools that step unmasked actions.
"""

import copy
import pickle
import re
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from tests.test_conformance import IDS, SETTINGS
from tests.test_docs import run_script
from tribune_env import ConfigError, Game, IllegalActionError
from tribune_env.envs import SingleAgentEnv, tribune_v0
from tribune_env.envs.single import LegalBatch, SampledActions
from tribune_env.player import random_legal

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = {
    title: code[0]
    for title, body in re.findall(
        r"^## (.+?)\n(.*?)(?=^## |\Z)", (ROOT / "docs/frameworks.md").read_text(), re.S | re.M
    )
    if (code := re.findall(r"```python\n(.*?)```", body, re.S))
}


def run_section(name: str) -> str:
    """The section's example run as a script of its own (test_docs.run_script); what it printed."""
    return run_script(SECTIONS[name], f"docs/frameworks.md, {name}")


def test_every_framework_has_its_example():
    assert sorted(SECTIONS) == sorted(
        ["Gymnasium", "Stable-Baselines3 and sb3-contrib", "PettingZoo", "RLlib", "TorchRL", "Tianshou"]
    )


def test_gymnasium_example():
    assert "Gymnasium: (4, 1659) (4, 400)" in run_section("Gymnasium")


def test_stable_baselines3_example():
    pytest.importorskip("sb3_contrib")
    assert "SB3: (2,)" in run_section("Stable-Baselines3 and sb3-contrib")


def test_pettingzoo_example():
    assert re.search(r"PettingZoo: final scores \[ *\d+ +\d+ +\d+ +\d+\]", run_section("PettingZoo"))


def test_rllib_example():
    pytest.importorskip("ray")
    assert "RLlib: 512" in run_section("RLlib")


def test_torchrl_example():
    pytest.importorskip("torchrl")
    assert "TorchRL: torch.Size([50])" in run_section("TorchRL")


def test_tianshou_example():
    pytest.importorskip("tianshou")
    assert "Tianshou: 2" in run_section("Tianshou")


@pytest.mark.parametrize("vec_class", ["DummyVecEnv", "SubprocVecEnv"])
def test_make_vec_env_with_every_vector_class(vec_class):
    """SB3 passes render_mode="rgb_array": the environment draws its table as an image. (The
    "module:id" form imports tribune_env.envs in a subprocess, which registers the id.)"""
    from stable_baselines3.common import vec_env
    from stable_baselines3.common.env_util import make_vec_env

    env = make_vec_env(
        "tribune_env.envs:Tribune-v0", n_envs=2, vec_env_cls=getattr(vec_env, vec_class), env_kwargs={"num_players": 3}
    )
    try:
        assert env.reset().shape == (2, 1659)
        frames = env.get_images()
        assert all(f.ndim == 3 and f.shape[2] == 3 and f.dtype == np.uint8 for f in frames)
        assert all((f < 128).any() and (f > 128).any() for f in frames)  # text on a background
        masks = np.stack(env.env_method("action_masks"))
        env.step(random_legal(masks, np.random.default_rng(0)))
    finally:
        env.close()


@pytest.mark.parametrize("make", [SingleAgentEnv, tribune_v0.raw_env], ids=["gymnasium", "pettingzoo"])
def test_rgb_array_draws_the_text_table(make):
    env = make(num_players=2, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    lines = len(env.game.render().splitlines())
    assert frame.dtype == np.uint8 and frame.shape[2] == 3 and frame.shape[0] > 10 * lines


def test_gymnasium_make_gives_action_masks_and_keeps_the_call_order():
    env = gym.make("Tribune-v0", num_players=2)
    with pytest.raises(gym.error.ResetNeeded, match="reset"):
        env.step(0)
    env.reset(seed=0)
    assert env.action_masks().dtype == bool and env.action_masks().any()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_vector_samples_are_legal_in_every_game(mode):
    """Whole games to the end in every slot, each sampled action legal in its own game."""
    envs = gym.make_vec("Tribune-v0", num_envs=3, vectorization_mode=mode, num_players=2)
    assert isinstance(envs.action_space, LegalBatch)
    try:
        _, infos = envs.reset(seed=1)
        ended = np.zeros(3, dtype=bool)
        for _ in range(3000):
            sample = envs.action_space.sample()
            assert isinstance(sample, SampledActions) and envs.action_space.contains(sample)
            _, _, terminated, truncated, infos = envs.step(sample)
            done = terminated | truncated
            assert not infos["action_mask"][done].any()  # a finished game shows an all-False mask
            ended |= done
            if ended.all():
                break
        assert ended.all()
    finally:
        envs.close()


def test_a_batch_sample_plays_every_legal_action_equally_often():
    space = LegalBatch(np.full(20000, 10))
    space.seed(0)
    sample = space.sample()
    mask = np.zeros(10, dtype=np.int8)
    mask[[2, 5, 7]] = 1
    played = [a.resolve(mask) for a in gym.vector.utils.iterate(space, sample)]
    counts = np.bincount(played, minlength=10)
    assert counts[mask == 0].sum() == 0
    assert np.all(np.abs(counts[[2, 5, 7]] / 20000 - 1 / 3) < 0.015)


@pytest.mark.parametrize(
    "copier", [copy.deepcopy, lambda env: pickle.loads(pickle.dumps(env))], ids=["deepcopy", "pickle"]
)
def test_copied_environments_sample_their_own_legal_actions(copier):
    single = SingleAgentEnv(num_players=3)
    single.reset(seed=2)
    twin = copier(single)
    for _ in range(100):
        twin.step(twin.action_space.sample())
        if twin.game.is_over:
            break
    aec = tribune_v0.raw_env(num_players=3)
    aec.reset(seed=2)
    twin = copier(aec)
    for _ in range(100):
        twin.step(twin.action_space(twin.agent_selection).sample())
    assert np.array_equal(twin.game.legal_mask(), twin.action_mask(twin.agent_selection))
    assert aec.game.to_dict() != twin.game.to_dict()  # the copy played, the original did not


@pytest.mark.parametrize(
    "copier", [copy.deepcopy, lambda game: pickle.loads(pickle.dumps(game))], ids=["deepcopy", "pickle"]
)
def test_a_copied_game_plays_on_as_a_clone_and_leaves_the_original(copier):
    """Python's own copies of a Game carry the whole state (its named views rebuilt on the
    copied buffer): the same moves give the same game as Game.clone, the original untouched."""
    game = Game(4, seed=3)
    before = game.to_dict()
    twin, clone = copier(game), game.clone()
    rng_twin, rng_clone = np.random.default_rng(0), np.random.default_rng(0)
    while not clone.is_over:
        twin.step(int(rng_twin.choice(twin.legal_actions())))
        clone.step(int(rng_clone.choice(clone.legal_actions())))
    assert twin.state_equals(clone) and twin.is_over
    assert game.to_dict() == before


def test_a_pickled_action_space_alone_leaves_its_environment_behind():
    """What stable-baselines3 saves in a model: the space, not the game."""
    env = SingleAgentEnv(num_players=2)
    assert len(pickle.dumps(env.action_space)) < 1000


@pytest.mark.parametrize("n, kw", SETTINGS, ids=IDS)
def test_pettingzoo_made_the_tutorials_way_passes_api_test(n, kw):
    from pettingzoo.test import api_test

    api_test(tribune_v0.env(num_players=n, **kw), num_cycles=200)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_pettingzoo_illegal_action_lose_ends_the_game_with_a_loss(n):
    env = tribune_v0.env(num_players=n, illegal_action="lose")
    env.reset(seed=n)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.unwrapped.action_mask(offender) == 0)[0])
    env.step(illegal)
    raw = env.unwrapped
    assert raw.rewards == {a: (-1.0 if a == offender else 0.0) for a in raw.possible_agents}
    assert all(raw.terminations.values()) and not any(raw.truncations.values())
    assert raw.infos[offender]["illegal_action"] is True
    assert not raw.action_mask(raw.agent_selection).any()
    for _agent in env.agent_iter():  # PettingZoo's loop then ends the game as usual
        env.step(None)
    assert env.agents == []


def test_pettingzoo_raises_by_default_and_refuses_unknown_rules():
    env = tribune_v0.env(num_players=2)
    env.reset(seed=0)
    before = env.unwrapped.game.to_dict()
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(env.unwrapped.action_mask(env.agent_selection) == 0)[0]))
    assert env.unwrapped.game.to_dict() == before
    with pytest.raises(ConfigError, match="illegal_action"):
        tribune_v0.env(num_players=2, illegal_action="skip")


def test_rllib_illegal_action_lose_ends_the_game_with_a_loss():
    from tribune_env.envs.multi_agent import ACTION_MASK, TribuneMultiAgentEnv

    env = TribuneMultiAgentEnv({"num_players": 3, "illegal_action": "lose"})
    observations, _ = env.reset(seed=0)
    ((acting, observation),) = observations.items()
    illegal = int(np.flatnonzero(observation[ACTION_MASK] == 0)[0])
    observations, rewards, terminated, truncated, infos = env.step({acting: illegal})
    assert rewards == {a: (-1.0 if a == acting else 0.0) for a in env.agents}
    assert terminated["__all__"] and not truncated["__all__"]
    assert infos == {acting: {"illegal_action": True}}
    assert sorted(observations) == env.agents
    assert not any(o[ACTION_MASK].any() for o in observations.values())
    with pytest.raises(IllegalActionError, match="reset"):
        env.step({acting: 0})


def test_the_rllib_environment_feeds_rllibs_action_masking_module():
    """RLlib's ActionMaskingTorchRLModule on TribuneMultiAgentEnv's observations: the module
    finds its keys and puts no weight on an illegal action."""
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from tribune_env.envs import TribuneMultiAgentEnv

    env = TribuneMultiAgentEnv({"num_players": 4})
    observations, _ = env.reset(seed=0)
    ((agent, observation),) = observations.items()
    module = ActionMaskingTorchRLModule(
        observation_space=env.get_observation_space(agent), action_space=env.get_action_space(agent), model_config={}
    )
    batch = {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in observation.items()}}
    logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    legal = observation["action_mask"].astype(bool)
    assert torch.all(logits[~legal] < -1e30) and torch.all(logits[legal] > -1e30)


def test_random_legal_refuses_a_mask_with_no_legal_action():
    masks = np.array([[0, 1, 0], [0, 0, 0], [1, 1, 1]], dtype=np.int8)
    with pytest.raises(ValueError, match=r"row\(s\) \[1\] have no legal action"):
        random_legal(masks, np.random.default_rng(0))
    with pytest.raises(ValueError, match="shape"):
        random_legal(np.ones(3, dtype=np.int8), np.random.default_rng(0))
    assert random_legal(masks[[0, 2]].astype(bool), np.random.default_rng(0))[0] == 1

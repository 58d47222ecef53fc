"""The pipelined learner: the same rollouts and update as MaskablePPO, but for the order of sampling.

``Learner`` decides for one shard of games while the others play, so it samples each
shard's actions in a pass of its own: with sampling fixed (the most probable action) its
rollout buffer and its update are MaskablePPO's exactly; with sampling, every action is
legal and the same seed gives the same run.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402

from training.learning.learner import Learner  # noqa: E402
from training.learning.shards import ShardedVectorEnv  # noqa: E402

SETTINGS = {"num_envs": 6, "num_players": 3, "opponents": "random", "seed": 5}
MODEL = {
    "n_steps": 16,
    "batch_size": 32,
    "n_epochs": 2,
    "device": "cpu",
    "seed": 3,
    "policy_kwargs": {"net_arch": [32]},
}


def trained(cls, deterministic: bool):
    env = ShardedVectorEnv(shards=2, **SETTINGS)
    try:
        model = cls("MlpPolicy", env, **MODEL)
        if deterministic:
            forward = model.policy.forward
            model.policy.forward = lambda obs, deterministic=False, action_masks=None: forward(obs, True, action_masks)
        model.learn(6 * 16 * 2)
        return model
    finally:
        env.close()


def parameters(model) -> list:
    return [p.detach().clone() for p in model.policy.parameters()]


def test_with_sampling_fixed_the_rollouts_and_the_update_are_maskableppos():
    ours, theirs = trained(Learner, True), trained(MaskablePPO, True)
    for name in ("observations", "actions", "rewards", "episode_starts", "values", "log_probs", "action_masks"):
        np.testing.assert_allclose(
            getattr(ours.rollout_buffer, name), getattr(theirs.rollout_buffer, name), rtol=1e-5, atol=1e-6
        )
    for a, b in zip(parameters(ours), parameters(theirs)):
        torch.testing.assert_close(a, b)


def test_sampled_rollouts_are_legal_and_repeat_by_seed():
    first, second = trained(Learner, False), trained(Learner, False)
    buffer = first.rollout_buffer
    actions = buffer.actions.reshape(-1).astype(int)
    masks = buffer.action_masks.reshape(len(actions), -1)
    assert masks[np.arange(len(actions)), actions].all(), "every action the learner took was legal"
    np.testing.assert_array_equal(buffer.actions, second.rollout_buffer.actions)
    for a, b in zip(parameters(first), parameters(second)):
        torch.testing.assert_close(a, b)


def test_a_callback_that_stops_the_rollout_leaves_every_shard_ready():
    """The steps already sent when a callback stops training are received, so training can go on."""
    from stable_baselines3.common.callbacks import BaseCallback

    class StopAt(BaseCallback):
        def _on_step(self) -> bool:
            return self.num_timesteps < 6 * 5

    env = ShardedVectorEnv(shards=2, **SETTINGS)
    try:
        model = Learner("MlpPolicy", env, **MODEL)
        model.learn(6 * 16, callback=StopAt())
        assert model.num_timesteps == 6 * 5
        model.learn(6 * 16, reset_num_timesteps=False)  # the pipes hold no stale reply
        actions = model.rollout_buffer.actions.reshape(-1).astype(int)
        masks = model.rollout_buffer.action_masks.reshape(len(actions), -1)
        assert masks[np.arange(len(actions)), actions].all()
    finally:
        env.close()

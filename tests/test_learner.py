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

from agents.sparse_input import FEW  # noqa: E402
from training.learning.learner import Learner  # noqa: E402
from training.learning.shards import ShardedVectorEnv  # noqa: E402

SETTINGS = {"num_envs": 6, "num_players": 3, "opponents": "random", "seed": 5}
MODEL = {
    "n_steps": 16,
    "batch_size": 32,
    "n_epochs": 2,
    "device": "cpu",
    "seed": 3,
    # Learner's optimizer (fused Adam, which rounds otherwise than the unfused one) for both
    "policy_kwargs": {"net_arch": [32], "optimizer_kwargs": {"eps": 1e-5, "fused": True}},
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


def dense_towers(towers):
    """The towers as plain layers compute them, every entry of the observation multiplied."""
    return lambda x: (towers.policy_net(x), towers.value_net(x))


def test_the_towers_are_plain_layers_in_outputs_and_gradients():
    """The towers' outputs and their parameters' gradients are the plain layers', on real
    observations with a row of zeros among them."""
    from tribune_env.envs import VectorEnv

    model = Learner("MlpPolicy", VectorEnv(num_envs=8, num_players=3, seed=1), device="cpu", seed=0)
    towers = model.policy.mlp_extractor
    observations = torch.as_tensor(model.env.reset(), dtype=torch.float32)
    observations[3] = 0
    assert 0 < (observations != 0).float().mean() < 0.2
    results = []
    for forward in (towers, dense_towers(towers)):
        towers.zero_grad()
        pi, vf = forward(observations)
        (pi.square().sum() + vf.sum()).backward()
        results.append([pi, vf] + [p.grad.clone() for p in towers.parameters()])
    for ours, plain in zip(*results):
        torch.testing.assert_close(ours, plain, rtol=1e-5, atol=1e-5)


def test_the_kept_first_layer_weights_follow_every_change():
    """The towers keep their first layers' weights transposed between forward passes; an update by
    the policy's optimizer (fused Adam, which bumps no tensor's version), a change in place and a
    loaded state each show in the next pass."""
    from tribune_env.envs import VectorEnv

    env = VectorEnv(num_envs=16, num_players=2, seed=3)
    model = Learner("MlpPolicy", env, device="cpu", seed=0, policy_kwargs={"net_arch": [32]})
    policy, towers = model.policy, model.policy.mlp_extractor
    assert policy.optimizer.defaults["fused"] and policy.optimizer.defaults["eps"] == 1e-5
    observations = torch.as_tensor(env.reset(), dtype=torch.float32)
    assert len(observations) >= FEW  # passes without gradients read the kept weights
    masks = env.action_masks()
    actions = torch.as_tensor([np.flatnonzero(row)[0] for row in masks])
    start = {k: v.clone() for k, v in policy.state_dict().items()}

    def same_as_plain():
        with torch.no_grad():
            for ours, plain in zip(towers(observations), dense_towers(towers)(observations)):
                torch.testing.assert_close(ours, plain, rtol=1e-5, atol=1e-5)

    same_as_plain()
    values, log_p, _ = policy.evaluate_actions(observations, actions, masks)
    policy.optimizer.zero_grad()
    (values.sum() - log_p.sum()).backward()
    policy.optimizer.step()
    assert not torch.equal(towers.policy_net[0].weight, start["mlp_extractor.policy_net.0.weight"])
    same_as_plain()
    with torch.no_grad():
        towers.value_net[0].weight.mul_(2)
    same_as_plain()
    policy.load_state_dict(start)
    same_as_plain()


def test_bfloat16_towers_give_float32_outputs_near_float32s_and_the_same_parameters():
    """The towers' products in bfloat16: outputs in float32 within bfloat16's precision of the float32
    towers', the parameters' names unchanged, and off again the float32 towers to the bit."""
    from tribune_env.envs import VectorEnv

    model = Learner("MlpPolicy", VectorEnv(num_envs=1, num_players=2, seed=0), device="cpu", seed=0)
    towers = model.policy.mlp_extractor
    observations = torch.as_tensor(model.env.reset(), dtype=torch.float32).repeat(64, 1)
    observations += torch.rand_like(observations) * (observations != 0)  # distinct rows, the same zeros
    exact = [tensor.clone() for tensor in towers(observations)]
    names = model.policy.state_dict().keys()
    model.bfloat16 = True
    halved = towers(observations)
    for fast, slow in zip(halved, exact):
        assert fast.dtype == torch.float32 and not torch.equal(fast, slow)
        torch.testing.assert_close(fast, slow, atol=0.05, rtol=0)  # tanh units: bfloat16 keeps 3 digits
    assert model.policy.state_dict().keys() == names
    model.bfloat16 = False
    for again, slow in zip(towers(observations), exact):
        assert torch.equal(again, slow)


def test_a_bfloat16_update_learns_as_a_float32_one_does():
    """One rollout and update in each precision from the same start move the parameters alike."""
    starts = {}
    moved = {}
    for bfloat16 in (False, True):
        env = ShardedVectorEnv(shards=2, **SETTINGS)
        try:
            model = Learner("MlpPolicy", env, **MODEL)
            model.bfloat16 = bfloat16
            starts[bfloat16] = parameters(model)
            model.learn(6 * 16)
            moved[bfloat16] = [after - before for after, before in zip(parameters(model), starts[bfloat16])]
        finally:
            env.close()
    for a, b in zip(starts[False], starts[True]):
        assert torch.equal(a, b)
    steps = torch.cat([m.flatten() for m in moved[False]]), torch.cat([m.flatten() for m in moved[True]])
    assert torch.nn.functional.cosine_similarity(*steps, dim=0) > 0.9


def test_the_policys_evaluation_for_the_update_is_maskableppos_in_one_log_softmax():
    """Values, log-probabilities of the actions taken and entropies, and their gradients, as
    sb3-contrib's masked distribution gives them, on real observations and legal masks."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from tribune_env.envs import VectorEnv

    env = VectorEnv(num_envs=16, num_players=4, seed=2)
    model = Learner("MlpPolicy", env, device="cpu", seed=0, n_steps=8, batch_size=32)
    model.learn(16 * 8)  # a rollout of legal actions
    buffer = model.rollout_buffer
    observations = torch.as_tensor(buffer.observations.reshape(128, -1))
    actions = torch.as_tensor(buffer.actions.reshape(128))
    masks = buffer.action_masks.reshape(128, -1)
    outputs = {}
    for evaluate in (
        model.policy.evaluate_actions,
        lambda *a: MaskableActorCriticPolicy.evaluate_actions(model.policy, *a),
    ):
        model.policy.zero_grad()
        values, log_p, entropy = evaluate(observations, actions, masks)
        (values.sum() + log_p.sum() + entropy.sum()).backward()
        outputs[evaluate] = [values, log_p, entropy] + [p.grad.clone() for p in model.policy.parameters()]
    ours, theirs = outputs.values()
    assert theirs[2].min() >= 0 and theirs[2].max() > 1 and (theirs[1] <= 0).all()  # real choices among them
    for a, b in zip(ours, theirs):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-5)


def test_the_rollouts_draws_follow_the_masked_distribution_and_repeat_by_seed():
    """Gumbel-max draws: legal actions only, each as often as its probability (20,000 draws of one
    decision), the same draws from the same torch seed; deterministic: the most probable action."""
    from tribune_env.envs import VectorEnv

    env = VectorEnv(num_envs=1, num_players=3, seed=4)
    model = Learner("MlpPolicy", env, device="cpu", seed=0, policy_kwargs={"net_arch": [32]})
    mask = env.action_masks()
    with torch.no_grad():  # a distribution far from uniform: a fresh network's nearly is
        model.policy.action_net.bias.copy_(torch.randn(mask.shape[1], generator=torch.Generator().manual_seed(1)))
    observations = torch.as_tensor(env.reset(), dtype=torch.float32).repeat(20_000, 1)
    masks = np.repeat(mask, 20_000, axis=0)
    with torch.no_grad():
        probabilities = model.policy.get_distribution(observations[:1], action_masks=mask).distribution.probs[0]
    torch.manual_seed(7)
    with torch.no_grad():
        actions, _, log_p = model.policy(observations, action_masks=masks)
        torch.manual_seed(7)
        again = model.policy(observations, action_masks=masks)[0]
        best = model.policy(observations[:1], deterministic=True, action_masks=mask)[0]
    counts = np.bincount(actions.numpy(), minlength=mask.shape[1]) / 20_000
    assert counts[~mask[0]].sum() == 0 and mask[0].sum() > 2 and probabilities.max() > 2 / mask[0].sum()
    np.testing.assert_allclose(counts, probabilities.numpy(), atol=0.015)
    torch.testing.assert_close(log_p, probabilities.log()[actions], rtol=1e-5, atol=1e-5)
    assert torch.equal(actions, again) and best.item() == probabilities.argmax().item()


@pytest.mark.parametrize("draw", [0.0, 1.0 - 2**-24])
def test_a_draw_at_either_end_of_the_generators_range_still_picks_a_legal_action(monkeypatch, draw):
    """A uniform draw of exactly 0 once made a forced decision's one legal action lose to the
    illegal ones (a training run stopped at its 8,140,608th decision); the largest draw is the other end."""
    from tribune_env.envs import VectorEnv

    env = VectorEnv(num_envs=1, num_players=2, seed=0)
    model = Learner("MlpPolicy", env, device="cpu", seed=0, policy_kwargs={"net_arch": [16]})
    observations = torch.as_tensor(env.reset(), dtype=torch.float32).repeat(3, 1)
    masks = np.zeros((3, env.action_space.n), dtype=bool)
    masks[0, 7] = True  # a forced decision
    masks[1, [3, 250]] = True
    masks[2] = env.action_masks()[0]
    monkeypatch.setattr(torch, "rand_like", lambda like: torch.full_like(like, draw))
    with torch.no_grad():
        actions, _, log_p = model.policy(observations, action_masks=masks)
    assert masks[np.arange(3), actions.numpy()].all() and actions[0].item() == 7
    assert torch.isfinite(log_p).all()

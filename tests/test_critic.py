"""The privileged critic: the critic reads the other seats' hidden segments, the actor and the
seat value the seat's observation alone, and a policy file keeps the actor and the seat value."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch as th  # noqa: E402

from agents.model import ModelAgent  # noqa: E402
from agents.policy import PolicyAgent, export, start_from  # noqa: E402
from agents.trained import POLICIES  # noqa: E402
from training.learning.critic import PrivilegedCriticPolicy  # noqa: E402
from training.learning.learner import Learner  # noqa: E402
from tribune_env import ConfigError, Game  # noqa: E402
from tribune_env.envs import VectorEnv  # noqa: E402
from tribune_env.player import random_legal  # noqa: E402

SEAT = Game(2, seed=0, log=False).obs_layout.size


def learner(env, layers=(32, 32), seed=0):
    return Learner(
        PrivilegedCriticPolicy,
        env,
        n_steps=16,
        batch_size=32,
        n_epochs=2,
        seed=seed,
        device="cpu",
        policy_kwargs={"net_arch": {"pi": list(layers), "vf": list(layers)}, "seat_size": SEAT},
    )


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    env = VectorEnv(num_envs=4, num_players=3, opponents="random", seed=2, privileged=True)
    model = learner(env)
    model.learn(128)
    root = tmp_path_factory.mktemp("critic")
    model.save(root / "model.zip")
    export(model, root / "policy.pt")
    return model, env, root


def test_the_actor_ignores_the_hidden_segments_and_the_critic_reads_them(trained):
    model, env, _ = trained
    obs = th.as_tensor(env.reset())
    masks = env.action_masks()
    other = obs.clone()
    other[:, SEAT:] = th.rand_like(other[:, SEAT:]) * 3
    policy = model.policy
    with th.no_grad():
        probs = [policy.get_distribution(o, action_masks=masks).distribution.probs for o in (obs, other)]
        values = [policy.predict_values(o).flatten() for o in (obs, other)]
        seat = [policy.seat_values(o) for o in (obs, other, obs[:, :SEAT])]
    assert th.equal(probs[0], probs[1])
    assert not th.allclose(values[0], values[1])
    assert th.equal(seat[0], seat[1]) and th.equal(seat[0], seat[2])


def test_the_seat_value_learns_the_rollouts_returns_and_nothing_else_moves(trained):
    model, _, _ = trained
    policy = model.policy
    before = {k: v.clone() for k, v in policy.state_dict().items()}
    buffer = model.rollout_buffer
    data = next(buffer.get(None))
    with th.no_grad():
        loss_before = th.nn.functional.mse_loss(policy.seat_values(data.observations), data.returns).item()
    for _ in range(5):
        policy.fit_seat_value(buffer, epochs=4, batch_size=32, max_grad_norm=0.5)
    with th.no_grad():
        loss_after = th.nn.functional.mse_loss(policy.seat_values(data.observations), data.returns).item()
    assert loss_after < loss_before
    moved = {k for k, v in policy.state_dict().items() if not th.equal(v, before[k])}
    assert moved and all(k.startswith(("seat_value_net.", "seat_value.")) for k in moved)
    policy.load_state_dict(before)


def test_a_policy_file_keeps_the_actor_and_the_seat_value(trained):
    model, env, root = trained
    obs = env.reset()
    masks = env.action_masks()
    agent = PolicyAgent(path=str(root / "policy.pt"))
    with th.no_grad():
        ours = model.policy.get_distribution(th.as_tensor(obs), action_masks=masks).distribution.probs.numpy()
        seat_values = model.policy.seat_values(th.as_tensor(obs)).numpy()
    assert np.allclose(agent.probabilities(obs[:, :SEAT], masks), ours, atol=1e-6)
    assert np.allclose(agent.value(obs[:, :SEAT]), seat_values, atol=1e-6)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_saved_model_plays_from_the_seats_observation_alone(trained, players):
    """A model: agent from the .zip (as a tournament or a snapshot opponent loads it) plays a legal game."""
    _, _, root = trained
    agent = ModelAgent(seed=players, path=str(root / "model.zip"), trust=True)
    reference = PolicyAgent(path=str(root / "policy.pt"))
    game = Game(players, seed=players, log=False)
    while not game.is_over:
        obs, mask = game.observe(game.current_player), game.legal_mask()
        assert np.allclose(agent.probabilities(obs[None], mask[None]), reference.probabilities(obs[None], mask[None]))
        action = agent.act(obs, mask)
        assert mask[action]
        game.step(action)


@pytest.mark.parametrize("layers", [(256, 256), (300, 260)])
def test_a_network_started_from_a_policy_file_values_as_the_file_whatever_the_hidden_segments(layers):
    """The critic starts as the file's value, its weights on the hidden segments zero; the actor
    and the seat value are the file's, in a network of the file's layers or a wider one."""
    env = VectorEnv(num_envs=3, num_players=4, opponents="random", seed=8, privileged=True)
    model = learner(env, layers=layers, seed=3)
    start_from(model, POLICIES[4])
    agent = PolicyAgent(path=str(POLICIES[4]))
    rng = np.random.default_rng(8)
    obs = env.reset()
    for _ in range(20):
        masks = env.action_masks()
        assert obs[:, SEAT:].any()
        with th.no_grad():
            values = model.policy.predict_values(th.as_tensor(obs)).flatten().numpy()
            seat_values = model.policy.seat_values(th.as_tensor(obs)).numpy()
            probs = model.policy.get_distribution(th.as_tensor(obs), action_masks=masks).distribution.probs.numpy()
        expected = agent.value(obs[:, :SEAT])
        assert np.allclose(values, expected, atol=1e-5) and np.allclose(seat_values, expected, atol=1e-5)
        assert np.allclose(probs, agent.probabilities(obs[:, :SEAT], masks), atol=1e-6)
        obs, *_ = env.step(random_legal(masks, rng))


def test_after_imitation_the_critic_starts_as_the_seat_value(trained):
    """Imitation fits the seat value alone; the critic then copies it, reading the hidden segments with zero weights."""
    model, env, _ = trained
    policy = model.policy
    before = {k: v.clone() for k, v in policy.state_dict().items()}
    policy.critic_from_seat_value()
    obs = th.as_tensor(env.reset())
    other = obs.clone()
    other[:, SEAT:] = th.rand_like(other[:, SEAT:]) * 3
    with th.no_grad():
        seat = policy.seat_values(obs)
        assert th.allclose(policy.predict_values(obs).flatten(), seat, atol=1e-6)
        assert th.allclose(policy.predict_values(other).flatten(), seat, atol=1e-6)
    policy.load_state_dict(before)


def test_the_policy_saves_and_loads_alone_and_a_model_agent_names_a_wrong_observation(trained, tmp_path):
    model, env, root = trained
    model.policy.save(tmp_path / "policy")
    loaded = PrivilegedCriticPolicy.load(tmp_path / "policy")
    assert loaded.seat_size == SEAT
    obs = th.as_tensor(env.reset())
    with th.no_grad():
        assert th.equal(loaded.predict_values(obs), model.policy.predict_values(obs))
    agent = ModelAgent(path=str(root / "model.zip"), trust=True)
    with pytest.raises(ConfigError, match=f"observations of {SEAT + 1} values; the model plays from a seat's {SEAT}"):
        agent.act(np.zeros(SEAT + 1, np.float32), np.ones(env.action_space.n, bool))

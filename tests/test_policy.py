"""Policy files: a trained network saved as weights only, played by a ``policy:`` agent."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402

from agents import make_agent  # noqa: E402
from agents.model import ModelAgent  # noqa: E402
from agents.policy import PolicyAgent, export  # noqa: E402
from agents.trained import POLICIES  # noqa: E402
from tribune_env import ConfigError, Game, PlayerView  # noqa: E402
from tribune_env.envs import VectorEnv  # noqa: E402

RAN = []


class Exploit:
    """A pickle that would run code when loaded."""

    def __reduce__(self):
        return (RAN.append, ("ran",))


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    env = VectorEnv(num_envs=2, num_players=2, opponents="random", seed=0)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=8, batch_size=16, seed=0, device="cpu", policy_kwargs={"net_arch": [16, 8]}
    )
    model.learn(16)
    path = tmp_path_factory.mktemp("models") / "model.zip"
    model.save(path)
    return model, path


@pytest.fixture(scope="module")
def policy_file(model, tmp_path_factory):
    path = tmp_path_factory.mktemp("policies") / "policy.pt"
    export(model[0], path)
    return path


def test_a_policy_file_plays_as_its_model(model, policy_file):
    ours, theirs = PolicyAgent(path=str(policy_file)), ModelAgent(path=str(model[1]), trust=True)
    game, rng = Game(3, seed=4), np.random.default_rng(4)
    while not game.is_over:
        seat = game.current_player
        obs, mask = game.observe(seat)[None], game.legal_mask()[None]
        np.testing.assert_allclose(ours.probabilities(obs, mask), theirs.probabilities(obs, mask), atol=1e-6)
        assert ours.act(obs[0], mask[0]) == theirs.act(obs[0], mask[0])
        game.step(int(rng.choice(game.legal_actions())))


def play_legal_game(agent, players: int) -> Game:
    """A game with `agent` in every seat, each of its moves legal."""
    game = Game(players, seed=players)
    while not game.is_over:
        seat = game.current_player
        action = agent.act(game.observe(seat), game.legal_mask(), PlayerView(game, seat))
        assert game.legal_mask()[action]
        game.step(action)
    return game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("deterministic", [True, False])
def test_a_policy_spec_plays_a_legal_game(policy_file, players, deterministic):
    agent = make_agent(f"policy:{policy_file}", seed=players)
    agent.deterministic = deterministic
    game = play_legal_game(agent, players)
    assert agent.value(game.observe(0)[None]).shape == (1,)


def test_a_policy_agent_travels_by_its_path(policy_file):
    agent = make_agent(f"policy:{policy_file}")
    copy = pickle.loads(pickle.dumps(agent))
    obs, mask = Game(2, seed=1).observe(0)[None], Game(2, seed=1).legal_mask()[None]
    np.testing.assert_array_equal(copy.probabilities(obs, mask), agent.probabilities(obs, mask))


def test_a_policy_file_under_the_home_directory_loads_by_its_tilde_path(policy_file, monkeypatch):
    """A training config accepts "~/x.pt" (it expands the path); the reader expands it the same way."""
    monkeypatch.setenv("HOME", str(policy_file.parent))
    agent, direct = make_agent(f"policy:~/{policy_file.name}"), PolicyAgent(path=str(policy_file))
    obs, mask = Game(2, seed=1).observe(0)[None], Game(2, seed=1).legal_mask()[None]
    np.testing.assert_array_equal(agent.probabilities(obs, mask), direct.probabilities(obs, mask))


def test_damaged_and_code_carrying_files_are_refused_without_running_anything(policy_file, tmp_path):
    import torch

    cases = {
        "truncated.pt": policy_file.read_bytes()[:1000],
        "text.pt": b"not a policy",
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    torch.save(
        {"format": "tribune-policy", "version": 1, "layers": [8], "state": {"x": Exploit()}}, tmp_path / "code.pt"
    )
    with open(tmp_path / "pickle.pt", "wb") as f:
        pickle.dump(Exploit(), f)
    saved = torch.load(policy_file, weights_only=True)
    torch.save({**saved, "layers": [16, 9]}, tmp_path / "shape.pt")
    torch.save({**saved, "version": 2}, tmp_path / "version.pt")
    torch.save({**saved, "advisor": "heuristic"}, tmp_path / "advised.pt")
    for path in sorted(tmp_path.iterdir()):
        with pytest.raises(ConfigError, match=path.name):
            PolicyAgent(path=str(path))
    assert RAN == [], "loading a policy file ran code"
    with pytest.raises(ConfigError, match="no such file"):
        PolicyAgent(path=str(tmp_path / "missing.pt"))


def _guided_game(policy_file, seed, keep="heuristic"):
    agents = [
        make_agent(f"guided:net={policy_file},iterations=12,rounds=1,keep={keep}", seed=seed),
        make_agent("heuristic", seed=1),
    ]
    game, actions = Game(2, seed=seed, round_limit=2), []
    while not game.is_over:
        seat = game.current_player
        action = agents[seat].act(game.observe(seat), game.legal_mask(), PlayerView(game, seat))
        actions.append(action)
        game.step(action)
    return actions, agents[0]


@pytest.mark.parametrize("keep", ["heuristic", "network"])
def test_the_network_guided_search_replays_exactly_from_its_seed(policy_file, keep):
    first, agent = _guided_game(policy_file, 7, keep)
    second, _ = _guided_game(policy_file, 7, keep)
    assert first == second
    assert agent.last_iterations <= 12


def test_the_guided_search_values_each_sweep_in_one_network_pass(policy_file):
    agent = make_agent(f"guided:net={policy_file},iterations=30,rounds=1", seed=3)
    batches, value = [], agent.network.value
    agent.network.value = lambda observations: batches.append(len(observations)) or value(observations)
    game = Game(2, seed=3)
    while np.count_nonzero(game.legal_mask()) < 3:
        game.step(int(np.flatnonzero(game.legal_mask())[0]))
    agent.act(game.observe(game.current_player), game.legal_mask(), PlayerView(game, game.current_player))
    moves = len(agent.last_values)
    assert batches == [2 * moves] * (agent.last_iterations // moves)  # every seat of every root move's leaf
    leaves = [game.clone() for _ in range(3)]
    for steps, leaf in enumerate(leaves):
        for _ in range(steps):
            leaf.step(int(np.flatnonzero(leaf.legal_mask())[-1]))
    one_by_one = np.concatenate([agent._estimates([leaf]) for leaf in leaves])
    np.testing.assert_allclose(agent._estimates(leaves), one_by_one, atol=1e-6)


@pytest.mark.parametrize("keep", ["heuristic", "network"])
def test_the_guided_search_keeps_the_named_move_until_the_worlds_show_a_better_one(policy_file, keep):
    """One sweep leaves no standard error by which another move could beat the kept one, so the
    search plays the kept move at every decision: the heuristic's, or the network's."""
    agent = make_agent(f"guided:net={policy_file},iterations=1,keep={keep}", seed=5)
    heuristic, network = make_agent("heuristic", seed=5), make_agent(f"policy:{policy_file}")
    game, disagreements = Game(2, seed=5, round_limit=2), 0
    while not game.is_over:
        seat = game.current_player
        observation, mask, view = game.observe(seat), game.legal_mask(), PlayerView(game, seat)
        action = agent.act(observation, mask, view)
        if np.count_nonzero(mask) > 1:
            moves = {"heuristic": heuristic.act(observation, mask, view), "network": network.act(observation, mask)}
            assert action == moves[keep]
            disagreements += moves["heuristic"] != moves["network"]
        game.step(action)
    assert disagreements > 0  # the two kept moves differ, so the option decides the game


@pytest.mark.parametrize(
    "options, message",
    [
        ("iterations=10", "needs net=PATH.pt"),
        ("net=X.pt,seconds=1", "iterations alone"),
        ("net=X.pt,leaf=no", "leaf"),
        ("net=X.pt,keep=random", "keep must be 'heuristic' or 'network'"),
    ],
)
def test_the_guided_search_refuses_a_time_budget_and_bad_options(options, message):
    with pytest.raises(ConfigError, match=message):
        make_agent(f"guided:{options}")


SHIPPED_FILES = sorted(POLICIES[2].parent.glob("*.pt"))


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=lambda path: path.name)
def test_each_shipped_policy_loads_by_spec_and_plays_a_legal_game(path):
    """Every policy file in agents/trained: the shipped network of each table size."""
    players = int(path.stem[-2])  # 4p.pt, 5p.pt: the size it ships for
    assert path.stat().st_size < 20 * 2**20
    play_legal_game(make_agent(f"policy:{path}", seed=0), players)


def test_a_policy_ships_for_every_table_size():
    """And agents/trained holds no other policy file: the networks before them are in git history."""
    assert sorted(POLICIES) == [2, 3, 4, 5] and set(POLICIES.values()) == set(SHIPPED_FILES)

"""The agent interface, the spec parser, IS-MCTS and trained-model agents."""

import zipfile
from pathlib import Path

import numpy as np
import pytest

from agents import Agent, RandomAgent, make_agent, parse_spec
from agents.heuristic import best_placements
from agents.ismcts import ISMCTSAgent
from tribune_env import ConfigError, Game, PlayerView
from tribune_env.envs import SingleAgentEnv
from tribune_env.tasks import Task


def play(game, agents):
    """Play `game` to the end with one agent per seat (the engine raises on an illegal action)."""
    for seat, agent in enumerate(agents):
        agent.reset(seed=seat)
    while not game.is_over:
        p = game.current_player
        game.step(agents[p].act(game.observe(p), game.legal_mask(), PlayerView(game, p)))
    return game


def test_specs_parse_into_names_and_options():
    assert parse_spec("random") == ("random", {})
    assert parse_spec("ismcts:seconds=0.1,iterations=50") == ("ismcts", {"seconds": 0.1, "iterations": 50})
    assert parse_spec("model:runs/best.zip") == ("model", {"path": "runs/best.zip"})


@pytest.mark.parametrize(
    "spec, message",
    [
        ("greedy", "unknown agent"),
        ("ismcts:seconds", "not key=value"),
        ("model", "needs a path"),
        (
            "ismcts:pool=3",
            "agent 'ismcts' has no option 'pool' in 'ismcts:pool=3'; its options: iterations, seconds, depth",
        ),
        ("ismcts:iterations=0,seconds=0", "budget"),
        ("ismcts:policy=greedy", "policy must be"),
        ("ismcts:horizon=game", "horizon must be"),
        ("ismcts:opponents=random", "opponents must be"),
        ("ismcts:width=-1", "width must be an int from 0 to 1,000"),
        ("ismcts:depth=0", "depth must be an int from 1"),
        ("ismcts:confidence=-1", "confidence must be a number from 0"),
        ("ismcts:seconds=nan", "seconds must be a number from 0 to 3,600, got nan"),
        ("ismcts:seconds=inf", "seconds must be a number from 0 to 3,600, got inf"),
        ("ismcts:iterations=1e400", "iterations must be an int from 0 to 10,000,000, got inf"),
        ("ismcts:iterations=0.5", "iterations must be an int from 0 to 10,000,000, got 0.5"),
        ("ismcts:rounds=" + "9" * 30, "rounds must be an int from 1 to 1,000"),
        ("ismcts:exploration=nan", "exploration must be a number from 0 to 100, got nan"),
        ("ismcts:seconds=fast", "seconds must be a number from 0 to 3,600, got 'fast'"),
        ("model:/nonexistent.zip", "is not trusted"),
        ("model:/nonexistent.zip,trust=true", "no such file: /nonexistent.zip"),
    ],
)
def test_bad_specs_name_the_problem(spec, message):
    with pytest.raises(ConfigError, match=message):
        make_agent(spec)


def test_random_agent_is_reproducible_from_its_seed():
    def actions(seed):
        game = Game(3, seed=5, log=False)
        agents = [RandomAgent() for _ in range(3)]
        for seat, agent in enumerate(agents):
            agent.reset(seed=seed + seat)
        chosen = []
        while not game.is_over and len(chosen) < 200:
            p = game.current_player
            chosen.append(agents[p].act(game.observe(p), game.legal_mask(), PlayerView(game, p)))
            game.step(chosen[-1])
        return chosen

    assert actions(1) == actions(1) != actions(2)


@pytest.mark.parametrize(
    "n, variant, options",
    [
        (2, {}, {"width": 3}),
        (3, {"point_variant": True}, {"depth": 3, "width": 4}),
        (4, {}, {"policy": "random", "guide": "none", "opponents": "search", "horizon": "moves", "depth": 4}),
        (5, {"auto_forced": False}, {"rollout": 0}),
    ],
)
def test_ismcts_plays_legal_games(n, variant, options):
    game = Game(n, seed=n, log=False, round_limit=2, **variant)
    search = ISMCTSAgent(**{"iterations": 12, "seconds": 0, "rollout": 2, **options})
    agents = [search] + [RandomAgent() for _ in range(n - 1)]
    assert play(game, agents).is_over


def test_ismcts_is_reproducible_with_an_iteration_budget():
    def first_moves(seed):
        game = Game(2, seed=3, log=False)
        agent = ISMCTSAgent(seed=seed, iterations=30, seconds=0)
        moves = []
        while len(moves) < 5:
            p = game.current_player
            moves.append(agent.act(game.observe(p), game.legal_mask(), PlayerView(game, p)))
            game.step(moves[-1])
        return moves

    assert first_moves(4) == first_moves(4)


def first_placement(n, seed):
    """A game at its first placement, the setup played by the heuristic."""
    game = Game(n, seed=seed, log=False)
    heuristic = make_agent("heuristic", seed=0)
    while game.decision()[0] != Task.PLACE:
        p = game.current_player
        game.step(heuristic.act(game.observe(p), game.legal_mask(), PlayerView(game, p)))
    return game


def test_ismcts_spends_its_iteration_budget_in_whole_sweeps():
    game = first_placement(4, seed=1)
    p, legal = game.current_player, np.flatnonzero(game.legal_mask())
    agent = ISMCTSAgent(iterations=100, seconds=0, width=0)
    agent.act(game.observe(p), game.legal_mask(), PlayerView(game, p))
    assert 100 - len(legal) < agent.last_iterations <= 100
    assert agent.last_iterations % len(legal) == 0


def test_ismcts_tries_every_root_move_and_plays_the_best_mean():
    game = first_placement(3, seed=2)
    p, legal = game.current_player, np.flatnonzero(game.legal_mask())
    agent = ISMCTSAgent(iterations=3 * len(legal), seconds=0, width=0, confidence=0)
    move = agent.act(game.observe(p), game.legal_mask(), PlayerView(game, p))
    assert sorted(agent.last_values) == legal.tolist()
    assert agent.last_values[move] == max(agent.last_values.values())


def test_ismcts_leaves_the_heuristic_move_only_for_one_that_beats_it_on_the_same_worlds():
    agent = ISMCTSAgent(iterations=1, seconds=0, confidence=2)
    moves = np.array([3, 5, 7])
    heuristic = np.array([0.10, -0.20, 0.30, 0.00])  # the default, 5, in four worlds
    values = np.array(
        [
            heuristic + [0.05, 0.06, 0.05, 0.06],  # 3: a little better in every world
            heuristic,
            heuristic + [0.90, -0.50, 0.80, -0.40],
        ]
    )  # 7: a better mean, but only by luck
    assert values[2].mean() > values[0].mean()
    assert agent._choice(moves, values, default=5) == 3
    assert agent._choice(moves, values[[1, 1, 2]], default=5) == 5  # nothing sure beats it
    assert agent._choice(moves, values[:, :1], default=5) == 5  # one world proves nothing
    assert agent._choice(moves, values, default=None) == 7  # no confidence: the best mean


def test_ismcts_out_of_time_before_one_world_plays_the_heuristic_move():
    game = first_placement(4, seed=3)
    p = game.current_player
    agent, heuristic = ISMCTSAgent(seed=9, seconds=1e-9), make_agent("heuristic", seed=9)
    move = agent.act(game.observe(p), game.legal_mask(), PlayerView(game, p))
    assert move == heuristic.act(game.observe(p), game.legal_mask(), PlayerView(game, p))
    assert agent.last_iterations == 0 and agent.last_values == {}


def test_ismcts_width_narrows_the_root_to_the_best_placements():
    game = first_placement(3, seed=2)
    p = game.current_player
    agent = ISMCTSAgent(iterations=30, seconds=0, width=3, confidence=0)
    agent.act(game.observe(p), game.legal_mask(), PlayerView(game, p))
    assert len(agent.last_values) == 3 and all(game.legal_mask()[a] for a in agent.last_values)
    legal = np.flatnonzero(game.legal_mask())
    worst = best_placements(game, len(legal))[-1]  # the heuristic's move joins the best three
    moves = agent._root_moves(game, legal, default=worst)
    assert len(moves) == 4 and worst in moves


def test_any_agent_is_an_opponent_of_the_gym_environment():
    env = SingleAgentEnv(num_players=3, opponents=[RandomAgent(seed=1), ISMCTSAgent(iterations=10, seconds=0)])
    env.reset(seed=0)
    done = False
    while not done:
        *_, terminated, truncated, _ = env.step(env.action_space.sample())
        done = terminated or truncated
    assert env.game.is_over


def test_a_saved_maskable_ppo_model_loads_as_an_agent(tmp_path):
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", SingleAgentEnv(num_players=2), n_steps=64, batch_size=64, seed=0)
    model.learn(64)
    model.save(tmp_path / "tiny.zip")
    agent = make_agent(f"model:{tmp_path / 'tiny.zip'},trust=true", seed=0)
    assert play(Game(2, seed=1, log=False, round_limit=4), [agent, RandomAgent()]).is_over
    game = Game(2, seed=2, log=False)
    obs, mask = game.observe(game.current_player), game.legal_mask()
    probs = agent.probabilities(obs[None], mask[None])[0]
    assert probs[mask == 0].sum() == 0 and probs.sum() == pytest.approx(1.0, abs=1e-5)
    assert agent.act(obs, mask) == int(np.argmax(probs))


def test_a_file_that_is_not_a_model_is_refused(tmp_path):
    bad = tmp_path / "notes.zip"
    bad.write_text("not a model")
    with pytest.raises(ConfigError, match="not a MaskablePPO model"):
        make_agent(f"model:{bad},trust=true")


def test_a_model_file_too_large_is_refused_before_it_is_read(tmp_path, monkeypatch):
    from sb3_contrib import MaskablePPO

    monkeypatch.setattr(MaskablePPO, "load", lambda *args, **kwargs: pytest.fail("the file was read"))
    big = tmp_path / "big.zip"
    with open(big, "wb") as file:
        file.truncate(150 * 2**20)  # sparse: no disk used
    with pytest.raises(ConfigError, match="big.zip is larger than 100 MB"):
        make_agent(f"model:{big},trust=true")
    bomb = tmp_path / "bomb.zip"  # small, but unpacks to more than 100 MB
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("data", "w", force_zip64=True) as member:
            for _ in range(101):
                member.write(bytes(2**20))
    assert bomb.stat().st_size < 2**20
    with pytest.raises(ConfigError, match="bomb.zip unpacked is larger than 100 MB"):
        make_agent(f"model:{bomb},trust=true")


def test_agent_base_class_requires_act():
    with pytest.raises(NotImplementedError):
        Agent().act(None, None, None)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_shipped_network_for_a_table_size_is_named_from_anywhere(players, tmp_path, monkeypatch):
    from agents import locate
    from agents.trained import POLICIES

    monkeypatch.chdir(tmp_path)
    agent = make_agent(f"policy:shipped-{players}p")
    assert Path(agent.path) == POLICIES[players]
    assert locate(f"policy:shipped-{players}p,deterministic=false") == f"policy:{POLICIES[players]},deterministic=false"
    game = Game(players, seed=players, log=False)
    assert game.legal_mask()[agent.act(game.observe(game.current_player), game.legal_mask())] == 1
    with pytest.raises(ConfigError, match="no such file: shipped-6p"):
        make_agent("policy:shipped-6p")

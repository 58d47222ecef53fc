"""The agent interface, the spec parser, IS-MCTS and trained-model agents."""
import numpy as np
import pytest

from agents import Agent, RandomAgent, make_agent, parse_spec
from agents.ismcts import ISMCTSAgent
from tribune_env import ConfigError, Game, PlayerView, SingleAgentEnv


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


@pytest.mark.parametrize("spec, message", [
    ("greedy", "unknown agent"), ("ismcts:seconds", "not key=value"), ("model", "needs a path"),
    ("ismcts:depth=3", "bad options"), ("ismcts:iterations=0,seconds=0", "budget"),
    ("ismcts:policy=greedy", "policy must be"), ("ismcts:horizon=game", "horizon must be"),
    ("ismcts:opponents=random", "opponents must be"), ("ismcts:width=-1", "width >= 0"),
    ("model:/nonexistent.zip", "no model file"),
])
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


@pytest.mark.parametrize("n, variant, options", [
    (2, {}, {"width": 3}),
    (3, {"point_variant": True}, {"horizon": "round", "prior": 1.0}),
    (4, {}, {"policy": "random", "guide": "none", "opponents": "search", "horizon": "moves"}),
    (5, {"auto_forced": False}, {"rollout": 0}),
])
def test_ismcts_plays_legal_games(n, variant, options):
    game = Game(n, seed=n, log=False, round_limit=2, **variant)
    search = ISMCTSAgent(**{"iterations": 12, "seconds": 0, "rollout": 2, "determinizations": 4, **options})
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


def test_ismcts_respects_its_iteration_budget():
    game = Game(4, seed=1, log=False)
    agent = ISMCTSAgent(iterations=25, seconds=0)
    p = game.current_player
    agent.act(game.observe(p), game.legal_mask(), PlayerView(game, p))
    assert agent.last_iterations == 25


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
    agent = make_agent(f"model:{tmp_path / 'tiny.zip'}", seed=0)
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
        make_agent(f"model:{bad}")


def test_agent_base_class_requires_act():
    with pytest.raises(NotImplementedError):
        Agent().act(None, None, None)

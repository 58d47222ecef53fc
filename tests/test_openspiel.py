"""Tribune as an OpenSpiel game: OpenSpiel's own checks, its algorithms, and the examples of
docs/openspiel.md, for every player count and victory card."""

import pickle
import re
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import tribune_env.envs.openspiel  # noqa: E402,F401  (registers python_tribune)
from tests.test_conformance import IDS, SETTINGS  # noqa: E402
from tribune_env.envs.openspiel import NAME, state_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def params(n, kw) -> dict:
    return {"players": n, "victory_card": kw.get("victory_card", ""), "point_variant": kw.get("point_variant", False)}


def dealt(game, deal=0, moves=0, seed=0):
    """A state after the chance node and `moves` random legal moves."""
    state = game.new_initial_state()
    state.apply_action(deal)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_the_examples_run(capsys):
    namespace = {}
    for i, block in enumerate(re.findall(r"```python\n(.*?)```", (ROOT / "docs/openspiel.md").read_text(), re.S)):
        exec(compile(block, f"docs/openspiel.md example {i + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "[1659]" in out and "IS-MCTS plays player_" in out
    assert re.search(r"NFSP: a game of \d+ moves, returns \[", out)


def test_the_game_declares_what_it_is():
    game = pyspiel.load_game(NAME, {"players": 3})
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (3, 400, 2**16)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 2**16


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_openspiels_random_simulation_test_passes(n):
    """OpenSpiel's own check: whole random games, serialisation round trips at every state,
    clones, observation and information-state tensors and strings of every seat."""
    pyspiel.random_sim_test(pyspiel.load_game(NAME, {"players": n}), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("n, kw", SETTINGS, ids=IDS)
def test_worlds_resampled_for_a_seat_are_the_same_to_it(n, kw):
    """Along a random game, for the seat to act: every resampled world gives it the same
    information state and observation, and the same legal actions; another seat's private
    cards differ in some world."""
    game = pyspiel.load_game(NAME, params(n, kw))
    state = dealt(game, deal=n, moves=60, seed=n)
    sampler = np.random.RandomState(n).uniform
    others_differ = False
    for _ in range(8):
        player = state.current_player()
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_string(player) == state.observation_string(player)
        assert np.array_equal(world.observation_tensor(player), state.observation_tensor(player))
        assert world.legal_actions() == state.legal_actions()
        hands = world.table.state.hand, state.table.state.hand
        others_differ |= any(not np.array_equal(hands[0][q], hands[1][q]) for q in range(n) if q != player)
        assert np.array_equal(hands[0][player], hands[1][player])
        state.apply_action(int(np.random.default_rng(len(state.history())).choice(state.legal_actions())))
    assert others_differ


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_resampled_world_is_no_closer_to_the_truth_than_chance_allows(n):
    """A resampler that leaked would deal the true hands back more often than an equally
    likely world does. Overlap with the true hidden hands is compared with overlap with an
    independent resampled world: the same distribution if nothing leaks."""
    game = pyspiel.load_game(NAME, {"players": n})
    state = dealt(game, deal=7 * n, moves=40, seed=n)
    player, sampler = state.current_player(), np.random.RandomState(0).uniform

    def overlap(world, reference):
        a, b = world.table.state.hand, reference.table.state.hand
        return sum(int(np.minimum(a[q], b[q]).sum()) for q in range(n) if q != player)

    truth, chance = [], []
    for _ in range(200):
        world, other = state.resample_from_infostate(player, sampler), state.resample_from_infostate(player, sampler)
        truth.append(overlap(world, state))
        chance.append(overlap(world, other))
    spread = np.sqrt(np.var(truth) / len(truth) + np.var(chance) / len(chance))
    assert np.mean(truth) <= np.mean(chance) + 4 * spread + 1e-9


def test_a_state_is_serialised_as_its_deal_and_moves_and_replays():
    game = pyspiel.load_game(NAME, {"players": 4, "victory_card": "cursus-honorum"})
    state = dealt(game, deal=99, moves=300, seed=1)
    text = pyspiel.serialize_game_and_state(game, state)
    assert len(text) < 4000  # the moves, not the engine's state
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert again.table.state_equals(state.table) and again.history() == state.history()
    assert str(again) == str(state) and again_game.get_parameters() == game.get_parameters()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert not clone.table.state_equals(state.table)  # a clone plays on alone


def test_a_resampled_state_pickles_its_own_world():
    game = pyspiel.load_game(NAME, {"players": 3})
    state = dealt(game, deal=5, moves=120, seed=2)
    world = state.resample_from_infostate(state.current_player(), np.random.RandomState(1).uniform)
    again = pickle.loads(pickle.dumps(world))
    assert again.table.state_equals(world.table) and not again.table.state_equals(state.table)


@pytest.mark.parametrize(
    "settings, words",
    [
        ({"players": 6}, "num_players"),
        ({"victory_card": "imperator"}, "victory_card"),
        ({"reward": "points"}, "reward"),
        ({"deals": 0}, "deals"),
    ],
)
def test_bad_parameters_are_refused_by_name(settings, words):
    with pytest.raises(Exception, match=words):
        pyspiel.load_game(NAME, settings)


def test_state_of_wraps_a_game_of_the_engine():
    from tribune_env import Game

    table = Game(3, seed=4)
    state = state_of(table)
    assert state.current_player() == table.current_player and state.legal_actions() == table.legal_actions().tolist()
    assert state.get_game().num_players() == 3
    assert state.information_state_string(1).endswith(table.render(1)) and "setup:" in state.information_state_string(1)
    quiet = state_of(Game(3, seed=4, log=False))  # no log kept: the table as the seat sees it
    assert quiet.information_state_string(1) == table.render(1)


def test_openspiels_ismcts_agent_plays_a_whole_game_and_replays_it():
    """The openspiel-ismcts spec in a tournament game (a tiny budget), twice from one seed."""
    from agents import make_agent
    from training.arena.games import play_game, reset_agents
    from tribune_env import Game

    def play():
        agents = [make_agent("openspiel-ismcts:simulations=2")] + [make_agent("random") for _ in range(3)]
        reset_agents(agents, seed=8)
        game = Game(4, seed=8)
        return play_game(game, agents, ["openspiel-ismcts", "random", "random", "random"]).actions, game

    (first, game), (second, _) = play(), play()
    assert game.is_over and first == second

"""Expert iteration: the root search, its improved policy and the training round (``tribune expert``)."""

import json

import numpy as np
import pytest

pytest.importorskip("torch")

from agents import make_agent  # noqa: E402
from agents.expert import RootSearch, SearchBatch, completed_sigma, softmax  # noqa: E402
from agents.policy import Network, load_policy  # noqa: E402
from training.arena.games import play_game, reset_agents  # noqa: E402
from training.learning.expert import ExpertConfig, Samples, SelfPlay, learned_share, run  # noqa: E402
from training.learning.runs import read_csv  # noqa: E402
from tribune_env import ConfigError, Game  # noqa: E402
from tribune_env.envs.rewards import final_rewards  # noqa: E402
from tribune_env.envs.vector_games import VectorGames  # noqa: E402
from tribune_env.player import PlayerView  # noqa: E402
from tribune_env.tasks import Task  # noqa: E402


def small_network(seed=0, layers=(16,)):
    import torch

    torch.manual_seed(seed)
    game = Game(2, seed=0, log=False)
    return Network(list(layers), game.obs_layout.size, game.A.size)


def searched(players, seed, explore=True, games=6):
    """One search of every game of a batch, after a few random moves."""
    vector = VectorGames(games, seed=seed, num_players=players, threads=1)
    rng = np.random.default_rng(seed)
    for _ in range(3 * players):
        actions = [rng.choice(np.flatnonzero(m)) for m in vector.masks]
        vector.step(np.array(actions))
    rows = np.flatnonzero(np.count_nonzero(vector.masks, axis=1) > 1)
    search = RootSearch(small_network(), candidates=4, worlds=3)
    found = search.search(SearchBatch.of_vector(vector), rows, vector.players[rows],
                          vector.observations[rows], np.random.default_rng(seed), explore)  # fmt: skip
    search.close()
    return vector, rows, found


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_improved_policy_sums_to_one_over_the_legal_moves_only(players):
    vector, rows, found = searched(players, seed=players)
    assert len(rows) > 0
    legal = vector.masks[rows] > 0
    assert np.allclose(found.policy.sum(axis=1), 1.0)
    assert (found.policy[~legal] == 0).all()
    assert (found.policy[legal] > 0).all()
    assert legal[np.arange(len(rows)), found.actions].all()


def test_the_search_replays_exactly_from_its_generator():
    first, second = searched(3, seed=11)[2], searched(3, seed=11)[2]
    assert np.array_equal(first.actions, second.actions)
    assert np.array_equal(first.policy, second.policy)
    assert np.array_equal(first.q, second.q, equal_nan=True)
    other = searched(3, seed=12)[2]
    assert not np.array_equal(first.q, other.q, equal_nan=True)


def test_the_thread_count_changes_nothing():
    vector = VectorGames(8, seed=5, num_players=4, threads=1)
    rows = np.flatnonzero(np.count_nonzero(vector.masks, axis=1) > 1)
    results = []
    for threads in (1, 2):
        search = RootSearch(small_network(), candidates=3, worlds=2, threads=threads)
        found = search.search(SearchBatch.of_vector(vector), rows, vector.players[rows],
                              vector.observations[rows], np.random.default_rng(0), True)  # fmt: skip
        search.close()
        results.append(found)
    assert np.array_equal(results[0].q, results[1].q, equal_nan=True)
    assert np.array_equal(results[0].actions, results[1].actions)


def test_sigma_ranks_the_searched_moves_by_value_and_gives_the_others_the_mixed_value():
    logits = np.array([[0.0, 0.0, 0.0, -np.inf]])
    candidates = np.array([[0, 1]])
    q = np.array([[1.0, -1.0]])
    sigma = completed_sigma(logits, softmax(logits), np.array([0.0]), candidates, q, visits=4)
    weight = 20.0  # (50 + 4 worlds) * 20/54
    assert sigma[0, 0] == pytest.approx(2 * weight)  # the best value, 2 above the least, in the reward's units
    assert sigma[0, 1] == pytest.approx(0.0)  # the least
    # the unsearched legal move: the root's value 0 mixed with the searched mean 0 (equal priors)
    assert sigma[0, 2] == pytest.approx(weight)
    assert sigma[0, 3] == -np.inf
    # values that differ by little move the policy by little: no rescaling stretches them
    close = completed_sigma(logits, softmax(logits), np.array([0.0]), candidates, q / 100, visits=4)
    assert close[0, 0] == pytest.approx(2 * weight / 100)


def test_a_move_that_ends_the_game_is_valued_by_the_rules_not_the_network():
    from agents.heuristic import HeuristicAgent

    heuristic = HeuristicAgent(seed=0)
    game = Game(2, seed=3, log=False)
    while True:  # the heuristic plays on to a decision where some move ends the game
        legal = np.flatnonzero(game.legal_mask())
        ending = {int(a): clone for a in legal for clone in [game.clone()] if (clone.step(int(a)), clone.is_over)[1]}
        if ending and len(legal) > 1:
            break
        game.step(heuristic.choose(game))
    seat = game.current_player
    search = RootSearch(small_network(), candidates=len(legal), worlds=2, threads=1)
    found = search.search(SearchBatch.of_game(game), [0], [seat], game.observe(seat)[None], np.random.default_rng(0))
    for action, clone in ending.items():
        assert not clone.truncated
        (at,) = np.flatnonzero(found.candidates[0] == action)
        assert found.q[0, at] == final_rewards(clone, "win")[seat]  # +1 or -1, in every world


def test_settings_are_checked_and_named():
    with pytest.raises(ConfigError, match="worlds"):
        ExpertConfig(worlds=0)
    with pytest.raises(ConfigError, match="heuristic_share"):
        ExpertConfig(heuristic_share=1.5)
    with pytest.raises(ConfigError, match="unknown setting"):
        ExpertConfig.from_dict({"wrolds": 4})
    with pytest.raises(ConfigError, match="layers"):
        ExpertConfig(layers=[0])


def test_self_play_keeps_a_final_reward_for_every_decision_of_a_finished_game():
    config = ExpertConfig(players=2, games=2, decisions=200, candidates=2, worlds=1, heuristic_share=1.0)
    search = RootSearch(small_network(), 2, 1, threads=1)
    play = SelfPlay(config, search, seed=4)
    samples = Samples(16, play.games.obs_layout.size, play.games.action_size)
    play.play(samples, config.decisions)
    play.close()
    assert samples.count >= 200
    known = samples.for_training()
    assert play.finished.games >= 1 and len(known) > 0
    assert play.finished.solo == play.finished.games  # every game against the heuristic (share 1)
    assert set(np.unique(samples.rewards[known])) <= {-1.0, 1.0, 0.0}
    assert np.allclose(samples.policy[: samples.count].sum(axis=1), 1.0)


def test_held_out_decisions_are_not_trained_on():
    samples = Samples(4, 3, 2)
    samples.add(np.zeros((45, 3)), np.ones((45, 2), dtype=bool), np.full((45, 2), 0.5))
    samples.rewards[:40] = 1.0  # the last five games' decisions still wait for their reward
    assert list(samples.hold_out(20)) == [0, 20, 40]
    assert list(samples.for_training()) == [i for i in range(40) if i not in (0, 20)]


def test_the_learned_share_counts_only_the_moves_the_search_changed():
    before, searched = np.array([1, 2, 3, 4, 7]), np.array([1, 5, 3, 6, 8])
    assert learned_share(before, np.array([9, 5, 9, 4, 8]), searched) == pytest.approx(2 / 3)
    assert np.isnan(learned_share(before, before, before))


def test_a_round_runs_end_to_end_and_its_network_plays_every_table_size(tmp_path):
    config = ExpertConfig(players=2, layers=(16,), rounds=1, games=4, decisions=600, candidates=2, worlds=1,
                          eval_games=2, batch_size=64, seed=3)  # fmt: skip
    rows = run(config, tmp_path, echo=lambda *_: None)
    assert rows[0]["trained_on"] > 0 and np.isfinite(rows[0]["policy_loss"])
    assert rows[0]["games"] >= 1 and -1 <= rows[0]["solo_reward"] <= 1
    assert 0 <= rows[0]["search_learned"] <= 1  # 600 decisions: some held out where the search changed the move
    assert (tmp_path / "curve.png").stat().st_size > 0
    assert read_csv(tmp_path / "rounds.csv")[0]["round"] == 1
    assert json.loads((tmp_path / "config.json").read_text())["decisions"] == 600
    load_policy(tmp_path / "policy.pt")
    for players in (2, 3, 4, 5):
        for spec in (f"policy:{tmp_path / 'policy.pt'}", f"expert:net={tmp_path / 'policy.pt'},candidates=2,worlds=1"):
            game = Game(players, seed=players, log=False)
            agents = [make_agent(spec)] + [make_agent("random") for _ in range(players - 1)]
            reset_agents(agents, players)
            play_game(game, agents, [spec] + ["random"] * (players - 1))
            assert game.is_over


def test_a_run_resumes_from_its_last_round_and_refuses_other_settings(tmp_path):
    config = ExpertConfig(players=2, layers=(16,), rounds=1, games=4, decisions=300, candidates=2, worlds=1,
                          eval_games=0, batch_size=64, seed=3)  # fmt: skip
    run(config, tmp_path, echo=lambda *_: None)
    rows = run(config.__class__(**{**config.__dict__, "rounds": 2}), tmp_path, resume=True, echo=lambda *_: None)
    assert [r["round"] for r in rows] == [1, 2]
    with pytest.raises(ConfigError, match="other settings"):
        run(config.__class__(**{**config.__dict__, "worlds": 2}), tmp_path, resume=True)


def test_a_damaged_checkpoint_is_refused_by_name(tmp_path):
    config = ExpertConfig(players=2, layers=(16,), rounds=1, games=2, decisions=8, candidates=2, worlds=1,
                          eval_games=0, seed=3)  # fmt: skip
    run(config, tmp_path, echo=lambda *_: None)
    more = ExpertConfig(**{**config.__dict__, "rounds": 2})
    (tmp_path / "checkpoint.pt").write_bytes(b"PK\x03\x04 not a checkpoint")
    with pytest.raises(ConfigError, match="checkpoint"):
        run(more, tmp_path, resume=True)
    (tmp_path / "checkpoint.pt").unlink()
    with pytest.raises(ConfigError, match="no such file"):
        run(more, tmp_path, resume=True)


@pytest.mark.parametrize("option", ["candidates=0", "worlds=x", "rounds=2.5", "worlds=1000"])
def test_the_agent_refuses_options_out_of_range_by_name(option):
    from agents.trained import POLICIES

    with pytest.raises(ConfigError, match=option.split("=")[0]):
        make_agent(f"expert:net={POLICIES[2]},{option}")


def test_the_command_runs_a_recipe_and_names_a_bad_one(tmp_path):
    from click.testing import CliRunner

    from training.cli import main

    recipe = tmp_path / "expert.toml"
    recipe.write_text("players = 3\nlayers = [16]\nrounds = 1\ngames = 2\ndecisions = 16\nworlds = 1\neval_games = 0\n")
    result = CliRunner().invoke(main, ["expert", "--config", str(recipe), "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "expert iteration at 3 players into" in result.output and "1 round of 16 searched decisions" in result.output
    load_policy(tmp_path / "run" / "policy.pt")
    result = CliRunner().invoke(main, ["expert", "--out", str(tmp_path / "run"), "--resume", "--rounds", "2"])
    assert result.exit_code == 0, result.output
    assert [row["round"] for row in read_csv(tmp_path / "run" / "rounds.csv")] == [1, 2]
    recipe.write_text("players = 3\nwrolds = 2\n")
    result = CliRunner().invoke(main, ["expert", "--config", str(recipe), "--out", str(tmp_path / "other")])
    assert result.exit_code == 1 and "unknown setting(s) 'wrolds'" in result.output


def test_the_agent_searches_only_the_kinds_it_is_given():
    from agents.trained import POLICIES

    net = POLICIES[2]
    game = Game(2, seed=3, log=False)
    agents = [make_agent(f"expert:net={net},kinds=Place"), make_agent(f"policy:{net}")]
    reset_agents(agents, 3)
    searched = agents[0].search.leaves
    while not game.is_over:
        seat = game.current_player
        view_kind = game.decision()[0]
        before = agents[0].search.leaves
        action = agents[seat].act(game.observe(seat), game.legal_mask(), PlayerView(game, seat))
        if seat == 0 and view_kind != Task.PLACE:
            assert agents[0].search.leaves == before  # the network's move, no search
        game.step(action)
    assert agents[0].search.leaves > searched  # the placements were searched
    with pytest.raises(ConfigError, match="unknown decision kind.*'plase'"):
        make_agent(f"expert:net={net},kinds=plase")

"""The RLlib environment, its modules and the league, as RLlib and its users call them.

Ray itself is started only by the tests of training and tournaments (tests/test_ray.py);
these run in this process.
"""

import numpy as np
import pytest
import torch

pytest.importorskip("ray")  # the ray extra: the full tier

from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from agents import make_agent
from agents.rllib import build_module, load_policy, save_policy
from agents.rllib_modules import BaselineModule
from tests.test_conformance import IDS, SETTINGS
from training.arena.games import derive_seed
from training.rllib.league import MAIN, BaselineMoves, League
from tribune_env import ConfigError, Game, IllegalActionError
from tribune_env.envs.multi_agent import ACTION_MASK, OBSERVATIONS, TribuneMultiAgentEnv, agent_id, seat_of
from tribune_env.envs.rewards import final_rewards


def play_random(env, rng, on_step=None):
    """Play one game with random legal actions; the last step's results."""
    observations, _ = env.reset(seed=int(rng.integers(2**31)))
    while True:
        assert len(observations) == 1  # turn-based: only the agent to act observes
        ((acting, observation),) = observations.items()
        assert seat_of(acting) == env.game.current_player
        action = int(rng.choice(np.flatnonzero(observation[ACTION_MASK])))
        results = env.step({acting: action})
        if on_step is not None:
            on_step(results)
        observations, rewards, terminated, truncated, infos = results
        if terminated["__all__"] or truncated["__all__"]:
            return results


@pytest.mark.parametrize("n, kw", SETTINGS, ids=IDS)
def test_rllib_validation_passes_and_games_end_with_every_agents_reward(n, kw):
    """RLlib's own environment check (which steps an action sampled without the mask), then a
    whole game: every agent gets its observation and its final reward at the end."""
    env = TribuneMultiAgentEnv({"num_players": n, **kw})
    check_multiagent_environments(env)
    observations, rewards, terminated, truncated, infos = play_random(env, np.random.default_rng(n))
    everyone = [agent_id(seat) for seat in range(n)]
    assert sorted(observations) == sorted(rewards) == everyone
    assert rewards == {a: pytest.approx(float(r)) for a, r in zip(everyone, final_rewards(env.game, "win"))}
    assert (terminated["__all__"], truncated["__all__"]) == (env.game.terminated, env.game.truncated)
    assert terminated["__all__"] != truncated["__all__"]
    assert infos[everyone[0]]["winners"] == env.game.winners()
    for a in everyone:
        assert env.observation_spaces[a].contains(observations[a])
        assert not observations[a][ACTION_MASK].any()  # no one acts in a finished game


@pytest.mark.parametrize("n, kw", SETTINGS, ids=IDS)
def test_the_pettingzoo_environment_in_rllibs_wrapper_passes_its_validation(n, kw):
    """What the issue first saw fail: the PettingZoo environment in RLlib's PettingZooEnv.
    Its unmasked sample is now a legal move too, and plain illegal actions still raise."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    import tribune_env.envs

    wrapped = PettingZooEnv(tribune_env.envs.env(num_players=n, **kw))
    check_multiagent_environments(wrapped)
    observations, _ = wrapped.reset(seed=1)
    ((acting, observation),) = observations.items()
    with pytest.raises(IllegalActionError):
        wrapped.step({acting: int(np.flatnonzero(observation["action_mask"] == 0)[0])})


def test_only_the_acting_agent_is_rewarded_during_the_game():
    env = TribuneMultiAgentEnv({"num_players": 3})
    rewards_seen = []
    play_random(env, np.random.default_rng(0), on_step=lambda results: rewards_seen.append(results[1]))
    for before_end in rewards_seen[:-1]:
        assert list(before_end.values()) == [0.0] and len(before_end) == 1
    assert len(rewards_seen[-1]) == 3


def test_a_game_cut_at_the_round_limit_is_truncated_not_terminated():
    env = TribuneMultiAgentEnv({"num_players": 4, "round_limit": 1, "reward": "rank"})
    _, rewards, terminated, truncated, _ = play_random(env, np.random.default_rng(1))
    assert truncated == {**{agent_id(s): True for s in range(4)}, "__all__": True}
    assert terminated == {**{agent_id(s): False for s in range(4)}, "__all__": False}
    assert env.game.truncated
    assert list(rewards.values()) == pytest.approx(list(final_rewards(env.game, "score")))


def test_the_same_seed_gives_the_same_games():
    def trace(seed):
        env, rng, seen = TribuneMultiAgentEnv({"num_players": 4}), np.random.default_rng(0), []
        observations, _ = env.reset(seed=seed)
        for _ in range(300):
            ((acting, observation),) = observations.items()
            seen.append(observation[OBSERVATIONS].copy())
            observations, *_ = env.step({acting: int(rng.choice(np.flatnonzero(observation[ACTION_MASK])))})
        return np.array(seen)

    assert np.array_equal(trace(11), trace(11))
    assert not np.array_equal(trace(11), trace(12))


def test_bad_actions_raise_and_leave_the_game_as_it_was():
    env = TribuneMultiAgentEnv({"num_players": 2})
    observations, _ = env.reset(seed=3)
    ((acting, observation),) = observations.items()
    other = agent_id(1 - seat_of(acting))
    before = env.game.to_dict()
    illegal = int(np.flatnonzero(observation[ACTION_MASK] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step({acting: illegal})
    with pytest.raises(IllegalActionError, match=f"{acting}'s turn alone"):
        env.step({other: int(np.flatnonzero(observation[ACTION_MASK])[0])})
    with pytest.raises(IllegalActionError, match="turn alone"):
        env.step({})
    assert env.game.to_dict() == before


def test_a_sample_drawn_without_the_mask_is_a_legal_move_even_after_a_reset():
    """What RLlib's validation does: sample from the action space, then step with it."""
    env = TribuneMultiAgentEnv({"num_players": 5})
    observations, _ = env.reset(seed=4)
    ((acting, observation),) = observations.items()
    for _ in range(50):
        assert observation[ACTION_MASK][env.get_action_space(acting).sample()]
    sample = env.get_action_space(acting).sample()
    env.reset(seed=5)
    acting_now = agent_id(env.game.current_player)
    env.step({acting_now: sample})  # stands for a legal move of the new decision


def test_unknown_settings_are_refused():
    with pytest.raises(ConfigError, match="unknown setting"):
        TribuneMultiAgentEnv({"players": 3})
    with pytest.raises(ConfigError):
        TribuneMultiAgentEnv({"num_players": 6})
    with pytest.raises(ConfigError, match="reward"):
        TribuneMultiAgentEnv({"reward": "money"})


# ----------------------------------------------------------------- modules and policy files
def batch_of(observations: np.ndarray, masks: np.ndarray) -> dict:
    return {Columns.OBS: {OBSERVATIONS: torch.as_tensor(observations), ACTION_MASK: torch.as_tensor(masks)}}


def test_the_masked_module_samples_legal_actions_only():
    torch.manual_seed(0)
    module = build_module([32])
    rng = np.random.default_rng(0)
    masks = (rng.random((64, 400)) < 0.02).astype(np.float32)
    masks[np.arange(64), rng.integers(400, size=64)] = 1.0
    observations = rng.normal(size=(64, 1659)).astype(np.float32)
    logits = module.forward_exploration(batch_of(observations, masks))[Columns.ACTION_DIST_INPUTS]
    samples = torch.distributions.Categorical(logits=logits).sample((200,)).numpy()
    assert masks[np.arange(64), samples].all()
    values = module.compute_values(batch_of(observations, masks))
    assert values.shape == (64,)


def test_the_baseline_module_plays_what_its_mask_allows():
    module = BaselineModule(observation_space=None, action_space=None)
    masks = np.zeros((3, 400), np.float32)
    masks[[0, 1, 2], [7, 250, 399]] = 1.0
    out = module.forward_exploration(batch_of(np.zeros((3, 1659), np.float32), masks))
    assert out[Columns.ACTIONS].tolist() == [7, 250, 399]


def test_a_policy_file_round_trips_and_plays(tmp_path):
    module = build_module([16, 8])
    path = tmp_path / "policy.pt"
    save_policy(module, [16, 8], path)
    loaded = load_policy(path)
    for name, tensor in module.state_dict().items():
        assert torch.equal(loaded.state_dict()[name], tensor)
    agent = make_agent(f"rllib:{path}", seed=0)
    game = Game(3, seed=2, log=False)
    for _ in range(100):
        action = agent.act(game.observe(game.current_player), game.legal_mask())
        game.step(action)


def test_bad_policy_files_are_refused_without_running_them(tmp_path):
    import pickle

    good = tmp_path / "good.pt"
    save_policy(build_module([8]), [8], good)
    data = good.read_bytes()

    class Payload:
        def __reduce__(self):
            return (exec, (f"open({str(tmp_path / 'ran')!r}, 'w').write('ran')",))

    cases = {
        "empty": b"",
        "text": b"not a policy",
        "truncated": data[: len(data) // 2],
        "pickle with code": pickle.dumps(Payload()),
    }
    torch.save({"format": "tribune-rllib-policy", "version": 2, "layers": [8], "state": {}}, tmp_path / "v2.pt")
    torch.save({"format": "tribune-rllib-policy", "version": 1, "layers": [9999], "state": {}}, tmp_path / "wide.pt")
    state = build_module([8]).state_dict()
    torch.save({"format": "tribune-rllib-policy", "version": 1, "layers": [16], "state": state}, tmp_path / "shape.pt")
    torch.save({"format": "tribune-rllib-policy", "version": 1, "layers": [8], "state": [1, 2]}, tmp_path / "list.pt")
    for name, content in cases.items():
        (tmp_path / f"{name}.pt").write_bytes(content)
    for path in sorted(tmp_path.glob("*.pt")):
        if path.name == "good.pt":
            continue
        with pytest.raises(ConfigError, match=str(path.name)):
            load_policy(path)
    assert not (tmp_path / "ran").exists()
    with pytest.raises(ConfigError, match="no such file"):
        make_agent(f"rllib:{tmp_path / 'missing.pt'}")


def test_random_damage_to_a_policy_file_is_a_config_error(tmp_path):
    """Fuzz: bytes flipped, cut or appended anywhere; loading raises ConfigError or succeeds, never more."""
    good = tmp_path / "good.pt"
    save_policy(build_module([8]), [8], good)
    data = bytearray(good.read_bytes())
    rng = np.random.default_rng(0)
    for trial in range(60):
        damaged = bytearray(data)
        for _ in range(int(rng.integers(1, 8))):
            damaged[int(rng.integers(len(damaged)))] = int(rng.integers(256))
        if trial % 3 == 1:
            damaged = damaged[: int(rng.integers(len(damaged)))]
        path = tmp_path / f"damaged{trial}.pt"
        path.write_bytes(bytes(damaged))
        try:
            load_policy(path)
        except ConfigError:
            pass


# ----------------------------------------------------------------- the league
def test_the_league_seats_main_once_and_draws_the_others_by_weight():
    league = League(4, (("baseline_0", 3.0), ("baseline_1", 1.0)))
    lineups = [league.lineup(f"episode-{k}") for k in range(3000)]
    assert all(lineup.count(MAIN) == 1 for lineup in lineups)
    assert league.lineup("episode-7") == lineups[7]  # every seat of a game maps from one draw
    learner_seats = np.bincount([lineup.index(MAIN) for lineup in lineups], minlength=4) / len(lineups)
    assert learner_seats == pytest.approx([0.25] * 4, abs=0.03)
    others = [m for lineup in lineups for m in lineup if m != MAIN]
    assert others.count("baseline_0") / len(others) == pytest.approx(0.75, abs=0.02)


class Vector:
    """What the env runner hands a connector: a vector of environments."""

    def __init__(self, envs):
        self.envs = envs


@pytest.mark.parametrize("spec", ["heuristic", "random"])
def test_baseline_seats_play_their_agents_moves(spec):
    """The connector narrows a baseline seat's mask to its agent's move, the agent reset per game
    from the game's seed and the seat, as a tournament resets it."""
    env = TribuneMultiAgentEnv({"num_players": 3})
    league = League(3, (("baseline_0", 1.0),))
    connector = BaselineMoves(env=Vector([env]), specs={"baseline_0": spec})
    for game_number in range(2):
        episode = MultiAgentEpisode(
            observation_space=env.observation_spaces, action_space=env.action_spaces, agent_to_module_mapping_fn=league
        )
        observations, infos = env.reset(seed=game_number)
        episode.add_env_reset(observations=observations, infos=infos)
        references = {seat: make_agent(spec) for seat in range(3)}
        for seat, agent in references.items():
            agent.reset(seed=derive_seed(env.game_seed, seat))
        baseline_moves = 0
        for _ in range(400):
            connector(rl_module=None, batch={}, episodes=[episode])
            ((acting, observation),) = episode.get_observations(-1).items()
            seat = seat_of(acting)
            if episode.module_for(acting) == MAIN:
                assert np.array_equal(observation[ACTION_MASK], env.game.legal_mask())  # untouched
                action = int(np.flatnonzero(observation[ACTION_MASK])[0])
            else:
                game = env.game
                expected = references[seat].act(game.observe(seat), game.legal_mask(), _view(game, seat))
                assert np.flatnonzero(observation[ACTION_MASK]).tolist() == [expected]
                action, baseline_moves = expected, baseline_moves + 1
            observations, rewards, terminated, truncated, infos = env.step({acting: action})
            episode.add_env_step(
                observations=observations,
                actions={acting: action},
                rewards=rewards,
                infos=infos,
                terminateds=terminated,
                truncateds=truncated,
            )
            if episode.is_done:
                break
        assert baseline_moves > 50


def _view(game, seat):
    from tribune_env import PlayerView

    return PlayerView(game, seat)


def test_an_rllib_module_imitates_the_heuristic_as_a_maskableppo_policy_does():
    """The RLlib backend's warm start: the same demonstrations and loss, through the module's masked logits and values."""
    from training.learning.imitation import demonstrations, imitate
    from training.rllib.trainer import module_outputs

    torch.manual_seed(0)
    data = demonstrations(12, players=2, reward="win", seed=1)
    module = build_module([64])
    history = imitate(module, module_outputs(module), data, epochs=8, batch_size=64, learning_rate=3e-3, seed=0)
    chance = float(np.mean(1.0 / data.masks.sum(axis=1)))
    assert history[-1]["accuracy"] > 1.5 * chance
    assert history[-1]["value_loss"] < history[0]["value_loss"]

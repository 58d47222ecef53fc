"""ShardedVectorEnv: VectorEnv's games on worker processes, the same games as its shards alone."""

import numpy as np
import pytest

from agents import make_agent
from training.learning.shards import ShardedVectorEnv, shard_seeds, shard_sizes
from tribune_env import ConfigError, IllegalActionError
from tribune_env.envs import OpponentPool
from tribune_env.envs.vector import VectorEnv
from tribune_env.player import random_legal


def pool():
    return OpponentPool(["random", make_agent("heuristic", seed=4)], [1.0, 1.0])


def test_shards_play_exactly_the_games_of_their_own_vector_envs():
    """Game for game, the sharded env is its shards side by side: reset, steps, an added
    opponent, card weights, and a step refused for one bad action, which must step no shard at all."""
    settings = {"num_players": 3, "reward": "rank"}
    alone = [
        VectorEnv(num_envs=n, seed=s, opponents=pool(), **settings)
        for n, s in zip(shard_sizes(5, 2), shard_seeds(11, 2))
    ]
    rng = np.random.default_rng(0)
    with ShardedVectorEnv(num_envs=5, shards=2, seed=11, opponents=pool(), **settings) as env:
        assert env.num_envs == 5 and env.observation_space == alone[0].observation_space
        assert np.array_equal(env.reset(), np.concatenate([a.reset() for a in alone]))
        assert env.reset_infos == [info for a in alone for info in a.reset_infos]
        finished = 0
        for step in range(60):
            masks = env.action_masks()
            assert np.array_equal(masks, np.concatenate([a.action_masks() for a in alone]))
            if step == 10:
                env.set_card_weights({"pax-romana": 1})
                for a in alone:
                    a.set_card_weights({"pax-romana": 1})
            if step == 20:
                env.add_opponent(make_agent("heuristic", seed=9), 50.0)
                for a in alone:
                    a.add_opponent(make_agent("heuristic", seed=9), 50.0)
            if step == 30:
                bad = random_legal(masks.astype(np.int8), rng)
                bad[4] = int(np.flatnonzero(~masks[4])[0])
                with pytest.raises(IllegalActionError, match="game 4"):
                    env.step(bad)
            actions = random_legal(masks.astype(np.int8), rng)
            obs, rewards, dones, infos = env.step(actions)
            parts = [a.step(actions[lo:hi]) for a, lo, hi in zip(alone, (0, 3), (3, 5))]
            assert np.array_equal(obs, np.concatenate([p[0] for p in parts]))
            assert np.array_equal(rewards, np.concatenate([p[1] for p in parts]))
            assert np.array_equal(dones, np.concatenate([p[2] for p in parts]))
            expected = [info for p in parts for info in p[3]]
            assert [i.get("winners") for i in infos] == [i.get("winners") for i in expected]
            assert [i.get("victory_card") for i in infos] == [i.get("victory_card") for i in expected]
            finished += int(dones.sum())
        assert finished > 0  # games ended and were replaced on the way


def test_a_shards_error_is_raised_in_the_caller_and_bad_shards_are_refused():
    with pytest.raises(ConfigError, match="num_players"):
        ShardedVectorEnv(num_envs=4, shards=2, num_players=1)
    with pytest.raises(ConfigError, match="shards must be 1 to num_envs"):
        ShardedVectorEnv(num_envs=2, shards=3)
    with ShardedVectorEnv(num_envs=2, shards=2, num_players=2) as env, pytest.raises(ConfigError, match="reset"):
        env.action_masks()


def test_shard_sizes_and_seeds():
    assert shard_sizes(10, 3) == [4, 3, 3] and shard_sizes(4, 4) == [1, 1, 1, 1]
    assert shard_seeds(7, 3) == shard_seeds(7, 3) and len(set(shard_seeds(7, 3))) == 3
    assert shard_seeds(None, 2) == [None, None]

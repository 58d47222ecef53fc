"""Steps per second of random legal play through each framework's path, beside the engine's own.

One process, one core (torch on one thread). Each path plays whole 3-player games with
uniformly random legal actions, as its framework's idiom steps them (docs/frameworks.md),
for about --seconds each after one warm-up game; a step is one decision of one seat. The
figures go into docs/frameworks.md.

    python benchmarks/frameworks_speed.py [--seconds 10] [--players 3]
"""

import argparse
import time

import numpy as np

from tribune_env.player import random_action


def engine(n, rng):
    from tribune_env import Game

    game = Game(n, seed=int(rng.integers(2**31)), log=False)
    while True:
        if game.is_over:
            game = Game(n, seed=int(rng.integers(2**31)), log=False)
        game.observe(game.current_player)
        game.step(random_action(game.legal_mask(), rng))
        yield


def pettingzoo(n, rng):
    from tribune_env.envs import tribune_v0

    env = tribune_v0.env(num_players=n)
    while True:
        env.reset(seed=int(rng.integers(2**31)))
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            done = termination or truncation
            env.step(None if done else random_action(observation["action_mask"], rng))
            if not done:
                yield


def gymnasium_vector(n, rng):
    import gymnasium as gym

    envs = gym.make_vec("tribune_env.envs:Tribune-v0", num_envs=4, num_players=n)
    envs.reset(seed=int(rng.integers(2**31)))
    while True:
        envs.step(envs.action_space.sample())
        for _ in range(4):
            yield


def sb3(n, rng):
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env

    from tribune_env.player import random_legal

    env = make_vec_env("tribune_env.envs:Tribune-v0", n_envs=4, env_kwargs={"num_players": n})
    env.reset()
    while True:
        env.step(random_legal(get_action_masks(env), rng))
        for _ in range(4):
            yield


def rllib(n, rng):
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from tribune_env.envs import tribune_v0

    env = PettingZooEnv(tribune_v0.env(num_players=n))
    while True:
        observations, _ = env.reset(seed=int(rng.integers(2**31)))
        while True:
            ((agent, observation),) = observations.items()
            observations, _, terminated, truncated, _ = env.step(
                {agent: random_action(observation["action_mask"], rng)}
            )
            yield
            if terminated["__all__"] or truncated["__all__"]:
                break


def torchrl(n, rng):
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    from tribune_env.envs import tribune_v0

    env = PettingZooWrapper(tribune_v0.env(num_players=n), use_mask=True)
    while True:
        rollout = env.rollout(200, break_when_any_done=True)
        for _ in range(rollout.batch_size[0]):
            yield


def tianshou(n, rng):
    from tianshou.env import PettingZooEnv

    from tribune_env.envs import tribune_v0

    env = PettingZooEnv(tribune_v0.env(num_players=n))
    while True:
        observation, _ = env.reset()
        done = False
        while not done:
            observation, _, terminated, truncated, _ = env.step(random_action(observation["mask"], rng))
            done = terminated or truncated
            yield


def openspiel(n, rng):
    import pyspiel

    import tribune_env.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_tribune", {"players": n})
    while True:
        state = game.new_initial_state()
        state.apply_action(int(rng.integers(game.max_chance_outcomes())))
        while not state.is_terminal():
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            yield


PATHS = {
    "the engine (Game.step, with the observation)": engine,
    "PettingZoo AEC (tribune_v0.env, agent_iter)": pettingzoo,
    "Gymnasium vector (gym.make_vec, 4 sync envs, sampled)": gymnasium_vector,
    "SB3 make_vec_env (4 DummyVecEnv envs)": sb3,
    "RLlib PettingZooEnv": rllib,
    "TorchRL PettingZooWrapper (rollout)": torchrl,
    "Tianshou PettingZooEnv": tianshou,
    "OpenSpiel python_tribune (apply_action, observation tensor)": openspiel,
}


def measure(path, n: int, seconds: float, seed: int) -> float:
    steps = path(n, np.random.default_rng(seed))
    for _ in range(200):  # warm-up: imports, compilation
        next(steps)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            next(steps)
        count += 100
    return count / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    print(f"| path ({args.players} players, random legal play) | steps/s |")
    print("|---|---:|")
    for name, path in PATHS.items():
        print(f"| {name} | {measure(path, args.players, args.seconds, args.seed):,.0f} |", flush=True)


if __name__ == "__main__":
    main()

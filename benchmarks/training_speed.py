"""Learner steps per second of MaskablePPO against the heuristic, on 1 to N processes.

The shipped model's setting without its advice: 2 players, 32 games, rollouts of 128 steps per game, a
256-256 network, the heuristic in every other seat. For each number of processes
(1: ``VectorEnv``; more: ``ShardedVectorEnv``) it trains a fresh model for a few
rollouts and reports the rate, and the time spent stepping the games (opponents' moves
included) and updating the network. The first rollout, which loads the workers, is not
counted.

    python benchmarks/training_speed.py [--processes 1 2] [--rollouts 5]
"""

import argparse
import time

from sb3_contrib import MaskablePPO

from agents import make_agent
from training.learning.shards import ShardedVectorEnv
from tribune_env.envs import OpponentPool, VectorEnv

GAMES, N_STEPS = 32, 128


def timed(totals: dict, name: str, fn):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        result = fn(*args, **kwargs)
        totals[name] += time.perf_counter() - start
        return result

    return wrapper


def measure(processes: int, rollouts: int) -> dict:
    settings = {
        "num_envs": GAMES,
        "num_players": 2,
        "seed": 0,
        "opponents": OpponentPool([make_agent("heuristic", seed=1)]),
    }
    env = VectorEnv(**settings) if processes == 1 else ShardedVectorEnv(shards=processes, **settings)
    try:
        model = MaskablePPO(
            "MlpPolicy",
            env,
            n_steps=N_STEPS,
            batch_size=1024,
            n_epochs=4,
            device="cpu",
            seed=0,
            policy_kwargs={"net_arch": [256, 256]},
        )
        model.learn(GAMES * N_STEPS)  # loads everything; not counted
        totals = {"games": 0.0, "update": 0.0}
        env.step_wait = timed(totals, "games", env.step_wait)
        model.train = timed(totals, "update", model.train)
        start = time.perf_counter()
        model.learn(GAMES * N_STEPS * rollouts, reset_num_timesteps=False)
        seconds = time.perf_counter() - start
    finally:
        env.close()
    return {"steps/s": GAMES * N_STEPS * rollouts / seconds, **totals, "seconds": seconds}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rollouts", type=int, default=5)
    args = parser.parse_args()
    print(f"{GAMES * N_STEPS * args.rollouts:,} learner steps against the heuristic, 2 players")
    print("processes  steps/s  games s  update s  total s")
    for processes in args.processes:
        r = measure(processes, args.rollouts)
        print(f"{processes:9d}  {r['steps/s']:7.0f}  {r['games']:7.1f}  {r['update']:8.1f}  {r['seconds']:7.1f}")


if __name__ == "__main__":
    main()

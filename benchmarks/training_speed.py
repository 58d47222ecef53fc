"""Learner decisions per second against the heuristic: MaskablePPO and the pipelined ``Learner`` (float32, bfloat16), side by side.

The setting of ``tribune train`` against the heuristic: 32 games, rollouts of 128 steps per
game, a 256-256 network, batches of 1,024, 4 epochs, the heuristic in every other seat.
For each learner and number of processes (1: ``VectorEnv``; more: ``ShardedVectorEnv``) it
trains a fresh model for a few rollouts, alternating the learners rollout set by rollout
set, and reports the rate, the time collecting the rollouts (games, opponents' moves and
the network's decisions) and updating the network. The first rollout, which loads the
workers, is not counted. ``Learner, bfloat16`` multiplies in its towers in bfloat16
(``precision = "bfloat16"``). Then the network's own work, timed alone on the same
observations, in each precision: its forward passes (at the batch size a shard decides) and
its update.

    python benchmarks/training_speed.py [--players 2] [--processes 1 2] [--rollouts 5] [--repeats 2]
"""

import argparse
import statistics
import time

import torch
from sb3_contrib import MaskablePPO

from agents import make_agent
from training.learning.learner import Learner
from training.learning.shards import ShardedVectorEnv
from tribune_env.envs import OpponentPool, VectorEnv

GAMES, N_STEPS, BATCH, EPOCHS = 32, 128, 1024, 4
LEARNERS = {"MaskablePPO": (MaskablePPO, False), "Learner": (Learner, False), "Learner, bfloat16": (Learner, True)}


def timed(totals: dict, name: str, fn):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        result = fn(*args, **kwargs)
        totals[name] += time.perf_counter() - start
        return result

    return wrapper


def build(learner: str, processes: int, players: int):
    settings = {
        "num_envs": GAMES,
        "num_players": players,
        "seed": 0,
        "opponents": OpponentPool([make_agent("heuristic", seed=1)]),
    }
    env = VectorEnv(**settings) if processes == 1 else ShardedVectorEnv(shards=processes, **settings)
    cls, bfloat16 = LEARNERS[learner]
    model = cls(
        "MlpPolicy",
        env,
        n_steps=N_STEPS,
        batch_size=BATCH,
        n_epochs=EPOCHS,
        device="cpu",
        seed=0,
        policy_kwargs={"net_arch": [256, 256]},
    )
    if bfloat16:
        model.bfloat16 = True
    model.learn(GAMES * N_STEPS)  # loads everything; not counted
    return env, model


def measure(model, rollouts: int) -> dict:
    totals = {"collect": 0.0, "update": 0.0}
    train, collect = model.train, model.collect_rollouts
    model.train = timed(totals, "update", train)
    model.collect_rollouts = timed(totals, "collect", collect)
    start = time.perf_counter()
    model.learn(GAMES * N_STEPS * rollouts, reset_num_timesteps=False)
    seconds = time.perf_counter() - start
    model.train, model.collect_rollouts = train, collect
    return {"decisions/s": GAMES * N_STEPS * rollouts / seconds, **totals, "seconds": seconds}


def network_alone(model, shard_games: int) -> dict:
    """The forward passes and the update on the last rollout's observations, timed alone."""
    buffer = model.rollout_buffer
    observations = torch.as_tensor(buffer.observations.reshape(-1, buffer.observations.shape[-1]))
    masks = buffer.action_masks.reshape(len(observations), -1)
    start = time.perf_counter()
    with torch.no_grad():
        for i in range(0, len(observations), shard_games):
            model.policy(observations[i : i + shard_games], action_masks=masks[i : i + shard_games])
    forward = len(observations) / (time.perf_counter() - start)
    start = time.perf_counter()
    model.train()
    update = len(observations) / (time.perf_counter() - start)  # learner decisions per second of update
    return {"forward": forward, "update": update, "both": 1 / (1 / forward + 1 / update)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rollouts", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=2, help="measurements of each, alternated")
    args = parser.parse_args()
    print(
        f"{GAMES * N_STEPS * args.rollouts:,} learner decisions a measurement against the heuristic, "
        f"{args.players} players, torch on {torch.get_num_threads()} threads"
    )
    rows, alone = [], None
    for processes in args.processes:
        built = {name: build(name, processes, args.players) for name in LEARNERS}
        try:
            results = {name: [] for name in LEARNERS}
            for _ in range(args.repeats):
                for name, (_, model) in built.items():
                    results[name].append(measure(model, args.rollouts))
            for name, runs in results.items():
                rows.append((name, processes, {k: statistics.median(r[k] for r in runs) for k in runs[0]}))
            if processes == max(args.processes):
                alone = {
                    name: network_alone(built[name][1], GAMES // processes)
                    for name in LEARNERS
                    if name != "MaskablePPO"
                }
        finally:
            for env, _ in built.values():
                env.close()
    print("learner            processes  decisions/s  collect s  update s  total s")
    for name, processes, r in rows:
        print(
            f"{name:<18} {processes:9d}  {r['decisions/s']:11.0f}  {r['collect']:9.1f}  {r['update']:8.1f}"
            f"  {r['seconds']:7.1f}"
        )
    for name, r in alone.items():
        print(
            f"the network alone ({name}): forward {r['forward']:,.0f} decisions/s at a batch of "
            f"{GAMES // max(args.processes)}, update {r['update']:,.0f} decisions/s "
            f"({EPOCHS} epochs), both {r['both']:,.0f} decisions/s"
        )


if __name__ == "__main__":
    main()

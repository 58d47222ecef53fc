"""RLlib's sampling and training rates with 1 and 2 env runners, beside stable-baselines3's, in one run.

All three train 2-player self-play against the same opponents (``random=3,heuristic=1``, as
``training/configs/rllib-2p.toml``) with a 256-256 network:

- **RLlib sampling**: the env runners sample games alone (``EnvRunner.sample``, all in
  parallel): environment steps per second (every seat's decisions) and the learner's
  decisions per second;
- **RLlib training**: whole PPO iterations (sampling, then the update in this process);
- **stable-baselines3**: MaskablePPO on ``VectorEnv``, the opponents' moves inside each
  step, the rate of its rollouts and updates (its learner's decisions per second; the
  trainer of ``tribune train``).

A warm-up iteration of each is not counted. On a 2-core machine the env runners share
the cores with the learner, so a second runner mostly adds sampling while the update waits.

    python benchmarks/rllib_throughput.py [--seconds 40] [--runners 1 2] [--json FILE]
"""

import argparse
import json
import tempfile
import time

NUM_ENVS, N_STEPS = 8, 256
POOL = "random=3,heuristic=1"


def config(runners: int):
    from training.learning.config import TrainConfig

    return TrainConfig(
        backend="rllib",
        players=2,
        num_envs=NUM_ENVS,
        n_steps=N_STEPS,
        batch_size=512,
        env_runners=runners,
        baselines=POOL,
        snapshot_every=0,
    )


def rllib_rates(runners: int, seconds: float) -> dict:
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED, NUM_MODULE_STEPS_SAMPLED

    from training.rllib.league import MAIN
    from training.rllib.trainer import RLlibTrainer

    with tempfile.TemporaryDirectory() as out:
        algorithm = RLlibTrainer(config(runners), out, progress=False).algorithm_config().build_algo()
        try:
            algorithm.train()  # warm-up: workers loaded, first games dealt
            env_steps = learner_steps = 0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                result = algorithm.train()[ENV_RUNNER_RESULTS]
                env_steps += result[NUM_ENV_STEPS_SAMPLED]
                learner_steps += result[NUM_MODULE_STEPS_SAMPLED][MAIN]
            training = time.perf_counter() - start

            def sample(runner):
                episodes = runner.sample(num_timesteps=NUM_ENVS * N_STEPS, explore=True)
                return sum(len(e) for e in episodes), sum(
                    len(e.agent_episodes[a]) for e in episodes for a in e.agent_ids if e.module_for(a) == MAIN
                )

            group = algorithm.env_runner_group
            sampled = sampled_learner = 0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                for total, learner in group.foreach_env_runner(sample, local_env_runner=False):
                    sampled, sampled_learner = sampled + total, sampled_learner + learner
            sampling = time.perf_counter() - start
        finally:
            algorithm.stop()
    return {
        "sampling_env_steps_per_second": sampled / sampling,
        "sampling_learner_steps_per_second": sampled_learner / sampling,
        "training_env_steps_per_second": env_steps / training,
        "training_learner_steps_per_second": learner_steps / training,
    }


def sb3_rate(seconds: float) -> dict:
    from sb3_contrib import MaskablePPO

    from agents import make_agent
    from tribune_env.envs import OpponentPool, VectorEnv

    pool = OpponentPool([make_agent("random", seed=1), make_agent("heuristic", seed=2)], [3.0, 1.0])
    env = VectorEnv(num_envs=NUM_ENVS, num_players=2, seed=0, opponents=pool)
    try:
        model = MaskablePPO(
            "MlpPolicy",
            env,
            n_steps=N_STEPS,
            batch_size=512,
            n_epochs=4,
            device="cpu",
            seed=0,
            policy_kwargs={"net_arch": {"pi": [256, 256], "vf": [256, 256]}},
        )
        model.learn(NUM_ENVS * N_STEPS)  # warm-up
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            model.learn(NUM_ENVS * N_STEPS, reset_num_timesteps=False)
            steps += NUM_ENVS * N_STEPS
        return {"training_learner_steps_per_second": steps / (time.perf_counter() - start)}
    finally:
        env.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40.0, help="Measured time of each rate.")
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--json", help="Also write the figures to this file.")
    args = parser.parse_args()
    from training.cluster import connect

    connect(None)
    figures = {f"rllib, {n} env runner{'s' if n > 1 else ''}": rllib_rates(n, args.seconds) for n in args.runners}
    figures["stable-baselines3 (tribune train)"] = sb3_rate(args.seconds)
    print(f"{'trainer':<36}{'sampling: env steps/s':>24}{'learner steps/s':>17}{'training: learner steps/s':>28}")

    def rate(rates: dict, key: str) -> str:
        return f"{rates[key]:,.0f}" if key in rates else "-"

    for name, rates in figures.items():
        print(
            f"{name:<36}{rate(rates, 'sampling_env_steps_per_second'):>24}"
            f"{rate(rates, 'sampling_learner_steps_per_second'):>17}"
            f"{rate(rates, 'training_learner_steps_per_second'):>28}"
        )
    if args.json:
        with open(args.json, "w") as file:
            json.dump(figures, file, indent=1)


if __name__ == "__main__":
    main()

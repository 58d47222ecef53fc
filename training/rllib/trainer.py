"""Self-play training with RLlib's PPO on Ray: ``tribune train --backend rllib``.

The run keeps the conventions of the stable-baselines3 trainer (:mod:`training.learning.runs`):
the same TOML settings, ``state.json``, logs, evaluations against the baselines with Wilson
intervals, the best policy and the learning curve. What differs:

- the games are sampled by ``env_runners`` RLlib env runners (Ray actors), each playing
  ``num_envs`` games; the learner updates in this process;
- every seat is an RLlib module of the league (:mod:`.league`): ``main`` learns in one seat
  of each game, the baselines and frozen snapshots of ``main`` play the others;
- a PPO iteration samples ``n_steps x num_envs`` decisions of all seats;
- ``steps`` counts the decisions of ``main``, as the other trainer counts its learner's;
- policies are ``.pt`` files (:mod:`agents.rllib`) and the checkpoint is RLlib's own
  directory (``checkpoint/``), restored by ``--resume``;
- an env runner that dies is restarted from the algorithm's config as it is then (the
  league with its snapshots, tested), and its games are sampled again;
- evaluations are played by ``workers`` processes on this machine, not as Ray tasks: the
  env runners hold the cluster's CPUs (they are idle while the evaluation runs).

Files of the run besides the common ones: ``checkpoint/``, ``snapshots/step_N.pt``,
``best_policy.pt``, ``policy.pt`` and ``progress.csv`` (per iteration: its seconds, and
PPO's losses, entropy and KL).
"""

from __future__ import annotations

import math
import time
from functools import partial

from agents.rllib import model_config, save_policy, spaces
from tribune_env.envs.multi_agent import seat_of
from tribune_env.errors import ConfigError

from ..cluster import connect
from ..learning import config as configs
from ..learning.runs import RUN_FILES, Run, append_csv, crossed
from .league import MAIN, League, baseline_id, baseline_moves, snapshot_id

FILES = {**RUN_FILES, "checkpoint": "checkpoint", "best": "best_policy.pt", "final": "policy.pt"}

# PPO's learner statistics kept in progress.csv, by their names in RLlib's results.
PROGRESS = ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "vf_explained_var")


def _callbacks_class():
    """The env runners' callbacks (a class made on use: Ray is imported only then)."""
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class Callbacks(RLlibCallback):
        """Per finished game, each seat of ``main``: a game, its share of the win, its final reward."""

        def on_episode_end(self, *, episode, metrics_logger, **kwargs):
            infos, rewards = episode.get_infos(-1), episode.get_rewards()
            for agent_id in episode.agent_ids:
                if episode.module_for(agent_id) != MAIN:
                    continue
                winners = infos.get(agent_id, {}).get("winners", [])
                seat = seat_of(agent_id)
                metrics_logger.log_value("learner_games", 1, reduce="sum")
                metrics_logger.log_value("learner_wins", 1 / len(winners) if seat in winners else 0.0, reduce="sum")
                metrics_logger.log_value("learner_reward", float(sum(rewards.get(agent_id, [0.0]))), reduce="sum")

    return Callbacks


class RLlibTrainer(Run):
    """One run on Ray. ``run()`` trains until ``main`` has made ``config.steps`` decisions."""

    agent = "rllib"

    def __init__(self, config: configs.TrainConfig, out, resume=False, progress=True, echo=print, ray_address=None):
        super().__init__(config, out, resume=resume, progress=progress, echo=echo, names=FILES)
        self.ray_address = ray_address
        self.layers = config.layers()

    # ----------------------------------------------------------------- building
    def _league(self) -> League:
        c = self.config
        members = [(baseline_id(k), weight) for k, (_, weight) in enumerate(c.pool())]
        members += [(snapshot_id(self._snapshot_steps(path)), c.snapshot_weight) for path in self.state["snapshots"]]
        return League(c.players, tuple(members))

    @staticmethod
    def _snapshot_steps(path: str) -> int:
        return int(path.rsplit("step_", 1)[1].split(".")[0])

    def _policy_spec(self):
        from ray.rllib.core.rl_module.rl_module import RLModuleSpec

        from agents.rllib_modules import MaskedPPOModule

        observation_space, action_space = spaces(self.config.players)
        return RLModuleSpec(
            module_class=MaskedPPOModule,
            observation_space=observation_space,
            action_space=action_space,
            model_config=model_config(self.layers),
        )

    def algorithm_config(self):
        """The PPOConfig of this run: its env, league, modules, PPO settings and fault tolerance."""
        from ray.rllib.algorithms.ppo import PPOConfig
        from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
        from ray.rllib.core.rl_module.rl_module import RLModuleSpec

        from agents.rllib_modules import BaselineModule
        from tribune_env.envs.multi_agent import TribuneMultiAgentEnv

        c = self.config
        observation_space, action_space = spaces(c.players)
        baselines = {baseline_id(k): spec for k, (spec, _) in enumerate(c.pool())}
        modules = {MAIN: self._policy_spec()}
        modules |= {
            module: RLModuleSpec(
                module_class=BaselineModule, observation_space=observation_space, action_space=action_space
            )
            for module in baselines
        }
        league = self._league()
        modules |= {module: self._policy_spec() for module, _ in league.members if module.startswith("snapshot_")}
        return (
            PPOConfig()
            .environment(TribuneMultiAgentEnv, env_config={"num_players": c.players, "reward": c.reward})
            .env_runners(
                num_env_runners=c.env_runners,
                num_envs_per_env_runner=c.num_envs,
                rollout_fragment_length="auto",
                env_to_module_connector=partial(baseline_moves, specs=baselines),
            )
            .multi_agent(policies=set(modules), policy_mapping_fn=league, policies_to_train=[MAIN])
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
            .training(
                lr=c.learning_rate,
                train_batch_size_per_learner=c.n_steps * c.num_envs,
                minibatch_size=c.batch_size,
                num_epochs=c.n_epochs,
                gamma=c.gamma,
                lambda_=c.gae_lambda,
                clip_param=c.clip_range,
                entropy_coeff=c.ent_coef,
            )
            .callbacks(_callbacks_class())
            .fault_tolerance(restart_failed_env_runners=True)
            .debugging(seed=c.seed, log_level="ERROR")
        )

    # ----------------------------------------------------------------- the run
    def run(self) -> dict:
        connect(self.ray_address)
        self.algorithm = self.algorithm_config().build_algo()
        try:
            if self.state["steps"]:
                self.algorithm.restore_from_path(str(self.files.checkpoint.resolve()))
            elif self.config.imitation_games:
                self._warm_start()
            return self._train()
        finally:
            self.algorithm.stop()

    def _warm_start(self) -> None:
        """Imitation of the heuristic, as the other trainer's (:meth:`Run.warm_start`), then
        ``main``'s weights on the learner and the env runners."""
        import torch

        from agents.rllib import build_module

        torch.manual_seed(self.config.seed)
        module = build_module(self.layers)
        self.warm_start(module, module_outputs(module))
        self._set_weights(MAIN, module.get_state())

    def _set_weights(self, module_id: str, state: dict) -> None:
        """Give module `module_id` these weights on the learner, then on every env runner, and wait
        until each has them: RLlib's sync sends them without waiting, and drops them for a runner
        still busy with an earlier sync, which then samples on with the old weights."""
        algorithm = self.algorithm
        algorithm.set_state({"learner_group": {"learner": {"rl_module": {module_id: state}}}})
        runners = algorithm.env_runner_group
        runners.sync_weights(
            from_worker_or_learner_group=algorithm.learner_group, inference_only=True, timeout_seconds=None
        )
        runners.foreach_env_runner(
            lambda runner: None, local_env_runner=False
        )  # after the sync, in each runner's order

    def _train(self) -> dict:
        c = self.config
        steps = self.handled = self.state["steps"]
        with self.bar(c.steps, "steps", initial=steps) as bar:
            self.progress_bar = bar
            while steps < c.steps:
                started = time.perf_counter()
                result = self.algorithm.train()
                steps = self._log(result, time.perf_counter() - started)
                bar.update(steps - bar.n)
                self._scheduled(steps)
            if self.state.get("evaluated") != steps:
                self._evaluate(steps)
        self.checkpoint(steps)
        self._save(self.files.final)
        return self.result()

    def _log(self, result: dict, seconds: float) -> int:
        """Write the iteration's rows to training.csv and progress.csv; the learner's steps so far."""
        from ray.rllib.utils.metrics import (
            ENV_RUNNER_RESULTS,
            LEARNER_RESULTS,
            NUM_ENV_STEPS_SAMPLED,
            NUM_MODULE_STEPS_SAMPLED,
        )

        runners = result.get(ENV_RUNNER_RESULTS, {})
        steps = self.handled + int(_total(runners.get(NUM_MODULE_STEPS_SAMPLED, {}), MAIN))  # 0 if sampling failed
        games, wins, reward = (_total(runners, key) for key in ("learner_games", "learner_wins", "learner_reward"))
        append_csv(
            self.files.training,
            {
                "steps": steps,
                "games": int(games),
                "win_rate": wins / games if games else float("nan"),
                "mean_reward": reward / games if games else float("nan"),
                "steps_per_second": _total(runners, NUM_ENV_STEPS_SAMPLED) / max(seconds, 1e-9),
            },
        )
        learner = result.get(LEARNER_RESULTS, {}).get(MAIN, {})
        append_csv(
            self.files.root / "progress.csv",
            {
                "steps": steps,
                "seconds": round(seconds, 3),
                **{k: float(learner.get(k, float("nan"))) for k in PROGRESS},
            },
        )
        return steps

    def _scheduled(self, now: int) -> None:
        """The snapshots, evaluations and checkpoints due since the last iteration."""
        c, before = self.config, self.handled
        self.handled = now
        if c.snapshot_every and crossed(before, now, c.snapshot_every):
            self.snapshot(now)
        evaluated = c.eval_every and crossed(before, now, c.eval_every)
        if evaluated:
            self._evaluate(now)
        if evaluated or crossed(before, now, c.checkpoint_every):
            self.checkpoint(now)

    def _evaluate(self, steps: int) -> None:
        # On this machine's processes: the env runners hold the cluster's CPUs, and tasks
        # asking for one would wait for them forever (the runners are idle meanwhile).
        rows = self.evaluate(steps, self._save)
        self.progress_bar.set_postfix({r["opponent"]: f"{r['win_rate']:.2f}" for r in rows})
        self.report(rows, steps, self.progress_bar.write)

    # ----------------------------------------------------------------- saving
    def _save(self, path) -> None:
        save_policy(self.algorithm.get_module(MAIN), self.layers, path)

    def snapshot(self, steps: int) -> None:
        """Freeze ``main`` as a new league member: a policy file, and a module on the learner and the runners."""
        path = self.files.snapshots / f"step_{steps}.pt"
        self._save(path)
        self.state["snapshots"].append(str(path.relative_to(self.files.root)))
        module = snapshot_id(steps)
        algorithm = self.algorithm
        algorithm.add_module(
            module_id=module, module_spec=self._policy_spec(), new_agent_to_module_mapping_fn=self._league()
        )
        self._set_weights(module, algorithm.get_module(MAIN).get_state())

    def checkpoint(self, steps: int) -> None:
        """RLlib's checkpoint of the whole algorithm (modules, optimiser, league), then the state pointing at it."""
        self.algorithm.save_to_path(str(self.files.checkpoint.resolve()))
        self.save_state(steps)


def module_outputs(module):
    """``outputs`` for :func:`training.learning.imitation.imitate` of a MaskedPPOModule: its masked log-probabilities and values."""
    import torch
    from ray.rllib.core.columns import Columns

    from tribune_env.envs.multi_agent import ACTION_MASK, OBSERVATIONS

    def outputs(observations, masks):
        batch = {Columns.OBS: {OBSERVATIONS: observations, ACTION_MASK: torch.as_tensor(masks, dtype=torch.float32)}}
        out = module.forward_train(batch)  # its critic's embeddings too: the values need no second pass
        values = module.compute_values(batch, embeddings=out[Columns.EMBEDDINGS])
        return torch.log_softmax(out[Columns.ACTION_DIST_INPUTS], dim=1), values.flatten()

    return outputs


def _total(results: dict, key: str) -> float:
    """A sum the env runners logged this iteration (0 for NaN or missing: no game ended, or sampling failed)."""
    value = float(results.get(key, 0.0))
    return value if math.isfinite(value) else 0.0


def train(config: configs.TrainConfig, out, resume=False, progress=True, echo=print, ray_address=None) -> dict:
    """Train (or resume) a run in `out` with RLlib; see :class:`RLlibTrainer`."""
    if config.backend != "rllib":
        raise ConfigError(f"this trainer is RLlib's: backend must be 'rllib', not {config.backend!r}")
    return RLlibTrainer(config, out, resume=resume, progress=progress, echo=echo, ray_address=ray_address).run()

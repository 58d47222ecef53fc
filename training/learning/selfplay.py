"""Self-play training with sb3-contrib's MaskablePPO (its pipelined rollouts: :mod:`.learner`).

The learner plays every game of a :class:`~tribune_env.envs.VectorEnv` from one seat; the
other seats are drawn per game from an :class:`~tribune_env.envs.OpponentPool` of the baseline
agents and snapshots of the learner itself, taken as training goes. Every transition is
the learner's, and its reward is its own final reward.

A run lives in one directory (:mod:`.runs`); this trainer's files in it::

    checkpoint.zip        the model with its optimiser, saved every checkpoint_every steps
    snapshots/step_N.zip  the learner's snapshots in the opponent pool
    best_model.zip        the model that did best against the last evaluation opponent
    model.zip             the model at the end
    best_policy.pt, policy.pt   the same networks as weights-only policy files (``policy:`` agents)
    progress*.csv, tensorboard/   stable-baselines3's own log (losses, entropy, ...)
    imitation.csv         the imitation warm start's losses, when there is one
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from agents.model import check_model_file
from tribune_env import GameConfig
from tribune_env.envs import OpponentPool, VectorEnv
from tribune_env.errors import ConfigError, install_hint

from ..arena.games import derive_seed
from . import config as configs
from . import imitation
from .card_rates import CardRates
from .runs import Run, append_csv, crossed
from .shards import ShardedVectorEnv

BEST_POLICY, FINAL_POLICY = "best_policy.pt", "policy.pt"


class Trainer(Run):
    """One run: the model, its opponent pool and its directory. ``run()`` trains to ``config.steps``."""

    # ----------------------------------------------------------------- building
    def _pool(self) -> OpponentPool:
        from agents import make_agent

        members = self.config.pool()
        pool = OpponentPool(
            [make_agent(spec, seed=derive_seed(self.config.seed, i)) for i, (spec, _) in enumerate(members)],
            [w for _, w in members],
        )
        for number, path in enumerate(self.state["snapshots"]):
            pool.add(self._snapshot_agent(self.files.root / path, number), self.config.snapshot_weight)
        return pool

    def _snapshot_agent(self, path: Path, number: int):
        """A snapshot plays by sampling its policy (from its own seeded generator), so that the pool's games vary."""
        from agents.model import ModelAgent

        return ModelAgent(
            seed=derive_seed(self.config.seed, 1 + len(self.config.pool()) + number),
            path=str(path),
            deterministic=False,
            trust=True,  # the run's own file
        )

    def _model(self, env):
        model = self._network(env)
        model.run_steps = self.config.steps  # a resumed run may have more steps than when it was saved
        model.bfloat16 = self.config.precision == "bfloat16"
        return model

    def _network(self, env):
        from .learner import Anneal, Learner, Policy

        c = self.config
        rate = Anneal(c.learning_rate, c.learning_rate * (1 - c.anneal)) if c.anneal else c.learning_rate
        settings = {
            "learning_rate": rate,
            "n_steps": c.n_steps,
            "batch_size": c.batch_size,
            "n_epochs": c.n_epochs,
            "gamma": c.gamma,
            "gae_lambda": c.gae_lambda,
            "clip_range": c.clip_range,
            "ent_coef": c.ent_coef,
        }
        if self.state["steps"]:  # the checkpoint's network, with the settings as they are now
            check_model_file(self.files.checkpoint)
            # Policy: a checkpoint written with MaskablePPO's own policy class has the same parameters
            return Learner.load(
                self.files.checkpoint, env=env, device="cpu", custom_objects={**settings, "policy_class": Policy}
            )
        layers = c.layers()
        model = Learner(
            "MlpPolicy",
            env,
            **settings,
            seed=c.seed,
            device="cpu",
            verbose=0,
            policy_kwargs={"net_arch": {"pi": layers, "vf": layers}},
        )
        if c.init_policy:
            from agents.policy import start_from

            start_from(model, c.init_policy)
            self.echo(f"the network starts from {c.init_policy}")
        return model

    def _logger(self):
        from stable_baselines3.common.logger import Logger, make_output_format

        formats = ["csv"]
        try:
            import tensorboard  # noqa: F401  (SB3's TensorBoard writer needs it)

            formats.append("tensorboard")
        except ImportError:
            self.echo("tensorboard is not installed: logging to CSV only")
        segment = self.state["segments"]
        suffix = "" if segment == 0 else f"-resumed-{segment}"
        outputs = [
            make_output_format(f, str(self.files.root if f == "csv" else self.files.tensorboard), suffix)
            for f in formats
        ]
        return Logger(str(self.files.root), outputs)

    # ----------------------------------------------------------------- the run
    def run(self) -> dict:
        """Train until ``config.steps``, evaluate, and return the final evaluation rows.

        With several table sizes (``table_sizes``) the model plays each stage's games in a vector
        of that size; each stage draws its games from the seed and the step it starts at.
        """
        c = self.config
        start = self.state["steps"]
        env = self._env(start)
        try:
            model = self._model(env)
            self._before_learning(model, start)
            callback = SelfPlayCallback(self)
            while model.num_timesteps < c.steps:
                now = int(model.num_timesteps)
                if c.table_size(now) != env.num_players:
                    env.close()
                    env = self._env(now)
                    model.set_env(env)  # the next learn() resets the new games
                    self.echo(f"{env.num_players} players from step {now:,}")
                model.learn(c.stage_end(now) - now, callback=callback, reset_num_timesteps=not now)
            callback.finish(model)
            return self.result()
        finally:
            env.close()

    def _env(self, steps: int):
        """The learner's games for the stage at `steps`, split over the worker processes when there are several."""
        c = self.config
        seed = derive_seed(c.seed, steps)
        shards = min(self.workers(), c.num_envs)
        settings = {
            "num_envs": c.num_envs,
            "num_players": c.table_size(steps),
            "opponents": self._pool(),
            "reward": c.reward,
            "seed": seed,
        }
        return VectorEnv(**settings) if shards == 1 else ShardedVectorEnv(shards=shards, **settings)

    def _before_learning(self, model, start: int) -> None:
        """A resumed run's new games, the evaluation opponents checked, the imitation warm start, the logger."""
        c = self.config
        if start:  # a resumed run draws new games, not the first ones again
            model.set_random_seed(derive_seed(c.seed, start))
        from agents import make_agent

        for spec in c.evaluation_specs():
            make_agent(spec)  # a bad evaluation opponent stops the run now, not hours in
        if not start and c.imitation_games:
            self.warm_start(model.policy, imitation.sb3_outputs(model.policy))
        model.set_logger(self._logger())

    # ----------------------------------------------------------------- events
    def snapshot(self, model, env) -> None:
        path = self.files.snapshots / f"step_{model.num_timesteps}.zip"
        model.save(path)
        agent = self._snapshot_agent(path, len(self.state["snapshots"]))
        self.state["snapshots"].append(str(path.relative_to(self.files.root)))
        env.add_opponent(agent, self.config.snapshot_weight)

    def checkpoint(self, model) -> None:
        """Save the model, then the state that points at it."""
        model.save(self.files.checkpoint)
        self.save_state(model.num_timesteps)

    def evaluation(self, model) -> list[dict]:
        """Evaluate the current model (:meth:`Run.evaluate`), and log its win rates to SB3's logger too.

        The best model is kept as a policy file too (weights only: ``policy:`` agents load it).
        """
        from agents.policy import export

        rows = self.evaluate(int(model.num_timesteps), model.save)
        if self.state["best"]["steps"] == int(model.num_timesteps):
            export(model, self.files.root / BEST_POLICY, self.config.sizes())
        for row in rows:
            model.logger.record(f"eval/win_rate_{row['opponent']}", row["win_rate"])
        return rows


try:
    from stable_baselines3.common.callbacks import BaseCallback
except ImportError:  # the train extra is missing; Trainer refuses to run without it
    BaseCallback = object


class SelfPlayCallback(BaseCallback):
    """Progress bar, per-rollout statistics (per-card win rates among them), and snapshots,
    evaluations and checkpoints on schedule.

    Scheduled events run at the start of a rollout, after the update that used the steps
    they are due at, so a snapshot, an evaluation or a checkpoint at step N is the model
    trained on N steps; ``finish`` runs those due at the end.
    """

    def __init__(self, trainer: Trainer):
        super().__init__()
        self.trainer = trainer
        self.games, self.wins, self.rewards = 0, 0.0, []
        self.cards = CardRates(trainer.state.get("cards"))
        self.bar = None

    def _on_training_start(self) -> None:
        if self.bar is not None:  # the next table size's stage: the same bar, the same clock
            return
        c = self.trainer.config
        self.bar = self.trainer.bar(c.steps, "steps", initial=self.num_timesteps)
        self.started = time.perf_counter()
        self.start_steps = self.handled = self.num_timesteps

    def _on_step(self) -> bool:
        for done, info, reward in zip(self.locals["dones"], self.locals["infos"], self.locals["rewards"]):
            if done:
                won = info["learner_seat"] in info["winners"]
                self.games += 1
                self.wins += won
                self.rewards.append(float(reward))
                self.cards.record(info["victory_card"], won)
        self.bar.update(self.training_env.num_envs)
        return True

    def _on_rollout_start(self) -> None:
        self._scheduled(self.model)

    def _scheduled(self, model) -> None:
        """The snapshots, evaluations and checkpoints due since the last rollout boundary."""
        c, t = self.trainer.config, self.trainer
        before, now = self.handled, int(model.num_timesteps)
        self.handled = now
        if c.snapshot_every and crossed(before, now, c.snapshot_every):
            t.snapshot(model, self.training_env)
        evaluated = c.eval_every and crossed(before, now, c.eval_every)
        if evaluated:
            self._evaluate(model)
        if evaluated or crossed(before, now, c.checkpoint_every):  # the best model is never ahead of state.json
            t.checkpoint(model)

    def _evaluate(self, model) -> None:
        rows = self.trainer.evaluation(model)
        if self.bar is not None:
            self.bar.set_postfix({r["opponent"]: f"{r['win_rate']:.2f}" for r in rows})
        self.trainer.report(
            rows, int(model.num_timesteps), self.bar.write if self.bar is not None else self.trainer.echo
        )

    def _on_rollout_end(self) -> None:
        steps = int(self.num_timesteps)
        rate = self.wins / self.games if self.games else float("nan")
        seconds = time.perf_counter() - self.started
        row = {
            "steps": steps,
            "games": self.games,
            "win_rate": rate,
            "mean_reward": float(np.mean(self.rewards)) if self.rewards else float("nan"),
            "steps_per_second": (steps - self.start_steps) / max(seconds, 1e-9),
        }
        append_csv(self.trainer.files.training, row)
        self.logger.record("selfplay/win_rate", rate)
        self.logger.record("selfplay/games", self.games)
        self.logger.record("selfplay/mean_reward", row["mean_reward"])
        self.logger.record("selfplay/pool_size", len(self.trainer.state["snapshots"]) + len(self.trainer.config.pool()))
        n = self.training_env.num_players
        for card, rate in self.cards.rates(GameConfig(n).fitting_cards(), 1 / n).items():
            self.logger.record(f"cards/{card}", rate)
        self.cards.decay()
        self.trainer.state["cards"] = self.cards.counts  # saved with the next checkpoint
        self.games, self.wins, self.rewards = 0, 0.0, []

    def finish(self, model) -> None:
        """The events due at the end; an evaluation of the final model unless it has one; the files."""
        t = self.trainer
        if self.bar is not None:
            self._scheduled(model)
        if t.state.get("evaluated") != int(model.num_timesteps):
            self._evaluate(model)
        if self.bar is not None:
            self.bar.close()
        t.checkpoint(model)
        model.save(t.files.final)
        from agents.policy import export

        export(model, t.files.root / FINAL_POLICY, t.config.sizes())


def train(config: configs.TrainConfig, out, resume: bool = False, progress: bool = True, echo=print) -> dict:
    """Train (or resume) a run in `out`; see :class:`Trainer`."""
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        raise ConfigError(f"training needs {install_hint('train')}") from None
    return Trainer(config, out, resume=resume, progress=progress, echo=echo).run()

"""Self-play training with sb3-contrib's MaskablePPO.

The learner plays every game of a :class:`~tribune_env.envs.VectorEnv` from one seat; the
other seats are drawn per game from an :class:`~tribune_env.envs.OpponentPool` of the baseline
agents and snapshots of the learner itself, taken as training goes. Every transition is
the learner's, and its reward is its own final reward.

A run lives in one directory::

    config.toml           the resolved settings (a resumed run reads them back)
    state.json            steps done, wall-clock seconds, snapshots taken, best evaluation so far
    checkpoint.zip        the model with its optimiser, saved every checkpoint_every steps
    snapshots/            the learner's snapshots in the opponent pool
    best_model.zip        the model that did best against the last evaluation opponent
    model.zip             the model at the end
    training.csv          per rollout: steps, games, learner win rate and mean final reward
    evaluations.csv       per evaluation and opponent: win rate with its 95% interval
    progress*.csv, tensorboard/   stable-baselines3's own log (losses, entropy, ...)
    imitation.csv         the imitation warm start's losses, when there is one
    learning_curve.png    evaluation and training win rates against steps
"""

from __future__ import annotations

import csv
import json
import math
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.model import check_model_file
from tribune_env import files
from tribune_env.envs import OpponentPool, VectorEnv
from tribune_env.errors import ConfigError

from ..arena.games import derive_seed
from . import config as configs
from . import imitation
from .baselines import evaluate_model
from .shards import ShardedVectorEnv

RUN_FILES = {
    "config": "config.toml",
    "state": "state.json",
    "checkpoint": "checkpoint.zip",
    "snapshots": "snapshots",
    "best": "best_model.zip",
    "final": "model.zip",
    "training": "training.csv",
    "evaluations": "evaluations.csv",
    "imitation": "imitation.csv",
    "curve": "learning_curve.png",
    "tensorboard": "tensorboard",
}

MAX_STATE_BYTES = 2**20  # state.json: steps, seconds, the snapshots' names, the best evaluation


def _count(value) -> bool:
    return type(value) is int and value >= 0


def _number(value) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


# What each entry of state.json must be for a resumed run to use it.
STATE = {
    "steps": _count,
    "segments": _count,
    "seconds": lambda v: _number(v) and v >= 0,
    "snapshots": lambda v: isinstance(v, list) and all(isinstance(path, str) for path in v),
    "best": lambda v: (
        v is None
        or (
            isinstance(v, dict)
            and _count(v.get("steps"))
            and _number(v.get("win_rate"))
            and isinstance(v.get("opponent"), str)
        )
    ),
}

# Settings a resumed run cannot change: the network, what its games are, and the
# evaluation that ranks its models for best_model.zip.
KEPT_ON_RESUME = ("players", "net_arch", "seed", "reward", "eval_opponents", "eval_games", "advisor")


@dataclass(frozen=True)
class RunFiles:
    """The paths of a run's files, by role: ``files.best`` is ``root / "best_model.zip"``."""

    root: Path

    def __getattr__(self, name):
        if name not in RUN_FILES:
            raise AttributeError(name)
        return self.root / RUN_FILES[name]


def _append_csv(path: Path, row: dict) -> None:
    new = not path.exists()
    with open(path, "a", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)


def read_csv(path: Path) -> list[dict]:
    """A log of the run, its numbers as floats; ConfigError if the file is not such a log."""
    if not path.exists():
        return []
    try:
        with open(path, newline="") as file:
            return [{k: float(v) if k != "opponent" else v for k, v in row.items()} for row in csv.DictReader(file)]
    except (ValueError, TypeError, csv.Error) as exc:  # UnicodeDecodeError is a ValueError
        raise ConfigError(f"{path} is not a log of this run: {exc}") from None


class Trainer:
    """One run: the model, its opponent pool and its directory. ``run()`` trains to ``config.steps``."""

    def __init__(self, config: configs.TrainConfig, out, resume: bool = False, progress: bool = True, echo=print):
        self.files = RunFiles(Path(out))
        self.echo, self.show_progress = echo, progress
        if resume:
            if not self.files.state.exists():
                raise ConfigError(f"nothing to resume in {out}: no {self.files.state.name}")
            saved = configs.read(self.files.config)
            changed = [
                f"{name} ({getattr(saved, name)!r} -> {getattr(config, name)!r})"
                for name in KEPT_ON_RESUME
                if getattr(config, name) != getattr(saved, name)
            ]
            if changed:
                raise ConfigError(
                    f"a resumed run keeps its network, games and evaluation; cannot change {', '.join(changed)}"
                )
            self.state = self._saved_state()
            self.state["segments"] += 1
            self._drop_rows_after(self.state["steps"])
        else:
            if self.files.config.exists():
                raise ConfigError(
                    f"{out} already holds a run; resume it, or choose another directory "
                    f"(a run stopped before its first checkpoint cannot be resumed: delete it)"
                )
            self.state = {"steps": 0, "snapshots": [], "best": None, "segments": 0}
        self.config = config
        self.files.root.mkdir(parents=True, exist_ok=True)
        self.files.snapshots.mkdir(exist_ok=True)
        configs.write(config, self.files.config)

    def _saved_state(self) -> dict:
        """state.json of the run, checked: its numbers have their types, and every snapshot it
        names lies in the run's directory (a model file runs code when loaded)."""
        state = files.read_json(self.files.state, MAX_STATE_BYTES)
        where = str(self.files.state)
        if not isinstance(state, dict):
            raise ConfigError(f"{where}: not the state of a run")
        for key, valid in STATE.items():
            if not valid(state.get(key)):
                raise ConfigError(f"{where}: {key} is missing or malformed: {state.get(key)!r}")
        root = self.files.root.resolve()
        for path in state["snapshots"]:
            if not (root / path).resolve().is_relative_to(root):
                raise ConfigError(f"{where}: snapshot {path!r} lies outside the run's directory {self.files.root}")
        return state

    def _drop_rows_after(self, steps: int) -> None:
        """Forget log rows of an interrupted run past its last checkpoint, which resuming repeats."""
        for path in (self.files.training, self.files.evaluations):
            rows = read_csv(path)
            if any(r["steps"] > steps for r in rows):
                path.unlink()
                for row in rows:
                    if row["steps"] <= steps:
                        _append_csv(path, {k: int(v) if k in ("steps", "games") else v for k, v in row.items()})

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

    def _advisor(self, seed: int):
        from agents import make_agent

        return make_agent(self.config.advisor, seed=derive_seed(seed, 1)) if self.config.advisor else None

    def _snapshot_agent(self, path: Path, number: int):
        """A snapshot plays by sampling its policy (from its own seeded generator), so that the pool's games vary."""
        from agents.model import ModelAgent

        return ModelAgent(
            seed=derive_seed(self.config.seed, 1 + len(self.config.pool()) + number),
            path=str(path),
            deterministic=False,
        )

    def _model(self, env):
        from sb3_contrib import MaskablePPO

        c = self.config
        settings = {
            "learning_rate": c.learning_rate,
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
            return MaskablePPO.load(self.files.checkpoint, env=env, device="cpu", custom_objects=settings)
        layers = c.layers()
        model = MaskablePPO(
            "MlpPolicy",
            env,
            **settings,
            seed=c.seed,
            device="cpu",
            verbose=0,
            policy_kwargs={"net_arch": {"pi": layers, "vf": layers}},
        )
        model.advisor = c.advisor or None  # saved with the model: ModelAgent asks the same advisor
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
        """Train until ``config.steps``, evaluate, and return the final evaluation rows."""
        c = self.config
        start = self.state["steps"]
        self._clock = time.perf_counter() - self.state.get("seconds", 0.0)
        env = self._env(derive_seed(c.seed, start))
        try:
            return self._train(env, start)
        finally:
            env.close()

    def _env(self, seed: int):
        """The learner's games, split over the worker processes when there are several."""
        c = self.config
        shards = min(self._workers(), c.num_envs)
        settings = {
            "num_envs": c.num_envs,
            "num_players": c.players,
            "opponents": self._pool(),
            "reward": c.reward,
            "seed": seed,
            "advisor": self._advisor(seed),
        }
        return VectorEnv(**settings) if shards == 1 else ShardedVectorEnv(shards=shards, **settings)

    def _train(self, env, start: int) -> dict:
        c = self.config
        model = self._model(env)
        if start:  # a resumed run draws new games, not the first ones again
            model.set_random_seed(derive_seed(c.seed, start))
        from agents import make_agent

        for spec in c.evaluation_specs():
            make_agent(spec)  # a bad evaluation opponent stops the run now, not hours in
        if not start and c.imitation_games:
            self._imitate(model)
        model.set_logger(self._logger())
        callback = SelfPlayCallback(self)
        if c.steps > start:
            model.learn(c.steps - start, callback=callback, reset_num_timesteps=not start)
        callback.finish(model)
        rows = self.final_evaluation()
        from .figures import learning_curve

        learning_curve(self.files, c)
        return {"steps": self.state["steps"], "rows": rows, "files": self.files, "state": self.state}

    def _imitate(self, model) -> None:
        c = self.config
        workers = self._workers()
        self.echo(f"imitation: recording {c.imitation_games} heuristic self-play games on {workers} processes")
        with self._bar(c.imitation_games, "games") as bar:
            data = imitation.demonstrations(
                c.imitation_games, c.players, c.reward, c.seed, workers, bar.update, advisor=c.advisor
            )
        self.echo(f"imitation: {len(data)} decisions; fitting the network for {c.imitation_epochs} epochs")
        with self._bar(c.imitation_epochs, "epochs") as bar:

            def epoch_done(row):
                _append_csv(self.files.imitation, row)
                bar.set_postfix(accuracy=f"{row['accuracy']:.3f}")
                bar.update()

            history = imitation.imitate(model.policy, data, c.imitation_epochs, c.batch_size, 1e-3, c.seed, epoch_done)
        self.echo(f"imitation: held-out accuracy {history[-1]['accuracy']:.3f} (the heuristic's own choice)")

    def _workers(self) -> int:
        import os

        return self.config.workers or os.cpu_count() or 1

    def _bar(self, total: int, unit: str, initial: int = 0):
        from tqdm import tqdm

        return tqdm(
            total=total, initial=initial, unit=unit, disable=None if self.show_progress else True, dynamic_ncols=True
        )

    # ----------------------------------------------------------------- events
    def snapshot(self, model, env) -> None:
        path = self.files.snapshots / f"step_{model.num_timesteps}.zip"
        model.save(path)
        agent = self._snapshot_agent(path, len(self.state["snapshots"]))
        self.state["snapshots"].append(str(path.relative_to(self.files.root)))
        env.add_opponent(agent, self.config.snapshot_weight)

    def checkpoint(self, model) -> None:
        """Save the model, then the state that points at it (a crash between the two loses one interval)."""
        model.save(self.files.checkpoint)
        self.state["steps"] = int(model.num_timesteps)
        self.state["seconds"] = round(time.perf_counter() - self._clock, 1)  # wall-clock, all segments
        self.files.state.write_text(json.dumps(self.state, indent=1))

    def evaluation(self, model) -> list[dict]:
        """Evaluate the current model; keep it as the best if it beats the last opponent best so far."""
        c = self.config
        candidate = self.files.root / "evaluated.zip"
        model.save(candidate)
        steps = int(model.num_timesteps)
        rows = evaluate_model(
            candidate, c.evaluation_specs(), c.players, c.eval_games, seed=c.seed, workers=self._workers()
        )
        for row in rows:
            _append_csv(
                self.files.evaluations,
                {
                    "steps": steps,
                    "opponent": row["opponent"],
                    "games": row["games"],
                    "win_rate": row["win_rate"],
                    "low": row["win_ci"][0],
                    "high": row["win_ci"][1],
                    "mean_score": row["mean_score"],
                    "mean_rank": row["mean_rank"],
                },
            )
            model.logger.record(f"eval/win_rate_{row['opponent']}", row["win_rate"])
        score = rows[-1]["win_rate"]
        if self.state["best"] is None or score >= self.state["best"]["win_rate"]:  # ties: the later model
            shutil.copyfile(candidate, self.files.best)
            self.state["best"] = {"steps": steps, "opponent": rows[-1]["opponent"], "win_rate": score}
        candidate.unlink()
        self.state["evaluated"] = steps
        return rows

    def final_evaluation(self) -> list[dict]:
        """The best model's results against every evaluation opponent, as :func:`~training.learning.baselines.evaluate_model` gives them."""
        best, players = self.state["best"], self.config.players
        return [
            {
                "opponent": r["opponent"],
                "players": players,
                "games": int(r["games"]),
                "wins": r["win_rate"] * r["games"],
                "win_rate": r["win_rate"],
                "win_ci": [r["low"], r["high"]],
                "mean_score": r["mean_score"],
                "mean_rank": r["mean_rank"],
            }
            for r in read_csv(self.files.evaluations)
            if r["steps"] == best["steps"]
        ]


try:
    from stable_baselines3.common.callbacks import BaseCallback
except ImportError:  # the train extra is missing; Trainer refuses to run without it
    BaseCallback = object


class SelfPlayCallback(BaseCallback):
    """Progress bar, per-rollout statistics, and snapshots, evaluations and checkpoints on schedule.

    Scheduled events run at the start of a rollout, after the update that used the steps
    they are due at, so a snapshot, an evaluation or a checkpoint at step N is the model
    trained on N steps; ``finish`` runs those due at the end.
    """

    def __init__(self, trainer: Trainer):
        super().__init__()
        self.trainer = trainer
        self.games, self.wins, self.rewards = 0, 0.0, []
        self.bar = None

    def _on_training_start(self) -> None:
        c = self.trainer.config
        self.bar = self.trainer._bar(c.steps, "steps", initial=self.num_timesteps)
        self.started = time.perf_counter()
        self.start_steps = self.handled = self.num_timesteps

    def _on_step(self) -> bool:
        for done, info, reward in zip(self.locals["dones"], self.locals["infos"], self.locals["rewards"]):
            if done:
                self.games += 1
                self.wins += info["learner_seat"] in info["winners"]
                self.rewards.append(float(reward))
        self.bar.update(self.training_env.num_envs)
        return True

    def _on_rollout_start(self) -> None:
        self._scheduled(self.model)

    def _scheduled(self, model) -> None:
        """The snapshots, evaluations and checkpoints due since the last rollout boundary."""
        c, t = self.trainer.config, self.trainer
        before, now = self.handled, int(model.num_timesteps)
        self.handled = now
        if c.snapshot_every and _crossed(before, now, c.snapshot_every):
            t.snapshot(model, self.training_env)
        evaluated = c.eval_every and _crossed(before, now, c.eval_every)
        if evaluated:
            self._evaluate(model)
        if evaluated or _crossed(before, now, c.checkpoint_every):  # the best model is never ahead of state.json
            t.checkpoint(model)

    def _evaluate(self, model) -> None:
        rows = self.trainer.evaluation(model)
        if self.bar is not None:
            self.bar.set_postfix({r["opponent"]: f"{r['win_rate']:.2f}" for r in rows})
        write = self.bar.write if self.bar is not None else self.trainer.echo
        write(
            f"step {int(model.num_timesteps):,}: win rate "
            + ", ".join(
                f"{r['win_rate']:.2f} [{r['win_ci'][0]:.2f}, {r['win_ci'][1]:.2f}] vs {r['opponent']}" for r in rows
            )
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
        _append_csv(self.trainer.files.training, row)
        self.logger.record("selfplay/win_rate", rate)
        self.logger.record("selfplay/games", self.games)
        self.logger.record("selfplay/mean_reward", row["mean_reward"])
        self.logger.record("selfplay/pool_size", len(self.trainer.state["snapshots"]) + len(self.trainer.config.pool()))
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


def _crossed(before: int, now: int, every: int) -> bool:
    """Whether a multiple of `every` lies in (before, now]."""
    return now // every > before // every


def train(config: configs.TrainConfig, out, resume: bool = False, progress: bool = True, echo=print) -> dict:
    """Train (or resume) a run in `out`; see :class:`Trainer`."""
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        raise ConfigError("training needs the train extra: pip install -e '.[train]'") from None
    return Trainer(config, out, resume=resume, progress=progress, echo=echo).run()

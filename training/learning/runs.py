"""A training run's directory, whatever trains it: settings, state, logs, evaluations, the best policy.

Both trainers (stable-baselines3's in :mod:`.selfplay`, RLlib's in :mod:`training.rllib.trainer`)
keep a run the same way::

    config.toml           the resolved settings (a resumed run reads them back)
    state.json            steps done, wall-clock seconds, snapshots taken, best evaluation so far
    checkpoint            what resuming needs (the trainer's own format)
    snapshots/            the learner's snapshots in the opponent pool
    best policy           the policy that did best against the last evaluation opponent
    final policy          the policy at the end
    training.csv          per rollout or iteration: steps, games, learner win rate and mean final reward
    evaluations.csv       per evaluation and opponent: win rate with its 95% interval
    learning_curve.png    evaluation and training win rates against steps

Only the file names of the checkpoint and the policies differ between trainers (``files``).
"""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from agents import trusting
from tribune_env import files
from tribune_env.errors import ConfigError

from . import config as configs
from . import imitation
from .baselines import evaluate_agent
from .card_rates import valid_counts

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
    "cards": lambda v: v is None or valid_counts(v),  # the per-card win counts (not in older runs)
}

# Settings a resumed run cannot change: the trainer, the network, what its games are, and
# the evaluation that ranks its policies for the best one.
KEPT_ON_RESUME = (
    "backend",
    "players",
    "table_sizes",
    "stage_steps",
    "net_arch",
    "seed",
    "reward",
    "eval_opponents",
    "eval_games",
    "init_policy",
)


@dataclass(frozen=True)
class RunFiles:
    """The paths of a run's files, by role: ``files.best`` is ``root / names["best"]``."""

    root: Path
    names: dict = field(default_factory=lambda: RUN_FILES)

    def __getattr__(self, name):
        if name in ("root", "names") or name not in self.names:
            raise AttributeError(name)
        return self.root / self.names[name]


def append_csv(path: Path, row: dict) -> None:
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


def crossed(before: int, now: int, every: int) -> bool:
    """Whether a multiple of `every` lies in (before, now]."""
    return now // every > before // every


class Run:
    """A run's directory and state; a trainer adds how it builds, trains and saves its policy.

    ``agent`` is the agent-spec prefix of the trainer's policy files (``model`` or ``rllib``).
    """

    agent = "model"

    def __init__(
        self,
        config: configs.TrainConfig,
        out,
        resume: bool = False,
        progress: bool = True,
        echo=print,
        names: dict = RUN_FILES,
    ):
        self.files = RunFiles(Path(out), names)
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
                    f"a resumed run keeps its trainer, network, games and evaluation; cannot change {', '.join(changed)}"
                )
            self.state = self._saved_state()
            self.state["segments"] += 1
            self._drop_rows_after(self.state["steps"])
        else:
            if self.files.state.exists():
                raise ConfigError(f"{out} already holds a run; resume it, or choose another directory")
            if config.init_policy and not Path(config.init_policy).expanduser().is_file():
                raise ConfigError(f"init_policy {config.init_policy!r} names no file")
            self._clear_unstarted()
            self.state = {"steps": 0, "snapshots": [], "best": None, "segments": 0}
        self.config = config
        self.files.root.mkdir(parents=True, exist_ok=True)
        self.files.snapshots.mkdir(exist_ok=True)
        configs.write(config, self.files.config)
        self._clock = time.perf_counter() - self.state.get("seconds", 0.0)

    def _clear_unstarted(self) -> None:
        """Remove what a run that stopped before its first checkpoint left (no state.json yet):
        it holds nothing to resume, and must not block the same command run again."""
        if not self.files.config.exists():
            return
        self.echo(f"{self.files.root}: clearing a run that stopped before its first checkpoint")
        for role in self.files.names:
            path = getattr(self.files, role)
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()

    def _saved_state(self) -> dict:
        """state.json of the run, checked: its numbers have their types, and every snapshot it
        names lies in the run's directory (a model file may run code when loaded)."""
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
                        append_csv(path, {k: int(v) if k in ("steps", "games") else v for k, v in row.items()})

    def warm_start(self, network, outputs) -> None:
        """Imitation of the heuristic before PPO (``imitation_games``, ``imitation_epochs``,
        ``imitation_learning_rate``, ``imitation_batch_size``): the same for every backend.

        Records the heuristic's self-play games on this machine's processes, then fits
        `network` (``outputs`` as :func:`.imitation.imitate` takes it); the epochs go to
        ``imitation.csv``.
        """
        c = self.config
        workers = self.workers()
        self.echo(
            f"imitation: recording {c.imitation_games} heuristic self-play games on {workers} process{'es' * (workers > 1)}"
        )
        with self.bar(c.imitation_games, "games") as bar:
            data = imitation.demonstrations(c.imitation_games, c.players, c.reward, c.seed, workers, bar.update)
        self.echo(f"imitation: {len(data)} decisions; fitting the network for {c.imitation_epochs} epochs")
        with self.bar(c.imitation_epochs, "epochs") as bar:

            def epoch_done(row):
                append_csv(self.files.imitation, row)
                bar.set_postfix(accuracy=f"{row['accuracy']:.3f}")
                bar.update()

            fit = (c.imitation_epochs, c.imitation_batch_size, c.imitation_learning_rate, c.seed)
            history = imitation.imitate(network, outputs, data, *fit, epoch_done)
        self.echo(f"imitation: held-out accuracy {history[-1]['accuracy']:.3f} (the heuristic's own choice)")

    def workers(self) -> int:
        return self.config.workers or os.cpu_count() or 1

    def bar(self, total: int, unit: str, initial: int = 0):
        from ..progress import progress

        return progress(total=total, initial=initial, unit=unit, show=self.show_progress)

    def save_state(self, steps: int) -> None:
        """Write state.json after the trainer saved its checkpoint at `steps` (a crash between the two loses one interval)."""
        self.state["steps"] = int(steps)
        self.state["seconds"] = round(time.perf_counter() - self._clock, 1)  # wall-clock, all segments
        self.files.state.write_text(json.dumps(self.state, indent=1))

    def evaluate(self, steps: int, save, ray_address: str | None = None) -> list[dict]:
        """Evaluate the policy that ``save(path)`` writes; keep it as the best if it beats the last
        opponent best so far. Rows as :func:`~training.learning.baselines.evaluate_agent` gives them."""
        c = self.config
        candidate = self.files.root / f"evaluated{Path(self.files.names['best']).suffix}"
        save(candidate)
        rows = evaluate_agent(
            trusting(f"{self.agent}:{candidate}"),  # the run's own file
            c.evaluation_specs(),
            c.players,
            c.eval_games,
            seed=c.seed,
            workers=self.workers(),
            ray_address=ray_address,
            progress_bar=self.show_progress,
        )
        for row in rows:
            append_csv(
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
        score = rows[-1]["win_rate"]
        if self.state["best"] is None or score >= self.state["best"]["win_rate"]:  # ties: the later policy
            shutil.copyfile(candidate, self.files.best)
            self.state["best"] = {"steps": steps, "opponent": rows[-1]["opponent"], "win_rate": score}
        candidate.unlink()
        self.state["evaluated"] = steps
        return rows

    def report(self, rows: list[dict], steps: int, write) -> None:
        write(
            f"step {steps:,}: win rate "
            + ", ".join(
                f"{r['win_rate']:.2f} [{r['win_ci'][0]:.2f}, {r['win_ci'][1]:.2f}] vs {r['opponent']}" for r in rows
            )
        )

    def final_evaluation(self) -> list[dict]:
        """The best policy's results against every evaluation opponent, as :func:`~training.learning.baselines.evaluate_agent` gives them."""
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

    def result(self) -> dict:
        """The run's end: the learning curve drawn, and what the command prints."""
        from .figures import learning_curve

        files = self.files
        learning_curve(read_csv(files.evaluations), read_csv(files.training), self.config, files.curve)
        rows = self.final_evaluation()
        return {"steps": self.state["steps"], "rows": rows, "files": self.files, "state": self.state}

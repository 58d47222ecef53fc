"""A recipe: the stages that make a network, one after another (``tribune make``).

A shipped network is made by one recipe for its table size, run by one command. A recipe is a
TOML file: top-level training settings shared by every stage (deltas over the defaults of
:class:`.config.TrainConfig`), then ``[[stage]]`` tables, each a ``name`` and the settings in
which it differs. Each stage is a ``tribune train`` run that starts from the stage before's
network (the first from the top-level ``init_policy``, or from nothing); a stage with a
``league`` table (:class:`.league.LeagueConfig`'s settings) is a ``tribune league`` from it instead. Stage i
(0-based) plays with seed ``seed + i`` unless it gives its own, so that every stage plays new
games. In ``OUT``::

    recipe.toml        the recipe as resolved when the run started (``--resume`` reads it)
    1-NAME/, 2-NAME/   each stage's run (a league's directory for a league stage)
    stages.csv         per finished stage: its decisions, minutes, and its network's evaluation
    curve.png          the finished stages' learning curves end to end, each stage's start marked
    policy.pt          a copy of the latest stage's network (play it as ``policy:OUT/policy.pt``)

A training stage is done when its network (``policy.pt``) is there, a league when its last
network is measured too; a resumed recipe starts at the first stage not done and resumes it.
"""

from __future__ import annotations

import csv
import shutil
from dataclasses import dataclass
from pathlib import Path

from tribune_env import files
from tribune_env.errors import ConfigError

from . import config as configs
from .league import LeagueConfig

RECIPE, STAGES, POLICY, CURVE = "recipe.toml", "stages.csv", "policy.pt", "curve.png"
MAX_STAGES = 20
STAGE_KEYS = {"name", "league"}


@dataclass(frozen=True)
class Stage:
    """One run of a recipe: its name, its training settings, and a league's when it is one."""

    name: str
    config: configs.TrainConfig
    league: LeagueConfig | None = None


def parse(table: dict, source: str) -> tuple[dict, list[dict]]:
    """A recipe's shared settings and its stage tables, checked for shape; ConfigError names what is wrong."""
    if not isinstance(table, dict):
        raise ConfigError(f"{source}: not a table of settings")
    shared = {k: v for k, v in table.items() if k != "stage"}
    stages = table.get("stage")
    if not isinstance(stages, list) or not stages or not all(isinstance(s, dict) for s in stages):
        raise ConfigError(f"{source}: a recipe needs [[stage]] tables (one per run), got {stages!r}")
    if len(stages) > MAX_STAGES:
        raise ConfigError(f"{source}: at most {MAX_STAGES} stages, got {len(stages)}")
    names = [s.get("name") for s in stages]
    for name in names:
        if not isinstance(name, str) or not name.isidentifier():
            raise ConfigError(f"{source}: each stage needs a name of letters, digits and _, got {name!r}")
    if len(set(names)) < len(names):
        raise ConfigError(f"{source}: stage names repeat: {', '.join(names)}")
    for stage in stages:
        if "init_policy" in stage:
            raise ConfigError(
                f"{source}: stage {stage['name']} gives init_policy, but each stage starts from the stage before "
                "(the first from the recipe's top-level init_policy)"
            )
    return shared, stages


def stages(table: dict, source: str) -> list[Stage]:
    """The recipe's stages, each config resolved and checked (bad settings raise ConfigError by stage)."""
    shared, tables = parse(table, source)
    base = configs.from_dict(shared, source=source)
    result = []
    for index, stage in enumerate(tables):
        where = f"{source}, stage {stage['name']}"
        settings = {k: v for k, v in stage.items() if k not in STAGE_KEYS}
        settings.setdefault("seed", base.seed + index)
        try:
            config = configs.from_dict(settings, base, source=where)
        except ConfigError as exc:  # a range error does not say where it is
            raise exc if str(exc).startswith(where) else ConfigError(f"{where}: {exc}") from None
        league = stage.get("league")
        if league is not None:
            league = LeagueConfig.from_dict(league, where + ", league")
        result.append(Stage(stage["name"], config, league))
    if result[0].league is not None and not result[0].config.init_policy:
        raise ConfigError(f"{source}: a league stage needs a network to start from; put a training stage first")
    return result


def read(path) -> tuple[dict, list[Stage]]:
    """A recipe file: its raw table (saved with the run) and its stages."""
    table = files.read_toml(path, configs.MAX_BYTES)
    return table, stages(table, str(path))


class Run:
    """A recipe's directory: where each stage's run is, and what it is given."""

    def __init__(self, out: Path, recipe: list[Stage], echo=print):
        self.out, self.recipe, self.echo = out, recipe, echo

    def directory(self, index: int) -> Path:
        return self.out / f"{index + 1}-{self.recipe[index].name}"

    def network(self, index: int) -> Path:
        return self.directory(index) / POLICY

    def done(self, index: int) -> bool:
        """A training stage is done when its network is written; a league when its last network is measured too."""
        from .league import finished

        stage = self.recipe[index]
        if stage.league is None:
            return self.network(index).exists()
        return finished(self.directory(index), stage.league.rounds)

    def config(self, index: int) -> configs.TrainConfig:
        """Stage `index`'s settings, started from the network of the stage before."""
        config = self.recipe[index].config
        return config.replace(init_policy=str(self.network(index - 1))) if index else config

    def run(self) -> list[dict]:
        """Run the stages not done yet, in order, each one's network and figures out as it ends; the rows
        of ``stages.csv``."""
        last = len(self.recipe) - 1
        for index in range(last):
            if not self.done(index):
                self.run_stage(index)
                self.publish(index)  # while the next stage runs
        if not self.done(last):
            self.run_stage(last)
        return self.publish(last)

    def publish(self, index: int) -> list[dict]:
        """Stage `index`'s network as ``OUT/policy.pt``, and the finished stages' figures; their rows."""
        shutil.copyfile(self.network(index), self.out / POLICY)
        return self.report()

    def run_stage(self, index: int) -> None:
        from . import league, selfplay
        from .runs import RunFiles

        stage, out, config = self.recipe[index], self.directory(index), self.config(index)
        where = f"stage {index + 1} of {len(self.recipe)} ({stage.name})"
        if stage.league is None:
            resume = RunFiles(out).state.exists()
            self.echo(f"\n{where}: {'resuming' if resume else 'training'} {out} for {config.steps:,} decisions")
            selfplay.train(config, out, resume=resume, echo=self.echo)
            return
        if (out / league.SETTINGS).exists():
            found = league.resume(out, {}, echo=self.echo)
        else:
            found = league.start(config, configs.TrainConfig(), stage.league, out, echo=self.echo)
        self.echo(f"\n{where}: a league of {stage.league.rounds} round(s) in {out}")
        found.run()

    def report(self) -> list[dict]:
        """Write ``stages.csv`` and ``curve.png`` from the finished stages; the rows of ``stages.csv``."""
        done = [i for i in range(len(self.recipe)) if self.done(i)]
        rows = [self.row(i) for i in done]
        with open(self.out / STAGES, "w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=list(dict.fromkeys(k for row in rows for k in row)) or ["stage"])
            writer.writeheader()
            writer.writerows(rows)
        if done:
            self.curve(done)
        return rows

    def runs(self, index: int) -> list[Path]:
        """The training runs of stage `index`, in order: the stage's own, or its league's main runs."""
        from .league import trainee

        stage = self.recipe[index]
        if stage.league is None:
            return [self.directory(index)]
        return [trainee(self.directory(index), number) for number in range(1, stage.league.rounds + 1)]

    def curve(self, stages: list[int]) -> None:
        """The training and evaluation logs of `stages`' runs end to end, each run's steps after the last's."""
        from .figures import learning_curve
        from .runs import RunFiles, read_csv

        evaluations, training, starts, offset = [], [], [], 0
        for index in stages:
            starts.append((offset, self.recipe[index].name))
            for run in self.runs(index):
                logs = RunFiles(run)
                for log, found in zip((evaluations, training), (read_csv(logs.evaluations), read_csv(logs.training))):
                    log.extend({**row, "steps": row["steps"] + offset} for row in found)
                offset += int(state(run)["steps"])
        learning_curve(evaluations, training, self.recipe[0].config, self.out / CURVE, starts)

    def row(self, index: int) -> dict:
        """A finished stage: its decisions and minutes, its network's last evaluation against each opponent,
        and for a league the win rate of the best response to its last network."""
        from . import league
        from .runs import read_csv

        stage, out = self.recipe[index], self.directory(index)
        states = [state(run) for run in self.runs(index)]
        row = {"stage": f"{index + 1}-{stage.name}", "decisions": sum(int(s["steps"]) for s in states)}
        if stage.league is None:
            return row | {"minutes": round(states[0]["seconds"] / 60, 1)} | evaluation(out)
        rounds = read_csv(out / league.ROUNDS)
        return row | {
            "minutes": round(sum(r["minutes"] for r in rounds), 1),
            **evaluation(league.trainee(out, stage.league.rounds)),
            "best_response": round(rounds[-1]["vs_network"], 4),
        }


def state(run: Path) -> dict:
    """A training run's state.json: its decisions so far (``steps``) and ``seconds``, among others."""
    from .runs import RunFiles

    return files.read_json(RunFiles(run).state, configs.MAX_BYTES)


def evaluation(run: Path) -> dict:
    """A training run's last evaluation: its win rate against each opponent."""
    from .runs import RunFiles, read_csv

    rows = read_csv(RunFiles(run).evaluations)
    return {f"vs_{r['opponent']}": round(r["win_rate"], 4) for r in rows if r["steps"] == rows[-1]["steps"]}


def start(path, out, echo=print) -> Run:
    """A new run of the recipe file `path` in `out`: its stages checked, the recipe saved for ``--resume``."""
    table, recipe = read(path)
    source = str(path)
    out = Path(out).resolve()
    if out.is_dir() and any(out.iterdir()):
        raise ConfigError(f"{out} is not empty: resume the recipe there (--resume), or choose another directory")
    first = recipe[0].config.init_policy
    if first:  # saved absolute, so that the run resumes from any directory
        first = str(Path(first).expanduser().resolve())
        if not Path(first).is_file():
            raise ConfigError(f"{source}: init_policy {recipe[0].config.init_policy!r} names no file")
        table = {**table, "init_policy": first}
        recipe = stages(table, source)
    out.mkdir(parents=True, exist_ok=True)
    write(table, out / RECIPE)
    return Run(out, recipe, echo)


def write(table: dict, path: Path) -> None:
    """A checked recipe table as TOML: its shared settings, then one [[stage]] table per stage."""
    value = configs.toml_value

    def lines(settings: dict) -> list[str]:
        return [
            f"{k} = {{{', '.join(f'{n} = {value(v)}' for n, v in s.items())}}}"
            if isinstance(s := settings[k], dict)
            else f"{k} = {value(s)}"
            for k in settings
        ]

    text = lines({k: v for k, v in table.items() if k != "stage"})
    for stage in table["stage"]:
        text += ["", "[[stage]]", *lines(stage)]
    path.write_text("\n".join(text) + "\n")


def resume(out, echo=print) -> Run:
    """The recipe run in `out`, from its saved recipe."""
    out = Path(out).resolve()
    if not (out / RECIPE).exists():
        raise ConfigError(f"nothing to resume in {out}: no {RECIPE}")
    return Run(out, read(out / RECIPE)[1], echo)


def table(rows: list[dict]) -> str:
    """The finished stages as a text table, one line each."""
    keys = list(dict.fromkeys(k for row in rows for k in row))
    lines = [" ".join(f"{k:>14}" for k in keys)]
    for row in rows:
        lines.append(" ".join(f"{row.get(k, ''):>14}" for k in keys))
    return "\n".join(lines)

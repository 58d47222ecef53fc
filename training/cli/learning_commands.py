"""``tribune train``, ``evaluate``, ``exploit``, ``league``, ``expert`` and ``make``.

Every training setting is a flag, generated from :class:`training.learning.config.TrainConfig` (and
``tribune league``'s from :class:`training.learning.league.LeagueConfig`), so flags and config
files always offer the same settings. Precedence: the defaults, then
``--config FILE``, then the flags given. ``--resume`` reads the run's saved settings
instead of the defaults and the file; flags still apply (``--steps`` extends a run).
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import click

from tribune_env.errors import ConfigError

from ..bounds import MAX_GAMES
from ..learning import config as configs
from ..learning.league import LeagueConfig
from .options import (
    SEED,
    WORKERS,
    Recipe,
    loads_models,
    needs_extra,
    output,
    ray_address,
    run_directory,
    takes_agents,
    trusted_specs,
    trusts_models,
    usage_errors,
)


def _setting_flags(settings):
    """One --flag per field of the settings dataclass (TrainConfig, LeagueConfig), with None meaning 'not given'."""

    def add(command):
        for f in reversed(fields(settings)):
            kind = {int: click.INT, float: click.FLOAT, str: click.STRING}[type(f.default)]
            bounds = f"{f.metadata['range']}; " if f.metadata["range"] else ""
            command = click.option(
                f"--{f.name.replace('_', '-')}",
                f.name,
                type=kind,
                default=None,
                help=f"{f.metadata['help']} [{bounds}default: {f.default}]",
            )(command)
        return command

    return add


@loads_models
@click.command("train")
@click.option(
    "--config",
    "config_file",
    type=Recipe(),
    help="A TOML file of settings, or the name of a shipped recipe (quick, selfplay-4p, ...: training/configs/).",
)
@run_directory("runs/latest", "The run's directory: checkpoints, snapshots, logs, models and plots.")
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the run in --out from its last checkpoint (the files it names must lie in --out).",
)
@ray_address(
    "With --backend rllib: the Ray cluster to train on, 'auto' or HOST:PORT [default: start a Ray for this run]."
)
@_setting_flags(configs.TrainConfig)
def train_command(config_file, out, resume, ray_address, **flags):
    """Self-play training with PPO against a pool of baselines and earlier snapshots.

    --backend sb3 (the default) trains with sb3-contrib's MaskablePPO on this machine;
    --backend rllib with RLlib's PPO on Ray, over --env-runners env runners (docs/scaling.md).
    Shows a progress bar, logs to CSV, evaluates against the baseline agents every
    --eval-every steps and keeps the best policy. Ends with the best policy's results
    table and the learning-curve plot.
    """
    given = {k: v for k, v in flags.items() if v is not None}
    saved = Path(out) / "config.toml"
    if resume and config_file:
        raise click.UsageError("--resume reads the run's own config.toml; leave out --config")
    if resume and not saved.exists():
        raise click.ClickException(f"nothing to resume in {out}: no config.toml")
    with usage_errors():
        if resume:
            base = configs.read(saved)
        else:
            base = configs.read(config_file) if config_file else configs.TrainConfig()
        config = configs.from_dict(given, base, source="flags")
        tables = f" (games at {config.table_sizes} players in turn, {config.stage_steps:,} steps each)"
        click.echo(
            f"training {config.players}-player self-play{tables if config.table_sizes else ''} "
            f"with {config.backend} for {config.steps:,} steps into {out}"
        )
        if config.backend == "rllib":
            from ..cluster import require_ray

            require_ray()  # before the trainer's modules import it
            from ..rllib import trainer

            result = trainer.train(config, out, resume=resume, ray_address=ray_address, echo=click.echo)
        else:
            if ray_address:
                raise ConfigError("--ray-address needs --backend rllib")
            from ..learning import selfplay

            result = selfplay.train(config, out, resume=resume, echo=click.echo)
    files, state = result["files"], result["state"]
    best = state["best"]
    click.echo(f"\ntrained {state['steps']:,} steps in {state['seconds'] / 60:.1f} minutes")
    click.echo(f"best policy: {files.best} (step {best['steps']:,}); its evaluation:")
    from ..learning.baselines import table

    click.echo(table(result["rows"]))
    logs = [files.training, files.evaluations, files.root / "progress.csv"]
    logs += [f"{files.tensorboard}/"] if config.backend == "sb3" else []
    click.echo(f"\nlearning curve: {files.curve}\nlogs: {', '.join(map(str, logs))}")


def model_spec(model: str) -> str:
    """The agent spec of `tribune evaluate`'s MODEL: a spec as given, a .zip as a model, any
    other file as the weights file it is (policy or RLlib policy, told by its format)."""
    from agents import weights

    if ":" in model:
        return model
    return f"model:{model}" if Path(model).suffix == ".zip" else weights.spec_of(model)


@loads_models
@takes_agents
@trusts_models
@click.command("evaluate")
@click.argument("model")
@click.option(
    "--opponents",
    default="random,heuristic",
    show_default=True,
    help="Agent specs to play against, comma-separated; each is evaluated separately.",
)
@click.option(
    "--players",
    type=click.IntRange(2, 5),
    default=2,
    show_default=True,
    help="Players per game: the model in one seat, the opponent in all others.",
)
@click.option(
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    default=200,
    show_default=True,
    help="Games per opponent, rounded up to whole deals (one per seat rotation).",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--workers", type=WORKERS, help="Processes [default: the number of CPUs].")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    callback=output(directory=True),
    help="Write evaluation.json and evaluation.png here.",
)
@ray_address("Play the games as Ray tasks on this cluster: 'auto', HOST:PORT, or 'local' to start a Ray here.")
def evaluate_command(model, opponents, players, games, seed, workers, out, ray_address, trust_model_files):
    """Play a trained policy against baseline agents: win rates with 95% intervals.

    MODEL is a MaskablePPO .zip or a policy file .pt (tribune train, either backend), or any
    agent spec (guided:net=PATH.pt).
    """
    from agents import make_agent, split_specs

    from ..learning import baselines, figures

    specs = [s for s in split_specs(opponents) if s]
    if not specs:
        raise click.BadParameter("name at least one agent spec", param_hint="--opponents")
    with usage_errors():
        agent, *specs = trusted_specs([model_spec(model), *specs], trust_model_files)
        for spec in [agent, *specs]:
            made = make_agent(spec)  # a bad spec or model file stops here
            trained = getattr(made, "players", ())
            if trained and players not in trained:
                sizes = " or ".join(map(str, trained))
                click.echo(f"warning: {spec} was trained at {sizes} players; here it plays {players}", err=True)
        rows = baselines.evaluate_agent(agent, specs, players, games, seed, workers, ray_address=ray_address)
    click.echo(baselines.table(rows))
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / "evaluation.json").write_text(
            json.dumps({"model": str(model), "seed": seed, "rows": rows}, indent=1)
        )
        figures.evaluation(rows, Path(out) / "evaluation.png")
        click.echo(f"\nwrote {out}/evaluation.json and evaluation.png")


@loads_models
@takes_agents
@click.command("exploit")
@click.argument("agent")
@click.option("--players", type=click.IntRange(2, 5), default=2, show_default=True, help="Players per game.")
@click.option(
    "--decisions",
    type=click.IntRange(1, configs.MAX_STEPS),
    default=500_000,
    show_default=True,
    help="The best response's training budget in its own decisions, rounded up to whole rollouts.",
)
@click.option(
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    default=1000,
    show_default=True,
    help="Games against the agent, and as many against the heuristic, rounded up to whole deals.",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the training and of the games.")
@click.option(
    "--start",
    metavar="target|scratch|PATH.pt",
    default="target",
    show_default=True,
    help="The best response's first network: target (the agent's own when it is a policy: file, "
    "else a new one), scratch (a new one) or a policy file PATH.pt.",
)
@click.option(
    "--config",
    "config_file",
    type=Recipe(),
    help="A TOML file of training settings, as tribune train takes, for all but the opponent, the budget, "
    "the start and the evaluation [default: tribune train's defaults].",
)
@click.option(
    "--workers", type=WORKERS, help="Processes for the games [default: the config's workers, or the number of CPUs]."
)
@run_directory("runs/exploit", "The best response's run directory (tribune train's files) and its exploit.json.")
def exploit_command(agent, players, decisions, games, seed, start, config_file, workers, out):
    """Measure how exploitable AGENT is: train a best response against it, frozen.

    AGENT is an agent spec without options. A tribune train run learns against AGENT in every
    other seat, and it alone, for --decisions
    of its own decisions; then it plays --games against AGENT and as many against the heuristic
    (whole deals, every seating, its most probable moves). Prints both win rates with 95%
    intervals beside parity, and writes them to exploit.json in --out with the run's files
    (its network: policy.pt). The closer to parity against AGENT, the less exploitable AGENT is.
    """
    from ..learning import exploit

    with usage_errors():
        base = configs.read(config_file) if config_file else configs.TrainConfig()
        base = base.replace(workers=workers) if workers else base
        config = exploit.best_response_config(agent, players, decisions, games, seed, start, base)
        click.echo(
            f"training a best response to {agent} at {players} players for {config.steps:,} decisions into {out}"
        )
        found = exploit.measure(agent, config, out, echo=click.echo)
    click.echo("\n" + exploit.table(found))
    click.echo(f"\nwrote {Path(out) / exploit.SUMMARY}; the best response plays as policy:{found['policy']}")


@loads_models
@click.command("league")
@click.option(
    "--config",
    "config_file",
    type=Recipe(),
    help="The main network's training settings, as tribune train takes them (a TOML file or a shipped recipe: "
    "quick): init_policy is the network it starts from, baselines the fixed part of its pool, steps its "
    "decisions each round.",
)
@click.option(
    "--exploit-config",
    type=Recipe(),
    help="The exploiters' training settings, as tribune exploit --config takes them, with the main network's "
    "net_arch, workers and precision [default: tribune train's defaults].",
)
@run_directory(
    "runs/league", "The league's directory: round-N/exploiter and round-N/main runs, rounds.csv, curve.png, policy.pt."
)
@click.option(
    "--resume",
    is_flag=True,
    help="Go on with the league in --out at its first unfinished step (--rounds extends it).",
)
@_setting_flags(LeagueConfig)
def league_command(config_file, exploit_config, out, resume, **flags):
    """Make a network hard to exploit: best responses to it, found and trained against, round after round.

    Each round trains an exploiter (a best response, as tribune exploit does) against the current
    network, then trains the network (as tribune train does) against a pool of the recipe's
    baselines, every exploiter so far and every earlier network. After the last round one more
    exploiter measures the last network. Writes each exploiter's win rates against the network
    it attacked and the heuristic to rounds.csv and curve.png in --out, the latest network to
    policy.pt (play it as policy:OUT/policy.pt).
    """
    with needs_extra("train", "tribune league"):  # the runs, the curve
        import matplotlib  # noqa: F401
        import sb3_contrib  # noqa: F401

        from ..learning import league

    given = {k: v for k, v in flags.items() if v is not None}
    if resume and (config_file or exploit_config):
        raise click.UsageError("--resume reads the league's own settings; leave out --config and --exploit-config")
    with usage_errors():
        if resume:
            run = league.resume(out, given, echo=click.echo)
        else:
            main = configs.read(config_file) if config_file else configs.TrainConfig()
            exploiters = configs.read(exploit_config) if exploit_config else configs.TrainConfig()
            run = league.start(main, exploiters, LeagueConfig(**given), out, echo=click.echo)
        click.echo(
            f"a league at {run.main.players} players into {run.out}: {run.settings.rounds} round"
            f"{'s' * (run.settings.rounds != 1)} of {run.main.steps:,} decisions, then the last network's exploiter"
        )
        rows = run.run()
    click.echo("\n" + league.table(rows, run.main.players))
    click.echo(
        f"\nnetwork: {run.out / league.POLICY}; rounds: {run.out / league.ROUNDS}; curve: {run.out / league.CURVE}"
    )


@click.command("expert")
@click.option(
    "--config",
    "config_file",
    type=click.Path(exists=True, dir_okay=False),
    help="A TOML file of expert-iteration settings (docs/training.md) [default: the defaults].",
)
@run_directory("runs/expert", "The run's directory: config.json, rounds.csv, curve.png, policy.pt, checkpoint.pt.")
@click.option("--resume", is_flag=True, help="Go on with the run in --out from its last round.")
@click.option(
    "--rounds", type=click.IntRange(1, 10**6), help="Rounds in all (to extend a run) [default: the recipe's]."
)
def expert_command(config_file, out, resume, rounds):
    """Expert iteration: the network learns from its own search, round after round.

    Each round the search guided by the network plays self-play games (a share of them
    against the heuristic), the network is trained on the search's improved policies and
    the games' outcomes, and its win rate against the heuristic is measured. Writes the
    rounds to rounds.csv and curve.png in --out, the network to policy.pt (play it as
    policy:OUT/policy.pt, or searched as expert:net=OUT/policy.pt).
    """
    with needs_extra("train", "tribune expert"):  # torch, the evaluations' tournaments, the curve
        import matplotlib  # noqa: F401
        import torch  # noqa: F401

        from ..learning import expert

    saved = Path(out) / expert.CONFIG
    if resume and config_file:
        raise click.UsageError("--resume reads the run's own config.json; leave out --config")
    if resume and not saved.exists():
        raise click.ClickException(f"nothing to resume in {out}: no {expert.CONFIG}")
    with usage_errors():
        settings = expert.read_settings(saved if resume else config_file)
        config = expert.ExpertConfig.from_dict(settings | ({"rounds": rounds} if rounds else {}))
        click.echo(
            f"expert iteration at {config.players} players into {out}: {config.rounds} round"
            f"{'s' * (config.rounds != 1)} of {config.decisions:,} searched decisions"
        )
        rows = expert.run(config, out, resume=resume, echo=click.echo)
    if rows:
        click.echo(f"\nnetwork: {Path(out) / expert.POLICY}; curve: {Path(out) / expert.CURVE}")


@loads_models
@click.command("make")
@click.argument("recipe", type=Recipe(), required=False)
@run_directory("runs/make", "The recipe's directory: one run per stage, stages.csv, curve.png, policy.pt.")
@click.option("--resume", is_flag=True, help="Go on with the recipe in --out at its first unfinished stage.")
def make_command(recipe, out, resume):
    """Make a network by a recipe: its stages of training, one after another.

    RECIPE is a TOML file of stages or a shipped recipe's name (2p, 3p, 4p, 5p: the shipped
    networks' recipes, training/configs/). Each stage is a tribune train run (or a tribune league)
    from the stage before's network. Writes each stage's decisions, minutes and evaluation to
    stages.csv in --out, the latest network to policy.pt (play it as policy:OUT/policy.pt).
    """
    with needs_extra("train", "tribune make"):
        import sb3_contrib  # noqa: F401

        from ..learning import recipe as recipes

    if resume == bool(recipe):
        raise click.UsageError("give a RECIPE to start, or --resume to go on with the one in --out (not both)")
    with usage_errors():
        if resume:
            run = recipes.resume(out, echo=click.echo)
        else:
            run = recipes.start(recipe, out, echo=click.echo)
        names = ", ".join(stage.name for stage in run.recipe)
        click.echo(f"making a {run.recipe[0].config.players}-player network into {run.out}: stages {names}")
        rows = run.run()
    click.echo("\n" + recipes.table(rows))
    click.echo(
        f"\nnetwork: {run.out / recipes.POLICY}; stages: {run.out / recipes.STAGES}; curve: {run.out / recipes.CURVE}"
    )

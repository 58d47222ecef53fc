"""The ``tribune`` command: ``demo``, ``bench``, ``tournament``, ``play``, ``replay``, ``train`` and ``evaluate``.

Heavy modules (the engine, agents, matplotlib) are imported inside the commands, so that
``tribune --help`` stays quick.
"""
from __future__ import annotations

import inspect
import json
import math
import os
import sys
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path

import click

from training.limits import MAX_GAMES, MAX_ROUND_LIMIT, MAX_SEED, MAX_WORKERS

from .errors import ConfigError
from .files import check_output

SEED = click.IntRange(0, MAX_SEED)
WORKERS = click.IntRange(1, MAX_WORKERS)


class FiniteRange(click.FloatRange):
    """A FloatRange that refuses nan too (it compares false with any bound)."""

    def convert(self, value, param, ctx):
        value = super().convert(value, param, ctx)
        if math.isnan(value):
            self.fail("nan is not a number", param, ctx)
        return value


def loads_models(command: click.Command) -> click.Command:
    """Say in a command's help that the model files it may load run code."""
    command.help = inspect.cleandoc(command.help) + ("\n\nModel files (a model:PATH.zip spec, a run's checkpoint) are stable-baselines3 zips "
                     "of pickled Python objects: loading one runs its code, so load only model files you trust.")
    return command


def output(directory: bool = False):
    """A click callback refusing an output path that cannot be written, before the command does any work."""
    def check(ctx, param, value):
        if value is not None:
            try:
                check_output(value, directory)
            except ConfigError as exc:
                raise click.BadParameter(str(exc), ctx, param) from None
        return value
    return check


@click.group()
def main():
    """Tribune: Primus Inter Pares as a reinforcement-learning environment."""


@main.command()
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--quiet", is_flag=True, help="Print only the final table.")
def demo(players, seed, quiet):
    """Play one seeded game with random players and print it."""
    from .demo import show
    show(players, seed, quiet)


@main.command()
@click.option("--seconds", type=FiniteRange(0.1, 3600), default=3.0, show_default=True,
              help="Time per environment per repeat.")
@click.option("--repeats", type=click.IntRange(1, 100), default=3, show_default=True)
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--num-envs", type=click.IntRange(1, 4096), default=64, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--json", "json_path", type=click.Path(dir_okay=False), callback=output(),
              help="Also write the figures to this JSON file.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), callback=output(),
              help="Also draw them as a PNG bar chart (needs matplotlib, in the train extra).")
def bench(seconds, repeats, players, num_envs, seed, json_path, plot_path):
    """Decisions per second: tribune's AEC and vector environments against PettingZoo's
    connect_four_v3 and texas_holdem_v4, all with random legal actions."""
    try:
        from . import bench as b
        results = b.run(seconds, repeats, players, num_envs, seed)
    except ImportError as exc:
        raise click.ClickException(f"{exc}; the benchmark needs the bench extra: "
                                   f"pip install -e '.[bench]'") from None
    click.echo(b.report(results, players, num_envs))
    for path in filter(None, (json_path, plot_path)):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    if json_path:
        with open(json_path, "w") as f:
            json.dump({"seconds": seconds, "repeats": repeats, "players": players, "num_envs": num_envs,
                       "results": [{"name": r.name, "rates": r.rates, "median": r.median} for r in results]},
                      f, indent=2)
    if plot_path:
        b.plot(results, plot_path)


@contextmanager
def usage_errors():
    """The package's errors (bad configuration, records, illegal actions) as messages, not tracebacks."""
    from .errors import TribuneError
    try:
        yield
    except TribuneError as exc:
        raise click.ClickException(str(exc)) from None


def _game_options(command):
    """--victory-card, --point-variant and --round-limit, shared by tournament and play."""
    for option in reversed([
        click.option("--victory-card", metavar="ID",
                     help="A victory card id [default: drawn with each deal]."),
        click.option("--point-variant", is_flag=True, help="Play the point-value variant (no victory card)."),
        click.option("--round-limit", type=click.IntRange(1, MAX_ROUND_LIMIT),
                     help="Rounds after which a game is truncated [default: the engine's]."),
    ]):
        command = option(command)
    return command


def _settings(players, victory_card, point_variant, round_limit) -> dict:
    """Game settings, checked by dealing one game, with the round limit made explicit."""
    from . import Game
    settings = {"num_players": players, "victory_card": victory_card, "point_variant": point_variant,
                "round_limit": round_limit}
    with usage_errors():
        settings["round_limit"] = Game(**settings, seed=0, log=False).round_limit
    return settings


def _agents(specs) -> list:
    """One agent per spec; an unknown or unavailable agent is a usage error."""
    from agents import make_agent
    try:
        with usage_errors():
            return [make_agent(spec) for spec in specs]
    except ImportError as exc:
        raise click.ClickException(f"an agent is not available: {exc}") from None


@loads_models
@main.command()
@click.argument("specs", metavar="AGENT...", nargs=-1, required=True)
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=100, show_default=True,
              help="Games to play, rounded up to whole deals (each deal is played in every seat rotation).")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--workers", type=WORKERS, help="Processes [default: the number of CPUs].")
@_game_options
@click.option("--out", type=click.Path(file_okay=False), callback=output(directory=True),
              help="Write results.json, games.csv and tournament.png here.")
@click.option("--records", type=click.Path(dir_okay=False), callback=output(),
              help="Save every game as a record, one JSON line each, for tribune replay (the file is "
                   "replaced, and written as the games end).")
def tournament(specs, games, seed, workers, victory_card, point_variant, round_limit, out, records):
    """Play agents against each other, one spec per seat (2 to 5 seats).

    AGENT specs: random, heuristic, ismcts[:key=value,...], model:PATH.zip; the same spec may
    sit in several seats. Every deal is played once per rotation of the seating, so each
    entrant plays every seat with the same cards. Reports win rates with 95% Wilson
    intervals, mean scores and ranks, OpenSkill ratings and how the games ended.
    """
    if not 2 <= len(specs) <= 5:
        raise click.UsageError(f"give one agent spec per seat, 2 to 5 of them; got {len(specs)}")
    from training import plots, report
    from training import records as saved
    from training import tournament as t
    settings = _settings(len(specs), victory_card, point_variant, round_limit)
    _agents(dict.fromkeys(specs))               # a bad spec stops here, before any game
    with usage_errors(), saved.writer(records) if records else nullcontext() as add_record:
        results = t.run(list(specs), games, seed, settings, workers, on_record=add_record)
    summary = t.summarize(results, list(specs), seed, settings)
    click.echo(report.text(summary))
    if out:
        report.write(Path(out), summary, results)
        plots.plot(summary, Path(out) / "tournament.png")
        click.echo(f"\nwrote {out}/results.json, games.csv and tournament.png")
    if records:
        click.echo(f"wrote {len(results)} game records to {records}")


@loads_models
@main.command()
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True, help="Your seat, from 0.")
@click.option("--opponents", default="random", show_default=True,
              help="Agent specs of the other seats in seat order, comma-separated; one spec fills them all.")
@click.option("--seed", type=SEED, help="Deal seed [default: a random one, shown].")
@_game_options
@click.option("--record", type=click.Path(dir_okay=False), callback=output(),
              help="Add the finished game to this records file (created if needed) for tribune replay.")
def play(players, seat, opponents, seed, victory_card, point_variant, round_limit, record):
    """Play a game in the terminal against agents.

    At each of your decisions you see what happened since your last one and the table as
    your seat sees it, then the legal actions, numbered: type a number or a label, or
    quit.
    """
    if seat >= players:
        raise click.UsageError(f"--seat must be 0 to {players - 1} for {players} players, got {seat}")
    from agents import split_specs
    specs = split_specs(opponents)
    specs = specs * (players - 1) if len(specs) == 1 else specs
    if len(specs) != players - 1:
        raise click.UsageError(f"{players} players need {players - 1} opponents (or one spec for all); "
                               f"got {len(specs)}: {', '.join(specs)}")
    from agents.human import HumanAgent, Quit
    from training import records as saved
    from training.games import ending, reset_agents
    from training.play import play_human

    from . import Game
    settings = _settings(players, victory_card, point_variant, round_limit)
    seed = int.from_bytes(os.urandom(4), "little") if seed is None else seed
    opponents = _agents(specs)
    human = HumanAgent()
    seated = specs[:seat] + ["human"] + specs[seat:]
    click.echo(f"Seed {seed}; you are player_{seat}; " + ", ".join(
        f"player_{p}: {spec}" for p, spec in enumerate(seated) if p != seat) + ".")
    game = Game(**settings, seed=seed)
    reset_agents(opponents[:seat] + [human] + opponents[seat:], seed)
    try:
        with usage_errors():
            played = play_human(game, human, seat, opponents, specs, click.echo)
    except Quit:
        click.echo("\nYou left the game.")
        return
    end = ending(game)
    click.echo("You won!" if seat in end["winners"] else
               f"You finished with {end['scores'][seat]} points, rank {end['ranks'][seat]} of {players}.")
    if record:
        drawn = victory_card is None and not point_variant
        saved.write(record, [saved.make(game, seed, drawn, seated, played.actions)], append=True)
        click.echo(f"added the game to {record}")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--game", "index", type=click.IntRange(min=0), default=0, show_default=True,
              help="Which game of the file (from 0, as numbered in games.csv).")
@click.option("--auto", is_flag=True, help="Play through without waiting for Enter.")
@click.option("--delay", type=FiniteRange(0, 60), default=0.0, show_default=True,
              help="Seconds to pause after each step with --auto.")
def replay(file, index, auto, delay):
    """Play back a saved game step by step: the table and what each step did.

    Waits for Enter between steps (q or end of input stops); at the end, checks that the
    game ended as the record says.
    """
    from training import records as saved
    with usage_errors():
        record = saved.read(file, index)
        total = len(record["actions"])
        click.echo(", ".join(f"player_{p}: {spec}" for p, spec in enumerate(record["agents"])))
        for game, step, lines in saved.replay(record):
            click.echo("\n".join([f"--- step {step} of {total}", *lines, "", game.render()]))
            if step < total and not _next_step(auto, delay):
                click.echo(f"Replay stopped at step {step} of {total}.")
                return
    if not saved.matches(game, record):
        raise click.ClickException(f"the replay does NOT end as recorded: recorded {record['outcome']}, "
                                   f"replayed {saved.outcome(game)}")
    click.echo(f"The replay ends as recorded: {record['outcome']}")


def _next_step(auto: bool, delay: float) -> bool:
    """Wait before the next replay step; False when the person stops."""
    if auto:
        time.sleep(delay)
        return True
    click.echo("[Enter: next step, q: stop] ", nl=False)
    line = sys.stdin.readline()
    return bool(line) and line.strip().lower() != "q"


def _training_commands():
    """``train`` and ``evaluate`` live with the training code; their heavy imports wait for their use."""
    from training.cli import evaluate, train
    main.add_command(train)
    main.add_command(evaluate)


_training_commands()

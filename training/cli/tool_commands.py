"""``tribune demo``, ``tribune bench`` and ``tribune gate``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .options import SEED, WORKERS, FiniteRange, needs_extra, output


@click.command("demo")
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--quiet", is_flag=True, help="Print only the final table.")
def demo_command(players, seed, quiet):
    """Play one seeded game with random players and print it."""
    from ..tools.demo import show

    show(players, seed, quiet)


@click.command("bench")
@click.option(
    "--seconds", type=FiniteRange(0.1, 3600), default=3.0, show_default=True, help="Time per environment per repeat."
)
@click.option("--repeats", type=click.IntRange(1, 100), default=3, show_default=True)
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--num-envs", type=click.IntRange(1, 4096), default=64, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False),
    callback=output(),
    help="Also write the figures to this JSON file.",
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    callback=output(),
    help="Also draw them as a PNG bar chart (needs matplotlib, in the train extra).",
)
def bench_command(seconds, repeats, players, num_envs, seed, json_path, plot_path):
    """Decisions per second: tribune's AEC and vector environments against PettingZoo's
    connect_four_v3 and texas_holdem_v4, all with random legal actions."""
    with needs_extra("bench", "the benchmark"):
        from ..tools import bench as b

        results = b.run(seconds, repeats, players, num_envs, seed)
    click.echo(b.report(results, players, num_envs))
    for path in filter(None, (json_path, plot_path)):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    if json_path:
        with open(json_path, "w") as f:
            json.dump(
                {
                    "seconds": seconds,
                    "repeats": repeats,
                    "players": players,
                    "num_envs": num_envs,
                    "results": [{"name": r.name, "rates": r.rates, "median": r.median} for r in results],
                },
                f,
                indent=2,
            )
    if plot_path:
        b.plot(results, plot_path)


@click.command("gate")
@click.option("--games", type=click.IntRange(1, 10**9), default=1_000_000, show_default=True)
@click.option(
    "--seed", type=SEED, default=0, show_default=True, help="The first game's seed; each game's seed is the next."
)
@click.option("--workers", type=WORKERS, default=2, show_default=True, help="Threads playing batches side by side.")
@click.option("--heuristic", type=FiniteRange(0, 1), default=0.1, show_default=True, help="Share of heuristic games.")
@click.option(
    "--short", type=FiniteRange(0, 1), default=0.1, show_default=True, help="Share with a round limit of 1-6."
)
@click.option(
    "--unforced", type=FiniteRange(0, 1), default=0.05, show_default=True, help="Share with auto_forced=False."
)
def gate_command(games, seed, workers, heuristic, short, unforced):
    """Play GAMES random and heuristic games (2-5 players, every victory card and the point
    variant) and check every invariant after every step; exit 1 on any violation, naming the
    first games that broke one."""
    from ..tools import gate

    tally = gate.run(games, seed, gate.Shares(heuristic, short, unforced), workers)
    click.echo(gate.report(tally))
    if tally.broken:
        raise SystemExit(1)

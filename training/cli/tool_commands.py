"""``tribune demo`` and ``tribune bench``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .options import SEED, FiniteRange, output


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
    try:
        from ..tools import bench as b

        results = b.run(seconds, repeats, players, num_envs, seed)
    except ImportError as exc:
        raise click.ClickException(f"{exc}; the benchmark needs the bench extra: pip install -e '.[bench]'") from None
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

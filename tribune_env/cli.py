"""The ``tribune`` command: ``tribune demo``, ``tribune bench`` (more in later subcommands)."""
from __future__ import annotations

import json

import click


@click.group()
def main():
    """Tribune: Primus Inter Pares as a reinforcement-learning environment."""


@main.command()
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--quiet", is_flag=True, help="Print only the final table.")
def demo(players, seed, quiet):
    """Play one seeded game with random players and print it."""
    from .demo import show
    show(players, seed, quiet)


@main.command()
@click.option("--seconds", type=click.FloatRange(min=0.1), default=3.0, show_default=True,
              help="Time per environment per repeat.")
@click.option("--repeats", type=click.IntRange(min=1), default=3, show_default=True)
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--num-envs", type=click.IntRange(min=1), default=64, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "json_path", type=click.Path(dir_okay=False, writable=True),
              help="Also write the figures to this JSON file.")
def bench(seconds, repeats, players, num_envs, seed, json_path):
    """Decisions per second: tribune's AEC and vector environments against PettingZoo's
    connect_four_v3 and texas_holdem_v4, all with random legal actions."""
    try:
        from . import bench as b
        results = b.run(seconds, repeats, players, num_envs, seed)
    except ImportError as exc:
        raise click.ClickException(f"{exc}; the benchmark needs the bench extra: "
                                   f"pip install -e '.[bench]'") from None
    click.echo(b.report(results, players, num_envs))
    if json_path:
        with open(json_path, "w") as f:
            json.dump({"seconds": seconds, "repeats": repeats, "players": players, "num_envs": num_envs,
                       "results": [{"name": r.name, "rates": r.rates, "median": r.median} for r in results]},
                      f, indent=2)

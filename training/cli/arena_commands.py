"""``tribune tournament``, ``tribune play`` and ``tribune replay``: contests between agents, and their records."""

from __future__ import annotations

import os
import sys
import time
from contextlib import nullcontext
from pathlib import Path

import click

from ..bounds import MAX_GAMES, MAX_ROUND_LIMIT
from .options import (
    SEED,
    WORKERS,
    FilePath,
    FiniteRange,
    loads_models,
    needs_extra,
    output,
    ray_address,
    takes_agents,
    trusted_specs,
    trusts_models,
    usage_errors,
)


def _game_options(command):
    """--victory-card, --point-variant and --round-limit, shared by tournament and play."""
    for option in reversed(
        [
            click.option("--victory-card", metavar="ID", help="A victory card id [default: drawn with each deal]."),
            click.option("--point-variant", is_flag=True, help="Play the point-value variant (no victory card)."),
            click.option(
                "--round-limit",
                type=click.IntRange(1, MAX_ROUND_LIMIT),
                help="Rounds after which a game is truncated [default: the engine's].",
            ),
        ]
    ):
        command = option(command)
    return command


def _settings(players, victory_card, point_variant, round_limit) -> dict:
    """Game settings, checked, with the round limit made explicit."""
    from tribune_env import GameConfig

    settings = {
        "num_players": players,
        "victory_card": victory_card,
        "point_variant": point_variant,
        "round_limit": round_limit,
    }
    with usage_errors():
        settings["round_limit"] = GameConfig(**settings).round_limit
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
@takes_agents
@trusts_models
@click.command("tournament")
@click.argument("specs", metavar="AGENT...", nargs=-1, required=True)
@click.option(
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    default=100,
    show_default=True,
    help="Games to play, rounded up to whole deals (each deal is played in every seat rotation).",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--workers", type=WORKERS, help="Processes [default: the number of CPUs].")
@_game_options
@click.option(
    "--out",
    type=FilePath(file_okay=False),
    callback=output(directory=True),
    help="Write results.json, games.csv and tournament.png here.",
)
@click.option(
    "--records",
    type=FilePath(dir_okay=False),
    callback=output(),
    help="Save every game as a record, one JSON line each, for tribune replay (the file is "
    "replaced, and written as the games end).",
)
@ray_address(
    "Play the games as Ray tasks on this cluster instead of --workers processes: 'auto', "
    "HOST:PORT, or 'local' to start a Ray here. Same results for the same seed."
)
def tournament_command(
    specs, games, seed, workers, victory_card, point_variant, round_limit, out, records, ray_address, trust_model_files
):
    """Play agents against each other, one spec per seat (2 to 5 seats).

    The same spec may sit in several seats. Every deal is played once per rotation of the
    seating, so each entrant plays every seat with the same cards. Reports win rates with
    95% Wilson intervals, mean scores and ranks, OpenSkill ratings and how the games ended.
    """
    if not 2 <= len(specs) <= 5:
        raise click.UsageError(f"give one agent spec per seat, 2 to 5 of them; got {len(specs)}")
    specs = trusted_specs(specs, trust_model_files)
    with needs_extra("train", "tribune tournament"):  # its ratings (OpenSkill) and plots (matplotlib)
        from ..arena import plots, report
        from ..arena import records as saved
        from ..arena import tournament as t

    settings = _settings(len(specs), victory_card, point_variant, round_limit)
    _agents(dict.fromkeys(specs))  # a bad spec stops here, before any game
    if ray_address:  # an unreachable cluster too, before the records file is replaced
        from ..cluster import connect

        with usage_errors():
            connect(ray_address)
    with usage_errors(), saved.writer(records) if records else nullcontext() as add_record:
        results = t.run(list(specs), games, seed, settings, workers, on_record=add_record, ray_address=ray_address)
    summary = t.summarize(results, list(specs), seed, settings)
    click.echo(report.text(summary))
    if out:
        report.write(Path(out), summary, results)
        plots.plot(summary, Path(out) / "tournament.png")
        click.echo(f"\nwrote {out}/results.json, games.csv and tournament.png")
    if records:
        click.echo(f"wrote {len(results)} game records to {records}")


@loads_models
@takes_agents
@trusts_models
@click.command("ladder")
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option(
    "--agents",
    "specs",
    default="random,heuristic,ismcts",
    show_default=True,
    help="Agent specs on the ladder, comma-separated; each plays against the heuristic in every other seat.",
)
@click.option(
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    default=1000,
    show_default=True,
    help="Games per agent, rounded up to whole deals (every seating).",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--workers", type=WORKERS, help="Processes [default: the number of CPUs].")
@click.option(
    "--out",
    type=FilePath(dir_okay=False),
    default="runs/ladder/ladder.md",
    show_default=True,
    callback=output(),
    help="The ladder file: this player count's section is written, the others kept "
    "(--out docs/ladder.md updates the shipped one).",
)
@click.option(
    "--plot",
    type=FilePath(dir_okay=False),
    callback=output(),
    help="A PNG of the win rates and ratings [default: images/ladder-Np.png beside --out].",
)
def ladder_command(players, specs, games, seed, workers, out, plot, trust_model_files):
    """Rate agents on one fixed scale: each against the heuristic in every other seat.

    For each agent: its win rate with a 95% Wilson interval beside parity (1/N), its worst
    seat, its mean place, and a rating pinned to the random agent (0) and the heuristic.
    """
    from agents import split_specs

    with needs_extra("train", "tribune ladder"):  # its ratings (OpenSkill) and plots (matplotlib)
        from ..arena import ladder, plots

    specs = trusted_specs(split_specs(specs), trust_model_files)
    if ladder.ANCHOR not in specs:
        raise click.UsageError(f"the ladder's ratings are pinned to {ladder.ANCHOR!r}: put it on the ladder")
    settings = _settings(players, None, False, None)
    _agents(dict.fromkeys(specs))
    out = Path(out)
    plot = Path(plot) if plot else out.parent / "images" / f"ladder-{players}p.png"
    _check_ladder_files(out, plot)
    with usage_errors():
        result = ladder.play(players, specs, games, seed, settings, workers)
    command = f"tribune ladder --players {players} --agents {','.join(specs)} --games {games} --seed {seed}"
    section = ladder.markdown(result, command, os.path.relpath(plot, out.parent))
    click.echo(section)  # shown before the files are written, so that no failure there loses it
    plot.parent.mkdir(parents=True, exist_ok=True)
    plots.ladder_plot(result, plot)
    with usage_errors():
        ladder.write(out, section, players)
    click.echo(f"wrote {out} and {plot}")


def _check_ladder_files(out: Path, plot: Path) -> None:
    """Refuse, before any game, a ladder file that cannot be read back (its other sections are
    kept) and a plot that cannot be written (the default one's directory a file, say)."""
    from tribune_env.files import check_output

    from ..arena import ladder

    with usage_errors():
        ladder.read(out)
        check_output(plot)


@loads_models
@takes_agents
@trusts_models
@click.command("play")
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True, help="Your seat, from 0.")
@click.option(
    "--opponents",
    default="random",
    show_default=True,
    help="Agent specs of the other seats in seat order, comma-separated; one spec fills them all.",
)
@click.option("--seed", type=SEED, help="Deal seed [default: a random one, shown].")
@_game_options
@click.option(
    "--record",
    type=FilePath(dir_okay=False),
    callback=output(),
    help="Add the finished game to this records file (created if needed) for tribune replay.",
)
def play_command(players, seat, opponents, seed, victory_card, point_variant, round_limit, record, trust_model_files):
    """Play a game in the terminal against agents.

    At each of your decisions you see what happened since your last one and the table as
    your seat sees it, then the legal actions, numbered: type a number or a label, or
    quit.
    """
    if seat >= players:
        raise click.UsageError(f"--seat must be 0 to {players - 1} for {players} players, got {seat}")
    from agents import split_specs

    specs = trusted_specs(split_specs(opponents), trust_model_files)
    specs = specs * (players - 1) if len(specs) == 1 else specs
    if len(specs) != players - 1:
        raise click.UsageError(
            f"{players} players need {players - 1} opponents (or one spec for all); "
            f"got {len(specs)}: {', '.join(specs)}"
        )
    from agents.human import HumanAgent, Quit
    from tribune_env import Game, saving

    from ..arena import records as saved
    from ..arena.games import ending, reset_agents
    from ..arena.play import play_human

    settings = _settings(players, victory_card, point_variant, round_limit)
    seed = int.from_bytes(os.urandom(4), "little") if seed is None else seed
    opponents = _agents(specs)
    human = HumanAgent()
    seated = specs[:seat] + ["human"] + specs[seat:]
    click.echo(
        f"Seed {seed}; you are player_{seat}; "
        + ", ".join(f"player_{p}: {spec}" for p, spec in enumerate(seated) if p != seat)
        + "."
    )
    game = Game(**settings, seed=seed)
    reset_agents(opponents[:seat] + [human] + opponents[seat:], seed)
    try:
        with usage_errors():
            play_human(game, human, seat, opponents, specs, click.echo)
    except Quit:
        click.echo("\nYou left the game.")
        return
    end = ending(game)
    click.echo(
        "You won!"
        if seat in end["winners"]
        else f"You finished with {end['scores'][seat]} points, rank {end['ranks'][seat]} of {players}."
    )
    if record:
        saved.write(record, [saving.record(game, seated)], append=True)
        click.echo(f"added the game to {record}")


@click.command("replay")
@click.argument("file", type=FilePath(exists=True, dir_okay=False))
@click.option(
    "--game",
    "index",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Which game of the file (from 0, as numbered in games.csv).",
)
@click.option("--auto", is_flag=True, help="Play through without waiting for Enter.")
@click.option(
    "--delay",
    type=FiniteRange(0, 60),
    default=0.0,
    show_default=True,
    help="Seconds to pause after each step with --auto.",
)
def replay_command(file, index, auto, delay):
    """Play back a saved game step by step: the table and what each step did.

    Waits for Enter between steps (q or end of input stops); at the end, checks that the
    game ended as the record says.
    """
    from tribune_env import saving

    from ..arena import records as saved
    from ..arena.terminal import printable

    with usage_errors():
        record = saved.read(file, index)
        total = len(record["actions"])
        click.echo(", ".join(f"player_{p}: {printable(spec)}" for p, spec in enumerate(record["agents"])))
        for game, step, lines in saved.replay(record):
            shown = [f"--- step {step} of {total}", *lines, "", *game.render().split("\n")]
            click.echo("\n".join(map(printable, shown)))
            if step < total and not _next_step(auto, delay):
                click.echo(f"Replay stopped at step {step} of {total}.")
                return
    if not saved.matches(game, record):
        raise click.ClickException(
            f"the replay does NOT end as recorded: recorded {record['outcome']}, replayed {saving.outcome(game)}"
        )
    click.echo(f"The replay ends as recorded: {record['outcome']}")


def _next_step(auto: bool, delay: float) -> bool:
    """Wait before the next replay step; False when the person stops."""
    if auto:
        time.sleep(delay)
        return True
    click.echo("[Enter: next step, q: stop] ", nl=False)
    line = sys.stdin.readline()
    return bool(line) and line.strip().lower() != "q"

"""The ``tribune`` command, at the top of the layers: nothing imports it (docs/architecture.md).

One module per group of commands: ``tool_commands`` (demo, bench, gate), ``arena_commands``
(tournament, play, replay), ``learning_commands`` (train, evaluate, exploit, league, expert, make) and
``web_commands`` (serve); ``options`` holds what they share. Heavy modules (the engine,
agents, matplotlib) are imported inside the commands, so that ``tribune --help`` stays quick.
"""

from __future__ import annotations

import click

from .arena_commands import ladder_command, play_command, replay_command, tournament_command
from .learning_commands import (
    evaluate_command,
    expert_command,
    exploit_command,
    league_command,
    make_command,
    train_command,
)
from .tool_commands import bench_command, demo_command, gate_command
from .web_commands import serve_command


@click.group()
def main():
    """Tribune: Primus Inter Pares as a reinforcement-learning environment."""


for command in (
    demo_command,
    bench_command,
    gate_command,
    tournament_command,
    ladder_command,
    play_command,
    replay_command,
    train_command,
    evaluate_command,
    exploit_command,
    league_command,
    expert_command,
    make_command,
    serve_command,
):
    main.add_command(command)

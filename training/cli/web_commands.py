"""``tribune serve``: the web app on this machine."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import click

from .options import needs_extra, output, takes_agents


@takes_agents
@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (the default: this machine only). On any other, the page opens no file by path "
    "and neither loads an agent from a file nor runs a program (program: specs).",
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free one).")
@click.option(
    "--records",
    type=click.Path(dir_okay=False),
    default="web-games.jsonl",
    show_default=True,
    callback=output(),
    help="Records file that each finished game against agents is added to, for the replay page and tribune replay.",
)
def serve_command(host, port, records):
    """Watch replays and play against agents in the browser.

    The page opens records files (--records of a tournament, tribune play --record) by
    path or upload and steps through a game on a drawn board, whole or as one seat saw
    it; or seats you against agents, by their specs. Everything it needs ships with the
    package. Needs the web extra: pip install 'tribune-rl[web]'.
    """
    with needs_extra("web", "tribune serve"):
        from ..web.app import create_app
        from ..web.server import connection_limit, make_server, raise_open_files_limit, throttled_logs
    from tribune_env import Game

    Game(2, seed=0).table()  # the engine compiled (first run on a machine) or loaded now, not at the first page
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listener = socket.create_server((host, port), family=family)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    address, bound = listener.getsockname()[:2]
    shown = f"[{address}]" if family == socket.AF_INET6 else address
    click.echo(f"tribune serve: open http://{shown}:{bound}/  (Ctrl-C stops)")
    local = ipaddress.ip_address(address).is_loopback
    if not local:
        click.echo(
            "reachable from other machines: the page opens uploaded records only, loads no agent file and runs no program"
        )
    server = make_server(create_app(Path(records), local), connection_limit(raise_open_files_limit()))
    with throttled_logs():
        server.run(sockets=[listener])

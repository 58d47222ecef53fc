"""A person at one seat against agents, in the terminal.

At each of the person's decisions they see what happened since their last one and the
table, both as their seat may know them: ``game.render(seat)`` for the table, and the log
as :class:`tribune_env.log.SeatLog` tells it to that seat.
"""

from __future__ import annotations

from tribune_env import Game
from tribune_env.log import SeatLog

from .games import Played, play_game


def play_human(game: Game, human, seat: int, opponents: list, names: list, echo) -> Played:
    """Play `game` with `human` in `seat` and `opponents` in the other seats, in order.

    `echo(text)` shows text to the person; the final table is shown once the game ends.
    """
    agents = opponents[:seat] + [human] + opponents[seat:]
    log = SeatLog(seat)

    def show(game, acting):
        if acting == seat:
            echo("\n".join(log.news(game) + ["", game.render(seat), ""]))

    played = play_game(game, agents, names[:seat] + ["you"] + names[seat:], before=show)
    show(game, seat)
    return played

"""A person at one seat against agents, in the terminal.

At each of the person's decisions they see what happened since their last one and the
table, both as their seat may know them: ``game.render(seat)`` for the table, and the log
with the other players' hidden choices (cards taken from the Catacombs, sealed bids, setup
discards) told without the card or amount. Another player's set or pair in the making is
not told at all, card by card: that it was begun would say the hand could have made it,
though the player declines. Only its end is told: the take-over, the pair laid, or the
decline.
"""

from __future__ import annotations

from tribune_env import Game, IllegalActionError

from .games import Played, play_game

HIDDEN = {"take": "takes a card", "bid": "bids"}  # told without the card or amount
UNTOLD = {"add"}  # not told at all


class SeatLog:
    """The game log as one seat may read it, a stretch at a time."""

    def __init__(self, seat: int):
        self.seat, self.seen, self.setup = seat, 0, True

    def news(self, game: Game) -> list[str]:
        """The lines added since the last call."""
        lines = [self.visible(game, line) for line in game.log[self.seen :]]
        self.seen = len(game.log)
        return [line for line in lines if line is not None]

    def visible(self, game: Game, line: str) -> str | None:
        """One log line as the seat may read it, None if it may not read it at all; lines must
        come in order (setup discards are told apart from later ones by the first "round " line)."""
        if line.startswith("round "):
            self.setup = False
        who, sep, label = line.partition(": ")
        if not sep or not who.startswith("player_") or who == f"player_{self.seat}":
            return line
        try:
            kind = game.A.decode(game.A.action(label))[0]
        except IllegalActionError:  # not an action: "player_2: Veni, vidi, vici!"
            return line
        if kind in UNTOLD:
            return None
        if kind == "discard" and self.setup:
            return f"{who} discards a card"
        return f"{who} {HIDDEN[kind]}" if kind in HIDDEN else line


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

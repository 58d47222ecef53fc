"""The readable log: events recorded by the compiled engine, put into words, and one seat's view of it.

A seat reads the other players' hidden choices (cards taken from the Catacombs, sealed bids,
setup discards) without the card or amount. Another player's set or pair in the making is
not told at all, card by card: that it was begun would say the hand could have made it,
though the player declines. Only its end is told: the take-over, the pair laid, or the
decline.
"""

from __future__ import annotations

from .actions import card_name
from .core.events import Ev
from .data import FACTIONS, LEADERS
from .errors import IllegalActionError

REGIONS = ("Thermae", "Forum Romanum")


def describe(game, row) -> str:
    code, a, b, c, d, e, f = (int(x) for x in row)
    p = f"player_{a}"
    text = {
        Ev.ACTION: lambda: f"{p}: {game.A.labels[b]}" if b >= 0 else "",
        Ev.SETUP: lambda: f"setup: {p} starts",
        Ev.ROUND: lambda: f"round {a}: player_{b} starts",
        Ev.DISCARDS: lambda: f"{p} discards {b} cards",
        Ev.DRAW: lambda: f"{p} draws a card",
        Ev.RESHUFFLE: lambda: f"the discard pile ({a} cards) is shuffled into a new draw pile",
        Ev.CESURA: lambda: "cesura magna!",
        Ev.SET_LOSES: lambda: f"the {FACTIONS[a]} set loses {b} card(s)",
        Ev.PROCONSUL: lambda: f"{p} places the proconsul as an extra follower",
        Ev.PAYS: lambda: f"{p} pays {b} for {card_name(c)} ({REGIONS[d]})",
        Ev.LATRINE: lambda: f"Latrine: {p} reveals {card_name(b)}",
        Ev.CURIA: lambda: f"{p} takes Curia stack {b + 1} ({c} cards)",
        Ev.ATRIUM_SINGLE: lambda: f"{p} pays {b} for the face-up Atrium cards",
        Ev.ATRIUM_BIDS: lambda: f"Atrium bids: {p} {b}, player_{c} {d}; player_{e} takes the cards",
        Ev.CATACOMBS: lambda: f"{p} buys a Catacombs card for {b}",
        Ev.PANTHEON: lambda: f"Pantheon: {card_name(a)} is turned face up",
        Ev.ETERNAL: lambda: f"{p} takes the eternal favor of the gods",
        Ev.RETURN_TEMP: lambda: f"{p} returns the temporary favor",
        Ev.MARS_PAIR: lambda: f"Field of Mars: {p} lays a pair worth {b}",
        Ev.CHALLENGE: lambda: f"{p} plays a set of {c} {FACTIONS[b]} worth {d} from space 2",
        Ev.TAKEOVER: lambda: f"{p} takes over the {FACTIONS[b]} with a set of {c} worth {d}",
        Ev.MARKER: lambda: f"{p} takes a {FACTIONS[b]} marker",
        Ev.FIRST_LAUREL: lambda: f"{p} is the first to control the {FACTIONS[b]} and takes its laurel",
        Ev.LEADER: lambda: f"{p} played {LEADERS[b]}",
        Ev.ASSASSIN: lambda: f"the assassin removes {card_name(b)} from the {FACTIONS[a]} set",
        Ev.CHARIOT_BIDS: lambda: (
            "chariot bids: " + ", ".join(f"player_{i} {x}" for i, x in enumerate((a, b, c, d, e)) if x >= 0)
        ),
        Ev.CHARIOT: lambda: f"{p} blocks the {FACTIONS[b]} with the chariot",
        Ev.DECLARE: lambda: (
            f"{p}: Veni, vidi, vici!"
            if game.victory_card is not None
            else f"{p} holds {game.marker_goal} faction markers: this is the last round"
        ),
        Ev.GAME_OVER: lambda: (
            f"game over after round {a}: winner(s) " + ", ".join(f"player_{w}" for w in game.winners())
        ),
        Ev.TRUNCATED: lambda: f"round limit {a} reached: the game is truncated",
    }[Ev(code)]
    return text()


HIDDEN = {"take": "takes a card", "bid": "bids"}  # told without the card or amount
UNTOLD = {"add"}  # not told at all


class SeatLog:
    """The game log as one seat may read it, a stretch at a time; ``lines`` holds all it has read."""

    def __init__(self, seat: int):
        self.seat, self.seen, self.setup = seat, 0, True
        self.lines = []

    def news(self, game) -> list[str]:
        """The lines added since the last call."""
        lines = [self.visible(game, line) for line in game.log[self.seen :]]
        self.seen = len(game.log)
        news = [line for line in lines if line is not None]
        self.lines += news
        return news

    def visible(self, game, line: str) -> str | None:
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

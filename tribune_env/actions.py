"""The flat discrete action space: named ranges, labels, and the label -> action lookup.

Sizes derive from :class:`~tribune_env.data.GameData` and never from the player count.
A card is named by (faction, value) -- copies are interchangeable (clarifications §2).
"""

from __future__ import annotations

import numpy as np

from .data import FACTIONS, LEADERS, NUM_CARD_TYPES, NUM_VALUES, GameData
from .errors import IllegalActionError, as_integer

# Options of the faction benefits that offer a choice (rulebook, "The Factions").
BENEFIT_OPTIONS = (
    ("Gladiators", "take the Colosseum denarii"),
    ("Gladiators", "draw a card and dispatch an assassin"),
    ("Legates", "take a scroll"),
    ("Legates", "draw a card and buy a legion"),
    ("Plebeians", "draw a card and take 2 denarii"),
    ("Plebeians", "take a tribune"),
    ("Vestal Virgins", "take a laurel and the temporary favor"),
    ("Vestal Virgins", "take a tribune"),
    ("Senators", "take a scroll"),
    ("Senators", "draw two cards"),
)
# Index in BENEFIT_OPTIONS of each faction's first option, -1 for a faction without a choice (compiled code).
CHOICE_OFFSET = np.array(
    [next((i for i, (f, _) in enumerate(BENEFIT_OPTIONS) if f == faction), -1) for faction in FACTIONS]
)


def card_name(code: int) -> str:
    """'Senators 8', or 'Cato the Elder (Senators 0)' for a leader."""
    return CARD_NAMES[int(code)]


CARD_NAMES = tuple(
    f"{LEADERS[faction]} ({FACTIONS[faction]} 0)" if value == 0 else f"{FACTIONS[faction]} {value}"
    for faction, value in (divmod(code, NUM_VALUES) for code in range(NUM_CARD_TYPES))
)


class Board:
    """Follower spaces and card slots of the eight regions, laid out from the data."""

    def __init__(self, data: GameData):
        regions = (
            ("Thermae", data.thermae_cards, True),
            ("Forum Romanum", data.forum_cards, True),
            ("Latrine", 1, True),
            ("Curia", data.curia_stacks, True),
            ("Atrium Auctionorum", data.atrium_spaces, False),
            ("Catacombs", len(data.catacomb_prices), True),
            ("Pantheon", data.pantheon_spaces, False),
            ("Field of Mars", data.field_of_mars_spaces, False),
        )
        self.region_names = tuple(r[0] for r in regions)
        self.catacomb_prices = tuple(data.catacomb_prices)
        self.spaces = {}  # region name -> range of follower-space indices
        self.place_targets = []  # per placement action: (region name, space index or None)
        start = 0
        for name, count, distinct in regions:
            self.spaces[name] = range(start, start + count)
            if distinct:
                self.place_targets += [(name, start + i) for i in range(count)]
            else:
                self.place_targets.append((name, None))
            start += count
        self.num_spaces = start
        # single-card slots; the Curia stacks and the Catacombs pile are held apart
        slots = (
            ("Thermae", data.thermae_cards),
            ("Forum Romanum", data.forum_cards),
            ("Latrine", 1),
            ("Atrium Auctionorum", data.atrium_cards),
            ("Pantheon", 1),
        )
        self.slots = {}
        start = 0
        for name, count in slots:
            self.slots[name] = range(start, start + count)
            start += count
        self.num_slots = start
        self.space_labels = {
            name: [self.space_label(name, space) for space in self.spaces[name]] for name in self.spaces
        }

    def space_label(self, region: str, space: int | None) -> str:
        if space is None:
            return region
        index = space - self.spaces[region].start
        if region == "Catacombs":
            return f"Catacombs {self.catacomb_prices[index]}"
        return region if len(self.spaces[region]) == 1 else f"{region} {index + 1}"


class ActionSpace:
    """Offsets of every named range; ``labels[a]`` names action ``a``."""

    def __init__(self, data: GameData):
        self.board = board = Board(data)
        self.ranges = {}
        labels = []

        def add(name, names):
            self.ranges[name] = range(len(labels), len(labels) + len(names))
            labels.extend(names)

        add(
            "place",
            [f"place follower: {board.space_label(r, s)}" for r, s in board.place_targets]
            + [f"place follower: {f} field" for f in FACTIONS]
            + ["place follower: coin bowl"],
        )
        cards = [card_name(c) for c in range(NUM_CARD_TYPES)]
        add("discard", [f"discard {c}" for c in cards])
        add("add", [f"add {c} to set" for c in cards])
        add("take", [f"take {c}" for c in cards])
        add("bid", [f"bid digit {n}" for n in range(data.bid_base)])
        add("atrium", [f"Atrium: leave card {k + 1} face down" for k in range(data.atrium_cards)])
        add("latrine", ["Latrine: take denarii", "Latrine: buy card"])
        add("benefit", [f"{f}: {o}" for f, o in BENEFIT_OPTIONS])
        add("agrippa", ["Agrippa: take a scroll", "Agrippa: draw a card"])
        add("assassin", [f"assassin: strike the {f} set" for f in FACTIONS])
        add("chariot", [f"place chariot on {f}" for f in FACTIONS])
        add("marker", [f"take {f} marker" for f in FACTIONS])
        add("temp_favor", ["take the temporary favor"])
        add("buy_legion", ["buy a legion"])
        add("commit", ["commit set"])
        add("decline", ["decline"])
        self.labels = tuple(labels)
        self.size = len(labels)
        self._by_label = {label.lower(): a for a, label in enumerate(labels)}
        r = self.ranges
        self.PLACE, self.DISCARD, self.ADD, self.TAKE = (r[k].start for k in ("place", "discard", "add", "take"))
        self.BID, self.ATRIUM, self.LATRINE, self.BENEFIT = (
            r[k].start for k in ("bid", "atrium", "latrine", "benefit")
        )
        self.AGRIPPA, self.ASSASSIN, self.CHARIOT, self.MARKER = (
            r[k].start for k in ("agrippa", "assassin", "chariot", "marker")
        )
        self.TEMP_FAVOR, self.BUY_LEGION = r["temp_favor"].start, r["buy_legion"].start
        self.COMMIT, self.DECLINE = r["commit"].start, r["decline"].start
        self.FIELD = self.PLACE + len(board.place_targets)  # first faction-field placement
        self.COIN_BOWL = self.FIELD + len(FACTIONS)

    def label(self, action: int) -> str:
        action = as_integer(action, "an action")
        if not 0 <= action < self.size:
            raise IllegalActionError(f"action {action} is out of range 0..{self.size - 1}")
        return self.labels[action]

    def action(self, label: str) -> int:
        """The action a label names (case-insensitive)."""
        if not isinstance(label, str):
            raise IllegalActionError(f"an action label must be a string, got {type(label).__name__} {label!r:.80}")
        try:
            return self._by_label[label.strip().lower()]
        except KeyError:
            raise IllegalActionError(f"no action is labelled {label!r}") from None

    def decode(self, action: int) -> tuple[str, int]:
        """(range name, index within the range)."""
        self.label(action)
        action = as_integer(action, "an action")
        for name, rng in self.ranges.items():
            if action in rng:
                return name, action - rng.start
        raise AssertionError("ranges cover the whole space")

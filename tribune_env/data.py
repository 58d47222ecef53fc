"""Every number of the game in one place.

The rulebook leaves the printed component data out; ``clarifications.md`` fixes it and
marks most of it *assumed*. Rules code reads these values only through a
:class:`GameData`, so a user can pass the printed values or a house variant
(``GameData(coin_bowl_first=8)``, ``dataclasses.replace(DEFAULT_DATA, ...)``) without
touching the engine. Sizes of the action and observation spaces are derived from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import IntEnum

FACTIONS = ("Gladiators", "Legates", "Praetorians", "Plebeians", "Patricians", "Vestal Virgins", "Senators")
GLADIATORS, LEGATES, PRAETORIANS, PLEBEIANS, PATRICIANS, VESTALS, SENATORS = range(7)
LEADERS = ("Spartacus", "Varus", "Gaius Tigellinus", "Agrippa", "Scipio Africanus", "Aquilia Severa", "Cato the Elder")
NUM_FACTIONS = 7
MAX_VALUE = 10  # card values run 0..10; value 0 of each faction is its leader
NUM_VALUES = MAX_VALUE + 1
NUM_CARD_TYPES = NUM_FACTIONS * NUM_VALUES  # a card is (faction, value): code f * 11 + v
MAX_PLAYERS = 5
MIN_PLAYERS = 2
# A round adds a bounded amount to any count (with the default numbers at most 174 denarii,
# 17 laurels, 5 legions), so a game played to MAX_ROUND_LIMIT keeps every amount below
# MAX_AMOUNT (70 + 10,000 * 174 < 2 million denarii): int32 sums of a few amounts cannot
# overflow and float32 observations stay finite.
MAX_ROUND_LIMIT = 10_000
MAX_AMOUNT = 10**8  # the most of anything a game may hold or ask for, victory thresholds included
MAX_DATA_NUMBER = 1_000  # any one cost, gain, count or score of GameData, for the same reason

# The eight regions, in board order (the order of evaluation).
REGIONS = (
    "Thermae",
    "Forum Romanum",
    "Latrine",
    "Curia",
    "Atrium Auctionorum",
    "Catacombs",
    "Pantheon",
    "Field of Mars",
)
THERMAE, FORUM, LATRINE, CURIA, ATRIUM, CATACOMBS, PANTHEON, MARS = range(len(REGIONS))

# The phases of a round (rulebook, "How to Play"), after the setup.
PHASE_NAMES = (
    "Setup",
    "Card Placement",
    "Placement of Followers",
    "Region Evaluation",
    "Faction Take-overs",
    "Faction Benefits",
    "Chariot Auction",
)

# Victory objectives, in the order of the victory card.
OBJECTIVES = ("tribune", "favor", "laurels", "legions", "denarii", "markers")
NUM_OBJECTIVES = len(OBJECTIVES)
Objective = IntEnum("Objective", {name.upper(): i for i, name in enumerate(OBJECTIVES)})  # Objective.LAURELS


@dataclass(frozen=True)
class VictoryCard:
    """A victory condition card (clarifications §3): thresholds and how many objectives win."""

    id: str
    laurels: int
    legions: int
    denarii: int
    markers: int
    need: dict  # player count -> objectives needed; absent counts are not allowed
    obligatory: str | None = None
    length: str = "medium"

    def __post_init__(self):
        self.validate()  # a card that could not be played is refused where it is made

    def validate(self) -> None:
        """Raise ValueError naming the first inconsistency."""
        from .errors import ConfigError

        if not isinstance(self.id, str) or not self.id:
            raise ConfigError("victory card id must be a non-empty string")
        for name in ("laurels", "legions", "denarii", "markers"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_AMOUNT:
                raise ConfigError(
                    f"victory card {self.id!r}: {name} must be an int from 0 to {MAX_AMOUNT:,}, got {value!r}"
                )
        if self.obligatory is not None and self.obligatory not in OBJECTIVES:
            raise ConfigError(
                f"victory card {self.id!r}: unknown obligatory objective "
                f"{self.obligatory!r}; expected one of {OBJECTIVES}"
            )
        if not self.need:
            raise ConfigError(f"victory card {self.id!r}: 'need' lists no player count")
        for players, need in self.need.items():
            if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
                raise ConfigError(f"victory card {self.id!r}: player count {players!r} outside 2-5")
            if not isinstance(need, int) or not 1 <= need <= len(OBJECTIVES):
                raise ConfigError(
                    f"victory card {self.id!r}: need for {players} players must be 1-{len(OBJECTIVES)}, got {need!r}"
                )

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "laurels": self.laurels,
            "legions": self.legions,
            "denarii": self.denarii,
            "markers": self.markers,
            "need": {str(k): v for k, v in self.need.items()},
            "obligatory": self.obligatory,
            "length": self.length,
        }

    @classmethod
    def from_dict(cls, d: dict) -> VictoryCard:
        from .errors import ConfigError, brief

        try:
            card = cls(
                id=d["id"],
                laurels=d["laurels"],
                legions=d["legions"],
                denarii=d["denarii"],
                markers=d["markers"],
                need={int(k): v for k, v in d["need"].items()},
                obligatory=d.get("obligatory"),
                length=d.get("length", "medium"),
            )
        except ConfigError:  # the card's own check, which names the field
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ConfigError(f"malformed victory card {brief(d)}: {brief(str(exc))}") from None
        return card  # validated as it was made (__post_init__)


VICTORY_CARDS = {
    c.id: c
    for c in (
        VictoryCard("alea-iacta-est-short", 8, 2, 25, 4, {2: 4, 3: 4, 4: 3}, None, "short"),
        VictoryCard("alea-iacta-est-long", 12, 4, 40, 6, {2: 5, 3: 5, 4: 4}, None, "long"),
        VictoryCard("cursus-honorum", 10, 3, 30, 5, {2: 4, 3: 4, 4: 3}, "tribune", "medium"),
        VictoryCard("panem-et-circenses", 8, 3, 25, 4, {2: 3, 3: 3, 4: 3}, "favor", "short"),
        VictoryCard("pax-romana", 12, 5, 35, 6, {2: 4, 3: 4, 4: 4}, "legions", "long"),
        VictoryCard("quinque-viri", 9, 3, 30, 4, {5: 4}, None, "medium"),
        VictoryCard("ave-caesar", 8, 2, 25, 4, {5: 4}, None, "short"),
    )
}

# Values of each faction's cards (clarifications §2); value 0 is the leader.
DECK = {
    "Gladiators": (0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6),
    "Legates": (0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6),
    "Praetorians": (0, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 7),
    "Plebeians": (0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7),
    "Patricians": (0, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8),
    "Vestal Virgins": (0, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8),
    "Senators": (0, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 10),
}

SCORING = {  # rulebook, "The End of Play"
    "tribune": 7,
    "scroll": 3,
    "eternal_favor": 5,
    "temporary_favor": 2,
    "legion": 2,
    "laurel": 1,
    "denarii_per_point": 10,
    "marker": 1,
    "first_declarer": 2,
}


@dataclass(frozen=True)
class GameData:
    """The game's numbers. Defaults are clarifications.md; every field may be replaced."""

    deck: dict = field(default_factory=lambda: dict(DECK))
    victory_cards: dict = field(default_factory=lambda: dict(VICTORY_CARDS))
    followers: dict = field(default_factory=lambda: {2: 6, 3: 6, 4: 5, 5: 4})
    starting_money: int = 12  # the starting player; each next seat clockwise +1
    setup_deal: int = 6
    setup_keep: int = 4
    coin_bowl_first: int = 7
    coin_bowl_later: int = 5
    thermae_cards: int = 3
    thermae_cost: int = 1
    forum_cards: int = 6
    forum_cost: int = 3
    curia_stacks: int = 3
    curia_sum: int = 5  # a stack is filled until its sum reaches this
    atrium_cards: int = 3  # "1." turns all but one face up
    atrium_spaces: int = 2  # "1." and "2.": the auction is between two bidders
    atrium_single_cost: int = 1
    catacomb_cards: int = 5
    catacomb_prices: tuple = (4, 3, 2)
    pantheon_spaces: int = 2
    field_of_mars_spaces: int = 3
    mars_laurels_per_pair: int = 1
    mars_bonus_laurels: int = 1
    cesura_hand_limit: int = 7
    cesura_set_losses: int = 2  # lowest cards a displayed set loses, never below min_set
    scoring: dict = field(default_factory=lambda: dict(SCORING))
    point_variant_markers: dict = field(default_factory=lambda: {2: 7, 3: 6, 4: 6, 5: 5})
    # take-overs, take-over benefits, faction benefits and leaders (rulebook, "The Factions")
    min_set: int = 2  # cards of a take-over set, at least
    assassin_min_set: int = 3  # an assassin may not target a smaller set
    gladiator_legions: int = 1
    spartacus_legions: int = 1
    legate_laurels: int = 2
    varus_laurels: int = 1
    patrician_laurels: int = 1
    scipio_denarii: int = 10
    tigellinus_legions: int = 1  # for the card he discards
    # the card drawn by the Praetorians' and the Plebeians' take-over benefits, by the card
    # options of the Gladiators', Legates' and Plebeians' benefits, and by Agrippa's
    benefit_cards: int = 1
    bought_legions: int = 1  # the Legates' legion, bought for the sum of their displayed set
    proconsul_followers: int = 1  # the Patricians' proconsul, in Phase 2 of the next round
    praetorian_benefit_legions: int = 1
    senator_benefit_cards: int = 2
    vestal_denarii: int = 5
    senator_laurels: int = 1
    plebeian_benefit_denarii: int = 2
    vestal_benefit_laurels: int = 1
    first_control_laurels: int = 1
    bid_base: int = 100  # a sealed bid is entered digit by digit in this base
    round_limit: int = 50

    def validate(self) -> None:
        """Raise ConfigError naming the first inconsistency (deck, counts, cards)."""
        from .errors import ConfigError, brief

        if set(self.deck) != set(FACTIONS):
            raise ConfigError(f"deck must list exactly the factions {FACTIONS}, got {sorted(self.deck)}")
        for faction, values in self.deck.items():
            if not values or any(not isinstance(v, int) or not 0 <= v <= MAX_VALUE for v in values):
                raise ConfigError(f"deck: {faction} values must be ints in 0..{MAX_VALUE}, got {values!r}")
            if list(values).count(0) != 1:
                raise ConfigError(
                    f"deck: {faction} must hold exactly one leader (value 0), got {list(values).count(0)}"
                )
        need_cards = max(self.followers.values(), default=0)
        if sorted(self.followers) != [2, 3, 4, 5] or any(
            not isinstance(v, int) or v < 1 for v in self.followers.values()
        ):
            raise ConfigError(f"followers must give a positive count for 2, 3, 4 and 5 players, got {self.followers!r}")
        if not 0 < self.setup_keep <= self.setup_deal:
            raise ConfigError(f"setup_keep ({self.setup_keep}) must be in 1..setup_deal ({self.setup_deal})")
        if self.deck_size() < MAX_PLAYERS * self.setup_deal:
            raise ConfigError(
                f"deck of {self.deck_size()} cards cannot deal {self.setup_deal} to {MAX_PLAYERS} players"
            )
        if len(self.catacomb_prices) < 1 or self.atrium_cards < 2 or need_cards < 1:
            raise ConfigError("catacomb_prices needs a price and atrium_cards at least 2")
        if self.atrium_spaces != 2:
            raise ConfigError(
                f'atrium_spaces must be 2: the auction is between "1." and "2.", got {brief(self.atrium_spaces)}'
            )
        if isinstance(self.min_set, int) and self.min_set < 1:
            raise ConfigError(f"min_set must be at least 1, got {self.min_set}")
        if sorted(self.point_variant_markers) != [2, 3, 4, 5]:
            raise ConfigError("point_variant_markers must give a threshold for 2, 3, 4 and 5 players")
        for name, value in self.numbers():
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_DATA_NUMBER:
                raise ConfigError(f"{name} must be an int from 0 to {MAX_DATA_NUMBER}, got {brief(value)}")
        if self.bid_base < 2 or not 1 <= self.round_limit <= MAX_ROUND_LIMIT:
            raise ConfigError(f"bid_base must be at least 2 and round_limit from 1 to {MAX_ROUND_LIMIT}")
        for card in self.victory_cards.values():
            card.validate()

    def numbers(self):
        """(name, value) of every single number of the game: costs, gains, counts, scores."""
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("deck", "victory_cards", "round_limit"):  # checked apart
                continue
            if isinstance(value, dict):
                yield from ((f"{f.name}[{key!r}]", v) for key, v in value.items())
            elif isinstance(value, (tuple, list)):
                yield from ((f"{f.name}[{i}]", v) for i, v in enumerate(value))
            else:
                yield f.name, value

    def deck_size(self) -> int:
        return sum(len(v) for v in self.deck.values())


DEFAULT_DATA = GameData()

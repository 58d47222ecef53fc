"""Which game is played: one frozen description, checked when it is made.

``Game`` and every adapter take a :class:`GameConfig`, or its fields by name, which the
adapters pass on here unread: a setting is declared, described and checked in this module
alone. The seed is not part of it, as it picks one deal of the game described
(``Game.from_config(config, seed)``); nor is the log, which is how a game is kept, not which
game it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field, fields
from functools import wraps

import numpy as np

from .actions import ActionSpace
from .data import DEFAULT_DATA, MAX_PLAYERS, MAX_ROUND_LIMIT, MIN_PLAYERS, GameData, VictoryCard
from .errors import ConfigError, brief
from .kernel import check_limits
from .observation import ObservationLayout

DATA_KEPT = 8  # the numbers whose derived tables per_data keeps (each unpickled copy of the data is new)


def per_data(make: Callable) -> Callable:
    """`make(data)` made once for each :class:`GameData` among the last DATA_KEPT met (by identity,
    the data held so that its identity stays its own): what follows from a game's numbers alone is
    the same for every game played with them, and making it for each deal cost more than dealing."""
    made: dict[int, tuple] = {}

    @wraps(make)
    def once(data: GameData):
        found = made.get(id(data))
        if found is None:
            found = made[id(data)] = (data, make(data))
            if len(made) > DATA_KEPT:
                made.pop(next(iter(made)), None)  # the oldest
        return found[1]

    return once


action_space = per_data(ActionSpace)


@per_data
def observation_layout(data: GameData) -> ObservationLayout:
    return ObservationLayout(action_space(data).board, data)


@dataclass(frozen=True)
class GameConfig:
    """A game of Tribune as the rules set it up. All fields but ``num_players`` are keywords.

    num_players: 2 to 5.
    point_variant: play the point-value variant instead (no victory card).
    victory_card: an id of ``data.victory_cards`` or a :class:`VictoryCard` (an id is held as
        its card), or None to draw one at random (seeded) among those that fit the player count.
    round_limit: rounds after which a running game is truncated (None: ``data.round_limit``,
        held as that number), at most ``MAX_ROUND_LIMIT`` (10,000), which keeps every amount
        far from overflowing.
    auto_forced: play a decision with exactly one legal action automatically, when the other
        players can see that it is forced (docs/rules.md, "Forced decisions and secrecy").
    data: the game's numbers (:class:`GameData`).

    The fields are in the order the saved formats write them (:meth:`to_dict`).
    """

    num_players: int = 4
    _: KW_ONLY
    point_variant: bool = False
    victory_card: VictoryCard | str | None = None
    round_limit: int | None = None
    auto_forced: bool = True
    data: GameData = field(default=DEFAULT_DATA, repr=False)

    def __post_init__(self):
        data, n = self.data, self.num_players
        if not isinstance(data, GameData):
            raise ConfigError(f"data must be a GameData, got {type(data).__name__}")
        data.validate()
        check_limits(data)
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ConfigError(f"num_players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}, got {brief(n)}")
        if self.point_variant and self.victory_card is not None:
            raise ConfigError("the point-value variant uses no victory card; pass one or the other")
        settled = {
            "num_players": int(n),
            "point_variant": bool(self.point_variant),
            "victory_card": _card(self.victory_card, int(n), data),
            "round_limit": _round_limit(self.round_limit, data),
            "auto_forced": bool(self.auto_forced),
        }
        for name, value in settled.items():  # frozen: each field settled once, here
            object.__setattr__(self, name, value)
        if self.victory_card is None and not self.point_variant and not self.fitting_cards():
            raise ConfigError(f"no victory card fits {n} players")

    @classmethod
    def of(cls, config: GameConfig | None = None, **settings) -> GameConfig:
        """`config`, or the config of `settings`: how an adapter takes either, passing on the
        settings it is given without naming them, so that a new field reaches every adapter."""
        names = [f.name for f in fields(cls)]
        unknown = set(settings) - set(names)
        if unknown:
            raise ConfigError(
                f"unknown setting(s) {', '.join(sorted(map(brief, unknown)))}; a game's settings are {', '.join(names)}"
            )
        if config is None:
            return cls(**settings)
        if not isinstance(config, cls):
            raise ConfigError(f"config must be a GameConfig, got {brief(config)}")
        if settings:
            raise ConfigError(f"pass a GameConfig or its settings, not both: got config and {', '.join(settings)}")
        return config

    def fitting_cards(self) -> list[str]:
        """The ids of the victory cards for this many players, in the order a card is drawn from them."""
        return sorted(key for key, card in self.data.victory_cards.items() if self.num_players in card.need)

    @property
    def actions(self) -> ActionSpace:
        """The action space of these numbers, made once for every game played with them."""
        return action_space(self.data)

    @property
    def obs_layout(self) -> ObservationLayout:
        """The observation layout of these numbers, made once for every game played with them."""
        return observation_layout(self.data)

    def to_dict(self) -> dict:
        """The settings as plain data, as the saved formats write them (docs/state-format.md): the
        card as its data, and no ``data``, which a loader is given to play the game with."""
        settings = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "data"}
        card = self.victory_card
        return {**settings, "victory_card": None if card is None else card.to_dict()}

    @classmethod
    def from_dict(cls, settings: dict, data: GameData = DEFAULT_DATA) -> GameConfig:
        """The config whose :meth:`to_dict` is `settings`, played with `data`."""
        card = settings["victory_card"]
        return cls(**{**settings, "victory_card": None if card is None else VictoryCard.from_dict(card), "data": data})


def _card(card, num_players: int, data: GameData) -> VictoryCard | None:
    """The victory card given (an id of `data` as its card), checked and fit for `num_players`."""
    if isinstance(card, str):
        if card not in data.victory_cards:
            raise ConfigError(f"unknown victory card {card!r}; known: {sorted(data.victory_cards)}")
        card = data.victory_cards[card]
    elif card is not None and not isinstance(card, VictoryCard):
        raise ConfigError(f"victory_card must be an id, a VictoryCard or None, got {card!r}")
    if card is not None:
        card.validate()
        if num_players not in card.need:
            raise ConfigError(
                f"victory card {card.id!r} is not for {num_players} players (it is for {sorted(card.need)})"
            )
    return card


def _round_limit(limit, data: GameData) -> int:
    limit = data.round_limit if limit is None else limit
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or not 1 <= limit <= MAX_ROUND_LIMIT:
        raise ConfigError(f"round_limit must be an int from 1 to {MAX_ROUND_LIMIT}, got {brief(limit)}")
    return int(limit)

"""tribune_env: the board game Tribune: Primus Inter Pares as a reinforcement-learning environment.

This package is the rules engine (numpy and numba only); the environment adapters are in
:mod:`tribune_env.envs`, which this package never imports (docs/architecture.md).
"""

from .actions import ActionSpace, card_name
from .data import DEFAULT_DATA, FACTIONS, LEADERS, VICTORY_CARDS, GameData, VictoryCard
from .engine import Game
from .errors import ConfigError, IllegalActionError, StateFormatError, TribuneError
from .game_config import GameConfig
from .player import PlayerView

__all__ = [
    "ActionSpace",
    "ConfigError",
    "DEFAULT_DATA",
    "FACTIONS",
    "Game",
    "GameConfig",
    "GameData",
    "IllegalActionError",
    "LEADERS",
    "PlayerView",
    "StateFormatError",
    "TribuneError",
    "VICTORY_CARDS",
    "VictoryCard",
    "card_name",
]

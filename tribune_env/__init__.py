"""tribune_env: the board game Tribune: Primus Inter Pares as a reinforcement-learning environment."""
from .actions import ActionSpace, card_name
from .data import DEFAULT_DATA, FACTIONS, LEADERS, VICTORY_CARDS, GameData, VictoryCard
from .engine import Game
from .errors import ConfigError, IllegalActionError, StateFormatError, TribuneError

__all__ = ["ActionSpace", "ConfigError", "DEFAULT_DATA", "FACTIONS", "Game", "GameData",
           "IllegalActionError", "LEADERS", "StateFormatError", "TribuneError", "VICTORY_CARDS",
           "VictoryCard", "card_name"]

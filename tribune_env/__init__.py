"""tribune_env: the board game Tribune: Primus Inter Pares as a reinforcement-learning environment."""
from .actions import ActionSpace, card_name
from .data import DEFAULT_DATA, FACTIONS, LEADERS, VICTORY_CARDS, GameData, VictoryCard
from .engine import Game


def env(**config):
    """The PettingZoo AEC environment (wrapped); see :mod:`tribune_env.aec`."""
    from .aec import env as make
    return make(**config)


def __getattr__(name):
    if name == "raw_env":                   # PettingZoo is needed only by the adapters
        from .aec import raw_env
        return raw_env
    raise AttributeError(f"module 'tribune_env' has no attribute {name!r}")
from .errors import ConfigError, IllegalActionError, StateFormatError, TribuneError

__all__ = ["ActionSpace", "ConfigError", "DEFAULT_DATA", "FACTIONS", "Game", "GameData",
           "IllegalActionError", "LEADERS", "StateFormatError", "TribuneError", "VICTORY_CARDS",
           "VictoryCard", "card_name", "env", "raw_env"]

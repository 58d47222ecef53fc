"""tribune_env: the board game Tribune: Primus Inter Pares as a reinforcement-learning environment."""
from gymnasium.envs.registration import register, registry

from .actions import ActionSpace, card_name
from .batch import VectorGames
from .data import DEFAULT_DATA, FACTIONS, LEADERS, VICTORY_CARDS, GameData, VictoryCard
from .engine import Game
from .errors import ConfigError, IllegalActionError, StateFormatError, TribuneError
from .policy import OpponentPool, PlayerView
from .single import SingleAgentEnv

if "Tribune-v0" not in registry:
    register(id="Tribune-v0", entry_point="tribune_env.single:SingleAgentEnv")


def env(**config):
    """The PettingZoo AEC environment (wrapped); see :mod:`tribune_env.aec`."""
    from .aec import env as make
    return make(**config)


def __getattr__(name):
    if name == "raw_env":                   # imported on demand: PettingZoo
        from .aec import raw_env
        return raw_env
    if name == "VectorEnv":                 # imported on demand: stable-baselines3 and torch, if present
        from .vector import VectorEnv
        return VectorEnv
    if name == "ShardedVectorEnv":
        from .shards import ShardedVectorEnv
        return ShardedVectorEnv
    raise AttributeError(f"module 'tribune_env' has no attribute {name!r}")


__all__ = ["ActionSpace", "ConfigError", "DEFAULT_DATA", "FACTIONS", "Game", "GameData",
           "IllegalActionError", "LEADERS", "OpponentPool", "PlayerView", "ShardedVectorEnv", "SingleAgentEnv", "StateFormatError",
           "TribuneError", "VICTORY_CARDS", "VectorEnv", "VectorGames", "VictoryCard", "card_name", "env",
           "raw_env"]

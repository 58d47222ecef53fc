"""The environment adapters: the engine as PettingZoo, Gymnasium, RLlib and vector environments.

They sit above the engine (``tribune_env`` imports none of them, so a game needs neither
gymnasium nor pettingzoo) and below the agents. Importing this package registers
``Tribune-v0`` in both registries: Gymnasium's, one learner against opponents
(``gymnasium.make("tribune_env.envs:Tribune-v0")`` imports the package on the way), and
PettingZoo's, every seat an agent (``pettingzoo.make("aec", "Tribune-v0")`` once the
package is imported: PettingZoo's registry replaces module-level ``tribune_v0.env()``).

``gymnasium.make`` gives the environment itself, unwrapped, so that ``env.action_masks()``
is there: it checks its own call order (no step before reset, none after the end) and is
checked by Gymnasium's ``check_env`` in the tests. The AEC environment's module,
stable-baselines3 (with torch) and Ray load only when their adapter is asked for, Ray only
with ``TribuneMultiAgentEnv`` (RLlib's multi-agent API).
"""

import pettingzoo
from gymnasium.envs.registration import register, registry

from .opponents import OpponentPool
from .single import SingleAgentEnv
from .vector_games import VectorGames

if "Tribune-v0" not in registry:
    register(
        id="Tribune-v0",
        entry_point="tribune_env.envs.single:SingleAgentEnv",
        order_enforce=False,
        disable_env_checker=True,
    )
# PettingZoo's registry came with 1.27; with an older PettingZoo, tribune_v0.env() is the way
if hasattr(pettingzoo, "register") and "Tribune-v0" not in pettingzoo.aec_registry:
    pettingzoo.register("aec", "Tribune-v0", entry_point="tribune_env.envs.aec:env")


def __getattr__(name):
    if name in ("env", "raw_env"):  # imported on demand: PettingZoo (env is the wrapped raw_env)
        from . import aec

        return getattr(aec, name)
    if name == "VectorEnv":  # imported on demand: stable-baselines3 and torch, if present
        from .vector import VectorEnv

        return VectorEnv
    if name == "TribuneMultiAgentEnv":  # imported on demand: Ray's RLlib (the ray extra)
        from .multi_agent import TribuneMultiAgentEnv

        return TribuneMultiAgentEnv
    raise AttributeError(f"module 'tribune_env.envs' has no attribute {name!r}")


__all__ = ["OpponentPool", "SingleAgentEnv", "TribuneMultiAgentEnv", "VectorEnv", "VectorGames", "env", "raw_env"]

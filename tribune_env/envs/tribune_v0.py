"""Tribune made the way PettingZoo's own games were made before its registry:
``from tribune_env.envs import tribune_v0``, then ``tribune_v0.env(num_players=4)`` (with
PettingZoo's call-order checks) or ``tribune_v0.raw_env(...)``, as older tutorials make
``connect_four_v3.env()``. ``pettingzoo.make("aec", "Tribune-v0", ...)`` makes the same
environment through the registry (``tribune_env.envs`` registers it).

The version suffix follows PettingZoo's naming: it changes when a change to the rules or
the observation would make results from the two versions incomparable.
"""

from .aec import env, raw_env

__all__ = ["env", "raw_env"]

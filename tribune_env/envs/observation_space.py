"""The Gymnasium space of a Tribune observation: an adapter's business, not the engine's.

The engine (``tribune_env.observation``) lays the vector out; every adapter offers it to
its users as this one space.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces


def observation_space(layout) -> spaces.Box:
    """The space of one observation of `layout` (every value is a count or a flag, so >= 0)."""
    return spaces.Box(0.0, np.inf, (layout.size,), np.float32)

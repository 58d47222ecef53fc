"""Advice: another policy's move, shown to the learner as part of its observation.

An *advised* observation is the seat's observation followed by one flag per action, set
on the action the advisor (an agent such as the heuristic) would play from that seat,
and all zero once the game is over. The advisor decides from what the seat itself may
know (its observation, mask and :class:`~tribune_env.player.PlayerView`), so no hidden
information leaks. A network trained on advised observations starts from the advisor's
level by copying its move and learns where deviating wins more (residual learning):
PPO from a network that merely imitates the heuristic stays below the heuristic, since
the game's ~20-way placements are hard to copy from the raw table.
"""

from __future__ import annotations

import numpy as np


def advised_space(space, actions: int):
    """The Box of advised observations: `space` with `actions` flags appended."""
    from .observation_space import extended_space

    return extended_space(space, actions)


def advise(advisor, observations: np.ndarray, masks: np.ndarray, views) -> np.ndarray:
    """Advised observations: each row followed by the one-hot of the advisor's move for its view."""
    flags = np.zeros(masks.shape, dtype=np.float32)
    for row, (observation, mask, view) in enumerate(zip(observations, masks, views)):
        if mask.any():  # a finished game has no move to advise
            flags[row, advisor.act(observation, mask, view)] = 1.0
    return np.concatenate([observations, flags], axis=1)

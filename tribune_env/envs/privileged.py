"""Privileged observations: for a critic in training, what the other seats hold hidden.

Centralised training with decentralised play ("perfect-training-imperfect-execution", as in
PerfectDou): a learner's critic that sees every hidden hand may value a position with less
noise, and so sharpen its advantages, while the actor still decides from the seat's own
observation. A *privileged* observation is the seat's observation followed by, for each
other seat in clockwise order (padded to 5 seats), the segments of its own cards and bid:
its hand, its face-down Field of Mars pairs, its sealed bid and the Catacombs pile as it
last examined it (not the Pantheon card it may have seen: that stays in its ``slots``).
Only a critic may read the part after the seat's observation; an actor that reads it
plays with knowledge no player has at the table.
"""

from __future__ import annotations

import numpy as np

from ..data import MAX_PLAYERS

HIDDEN = ("hand", "own_pairs", "own_bid", "catacombs_seen")  # the segments that hold a seat's own cards and bid


def _widths(layout) -> list[int]:
    return [layout.slices[name].stop - layout.slices[name].start for name in HIDDEN]


def hidden_size(layout) -> int:
    """Floats appended to a privileged observation."""
    return (MAX_PLAYERS - 1) * sum(_widths(layout))


def privileged_space(space, layout):
    """The Box of privileged observations: `space` with the other seats' hidden segments appended."""
    from .observation_space import extended_space

    return extended_space(space, hidden_size(layout))


def hidden_of_others(game, seat: int) -> np.ndarray:
    """The hidden segments of every seat but `seat`, clockwise from it, zeros for absent seats."""
    layout = game.obs_layout
    parts = []
    for offset in range(1, game.n):
        observation = game.observe((seat + offset) % game.n)
        parts += [observation[layout.slices[name]] for name in HIDDEN]
    parts.append(np.zeros((MAX_PLAYERS - game.n) * sum(_widths(layout)), np.float32))
    return np.concatenate(parts)


def privilege(observations: np.ndarray, games, seats) -> np.ndarray:
    """Privileged observations: each row (the observation of `seats[i]` in `games[i]`) followed
    by the hidden segments of the other seats."""
    return np.concatenate(
        [observations, np.stack([hidden_of_others(game, int(seat)) for game, seat in zip(games, seats)])], axis=1
    )

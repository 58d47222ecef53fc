"""Privileged observations: for a critic in training, what the other seats hold hidden.

Centralised training with decentralised play ("perfect-training-imperfect-execution", as in
PerfectDou): a learner's critic that sees every hidden hand values a position with less
noise, so its advantages are sharper, while the actor still decides from the seat's own
observation. A *privileged* observation is the seat's observation followed by, for each
other seat in clockwise order (padded to 5 seats), the segments only that seat sees: its
hand, its face-down Field of Mars pairs, its sealed bid and the Catacombs pile as it last
examined it. Only a critic may read the part after the seat's observation; an actor that
reads it plays with knowledge no player has at the table.
"""

from __future__ import annotations

import numpy as np

from ..data import MAX_PLAYERS

HIDDEN = ("hand", "own_pairs", "own_bid", "catacombs_seen")  # the observation's segments only their seat sees


def hidden_size(layout) -> int:
    """Floats appended to a privileged observation."""
    return (MAX_PLAYERS - 1) * sum(layout.slices[name].stop - layout.slices[name].start for name in HIDDEN)


def privileged_space(space, layout):
    """The Box of privileged observations: `space` with the other seats' hidden segments appended."""
    from gymnasium import spaces

    return spaces.Box(0.0, np.inf, (space.shape[0] + hidden_size(layout),), np.float32)


def hidden_of_others(game, seat: int) -> np.ndarray:
    """The hidden segments of every seat but `seat`, clockwise from it, zeros for absent seats."""
    layout = game.obs_layout
    parts = []
    for offset in range(1, MAX_PLAYERS):
        if offset < game.n:
            observation = game.observe((seat + offset) % game.n)
            parts += [observation[layout.slices[name]] for name in HIDDEN]
        else:
            parts += [np.zeros(layout.slices[name].stop - layout.slices[name].start, np.float32) for name in HIDDEN]
    return np.concatenate(parts)


def privilege(observations: np.ndarray, games, seats) -> np.ndarray:
    """Privileged observations: each row (the observation of `seats[i]` in `games[i]`) followed
    by the hidden segments of the other seats."""
    return np.concatenate(
        [observations, np.stack([hidden_of_others(game, int(seat)) for game, seat in zip(games, seats)])], axis=1
    )

"""Final rewards of a finished game, by scheme; every scheme sums to zero over the seats.

- ``win``: each winner +1/w and each other player -1/(n-w), with w winners (w is 1 except
  for a shared win in the point-value variant): the winner +1, the others -1/(n-1).
- ``rank``: players ordered by (won, final score); +1 for the best, -1 for the worst,
  evenly spaced between; tied players share the mean of their places.
- ``score``: final points less their mean, divided by the spread of points (at least 1).

A truncated game has no winner: it is rewarded with ``score`` whatever the scheme. A game
forfeited by an illegal action (``illegal_action="lose"``) gives -1 to the seat that played
it, below any reward a played game gives, and 0 to the others.
"""

from __future__ import annotations

import numpy as np

from ..errors import ConfigError

SCHEMES = ("win", "rank", "score")


def check_scheme(scheme: str) -> str:
    if scheme not in SCHEMES:
        raise ConfigError(f"unknown reward scheme {scheme!r}; choose one of {SCHEMES}")
    return scheme


def final_rewards(game, scheme: str) -> np.ndarray:
    """One float per seat for a game that is over."""
    won = np.zeros(game.n, dtype=bool)
    won[game.winners()] = True
    return rewards_of(game.scores(), won, game.truncated, scheme)


def rewards_of(points: np.ndarray, won: np.ndarray, truncated: bool, scheme: str) -> np.ndarray:
    """One float per seat from a finished game's final points and winners (bool per seat):
    what :func:`final_rewards` gives, for results read from a batch's rows without a ``Game``."""
    n = len(points)
    points = points.astype(np.float64)
    if truncated or scheme == "score":
        return (points - points.mean()) / max(1.0, points.max() - points.min())
    if scheme == "win":
        w = int(won.sum())
        return np.where(won, 1.0 / w, -1.0 / (n - w)) if w < n else np.zeros(n)
    key = won * (points.max() + 1) + points  # a winner outranks any score
    places = np.linspace(1.0, -1.0, n)
    order = np.argsort(-key, kind="stable")
    rewards = np.empty(n)
    for value in np.unique(key):
        tied = [i for i, p in enumerate(order) if key[p] == value]
        rewards[order[tied]] = places[tied].mean()
    return rewards


def forfeit_rewards(n: int, seat: int) -> np.ndarray:
    """The rewards of a game `seat` ended by an illegal action: -1 for it, 0 for the others."""
    rewards = np.zeros(n)
    rewards[seat] = -1.0
    return rewards

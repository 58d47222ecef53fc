"""A seat's window on the game, for agents; and the random player's move.

Agents decide from an observation, a mask and a :class:`PlayerView`; they live above the
environment adapters, so what they are given belongs to the engine.
"""

from __future__ import annotations

import numpy as np

from .core.batched import pick_legal


class PlayerView:
    """What a seat may consult beyond its observation, for search under hidden information.

    It gives the seat, the rules' vocabulary and *determinised* copies of the game, in
    which everything the seat cannot know is re-dealt; never the true hidden state.
    """

    __slots__ = ("_game", "seat")

    def __init__(self, game, seat: int):
        self._game = game
        self.seat = seat

    @property
    def num_players(self) -> int:
        return self._game.n

    @property
    def actions(self):
        """The action space, with a label for every action."""
        return self._game.A

    @property
    def observation_layout(self):
        """Named segments of the seat's observation (see docs/observation.md)."""
        return self._game.obs_layout

    def legal_actions(self) -> np.ndarray:
        return self._game.legal_actions()

    def table(self) -> dict:
        """The table as this seat may see it (:mod:`tribune_env.table`)."""
        return self._game.table(self.seat)

    def seat_log(self) -> list[str] | None:
        """The log as this seat may read it (None for a game that keeps no log; ``Game.seat_log``)."""
        return self._game.seat_log(self.seat)

    def determinize(self, rng: np.random.Generator | None = None):
        """A copy of the game consistent with what this seat knows (see Game.determinize)."""
        return self._game.determinize(self.seat, rng)


def random_action(action_mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of one mask: the random player's move everywhere."""
    legal = np.flatnonzero(action_mask)
    return int(legal[rng.integers(len(legal))])


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of a (games, actions) mask.

    Raises ValueError for a row with no legal action (a finished game's mask): there is no
    move to return, and any number would be taken for one."""
    masks = np.asarray(masks)
    if masks.ndim != 2:
        raise ValueError(f"random_legal takes a (games, actions) mask, got shape {masks.shape}")
    out = np.empty(len(masks), dtype=np.int64)
    legal = masks if masks.dtype == np.int8 else masks != 0
    pick_legal(np.ascontiguousarray(legal, dtype=np.int8), rng.random(len(masks)), out)
    empty = np.flatnonzero(out < 0)
    if len(empty):
        raise ValueError(f"mask row(s) {empty.tolist()} have no legal action (a finished game's mask)")
    return out

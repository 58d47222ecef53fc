"""The agent interface shared by every baseline, the tournaments and the environments.

An agent plays one seat. At each of its decisions it receives its observation, the legal
action mask and a :class:`tribune_env.PlayerView` (its seat, the action labels and
``determinize`` for search under hidden information), and returns an action. ``reset``
starts a new game, reseeding the agent's own generator so that games are reproducible;
whoever plays whole games (tournaments, the terminal game) calls ``end`` when one is over, and
reads what the agent counted of it with ``tally``.
Any agent is also an opponent policy for :class:`tribune_env.envs.SingleAgentEnv`.
"""

from __future__ import annotations

import numpy as np

from tribune_env.player import random_action


class Agent:
    """Base class: subclasses implement :meth:`act`; ``name`` labels them in results."""

    name = "agent"
    reads_log = False  # whether it reads the game's log (PlayerView.seat_log): a tournament keeps one only then

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """A new game begins; with `seed`, the agent's generator starts afresh from it."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view) -> int:
        raise NotImplementedError

    def end(self, view) -> None:
        """The game is over; `view` is the seat's. An agent that talks to something outside tells it here."""

    def tally(self) -> dict:
        """What the agent counts of its latest game (a text seat's retries and forfeits), which
        tournaments add up per entrant: nothing by default."""
        return {}

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    name = "random"
    reads_observations = False  # the mask is enough: the vector environment need not encode one

    def act(self, observation, action_mask, view=None) -> int:
        return random_action(action_mask, self.rng)


def choose(probs: np.ndarray, deterministic: bool, rng: np.random.Generator) -> np.ndarray:
    """One action per row of (games, actions) probabilities: the most probable, or drawn with `rng`."""
    if deterministic:
        return probs.argmax(axis=1)
    cumulative = probs.cumsum(axis=1)
    u = rng.random(len(probs)) * cumulative[:, -1]
    return np.minimum((cumulative <= u[:, None]).sum(axis=1), probs.shape[1] - 1)

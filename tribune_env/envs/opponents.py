"""Opponent policies and learner seats for the single-agent and vector environments.

A policy is anything that picks an action for a seat:

- an object with ``act(observation, action_mask, view) -> int`` (the agents of ``agents/``);
  optionally ``reset()``, called by :class:`~tribune_env.envs.single.SingleAgentEnv` at the start
  of each game, and ``act_batch(observations, action_masks) -> actions``, which
  :class:`~tribune_env.envs.vector.VectorEnv` uses to decide for many games in one call, or,
  preferred to both, ``act_rows(buffers, params, masks, rows, deck_counts) -> actions``, which
  decides for the games in ``rows`` of the batch's arrays (``VectorGames.handle``) at once; or,
  preferred to all, ``sampler()`` and ``play_rows(games, rows, seats, samplers, readers,
  actions=None)``, which play every seat of the policy's class in those games for as long as
  one of them is to act, after the learners' ``actions`` there (``VectorGames.play_rows``),
  each seat with its own generator drawn by ``sampler``;
  a policy whose ``reads_observations`` is false (the random one, the heuristic, which reads
  the game itself) is handed no fresh observation, which spares the vector environment
  encoding one;
- a plain function ``f(observation, action_mask) -> int``;
- the string ``"random"``: a uniformly random legal action, drawn from the environment's
  own seeded generator;
- any other agent spec (``"heuristic"``, ``"policy:PATH.pt"``...): built by the resolver
  the installed package declares in the entry-point group ``tribune.agents``
  (``agents.make_agent``), since this layer imports no agent; seeded from the environment's
  generator at every new game.
"""

from __future__ import annotations

from importlib.metadata import entry_points

import numpy as np

from ..errors import DISTRIBUTION, ConfigError
from ..player import random_action, random_legal

SEAT_CHOICES = ("rotate", "random")


class RandomPolicy:
    """Uniform over legal actions, drawn from the environment's generator.

    `rng` is a function returning that generator, since reseeding the environment replaces it.
    """

    reads_observations = False  # the mask is enough

    def __init__(self, rng):
        self.rng = rng

    def act(self, observation, action_mask, view=None) -> int:
        return random_action(action_mask, self.rng())

    def act_batch(self, observations, action_masks) -> np.ndarray:
        return random_legal(action_masks, self.rng())


class FunctionPolicy:
    """A plain function of (observation, action_mask) used as a policy."""

    def __init__(self, fn):
        self.fn = fn

    def act(self, observation, action_mask, view=None) -> int:
        return self.fn(observation, action_mask)


class SpecAgent:
    """An agent built from its spec, reseeded from the environment's generator at each game,
    so that the same seed gives the same games; otherwise the agent itself."""

    def __init__(self, agent, rng):
        self.agent, self.rng = agent, rng

    def reset(self) -> None:
        self.agent.reset(seed=int(self.rng().integers(2**63)))

    def __getattr__(self, name):
        if name == "agent":  # not set yet: a copy being made
            raise AttributeError(name)
        return getattr(self.agent, name)


def agent_from_spec(spec: str, rng) -> SpecAgent:
    """The agent `spec` names, from the resolver of the ``tribune.agents`` entry-point group."""
    resolvers = entry_points(group="tribune.agents", name="make_agent")
    if not resolvers:
        raise ConfigError(
            f"opponent {spec!r} is an agent spec, which needs the tribune package installed "
            f"(pip install {DISTRIBUTION}); pass 'random', a function or an agent"
        )
    make_agent = next(iter(resolvers)).load()
    return SpecAgent(make_agent(spec, seed=int(rng().integers(2**63))), rng)


def as_policy(opponent, rng):
    if isinstance(opponent, str):
        return RandomPolicy(rng) if opponent == "random" else agent_from_spec(opponent, rng)
    if callable(getattr(opponent, "act", None)):
        return opponent
    if callable(opponent):
        return FunctionPolicy(opponent)
    raise ConfigError(
        f"an opponent must be an agent spec ('random', 'heuristic'...), a function (observation, action_mask) -> action "
        f"or an object with act(observation, action_mask, view); got {opponent!r}"
    )


def opponent_policies(opponents, num_players: int, rng) -> list:
    """The n-1 opponents, in seat order after the learner: one for all, or one per seat.

    `rng` returns the environment's generator, for ``"random"`` opponents.
    """
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != num_players - 1:
            raise ConfigError(f"{num_players} players need {num_players - 1} opponents, got a list of {len(opponents)}")
        return [as_policy(o, rng) for o in opponents]
    return [as_policy(opponents, rng)] * (num_players - 1)


class OpponentPool:
    """Opponents drawn anew for every game: each other seat gets a member, chosen by weight.

    For self-play, a pool of earlier snapshots and baseline agents; ``add`` puts a new
    snapshot in while training runs (in a SubprocVecEnv: ``env_method("add_opponent", ...)``
    on each environment). Members are policies as for ``opponents``.
    """

    def __init__(self, members, weights=None):
        self.members, self.weights = [], []
        weights = [1.0] * len(members) if weights is None else list(weights)
        if len(weights) != len(members):
            raise ConfigError(
                f"an opponent pool needs one weight per member: {len(members)} members, {len(weights)} weights"
            )
        for member, weight in zip(members, weights):
            self.add(member, weight)
        if not self.members:
            raise ConfigError("an opponent pool needs at least one member")

    def add(self, member, weight: float = 1.0) -> None:
        if not weight > 0:
            raise ConfigError(f"an opponent's weight must be positive, got {weight!r}")
        self.members.append(member)
        self.weights.append(float(weight))


class Lineup:
    """Who sits in the other seats of each new game: the fixed opponents, or draws from a pool.

    ``members`` are the resolved policies; ``draw`` gives, in seat order after the learner,
    the index of each opponent's member.
    """

    def __init__(self, opponents, num_players: int, rng):
        self.n, self.rng = num_players, rng
        self.pool = opponents if isinstance(opponents, OpponentPool) else None
        if self.pool is None:
            self.members = opponent_policies(opponents, num_players, rng)
        else:
            self.members = []
            self._sync()

    def _sync(self) -> None:
        """Resolve the pool's members not resolved yet (some may join through another holder)."""
        for member in self.pool.members[len(self.members) :]:
            self.members.append(as_policy(member, self.rng))

    def draw(self) -> list:
        if self.pool is None:
            return list(range(self.n - 1))
        self._sync()
        weights = np.array(self.pool.weights)
        return self.rng().choice(len(weights), size=self.n - 1, p=weights / weights.sum()).tolist()

    def add(self, member, weight: float = 1.0) -> None:
        if self.pool is None:
            raise ConfigError("add_opponent needs an OpponentPool as the opponents")
        policy = as_policy(member, self.rng)  # a bad member is refused before it joins
        self.pool.add(member, weight)
        self.members.append(policy)


class LearnerSeats:
    """Which seat the learner takes in each new game: ``rotate``, ``random`` or a fixed seat.

    Rotation starts at `first`, so a vector of games can spread its learners over the seats.
    """

    def __init__(self, choice, num_players: int, first: int = 0):
        fixed = isinstance(choice, (int, np.integer)) and not isinstance(choice, bool)
        if not (choice in SEAT_CHOICES if isinstance(choice, str) else fixed and 0 <= choice < num_players):
            raise ConfigError(f"learner_seat must be 'rotate', 'random' or a seat 0..{num_players - 1}, got {choice!r}")
        self.choice, self.n, self.first = choice, num_players, first % num_players
        self.restart()

    def restart(self):
        """Rotate from the first seat again (on reseeding: same seed, same games)."""
        self.next_seat = self.first

    def draw(self, rng: np.random.Generator) -> int:
        if self.choice == "random":
            return int(rng.integers(self.n))
        if self.choice == "rotate":
            seat, self.next_seat = self.next_seat, (self.next_seat + 1) % self.n
            return seat
        return int(self.choice)


def seat_policies(policies: list, learner: int) -> list:
    """Per seat, its policy, with None at the learner's seat."""
    n = len(policies) + 1
    seats = [None] * n
    for j, policy in enumerate(policies, start=1):
        seats[(learner + j) % n] = policy
    return seats

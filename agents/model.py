"""A trained sb3-contrib MaskablePPO policy, loaded from its .zip, as an agent.

The policy's action distribution is masked to the legal actions; the agent plays the most
probable one, or samples with its own seeded generator when ``deterministic=False``, so
games stay reproducible. ``act_batch`` decides for many games in one forward pass (used
by :class:`tribune_env.envs.VectorEnv` when a snapshot is an opponent).

A model file holds pickled Python objects, and loading one runs their code, so the agent
loads one only when told the file is trusted (``trust=True``; the spec
``model:PATH.zip,trust=true``). Networks are shared as weights-only policy files
(:mod:`agents.policy`), which load without running anything.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tribune_env.errors import ConfigError, brief, install_hint

from .base import Agent, choose
from .shared import shared
from .weights import check_file, shown


class ModelAgent(Agent):
    """Options: ``path`` to the saved model (.zip), ``deterministic`` (default True), ``trust``
    (default False: a model file is refused, since loading it runs its code)."""

    name = "model"

    def __init__(self, seed=None, path: str | None = None, deterministic: bool = True, model=None, trust=False):
        super().__init__(seed)
        if model is None and not trusted(trust):
            raise ConfigError(
                f"model:{shown(path)} is not trusted: a model file holds pickled Python objects and loading it "
                f"runs their code. If you trust the file, say so: model:PATH.zip,trust=true (or "
                f"--trust-model-files); share networks as weights-only policy files (policy:PATH.pt) instead"
            )
        self.path = path
        self.deterministic = deterministic in (True, 1, "true", "True")
        self.name = f"model:{Path(path).name}" if path else "model"
        self.model = shared(load_model, path) if model is None else model

    def __getstate__(self):
        """Pickled as its file path (to reach a worker process), the network loaded again there."""
        if self.path is None:
            raise TypeError("a ModelAgent made from a model in memory cannot be pickled; give it a path")
        return {k: v for k, v in self.__dict__.items() if k != "model"}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.model = shared(load_model, self.path)

    def act(self, observation, action_mask, view=None) -> int:
        return int(self.act_batch(observation[None], action_mask[None])[0])

    def act_batch(self, observations, action_masks) -> np.ndarray:
        return choose(self.probabilities(observations, action_masks), self.deterministic, self.rng)

    def probabilities(self, observations, action_masks) -> np.ndarray:
        """The policy's action probabilities, restricted to the legal actions."""
        import torch

        policy = self.model.policy
        masks = np.asarray(action_masks, dtype=bool)
        observations = np.asarray(observations, dtype=np.float32)
        with torch.no_grad():
            obs, _ = policy.obs_to_tensor(observations)
            distribution = policy.get_distribution(obs, action_masks=masks)
            probs = distribution.distribution.probs.cpu().numpy().astype(np.float64)
        return np.where(masks, probs, 0.0)


def trusted(trust) -> bool:
    """The ``trust`` option: true or false, as a bool or as the spec writes it."""
    for value in (True, False):
        if trust is value or trust == str(value).lower():
            return value
    raise ConfigError(f"trust must be true or false, got {brief(trust)}")


def check_model_file(path) -> None:
    """ConfigError for a model file that is missing, larger than 100 MB or unpacks larger,
    found before it is read."""
    check_file(path, "MaskablePPO model")


def load_model(path):
    """Load a MaskablePPO .zip, checking its size first and then that it was trained on Tribune's spaces.

    The file holds pickled objects, and loading it runs their code: load only files you trust
    (a :class:`ModelAgent` loads none it was not told to trust).
    """
    check_model_file(path)
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise ConfigError(f"model agents need {install_hint('train')}") from None
    try:
        model = MaskablePPO.load(path, device="cpu")
    except Exception as exc:  # a zip of another kind, or a corrupt file
        raise ConfigError(f"{shown(path)} is not a MaskablePPO model: {shown(exc)}") from None
    from tribune_env import Game

    game = Game(2, seed=0, log=False)
    size = game.obs_layout.size
    if model.observation_space.shape != (size,) or model.action_space.n != game.A.size:
        raise ConfigError(
            f"{shown(path)} was trained on other spaces: observation {model.observation_space.shape}, "
            f"{model.action_space.n} actions (Tribune: {size}, {game.A.size})"
        )
    return model

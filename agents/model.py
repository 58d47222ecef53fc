"""A trained sb3-contrib MaskablePPO policy, loaded from its .zip, as an agent.

The policy's action distribution is masked to the legal actions; the agent plays the most
probable one, or samples with its own seeded generator when ``deterministic=False``, so
games stay reproducible. ``act_batch`` decides for many games in one forward pass (used
by :class:`tribune_env.VectorEnv` when a snapshot is an opponent).

A model trained on advised observations (:mod:`tribune_env.advice`) carries its
advisor's spec (``model.advisor``, saved in the .zip); the agent then builds that
advisor and gives the network the advised observation, so it needs each seat's view.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from tribune_env.advice import advise
from tribune_env.errors import ConfigError

from .base import Agent


class ModelAgent(Agent):
    """Options: ``path`` to the saved model (.zip), ``deterministic`` (default True)."""

    name = "model"

    def __init__(self, seed=None, path: str | None = None, deterministic: bool = True, model=None):
        super().__init__(seed)
        if model is None:
            model = load_model(path)
        self.model, self.path = model, path
        self.deterministic = deterministic in (True, 1, "true", "True")
        self.name = f"model:{Path(path).name}" if path else "model"
        self.advisor = None
        if getattr(model, "advisor", None):
            from . import make_agent
            self.advisor = make_agent(model.advisor, seed=seed)

    @property
    def needs_views(self) -> bool:
        """An advised model asks its advisor, which decides from the seat's view."""
        return self.advisor is not None

    def reset(self, seed=None) -> None:
        super().reset(seed)
        if self.advisor is not None:
            self.advisor.reset(seed)

    def __getstate__(self):
        """Pickled as its file path (to reach a worker process), the network loaded again there."""
        if self.path is None:
            raise TypeError("a ModelAgent made from a model in memory cannot be pickled; give it a path")
        return {k: v for k, v in self.__dict__.items() if k != "model"}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.model = load_model(self.path)

    def act(self, observation, action_mask, view=None) -> int:
        return int(self.act_batch(observation[None], action_mask[None], [view])[0])

    def act_batch(self, observations, action_masks, views=None) -> np.ndarray:
        probs = self.probabilities(observations, action_masks, views)
        if self.deterministic:
            return probs.argmax(axis=1)
        cumulative = probs.cumsum(axis=1)
        u = self.rng.random(len(probs)) * cumulative[:, -1]
        return np.minimum((cumulative <= u[:, None]).sum(axis=1), probs.shape[1] - 1)

    def probabilities(self, observations, action_masks, views=None) -> np.ndarray:
        """The policy's action probabilities, restricted to the legal actions (`views` for an advised model)."""
        import torch
        policy = self.model.policy
        masks = np.asarray(action_masks, dtype=bool)
        observations = np.asarray(observations, dtype=np.float32)
        if self.advisor is not None:
            if views is None or any(view is None for view in views):
                raise ConfigError(f"{self.name} was trained with {self.model.advisor!r} advice: "
                                  f"it needs each seat's view to ask its advisor")
            observations = advise(self.advisor, observations, masks, views)
        with torch.no_grad():
            obs, _ = policy.obs_to_tensor(observations)
            distribution = policy.get_distribution(obs, action_masks=masks)
            probs = distribution.distribution.probs.cpu().numpy().astype(np.float64)
        return np.where(masks, probs, 0.0)


def load_model(path):
    """Load a MaskablePPO .zip, checking it was trained on Tribune's spaces."""
    if not path or not Path(path).is_file():
        raise ConfigError(f"no model file at {path!r}")
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise ConfigError("model agents need the train extra: pip install -e '.[train]'") from None
    try:
        model = MaskablePPO.load(path, device="cpu")
    except Exception as exc:                      # a zip of another kind, or a corrupt file
        raise ConfigError(f"{path} is not a MaskablePPO model: {exc}") from None
    from tribune_env import Game
    game = Game(2, seed=0, log=False)
    size = game.obs_layout.size + (game.A.size if getattr(model, "advisor", None) else 0)
    if model.observation_space.shape != (size,) or model.action_space.n != game.A.size:
        raise ConfigError(f"{path} was trained on other spaces: observation {model.observation_space.shape}, "
                          f"{model.action_space.n} actions (Tribune: {size}, {game.A.size})")
    return model

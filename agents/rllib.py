"""A policy trained with RLlib (``tribune train --backend rllib``) as an agent: ``rllib:PATH``.

The policy file (``.pt``) holds the network's shape and its weights as plain tensors,
written by :func:`save_policy`. It is read with ``torch.load(weights_only=True)``, which
builds tensors, numbers and strings only and runs no code, after its size is checked; a
file that is not such a policy, or whose weights do not fit Tribune's spaces, is a
ConfigError naming the problem.

The agent plays its policy as it was trained: it samples the policy's distribution over
the legal actions, with its own seeded generator (so games replay exactly). A policy
trained by PPO from scratch keeps probability spread over moves of near value, and always
taking the most probable one (``deterministic=True``) can play far worse: one such policy
won 12 of 12 games against ``random`` by sampling and none by arg-max.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from tribune_env import files
from tribune_env.errors import ConfigError

from .base import Agent

FORMAT, VERSION = "tribune-rllib-policy", 1
MAX_BYTES = 100 * 2**20
MAX_LAYERS, MAX_WIDTH = 4, 512  # as training allows


def model_config(layers: list[int]) -> dict:
    """The network of every Tribune policy: separate policy and value towers of `layers`."""
    return {"fcnet_hiddens": list(layers), "fcnet_activation": "tanh", "vf_share_layers": False}


def spaces(num_players: int = 2):
    """Observation (dict) and action spaces of the RLlib environment, the same for every player count."""
    from tribune_env.envs.multi_agent import TribuneMultiAgentEnv

    env = TribuneMultiAgentEnv({"num_players": num_players})
    return env.observation_spaces["player_0"], env.action_spaces["player_0"]


def build_module(layers: list[int]):
    """A fresh :class:`~agents.rllib_modules.MaskedPPOModule` with hidden `layers`."""
    try:
        from .rllib_modules import MaskedPPOModule
    except ImportError:
        raise ConfigError("RLlib policies need the ray extra: pip install -e '.[ray]'") from None

    observation_space, action_space = spaces()
    rllib_module_log = logging.getLogger("ray.rllib.core.rl_module.rl_module")
    level = rllib_module_log.level
    rllib_module_log.setLevel(logging.ERROR)  # RLlib warns of its own internal RLModuleConfig
    try:
        return MaskedPPOModule(
            observation_space=observation_space, action_space=action_space, model_config=model_config(layers)
        )
    finally:
        rllib_module_log.setLevel(level)


def save_policy(module, layers: list[int], path) -> None:
    """Write `module`'s weights (a MaskedPPOModule with hidden `layers`) as a policy file."""
    import torch

    state = {name: tensor.detach().cpu() for name, tensor in module.state_dict().items()}
    torch.save({"format": FORMAT, "version": VERSION, "layers": list(layers), "state": state}, path)


def load_policy(path):
    """The MaskedPPOModule saved at `path`, checked; ConfigError for anything else."""
    import torch

    if not path or not Path(path).is_file():
        raise ConfigError(f"no policy file at {path!r}")
    files.check_size(Path(path).stat().st_size, MAX_BYTES, f"policy file {path}")
    try:
        saved = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # not a torch file, a corrupt one, or one holding objects beyond tensors
        raise ConfigError(f"{path} is not an RLlib policy of Tribune: {exc}") from None
    if not isinstance(saved, dict) or saved.get("format") != FORMAT or saved.get("version") != VERSION:
        raise ConfigError(f"{path} is not an RLlib policy of Tribune (format {FORMAT!r}, version {VERSION})")
    layers, state = saved.get("layers"), saved.get("state")
    if (
        not isinstance(layers, list)
        or not 1 <= len(layers) <= MAX_LAYERS
        or not all(type(n) is int and 1 <= n <= MAX_WIDTH for n in layers)
    ):
        raise ConfigError(f"{path}: layers must be 1 to {MAX_LAYERS} sizes of 1 to {MAX_WIDTH}, got {layers!r}")
    if not isinstance(state, dict) or not all(isinstance(t, torch.Tensor) for t in state.values()):
        raise ConfigError(f"{path}: its weights are not a dict of tensors")
    module = build_module(layers)
    try:
        module.load_state_dict(state, strict=True)
    except RuntimeError as exc:
        raise ConfigError(f"{path} does not fit Tribune's spaces: {exc}") from None
    module.eval()
    return module


class RLlibAgent(Agent):
    """Options: ``path`` to the policy file (.pt), ``deterministic`` (default False: sample)."""

    name = "rllib"

    def __init__(self, seed=None, path: str | None = None, deterministic: bool = False):
        super().__init__(seed)
        self.path = path
        self.deterministic = deterministic in (True, 1, "true", "True")
        self.name = f"rllib:{Path(path).name}" if path else "rllib"
        self.module = load_policy(path)

    def __getstate__(self):
        """Pickled as its file path (to reach a worker process), the policy loaded again there."""
        return {k: v for k, v in self.__dict__.items() if k != "module"}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.module = load_policy(self.path)

    def act(self, observation, action_mask, view=None) -> int:
        probs = self.probabilities(observation[None], action_mask[None])[0]
        if self.deterministic:
            return int(probs.argmax())
        return int(self.rng.choice(len(probs), p=probs / probs.sum()))

    def probabilities(self, observations, action_masks) -> np.ndarray:
        """The policy's action probabilities, zero off the legal actions."""
        import torch
        from ray.rllib.core.columns import Columns

        from tribune_env.envs.multi_agent import ACTION_MASK, OBSERVATIONS

        masks = np.asarray(action_masks, dtype=np.float32)
        batch = {
            Columns.OBS: {
                OBSERVATIONS: torch.as_tensor(np.asarray(observations, dtype=np.float32)),
                ACTION_MASK: torch.as_tensor(masks),
            }
        }
        logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        probs = torch.softmax(logits.double(), dim=-1).numpy()
        return np.where(masks > 0, probs, 0.0)

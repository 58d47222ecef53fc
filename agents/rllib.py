"""A policy trained with RLlib (``tribune train --backend rllib``) as an agent: ``rllib:PATH``.

The policy file (``.pt``) holds the network's shape and its weights as plain tensors,
written by :func:`save_policy`. It is read as :mod:`agents.weights` reads weights files: it
runs no code, and a file that is not such a policy, whose weights do not fit Tribune's
spaces or whose network gives no finite outputs is a ConfigError naming the problem.

The agent plays its policy as it was trained: it samples the policy's distribution over
the legal actions, with its own seeded generator (so games replay exactly). A policy
trained by PPO from scratch keeps probability spread over moves of near value, and always
taking the most probable one (``deterministic=True``) can play far worse: one such policy
won 12 of 12 games against ``random`` by sampling and none by arg-max.
"""

from __future__ import annotations

import logging

import numpy as np

from tribune_env.errors import ConfigError, install_hint

from . import weights

FORMAT = weights.RLLIB


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
        raise ConfigError(f"RLlib policies need {install_hint('ray')}") from None

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
    torch.save({"format": FORMAT.tag, "version": FORMAT.version, "layers": list(layers), "state": state}, path)


def load_policy(path):
    """The MaskedPPOModule saved at `path`, checked; ConfigError for anything else (a missing
    file, or Ray's absence, named before anything of Ray's is imported)."""
    import torch

    saved = weights.read(path, FORMAT)
    module = build_module(saved["layers"])
    from ray.rllib.core.columns import Columns  # present: build_module needed Ray

    weights.fill(module, saved["state"], path)
    module.eval()
    with torch.no_grad():
        batch = _batch(*weights.probes())
        outputs = {"action logits": module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]}
        weights.check_outputs(path, {**outputs, "values": module.compute_values(batch)})
    return module


def _batch(observations, action_masks) -> dict:
    """A batch of observations and their action masks, as a module's forward pass takes it."""
    import torch
    from ray.rllib.core.columns import Columns

    from tribune_env.envs.multi_agent import ACTION_MASK, OBSERVATIONS

    return {
        Columns.OBS: {
            OBSERVATIONS: torch.as_tensor(np.asarray(observations, dtype=np.float32)),
            ACTION_MASK: torch.as_tensor(np.asarray(action_masks, dtype=np.float32)),
        }
    }


class RLlibAgent(weights.WeightsAgent):
    """Options: ``path`` to the policy file (.pt), ``deterministic`` (default False: sample)."""

    name = "rllib"
    load = staticmethod(load_policy)

    def __init__(self, seed=None, path: str | None = None, deterministic: bool = False):
        super().__init__(seed, path, deterministic)

    def act(self, observation, action_mask, view=None) -> int:
        probs = self.probabilities(observation[None], action_mask[None])[0]
        if self.deterministic:
            return int(probs.argmax())
        return int(self.rng.choice(len(probs), p=probs / probs.sum()))

    def probabilities(self, observations, action_masks) -> np.ndarray:
        """The policy's action probabilities, zero off the legal actions."""
        import torch
        from ray.rllib.core.columns import Columns

        logits = self.network.forward_inference(_batch(observations, action_masks))[Columns.ACTION_DIST_INPUTS]
        probs = torch.softmax(logits.double(), dim=-1).numpy()
        return np.where(np.asarray(action_masks) > 0, probs, 0.0)

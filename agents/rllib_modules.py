"""RLlib modules for Tribune's dict observations: PPO with the action mask, and a module for baselines.

Both read ``obs["action_mask"]`` and set the logit of every illegal action to the lowest
float, so an illegal action is never sampled and carries no gradient. Importing this
module imports Ray and torch (the ``ray`` extra).
"""

from __future__ import annotations

import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN

from tribune_env.envs.multi_agent import ACTION_MASK, OBSERVATIONS


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """`logits` with the illegal actions (mask 0) pushed to the lowest float."""
    return logits + torch.clamp(torch.log(mask), min=FLOAT_MIN)


def split(batch: dict) -> tuple[torch.Tensor, dict]:
    """The action mask, and a copy of `batch` whose observation is the vector alone."""
    observation = batch[Columns.OBS]
    return observation[ACTION_MASK], {**batch, Columns.OBS: observation[OBSERVATIONS]}


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO network (``model_config``: a ``DefaultModelConfig`` dict) over the
    observation vector, its action logits masked by the action mask."""

    def __init__(self, *, observation_space=None, **kwargs):
        # The network is built for the vector; the module keeps the dict space, so a copy
        # of it (a frozen snapshot, an env runner's module) is built from the same spaces.
        self._space_with_mask = observation_space
        inner = observation_space[OBSERVATIONS] if observation_space is not None else None
        super().__init__(observation_space=inner, **kwargs)

    def setup(self):
        super().setup()
        self.observation_space = self._space_with_mask

    def _forward(self, batch, **kwargs):
        mask, inner = split(batch)
        out = super()._forward(inner, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def _forward_train(self, batch, **kwargs):
        mask, inner = split(batch)
        out = super()._forward_train(inner, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def compute_values(self, batch, embeddings=None):
        if embeddings is None:
            _, batch = split(batch)
        return super().compute_values(batch, embeddings)


class BaselineModule(RLModule):
    """A module with no weights that never trains: it draws its action uniformly from those its mask allows.

    A baseline agent (``random``, ``heuristic``, any agent spec) plays through it: the
    league's connector (:mod:`training.rllib.league`) narrows the agent's action mask to
    the one move the agent chose, so this module plays that move. It is a plain RLModule,
    not a torch one, so that no learner gives it an optimiser.
    """

    def setup(self):
        pass

    def _forward(self, batch, **kwargs):
        mask = torch.as_tensor(batch[Columns.OBS][ACTION_MASK], dtype=torch.float32)
        return {Columns.ACTIONS: torch.multinomial(mask, 1).squeeze(-1)}

    def _forward_train(self, batch, **kwargs):
        raise NotImplementedError("a baseline module does not train: leave it out of policies_to_train")

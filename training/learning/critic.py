"""MaskablePPO's MlpPolicy with a privileged critic: the critic sees the other seats' hidden
segments, the actor only the seat's own observation.

Trained on privileged observations (:mod:`tribune_env.envs.privileged`), PPO's advantages
come from a critic that knows every hand, so they may carry less of the noise of what the
seat cannot see (PerfectDou's "perfect-training-imperfect-execution"; docs/training.md has
what it changed here). The actor reads the first
``seat_size`` features alone, so it plays from the seat's observation; a third tower, the
*seat value*, learns the same returns from the seat's observation after each update, and it
is the value a policy file keeps (:meth:`seat_state`), for a search that values positions by
the network. Observations of the seat's size alone are enough to act
(:meth:`~sb3_contrib.common.maskable.policies.MaskableActorCriticPolicy.get_distribution`).
"""

from __future__ import annotations

import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn
from torch.nn import functional as F

from agents.policy import tower, widened

# policy-file names of the seat's networks, by this policy's names
SEAT_NAMES = {"seat_value_net.": "mlp_extractor.value_net.", "seat_value.": "value_net."}
ACTOR = ("mlp_extractor.policy_net.", "action_net.")  # the actor's names, the same in both
CRITIC = tuple(SEAT_NAMES.values())  # the critic's names, a policy file's value


class SeatActorExtractor(nn.Module):
    """MlpExtractor's two towers, the actor's reading only the first `seat_size` features."""

    def __init__(self, feature_dim: int, seat_size: int, layers: list[int], activation):
        super().__init__()
        self.seat_size = seat_size
        self.policy_net = tower(seat_size, layers, activation)
        self.value_net = tower(feature_dim, layers, activation)
        self.latent_dim_pi = self.latent_dim_vf = layers[-1]

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return self.policy_net(features[..., : self.seat_size])

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return self.value_net(features)


class PrivilegedCriticPolicy(MaskableActorCriticPolicy):
    """``policy_kwargs``: ``seat_size`` (the seat's observation size) and ``net_arch`` with the
    same ``pi`` and ``vf`` layers."""

    def __init__(self, *args, seat_size: int, **kwargs):
        self.seat_size = seat_size
        super().__init__(*args, **kwargs)

    def _get_constructor_parameters(self) -> dict:
        return {**super()._get_constructor_parameters(), "seat_size": self.seat_size}

    def _layers(self) -> list[int]:
        arch = self.net_arch
        if not isinstance(arch, dict) or arch.get("pi") != arch.get("vf") or not arch.get("pi"):
            raise ValueError(f"a privileged critic needs net_arch with the same pi and vf layers, got {arch!r}")
        return list(arch["pi"])

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = SeatActorExtractor(self.features_dim, self.seat_size, self._layers(), self.activation_fn)

    def _build(self, lr_schedule) -> None:
        layers = self._layers()
        self.seat_value_net = tower(self.seat_size, layers, self.activation_fn)
        self.seat_value = nn.Linear(layers[-1], 1)
        super()._build(lr_schedule)  # the optimizer covers the seat value too
        if self.ortho_init:  # as MaskablePPO initialises its own value networks
            self.seat_value_net.apply(lambda m: self.init_weights(m, gain=np.sqrt(2)))
            self.seat_value.apply(lambda m: self.init_weights(m, gain=1))

    def seat_values(self, observations: th.Tensor) -> th.Tensor:
        """The seat value of each observation (privileged or the seat's own), shape (n,)."""
        features = self.extract_features(observations)[..., : self.seat_size]
        return self.seat_value(self.seat_value_net(features)).flatten()

    def fit_seat_value(self, buffer, epochs: int, batch_size: int, max_grad_norm: float) -> float:
        """Fit the seat value to a rollout's returns, as PPO fits its critic; the mean loss."""
        self.set_training_mode(True)
        parameters = [*self.seat_value_net.parameters(), *self.seat_value.parameters()]
        losses = []
        for _ in range(epochs):
            for data in buffer.get(batch_size):
                loss = F.mse_loss(self.seat_values(data.observations), data.returns)
                self.optimizer.zero_grad()  # only the seat value's parameters get gradients, so only they move
                loss.backward()
                nn.utils.clip_grad_norm_(parameters, max_grad_norm)
                self.optimizer.step()
                losses.append(loss.item())
        self.set_training_mode(False)
        return float(np.mean(losses))

    def seat_state(self) -> dict:
        """The actor and the seat value under a plain MlpPolicy's names: a policy file's state."""
        state = self.state_dict()
        plain = {k: v for k, v in state.items() if k.startswith(ACTOR)}
        for ours, theirs in SEAT_NAMES.items():
            plain.update({theirs + k[len(ours) :]: v for k, v in state.items() if k.startswith(ours)})
        return plain

    def load_seat_state(self, plain: dict) -> None:
        """Start from a plain MlpPolicy's state (a policy file's): its actor, its value as the seat
        value, and its value as the critic's too, which reads the hidden segments with zero weights
        until it learns to."""
        state = {k: v.clone() for k, v in self.state_dict().items()}
        for k, v in plain.items():
            if k.startswith(ACTOR):
                state[k] = v
        for ours, theirs in SEAT_NAMES.items():
            state.update({ours + k[len(theirs) :]: v for k, v in plain.items() if k.startswith(theirs)})
        critic = {k: state[k] for k in plain if k.startswith(CRITIC)}
        state.update(widened(plain, critic))  # the first layer's extra columns (the hidden segments) zero
        self.load_state_dict(state, strict=True)

    def critic_from_seat_value(self) -> None:
        """The critic as the seat value, reading the hidden segments with zero weights (after imitation,
        which fits the seat value alone)."""
        self.load_seat_state(self.seat_state())

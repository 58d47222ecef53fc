"""MaskablePPO whose rollouts keep every core busy: the network decides for one shard of
games while the others play.

sb3-contrib's MaskablePPO collects a rollout one step of all games at a time: the games
play (in their worker processes, :class:`~.shards.ShardedVectorEnv`), then the network
decides for all of them, so the network and the games take turns on the cores, and the
network's threads fight the workers for them. ``Learner`` steps the shards in turn
instead: while shard k plays, the network decides for the next shard, on one thread.
The update, the loss, the advantage estimation and the masked distribution are
MaskablePPO's own (:class:`Policy` computes the distribution in one pass and samples it by
Gumbel-max, so the same seed draws other actions than MaskablePPO; its towers' first layers
read only the observation's non-zero entries, :mod:`agents.sparse_input`). With shards, the
network samples each shard's actions in its own forward pass, so the same seed draws other
actions than one pass over all games would (``tests/test_learner.py``).
"""

from __future__ import annotations

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import MlpExtractor
from stable_baselines3.common.utils import obs_as_tensor
from torch import nn

from agents.sparse_input import FirstLayers

from .shards import ShardedVectorEnv


class Anneal:
    """A learning rate falling linearly from `start` to `end` (sb3 calls it with the share of the run left)."""

    def __init__(self, start: float, end: float):
        self.start, self.end = start, end

    def __call__(self, remaining: float) -> float:
        return self.end + (self.start - self.end) * remaining


class Towers(MlpExtractor):
    """The policy and value towers, their first layers computed together from the observation's
    non-zero entries (:class:`~agents.sparse_input.FirstLayers`), the layers after them in
    bfloat16 while `bfloat16` is set: a CPU with bfloat16 instructions multiplies several times
    as fast (torch's autocast; the weights, the heads and the masked distribution stay in
    float32). The parameters are MlpExtractor's, by the same names."""

    bfloat16 = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.first_layers = FirstLayers()

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        if not (self.policy_net and self.value_net):  # net_arch may give a tower no layers
            return self.forward_actor(features), self.forward_critic(features)
        pi, vf = self.first_layers(features, [self.policy_net[0], self.value_net[0]])
        return self._after_first(self.policy_net, pi), self._after_first(self.value_net, vf)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return self._through(self.policy_net, features)

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return self._through(self.value_net, features)

    def _through(self, tower: nn.Sequential, features: th.Tensor) -> th.Tensor:
        if not tower:  # no layers: the features go through as they are
            return features
        return self._after_first(tower, *self.first_layers(features, [tower[0]]))

    def _after_first(self, tower: nn.Sequential, first: th.Tensor) -> th.Tensor:
        with th.autocast("cpu", dtype=th.bfloat16, enabled=self.bfloat16):
            for layer in list(tower)[1:]:
                first = layer(first)
        return first.float()


def gumbel(like: th.Tensor) -> th.Tensor:
    """Standard Gumbel noise shaped as `like`, finite: a uniform draw of exactly 0 (one in 2**24)
    would make it -inf, and a legal action lose to every illegal one."""
    uniform = th.rand_like(like).clamp_(min=th.finfo(like.dtype).tiny)
    return -th.log(-th.log(uniform))


class Policy(MaskableActorCriticPolicy):
    """MaskablePPO's policy with :class:`Towers`: ``Learner``'s "MlpPolicy"."""

    def __init__(self, *args, optimizer_kwargs=None, **kwargs):
        if optimizer_kwargs is None and kwargs.get("optimizer_class", th.optim.Adam) is th.optim.Adam:
            # MaskablePPO's eps, in torch's fused Adam: one pass over all parameters, a sixth of an update's time
            optimizer_kwargs = {"eps": 1e-5, "fused": True}
        super().__init__(*args, optimizer_kwargs=optimizer_kwargs, **kwargs)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        self.optimizer.register_step_post_hook(self.mlp_extractor.first_layers.forget)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = Towers(
            self.features_dim, net_arch=self.net_arch, activation_fn=self.activation_fn, device=self.device
        )

    def forward(self, obs: th.Tensor, deterministic: bool = False, action_masks=None):
        """The rollout's actions, values and log-probabilities, as MaskablePPO's, from one masked
        log-softmax; a sampled action is drawn by Gumbel-max (the most probable after Gumbel noise
        from torch's generator), the same distribution as sb3's multinomial draw at half the time."""
        if action_masks is None or not self.share_features_extractor:
            return super().forward(obs, deterministic, action_masks)
        log_p, legal, latent_vf = self._masked(obs, action_masks)
        scores = log_p if deterministic else log_p + gumbel(log_p)
        actions = scores.masked_fill(~legal, -th.inf).argmax(dim=-1)
        return actions, self.value_net(latent_vf), log_p.gather(1, actions[:, None]).squeeze(1)

    def evaluate_actions(self, obs: th.Tensor, actions: th.Tensor, action_masks=None):
        """MaskablePPO's values, log-probabilities and entropies for the update, in one masked log-softmax.

        sb3-contrib's masked distribution normalises its logits twice and checks its arguments
        each time; with the towers in bfloat16 that was a sixth of an update's time. The same
        masking (-1e8 off the legal actions) and the same entropy (masked terms zero)."""
        if action_masks is None or not self.share_features_extractor:
            return super().evaluate_actions(obs, actions, action_masks)
        log_p, legal, latent_vf = self._masked(obs, action_masks)
        legal_log_p = log_p.masked_fill(~legal, 0.0)  # exp(-1e8) takes a slow path, ten times exp(0)
        entropy = -(legal_log_p.exp() * legal_log_p).sum(-1)
        return self.value_net(latent_vf), log_p.gather(1, actions.long().reshape(-1, 1)).squeeze(1), entropy

    def _masked(self, obs: th.Tensor, action_masks) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """The actions' log-probabilities (-1e8 off the legal ones before normalising), the legal mask
        and the value tower's output."""
        latent_pi, latent_vf = self.mlp_extractor(self.extract_features(obs))
        logits = self.action_net(latent_pi)
        legal = th.as_tensor(action_masks, dtype=th.bool, device=logits.device).reshape(logits.shape)
        return th.log_softmax(logits.masked_fill(~legal, -1e8), dim=-1), legal, latent_vf


class Learner(MaskablePPO):
    """MaskablePPO with pipelined rollouts on a :class:`~.shards.ShardedVectorEnv` (same files, same update).

    ``run_steps`` is the run's decisions in all: the share of the run left, which a learning-rate
    schedule reads, counts over them, where MaskablePPO counts over each learn() call (a run
    makes one per table-size stage and per resumed segment). Its "MlpPolicy" is :class:`Policy`, whose
    towers can multiply in bfloat16 (``bfloat16``)."""

    run_steps: int | None = None
    policy_aliases = {**MaskablePPO.policy_aliases, "MlpPolicy": Policy}

    @property
    def bfloat16(self) -> bool:
        return self.policy.mlp_extractor.bfloat16

    @bfloat16.setter
    def bfloat16(self, on: bool) -> None:
        self.policy.mlp_extractor.bfloat16 = bool(on)

    def _update_current_progress_remaining(self, num_timesteps: int, total_timesteps: int) -> None:
        super()._update_current_progress_remaining(num_timesteps, self.run_steps or total_timesteps)

    def collect_rollouts(self, env, callback, rollout_buffer, n_rollout_steps: int, use_masking: bool = True) -> bool:
        if not isinstance(env, ShardedVectorEnv) or not use_masking:
            return super().collect_rollouts(env, callback, rollout_buffer, n_rollout_steps, use_masking)
        threads = th.get_num_threads()
        th.set_num_threads(1)  # the workers hold the other cores while the network decides
        try:
            return self._collect(env, callback, rollout_buffer, n_rollout_steps)
        finally:
            th.set_num_threads(threads)

    def _collect(self, env: ShardedVectorEnv, callback, buffer, n_steps: int) -> bool:
        self.policy.set_training_mode(False)
        buffer.reset()
        callback.on_rollout_start()
        n, shards = env.num_envs, env.shards
        # two slots of each step's data: step t in slot t % 2 while step t + 1 is decided in the other
        obs = np.zeros((2, n, *self._last_obs.shape[1:]), dtype=self._last_obs.dtype)
        masks = np.zeros((2, n, env.action_space.n), dtype=bool)
        actions = np.zeros((2, n), dtype=np.int64)
        values = th.zeros((2, n))
        log_probs = th.zeros((2, n))
        starts = np.zeros((2, n), dtype=np.float32)
        rewards = np.zeros(n, dtype=np.float32)
        dones = np.zeros(n, dtype=bool)
        infos = [{}] * n
        obs[0], masks[0], starts[0] = self._last_obs, env.action_masks(), self._last_episode_starts

        def decide(k, slot, rows):
            with th.no_grad():
                a, v, lp = self.policy(obs_as_tensor(obs[slot, rows], self.device), action_masks=masks[slot, rows])
            actions[slot, rows], values[slot, rows], log_probs[slot, rows] = a.cpu().numpy(), v.flatten(), lp
            env.step_shard_async(k, actions[slot, rows])

        for k, rows in enumerate(shards):
            decide(k, 0, rows)
        for t in range(n_steps):
            now, later = t % 2, (t + 1) % 2
            for k, rows in enumerate(shards):
                obs[later, rows], rewards[rows], dones[rows], infos[rows] = env.step_shard_wait(k)
                masks[later, rows], starts[later, rows] = env.action_masks()[rows], dones[rows]
                if t + 1 < n_steps:
                    decide(k, later, rows)
            self.num_timesteps += n
            callback.update_locals({"rewards": rewards, "dones": dones, "infos": infos})
            if not callback.on_step():  # stopped: the steps already sent are played, then left unlearnt
                if t + 1 < n_steps:
                    for k, rows in enumerate(shards):
                        obs[now, rows], _, starts[now, rows], _ = env.step_shard_wait(k)
                    self._last_obs, self._last_episode_starts = obs[now].copy(), starts[now].astype(bool)
                return False
            self._update_info_buffer(infos, dones)
            self._bootstrap_truncated(rewards, dones, infos)
            buffer.add(
                obs[now],
                actions[now].reshape(-1, 1),
                rewards,
                starts[now],
                values[now],
                log_probs[now],
                action_masks=masks[now],
            )
        last = n_steps % 2
        self._last_obs, self._last_episode_starts = obs[last].copy(), dones.copy()
        with th.no_grad():
            last_values = self.policy.predict_values(obs_as_tensor(self._last_obs, self.device))
        buffer.compute_returns_and_advantage(last_values=last_values, dones=dones)
        callback.on_rollout_end()
        return True

    def _bootstrap_truncated(self, rewards, dones, infos) -> None:
        """A game cut at the round limit is worth its final value, as MaskablePPO counts it."""
        for i in np.flatnonzero(dones):
            if infos[i].get("TimeLimit.truncated") and infos[i].get("terminal_observation") is not None:
                with th.no_grad():
                    terminal = self.policy.obs_to_tensor(infos[i]["terminal_observation"])[0]
                    rewards[i] += self.gamma * self.policy.predict_values(terminal)[0].item()

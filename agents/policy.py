"""A trained network as an agent from a weights-only file: ``policy:PATH.pt``.

``tribune train`` saves its policies twice: as a MaskablePPO ``.zip`` (pickled objects, for
resuming) and as a policy file (``.pt``, :func:`export`) holding the network's shape and
its weights as plain tensors. A policy file is read as :mod:`agents.weights` reads weights
files: it runs no code, and a file that is not such a policy, whose weights do not fit
Tribune's spaces or whose network gives no finite outputs is a ConfigError naming the
problem. The agent needs torch alone, not stable-baselines3.

The network is MaskablePPO's ``MlpPolicy``: separate policy and value towers of tanh
layers, the action logits masked to the legal actions. The agent plays the most probable
legal action, or samples with its own seeded generator (``deterministic=false``); ``value``
gives the value head's estimate, for a search that values positions with it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tribune_env.data import MAX_PLAYERS, MIN_PLAYERS
from tribune_env.errors import ConfigError, brief

from . import weights
from .base import choose

FORMAT = weights.POLICY


def export(model, path, players=()) -> None:
    """Write a MaskablePPO model's network as a policy file at `path`, trained at `players`."""
    policy = model.policy
    extractor = policy.mlp_extractor
    layers = widths(extractor.policy_net)
    if layers != widths(extractor.value_net):
        raise ConfigError("a policy file holds policy and value towers of the same layers")
    write(layers, policy.state_dict(), path, players)


def write(layers: list[int], state: dict, path, players=()) -> None:
    """Write a policy file: the towers' `layers`, the network's `state` (tensors by name) and
    the table sizes it was trained at (`players`), so that playing it elsewhere can be told."""
    import torch

    state = {name: t.detach().cpu().clone() for name, t in state.items()}
    saved = {"format": FORMAT.tag, "version": FORMAT.version, "layers": layers, "state": state}
    torch.save({**saved, "players": sorted({int(n) for n in players})}, path)


def widths(tower) -> list[int]:
    """The sizes of a tower's linear layers: a policy file's ``layers``."""
    return [m.out_features for m in tower if hasattr(m, "out_features")]


def tower(width: int, layers: list[int]):
    """Linear layers of the given widths from `width` inputs, each followed by tanh: a tower of
    MaskablePPO's MlpPolicy."""
    import torch

    modules = []
    for size in layers:
        modules += [torch.nn.Linear(width, size), torch.nn.Tanh()]
        width = size
    return torch.nn.Sequential(*modules)


class Network:
    """The policy and value towers of a policy file, in plain torch."""

    def __init__(self, layers: list[int], observation_size: int, actions: int, players=()):
        import torch

        self.players = tuple(players)  # the table sizes it was trained at; () where untold
        self.modules = torch.nn.ModuleDict(
            {
                "mlp_extractor": torch.nn.ModuleDict(
                    {"policy_net": tower(observation_size, layers), "value_net": tower(observation_size, layers)}
                ),
                "action_net": torch.nn.Linear(layers[-1], actions),
                "value_net": torch.nn.Linear(layers[-1], 1),
            }
        )
        self.modules.eval()
        from .sparse_input import FirstLayers

        self._first_layers = {"policy_net": FirstLayers(), "value_net": FirstLayers()}

    def logits(self, observations):
        return self.modules["action_net"](self._tower("policy_net", observations))

    def values(self, observations):
        return self.modules["value_net"](self._tower("value_net", observations)).flatten()

    def _tower(self, name: str, observations):
        """A tower's output, its first layer read from the observations' non-zero entries (:mod:`.sparse_input`)."""
        tower = self.modules["mlp_extractor"][name]
        (out,) = self._first_layers[name](observations, [tower[0]])
        for layer in list(tower)[1:]:
            out = layer(out)
        return out

    @property
    def layers(self) -> list[int]:
        return widths(self.modules["mlp_extractor"]["policy_net"])

    def save(self, path) -> None:
        """Write this network as a policy file."""
        write(self.layers, self.modules.state_dict(), path, players=self.players)


def load_policy(path) -> Network:
    """The network saved at `path`, checked; ConfigError for anything else (no torch included)."""
    saved = weights.read(path, FORMAT)
    import torch  # weights.read has said, if need be, that policy files need it

    advisor = saved.get("advisor")  # "" in earlier versions' files; anything else: advice was in its observations
    if advisor is not None and not (isinstance(advisor, str) and not advisor):
        raise ConfigError(
            f"{weights.shown(path)} was trained with {brief(advisor)} advice; a policy file plays from its observation alone"
        )
    observations, masks = weights.probes()
    network = Network(saved["layers"], observations.shape[1], masks.shape[1], table_sizes(saved, path))
    weights.fill(network.modules, saved["state"], path)
    with torch.no_grad():
        inputs = torch.as_tensor(observations)
        weights.check_outputs(path, {"action logits": network.logits(inputs), "values": network.values(inputs)})
    return network


def table_sizes(saved: dict, path) -> tuple[int, ...]:
    """The table sizes a policy file says it was trained at: a list of player counts, () for a
    file that does not say (one written before files said it); a shipped network's from
    ``agents.trained.MANIFEST``."""
    players = saved.get("players", [])
    if not isinstance(players, list) or not all(type(n) is int and MIN_PLAYERS <= n <= MAX_PLAYERS for n in players):
        raise ConfigError(
            f"{weights.shown(path)}: players must be a list of table sizes from {MIN_PLAYERS} to {MAX_PLAYERS}, "
            f"got {brief(players)}"
        )
    if players:
        return tuple(players)
    from .trained import TRAINED_AT

    return next((sizes for file, sizes in TRAINED_AT.items() if Path(path).resolve() == file.resolve()), ())


def start_from(model, path) -> None:
    """Set a MaskablePPO model's network to the one in the policy file at `path` (checked as
    :func:`load_policy` checks it). The model's layers may be wider than the file's, never fewer
    or narrower: the file's network is then widened (:func:`widened`) and plays as before."""
    network = load_policy(path)
    ours, saved = widths(model.policy.mlp_extractor.policy_net), widths(network.modules["mlp_extractor"]["policy_net"])
    if len(saved) != len(ours) or any(s > o for s, o in zip(saved, ours)):
        raise ConfigError(
            f"{path} has layers {saved}, the run's network {ours} (net_arch): it needs as many layers, none narrower"
        )
    state = network.modules.state_dict()
    if saved != ours:
        state = widened(state, model.policy.state_dict())
    model.policy.load_state_dict(state, strict=True)


def widened(saved: dict, fresh: dict) -> dict:
    """The `saved` network inside the wider `fresh` one, computing the same function (a widening
    like Net2Net's, with silent units instead of copies): each saved tensor fills the first rows
    and columns of its fresh one, and the weights out of the fresh network's extra units are
    zero. Their incoming weights keep the fresh initialisation, so training grows them from
    there: extra capacity that starts from a trained network's play instead of imitating it."""
    state = {}
    for name, start in fresh.items():
        old, new = saved[name], start.detach().clone()
        if new.dim() == 2:
            new[:, old.shape[1] :] = 0  # from the extra units of the layer below
        new[tuple(slice(0, n) for n in old.shape)] = old
        state[name] = new
    return state


class PolicyAgent(weights.WeightsAgent):
    """Options: ``path`` to the policy file (.pt), ``deterministic`` (default True: the most probable move)."""

    name = "policy"
    load = staticmethod(load_policy)

    def __init__(self, seed=None, path: str | None = None, deterministic: bool = True):
        from . import shipped

        super().__init__(seed, shipped(path), deterministic)

    @property
    def players(self) -> tuple[int, ...]:
        """The table sizes its network was trained at; () where its file does not say."""
        return self.network.players

    def act(self, observation, action_mask, view=None) -> int:
        return int(self.act_batch(observation[None], action_mask[None])[0])

    def act_batch(self, observations, action_masks) -> np.ndarray:
        return choose(self.probabilities(observations, action_masks), self.deterministic, self.rng)

    def probabilities(self, observations, action_masks) -> np.ndarray:
        """The policy's action probabilities, zero off the legal actions."""
        import torch

        masks = torch.as_tensor(np.asarray(action_masks, dtype=bool))
        with torch.no_grad():
            logits = self.network.logits(torch.as_tensor(np.asarray(observations, dtype=np.float32)))
            probs = torch.softmax(torch.where(masks, logits, -torch.inf).double(), dim=-1)
        return probs.numpy()

    def value(self, observations) -> np.ndarray:
        """The value head's estimate of each observation's final reward."""
        import torch

        with torch.no_grad():
            return self.network.values(torch.as_tensor(np.asarray(observations, dtype=np.float32))).numpy()

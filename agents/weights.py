"""Network files that hold weights only, and the agents that play them.

A file is a dict saved by ``torch.save``: a format tag and version, the hidden layers'
sizes and the weights as plain tensors. :func:`read` checks its size first, then loads it
with ``torch.load(weights_only=True)``, which builds tensors, numbers and strings only and
runs no code, and checks every part; anything else is a ConfigError naming the file and
the problem. RLlib's policy files (:mod:`agents.rllib`) and ``tribune train``'s
(:mod:`agents.policy`) are two formats of this kind.
"""

from __future__ import annotations

from pathlib import Path

from tribune_env import files
from tribune_env.errors import ConfigError

from .base import Agent
from .shared import shared

MAX_BYTES = 100 * 2**20
MAX_LAYERS = 4


def read(path, form: str, version: int, what: str, max_width: int) -> dict:
    """The checked contents of a weights file of format `form` (a `what`, for messages)."""
    import torch

    file = Path(path).expanduser() if path else None  # "~/x.pt", as the training config checks it
    if file is None or not file.is_file():
        raise ConfigError(f"no {what} at {path!r}")
    files.check_size(file.stat().st_size, MAX_BYTES, f"{what} {path}")
    try:
        saved = torch.load(file, map_location="cpu", weights_only=True)
    except Exception as exc:  # not a torch file, a corrupt one, or one holding objects beyond tensors
        raise ConfigError(f"{path} is not a Tribune {what}: {exc}") from None
    if not isinstance(saved, dict) or saved.get("format") != form or saved.get("version") != version:
        raise ConfigError(f"{path} is not a Tribune {what} (format {form!r}, version {version})")
    layers, state = saved.get("layers"), saved.get("state")
    if (
        not isinstance(layers, list)
        or not 1 <= len(layers) <= MAX_LAYERS
        or not all(type(n) is int and 1 <= n <= max_width for n in layers)
    ):
        raise ConfigError(f"{path}: layers must be 1 to {MAX_LAYERS} sizes of 1 to {max_width}, got {layers!r}")
    if not isinstance(state, dict) or not all(isinstance(t, torch.Tensor) for t in state.values()):
        raise ConfigError(f"{path}: its weights are not a dict of tensors")
    return saved


def spec_of(path) -> str:
    """The agent spec that plays the weights file at `path` (``policy:`` or ``rllib:``), told by
    the format tag it carries, so that a command can take either file as it is."""
    from . import policy, rllib

    for kind, module in (("policy", policy), ("rllib", rllib)):
        try:
            read(path, module.FORMAT, module.VERSION, "weights file", module.MAX_WIDTH)
        except ConfigError:
            continue
        return f"{kind}:{path}"
    raise ConfigError(f"{path} is neither a Tribune policy file nor an RLlib policy file")


class WeightsAgent(Agent):
    """An agent playing a network loaded from its file (``load(path)``); pickled as the path,
    to reach a worker process, and loaded again there."""

    def __init__(self, seed, path: str | None, deterministic):
        super().__init__(seed)
        self.path = path
        self.deterministic = deterministic in (True, 1, "true", "True")
        self.name = f"{self.name}:{Path(path).name}" if path else self.name
        self.network = shared(self.load, path)

    @staticmethod
    def load(path):
        raise NotImplementedError

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k != "network"}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.network = shared(self.load, self.path)

"""Network files that hold weights only, and the agents that play them.

A file is a dict saved by ``torch.save``: a format tag and version, the hidden layers'
sizes and the weights as plain tensors. Before it is read, :func:`check_file` finds it a
zip archive (as ``torch.save`` writes) no larger than MAX_BYTES, packed or unpacked. It is
then loaded with ``torch.load(weights_only=True)``, which builds tensors, numbers and
strings only and runs no code, and every part is checked: the tag (:data:`FORMATS`), the
layers, each tensor's name, shape and values (:func:`fill`), and the network's outputs on
Tribune's observations (:func:`check_outputs`), so a network that cannot play is refused
when its file is read, not at its first move. Anything else is a ConfigError naming the
file and the problem, in a message of bounded length. RLlib's policy files
(:mod:`agents.rllib`) and ``tribune train``'s (:mod:`agents.policy`) are two formats of
this kind.
"""

from __future__ import annotations

import pickle
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tribune_env import files
from tribune_env.errors import ConfigError, brief, install_hint

from .base import Agent
from .shared import shared

MAX_BYTES = 100 * 2**20  # a file, and its members unpacked
MAX_MEMBERS = 1000  # members of its archive: a policy file has a few dozen
MAX_LAYERS = 4
MAX_SHOWN = 120  # characters of a path or name in a message


@dataclass(frozen=True)
class Format:
    """A kind of weights file: its tag, the agent spec that plays it, its name in messages."""

    tag: str
    kind: str
    what: str
    max_width: int
    version: int = 1


POLICY = Format("tribune-policy", "policy", "policy file", 2048)
RLLIB = Format("tribune-rllib-policy", "rllib", "RLlib policy file", 512)  # as training allows
FORMATS = {form.tag: form for form in (POLICY, RLLIB)}


def shown(text) -> str:
    """`text` (a path, a tensor's name) cut short for a message, keeping its end (a file's name)."""
    text = str(text)
    return text if len(text) <= MAX_SHOWN else text[:40] + "..." + text[-(MAX_SHOWN - 43) :]


def check_file(path, what: str) -> Path:
    """The file at `path` (``~`` expanded), found before anything reads it to be a zip archive
    of at most MAX_MEMBERS members and MAX_BYTES, packed and unpacked (a small file must not
    inflate to gigabytes); a ConfigError naming the problem otherwise."""
    if not isinstance(path, (str, Path)) or not str(path):
        raise ConfigError(f"a {what} needs a path, got {brief(path)}")
    try:
        file = Path(path).expanduser()  # "~/x.pt", as the training config checks it
        status = file.stat()
    except FileNotFoundError:
        raise ConfigError(f"no such file: {shown(path)}") from None
    except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop, a name too long, a NUL byte, no home
        raise ConfigError(f"cannot read {shown(path)}: {getattr(exc, 'strerror', None) or exc}") from None
    if not stat.S_ISREG(status.st_mode):
        raise ConfigError(f"{shown(path)} is not a file")
    files.check_size(status.st_size, MAX_BYTES, f"{what} {shown(path)}")
    try:
        with zipfile.ZipFile(file) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError) as exc:
        raise ConfigError(f"{shown(path)} is not a {what}: {shown(exc)}") from None
    if len(members) > MAX_MEMBERS:
        raise ConfigError(f"{shown(path)} is not a {what}: its archive has {len(members):,} members")
    files.check_size(sum(member.file_size for member in members), MAX_BYTES, f"{what} {shown(path)} unpacked")
    return file


def torch_module():
    """torch, or a ConfigError that names the extra bringing it."""
    try:
        import torch
    except ImportError as exc:
        raise ConfigError(
            f"{exc}; policy files need PyTorch, {install_hint('train')} (after torch==2.13.0, the CPU build)"
        ) from None
    return torch


def load(path, what: str = "Tribune or RLlib policy file") -> tuple[dict, Format]:
    """The contents of the weights file at `path` and its format, told by the tag it carries."""
    torch = torch_module()
    file = check_file(path, what)
    try:
        saved = torch.load(file, map_location="cpu", weights_only=True)
    except Exception as exc:  # not a torch file, a corrupt one, or one holding objects beyond tensors
        raise ConfigError(f"{shown(path)} is not a {what}: {_reason(exc)}") from None
    tag = saved.get("format") if isinstance(saved, dict) else None
    form = FORMATS.get(tag) if isinstance(tag, str) else None
    if form is None:
        raise ConfigError(f"{shown(path)} is not a {what}: it carries no known format tag")
    return saved, form


def _reason(exc: Exception) -> str:
    """Why torch could not load a file, in a few words: its messages go on to advise loading
    the file in ways that run code."""
    if isinstance(exc, pickle.UnpicklingError):
        return "it holds objects other than tensors, numbers and strings"
    return shown(str(exc).strip().partition("\n")[0].partition(". ")[0])


def read(path, form: Format) -> dict:
    """The checked contents of a weights file of format `form`: its version, layers and tensors."""
    torch = torch_module()
    saved, found = load(path, form.what)
    version = saved.get("version")
    if found != form or type(version) is not int or version != form.version:
        raise ConfigError(f"{shown(path)} is not a Tribune {form.what} (format {form.tag!r}, version {form.version})")
    layers, state = saved.get("layers"), saved.get("state")
    if (
        not isinstance(layers, list)
        or not 1 <= len(layers) <= MAX_LAYERS
        or not all(type(n) is int and 1 <= n <= form.max_width for n in layers)
    ):
        raise ConfigError(
            f"{shown(path)}: layers must be 1 to {MAX_LAYERS} sizes of 1 to {form.max_width}, got {_values(layers)}"
        )
    if not isinstance(state, dict) or not all(isinstance(t, torch.Tensor) for t in state.values()):
        raise ConfigError(f"{shown(path)}: its weights are not a dict of tensors")
    return saved


def _values(value) -> str:
    """A list from a file as its first few items, each described briefly; any other value briefly."""
    if not isinstance(value, list):
        return brief(value)
    items = [brief(item) for item in value[: MAX_LAYERS + 1]]
    return "[" + ", ".join(items) + (", ...]" if len(value) > len(items) else "]")


def spec_of(path) -> str:
    """The agent spec that plays the weights file at `path` (``policy:`` or ``rllib:``), told by
    the format tag it carries, so that a command can take either file as it is."""
    return f"{load(path)[1].kind}:{path}"


def fill(module, state: dict, path) -> None:
    """Set `module`'s weights to `state`: the same tensors by name and shape, of floating-point
    numbers, finite once loaded; a ConfigError naming the first tensor that is not, or the names
    that do not fit (`module` is then to be dropped)."""
    import torch

    expected = module.state_dict()
    strange = next((name for name in state if not isinstance(name, str)), None)
    if strange is not None:
        raise ConfigError(f"{shown(path)}: its tensors must be named by strings, one is named by {brief(strange)}")
    missing, extra = [n for n in expected if n not in state], [n for n in state if n not in expected]
    if missing or extra:
        parts = [_names(label, names) for label, names in (("missing", missing), ("unexpected", extra)) if names]
        raise ConfigError(f"{shown(path)} does not fit Tribune's network: {'; '.join(parts)}")
    for name, tensor in state.items():
        where = f"{shown(path)}: tensor {name}"
        if tensor.shape != expected[name].shape:
            shape = tuple(tensor.shape) if tensor.dim() <= 4 else f"{tensor.dim()} dimensions"
            raise ConfigError(f"{where} has shape {shown(shape)}, Tribune's network {tuple(expected[name].shape)}")
        if tensor.layout != torch.strided or not tensor.is_floating_point():
            raise ConfigError(f"{where} is not a dense tensor of floating-point numbers ({tensor.dtype})")
    module.load_state_dict(state, strict=True)
    for name, tensor in module.state_dict().items():  # as loaded: a float64 of 1e300 is inf in float32
        if not torch.isfinite(tensor).all():
            raise ConfigError(f"{shown(path)}: tensor {name} holds values that are not finite (nan or infinite)")


def _names(label: str, names: list[str]) -> str:
    """'2 missing (a, b)': a count of tensors and the first few names, for a message."""
    listed = ", ".join(shown(name) for name in names[:3])
    return f"{len(names):,} {label} ({listed}{', ...' if len(names) > 3 else ''})"


def probes() -> tuple[np.ndarray, np.ndarray]:
    """Observations and action masks a network must answer with finite numbers to play: all
    zeros, and the first decision of a game at each table size."""
    from tribune_env import Game

    games = [Game(n, seed=0, log=False) for n in range(2, 6)]
    observations = [game.observe(game.current_player) for game in games]
    masks = [game.legal_mask() for game in games]
    return (
        np.stack([np.zeros_like(observations[0]), *observations]).astype(np.float32),
        np.stack([np.ones_like(masks[0]), *masks]).astype(bool),
    )


def check_outputs(path, outputs: dict) -> None:
    """ConfigError if a network's `outputs` on :func:`probes` (name: tensor) are not all finite:
    such a network has no move to play."""
    import torch

    for name, tensor in outputs.items():
        if not torch.isfinite(tensor).all():
            raise ConfigError(
                f"{shown(path)}: the network's {name} are not finite (nan or infinite) on Tribune's observations, "
                "so it cannot play"
            )


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

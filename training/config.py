"""Training settings: one dataclass, read from a TOML file and overridden by command-line flags.

Every field has a default, so ``TrainConfig()`` is a complete run. A config file holds
any subset of the fields at top level (see ``configs/``); unknown keys and bad values
raise :class:`~tribune_env.errors.ConfigError` naming them. The resolved settings are
saved with each run, and a resumed run reads them back from there.
"""
from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass, field, fields

from tribune_env.errors import ConfigError
from tribune_env.rewards import SCHEMES

if sys.version_info >= (3, 11):
    import tomllib
else:                                   # Python 3.10: the same parser, from PyPI
    import tomli as tomllib


@dataclass(frozen=True)
class TrainConfig:
    """What a self-play run does; ``help`` in each field's metadata is the flag's help text."""

    players: int = field(default=2, metadata={"help": "Players per game, 2 to 5."})
    steps: int = field(default=200_000, metadata={"help": "Learner decisions to train for (environment steps)."})
    num_envs: int = field(default=32, metadata={"help": "Games played side by side."})
    seed: int = field(default=0, metadata={"help": "Seed of the games, the network and the opponent draws."})
    reward: str = field(default="win", metadata={"help": f"Final reward scheme: {', '.join(SCHEMES)}."})
    baselines: str = field(default="random=1,heuristic=2", metadata={
        "help": "Baseline agents in the opponent pool, as spec=weight pairs (comma-separated)."})
    snapshot_every: int = field(default=50_000, metadata={
        "help": "Steps between snapshots of the learner added to the opponent pool (0: none)."})
    snapshot_weight: float = field(default=1.0, metadata={"help": "Pool weight of each snapshot."})
    imitation_games: int = field(default=0, metadata={
        "help": "Heuristic self-play games whose decisions the network imitates before PPO (0: none)."})
    imitation_epochs: int = field(default=6, metadata={"help": "Passes over the imitation data."})
    advisor: str = field(default="", metadata={
        "help": "Agent spec whose move is appended to the learner's observations, e.g. heuristic ('': none)."})
    eval_every: int = field(default=50_000, metadata={"help": "Steps between evaluations (0: only at the end)."})
    eval_games: int = field(default=100, metadata={"help": "Games per evaluation opponent."})
    eval_opponents: str = field(default="random,heuristic", metadata={
        "help": "Agent specs evaluated against, comma-separated; the last one picks the best model."})
    checkpoint_every: int = field(default=50_000, metadata={"help": "Steps between checkpoints."})
    net_arch: str = field(default="256,256", metadata={"help": "Hidden layer sizes of policy and value nets."})
    learning_rate: float = field(default=3e-4, metadata={"help": "Adam step size."})
    n_steps: int = field(default=128, metadata={"help": "Steps per game slot in each rollout."})
    batch_size: int = field(default=1024, metadata={"help": "Minibatch size of the PPO update."})
    n_epochs: int = field(default=4, metadata={"help": "Passes over each rollout."})
    gamma: float = field(default=1.0, metadata={"help": "Discount; the only reward is at the end of a game."})
    gae_lambda: float = field(default=0.95, metadata={"help": "GAE lambda."})
    clip_range: float = field(default=0.1, metadata={"help": "PPO clipping."})
    ent_coef: float = field(default=0.003, metadata={"help": "Entropy bonus."})
    workers: int = field(default=0, metadata={"help": "Processes for the learner's games, imitation and evaluation (0: the number of CPUs)."})

    def __post_init__(self):
        checks = [
            (2 <= self.players <= 5, "players must be 2 to 5"),
            (self.steps > 0 and self.num_envs > 0, "steps and num_envs must be positive"),
            (self.reward in SCHEMES, f"reward must be one of {SCHEMES}"),
            (min(self.snapshot_every, self.eval_every, self.imitation_games, self.workers) >= 0,
             "snapshot_every, eval_every, imitation_games and workers must not be negative"),
            (self.checkpoint_every > 0 and self.eval_games > 0, "checkpoint_every and eval_games must be positive"),
            (self.snapshot_weight > 0, "snapshot_weight must be positive"),
            (self.n_steps > 0 and self.batch_size > 1 and self.n_epochs > 0 and self.imitation_epochs > 0,
             "n_steps, n_epochs, imitation_epochs must be positive and batch_size above 1"),
            (self.learning_rate > 0 and 0 <= self.gamma <= 1 and 0 <= self.gae_lambda <= 1,
             "learning_rate must be positive, gamma and gae_lambda in [0, 1]"),
            (self.clip_range > 0 and self.ent_coef >= 0, "clip_range must be positive, ent_coef not negative"),
        ]
        for ok, message in checks:
            if not ok:
                raise ConfigError(f"bad training config: {message}")
        self.layers()
        from agents import parse_spec  # agent names are checked now, models when loaded
        for spec in [s for s, _ in self.pool()] + self.evaluation_specs() + ([self.advisor] if self.advisor else []):
            parse_spec(spec)
        if not self.evaluation_specs():
            raise ConfigError("bad training config: eval_opponents names no agent")

    def layers(self) -> list[int]:
        try:
            sizes = [int(s) for s in self.net_arch.split(",")]
        except ValueError:
            sizes = []
        if not sizes or min(sizes) < 1:
            raise ConfigError(f"bad training config: net_arch {self.net_arch!r} is not sizes like '256,256'")
        return sizes

    def pool(self) -> list[tuple[str, float]]:
        """The baseline members of the opponent pool: (agent spec, weight)."""
        members = []
        for item in filter(None, (s.strip() for s in self.baselines.split(","))):
            spec, _, weight = item.rpartition("=")
            try:
                members.append((spec, float(weight)))
            except ValueError:
                raise ConfigError(f"bad training config: baseline {item!r} is not spec=weight") from None
            if not spec or not float(weight) > 0:
                raise ConfigError(f"bad training config: baseline {item!r} needs a spec and a positive weight")
        if not members:
            raise ConfigError("bad training config: the opponent pool needs at least one baseline")
        return members

    def evaluation_specs(self) -> list[str]:
        from agents import split_specs
        return [s for s in split_specs(self.eval_opponents) if s]

    def replace(self, **changes) -> TrainConfig:
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


NAMES = {f.name for f in fields(TrainConfig)}


def from_dict(values: dict, base: TrainConfig | None = None, source: str = "config") -> TrainConfig:
    """`base` (the defaults) with `values` put in; unknown names and wrong types raise ConfigError."""
    unknown = sorted(set(values) - NAMES)
    if unknown:
        raise ConfigError(f"{source}: unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(NAMES))}")
    base = base or TrainConfig()
    types = {f.name: type(f.default) for f in fields(TrainConfig)}
    for name, value in values.items():
        want = types[name]
        ok = isinstance(value, want) or (want is float and isinstance(value, int))
        if not ok or isinstance(value, bool):
            raise ConfigError(f"{source}: {name} must be {want.__name__}, got {value!r}")
    return base.replace(**{k: types[k](v) for k, v in values.items()})


def read(path) -> TrainConfig:
    """A config file (TOML) on top of the defaults."""
    try:
        with open(path, "rb") as file:
            values = tomllib.load(file)
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config {path} is not valid TOML: {exc}") from None
    return from_dict(values, source=str(path))


def write(config: TrainConfig, path) -> None:
    """Save as TOML (every value is a number or a string; a JSON string is a TOML basic string)."""
    lines = [f"{k} = {json.dumps(v) if isinstance(v, str) else repr(v)}" for k, v in config.as_dict().items()]
    with open(path, "w") as file:
        file.write("\n".join(lines) + "\n")

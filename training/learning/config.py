"""Training settings: one dataclass, read from a TOML file and overridden by command-line flags.

Every field has a default, so ``TrainConfig()`` is a complete run. A config file holds
any subset of the fields at top level (see ``training/configs/``); unknown keys and bad values
raise :class:`~tribune_env.errors.ConfigError` naming them. The resolved settings are
saved with each run, and a resumed run reads them back from there.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field, fields
from pathlib import Path

from tribune_env import files
from tribune_env.data import MAX_PLAYERS, MIN_PLAYERS
from tribune_env.envs.rewards import SCHEMES
from tribune_env.errors import ConfigError, brief

from ..bounds import MAX_GAMES, MAX_SEED, MAX_WORKERS

MAX_BYTES = 2**20  # a config file: a few hundred bytes
# Settings of earlier versions at the value that did nothing: runs saved with them still resume.
RETIRED = {"advisor": "", "card_focus": 0.0}
MAX_ROLLOUT = 65_536  # n_steps x num_envs: the rollout is held in memory, about 8 KB a step
MAX_LAYERS, MAX_WIDTH = 4, 512
MAX_STEPS = 10**10
BACKENDS = ("sb3", "rllib")  # stable-baselines3's MaskablePPO on this machine; RLlib's PPO on Ray
PRECISIONS = ("float32", "bfloat16")  # the towers' matrix products (training.learning.learner.Towers)


@dataclass(frozen=True)
class Range:
    """The values a numeric setting may take: `low` to `high`, `low` itself excluded when `above`.

    NaN and infinities fall outside every range.
    """

    low: float
    high: float
    above: bool = False

    def __contains__(self, value) -> bool:
        return (value > self.low if self.above else value >= self.low) and value <= self.high

    def __str__(self) -> str:
        return f"above {self.low:,} up to {self.high:,}" if self.above else f"{self.low:,} to {self.high:,}"


def setting(default, help: str, bounds: Range | None = None):
    """A field: its default, its flag's help and, for a number, its range."""
    return field(default=default, metadata={"help": help, "range": bounds})


@dataclass(frozen=True)
class TrainConfig:
    """What a self-play run does; ``help`` in each field's metadata is the flag's help text, ``range``
    the values a number may take."""

    backend: str = setting("sb3", f"Trainer: {', '.join(BACKENDS)} (RLlib on Ray: docs/scaling.md).")
    players: int = setting(2, "Players per game.", Range(2, 5))
    steps: int = setting(200_000, "Learner decisions to train for (environment steps).", Range(1, MAX_STEPS))
    num_envs: int = setting(32, "Games played side by side.", Range(1, 1024))
    seed: int = setting(0, "Seed of the games, the network and the opponent draws.", Range(0, MAX_SEED))
    reward: str = setting("win", f"Final reward scheme: {', '.join(SCHEMES)}.")
    baselines: str = setting(
        "random=1,heuristic=2", "Baseline agents in the opponent pool, as spec=weight pairs (comma-separated)."
    )
    snapshot_every: int = setting(
        50_000, "Steps between snapshots of the learner added to the opponent pool (0: none).", Range(0, MAX_STEPS)
    )
    snapshot_weight: float = setting(1.0, "Pool weight of each snapshot.", Range(0, 10**6, above=True))
    imitation_games: int = setting(
        0,
        "Heuristic self-play games whose decisions the network imitates before PPO "
        "(0: none; their decisions are held in memory, about 1 MB a 2-player game).",
        Range(0, 10_000),
    )
    imitation_epochs: int = setting(6, "Passes over the imitation data.", Range(1, 1000))
    imitation_learning_rate: float = setting(
        1e-3, "Adam's step size while imitating (lower to fine-tune an init_policy).", Range(0, 1, above=True)
    )
    imitation_batch_size: int = setting(
        1024, "Minibatch size while imitating (independent of batch_size).", Range(1, 10**6)
    )
    init_policy: str = setting(
        "",
        "Policy file (.pt) whose network a new run starts from, before any imitation: e.g. one trained at "
        "another table size, since observations and actions are the same for 2 to 5 players ('shipped-2p' to "
        "'shipped-5p': the shipped networks; '': a new network). net_arch needs as many layers, each at least "
        "as wide (a wider network starts playing as the file's); a resumed run continues from its checkpoint.",
    )
    table_sizes: str = setting(
        "",
        "Table sizes the learner's games cycle through, stage_steps decisions at each, e.g. '5,3,4' "
        "('': players only). Evaluations stay at players.",
    )
    stage_steps: int = setting(400_000, "Decisions at each size of table_sizes before the next.", Range(1, MAX_STEPS))
    eval_every: int = setting(50_000, "Steps between evaluations (0: only at the end).", Range(0, MAX_STEPS))
    eval_games: int = setting(100, "Games per evaluation opponent.", Range(1, MAX_GAMES))
    eval_opponents: str = setting(
        "random,heuristic", "Agent specs evaluated against, comma-separated; the last one picks the best model."
    )
    checkpoint_every: int = setting(50_000, "Steps between checkpoints.", Range(1, MAX_STEPS))
    net_arch: str = setting(
        "256,256", f"Hidden layer sizes of policy and value nets, 1 to {MAX_LAYERS} layers of 1 to {MAX_WIDTH}."
    )
    learning_rate: float = setting(3e-4, "Adam step size.", Range(0, 1, above=True))
    anneal: float = setting(
        0.0,
        "Share of learning_rate shed linearly over the run's steps (0: constant; 0.9: it ends at a tenth; sb3 only).",
        Range(0, 1),
    )
    precision: str = setting(
        "float32",
        "The towers' matrix products after their first layers: float32, or bfloat16 (training about 1.1 "
        "times as fast on a CPU with bfloat16 instructions, slower on one without; sb3 only).",
    )
    n_steps: int = setting(
        128, f"Steps per game slot in each rollout (n_steps x num_envs at most {MAX_ROLLOUT:,}).", Range(1, MAX_ROLLOUT)
    )
    batch_size: int = setting(1024, "Minibatch size of the PPO update.", Range(2, MAX_ROLLOUT))
    n_epochs: int = setting(4, "Passes over each rollout.", Range(1, 1000))
    gamma: float = setting(1.0, "Discount; the only reward is at the end of a game.", Range(0, 1))
    gae_lambda: float = setting(0.95, "GAE lambda.", Range(0, 1))
    clip_range: float = setting(0.1, "PPO clipping.", Range(0, 1, above=True))
    ent_coef: float = setting(0.003, "Entropy bonus.", Range(0, 1))
    workers: int = setting(
        0, "Processes for the learner's games, imitation and evaluation (0: the number of CPUs).", Range(0, MAX_WORKERS)
    )
    env_runners: int = setting(
        1,
        "RLlib env runners, each playing num_envs games (rllib backend; 0: sampled in the learner's process).",
        Range(0, MAX_WORKERS),
    )

    def __post_init__(self):
        for f in fields(self):
            bounds = f.metadata["range"]
            if bounds is not None and getattr(self, f.name) not in bounds:
                raise ConfigError(f"bad training config: {f.name} must be {bounds}, got {getattr(self, f.name)!r}")
        if self.reward not in SCHEMES:
            raise ConfigError(f"bad training config: reward must be one of {SCHEMES}")
        if self.backend not in BACKENDS:
            raise ConfigError(f"bad training config: backend must be one of {BACKENDS}, got {self.backend!r}")
        if self.init_policy and self.backend == "rllib":
            raise ConfigError("bad training config: init_policy starts a MaskablePPO network (backend = 'sb3')")
        from agents import shipped

        object.__setattr__(self, "init_policy", shipped(self.init_policy))  # shipped-2p: the installed file
        if self.backend == "rllib" and self.anneal:
            raise ConfigError("bad training config: the rllib backend keeps learning_rate constant (anneal = 0)")
        if self.precision not in PRECISIONS:
            raise ConfigError(
                f"bad training config: precision must be one of {PRECISIONS}, got {brief(self.precision)}"
            )
        if self.backend == "rllib" and self.precision != "float32":
            raise ConfigError("bad training config: the rllib backend multiplies in float32 (precision = 'float32')")
        if self.backend == "rllib" and self.table_sizes:
            raise ConfigError("bad training config: the rllib backend trains at one table size (table_sizes = '')")
        if self.n_steps * self.num_envs > MAX_ROLLOUT:
            raise ConfigError(
                f"bad training config: n_steps x num_envs must be at most {MAX_ROLLOUT:,} "
                f"(the rollout is held in memory), got {self.n_steps * self.num_envs:,}"
            )
        self.layers()
        self.sizes()
        from agents import FILE_AGENTS, make_agent, parse_spec

        # every agent is checked now, before a run writes anything: built (its options checked by
        # the agent itself), or, for an agent in a file, the file found (its contents when loaded)
        for spec in [s for s, _ in self.pool()] + self.evaluation_specs():
            name, options = parse_spec(spec)
            if name not in FILE_AGENTS:
                make_agent(spec)
            elif not Path(options["path"]).expanduser().is_file():
                raise ConfigError(f"bad training config: {spec!r} names no file")
        if not self.evaluation_specs():
            raise ConfigError("bad training config: eval_opponents names no agent")

    def layers(self) -> list[int]:
        sizes = _integers(self.net_arch)
        if not sizes or min(sizes) < 1:
            raise ConfigError(f"bad training config: net_arch {self.net_arch!r} is not sizes like '256,256'")
        if len(sizes) > MAX_LAYERS or max(sizes) > MAX_WIDTH:
            raise ConfigError(
                f"bad training config: net_arch {self.net_arch!r} must have 1 to {MAX_LAYERS} "
                f"layers of at most {MAX_WIDTH}"
            )
        return sizes

    def sizes(self) -> list[int]:
        """The table sizes the learner's games cycle through, one stage of stage_steps decisions each.

        Observations and actions are the same for every size, so one network can learn from the
        games of all of them (docs/training.md has what it gained at each size).
        """
        if not self.table_sizes.strip():
            return [self.players]
        sizes = _integers(self.table_sizes)
        if not sizes or not all(MIN_PLAYERS <= n <= MAX_PLAYERS for n in sizes):
            raise ConfigError(
                f"bad training config: table_sizes {self.table_sizes!r} is not player counts "
                f"from {MIN_PLAYERS} to {MAX_PLAYERS} like '5,3,4'"
            )
        return sizes

    def table_size(self, steps: int) -> int:
        """The table size of the stage `steps` decisions fall in."""
        sizes = self.sizes()
        return sizes[steps // self.stage_steps % len(sizes)]

    def stage_end(self, steps: int) -> int:
        """Where the stage that `steps` falls in ends: the next change of table size, or the run's end."""
        if len(set(self.sizes())) == 1:
            return self.steps
        return min(self.steps, (steps // self.stage_steps + 1) * self.stage_steps)

    def pool(self) -> list[tuple[str, float]]:
        """The baseline members of the opponent pool: (agent spec, weight)."""
        members = []
        for item in filter(None, (s.strip() for s in self.baselines.split(","))):
            spec, _, weight = item.rpartition("=")
            try:
                members.append((spec, float(weight)))
            except ValueError:
                raise ConfigError(f"bad training config: baseline {item!r} is not spec=weight") from None
            if not spec or not 0 < float(weight) < math.inf:
                raise ConfigError(f"bad training config: baseline {item!r} needs a spec and a positive finite weight")
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


def _integers(text: str) -> list[int]:
    """'256,256' as [256, 256]; [] when an item is not an integer (the caller names the setting)."""
    try:
        return [int(item) for item in text.split(",")]
    except ValueError:
        return []


def from_dict(values: dict, base: TrainConfig | None = None, source: str = "config") -> TrainConfig:
    """`base` (the defaults) with `values` put in; unknown names and wrong types raise ConfigError."""
    unknown = sorted(set(values) - NAMES)
    if unknown:
        raise ConfigError(f"{source}: unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(NAMES))}")
    base = base or TrainConfig()
    return base.replace(**{name: _typed(name, value, source) for name, value in values.items()})


def _typed(name: str, value, source: str):
    """`value` as the setting's type (an int is a float too); ConfigError if it is not one."""
    want = type(TrainConfig.__dataclass_fields__[name].default)
    ok = isinstance(value, want) or (want is float and isinstance(value, int))
    if not ok or isinstance(value, bool):
        raise ConfigError(f"{source}: {name} must be {want.__name__}, got {value!r}")
    try:
        return want(value)
    except OverflowError:  # an int beyond any float
        raise ConfigError(f"{source}: {name} is out of range") from None


def read(path) -> TrainConfig:
    """A config file (TOML) on top of the defaults."""
    table = files.read_toml(path, MAX_BYTES)
    for name, idle in RETIRED.items():
        if name in table and table[name] == idle and type(table[name]) is type(idle):
            del table[name]
    if "stage" in table:
        raise ConfigError(f"{path} is a recipe of stages, not one run's settings: make it with tribune make")
    return from_dict(table, source=str(path))


def toml_value(value) -> str:
    """A setting's value as TOML: every value is a number or a string, and a JSON string is a TOML basic string."""
    return json.dumps(value) if isinstance(value, str) else repr(value)


def write(config: TrainConfig, path) -> None:
    """Save as TOML."""
    lines = [f"{k} = {toml_value(v)}" for k, v in config.as_dict().items()]
    with open(path, "w") as file:
        file.write("\n".join(lines) + "\n")

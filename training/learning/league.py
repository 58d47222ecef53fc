"""A league: best responses to the network found and trained against, round after round (``tribune league``).

A network trained against a fixed pool has blind spots that a best response finds
(:mod:`.exploit`). The league is AlphaStar's league, or PSRO, in its simplest form: it
alternates finding a best response to the current network (an *exploiter*) with training the
network against a pool of every exploiter found so far, every earlier network and the
recipe's baselines. Round r (1-based) lives in ``OUT/round-r/``::

    exploiter/   tribune exploit's run against network r-1 (network 0: init_policy), its
                 exploit.json (win rates against network r-1 and the heuristic) and policy.pt
    main/        tribune train's run from network r-1 against that pool, `steps` decisions;
                 its policy.pt is network r

After the last round R, round R+1's exploiter alone measures network R, what the league made;
with more rounds it is the first step of round R+1. ``OUT`` also holds the settings
(``config.toml`` the main network's, ``exploit.toml`` the exploiters', ``league.json`` the
league's), ``rounds.csv`` and ``curve.png`` (the exploiters' win rates) and ``policy.pt``, a
copy of the latest network.

A step is done when its file is there (exploit.json, policy.pt), and a resumed league starts
at the first that is not: an unfinished main resumes from its checkpoint, an unfinished
exploiter starts again (:func:`.exploit.measure` trains a new run). Round r's runs are seeded
with their settings' seed + r - 1, so that each round plays new games. The runs and their
modules are imported where they run, so that the command line loads quickly.
"""

from __future__ import annotations

import csv
import json
import shutil
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from tribune_env import files
from tribune_env.errors import ConfigError

from ..bounds import MAX_GAMES
from . import config as configs

MAIN, EXPLOITERS, SETTINGS = "config.toml", "exploit.toml", "league.json"
ROUNDS, CURVE = "rounds.csv", "curve.png"
POLICY = "policy.pt"  # a run's network at its end (selfplay.FINAL_POLICY), and the league's latest
MAX_BYTES = 2**20  # league.json, exploit.json, state.json: a few kilobytes
SHARES = configs.Range(0, 0.99, above=True)


@dataclass(frozen=True)
class LeagueConfig:
    """The league's own settings; the main network's are a TrainConfig, its ``steps`` per round."""

    rounds: int = configs.setting(
        1,
        "Rounds of an exploiter and the network trained against it; one more exploiter then measures the last network.",
        configs.Range(1, 1000),
    )
    exploit_decisions: int = configs.setting(
        500_000, "Each exploiter's training budget in its own decisions.", configs.Range(1, configs.MAX_STEPS)
    )
    exploit_games: int = configs.setting(
        1000,
        "Games of each exploiter against the network it attacks, and as many against the heuristic.",
        configs.Range(1, MAX_GAMES),
    )
    league_share: float = configs.setting(
        0.5,
        "Share of the pool's weight held by the league's own members (every exploiter and every earlier network, "
        "equally); the recipe's baselines (and its snapshots, if any) keep the rest in every round.",
        SHARES,
    )

    def __post_init__(self):
        for f in fields(self):
            value, kind = getattr(self, f.name), type(f.default)
            if isinstance(value, bool) or not isinstance(value, (kind, int)):
                raise ConfigError(f"bad league setting: {f.name} must be {kind.__name__}, got {value!r}")
            if value not in f.metadata["range"]:
                raise ConfigError(f"bad league setting: {f.name} must be {f.metadata['range']}, got {value!r}")
            object.__setattr__(self, f.name, kind(value))  # an int given for a float setting is held as a float

    @classmethod
    def from_dict(cls, values, source: str = "league settings") -> LeagueConfig:
        known = [f.name for f in fields(cls)]
        if not isinstance(values, dict):
            raise ConfigError(f"{source}: not a table of settings")
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ConfigError(f"{source}: unknown setting(s) {', '.join(unknown)}; known: {', '.join(known)}")
        return cls(**values)


def exploiter(out: Path, number: int) -> Path:
    """Where round `number`'s exploiter runs."""
    return out / f"round-{number}" / "exploiter"


def trainee(out: Path, number: int) -> Path:
    """Where round `number`'s main network trains."""
    return out / f"round-{number}" / "main"


def finished(out: Path, rounds: int) -> bool:
    """Whether the league in `out` has played its `rounds` and measured its last network."""
    from .exploit import SUMMARY

    return (exploiter(out, rounds + 1) / SUMMARY).exists()


def plain(path: Path) -> Path:
    """`path`, which a pool of comma-separated spec=weight pairs can name: ConfigError if it holds ',' or '='."""
    if "," in str(path) or "=" in str(path):
        raise ConfigError(f"bad league config: a league's paths cannot hold ',' or '=' (pools list them), got {path}")
    return path


def plain_spec(spec: str) -> str:
    """An agent spec of the pool, its file (if any) free of ',' and '='."""
    from agents import FILE_AGENTS

    name, _, rest = spec.partition(":")
    return f"{name}:{plain(Path(rest))}" if name in FILE_AGENTS and rest else spec


def policy_spec(path: Path) -> str:
    """A policy file as a frozen member of a pool, or as an exploiter's target."""
    return f"policy:{plain(path)}"


class League:
    """A league's directory and settings: where each step's run is, and what it is given."""

    def __init__(
        self, out: Path, main: configs.TrainConfig, exploiters: configs.TrainConfig, settings: LeagueConfig, echo=print
    ):
        self.out, self.main, self.exploiters, self.settings, self.echo = out, main, exploiters, settings, echo

    def save(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        configs.write(self.main, self.out / MAIN)
        configs.write(self.exploiters, self.out / EXPLOITERS)
        (self.out / SETTINGS).write_text(json.dumps(asdict(self.settings), indent=1) + "\n")

    def exploiter(self, number: int) -> Path:
        return exploiter(self.out, number)

    def trainee(self, number: int) -> Path:
        return trainee(self.out, number)

    def network(self, number: int) -> Path:
        """Network `number`: 0 the start (init_policy), r the policy round r's main ended with."""
        return Path(self.main.init_policy) if number == 0 else self.trainee(number) / POLICY

    def main_config(self, number: int) -> configs.TrainConfig:
        """Round `number`'s main run: from the network before it, against the recipe's baselines,
        every exploiter so far and every network so far, frozen. The members share ``league_share``
        of the pool's weight, so the baselines hold their share however many rounds have passed
        (with a weight each, the baselines' share fell round after round and so did the network's
        play against them)."""
        members = [self.exploiter(k) / POLICY for k in range(1, number + 1)] + [self.network(k) for k in range(number)]
        share, baselines = self.settings.league_share, sum(weight for _, weight in self.main.pool())
        weight = baselines * share / (1 - share) / len(members)
        return self.main.replace(
            init_policy=str(self.network(number - 1)),
            baselines=",".join([self.main.baselines, *(f"{policy_spec(m)}={weight:.12g}" for m in members)]),
            seed=self.main.seed + number - 1,  # new games each round
        )

    def run(self) -> list[dict]:
        """Take the steps not done yet, the last network's measurement included; the rows of ``rounds.csv``."""
        for number in range(1, self.settings.rounds + 1):
            self.find_exploiter(number)
            self.train_main(number)
        self.find_exploiter(self.settings.rounds + 1)
        return self.report()

    def find_exploiter(self, number: int) -> None:
        """Round `number`'s exploiter: a best response to the network before it, as tribune exploit makes it."""
        from . import exploit

        out, target = self.exploiter(number), policy_spec(self.network(number - 1))
        if (out / exploit.SUMMARY).exists():
            return
        if out.exists():  # a best response that stopped: exploit.measure starts a new one
            shutil.rmtree(out)
        s = self.settings
        seed = self.exploiters.seed + number - 1
        config = exploit.best_response_config(
            target, self.main.players, s.exploit_decisions, s.exploit_games, seed, base=self.exploiters
        )
        self.echo(f"\nround {number}: a best response to {target} for {config.steps:,} decisions into {out}")
        self.echo(exploit.table(exploit.measure(target, config, out, echo=self.echo)))
        self.report()

    def train_main(self, number: int) -> None:
        """Round `number`'s main network, trained (or resumed) unless done; copied to ``OUT/policy.pt``."""
        from . import selfplay
        from .runs import RunFiles

        out = self.trainee(number)
        if not self.network(number).exists():
            config = self.main_config(number)
            resume = RunFiles(out).state.exists()
            self.echo(f"\nround {number}: {'resuming' if resume else 'training'} {out} for {config.steps:,} decisions")
            selfplay.train(config, out, resume=resume, echo=self.echo)
        shutil.copyfile(self.network(number), self.out / POLICY)
        self.report()

    def report(self) -> list[dict]:
        """Write ``rounds.csv`` and ``curve.png`` from the exploiters measured so far; their rows."""
        rows = [self.row(n) for n in range(1, self.settings.rounds + 2) if self.measured(n)]
        if rows:
            with open(self.out / ROUNDS, "w", newline="") as file:
                writer = csv.DictWriter(file, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
            curve(rows, self.main.players, self.out / CURVE)
        return rows

    def measured(self, number: int) -> bool:
        from .exploit import SUMMARY

        return (self.exploiter(number) / SUMMARY).exists()

    def row(self, number: int) -> dict:
        """Round `number`: its exploiter's win rates against the network it attacked and the
        heuristic, and the minutes of the round's runs (its exploiter's evaluation included)."""
        from .exploit import SUMMARY
        from .runs import RunFiles

        path = self.exploiter(number) / SUMMARY
        found = files.read_json(path, MAX_BYTES)
        try:
            network, heuristic = found["rows"]
            row = {"round": number}
            for key, measured in (("vs_network", network), ("vs_heuristic", heuristic)):
                row[key], (row[f"{key}_low"], row[f"{key}_high"]) = measured["win_rate"], measured["win_ci"]
            minutes = float(found["minutes"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(
                f"{path} is not an exploiter's summary ({type(exc).__name__}: {exc}); delete it to measure again"
            ) from None
        state = RunFiles(self.trainee(number)).state
        main = files.read_json(state, MAX_BYTES)["seconds"] / 60 if self.network(number).exists() else 0.0
        return {**row, "minutes": round(minutes + main, 1)}


def start(
    main: configs.TrainConfig, exploiters: configs.TrainConfig, settings: LeagueConfig, out, echo=print
) -> League:
    """A new league in `out`, its settings checked and saved with absolute paths, so that it
    resumes from any directory. The exploiters play with the main network's net_arch, workers and
    precision (its shape, and how this machine runs it)."""
    if not main.init_policy:
        raise ConfigError("bad league config: init_policy must name the policy file the league starts from")
    out, first = plain(Path(out).resolve()), plain(Path(main.init_policy).expanduser().resolve())
    if out.is_dir() and any(out.iterdir()):  # a league to resume, or another run's files
        raise ConfigError(f"{out} is not empty: resume the league there (--resume), or choose another directory")
    if not first.is_file():
        raise ConfigError(f"bad league config: init_policy {main.init_policy!r} names no file")
    from agents import locate

    exploiters = exploiters.replace(net_arch=main.net_arch, workers=main.workers, precision=main.precision)
    pool = ",".join(f"{plain_spec(locate(spec))}={weight:.12g}" for spec, weight in main.pool())
    league = League(out, main.replace(init_policy=str(first), baselines=pool), exploiters, settings, echo)
    league.save()
    return league


def resume(out, changes: dict, echo=print) -> League:
    """The league in `out`, with `changes` to its league settings (more ``rounds``, say) saved."""
    out = Path(out).resolve()
    if not (out / SETTINGS).exists():
        raise ConfigError(f"nothing to resume in {out}: no {SETTINGS}")
    saved = LeagueConfig.from_dict(files.read_json(out / SETTINGS, MAX_BYTES), str(out / SETTINGS))
    settings = replace(saved, **changes)
    if settings.rounds < saved.rounds:  # its latest network would give way to an earlier one
        raise ConfigError(f"bad league setting: rounds cannot go below the league's {saved.rounds} on resume")
    league = League(out, configs.read(out / MAIN), configs.read(out / EXPLOITERS), settings, echo)
    league.save()
    return league


def table(rows: list[dict], players: int) -> str:
    """The rounds as printed: each exploiter's win rates with their 95% intervals, beside parity."""
    lines = [f"round  exploiter vs network [95% CI]  vs heuristic [95% CI]  minutes   (parity {100 / players:.1f}%)"]
    for r in rows:
        lines.append(
            f"{r['round']:>5}  {_rate(r, 'vs_network'):>28}  {_rate(r, 'vs_heuristic'):>21}  {r['minutes']:>7}"
        )
    return "\n".join(lines)


def _rate(row: dict, key: str) -> str:
    return f"{100 * row[key]:.1f}% [{100 * row[f'{key}_low']:.1f}, {100 * row[f'{key}_high']:.1f}]"


def curve(rows: list[dict], players: int, path: Path) -> None:
    """Exploitability by round: each exploiter's win rate against the network it attacked (and the
    heuristic), with 95% intervals, beside parity."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.subplots()
    rounds = [r["round"] for r in rows]
    series = (("vs_network", "the network it attacked", 0.0), ("vs_heuristic", "the heuristic", 0.08))
    for key, label, shift in series:  # the heuristic's beside, not on top
        rates = [r[key] for r in rows]
        below = [rate - r[f"{key}_low"] for rate, r in zip(rates, rows)]
        above = [r[f"{key}_high"] - rate for rate, r in zip(rates, rows)]
        ax.errorbar([n + shift for n in rounds], rates, yerr=[below, above], marker="o", capsize=4, label=f"vs {label}")
    ax.axhline(1 / players, color="grey", linestyle="--", label="parity")
    ax.set(title=f"League, {players} players: each round's exploiter's win rate (95% interval)",
           xlabel="round (its exploiter attacks network round - 1; network 0: the start)",
           ylabel="wins per game", ylim=(0, 1), xticks=rounds)  # fmt: skip
    ax.legend(loc="best", fontsize="small")
    fig.savefig(path, dpi=120)

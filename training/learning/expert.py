"""Expert iteration: the network learns from its own search, round after round (``tribune expert``).

Each round plays `decisions` searched decisions in `games` games at once. In most games
every seat is the search (:class:`agents.expert.RootSearch`) guided by the current network,
with Gumbel noise so that it explores; in a share of them (`heuristic_share`) one seat
searches and the others are the heuristic, which keeps the network honest against a style
not its own. Every searched decision is kept with its improved policy (the search's
distribution over the legal moves, not only the move it chose) and, once its game ends, the
seat's final reward. The network is then trained on the last `replay` rounds' decisions:
cross-entropy to the improved policy and squared error of its value to the final reward.
Every twentieth decision of a round is held out of training: of those where the search changed
the network's most probable move, the share the trained network then plays
(``search_learned``) says how far the search's improvement generalises to positions the network
did not train on; a search's strength reaches the network only through it. Each round ends with
the raw network's win rate against the heuristic in every other seat (and, with
``search_games``, the search's), written to ``rounds.csv`` and the curve.

A run directory holds ``config.json``, ``rounds.csv``, ``curve.png``, ``policy.pt`` (the
network after the last round, a policy file) and ``checkpoint.pt`` (network, optimiser and
round, weights only), from which ``--resume`` goes on: games under way when a run stopped are
not kept, so a resumed run deals new ones.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from tribune_env.errors import ConfigError, brief

from .runs import append_csv, read_csv

CHECKPOINT, POLICY, ROUNDS, CURVE, CONFIG = "checkpoint.pt", "policy.pt", "rounds.csv", "curve.png", "config.json"
SETTINGS_BYTES = 2**16  # a recipe is a few lines
HELD_OUT = 20  # every this many decisions of a round, one is kept out of training (search_learned)


@dataclass(frozen=True)
class ExpertConfig:
    """The settings of an expert-iteration run (a recipe gives those that differ from these)."""

    players: int = 2
    start: str = ""  # policy file the network starts from ("" for a new one of `layers`)
    layers: tuple = (256, 256)
    rounds: int = 20
    games: int = 128  # games under way at once
    decisions: int = 16_384  # searched decisions per round
    candidates: int = 6  # moves searched at a root
    worlds: int = 4  # determinisations each candidate is played in
    heuristic_share: float = 0.25  # games in which the other seats are the heuristic
    replay: int = 3  # rounds whose decisions the network trains on
    epochs: int = 2
    batch_size: int = 512
    learning_rate: float = 1e-4
    value_weight: float = 1.0
    eval_games: int = 200  # games of the raw network against the heuristic after each round
    search_games: int = 0  # games of the search against the heuristic after each round
    seed: int = 0

    def __post_init__(self):
        ranges = {
            "players": (2, 5), "rounds": (1, 10**6), "games": (1, 4096), "decisions": (1, 10**8),
            "candidates": (1, 64), "worlds": (1, 256), "replay": (1, 1000), "epochs": (1, 100),
            "batch_size": (1, 10**6), "eval_games": (0, 10**6), "search_games": (0, 10**6), "seed": (0, 2**63 - 1),
        }  # fmt: skip
        for name, (low, high) in ranges.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ConfigError(f"expert: {name} must be an int from {low} to {high:,}, got {brief(value)}")
        for name, (low, high) in {"heuristic_share": (0, 1), "learning_rate": (0, 1), "value_weight": (0, 100)}.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                raise ConfigError(f"expert: {name} must be a number from {low} to {high}, got {brief(value)}")
        if not isinstance(self.start, str):
            raise ConfigError(f"expert: start must be a policy file's path, got {brief(self.start)}")
        layers = tuple(self.layers) if isinstance(self.layers, (list, tuple)) else None
        if not layers or not all(type(w) is int and 1 <= w <= 4096 for w in layers) or len(layers) > 8:
            raise ConfigError(f"expert: layers must be 1 to 8 widths from 1 to 4096, got {brief(self.layers)}")
        object.__setattr__(self, "layers", layers)

    @classmethod
    def from_dict(cls, settings: dict) -> ExpertConfig:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise ConfigError(
                f"expert: unknown setting(s) {', '.join(map(brief, unknown))}; known: {', '.join(sorted(known))}"
            )
        return cls(**settings)


class Samples:
    """One round's searched decisions: observation, mask, improved policy, final reward (nan until
    its game ends) and whether it is held out of training."""

    def __init__(self, capacity: int, obs_size: int, actions: int):
        self.observations = np.zeros((capacity, obs_size), dtype=np.float32)
        self.masks = np.zeros((capacity, actions), dtype=bool)
        self.policy = np.zeros((capacity, actions), dtype=np.float32)
        self.rewards = np.full(capacity, np.nan, dtype=np.float32)
        self.held_out = np.zeros(capacity, dtype=bool)
        self.count = 0

    def add(self, observations, masks, policy) -> np.ndarray:
        """Append decisions (growing if need be); their indices."""
        n = len(observations)
        if self.count + n > len(self.rewards):
            grow = max(n, len(self.rewards))
            for name in ("observations", "masks", "policy"):
                old = getattr(self, name)
                setattr(self, name, np.concatenate([old, np.zeros((grow, old.shape[1]), old.dtype)]))
            self.rewards = np.concatenate([self.rewards, np.full(grow, np.nan, dtype=np.float32)])
            self.held_out = np.concatenate([self.held_out, np.zeros(grow, dtype=bool)])
        at = np.arange(self.count, self.count + n)
        self.observations[at], self.masks[at], self.policy[at] = observations, masks, policy
        self.count += n
        return at

    def hold_out(self, every: int) -> np.ndarray:
        """Keep every `every`-th decision out of training; their indices."""
        held = np.arange(0, self.count, every)
        self.held_out[held] = True
        return held

    def for_training(self) -> np.ndarray:
        """The decisions to train on: their reward known, not held out."""
        return np.flatnonzero(np.isfinite(self.rewards[: self.count]) & ~self.held_out[: self.count])


def most_probable(network, observations, masks) -> np.ndarray:
    """The network's most probable legal move for each observation."""
    import torch

    with torch.no_grad():
        logits = network.logits(torch.as_tensor(observations)).numpy()
    return np.where(masks, logits, -np.inf).argmax(axis=1)


def learned_share(before, after, searched) -> float:
    """Of the decisions where the search's move differs from the network's move `before` training,
    the share where the network plays the search's move `after` it (nan if the search changed none)."""
    changed = searched != before
    return float((after[changed] == searched[changed]).mean()) if changed.any() else float("nan")


class Improvement:
    """How far the searches moved the network's policy: the mean KL divergence of the improved
    policy from the network's, and how often their most probable moves differ."""

    def __init__(self):
        self.count, self.kl, self.changed = 0, 0.0, 0

    def add(self, found) -> None:
        p, q = found.policy, found.prior
        self.kl += float(np.where(p > 0, p * (np.log(np.maximum(p, 1e-30)) - np.log(np.maximum(q, 1e-30))), 0).sum())
        self.changed += int((p.argmax(axis=1) != q.argmax(axis=1)).sum())
        self.count += len(p)

    def figures(self) -> dict:
        n = max(self.count, 1)
        return {"search_kl": self.kl / n, "search_changed": self.changed / n}


class Finished:
    """The games a round finished, and the searching seat's mean final reward in those against the heuristic."""

    def __init__(self):
        self.games, self.solo, self.reward = 0, 0, 0.0

    def add(self, solo_reward: float | None) -> None:
        self.games += 1
        if solo_reward is not None:
            self.solo += 1
            self.reward += solo_reward

    def figures(self) -> dict:
        return {"games": self.games, "solo_reward": self.reward / max(self.solo, 1)}


class SelfPlay:
    """The games of the run, kept from round to round, and who plays each seat of each."""

    def __init__(self, config: ExpertConfig, search, seed: int):
        from agents.expert import SearchBatch
        from agents.heuristic import HeuristicAgent
        from tribune_env.envs.vector_games import VectorGames

        self.config, self.search = config, search
        self.rng = np.random.default_rng(seed)
        self.games = VectorGames(config.games, seed=seed, num_players=config.players)
        self.batch = SearchBatch.of_vector(self.games)
        self.heuristic = HeuristicAgent(seed=seed)
        self.solo = np.zeros(config.games, dtype=bool)  # the other seats are the heuristic
        self.searcher = np.zeros(config.games, dtype=np.int64)  # the searching seat of a solo game
        self.waiting: list[list] = [[] for _ in range(config.games)]  # (samples, index, seat) per game
        self.finished = Finished()
        self.searched = Improvement()
        self._new_games(np.arange(config.games))

    def _new_games(self, rows) -> None:
        self.solo[rows] = self.rng.random(len(rows)) < self.config.heuristic_share
        self.searcher[rows] = self.rng.integers(self.config.players, size=len(rows))

    def play(self, samples: Samples, decisions: int, progress=None) -> None:
        """Play on until `decisions` searched decisions are in `samples`."""
        games, start = self.games, samples.count
        while samples.count - start < decisions:
            players, masks = games.players, games.masks
            searching = ~self.solo | (players == self.searcher)
            actions = np.full(games.num_envs, -1, dtype=np.int64)
            others = np.flatnonzero(~searching)
            if others.size:
                actions[others] = self.heuristic.act_rows(*games.handle, others, games.deck_counts)
            rows = np.flatnonzero(searching)
            legal = np.count_nonzero(masks[rows], axis=1)
            forced = rows[legal == 1]
            actions[forced] = masks[forced].argmax(axis=1)
            free = rows[legal > 1]
            if free.size:
                found = self.search.search(self.batch, free, players[free], games.observations[free], self.rng, True)
                actions[free] = found.actions
                self.searched.add(found)
                at = samples.add(games.observations[free], masks[free] > 0, found.policy)
                for row, index, seat in zip(free, at, players[free]):
                    self.waiting[row].append((samples, index, seat))
                if progress is not None:
                    progress(len(free))
            _, _, _, rewards, ended = games.step(actions)
            self._ended(np.flatnonzero(ended), rewards)

    def _ended(self, rows, rewards) -> None:
        for row in rows:
            for samples, index, seat in self.waiting[row]:
                samples.rewards[index] = rewards[row, seat]
            self.waiting[row] = []
            self.finished.add(float(rewards[row, self.searcher[row]]) if self.solo[row] else None)
        if len(rows):
            self._new_games(rows)

    def close(self) -> None:
        self.games.close()


def train_network(network, optimizer, rounds: list[Samples], config: ExpertConfig, rng) -> dict:
    """Fit the network to the improved policies and final rewards of `rounds`; the mean losses."""
    import torch

    parts = [(s, s.for_training()) for s in rounds]
    observations = np.concatenate([s.observations[i] for s, i in parts])
    masks = np.concatenate([s.masks[i] for s, i in parts])
    policy = np.concatenate([s.policy[i] for s, i in parts])
    rewards = np.concatenate([s.rewards[i] for s, i in parts])
    network.modules.train()
    totals = {"policy_loss": 0.0, "value_loss": 0.0}
    steps = 0
    for _ in range(config.epochs):
        order = rng.permutation(len(rewards))
        for start in range(0, len(order), config.batch_size):
            batch = order[start : start + config.batch_size]
            obs = torch.as_tensor(observations[batch])
            mask = torch.as_tensor(masks[batch])
            logits = torch.where(mask, network.logits(obs), -torch.inf)
            log_probs = torch.where(mask, torch.log_softmax(logits, dim=1), 0.0)
            policy_loss = -(torch.as_tensor(policy[batch]) * log_probs).sum(dim=1).mean()
            value_loss = ((network.values(obs) - torch.as_tensor(rewards[batch])) ** 2).mean()
            loss = policy_loss + config.value_weight * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(network.modules.parameters(), 0.5)
            optimizer.step()
            totals["policy_loss"] += policy_loss.item()
            totals["value_loss"] += value_loss.item()
            steps += 1
    network.modules.eval()
    return {name: value / max(steps, 1) for name, value in totals.items()} | {"trained_on": len(rewards)}


def read_settings(path) -> dict:
    """The settings in a recipe (TOML) or a run's config.json; none for no file (the defaults)."""
    if path is None:
        return {}
    from tribune_env import files

    text = files.read_text(path, SETTINGS_BYTES)
    if str(path).endswith(".json"):
        try:
            settings = json.loads(text)
        except ValueError as exc:
            raise ConfigError(f"{path}: not JSON ({exc})") from None
    else:
        import tomllib

        try:
            settings = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not TOML ({exc})") from None
    if not isinstance(settings, dict):
        raise ConfigError(f"{path}: settings must be a table of names and values")
    return settings


def new_network(config: ExpertConfig):
    """The run's starting network: the `start` policy file's, or a new one of `layers`."""
    from agents.policy import Network, load_policy
    from tribune_env import Game

    if config.start:
        network = load_policy(config.start)
    else:
        game = Game(config.players, seed=0, log=False)
        network = Network(list(config.layers), game.obs_layout.size, game.A.size)
    network.players = (config.players,)  # the table size its rounds train it at
    return network


def run(config: ExpertConfig, out, resume: bool = False, echo=print) -> list[dict]:
    """Run (or, with `resume`, go on with) the rounds of `config` in the directory `out`; the rows of ``rounds.csv``."""
    import torch

    from agents.expert import RootSearch

    from ..progress import progress

    out = Path(out)
    network = new_network(config)
    optimizer = torch.optim.Adam(network.modules.parameters(), lr=config.learning_rate)
    done, rows = 0, []
    if resume:
        saved = ExpertConfig.from_dict(read_settings(out / CONFIG))
        if asdict(saved) | {"rounds": config.rounds} != asdict(config):
            raise ConfigError(f"{out} was run with other settings: resume it with its own config.json")
        done = restore(out / CHECKPOINT, network, optimizer)
        rows = read_csv(out / ROUNDS)
    else:
        out.mkdir(parents=True, exist_ok=True)
        (out / ROUNDS).unlink(missing_ok=True)
    (out / CONFIG).write_text(json.dumps(asdict(config), indent=1) + "\n")
    network.modules.eval()
    search = RootSearch(network, config.candidates, config.worlds)
    play = SelfPlay(config, search, seed=config.seed + 7919 * done)
    rng = np.random.default_rng([config.seed, done])
    history: list[Samples] = []
    started = time.perf_counter()
    try:
        for number in range(done + 1, config.rounds + 1):
            samples = Samples(config.decisions, play.games.obs_layout.size, play.games.action_size)
            with progress(total=config.decisions, desc=f"round {number}/{config.rounds}", unit="decision") as bar:
                play.play(samples, config.decisions, bar.update)
            searched, play.searched = play.searched.figures() | play.finished.figures(), Improvement()
            play.finished = Finished()
            history = (history + [samples])[-config.replay :]
            held = samples.hold_out(HELD_OUT)
            test = samples.observations[held], samples.masks[held]
            before, searched_moves = most_probable(network, *test), samples.policy[held].argmax(axis=1)
            losses = train_network(network, optimizer, history, config, rng)
            learned = learned_share(before, most_probable(network, *test), searched_moves)
            network.save(out / POLICY)
            torch.save(
                {"network": network.modules.state_dict(), "optimizer": optimizer.state_dict(), "round": number},
                out / CHECKPOINT,
            )
            row = {"round": number, "decisions": number * config.decisions,
                   "minutes": round((time.perf_counter() - started) / 60, 2), **searched, **losses, "search_learned": learned,
                   **evaluate(out / POLICY, config, number)}  # fmt: skip
            rows.append(row)
            append_csv(out / ROUNDS, row)
            curve(rows, config, out / CURVE)
            echo(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()))
    finally:
        play.close()
        search.close()
    return rows


def restore(path: Path, network, optimizer) -> int:
    """Load a run's checkpoint (tensors only: nothing in it runs) into the network and the
    optimiser; the round it was taken after. ConfigError for a file that is not such a checkpoint."""
    import torch

    from agents.weights import check_file

    check_file(path, "expert checkpoint")
    try:
        state = torch.load(path, weights_only=True, map_location="cpu")
        network.modules.load_state_dict(state["network"])
        optimizer.load_state_dict(state["optimizer"])
        done = state["round"]
    except Exception as exc:  # not a checkpoint of this run's network: say so, whatever torch raised
        raise ConfigError(f"{path} is not a checkpoint of this run: {brief(str(exc))}") from None
    if type(done) is not int or done < 0:
        raise ConfigError(f"{path}: its round {brief(done)} is not a count")
    return done


def evaluate(policy: Path, config: ExpertConfig, number: int) -> dict:
    """The raw network's (and with ``search_games`` the search's) win rate against the heuristic."""
    from .baselines import evaluate_agent

    found = {}
    for name, spec, games in (
        ("network", f"policy:{policy}", config.eval_games),
        ("search", f"expert:net={policy},candidates={config.candidates},worlds={config.worlds}", config.search_games),
    ):
        if games:
            (row,) = evaluate_agent(spec, ["heuristic"], config.players, games, seed=config.seed + 1)
            found |= {
                f"{name}_win_rate": row["win_rate"],
                f"{name}_low": row["win_ci"][0],
                f"{name}_high": row["win_ci"][1],
            }
    return found


def curve(rows: list[dict], config: ExpertConfig, path: Path) -> None:
    """The win rates against the heuristic by round, with their 95% intervals and the even share."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.subplots()
    decisions = [r["decisions"] for r in rows]
    for name in ("network", "search"):
        if f"{name}_win_rate" in rows[0]:
            ax.plot(decisions, [r[f"{name}_win_rate"] for r in rows], marker="o", label=f"{name} vs heuristic")
            ax.fill_between(decisions, [r[f"{name}_low"] for r in rows], [r[f"{name}_high"] for r in rows], alpha=0.2)
    ax.axhline(1 / config.players, color="grey", linestyle="--", label="even share")
    ax.set(title=f"Expert iteration, {config.players} players: win rate against the heuristic (95% interval)",
           xlabel="searched decisions", ylabel="wins per game", ylim=(0, 1))  # fmt: skip
    ax.legend(loc="best", fontsize="small")
    fig.savefig(path, dpi=120)

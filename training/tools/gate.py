"""``tribune gate``: the invariant gate, a million games with every state checked.

Each game's configuration follows from its seed alone (:func:`config_of`): 2 to 5
players, a victory card that fits them or the point variant, a share of short round limits
(1 to 6 rounds, so that games are truncated), a share without automatic forced decisions,
and random or heuristic players. Python deals the games (``Game(seed=...)``) into the
rows of a batch; the compiled loop (:mod:`training.tools.gate_play`) plays each to its
end, checking :mod:`tribune_env.invariants` after every step, without the GIL, so the
threads play side by side and hold the GIL only to deal. A violation names the seed, the configuration
and the invariant; :func:`replay` plays that game again in Python.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from tribune_env import DEFAULT_DATA, VICTORY_CARDS, Game
from tribune_env._compiler import native
from tribune_env.invariants import Invariant
from tribune_env.state import Meta

from .gate_play import HEURISTIC, MAX_DECISIONS, RANDOM, play_batch

AGENTS = {"random": RANDOM, "heuristic": HEURISTIC}
POINT_VARIANT = "point-variant"
SHORT_LIMITS = (1, 6)  # round limits of the short games: truncation comes early
BATCH = 128  # games a thread deals, then plays in one compiled call
SHOWN = 10  # violations listed in the report


@dataclass(frozen=True)
class Shares:
    """Which part of the games is played by the heuristic, with a short round limit, without automatic forced decisions."""

    heuristic: float = 0.1
    short: float = 0.1
    unforced: float = 0.05


@dataclass(frozen=True)
class Config:
    """One game's configuration, as :func:`config_of` draws it from the game's seed."""

    players: int
    victory_card: str  # an id of VICTORY_CARDS, or POINT_VARIANT
    round_limit: int
    agent: str  # a key of AGENTS
    auto_forced: bool

    def game(self, seed: int) -> Game:
        """The game of `seed` in this configuration, dealt (no log: the gate reads only its state)."""
        variant = self.victory_card == POINT_VARIANT
        card = None if variant else self.victory_card
        return Game(
            self.players,
            card,
            point_variant=variant,
            seed=seed,
            round_limit=self.round_limit,
            auto_forced=self.auto_forced,
            log=False,
        )

    def __str__(self) -> str:
        return (
            f"{self.players} players, {self.victory_card}, round limit {self.round_limit}, "
            f"{self.agent}{'' if self.auto_forced else ', auto_forced=False'}"
        )


def variants(players: int) -> list[str]:
    """The victory cards for this many players, and the point variant."""
    return sorted(card for card, c in VICTORY_CARDS.items() if players in c.need) + [POINT_VARIANT]


def config_of(seed: int, shares: Shares = Shares()) -> Config:
    """The configuration of the game of this seed: a function of the seed and the shares alone."""
    draw = random.Random(seed)
    players = draw.randint(2, 5)
    card = draw.choice(variants(players))
    short = draw.random() < shares.short
    limit = draw.randint(*SHORT_LIMITS) if short else DEFAULT_DATA.round_limit
    agent = "heuristic" if draw.random() < shares.heuristic else "random"
    return Config(players, card, limit, agent, auto_forced=draw.random() >= shares.unforced)


ENDS = ("running", "terminated", "truncated")  # by Status


@dataclass
class Played:
    """One batch: each game's seed, configuration, (invariant broken or 0, decisions) and Status at the end."""

    seeds: range
    configs: list
    results: np.ndarray
    ends: np.ndarray


@dataclass
class Tally:
    """What a run of the gate played and found."""

    first_seed: int
    shares: Shares
    workers: int
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    processor_seconds: float = 0.0
    by: dict = field(default_factory=lambda: {key: Counter() for key in ("players", "victory card", "agent", "end")})
    broken: int = 0
    violations: list = field(default_factory=list)  # the first SHOWN: (seed, config, invariant, decisions)

    def add(self, played: Played) -> None:
        self.games += len(played.configs)
        self.decisions += int(played.results[:, 1].sum())
        for config, end in zip(played.configs, played.ends):
            for key, value in zip(self.by, (config.players, config.victory_card, config.agent, ENDS[end])):
                self.by[key][value] += 1
        for seed, config, (broken, decisions) in zip(played.seeds, played.configs, played.results):
            if broken:
                self.broken += 1
                if len(self.violations) < SHOWN:
                    self.violations.append((int(seed), config, Invariant(int(broken)), int(decisions)))


def play(seeds: range, shares: Shares, moves: np.ndarray | None = None) -> Played:
    """Deal the games of `seeds` into one batch and play them to their end (`moves`: the last game's, written).

    A batch in which the engine raises is played again game by game, so that only the games
    that raise are marked, with ``Invariant.NO_ERROR``.
    """
    configs = [config_of(seed, shares) for seed in seeds]
    games = [config.game(seed) for seed, config in zip(seeds, configs)]
    rows = [np.stack(arrays) for arrays in zip(*(g.handle for g in games))]  # buffers, parameters, masks
    agents = np.array([AGENTS[c.agent] for c in configs], dtype=np.int64)
    results = np.zeros((len(games), 2), dtype=np.int64)
    moves = np.zeros(0, dtype=np.int64) if moves is None else moves
    try:
        play_batch(*rows, games[0].deck_counts, agents, np.array(seeds, dtype=np.int64), moves, results)
    except Exception:
        if len(games) == 1:
            results[0] = Invariant.NO_ERROR, 0
        else:
            return _one_by_one(seeds, shares)
    status = games[0].state.layout.offsets["meta"][0] + Meta.STATUS
    return Played(seeds, configs, results, rows[0][:, status])


def _one_by_one(seeds: range, shares: Shares) -> Played:
    """The games of `seeds` played one batch of one each."""
    alone = [play(range(seed, seed + 1), shares) for seed in seeds]
    return Played(
        seeds, [p.configs[0] for p in alone], *(np.concatenate(x) for x in zip(*((p.results, p.ends) for p in alone)))
    )


def run(games: int, first_seed: int = 0, shares: Shares = Shares(), workers: int = 2, progress: bool = True) -> Tally:
    """Play `games` games of seeds from `first_seed` on, in `workers` threads; what they found."""
    from ..progress import progress as bar_of

    native.ready()
    play(range(first_seed, first_seed + 1), shares)  # compile (or load) before the clock starts
    end = first_seed + games
    batches = [range(start, min(start + BATCH, end)) for start in range(first_seed, end, BATCH)]
    tally = Tally(first_seed, shares, workers)
    clock, processor = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(workers) as pool, bar_of(total=games, unit="game", show=progress) as bar:
        for played in pool.map(lambda seeds: play(seeds, shares), batches):
            tally.add(played)
            bar.update(len(played.seeds))
            bar.set_postfix_str(f"violations {tally.broken}", refresh=False)
    tally.seconds, tally.processor_seconds = time.perf_counter() - clock, time.process_time() - processor
    return tally


def report(tally: Tally) -> str:
    """The summary: what was played, how fast, and every invariant broken, the first games named."""
    last = tally.first_seed + tally.games - 1
    lines = [
        f"invariant gate: {tally.games:,} games (seeds {tally.first_seed:,}-{last:,}), {tally.decisions:,} decisions",
        f"  {tally.seconds / 60:.1f} min with {tally.workers} threads: {tally.games / tally.seconds:,.0f} games and "
        f"{tally.decisions / tally.seconds:,.0f} decisions a second; {tally.processor_seconds / 60:.1f} min of "
        f"processor time, {tally.games / tally.processor_seconds:,.0f} games a processor-second",
    ]
    for key, counts in tally.by.items():
        lines.append(f"  by {key}: " + ", ".join(f"{value} {n:,}" for value, n in sorted(counts.items(), key=str)))
    lines.append(f"violations: {tally.broken}")
    for seed, config, invariant, decisions in tally.violations:
        lines.append(f"  seed {seed} ({config}), after {decisions} decisions: {invariant}")
    if tally.violations:
        lines.append(f"  to replay one: training.tools.gate.replay(SEED, {tally.shares})")
    return "\n".join(lines)


def replay(seed: int, shares: Shares = Shares()) -> tuple[Game, Invariant | None]:
    """The gate's game of `seed` played again by ``Game.step`` up to where the gate stopped it, and the invariant broken.

    The game holds its moves, so ``game.to_json()`` saves it; where the engine raised, the
    same error is raised here.
    """
    moves = np.full(MAX_DECISIONS, -1, dtype=np.int64)
    played = play(range(seed, seed + 1), shares, moves)
    game = played.configs[0].game(seed)
    for action in moves[moves >= 0]:  # the moves played, in order
        game.step(int(action))
    broken = int(played.results[0, 0])
    return game, Invariant(broken) if broken else None

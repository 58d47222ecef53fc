"""Throughput of the environments, side by side with PettingZoo's own classic games.

Every environment is played the same way: uniformly random legal actions, observation and
mask read at each decision. The AEC environments go through PettingZoo's standard loop
(``agent_iter``, ``last``, ``step``); the vector rows step N Tribune games at once. Runs
are interleaved and repeated, and the median is reported, since a busy machine slows
whichever runs at that moment. Needs the ``bench`` extra (``pettingzoo[classic]``).
"""

from __future__ import annotations

import importlib
import statistics
import time
from dataclasses import dataclass

import numpy as np

from tribune_env.envs import VectorGames
from tribune_env.player import random_action, random_legal

LARGE = 1024  # the large batch of the throughput target


@dataclass
class Result:
    name: str
    rates: list  # decisions per second, one per repeat
    note: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.rates)


def aec_runner(make):
    """Random play through the AEC loop for about `seconds`; returns (decisions, elapsed)."""

    def run(seconds: float, rng: np.random.Generator):
        env = make()
        decisions, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            env.reset(seed=int(rng.integers(2**31)))
            for _agent in env.agent_iter():
                observation, _, termination, truncation, _ = env.last()
                action = None
                if not (termination or truncation):
                    action = random_action(observation["action_mask"], rng)
                    decisions += 1
                env.step(action)
        return decisions, time.perf_counter() - start

    return run


def one_game_runner(num_players: int):
    """One game at a time through the engine: ``Game.step`` and ``Game.observe`` at every decision."""
    from tribune_env import Game

    def run(seconds: float, rng: np.random.Generator):
        decisions, start = 0, time.perf_counter()
        out, draws = None, rng.random(1 << 16)  # drawn ahead: the move's choice is not the engine's work
        while time.perf_counter() - start < seconds:
            game = Game(num_players, seed=int(rng.integers(2**31)), log=False)
            while not game.is_over:
                out = game.observe(game.current_player, out)
                legal = np.flatnonzero(game.legal_mask())
                game.step(int(legal[int(draws[decisions & 0xFFFF] * len(legal))]))
                decisions += 1
        return decisions, time.perf_counter() - start

    return run


def vector_games_runner(num_envs: int, num_players: int):
    """Every seat of N games through VectorGames (threads: one per core): batched observations, masks and steps."""

    def run(seconds: float, rng: np.random.Generator):
        games = VectorGames(num_envs, seed=int(rng.integers(2**31)), num_players=num_players)
        masks, start = games.masks, time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, masks, _, _, _ = games.step(random_legal(masks, rng))
        return games.decisions, time.perf_counter() - start

    return run


def vector_env_runner(num_envs: int, num_players: int):
    """VectorEnv: a random learner per game against random opponents; counts every decision."""
    from tribune_env.envs.vector import VectorEnv

    def run(seconds: float, rng: np.random.Generator):
        env = VectorEnv(num_envs, num_players, seed=int(rng.integers(2**31)))
        env.reset()
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            env.step(random_legal(env.games.masks, rng))
        return env.games.decisions, time.perf_counter() - start

    return run


def heuristic_runner(num_envs: int, num_players: int):
    """VectorEnv against the heuristic in every other seat: counts the learner's decisions only."""
    from agents import make_agent
    from tribune_env.envs.vector import VectorEnv

    def run(seconds: float, rng: np.random.Generator):
        env = VectorEnv(num_envs, num_players, opponents=make_agent("heuristic", seed=0), seed=int(rng.integers(2**31)))
        env.reset()
        decisions, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            env.step(random_legal(env.games.masks, rng))
            decisions += num_envs
        return decisions, time.perf_counter() - start

    return run


def classic(name: str):
    """A maker of PettingZoo's classic environment `name`, from its registry where it has one."""
    try:
        from pettingzoo import make  # PettingZoo 1.27 and later

        maker = lambda: make("aec", f"classic/{name}")  # noqa: E731
    except ImportError:
        maker = importlib.import_module(f"pettingzoo.classic.{name}").env
    try:
        maker().close()
    except Exception as exc:  # the registry wraps missing packages
        raise ImportError(f"PettingZoo's {name} cannot be made: {exc}") from exc
    return maker


def runners(num_players: int, num_envs: int) -> dict:
    from tribune_env.envs import env

    return {
        "connect_four_v3 (AEC)": aec_runner(classic("connect_four_v3")),
        "texas_holdem_v4 (AEC)": aec_runner(classic("texas_holdem_v4")),
        f"tribune AEC, {num_players} players": aec_runner(lambda: env(num_players=num_players)),
        f"tribune one game, {num_players} players": one_game_runner(num_players),
        f"tribune VectorGames, N={num_envs}": vector_games_runner(num_envs, num_players),
        f"tribune VectorGames, N={LARGE}": vector_games_runner(LARGE, num_players),
        f"tribune VectorEnv, N={num_envs}": vector_env_runner(num_envs, num_players),
        f"tribune VectorEnv against the heuristic, N={num_envs} (learner)": heuristic_runner(num_envs, num_players),
    }


def run(
    seconds: float = 3.0,
    repeats: int = 3,
    num_players: int = 4,
    num_envs: int = 64,
    seed: int = 0,
    progress: bool = True,
) -> list[Result]:
    """Interleaved repeats of every environment; one Result per environment."""
    from ..progress import progress as bar_of

    rng = np.random.default_rng(seed)
    table = runners(num_players, num_envs)
    for runner in table.values():  # load (or compile) everything before timing
        runner(0.0, rng)
    rates = {name: [] for name in table}
    with bar_of(total=repeats * len(table), desc="bench", unit="run", show=progress) as bar:
        for _ in range(repeats):
            for name, runner in table.items():
                bar.set_postfix_str(name)
                decisions, elapsed = runner(seconds, rng)
                rates[name].append(decisions / elapsed)
                bar.update()
    return [Result(name, r) for name, r in rates.items()]


def report(results: list[Result], num_players: int, num_envs: int) -> str:
    """A Markdown table, then the two targets of the project with their verdicts."""
    by_name = {r.name: r.median for r in results}
    c4 = by_name["connect_four_v3 (AEC)"]
    aec = by_name[f"tribune AEC, {num_players} players"]
    vec = by_name[f"tribune VectorGames, N={num_envs}"]
    lines = ["| environment | decisions/s (median) | range | vs connect_four_v3 |", "|---|---:|---:|---:|"]
    for r in results:
        lines.append(f"| {r.name} | {r.median:,.0f} | {min(r.rates):,.0f}-{max(r.rates):,.0f} | {r.median / c4:.1f}x |")
    lines += [
        "",
        verdict("tribune AEC / connect_four_v3", aec / c4, 2, "x"),
        verdict(f"tribune VectorGames N={num_envs} / tribune AEC", vec / aec, 2, "x"),
        verdict(f"tribune VectorGames N={LARGE}", by_name[f"tribune VectorGames, N={LARGE}"], 1_000_000),
        verdict("tribune one game", by_name[f"tribune one game, {num_players} players"], 300_000),
        verdict(
            "tribune VectorEnv against the heuristic (learner)",
            by_name[f"tribune VectorEnv against the heuristic, N={num_envs} (learner)"],
            50_000,
        ),
    ]
    return "\n".join(lines)


def verdict(name: str, figure: float, target: float, unit: str = " decisions/s") -> str:
    shown = f"{figure:.2f}{unit}" if unit == "x" else f"{figure:,.0f}{unit}"
    wanted = f"{target}{unit}" if unit == "x" else f"{target:,}"
    return f"{name}: {shown} (target {wanted}: {'met' if figure >= target else 'MISSED'})"


def plot(results: list[Result], path) -> None:
    """A bar chart of the medians, with the range of the repeats as whiskers."""
    from matplotlib.figure import Figure

    medians = [r.median for r in results]
    spread = [
        [m - min(r.rates) for m, r in zip(medians, results)],
        [max(r.rates) - m for m, r in zip(medians, results)],
    ]
    fig = Figure(figsize=(8, 4), layout="constrained")
    ax = fig.subplots()
    ax.barh([r.name for r in results], medians, xerr=spread, capsize=4, color="tab:blue")
    ax.invert_yaxis()
    ax.set(
        xlabel="decisions per second (median, whiskers: range of repeats)", title="Random play through each environment"
    )
    fig.savefig(path, dpi=120)

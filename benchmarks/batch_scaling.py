"""How VectorGames scales with the number of games and threads, where a decision's time goes, and memory per game.

Random legal play (4 players by default), every seat through the batch: decisions a second
of wall time and per CPU-second, for each number of games and thread count, in alternation
(the median of `--repeats`); then the parts of one decision timed in compiled loops over a
batch (step, observation, new deal), and the bytes each game of a batch holds.

    python benchmarks/batch_scaling.py --seconds 2 --repeats 3
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc

import numpy as np

from tribune_env._compiler import native
from tribune_env.core.batched import observe_batch, pick_legal
from tribune_env.envs import VectorGames

GAMES = (1, 8, 64, 256, 1024)
THREADS = (1, 2)


def rate(num_envs: int, threads: int, players: int, seconds: float, seed: int) -> tuple[float, float]:
    """(decisions per second of wall time, decisions per CPU-second) of random play for `seconds`."""
    games = VectorGames(num_envs, seed=seed, threads=threads, num_players=players)
    rng, actions = np.random.default_rng(seed), np.zeros(num_envs, dtype=np.int64)
    wall, cpu, start = time.perf_counter(), time.process_time(), games.decisions
    while time.perf_counter() - wall < seconds:
        pick_legal(games.masks, rng.random(num_envs), actions)
        games.step(actions)
    decisions = games.decisions - start
    return decisions / (time.perf_counter() - wall), decisions / (time.process_time() - cpu)


def parts(players: int, num_envs: int = 512, rounds: int = 200) -> dict:
    """ns per decision of each part, on one thread, over a batch played some way into its games."""
    games = VectorGames(num_envs, seed=1, threads=1, num_players=players)
    rng, actions = np.random.default_rng(1), np.zeros(num_envs, dtype=np.int64)
    for _ in range(100):
        pick_legal(games.masks, rng.random(num_envs), actions)
        games.step(actions)
    native.ready()
    timed = {"choose a random legal action": 0.0, "step (rules, legal mask)": 0.0, "observation": 0.0}
    nobody = np.zeros_like(games._all_read)
    for _ in range(rounds):
        u = rng.random(num_envs)
        start = time.process_time()
        pick_legal(games.masks, u, actions)
        timed["choose a random legal action"] += time.process_time() - start
        start = time.process_time()
        games._each_slice(actions, nobody)
        timed["step (rules, legal mask)"] += time.process_time() - start
        observers = np.where(games.players >= 0, games.players, -1)
        start = time.process_time()
        observe_batch(games._buffers, games._params, games._offsets, observers, games.observations)
        timed["observation"] += time.process_time() - start
        games.step(np.full(num_envs, -1))  # deals the games that ended
    start = time.process_time()
    for _ in range(20):
        games._deal(np.arange(num_envs))
    out = {name: seconds / (rounds * num_envs) * 1e9 for name, seconds in timed.items()}
    out["new deal (per game)"] = (time.process_time() - start) / 20 / num_envs * 1e9
    return out


def memory_per_game(num_envs: int, players: int) -> float:
    """Bytes a batch of `num_envs` holds per game (every allocation its making traces)."""
    tracemalloc.start()
    games = VectorGames(num_envs, seed=0, num_players=players)
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del games
    return size / num_envs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rate(8, 1, args.players, 0.1, 0)  # compile or load before timing
    results = {(n, t): [] for n in GAMES for t in THREADS if t <= n}
    for r in range(args.repeats):
        for n, t in results:
            results[n, t].append(rate(n, t, args.players, args.seconds, seed=r))
    print("| games | threads | decisions/s | per CPU-second |\n|---:|---:|---:|---:|")
    for (n, t), runs in results.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"| {n:,} | {t} | {wall:,.0f} | {cpu:,.0f} |")
    print("\n| part of a decision (one thread) | ns |\n|---|---:|")
    for name, ns in parts(args.players).items():
        print(f"| {name} | {ns:,.0f} |")
    print("\n| games in the batch | bytes per game |\n|---:|---:|")
    for n in (64, 1024):
        print(f"| {n:,} | {memory_per_game(n, args.players):,.0f} |")


if __name__ == "__main__":
    main()

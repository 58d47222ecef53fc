"""Decisions per second of random play through the engine alone.

Each decision: read the legal mask, build the acting player's observation, pick a
uniformly random legal action, apply it. Forced decisions (one legal action) are
resolved inside the engine and not counted. Runs on one core. One game is played
first to load (or, on a fresh install, compile) the engine; its time is reported apart.

    python benchmarks/engine_speed.py [--games 40] [--players 2 3 4 5] [--seed 0]

``TRIBUNE_NUMBA_INTERNALS=0`` times the engine compiled with numba's public API alone,
``NUMBA_DISABLE_JIT=1`` the rules run as Python.
"""

import argparse
import random
import time

from tribune_env import Game


def run(games: int, players, seed: int) -> tuple[int, float, int]:
    choose = random.Random(seed).randrange  # the random player's own seeded choice
    obs = None
    decisions = rounds = 0
    start = time.perf_counter()
    for i in range(games):
        g = Game(players[i % len(players)], seed=seed + i, log=False)
        while not g.is_over:
            legal = g.legal_mask().nonzero()[0]
            obs = g.observe(g.current_player, obs)
            g.step(int(legal[choose(len(legal))]))
            decisions += 1
        rounds += g.round
    return decisions, time.perf_counter() - start, rounds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    run(1, args.players, args.seed + 10**6)
    print(f"start-up (loading or compiling the engine, one game): {time.perf_counter() - start:.1f} s")
    decisions, seconds, rounds = run(args.games, args.players, args.seed)
    print(
        f"{args.games} games ({'/'.join(map(str, args.players))} players), {rounds} rounds, "
        f"{decisions} decisions in {seconds:.2f} s: {decisions / seconds:,.0f} decisions/s"
    )


if __name__ == "__main__":
    main()

"""Time Game.determinize: microseconds per sampled world, over decisions of random games of 2 to 5 players.

Each decision kept (one in ten) is sampled for its player to act, `--samples` times.

    python benchmarks/determinize_speed.py [--games 12] [--samples 5]
"""

import argparse
import time

import numpy as np

from tribune_env import Game


def states(games: int) -> list:
    kept = []
    for seed in range(games):
        game = Game(2 + seed % 4, seed=seed, log=False)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            if rng.random() < 0.1:
                kept.append(game.clone())
            legal = game.legal_actions()
            game.step(int(legal[rng.integers(len(legal))]))
    return kept


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--samples", type=int, default=5)
    args = parser.parse_args()
    kept, rng = states(args.games), np.random.default_rng(0)
    for game in kept[:50]:  # compiled code loaded, caches warm
        game.determinize(game.current_player, rng)
    start = time.perf_counter()
    for game in kept:
        for _ in range(args.samples):
            game.determinize(game.current_player, rng)
    count = len(kept) * args.samples
    print(f"{count} determinisations, {1e6 * (time.perf_counter() - start) / count:.1f} us each")


if __name__ == "__main__":
    main()

"""Time a determinisation: microseconds per sampled world, over decisions of random games of 2 to 5 players.

Each decision kept (one in ten) is sampled for its player to act, `--samples` times: as a
``Game`` (``Game.determinize``: a clone with its log, re-dealt in compiled code) and in
place into a row of an array (``worlds.determinize``, a search's primitive: no Python
object per world).

    python benchmarks/determinize_speed.py [--games 12] [--samples 5]
"""

import argparse
import time

import numpy as np

from tribune_env import Game
from tribune_env.core import worlds
from tribune_env.determinize import sampler_words


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


def as_games(kept: list, samples: int, rng) -> float:
    """Microseconds per ``Game.determinize``."""
    start = time.perf_counter()
    for game in kept:
        for _ in range(samples):
            game.determinize(game.current_player, rng)
    return 1e6 * (time.perf_counter() - start) / (len(kept) * samples)


def in_rows(kept: list, samples: int, rng) -> float:
    """Microseconds per world re-dealt in place into a row (the copy into the row included)."""
    rows = np.empty((samples, kept[0].handle.buffer.size), dtype=np.int32)
    masks = np.empty((samples, kept[0].handle.mask.size), dtype=np.int8)
    start = time.perf_counter()
    for game in kept:
        buffer, params, _ = game.handle
        words, player = sampler_words(rng, 1)[0], game.current_player
        for row, mask in zip(rows, masks):
            row[:] = buffer
            worlds.determinize(row, params, player, words, mask)
    return 1e6 * (time.perf_counter() - start) / (len(kept) * samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--samples", type=int, default=5)
    args = parser.parse_args()
    kept, rng = states(args.games), np.random.default_rng(0)
    as_games(kept[:50], 1, rng)  # compiled code loaded, caches warm
    count = len(kept) * args.samples
    print(f"{count} determinisations: {as_games(kept, args.samples, rng):.1f} us each as a Game, "
          f"{in_rows(kept, args.samples, rng):.1f} us in place into a row")  # fmt: skip


if __name__ == "__main__":
    main()

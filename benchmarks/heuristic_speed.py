"""Time the heuristic's decisions: one game at a time (``act``) against a batch of games in one call (``act_rows``).

The positions are decisions of random games (2 to 5 players) that offer a choice; they are
stacked as the rows of a batch, as the vector games keep their games, and decided in
batches of `--batch` rows. Both make the same moves (``tests/test_heuristic.py``): ``act``
decides in a world sampled for the seat, a batch samples one only for a lookahead (its rules
of thumb read only what the seat knows); ``act`` is also given the observation, made beforehand.

    python benchmarks/heuristic_speed.py [--games 40] [--batch 64] [--repeats 3]
"""

import argparse
import time

import numpy as np

from agents.heuristic import HeuristicAgent
from tribune_env import Game, PlayerView


def positions(games: int) -> list:
    kept = []
    for seed in range(games):
        game = Game(2 + seed % 4, seed=seed, log=False)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            legal = game.legal_actions()
            if len(legal) > 1 and rng.random() < 0.2:
                kept.append(game.clone())
            game.step(int(legal[rng.integers(len(legal))]))
    return kept


def one_at_a_time(kept: list) -> float:
    """Microseconds per decision through ``act``."""
    agent = HeuristicAgent(seed=0)
    asked = [(g.observe(g.current_player), g.legal_mask(), PlayerView(g, g.current_player)) for g in kept]
    start = time.perf_counter()
    for observation, mask, view in asked:
        agent.act(observation, mask, view)
    return 1e6 * (time.perf_counter() - start) / len(kept)


def batched(kept: list, batch: int) -> float:
    """Microseconds per decision through ``act_rows``, `batch` rows a call."""
    agent = HeuristicAgent(seed=0)
    buffers, params, masks = (np.stack([g.handle[i] for g in kept]) for i in range(3))
    deck_counts = kept[0].deck_counts
    start = time.perf_counter()
    for first in range(0, len(kept), batch):
        agent.act_rows(buffers, params, masks, np.arange(first, min(first + batch, len(kept))), deck_counts)
    return 1e6 * (time.perf_counter() - start) / len(kept)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    kept = positions(args.games)
    batched(kept[:8], 8)  # compiled code loaded, caches warm
    for _ in range(args.repeats):
        single, many = one_at_a_time(kept), batched(kept, args.batch)
        print(f"{len(kept)} decisions: {single:.1f} us each one at a time, {many:.1f} us in batches of {args.batch}")


if __name__ == "__main__":
    main()

"""A full demo game: seeded random players, the readable log, the final table.

    python -m tribune_env.demo [--players 4] [--seed 0] [--quiet]
"""
from __future__ import annotations

import argparse

import numpy as np

from . import Game
from .policy import random_action


def play(players: int, seed: int) -> Game:
    """One game to the end, every player choosing uniformly among its legal actions."""
    game = Game(players, seed=seed)
    rng = np.random.default_rng(seed)
    while not game.is_over:
        game.step(random_action(game.legal_mask(), rng))
    return game


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Play one seeded demo game of Tribune with random players.")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 6))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="print only the final table")
    args = parser.parse_args(argv)
    show(args.players, args.seed, args.quiet)


def show(players: int, seed: int, quiet: bool) -> None:
    print("Loading the engine (the first run on a machine compiles it: a few minutes)...", flush=True)
    game = play(players, seed)
    if not quiet:
        print("\n".join(game.log))
    print()
    print(game.render())


if __name__ == "__main__":
    main()

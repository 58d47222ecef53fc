"""``tribune demo``: one seeded game with random players, its readable log and the final table.

It needs only the engine, so a fresh install can show a game before any extra is added.
"""

from __future__ import annotations

import numpy as np

from tribune_env import Game
from tribune_env.player import random_action


def random_game(players: int, seed: int) -> Game:
    """One game to the end, every player choosing uniformly among its legal actions."""
    game = Game(players, seed=seed)
    rng = np.random.default_rng(seed)
    while not game.is_over:
        game.step(random_action(game.legal_mask(), rng))
    return game


def show(players: int, seed: int, quiet: bool) -> None:
    print("Loading the engine (the first run on a machine compiles it: a few minutes)...", flush=True)
    game = random_game(players, seed)
    if not quiet:
        print("\n".join(game.log))
    print()
    print(game.render())

"""Time Game.from_json on the longest kinds of saved game, with and without the log.

A saved game is its moves, so loading time grows with them: the longest are 5-player games
played to the round limit (50 rounds) with the forced moves saved too (auto_forced off).
Two of them: the longest of `--games` random games, and a game whose players always take
the first legal action, which never ends it before the limit.
Prints the median of `--repeat` loads of each.

    python benchmarks/load_speed.py [--games 20] [--repeat 20]
"""

import argparse
import statistics
import time

import numpy as np

from tribune_env import Game


def random_game(seed: int) -> Game:
    game, rng = Game(5, seed=seed, auto_forced=False, log=False), np.random.default_rng(seed)
    while not game.is_over:
        legal = game.legal_actions()
        game.step(int(legal[rng.integers(len(legal))]))
    return game


def truncated_game(seed: int) -> Game:
    game = Game(5, seed=seed, auto_forced=False, log=False)
    while not game.is_over:
        game.step(int(game.legal_actions()[0]))
    assert game.truncated
    return game


def median_load(text: str, repeat: int, log: bool) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        Game.from_json(text, log=log)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    longest = max((random_game(seed) for seed in range(args.games)), key=lambda g: len(g.moves()))
    print("| saved game | moves | text | load | load with the log |")
    print("|---|---|---|---|---|")
    for name, game in (
        (f"5 players, random play, the longest of {args.games}", longest),
        ("5 players, truncated at round 50", truncated_game(0)),
    ):
        text = game.to_json()
        Game.from_json(text)  # compiled code loaded, the log's code warm
        quiet, logged = (median_load(text, args.repeat, log) for log in (False, True))
        print(
            f"| {name} (round {game.round}) | {len(game.moves()):,} | {len(text) / 1024:.0f} KiB "
            f"| {quiet * 1000:.1f} ms | {logged * 1000:.1f} ms |"
        )


if __name__ == "__main__":
    main()

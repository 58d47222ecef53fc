"""Time the search of expert iteration in self-play: searched decisions and leaves a second.

Self-play as ``tribune expert`` plays it (`--games` games at once, every seat the search
guided by the shipped network of its size, a quarter of the games against the heuristic),
with the search's worlds and rollouts on one thread and on two. A leaf is one candidate move
played in one world and rolled out to the end of the round.

    python benchmarks/expert_speed.py [--players 2 4] [--games 256] [--decisions 4096]
"""

import argparse
import time

from agents.expert import RootSearch
from agents.policy import load_policy
from agents.trained import POLICIES
from training.learning.expert import ExpertConfig, Samples, SelfPlay


def searched_per_second(players: int, games: int, decisions: int, threads: int) -> tuple[float, float]:
    """Searched decisions and leaves a second."""
    config = ExpertConfig(players=players, games=games)
    search = RootSearch(load_policy(POLICIES[players]), config.candidates, config.worlds, threads=threads)
    play = SelfPlay(config, search, seed=0)
    samples = Samples(decisions, play.games.obs_layout.size, play.games.action_size)
    play.play(samples, min(256, decisions))  # compiled and warm
    start, before, leaves = time.perf_counter(), samples.count, search.leaves
    play.play(samples, decisions)
    seconds = time.perf_counter() - start
    play.close()
    search.close()
    return (samples.count - before) / seconds, (search.leaves - leaves) / seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--games", type=int, default=256)
    parser.add_argument("--decisions", type=int, default=4096)
    args = parser.parse_args()
    print(f"{'players':>7} {'threads':>7} {'searched/s':>11} {'leaves/s':>9}")
    for players in args.players:
        for threads in (1, 2):
            rate, leaves = searched_per_second(players, args.games, args.decisions, threads)
            print(f"{players:>7} {threads:>7} {rate:>11,.0f} {leaves:>9,.0f}")


if __name__ == "__main__":
    main()

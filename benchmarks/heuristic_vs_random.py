"""Win rate of HeuristicAgent against RandomAgents, and its time per decision.

One heuristic player and n-1 random players; the heuristic takes each seat in turn (game i
seats it at i mod n), every game has its own seed, and every agent its own seeded
generator, so a run is reproducible. Prints the win rate with its 95% Wilson interval
(the even share is 1/n), how games ended, and the heuristic's mean time per decision
(decisions with a single legal action are played by the engine and not counted), and the
mean time of one ``evaluate_position`` call on the positions where it decided.

    python benchmarks/heuristic_vs_random.py [--games 400] [--players 4] [--seed 0]
"""

import argparse
import math
import time

from tqdm import tqdm

from agents.base import RandomAgent
from agents.evaluation import evaluate_position
from agents.heuristic import HeuristicAgent
from tribune_env import Game, PlayerView


def play(players: int, seat: int, seed: int, point_variant: bool) -> tuple[Game, int, float, float]:
    """One game; returns it finished, the heuristic's decisions, their seconds and those of evaluate_position."""
    game = Game(players, seed=seed, point_variant=point_variant, log=False)
    agents = [HeuristicAgent(seed=seed) if p == seat else RandomAgent(seed=seed * 10 + p) for p in range(players)]
    decisions, seconds, evaluating = 0, 0.0, 0.0
    while not game.is_over:
        p = game.current_player
        observation, mask, view = game.observe(p), game.legal_mask(), PlayerView(game, p)
        start = time.perf_counter()
        action = agents[p].act(observation, mask, view)
        if p == seat:
            seconds += time.perf_counter() - start
            decisions += 1
            start = time.perf_counter()
            evaluate_position(game, seat)
            evaluating += time.perf_counter() - start
        game.step(action)
    return game, decisions, seconds, evaluating


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed + i")
    parser.add_argument("--point-variant", action="store_true")
    args = parser.parse_args()
    wins = truncated = decisions = rounds = 0
    seconds = evaluating = 0.0
    for i in tqdm(range(args.games), desc=f"{args.players} players"):
        seat = i % args.players
        game, n, s, e = play(args.players, seat, args.seed + i, args.point_variant)
        wins += seat in game.winners()
        truncated += game.truncated
        decisions, seconds, evaluating, rounds = decisions + n, seconds + s, evaluating + e, rounds + game.round
    low, high = wilson(wins, args.games)
    print(
        f"{args.games} games, {args.players} players{' (point-value variant)' if args.point_variant else ''}, "
        f"seeds {args.seed}..{args.seed + args.games - 1}, heuristic in each seat equally"
    )
    print(
        f"heuristic wins {wins}/{args.games} = {wins / args.games:.1%} "
        f"(95% Wilson interval {low:.1%}-{high:.1%}; even share {1 / args.players:.0%})"
    )
    print(f"truncated games: {truncated}; mean rounds per game: {rounds / args.games:.1f}")
    print(
        f"heuristic: {decisions} decisions, mean {1000 * seconds / decisions:.2f} ms per decision; "
        f"evaluate_position: mean {1e6 * evaluating / decisions:.1f} us per call"
    )


if __name__ == "__main__":
    main()

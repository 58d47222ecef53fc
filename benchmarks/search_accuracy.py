"""How well a search's values point at good moves, and how far the evaluation sees.

``foresight``: in heuristic self-play (4 players), how often the seat that
:func:`agents.evaluation.evaluate_position` ranks first at the end of each round goes on to win the
game (a quarter is chance). A search that values its leaves there can do no better.

``regret``: positions sampled from heuristic games; each legal move is valued on the same
`--worlds` determinisations (the heuristic plays every seat to the end of the round, then
the evaluation), and each agent's choice loses the best move's value less its own, in
evaluation units, reported apart for placements and for other decisions. It measures
choices against the search's own model of the game, not wins: see the README.

    python benchmarks/search_accuracy.py foresight [--games 3000]
    python benchmarks/search_accuracy.py regret heuristic ismcts:rounds=1,width=0,confidence=0 [--worlds 120]
"""

import argparse
from multiprocessing import Pool

import numpy as np
from tqdm import tqdm

from agents import make_agent
from agents.evaluation import evaluate_position
from agents.heuristic import HeuristicAgent, heuristic_rollout
from agents.ismcts import ROUND_ROLLOUT
from tribune_env import Game, PlayerView
from tribune_env.envs.rewards import final_rewards
from tribune_env.tasks import Task


def ranked_first(seed: int) -> list[tuple[int, float]]:
    """Per round of one heuristic game: (round, the share of the win of the seat evaluated best)."""
    game = Game(4, seed=seed, log=False)
    leaders = []
    while True:
        heuristic_rollout(game, 1, ROUND_ROLLOUT)
        if game.is_over:
            break
        values = [evaluate_position(game, p) for p in range(game.n)]
        leaders.append((int(game.round), int(np.argmax(values))))
    winners = game.winners()
    return [(r, (p in winners) / len(winners)) for r, p in leaders]


def positions(games: int, share: float, seed: int) -> list[Game]:
    """Decisions with a choice from heuristic games, each kept with probability `share`."""
    heuristic, rng, kept = HeuristicAgent(seed=5), np.random.default_rng(seed), []
    for g in range(games):
        game = Game(4, seed=1000 + g, log=False)
        while not game.is_over:
            if game.legal_mask().sum() > 1 and rng.random() < share:
                kept.append(game.clone())
            game.step(heuristic.choose(game))
    return kept


def move_values(task: tuple[int, Game, int]) -> np.ndarray:
    """Each legal move's mean value for the seat to act, on `worlds` shared determinisations."""
    index, game, worlds = task
    seat, rng = game.current_player, np.random.default_rng(index)
    legal = np.flatnonzero(game.legal_mask())
    values = np.zeros(len(legal))
    for _ in range(worlds):
        world = PlayerView(game, seat).determinize(rng)
        world.log = None
        for j, action in enumerate(legal):
            after = world.clone()
            after.step(int(action))
            heuristic_rollout(after, 1, ROUND_ROLLOUT)
            values[j] += final_rewards(after, "win")[seat] if after.is_over else evaluate_position(after, seat)
    return values / worlds


def regret(specs: list[str], args) -> None:
    games = positions(args.games, args.share, args.seed)
    with Pool(args.workers) as pool:
        tasks = [(i, g, args.worlds) for i, g in enumerate(games)]
        values = list(tqdm(pool.imap(move_values, tasks), total=len(tasks), desc="valuing moves"))
    print(
        f"{len(games)} positions ({sum(g.decision()[0] == Task.PLACE for g in games)} placements), "
        f"{args.worlds} worlds each"
    )
    for spec in specs:
        agent, lost = make_agent(spec, seed=0), {"placements": [], "others": []}
        for game, value in zip(tqdm(games, desc=spec, leave=False), values):
            seat = game.current_player
            move = agent.act(game.observe(seat), game.legal_mask(), PlayerView(game, seat))
            kind = "placements" if game.decision()[0] == Task.PLACE else "others"
            lost[kind].append(value.max() - value[list(np.flatnonzero(game.legal_mask())).index(move)])
        print(
            f"{spec:50s} "
            + "  ".join(
                f"{kind}: loss {np.mean(v):.4f}, best {np.mean(np.array(v) < 1e-9):.0%}" for kind, v in lost.items()
            )
        )


def foresight(args) -> None:
    with Pool(args.workers) as pool:
        rounds = [
            row
            for game in tqdm(
                pool.imap(ranked_first, range(20000, 20000 + args.games), chunksize=20), total=args.games, desc="games"
            )
            for row in game
        ]
    rounds = np.array(rounds)
    for r in range(1, int(rounds[:, 0].max()) + 1):
        won = rounds[rounds[:, 0] == r, 1]
        if len(won) >= 100:
            print(f"after round {r}: the seat evaluated best wins {won.mean():.1%} of {len(won)} games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("measure", choices=("foresight", "regret"))
    parser.add_argument("specs", nargs="*", default=["heuristic", "ismcts"], help="agents to judge (regret)")
    parser.add_argument("--games", type=int, default=None, help="games: 3000 (foresight), 40 (regret)")
    parser.add_argument("--share", type=float, default=0.02, help="share of decisions kept as positions")
    parser.add_argument("--worlds", type=int, default=120)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.measure == "foresight":
        args.games = args.games or 3000
        foresight(args)
    else:
        args.games = args.games or 40
        regret(args.specs, args)


if __name__ == "__main__":
    main()

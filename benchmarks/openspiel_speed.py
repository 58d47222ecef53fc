"""Decisions per second of random play through OpenSpiel's ``python_tribune``, beside the engine's own.

Both paths play the same games: the engine's ``Game.step`` loop (legal actions, a uniformly
random one, step), and pyspiel's (the chance node's outcomes from ``chance_outcomes()``, one
drawn from them, then ``legal_actions()`` and ``apply_action`` until ``is_terminal()``).
With ``--observe`` each path also reads the acting seat's observation at every decision
(``Game.observe``; pyspiel's ``observation_tensor()``, a list of floats as OpenSpiel gives it).
A decision is one move of one seat; the deal is not counted. One game per path is played
first to load (or compile) the engine, then the paths take turns `--repeats` times and each
keeps its best time, so that other work on the machine weighs on both alike. Runs on one core.

    python benchmarks/openspiel_speed.py [--games 20] [--repeats 3] [--players 2 3 4 5] [--seed 0] [--observe]
"""

import argparse
import random
import time

import pyspiel

from tribune_env import Game
from tribune_env.envs.openspiel import NAME, deal_seed


def engine(games: int, players, seed: int, observe: bool) -> int:
    """The engine's loop over the games pyspiel's deal `seed + i` makes; returns the decisions played."""
    choose, decisions = random.Random(seed).randrange, 0
    for i in range(games):
        game = Game(players[i % len(players)], seed=deal_seed(0, seed + i), log=False)
        while not game.is_over:
            if observe:
                game.observe(game.current_player)
            legal = game.legal_actions()
            game.step(int(legal[choose(len(legal))]))
            decisions += 1
    return decisions


def openspiel(games: int, players, seed: int, observe: bool) -> int:
    """The same games as OpenSpiel states, the deal drawn from the chance node's outcomes."""
    choose, decisions = random.Random(seed).randrange, 0
    loaded = {n: pyspiel.load_game(NAME, {"players": n}) for n in set(players)}
    for i in range(games):
        state = loaded[players[i % len(players)]].new_initial_state()
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[(seed + i) % len(outcomes)][0])
        while not state.is_terminal():
            if observe:
                state.observation_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[choose(len(legal))])
            decisions += 1
    return decisions


def rates(games: int, repeats: int, players, seed: int, observe: bool = False) -> tuple[float, float]:
    """Decisions a second of the engine and of OpenSpiel over `games` games, each its best of `repeats` turns."""
    best = {engine: 0.0, openspiel: 0.0}
    for path in best:
        path(1, players, seed + 10**6, observe)  # warm-up
    for _ in range(repeats):
        for path in best:
            start = time.perf_counter()
            decisions = path(games, players, seed, observe)
            best[path] = max(best[path], decisions / (time.perf_counter() - start))
    return best[engine], best[openspiel]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--observe", action="store_true", help="read the acting seat's observation at every decision")
    args = parser.parse_args()
    own, spiel = rates(args.games, args.repeats, args.players, args.seed, args.observe)
    print(f"engine (Game.step):               {own:>9,.0f} decisions/s")
    print(f"OpenSpiel python_tribune:         {spiel:>9,.0f} decisions/s")
    print(f"ratio (OpenSpiel / engine):       {spiel / own:>9.3f}")


if __name__ == "__main__":
    main()

"""Golden traces: what the game and the baseline agents did before a change that must not change them.

A trace file holds seeded games over every player count, victory card and the point
variant, with random and heuristic players and ``auto_forced`` both on and off: each
game's actions, a digest of every seat's observation and the mask at every decision, and
the final saved game. It also holds the heuristic's choice at a few thousand positions
of those games and IS-MCTS's choice, with a fixed iteration budget, at a few hundred.

Only the public API is used (``Game``, ``PlayerView``, ``make_agent``), so a rewrite of
the inside can be checked against traces recorded before it. ``tests/test_golden.py``
replays them. Record them again only for a change meant to alter behaviour::

    python tests/golden_traces.py --write
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from agents import make_agent
from tribune_env import DEFAULT_DATA, Game, PlayerView

TRACES = Path(__file__).with_name("golden") / "traces.json.gz"
GAMES_PER_SETTING = 10
HEURISTIC_EVERY = 30  # one position in this many decisions that offer a choice
ISMCTS_EVERY = 12  # one heuristic position in this many
ISMCTS_SPEC = "ismcts:iterations=24,seconds=0"


def settings() -> list[dict]:
    """Every player count with every victory card that fits it, and the point variant."""
    out = []
    for n in range(2, 6):
        cards = sorted(k for k, card in DEFAULT_DATA.victory_cards.items() if n in card.need)
        out += [{"num_players": n, "victory_card": card} for card in cards]
        out.append({"num_players": n, "point_variant": True})
    return out


def seed_of(*keys: int) -> int:
    return int(np.random.SeedSequence(list(keys)).generate_state(1)[0])


def game_plans() -> list[dict]:
    """The recorded games: configuration, seed, auto_forced and each seat's agent."""
    plans = []
    for s, config in enumerate(settings()):
        for g in range(GAMES_PER_SETTING):
            i = len(plans)
            n = config["num_players"]
            agents = (
                ["random"] * n
                if g % 3 == 0
                else ["heuristic"] * n
                if g % 3 == 1
                else ["heuristic" if seat == g % n else "random" for seat in range(n)]
            )
            plans.append({"config": config, "seed": seed_of(1, s, g), "auto_forced": i % 4 != 3, "agents": agents})
    return plans


def new_game(plan: dict) -> Game:
    return Game(**plan["config"], seed=plan["seed"], auto_forced=plan["auto_forced"])


def digest(game: Game) -> str:
    """Four bytes of hash over the mask and every seat's observation."""
    h = hashlib.blake2b(digest_size=4)
    h.update(np.ascontiguousarray(game.legal_mask(), dtype=np.int8).tobytes())
    for seat in range(game.n):
        h.update(np.ascontiguousarray(game.observe(seat), dtype=np.float32).tobytes())
    return h.hexdigest()


def record() -> dict:
    """Play every planned game and ask the agents at the sampled positions."""
    games = []
    for index, plan in enumerate(game_plans()):
        game = new_game(plan)
        agents = [make_agent(spec, seed=seed_of(2, index, seat)) for seat, spec in enumerate(plan["agents"])]
        actions, digests, choice_points = [], [], []
        while not game.is_over:
            digests.append(digest(game))
            if len(game.legal_actions()) > 1:
                choice_points.append(len(actions))
            seat = game.current_player
            action = int(agents[seat].act(game.observe(seat), game.legal_mask(), PlayerView(game, seat)))
            game.step(action)
            actions.append(action)
        digests.append(digest(game))
        games.append(
            {
                "plan": plan,
                "actions": actions,
                "digests": digests,
                "final": game.to_dict(),
                "choice_points": choice_points,
            }
        )
    positions = heuristic_positions(games)
    searched = positions[::ISMCTS_EVERY]
    heuristic, ismcts = choices("heuristic", games, positions), choices(ISMCTS_SPEC, games, searched)
    return {
        "games": games,
        "heuristic": {"positions": positions, "choices": heuristic},
        "ismcts": {"spec": ISMCTS_SPEC, "positions": searched, "choices": ismcts},
    }


def heuristic_positions(games: list) -> list:
    """(game, decision) of every HEURISTIC_EVERY-th decision that offers a choice."""
    every = [(g, t) for g, game in enumerate(games) for t in game["choice_points"]]
    return [list(p) for p in every[::HEURISTIC_EVERY]]


def choices(spec: str, games: list, positions: list) -> list[int]:
    """The agent's choice at each (game, decision), replaying each game once; every choice
    from a generator seeded by its position."""
    out = []
    for g in sorted({g for g, _ in positions}):
        trace = games[g]
        wanted = sorted(t for h, t in positions if h == g)
        asked = set(wanted)
        game = new_game(trace["plan"])
        for t, action in enumerate(trace["actions"][: wanted[-1] + 1]):
            if t in asked:
                seat = game.current_player
                agent = make_agent(spec, seed=seed_of(3, g, t))
                out.append(int(agent.act(game.observe(seat), game.legal_mask(), PlayerView(game, seat))))
            game.step(action)
    return out


def load() -> dict:
    with gzip.open(TRACES, "rt", encoding="utf-8") as f:
        return json.load(f)


def write() -> None:
    traces = record()
    TRACES.parent.mkdir(exist_ok=True)
    with gzip.GzipFile(TRACES, "wb", mtime=0) as f:
        f.write(json.dumps(traces, separators=(",", ":")).encode())
    print(
        f"{len(traces['games'])} games, {sum(len(g['actions']) for g in traces['games'])} decisions, "
        f"{len(traces['heuristic']['choices'])} heuristic and {len(traces['ismcts']['choices'])} IS-MCTS "
        f"positions -> {TRACES} ({TRACES.stat().st_size // 1024} KiB)"
    )


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    write()

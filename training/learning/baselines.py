"""Evaluating a trained policy: tournaments of its agent against each baseline in turn.

The policy (any agent spec: ``model:PATH.zip,trust=true``, ``rllib:PATH.pt``) sits in one seat and the opponent's spec in every other; each deal is played in
every rotation of the seating (see :mod:`training.arena.tournament`), so the policy meets the
same cards from every seat. The result per opponent is the policy's win rate with its 95%
Wilson interval, mean score and rank.
"""

from __future__ import annotations

from tribune_env import GameConfig

from ..arena import tournament
from ..arena.report import grid


def settings(players: int) -> dict:
    """The standard game of `players`: victory card drawn per deal, the engine's round limit."""
    return {
        "num_players": players,
        "victory_card": None,
        "point_variant": False,
        "round_limit": GameConfig(players).round_limit,
    }


def evaluate_agent(
    agent: str,
    opponents: list,
    players: int,
    games: int,
    seed: int = 0,
    workers: int | None = None,
    ray_address: str | None = None,
    progress_bar: bool = True,
) -> list[dict]:
    """One row per opponent spec: the results of the `agent` spec in `games` games against it
    (its games spread over a Ray cluster with `ray_address`, see :mod:`training.cluster`)."""
    game = settings(players)
    rows = []
    for spec in opponents:
        specs = [agent] + [spec] * (players - 1)
        results = tournament.run(specs, games, seed, game, workers, ray_address=ray_address, progress_bar=progress_bar)
        summary = tournament.summarize(results, specs, seed, game)
        entrant = summary["entrants"][0]
        rows.append(
            {
                "opponent": spec,
                "players": players,
                "games": entrant["games"],
                "wins": entrant["wins"],
                "win_rate": entrant["win_rate"],
                "win_ci": entrant["win_ci"],
                "mean_score": entrant["mean_score"],
                "mean_rank": entrant["mean_rank"],
                "mean_rounds": summary["games"]["mean_rounds"],
            }
        )
    return rows


def table(rows: list) -> str:
    """The evaluation as a printed table."""
    return grid(
        ["opponent", "players", "games", "wins", "win rate [95% CI]", "mean score", "mean rank"],
        [
            [
                r["opponent"],
                r["players"],
                r["games"],
                f"{r['wins']:.1f}",
                f"{r['win_rate']:.3f} [{r['win_ci'][0]:.3f}, {r['win_ci'][1]:.3f}]",
                f"{r['mean_score']:.1f}",
                f"{r['mean_rank']:.2f}",
            ]
            for r in rows
        ],
    )

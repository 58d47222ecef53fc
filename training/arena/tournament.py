"""Tournaments: every rotation of the seating on every deal, played over processes, summarised.

Fairness: `deals` seeds are drawn from the tournament seed; each deal is played once per
rotation of the seating, so every entrant sits in every seat on the same deals. Each
agent is reset before a game with a seed derived from the deal and its seat, so the luck
of a seat is the same whoever sits there (identical agents get identical results).
Results depend on the seed alone: games are independent and gathered in order, and the
ratings are updated game by game in that order, whatever the number of processes.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial

import numpy as np

from agents import REGISTRY as agent_registry
from agents import locate, make_agent
from tribune_env import ConfigError, Game, IllegalActionError, saving

from ..bounds import MAX_GAMES
from ..progress import progress
from .games import derive_seed, ending, play_game, reset_agents
from .processes import parallel_map
from .stats import ratings, wilson


@dataclass(frozen=True)
class Job:
    index: int
    deal: int
    rotation: int
    seed: int
    seating: tuple  # entrant per seat


def label(entrant: int, spec: str) -> str:
    return f"#{entrant} {spec}"


def scheduled_games(num_entrants: int, games: int) -> int:
    """`games` rounded up to whole deals of `num_entrants` rotations each."""
    return -(-games // num_entrants) * num_entrants


def schedule(num_entrants: int, games: int, seed: int) -> Iterator[Job]:
    """Whole deals of `num_entrants` rotations each, at least `games` games in all, made as
    they are asked for (a long tournament is never scheduled whole in memory)."""
    n = num_entrants
    for deal in range(scheduled_games(n, games) // n):
        deal_seed = derive_seed(seed, deal)
        for rotation in range(n):
            yield Job(deal * n + rotation, deal, rotation, deal_seed, tuple((seat - rotation) % n for seat in range(n)))


# The agents of this process, one per (spec, seat), made once and reset before each game.
_agents: dict = {}


def _fresh_agents():
    _agents.clear()


def _start_worker(registry: dict):
    """A worker process: the parent's agent registry (agents registered at run time included),
    fresh agents, and torch (if a model agent loads it) on one thread.

    A model decides one observation at a time, which more threads only slow down, and the
    other workers already use the other cores.
    """
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    agent_registry.update(registry)
    _fresh_agents()


def _agent(spec: str, seat: int):
    if (spec, seat) not in _agents:
        _agents[spec, seat] = make_agent(spec)
    return _agents[spec, seat]


def play_job(job: Job, specs: list, settings: dict, keep_record: bool) -> dict:
    """Play one scheduled game; the result is plain data (it crosses processes). The game keeps
    its log only for an agent that reads it (a text seat's news)."""
    seated = [specs[e] for e in job.seating]
    agents = [_agent(spec, seat) for seat, spec in enumerate(seated)]
    game = Game(**settings, seed=job.seed, log=any(agent.reads_log for agent in agents))
    reset_agents(agents, job.seed)
    try:
        played = play_game(game, agents, [label(e, specs[e]) for e in job.seating])
    except IllegalActionError as exc:
        raise IllegalActionError(f"game {job.index} (seed {job.seed}): {exc}") from None
    result = {
        "game": job.index,
        "deal": job.deal,
        "rotation": job.rotation,
        "seed": job.seed,
        "seating": list(job.seating),
        "decisions": len(played.actions),
        **ending(game),
        "seat_decisions": played.decisions,
        "seat_think": played.think,
        "seat_tallies": [agent.tally() for agent in agents],
    }
    if keep_record:
        result["record"] = saving.record(game, seated, job.index)
    return result


def run(
    specs: list,
    games: int,
    seed: int,
    settings: dict,
    workers: int | None = None,
    on_record=None,
    ray_address: str | None = None,
    progress_bar: bool = True,
) -> list[dict]:
    """Play the tournament; one result per game, in schedule order (with `progress_bar`, a bar
    of the games played, :mod:`training.progress`).

    With `on_record`, each game's record is handed to it as the game comes in (to be
    written to a file, say): records are not kept in the results. With `ray_address`, the
    games are Ray tasks on that cluster (:mod:`training.cluster`) instead of `workers`
    processes here; the results are the same.
    """
    if games > MAX_GAMES:
        raise ConfigError(f"a tournament plays at most {MAX_GAMES:,} games (their results are kept), not {games:,}")
    total = scheduled_games(len(specs), games)
    # On Ray the workers do not share this working directory: model files go by absolute path.
    seated = [locate(spec) for spec in specs] if ray_address is not None else list(specs)
    play = partial(play_job, specs=seated, settings=settings, keep_record=on_record is not None)
    jobs, start = schedule(len(specs), games, seed), (_start_worker, (dict(agent_registry),))
    nodes = []
    if ray_address is not None:
        from ..cluster import ray_map

        played = ray_map(play, jobs, ray_address, *start, nodes=nodes)
    else:
        played = parallel_map(play, jobs, min(workers or os.cpu_count() or 1, total), *start)
    _fresh_agents()
    results = []
    for result in progress(played, total=total, unit="game", show=progress_bar):
        if on_record is not None:
            on_record(result.pop("record"))
        if nodes:  # where the game was played, like its timing not a function of the seed
            result["node"] = nodes[len(results)]
        results.append(result)
    return results


def _appearances(results: list, specs: list) -> list[dict]:
    """One row per entrant per game."""
    return [
        {
            "entrant": e,
            "spec": specs[e],
            "seat": seat,
            "win": r["wins"][seat],
            "score": r["scores"][seat],
            "rank": r["ranks"][seat],
            "decisions": r["seat_decisions"][seat],
            "think": r["seat_think"][seat],
            "tally": r["seat_tallies"][seat],
        }
        for r in results
        for seat, e in enumerate(r["seating"])
    ]


def _aggregate(rows: list) -> dict:
    games, wins = len(rows), sum(r["win"] for r in rows)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "win_ci": list(wilson(wins, games)),
        "mean_score": float(np.mean([r["score"] for r in rows])),
        "mean_rank": float(np.mean([r["rank"] for r in rows])),
    }


def _tally(rows: list) -> dict:
    """What the entrant's agent counted of its games (a text seat's forfeits), added up: {} for most agents."""
    total = Counter()
    for r in rows:
        total.update(r["tally"])
    return dict(total)


def _seconds_per_decision(rows: list) -> float:
    return sum(r["think"] for r in rows) / max(1, sum(r["decisions"] for r in rows))


def summarize(results: list, specs: list, seed: int, settings: dict) -> dict:
    """Everything the tournament shows: per entrant (with what its agent counted, ``tally``), per
    spec, ratings, how games ended.

    All but ``timing`` (wall-clock) is a function of the seed.
    """
    n = len(specs)
    rows = _appearances(results, specs)
    rated = ratings(n, ((r["seating"], r["ranks"]) for r in results))
    seats = Counter((r["entrant"], r["seat"]) for r in rows)
    entrants = [
        {
            "entrant": e,
            "spec": spec,
            "label": label(e, spec),
            "seats": [seats[e, s] for s in range(n)],
            **_aggregate([r for r in rows if r["entrant"] == e]),
            "rating": rated[e],
            "tally": _tally([r for r in rows if r["entrant"] == e]),
        }
        for e, spec in enumerate(specs)
    ]
    by_spec = [{"spec": spec, **_aggregate([r for r in rows if r["spec"] == spec])} for spec in dict.fromkeys(specs)]
    return {
        "format": "tribune-tournament",
        "version": 1,
        "settings": {
            "agents": list(specs),
            "seed": seed,
            "games": len(results),
            "deals": len(results) // n,
            **settings,
        },
        "entrants": entrants,
        "specs": by_spec,
        "games": {
            "count": len(results),
            "mean_rounds": float(np.mean([r["rounds"] for r in results])),
            "mean_decisions": float(np.mean([r["decisions"] for r in results])),
            "endings": dict(Counter(r["ending"] for r in results)),
            "winning_objectives": dict(
                Counter("+".join(r["objectives"]) for r in results if r["objectives"]).most_common()
            ),
        },
        "timing": {
            "seconds_per_decision": {
                e["label"]: _seconds_per_decision([r for r in rows if r["entrant"] == e["entrant"]]) for e in entrants
            },
            **(
                {"games_per_node": dict(Counter(r["node"] for r in results))}
                if results and "node" in results[0]
                else {}
            ),
        },
    }

"""The ladder: each agent against the heuristic in every other seat, rated on one fixed scale.

For one player count, every agent on the ladder plays the same deals against n - 1
heuristics, each deal in every rotation of the seating (a tournament of its own, so its
figures are those ``tribune tournament`` would give). The ladder reports its win rate
with a 95% Wilson interval beside parity (1/n), its worst seat, and a rating: the
Plackett-Luce strength that best explains its finishing places among the heuristics (the
heuristic's strength is 1), as ``400 log10(strength)``, shifted so that the random agent
rates 0. Both anchors are fixed, the heuristic by the model and the random agent by the
shift, so ratings from two runs compare; one pseudo-game at each place keeps an agent
that always finishes first or last at a finite rating.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from .stats import wilson
from .tournament import run

REFERENCE = "heuristic"
ANCHOR = "random"
SCALE = 400  # rating points per factor of ten in strength, as Elo's


def place_probabilities(strength: float, n: int) -> np.ndarray:
    """P(the agent finishes at place k), k = 1..n, under Plackett-Luce against n - 1 strength-1 seats."""
    out, before = np.zeros(n), 1.0
    for k in range(n):
        others = n - 1 - k
        out[k] = before * strength / (strength + others)
        before *= others / (strength + others)
    return out


def strength(places: list[int], n: int) -> float:
    """The maximum-likelihood strength of an agent that finished at `places` (1 = first), with
    one pseudo-game at every place; the likelihood is concave in log strength."""
    counts = np.bincount(np.asarray(places, dtype=np.int64) - 1, minlength=n)[:n] + 1.0

    def loglik(x):
        return float(counts @ np.log(place_probabilities(math.exp(x), n)))

    low, high = -30.0, 30.0
    for _ in range(200):  # ternary search on a concave function
        a, b = low + (high - low) / 3, high - (high - low) / 3
        if loglik(a) < loglik(b):
            low = a
        else:
            high = b
    return math.exp((low + high) / 2)


def play(players: int, specs: list[str], games: int, seed: int, settings: dict, workers=None) -> dict:
    """Play every spec against `players` - 1 heuristics on the same deals; the ladder's figures."""
    rows = []
    for spec in specs:
        results = run([spec] + [REFERENCE] * (players - 1), games, seed, settings, workers)
        rows.append(_row(spec, results, players))
    anchor = next((r["log_strength"] for r in rows if r["spec"] == ANCHOR), None)
    for r in rows:
        r["rating"] = None if anchor is None else SCALE * (r["log_strength"] - anchor) / math.log(10)
    return {"players": players, "seed": seed, "games": games, "parity": 1 / players, "agents": rows}


def _row(spec: str, results: list, players: int) -> dict:
    """The agent's (entrant 0's) figures over its games."""
    seats = [r["seating"].index(0) for r in results]
    wins = [r["wins"][seat] for r, seat in zip(results, seats)]
    places = [r["ranks"][seat] for r, seat in zip(results, seats)]
    by_seat = [
        (seat, float(np.mean([w for w, s in zip(wins, seats) if s == seat])))
        for seat in range(players)
        if seat in seats
    ]
    worst = min(by_seat, key=lambda x: x[1])
    return {
        "spec": spec,
        "games": len(results),
        "wins": float(sum(wins)),
        "win_rate": float(np.mean(wins)),
        "win_ci": list(wilson(sum(wins), len(wins))),
        "mean_place": float(np.mean(places)),
        "worst_seat": {"seat": worst[0], "win_rate": worst[1]},
        "log_strength": math.log(strength(places, players)),
    }


def markdown(ladder: dict, command: str, plot: str | None) -> str:
    """The section of docs/ladder.md for this player count."""
    n = ladder["players"]
    lines = [
        f"## {n} players",
        "",
        f"`{command}`: {ladder['games']} games an agent (whole deals, every seating), seed {ladder['seed']}; "
        f"parity is {100 / n:.1f}%.",
        "",
        "| agent | games | win rate against the heuristics [95% CI] | worst seat | mean place | rating |",
        "|---|---:|---|---|---:|---:|",
    ]
    for r in ladder["agents"]:
        low, high = r["win_ci"]
        rating = "-" if r["rating"] is None else f"{r['rating']:.0f}"
        lines.append(
            f"| `{r['spec']}` | {r['games']} | {100 * r['win_rate']:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%] "
            f"| seat {r['worst_seat']['seat']}: {100 * r['worst_seat']['win_rate']:.1f}% | {r['mean_place']:.2f} "
            f"| {rating} |"
        )
    if plot:
        lines += ["", f"![The {n}-player ladder]({plot})"]
    return "\n".join(lines) + "\n"


HEADER = """# The ladder

Each agent plays the same deals against the heuristic in every other seat, every deal in
every rotation of the seating (`tribune ladder`). The rating is the Plackett-Luce strength
that explains the agent's finishing places among the heuristics, as 400 log10(strength):
the heuristic is fixed by the model and the random agent at 0, so ratings from two runs
compare. Each section is written by the command it names.
"""


def write(path: Path, section: str, players: int) -> None:
    """Put the section for `players` into the ladder file, keeping the other player counts' sections."""
    text = path.read_text() if path.exists() else HEADER
    pattern = re.compile(rf"## {players} players\n.*?(?=\n+## |\Z)\n*", re.S)  # with the blank lines after it
    if pattern.search(text):
        text = pattern.sub(lambda _: section.rstrip("\n") + "\n\n", text)
    else:
        sections = re.split(r"\n(?=## \d players\n)", text.rstrip("\n"))
        head, parts = sections[0], sections[1:] + [section.rstrip("\n")]
        text = "\n\n".join([head.rstrip("\n"), *sorted(parts, key=lambda s: int(s[3]))])
    path.write_text(text.rstrip("\n") + "\n")

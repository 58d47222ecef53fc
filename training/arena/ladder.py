"""The ladder: each agent against the heuristic in every other seat, rated on one fixed scale.

For one player count, every agent on the ladder plays the same deals against n - 1
heuristics, each deal in every rotation of the seating (a tournament of its own, so its
figures are those ``tribune tournament`` would give). The ladder reports its win rate
with a 95% Wilson interval beside parity (1/n), its worst seat and worst victory card
(the seat, and the card, whose games it won least: an agent strong on average may still
lose one card's games, and a card it cannot play is a weakness to exploit), and a rating: the
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

from tribune_env import files

from .stats import wilson
from .tournament import run

REFERENCE = "heuristic"
ANCHOR = "random"
SCALE = 400  # rating points per factor of ten in strength, as Elo's
POINT_VARIANT = "point variant"  # a game without a victory card, counted as a card of its own


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
    cards = [r["victory_card"] or POINT_VARIANT for r in results]
    return {
        "spec": spec,
        "games": len(results),
        "wins": float(sum(wins)),
        "win_rate": float(np.mean(wins)),
        "win_ci": list(wilson(sum(wins), len(wins))),
        "mean_place": float(np.mean(places)),
        "worst_seat": _worst("seat", seats, wins),
        "worst_card": _worst("card", cards, wins),
        "log_strength": math.log(strength(places, players)),
    }


def _worst(name: str, keys: list, wins: list) -> dict:
    """The key (a seat, a victory card) whose games the agent won least, as {name: key}, with their
    count, win rate and 95% interval; a tie goes to the first key in order."""
    groups: dict = {}
    for key, win in zip(keys, wins):
        groups.setdefault(key, []).append(win)
    key = min(sorted(groups), key=lambda k: np.mean(groups[k]))
    won = groups[key]
    return {name: key, "games": len(won), "win_rate": float(np.mean(won)), "win_ci": list(wilson(sum(won), len(won)))}


def markdown(ladder: dict, command: str, plot: str | None) -> str:
    """The section of docs/ladder.md for this player count."""
    n = ladder["players"]
    lines = [
        f"## {n} players",
        "",
        f"`{command}`: {ladder['games']} games an agent (whole deals, every seating), seed {ladder['seed']}; "
        f"parity is {100 / n:.1f}%.",
        "",
        "| agent | games | win rate against the heuristics [95% CI] | worst seat | worst victory card [95% CI] "
        "| mean place | rating |",
        "|---|---:|---|---|---|---:|---:|",
    ]
    for r in ladder["agents"]:
        low, high = r["win_ci"]
        rating = "-" if r["rating"] is None else f"{r['rating']:.0f}"
        lines.append(
            f"| `{r['spec']}` | {r['games']} | {100 * r['win_rate']:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%] "
            f"| seat {r['worst_seat']['seat']}: {100 * r['worst_seat']['win_rate']:.1f}% | {_card(r['worst_card'])} "
            f"| {r['mean_place']:.2f} | {rating} |"
        )
    if plot:
        lines += ["", f"![The {n}-player ladder]({plot})"]
    return "\n".join(lines) + "\n"


def _card(worst: dict) -> str:
    """The worst victory card as a cell: its id, win rate and 95% interval."""
    low, high = worst["win_ci"]
    return f"`{worst['card']}`: {100 * worst['win_rate']:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%]"


HEADER = """# The ladder

Each agent plays the same deals against the heuristic in every other seat, every deal in
every rotation of the seating (`tribune ladder`). The rating is the Plackett-Luce strength
that explains the agent's finishing places among the heuristics, as 400 log10(strength):
the heuristic is fixed by the model and the random agent at 0, so ratings from two runs
compare. The worst seat and the worst victory card are the seat and the card whose games
the agent won least (the point variant, when played, counts as a card). How far an opponent
trained against an agent can beat it is another measure: `tribune exploit`
([training.md](training.md#how-exploitable-an-agent-is)). Each section is written by the
command it names.
"""


MAX_FILE = 16 * 2**20  # bytes of a ladder file read back; docs/ladder.md is a few kilobytes
_PLAYERS_HEADING = re.compile(r"## (\d) players")


def read(path: Path) -> str:
    """The ladder file's text (the header for a new file); ConfigError if it is not UTF-8 text that can be read."""
    return files.read_text(path, MAX_FILE) if path.exists() else HEADER


def write(path: Path, section: str, players: int) -> None:
    """Put the section for `players` into the ladder file, keeping the other player counts' sections."""
    path.write_text(with_section(read(path), section, players), encoding="utf-8")


def with_section(text: str, section: str, players: int) -> str:
    """`text` with `section` in place of the section for `players`, or among the others in order
    of player count; any other part is kept, and parts are one blank line apart."""
    head, *parts = _parts(text)
    parts = [part for part in parts if part[0] != players]
    later = [i for i, (n, _) in enumerate(parts) if n is not None and n > players]
    earlier = [i + 1 for i, (n, _) in enumerate(parts) if n is not None and n < players]
    parts.insert(later[0] if later else earlier[-1] if earlier else len(parts), (players, section.rstrip("\n")))
    return "\n\n".join(part for _, part in [head, *parts] if part) + "\n"


def _parts(text: str) -> list:
    """(player count, text) of the text before the first "## " heading (count None), then of each
    part from one such heading to the next (count None unless it heads a player count's section).

    One pass over the lines: the file's time to rewrite grows with its length alone.
    """
    parts = [(None, [])]
    for line in text.split("\n"):
        if line.startswith("## "):
            heading = _PLAYERS_HEADING.fullmatch(line)
            parts.append((int(heading[1]) if heading else None, []))
        parts[-1][1].append(line)
    return [(n, "\n".join(lines).rstrip("\n")) for n, lines in parts]

"""A tournament's summary as a printed table, ``results.json`` and ``games.csv``."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from .tournament import label

HEADERS = ["games", "wins", "win rate [95% CI]", "mean score", "mean rank"]


def grid(headers: list, rows: list) -> str:
    """Columns as wide as their widest cell: the first aligned left, the others right."""
    cells = [headers] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))

    return "\n".join(map(line, cells))


def _results(group: dict) -> list:
    low, high = group["win_ci"]
    return [
        group["games"],
        f"{group['wins']:.2f}",
        f"{group['win_rate']:.3f} [{low:.3f}, {high:.3f}]",
        f"{group['mean_score']:.1f}",
        f"{group['mean_rank']:.2f}",
    ]


def _rating(entrant: dict, seconds: float) -> list:
    r = entrant["rating"]
    return [f"{r['mu']:.1f} ± {r['sigma']:.1f}", f"{r['ordinal']:.1f}", f"{1000 * seconds:.2f}"]


def _counts(counter: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in counter.items())


def text(summary: dict) -> str:
    """The printed report: entrants, agents (when a spec plays in several seats), games."""
    s, g = summary["settings"], summary["games"]
    n = len(s["agents"])
    card = "point-value variant" if s["point_variant"] else f"victory card {s['victory_card'] or 'drawn per deal'}"
    timing = summary["timing"]["seconds_per_decision"]
    lines = [
        (
            f"{n} seats, {g['count']} games ({s['deals']} deals x {n} seatings), seed {s['seed']}, "
            f"{card}, round limit {s['round_limit']}"
        ),
        "",
        grid(
            ["entrant", *HEADERS, "rating mu ± sigma", "ordinal", "ms/decision"],
            [[e["label"], *_results(e), *_rating(e, timing[e["label"]])] for e in summary["entrants"]],
        ),
    ]
    if len(summary["specs"]) < n:
        lines += ["", grid(["agent", *HEADERS], [[a["spec"], *_results(a)] for a in summary["specs"]])]
    lines += [
        "",
        (
            f"games: mean {g['mean_rounds']:.1f} rounds, {g['mean_decisions']:.0f} decisions; "
            f"ended: {_counts(g['endings'])}"
        ),
    ]
    if g["winning_objectives"]:
        lines.append(f"winners' objectives at the end: {_counts(g['winning_objectives'])}")
    lines += [f"{e['label']} counted: {_counts(e['tally'])}" for e in summary["entrants"] if e["tally"]]
    return "\n".join(lines)


def game_rows(results: list, specs: list) -> list[dict]:
    """One flat row per game, seats as columns, for games.csv."""

    def entrant(r, seat):
        return label(r["seating"][seat], specs[r["seating"][seat]])

    seats = range(len(specs))
    return [
        {
            "game": r["game"],
            "deal": r["deal"],
            "rotation": r["rotation"],
            "seed": r["seed"],
            **{f"seat_{p}": entrant(r, p) for p in seats},
            "rounds": r["rounds"],
            "decisions": r["decisions"],
            "ending": r["ending"],
            "winners": " ".join(map(str, r["winners"])),
            "winning_entrants": " ".join(entrant(r, p) for p in r["winners"]),
            "objectives": "+".join(r["objectives"]),
            **{f"score_{p}": r["scores"][p] for p in seats},
            **{f"rank_{p}": r["ranks"][p] for p in seats},
        }
        for r in results
    ]


def write(out: Path, summary: dict, results: list) -> None:
    """results.json and games.csv in directory `out` (made if needed)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(summary, indent=2) + "\n")
    rows = game_rows(results, summary["settings"]["agents"])
    with open(out / "games.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)

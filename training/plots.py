"""The tournament picture: win rates with their 95% intervals against the even share, and ratings."""
from __future__ import annotations

from matplotlib.figure import (
    Figure,  # no pyplot: no GUI backend, no global figure state
)


def plot(summary: dict, path) -> None:
    """Write a PNG with two panels: win rate per entrant, OpenSkill mu ± sigma per entrant."""
    entrants = summary["entrants"]
    names = [e["label"] for e in entrants]
    x = range(len(entrants))
    fig = Figure(figsize=(4 + 1.6 * len(entrants), 4.5), layout="constrained")
    wins, skill = fig.subplots(1, 2)
    rates = [e["win_rate"] for e in entrants]
    errors = [[r - e["win_ci"][0] for r, e in zip(rates, entrants)],
              [e["win_ci"][1] - r for r, e in zip(rates, entrants)]]
    wins.bar(x, rates, yerr=errors, capsize=6, color="tab:blue")
    wins.axhline(1 / len(entrants), color="grey", linestyle="--", label="even share")
    wins.set(title=f"Win rate, 95% Wilson interval ({summary['games']['count']} games)", ylim=(0, 1),
             ylabel="wins per game")
    wins.legend()
    skill.errorbar(x, [e["rating"]["mu"] for e in entrants], yerr=[e["rating"]["sigma"] for e in entrants],
                   fmt="o", capsize=6, color="tab:orange")
    skill.set(title="OpenSkill rating (Plackett-Luce), mu ± sigma", ylabel="mu")
    for ax in (wins, skill):
        ax.set_xticks(list(x), names, rotation=20, ha="right")
    fig.savefig(path, dpi=120)

"""Pictures of a tournament's results: win rates with 95% intervals, and ratings."""

from __future__ import annotations

from matplotlib.figure import (
    Figure,  # no pyplot: no GUI backend, no global figure state
)


def win_bars(ax, groups: list, even_share: float, title: str, color: str) -> None:
    """Bars of ``win_rate`` with their ``win_ci`` as error bars, and the even share as a line."""
    rates = [g["win_rate"] for g in groups]
    errors = [[r - g["win_ci"][0] for r, g in zip(rates, groups)], [g["win_ci"][1] - r for r, g in zip(rates, groups)]]
    ax.bar(range(len(groups)), rates, yerr=errors, capsize=6, color=color)
    ax.axhline(even_share, color="grey", linestyle="--", label="even share")
    ax.set(title=title, ylim=(0, 1), ylabel="wins per game")
    ax.legend()


def plot(summary: dict, path) -> None:
    """Write a PNG with two panels: win rate per entrant, OpenSkill mu ± sigma per entrant."""
    entrants = summary["entrants"]
    names = [e["label"] for e in entrants]
    x = range(len(entrants))
    fig = Figure(figsize=(4 + 1.6 * len(entrants), 4.5), layout="constrained")
    wins, skill = fig.subplots(1, 2)
    win_bars(
        wins,
        entrants,
        1 / len(entrants),
        f"Win rate, 95% Wilson interval ({summary['games']['count']} games)",
        "tab:blue",
    )
    skill.errorbar(
        x,
        [e["rating"]["mu"] for e in entrants],
        yerr=[e["rating"]["sigma"] for e in entrants],
        fmt="o",
        capsize=6,
        color="tab:orange",
    )
    skill.set(title="OpenSkill rating (Plackett-Luce), mu ± sigma", ylabel="mu")
    for ax in (wins, skill):
        ax.set_xticks(list(x), names, rotation=20, ha="right")
    fig.savefig(path, dpi=120)


def ladder_plot(ladder: dict, path) -> None:
    """Write a PNG with two panels: each agent's win rate against the heuristics, and its rating."""
    agents = ladder["agents"]
    names = [a["spec"] if len(a["spec"]) < 28 else a["spec"][:25] + "..." for a in agents]
    fig = Figure(figsize=(4 + 1.8 * len(agents), 4.5), layout="constrained")
    wins, rated = fig.subplots(1, 2)
    win_bars(
        wins,
        agents,
        ladder["parity"],
        f"{ladder['players']} players: wins against the heuristics, 95% interval",
        "tab:blue",
    )
    rated.bar(range(len(agents)), [a["rating"] or 0 for a in agents], color="tab:orange")
    rated.set(title="Rating (random 0; Plackett-Luce, 400 log10)", ylabel="rating")
    for ax in (wins, rated):
        ax.set_xticks(range(len(agents)), names, rotation=20, ha="right")
    fig.savefig(path, dpi=120)

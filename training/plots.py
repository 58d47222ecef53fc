"""Pictures of results: tournaments (win rates with 95% intervals, ratings), a model's evaluation,
and a training run's learning curve."""
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
    win_bars(wins, entrants, 1 / len(entrants),
             f"Win rate, 95% Wilson interval ({summary['games']['count']} games)", "tab:blue")
    skill.errorbar(x, [e["rating"]["mu"] for e in entrants], yerr=[e["rating"]["sigma"] for e in entrants],
                   fmt="o", capsize=6, color="tab:orange")
    skill.set(title="OpenSkill rating (Plackett-Luce), mu ± sigma", ylabel="mu")
    for ax in (wins, skill):
        ax.set_xticks(list(x), names, rotation=20, ha="right")
    fig.savefig(path, dpi=120)


def learning_curve(files, config) -> None:
    """Write the run's learning curve: evaluation win rates (95% bands) and the self-play win rate."""
    from .selfplay import read_csv
    evaluations, training = read_csv(files.evaluations), read_csv(files.training)
    fig = Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.subplots()
    for opponent in dict.fromkeys(r["opponent"] for r in evaluations):
        rows = [r for r in evaluations if r["opponent"] == opponent]
        steps = [r["steps"] for r in rows]
        ax.plot(steps, [r["win_rate"] for r in rows], marker="o", label=f"vs {opponent} (evaluation)")
        ax.fill_between(steps, [r["low"] for r in rows], [r["high"] for r in rows], alpha=0.2)
    if training:
        ax.plot([r["steps"] for r in training], [r["win_rate"] for r in training], color="grey", alpha=0.6,
                linewidth=1, label="vs the opponent pool (training games)")
    ax.axhline(1 / config.players, color="grey", linestyle="--", label="even share")
    ax.set(title=f"Learning curve, {config.players} players: win rate with 95% Wilson interval",
           xlabel="learner steps", ylabel="wins per game", ylim=(0, 1))
    ax.legend(loc="best", fontsize="small")
    fig.savefig(files.curve, dpi=120)


def evaluation(rows: list, path) -> None:
    """Write a PNG of a model's win rate against each opponent, with 95% intervals and the even share."""
    fig = Figure(figsize=(3 + 1.5 * len(rows), 4.5), layout="constrained")
    ax = fig.subplots()
    players = rows[0]["players"]
    win_bars(ax, rows, 1 / players, f"Model win rate, {players} players, 95% Wilson interval", "tab:green")
    ax.set_xticks(range(len(rows)), [r["opponent"] for r in rows])
    fig.savefig(path, dpi=120)

"""Pictures of learning: a training run's learning curve, and a model's evaluation against the baselines."""

from __future__ import annotations

from matplotlib.figure import (
    Figure,  # no pyplot: no GUI backend, no global figure state
)

from ..arena.plots import win_bars


def learning_curve(evaluations: list[dict], training: list[dict], config, path, stages=()) -> None:
    """Write the run's learning curve at `path`: evaluation win rates (95% bands) and the self-play
    win rate, from the rows of its evaluation and training logs; `stages` (step, name) mark where
    each stage of a recipe starts."""
    fig = Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.subplots()
    for opponent in dict.fromkeys(r["opponent"] for r in evaluations):
        rows = [r for r in evaluations if r["opponent"] == opponent]
        steps = [r["steps"] for r in rows]
        ax.plot(steps, [r["win_rate"] for r in rows], marker="o", label=f"vs {opponent} (evaluation)")
        ax.fill_between(steps, [r["low"] for r in rows], [r["high"] for r in rows], alpha=0.2)
    if training:
        ax.plot(
            [r["steps"] for r in training],
            [r["win_rate"] for r in training],
            color="grey",
            alpha=0.6,
            linewidth=1,
            label="vs the opponent pool (training games)",
        )
    ax.axhline(1 / config.players, color="grey", linestyle="--", label="even share")
    for step, name in stages:
        ax.axvline(step, color="black", linewidth=0.8, alpha=0.5)
        ax.annotate(name, (step, 0.01), xytext=(3, 0), textcoords="offset points", va="bottom", fontsize="small")
    ax.set(
        title=f"Learning curve, {config.players} players: win rate with 95% Wilson interval",
        xlabel="learner steps",
        ylabel="wins per game",
        ylim=(0, 1),
    )
    ax.legend(loc="best", fontsize="small")
    fig.savefig(path, dpi=120)


def evaluation(rows: list, path) -> None:
    """Write a PNG of a model's win rate against each opponent, with 95% intervals and the even share."""
    fig = Figure(figsize=(3 + 1.5 * len(rows), 4.5), layout="constrained")
    ax = fig.subplots()
    players = rows[0]["players"]
    win_bars(ax, rows, 1 / players, f"Model win rate, {players} players, 95% Wilson interval", "tab:green")
    ax.set_xticks(range(len(rows)), [r["opponent"] for r in rows])
    fig.savefig(path, dpi=120)

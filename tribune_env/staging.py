"""Positions staged by hand, for tests and debugging: tasks pushed onto a game's stack, then run.

A game is a stack of tasks (:mod:`tribune_env.tasks`); pushing one sets up a decision or an
automatic step that play has not reached, and :func:`resume` runs the stack to the next
decision. The game is then no longer one its seed and moves make (``Game.edited``), so it
saves as a state dump only (``Game.to_dict``).
"""

from __future__ import annotations

from .core import dispatch
from .state import Meta


def push(game, kind, a: int = 0, b: int = 0, c: int = 0) -> None:
    """Push the task (kind, a, b, c) onto the stack: it runs next."""
    n = game.state.meta[Meta.N_TASKS]
    game.state.tasks[n] = (kind, a, b, c)
    game.state.meta[Meta.N_TASKS] = n + 1
    game.edited()


def push_seq(game, *tasks) -> None:
    """Push `tasks` so that the first given runs first."""
    for task in reversed(tasks):
        push(game, *task)


def resume(game) -> None:
    """Run the task stack to the next decision, after the state was edited by hand."""
    game.edited()
    game._run(dispatch.step, dispatch.RUN)

"""Compiled loops over a batch of games held as rows of 2-D arrays (the vector environment).

One call steps or observes every game of the batch, so Python pays its call overhead
once per batch rather than once per game. A row whose action or observer is -1 is left
alone.
"""
from numba import njit

from ..kernel import JIT, views
from ..state import Meta
from .dispatch import step
from .observe import observe


@njit(**JIT)
def step_batch(bufs, ks, ev, masks, actions):
    for i in range(bufs.shape[0]):
        if actions[i] >= 0:
            step(bufs[i], ks[i], ev, masks[i], actions[i])


@njit(**JIT)
def observe_batch(bufs, ks, seg, templates, observers, out):
    for i in range(bufs.shape[0]):
        if observers[i] >= 0:
            observe(bufs[i], ks[i], seg, templates[i], observers[i], out[i])


@njit(**JIT)
def actors(bufs, ks, out):
    """The player to act in each game, or -1 where the game is over."""
    for i in range(bufs.shape[0]):
        s = views(bufs[i], ks[i])
        if s.meta[Meta.STATUS] != 0:
            out[i] = -1
        else:
            out[i] = s.tasks[s.meta[Meta.N_TASKS] - 1, 1]

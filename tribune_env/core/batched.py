"""Compiled loops over a batch of games held as rows of 2-D arrays (the vector environment).

One call steps or observes every game of the batch, so Python pays its call overhead
once per batch rather than once per game. A row whose action or observer is -1 is left
alone.
"""

from ..jit import entry
from ..state import Meta, Status
from .native import step
from .observe import observe


@entry
def step_batch(bufs, ks, ev, masks, actions):
    for i in range(bufs.shape[0]):
        if actions[i] >= 0:
            step(bufs[i], ks[i], ev, masks[i], actions[i])


@entry
def observe_batch(bufs, ks, seg, templates, observers, out):
    for i in range(bufs.shape[0]):
        if observers[i] >= 0:
            observe(bufs[i], ks[i], seg, templates[i], observers[i], out[i])


@entry
def actors(bufs, meta_at, tasks_at, out):
    """The player to act in each game, or -1 where the game is over.

    Reads the two numbers it needs at their buffer offsets: building the state views
    would cost more than the rest of the call.
    """
    for i in range(bufs.shape[0]):
        if bufs[i, meta_at + Meta.STATUS] != Status.RUNNING:
            out[i] = -1
        else:
            out[i] = bufs[i, tasks_at + (bufs[i, meta_at + Meta.N_TASKS] - 1) * 4 + 1]


@entry
def pick_legal(masks, u, out):
    """out[i] = the legal action of row i at uniform position u[i] in [0, 1) among its legal ones,
    or -1 for a row with none."""
    for i in range(masks.shape[0]):
        count = 0
        for a in range(masks.shape[1]):
            count += masks[i, a] != 0
        out[i] = -1
        left = int(u[i] * count)
        for a in range(masks.shape[1]):
            if masks[i, a] != 0:
                if left == 0:
                    out[i] = a
                    break
                left -= 1

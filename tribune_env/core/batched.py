"""Compiled loops over a batch of games held as rows of 2-D arrays (the vector environment).

One call steps, observes or deals every game of a batch (or of a slice of it: the vector
games give each thread its own rows), so Python pays its call overhead once per batch
rather than once per game. A row whose action or observer is -1 is left alone. The loops
release the GIL and share nothing between rows but read-only inputs; each caller passes
its own events buffer.
"""

from .._compiler import compiled, entry
from .._compiler.native import step
from ..kernel import K, below, views
from ..state import Meta, Status
from .common import copy_row
from .dispatch import RUN
from .observe import observe
from .rounds import setup
from .scoring import scores


@entry
def step_observe(bufs, ks, events, masks, actions, meta_at, tasks_at, seg, readers, players, out):
    """Apply each row's action, then write who acts next (-1: the game ended) and, in the games
    that go on, that player's observation where ``readers[row, player]``: the whole of a batch
    step in one call."""
    for i in range(bufs.shape[0]):
        if actions[i] >= 0:
            step(bufs[i], ks[i], events, masks[i], actions[i])
            players[i] = actor(bufs[i], meta_at, tasks_at)
            if players[i] >= 0 and readers[i, players[i]]:
                observe(bufs[i], ks[i], seg, players[i], out[i])


@entry
def deal(bufs, ks, events, masks, rows, words, fresh, kinds_params, drawn, deck, rng_at, kinds):
    """A new game in each of `rows`, as ``Game(seed)`` deals it: the fresh state, the generator
    seeded with that row's `words`, the victory card (``kinds_params`` has one parameter row per
    kind of game) given by ``kinds[row]`` when it is not -1, else drawn from the generator among
    the first `drawn` kinds (0: the first kind, drawing nothing), setup, and on to the first
    decision. ``kinds[row]`` gets the kind's index."""
    for j in range(len(rows)):
        i = rows[j]
        copy_row(bufs[i], 0, fresh)
        copy_row(bufs[i], rng_at, words[j])
        kind = kinds[i]
        if kind < 0:
            kind = below(bufs[i, rng_at : rng_at + 4], drawn) if drawn else 0
        copy_row(ks[i], 0, kinds_params[kind])
        kinds[i] = kind
        setup(bufs[i], ks[i], deck)
        step(bufs[i], ks[i], events, masks[i], RUN)


@entry
def step_batch(bufs, ks, events, masks, actions):
    for i in range(bufs.shape[0]):
        if actions[i] >= 0:
            step(bufs[i], ks[i], events, masks[i], actions[i])


@entry
def observe_batch(bufs, ks, seg, observers, out):
    for i in range(bufs.shape[0]):
        if observers[i] >= 0:
            observe(bufs[i], ks[i], seg, observers[i], out[i])


@entry
def observe_rows(bufs, ks, seg, rows, players, readers, out):
    """In each of `rows` whose game goes on, its player to act's observation where
    ``readers[row, player]``: what a step writes, for the rows a thread has just played."""
    for j in range(len(rows)):
        i = rows[j]
        if players[i] >= 0 and readers[i, players[i]]:
            observe(bufs[i], ks[i], seg, players[i], out[i])


@entry
def results(bufs, ks, points, won):
    """Each finished game's final points and winners (``won``, bool), a seat a column: what a
    batch reports of the games that ended, without a ``Game`` for each."""
    for i in range(bufs.shape[0]):
        state = views(bufs[i], ks[i])
        final = scores(state, ks[i])
        for p in range(ks[i, K.N]):
            points[i, p] = final[p]
            won[i, p] = state.winner[p] != 0


@compiled(inline="always")
def actor(buf, meta_at, tasks_at):
    """The player to act in a game, or -1 once it is over.

    Reads the two numbers it needs at their buffer offsets: building the state views
    would cost more than the rest of the call.
    """
    if buf[meta_at + Meta.STATUS] != Status.RUNNING:
        return -1
    return buf[tasks_at + (buf[meta_at + Meta.N_TASKS] - 1) * 4 + 1]


@entry
def actors(bufs, meta_at, tasks_at, out):
    """The player to act in each game, or -1 where the game is over."""
    for i in range(bufs.shape[0]):
        out[i] = actor(bufs[i], meta_at, tasks_at)


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

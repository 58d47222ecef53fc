"""The leaves of a root search for many games at once, in compiled code: worlds, moves, rollouts.

For each root (a game in a row of a batch, its seat to act, its candidate moves) the search
samples `worlds` determinisations for that seat, plays each candidate in each world (the
same worlds for every candidate: the luck of the deal cancels out of their differences),
rolls the heuristic on to the end of the round and writes the seat's observation of where
the rollout ended, for a network to value all leaves of all roots in one forward pass. No
Python object per world: one call, without the GIL, over rows of 2-D arrays.
"""

from __future__ import annotations

import numpy as np

from tribune_env._compiler import native
from tribune_env.core.common import copy_row
from tribune_env.core.events import CAPACITY, WIDTH
from tribune_env.core.observe import observe
from tribune_env.core.worlds import determinize
from tribune_env.kernel import views
from tribune_env.state import Meta, Status

from .compiled import entry
from .heuristic import rollout

RUNNING, ENDED, EMPTY = 0, 1, -1  # a leaf's status: valued by the network, by the rules, or no candidate


def leaves(bufs, ks, roots, seats, candidates, words, rounds, deck_counts, seg, out):
    """Fill `out` (a :class:`Leaves`) for the roots in rows `roots` of `bufs` and `ks` (see the module)."""
    native.ready()
    _leaves(bufs, ks, roots, seats, candidates, words, rounds, deck_counts, seg,
            out.buffers, out.masks, out.observations, out.status)  # fmt: skip


class Leaves:
    """Preallocated leaves of `roots` roots x `worlds` worlds x `candidates` moves: each leaf's
    state buffer and mask (kept, so that the rules can score a leaf whose game ended), its
    observation by the root's seat and its status (``RUNNING``, ``ENDED`` or ``EMPTY``)."""

    def __init__(self, roots: int, worlds: int, candidates: int, buffer_size: int, actions: int, obs_size: int):
        count = roots * worlds * candidates
        self.shape = (roots, worlds, candidates)
        self.buffers = np.zeros((count, buffer_size), dtype=np.int32)
        self.masks = np.zeros((count, actions), dtype=np.int8)
        self.observations = np.zeros((count, obs_size), dtype=np.float32)
        self.status = np.full(count, EMPTY, dtype=np.int8)


@entry
def _leaves(bufs, ks, roots, seats, candidates, words, rounds, deck_counts, seg,
            leaf_bufs, leaf_masks, leaf_obs, status):  # fmt: skip
    worlds, width = words.shape[1], candidates.shape[1]
    world = np.empty(bufs.shape[1], dtype=np.int32)
    world_mask = np.empty(leaf_masks.shape[1], dtype=np.int8)
    events = np.zeros((CAPACITY, WIDTH), dtype=np.int32)
    for g in range(len(roots)):
        i, seat = roots[g], seats[g]
        for w in range(worlds):
            copy_row(world, 0, bufs[i])
            determinize(world, ks[i], seat, words[g, w], world_mask)
            for c in range(width):
                j = (g * worlds + w) * width + c
                action = candidates[g, c]
                if action < 0 or world_mask[action] == 0:
                    status[j] = EMPTY
                    continue
                leaf, mask = leaf_bufs[j], leaf_masks[j]
                copy_row(leaf, 0, world)
                copy_row(mask, 0, world_mask)
                events[0, 0] = 0
                native.step(leaf, ks[i], events, mask, action)
                rollout(leaf, ks[i], mask, deck_counts, rounds, 100_000, events)
                if views(leaf, ks[i]).meta[Meta.STATUS] == Status.RUNNING:
                    status[j] = RUNNING
                    observe(leaf, ks[i], seg, seat, leaf_obs[j])
                else:
                    status[j] = ENDED

"""Sample a full game consistent with one player's information (for IS-MCTS).

What is hidden and how it is re-dealt is :mod:`tribune_env.core.worlds`, compiled; this
module gives it a :class:`Game` of its own: a clone whose log is the player's own view of
the log (:meth:`Game.seat_log`) and which no seed and moves make. ``observe(player)`` is
the same in it.
"""

from __future__ import annotations

import numpy as np

from .core import worlds


def determinize(game, player: int, rng: np.random.Generator | None = None):
    """A clone of `game` with everything hidden from `player` re-dealt by `rng`."""
    player = game.seat(player)
    if rng is None:  # derived from the game's generator, which is left untouched
        rng = np.random.default_rng(game.state.rng.view(np.uint32).tolist())
    world = game.clone()
    world.edited()  # a world of its own, which no seed and moves make
    world.log = game.seat_log(player)
    buffer, params, mask = world.handle
    worlds.determinize(buffer, params, player, sampler_words(rng, 1)[0], mask)
    return world


def sampler_words(rng: np.random.Generator, count: int) -> np.ndarray:
    """(count, 4) int32: a generator for each of `count` determinisations, drawn from `rng`.

    Raw draws of its bit generator, the cheapest it makes: words for n worlds at once are
    the words of n draws one at a time, so a batch samples what single calls would.
    """
    raw = rng.bit_generator.random_raw(2 * count)
    words = raw.view(np.int32).reshape(count, 4)
    if not raw.all():  # a zero draw (1 in 2**64): xoshiro never leaves the all-zero state
        words[~words.any(axis=1), 0] = 1
    return words

"""Stage 3: every array entry within what its field can hold in this game."""

from __future__ import annotations

import numpy as np

from ..data import NUM_CARD_TYPES, NUM_FACTIONS, NUM_VALUES
from ..state import RESOURCES, TRIBUNE, Meta
from .limits import MAX_AMOUNT, MAX_STACK, fail
from .stack import check_task_rows


def _bounds(game) -> dict:
    """Inclusive (low, high) of every array's entries, for a game of this size."""
    n, d = game.n, game.data
    card = NUM_CARD_TYPES - 1
    copies = game.deck_counts  # a count of card c is at most its copies
    per_value = game.deck_counts.reshape(NUM_FACTIONS, NUM_VALUES)
    followers = d.followers[n] + 1  # the proconsul is one more
    resources = np.array([MAX_AMOUNT, MAX_AMOUNT, MAX_AMOUNT, TRIBUNE, 1, NUM_FACTIONS])
    return {
        "hand": (0, copies),
        "draw": (-1, card),
        "discard_public": (0, copies),
        "discard_hidden": (0, copies),
        "sets": (0, per_value),
        "controller": (-1, n - 1),
        "first_laurel": (0, 1),
        "markers": (0, 1),
        "res": (0, resources),
        "followers": (0, followers),
        "coin_bowl": (0, followers),
        "space_owner": (-1, n - 1),
        "field_owner": (-1, n - 1),
        "slot_card": (-1, card),
        "slot_up": (0, 1),
        "curia": (0, copies),
        "catacombs": (0, copies),
        "pantheon_seen": (0, 1),
        "catacombs_seen": (0, copies),
        "catacombs_bought": (-1, card),
        "known": (0, copies),
        "bids": (0, MAX_AMOUNT),
        "committed": (0, 1),
        "mars_pairs": (0, copies),
        "build": (0, copies),
        "challenger": (0, per_value.max(axis=0)),
        "declared": (-1, n - 1),
        "winner": (0, 1),
    }


def _meta_bounds(game) -> dict:
    n, d = game.n, game.data
    return {
        "round": (0, game.round_limit),
        "phase": (0, 6),
        "start_player": (0, n - 1),
        "coin_bowl_used": (0, n * d.followers[n] + 1),
        "colosseum": (0, MAX_AMOUNT),
        "chariot": (-1, NUM_FACTIONS - 1),
        "proconsul": (-1, n - 1),
        "temp_favor": (-1, n - 1),
        "draw_n": (0, d.deck_size()),
        "n_tasks": (0, MAX_STACK),
        "n_declared": (0, n),
        "status": (0, 2),
        "challenger": (-1, n - 1),
        "reshuffles": (0, MAX_AMOUNT),
    }


def check_ranges(game, arrays):
    """Every entry within its field's range, and absent seats empty (before anything runs)."""
    for name, (low, high) in _bounds(game).items():
        a = arrays[name]
        bad = (a < low) | (a > high)
        if bad.any():
            at = tuple(int(i) for i in np.argwhere(bad)[0])
            lo, hi = (int(np.broadcast_to(x, a.shape)[at]) for x in (low, high))
            where = f"{RESOURCES[at[1]]} of player_{at[0]}" if name == "res" else f"at {list(at)}"
            what = "a negative amount" if name == "res" and a[at] < 0 else int(a[at])
            fail(f"array {name!r} holds {what} ({where}), outside {lo}..{hi}")
    meta = arrays["meta"]
    for key, (low, high) in _meta_bounds(game).items():
        if not low <= meta[Meta[key.upper()]] <= high:
            fail(f"meta {key} is {int(meta[Meta[key.upper()]])}, outside {low}..{high}")
    n = game.n
    for name in (
        "hand",
        "markers",
        "res",
        "followers",
        "coin_bowl",
        "pantheon_seen",
        "catacombs_seen",
        "known",
        "bids",
        "committed",
        "winner",
    ):
        if arrays[name][n:].any():
            fail(f"array {name!r} gives something to an absent seat")
    if (arrays["declared"][n:] != -1).any():
        fail("array 'declared' records an absent seat")
    draw_n = int(meta[Meta.DRAW_N])
    if (arrays["draw"][:draw_n] < 0).any() or (arrays["draw"][draw_n:] != -1).any():
        fail("the draw pile must hold card codes up to draw_n and -1 after")
    if not arrays["rng"].any():
        fail("the generator (rng) state is all zero")
    check_task_rows(game, arrays["tasks"], int(meta[Meta.N_TASKS]))

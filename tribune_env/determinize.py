"""Sample a full game state consistent with one player's information (for IS-MCTS).

Hidden from a player: other hands, the order and content of the draw pile, face-down
discards, face-down board cards it has not seen, other players' sealed bids and
face-down Field of Mars pairs, and another player's set under construction. These are
pooled and dealt again at random into the same places with the same sizes; everything
the player's observation shows is kept, so ``observe(player)`` is unchanged.
"""

from __future__ import annotations

import numpy as np

from .core import dispatch
from .core.bids import entered_part
from .core.visibility import hidden_pairs as hidden_pairs_of
from .core.visibility import hidden_slots as hidden_slots_of
from .data import NUM_CARD_TYPES, NUM_VALUES
from .kernel import seed_words
from .state import MONEY, Meta
from .tasks import Task


def determinize(game, player: int, rng: np.random.Generator | None = None):
    """A clone of `game` with everything hidden from `player` re-dealt by `rng`.

    Whatever decision waits stays consistent: the engine puts a decision to its player
    even when only that player's hidden cards leave it one legal action, so the
    decision's presence tells `player` nothing that a re-deal could contradict.
    """
    player = game.seat(player)
    if rng is None:  # derived from the game's generator, which is left untouched
        rng = np.random.default_rng(game.state.rng.view(np.uint32).tolist())
    return _sample(game, player, rng)


def _sample(game, player, rng):
    """One re-deal of everything hidden from `player`."""
    g = game.clone()
    g.state.rng[:] = seed_words(rng.integers(2**63))  # the sampled world's future differs too
    pool = np.zeros(NUM_CARD_TYPES, dtype=np.int64)
    others = [q for q in range(g.n) if q != player]
    decision = g.decision()
    if decision is not None and decision[1] != player:
        g.state.build[:] = 0  # someone else's unfinished set is unknown
    for q in others:
        pool += g.state.hand[q]
    n_draw = int(g.state.meta[Meta.DRAW_N])
    pool += np.bincount(g.state.draw[:n_draw], minlength=NUM_CARD_TYPES)
    pool += g.state.discard_hidden
    hidden_slots = hidden_slots_of(g.handle.buffer, g.handle.params, player)
    for slot in hidden_slots:
        pool[g.state.slot_card[slot]] += 1
    seen = g.state.catacombs_seen[player].astype(np.int64)
    catacombs_hidden = g.state.catacombs.any() and not np.array_equal(seen, g.state.catacombs)
    if catacombs_hidden:
        pool += g.state.catacombs
    hidden_pairs = hidden_pairs_of(g.handle.buffer, g.handle.params, player)
    for i in hidden_pairs:
        pool += g.state.mars_pairs[i]

    for i in hidden_pairs:  # pairs first: they must be of one faction
        pair = _sample_pair(pool, rng)
        if pair is not None:
            g.state.mars_pairs[i] = pair
        pool -= g.state.mars_pairs[i]
    if catacombs_hidden and seen.any():
        # it saw the pile before others bought from it: the pile is some part of what it saw
        g.state.catacombs[:] = _sample_subset(seen, int(g.state.catacombs.sum()), rng)
        pool -= g.state.catacombs
        catacombs_hidden = False
    cards = np.repeat(np.arange(NUM_CARD_TYPES, dtype=np.int32), pool)
    rng.shuffle(cards)
    at = 0

    def take(k):
        nonlocal at
        at += k
        return cards[at - k : at]

    for q in others:
        g.state.hand[q] = np.bincount(take(int(g.state.hand[q].sum())), minlength=NUM_CARD_TYPES)
    for slot in hidden_slots:
        g.state.slot_card[slot] = take(1)[0]
    if catacombs_hidden:
        g.state.catacombs[:] = np.bincount(take(int(g.state.catacombs.sum())), minlength=NUM_CARD_TYPES)
    for q in others:  # what others last saw of the pile held it all
        if g.state.catacombs_seen[q].any():
            g.state.catacombs_seen[q] = np.maximum(g.state.catacombs_seen[q], g.state.catacombs)
    if decision is not None and decision[0] == Task.CATACOMBS_CHOICE:
        g.state.catacombs_seen[decision[1]] = g.state.catacombs  # its buyer looks at the pile right now
    g.state.discard_hidden[:] = np.bincount(take(int(g.state.discard_hidden.sum())), minlength=NUM_CARD_TYPES)
    g.state.draw[:n_draw] = take(n_draw)
    assert at == len(cards)
    if decision is not None and decision[0] in (Task.ATRIUM_BID, Task.CHARIOT_BID):
        _sample_bids(g, others, decision, rng)
    dispatch.legal_mask(*g.handle)  # the same decision waits
    return g


def _sample_bids(g, others, decision, rng):
    """Other players' sealed bids, committed or (the bidder's) partly entered, not yet revealed."""
    _, actor, entered, _ = decision
    for q in others:
        amount = int(rng.integers(int(g.state.res[q, MONEY]) + 1))
        if g.state.committed[q]:
            g.state.bids[q] = amount
        elif q == actor:
            g.state.bids[q] = entered_part(g.handle.buffer, g.handle.params, q, entered, amount)


def _sample_subset(counts, size, rng):
    """`size` cards drawn at random, without replacement, from the multiset `counts`."""
    cards = np.repeat(np.arange(NUM_CARD_TYPES), counts)
    chosen = rng.choice(cards, size=size, replace=False)
    return np.bincount(chosen, minlength=NUM_CARD_TYPES)


def _sample_pair(pool, rng):
    """Two cards of one faction from the pool, or None if no faction has two."""
    by_faction = pool.reshape(-1, NUM_VALUES).sum(axis=1)
    weights = by_faction * (by_faction - 1)
    if not weights.any():
        return None
    f = rng.choice(len(weights), p=weights / weights.sum())
    values = np.repeat(np.arange(NUM_VALUES), pool[f * NUM_VALUES : (f + 1) * NUM_VALUES])
    chosen = rng.choice(values, size=2, replace=False)
    pair = np.zeros(NUM_CARD_TYPES, dtype=np.int64)
    for v in chosen:
        pair[f * NUM_VALUES + v] += 1
    return pair

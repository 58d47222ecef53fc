"""Sample a full game state consistent with one player's information (for IS-MCTS).

Hidden from a player: other hands, the order and content of the draw pile, face-down
discards, face-down board cards it has not seen, other players' sealed bids and
face-down Field of Mars pairs, and another player's set under construction. These are
pooled and dealt again at random into the same places with the same sizes; everything
the player's observation shows is kept, so ``observe(player)`` is unchanged.
"""
from __future__ import annotations

import numpy as np

from .data import NUM_CARD_TYPES, NUM_VALUES
from .core import dispatch
from .core.bids import entered_part
from .core.visibility import hidden_slots as hidden_slots_of
from .kernel import seed_words
from .state import M, MONEY
from .tasks import Task


def determinize(game, player: int, rng: np.random.Generator | None = None):
    """A clone of `game` with everything hidden from `player` re-dealt by `rng`.

    Whatever decision waits stays consistent: the engine puts a decision to its player
    even when only that player's hidden cards leave it one legal action, so the
    decision's presence tells `player` nothing that a re-deal could contradict.
    """
    player = game.seat(player)
    if rng is None:       # derived from the game's generator, which is left untouched
        rng = np.random.default_rng(game.rng.view(np.uint32).tolist())
    return _sample(game, player, rng)


def _sample(game, player, rng):
    """One re-deal of everything hidden from `player`."""
    g = game.clone()
    g.rng[:] = seed_words(rng.integers(2**63))  # the sampled world's future differs too
    pool = np.zeros(NUM_CARD_TYPES, dtype=np.int64)
    others = [q for q in range(g.n) if q != player]
    decision = g.decision()
    if decision is not None and decision[1] != player:
        g.build[:] = 0                          # someone else's unfinished set is unknown
    for q in others:
        pool += g.hand[q]
    n_draw = int(g.meta[M["draw_n"]])
    pool += np.bincount(g.draw[:n_draw], minlength=NUM_CARD_TYPES)
    pool += g.discard_hidden
    hidden_slots = hidden_slots_of(g._buffer, g._params, player)
    for slot in hidden_slots:
        pool[g.slot_card[slot]] += 1
    seen = g.catacombs_seen[player].astype(np.int64)
    catacombs_hidden = g.catacombs.any() and not np.array_equal(seen, g.catacombs)
    if catacombs_hidden:
        pool += g.catacombs
    mars = g.board.spaces["Field of Mars"]
    hidden_pairs = [i for i, s in enumerate(mars)
                    if g.space_owner[s] != player and g.mars_pairs[i].sum() == 2]
    for i in hidden_pairs:
        pool += g.mars_pairs[i]

    for i in hidden_pairs:                      # pairs first: they must be of one faction
        pair = _sample_pair(pool, rng)
        if pair is not None:
            g.mars_pairs[i] = pair
        pool -= g.mars_pairs[i]
    if catacombs_hidden and seen.any():
        # it saw the pile before others bought from it: the pile is some part of what it saw
        g.catacombs[:] = _sample_subset(seen, int(g.catacombs.sum()), rng)
        pool -= g.catacombs
        catacombs_hidden = False
    cards = np.repeat(np.arange(NUM_CARD_TYPES, dtype=np.int32), pool)
    rng.shuffle(cards)
    at = 0

    def take(k):
        nonlocal at
        at += k
        return cards[at - k: at]

    for q in others:
        g.hand[q] = np.bincount(take(int(g.hand[q].sum())), minlength=NUM_CARD_TYPES)
    for slot in hidden_slots:
        g.slot_card[slot] = take(1)[0]
    if catacombs_hidden:
        g.catacombs[:] = np.bincount(take(int(g.catacombs.sum())), minlength=NUM_CARD_TYPES)
    for q in others:                            # what others last saw of the pile held it all
        if g.catacombs_seen[q].any():
            g.catacombs_seen[q] = np.maximum(g.catacombs_seen[q], g.catacombs)
    if decision is not None and decision[0] == Task.CATACOMBS_CHOICE:
        g.catacombs_seen[decision[1]] = g.catacombs     # its buyer looks at the pile right now
    g.discard_hidden[:] = np.bincount(take(int(g.discard_hidden.sum())), minlength=NUM_CARD_TYPES)
    g.draw[:n_draw] = take(n_draw)
    assert at == len(cards)
    if decision is not None and decision[0] in (Task.ATRIUM_BID, Task.CHARIOT_BID):
        _sample_bids(g, others, decision, rng)
    dispatch.legal_mask(g._buffer, g._params, g._mask)   # the same decision waits
    return g


def _sample_bids(g, others, decision, rng):
    """Other players' sealed bids, committed or (the bidder's) partly entered, not yet revealed."""
    _, actor, entered, _ = decision
    for q in others:
        amount = int(rng.integers(int(g.res[q, MONEY]) + 1))
        if g.committed[q]:
            g.bids[q] = amount
        elif q == actor:
            g.bids[q] = entered_part(g._buffer, g._params, q, entered, amount)


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
    values = np.repeat(np.arange(NUM_VALUES), pool[f * NUM_VALUES:(f + 1) * NUM_VALUES])
    chosen = rng.choice(values, size=2, replace=False)
    pair = np.zeros(NUM_CARD_TYPES, dtype=np.int64)
    for v in chosen:
        pair[f * NUM_VALUES + v] += 1
    return pair

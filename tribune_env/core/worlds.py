"""Worlds sampled for one seat: everything hidden from it re-dealt at random (for search).

Hidden from a player: other hands, the order and content of the draw pile, face-down
discards, face-down board cards it has not seen, other players' sealed bids and
face-down Field of Mars pairs, another player's set under construction, which cards the
others bought in the Catacombs and what they remember of that pile. These are pooled and
dealt again at random into the same places with the same sizes, keeping what the player
knows: the cards every player saw go into a hand stay in it (``known``), the Catacombs
cards the player examined are the pile and the later buyers' purchases, and each other
examiner remembers the pile as it stood in this world. Everything the player's
observation shows is kept, so its observation is unchanged.

:func:`determinize` re-deals a state buffer in place, so a search copies a game into a row
of its own and samples there, with no Python object per world; ``Game.determinize`` wraps
it. It draws from a generator of the engine's kind (four words, ``kernel.next_u32``) that
the caller passes and that advances, so the same words give the same world, and it
re-seeds the world's own generator from them. Every draw is made from counts of cards,
never from where the true cards lie, so a world depends on what the player knows alone.
"""

import numpy as np

from .._compiler import compiled, entry
from ..data import CATACOMBS, NUM_CARD_TYPES, NUM_FACTIONS, NUM_VALUES
from ..kernel import K, below, next_u32, shuffle, views
from ..state import MONEY, Meta, Status
from ..tasks import BIDS, Task
from .bids import entered_part
from .common import top_task
from .dispatch import legal_mask
from .visibility import hidden_pairs, hidden_slots

V = NUM_VALUES


@entry
def determinize(buf, params, player, rng, mask):
    """Re-deal in place everything of the game in `buf` hidden from `player`, drawing from
    `rng`, and write the world's legal mask into `mask`.

    Whatever decision waits stays consistent: the engine puts a decision to its player even
    when only that player's hidden cards leave it one legal action, so the decision's
    presence tells `player` nothing that a re-deal could contradict.
    """
    redeal(buf, params, player, rng)
    legal_mask(buf, params, mask)  # the same decision waits


@compiled
def redeal(buf, params, player, rng):
    """:func:`determinize` without the mask. For the player to act it is the game's own: a
    seat's options depend only on what it knows, so a world has the same legal actions."""
    state = views(buf, params)
    reseed(rng, state.rng)  # the world's future differs too
    kind, actor, b = waiting(state)
    if kind >= 0 and actor != player:
        state.build[:] = 0  # someone else's unfinished set is unknown
    looks = examinations(state, params, kind, b)
    last = last_look(looks, player)
    # the pile is hidden from a seat that never examined it, or once others have examined it since
    pile_hidden = state.catacombs.any() if last < 0 else last < len(looks) - 1
    slots, pairs = hidden_slots(state, params, player), hidden_pairs(state, params, player)
    pool = hidden_cards(state, params, player, slots, pairs, pile_hidden)
    hands = state.known.astype(np.int64)  # each other hand's cards fixed so far
    for i in pairs:  # pairs first: they must be of one faction
        deal_pair(pool, rng, state.mars_pairs[i])
        pool -= state.mars_pairs[i]
    purchases(state, looks, last, pile_hidden, player, pool, hands, rng)
    deal(
        state, params, player, slots, pile_hidden and last < 0, looks, pool, hands, rng
    )  # a pile never seen: from the pool
    if kind in BIDS:
        deal_bids(buf, params, state, player, actor, b, rng)


@compiled
def reseed(rng, words):
    """Four fresh words from `rng` for the generator `words` (never all zero, which xoshiro never leaves)."""
    for i in range(4):
        x = np.int64(next_u32(rng))
        words[i] = x - ((x >> 31) << 32)
    if not words.any():
        words[0] = 1


@compiled
def waiting(state):
    """(kind, player, b) of the decision waiting; kind -1 once the game is over."""
    if state.meta[Meta.STATUS] != Status.RUNNING:
        return -1, -1, 0
    top = top_task(state)
    return int(state.tasks[top, 0]), int(state.tasks[top, 1]), int(state.tasks[top, 2])


@compiled
def hidden_cards(state, params, player, slots, pairs, pile_hidden):
    """Counts by card of all that `player` cannot see: the others' hands beyond their known
    cards, the draw pile, the face-down discards, the board cards and pairs it cannot see,
    and the Catacombs pile when hidden."""
    pool = np.zeros(NUM_CARD_TYPES, dtype=np.int64)
    for q in range(params[K.N]):
        if q != player:
            pool += state.hand[q] - state.known[q]
    for i in range(state.meta[Meta.DRAW_N]):
        pool[state.draw[i]] += 1
    pool += state.discard_hidden
    for slot in slots:
        pool[state.slot_card[slot]] += 1
    if pile_hidden:
        pool += state.catacombs
    for i in pairs:
        pool += state.mars_pairs[i]
    return pool


@compiled
def deal(state, params, player, slots, pile, looks, pool, hands, rng):
    """Shuffle the pool and deal it into the others' hands (beyond `hands`), the hidden board
    slots, the Catacombs pile when `pile`, the face-down discards and the draw pile; then
    each other examiner remembers the pile of this world."""
    cards = cards_of(pool)
    shuffle(rng, cards)
    at = 0
    for q in range(params[K.N]):
        if q != player:
            count = state.hand[q].sum() - hands[q].sum()
            count_into(state.hand[q], cards[at : at + count])
            state.hand[q] += hands[q]
            at += count
    for slot in slots:
        state.slot_card[slot] = cards[at]
        at += 1
    if pile:
        count = state.catacombs.sum()
        count_into(state.catacombs, cards[at : at + count])
        at += count
    remember(state, looks, player)
    count = state.discard_hidden.sum()
    count_into(state.discard_hidden, cards[at : at + count])
    at += count
    count = state.meta[Meta.DRAW_N]
    state.draw[:count] = cards[at : at + count]
    if at + count != len(cards):
        raise ValueError("the hidden cards do not fill the places they came from: the game state is corrupt")


@compiled
def deal_pair(pool, rng, pair):
    """Two cards of one faction of the pool into `pair` (left as it is if no faction has two)."""
    weights = np.zeros(NUM_FACTIONS, dtype=np.int64)
    for f in range(NUM_FACTIONS):
        count = pool[f * V : (f + 1) * V].sum()
        weights[f] = count * (count - 1)
    if weights.sum() == 0:
        return
    f = pick(weights, rng)
    cards = pool[f * V : (f + 1) * V].copy()
    pair[:] = 0
    for _ in range(2):
        v = pick(cards, rng)
        cards[v] -= 1
        pair[f * V + v] += 1


@compiled
def deal_bids(buf, params, state, player, actor, entered, rng):
    """Other players' sealed bids, committed or (the bidder's) partly entered, not yet revealed."""
    for q in range(params[K.N]):
        if q == player:
            continue
        amount = below(rng, state.res[q, MONEY] + 1)
        if state.committed[q]:
            state.bids[q] = amount
        elif q == actor:
            state.bids[q] = entered_part(buf, params, q, entered, amount)


# ---------------------------------------------------------------- the Catacombs under way
@compiled
def examinations(state, params, kind, current):
    """(examiner, space) of each examination of the Catacombs pile so far, in order, the one
    under way (on top of the stack) last; none outside a Catacombs choice."""
    count = current + 1 if kind == Task.CATACOMBS_CHOICE else 0
    looks = np.empty((count, 2), dtype=np.int64)
    n = 0
    for i in range(count):
        q = state.space_owner[params[K.FIRST_SPACE + CATACOMBS] + i]
        if q >= 0:
            looks[n, 0], looks[n, 1] = q, i
            n += 1
    return looks[:n]


@compiled
def last_look(looks, q):
    """Index of `q`'s last examination in `looks`, or -1."""
    for t in range(len(looks) - 1, -1, -1):
        if looks[t, 0] == q:
            return t
    return -1


@compiled
def purchases(state, looks, last, pile_hidden, player, pool, hands, rng):
    """The pile and the others' purchases, each into its buyer's hand: after the player's last
    look, from the pile it saw (which held every card bought since); before it, or if it never
    looked, any card of the pool. The player's own memory and purchases stay."""
    bought = state.catacombs_bought
    if last >= 0 and pile_hidden:  # what it saw is the pile now and one card for each later purchase
        seen = state.catacombs_seen[player]
        pool -= seen
        cards = cards_of(seen)
        shuffle(rng, cards)
        used = 0
        for t in range(last + 1, len(looks)):
            if bought[looks[t, 1]] >= 0:
                buy(state, looks[t], cards[used], hands)
                used += 1
        count_into(state.catacombs, cards[used:])
    for t in range(len(looks) if last < 0 else last):
        if bought[looks[t, 1]] >= 0 and looks[t, 0] != player:
            card = pick(pool, rng)
            pool[card] -= 1
            buy(state, looks[t], card, hands)


@compiled
def buy(state, look, card, hands):
    """`card` was bought at the examination `look` (examiner, space)."""
    state.catacombs_bought[look[1]] = card
    hands[look[0], card] += 1


@compiled
def remember(state, looks, player):
    """Each other examiner remembers the pile now and what was bought after its last look."""
    for t in range(len(looks)):
        q = looks[t, 0]
        if q == player or last_look(looks, q) != t:
            continue
        state.catacombs_seen[q] = state.catacombs
        for later in range(t + 1, len(looks)):
            card = state.catacombs_bought[looks[later, 1]]
            if card >= 0:
                state.catacombs_seen[q, card] += 1


# ---------------------------------------------------------------- counts and cards
@compiled
def pick(weights, rng):
    """An index drawn with probability proportional to its weight (from counts of cards: a card uniformly)."""
    u = below(rng, weights.sum())
    for i in range(len(weights)):
        u -= weights[i]
        if u < 0:
            return i
    return len(weights) - 1


@compiled
def cards_of(counts):
    """The cards of counts by card, in card order."""
    cards = np.empty(counts.sum(), dtype=np.int32)
    at = 0
    for code in range(len(counts)):
        cards[at : at + counts[code]] = code
        at += counts[code]
    return cards


@compiled
def count_into(counts, cards):
    """Counts by card of a list of cards, written into `counts` (a state's own array: no new one)."""
    counts[:] = 0
    for card in cards:
        counts[card] += 1

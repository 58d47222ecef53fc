"""Setup, setup discards, Phase 1 (dealing the card fields), drawing, the cesura magna, the end of a round."""

import numpy as np

from .._compiler import compiled, entry
from ..data import ATRIUM, LATRINE, NUM_CARD_TYPES, NUM_FACTIONS, NUM_VALUES, PANTHEON
from ..kernel import K, below, shuffle, views
from ..state import MONEY, Meta, Status
from ..tasks import Task
from .common import discard, discard_all, draw_card, push, reshuffle, say, seen_leaving, start_order, unseen_leaving
from .events import Ev
from .scoring import finish


@entry
def setup(buf, k, deck):
    """Rulebook setup 5-8 on a fresh state: shuffle `deck` into the draw pile, choose the starting
    player, give each seat its denarii and cards; then the setup discards and the first round.
    Returns the starting player.

    A lone game (:class:`~tribune_env.engine.Game`) and a batch's new deals
    (:func:`tribune_env.core.batched.deal`) both run it, so a batch deals as a lone game does.
    """
    s = views(buf, k)
    s.meta[Meta.TEMP_FAVOR] = -1
    s.meta[Meta.CHARIOT] = -1
    s.meta[Meta.PROCONSUL] = -1
    s.meta[Meta.CHALLENGER] = -1
    cards = deck.copy()
    shuffle(s.rng, cards)
    s.draw[: len(cards)] = cards
    n = k[K.N]
    start = below(s.rng, n)
    s.meta[Meta.START_PLAYER] = start
    top = len(cards)
    for i in range(n):
        p = (start + i) % n
        s.res[p, MONEY] = k[K.STARTING_MONEY] + i
        for _ in range(k[K.SETUP_DEAL]):
            top -= 1
            s.hand[p, s.draw[top]] += 1
            s.draw[top] = -1
    s.meta[Meta.DRAW_N] = top
    push(s, Task.ROUND_START)  # pushed last first: the first to run is on top
    push(s, Task.SETUP_FINISH)
    for i in range(n - 1, -1, -1):
        push(s, Task.SETUP_DISCARD, (start + i) % n)
    return start


@compiled
def mask_discard_down(s, k, m, kind, player):
    """Cards still to pick for a discard down to the setup's or the cesura's limit, then commit."""
    keep = k[K.SETUP_KEEP] if kind == Task.SETUP_DISCARD else k[K.CESURA_HAND_LIMIT]
    if s.hand[player].sum() - s.build.sum() > keep:
        d = k[K.A_DISCARD]
        for c in range(NUM_CARD_TYPES):
            m[d + c] = s.hand[player, c] > s.build[c]
    else:
        m[k[K.A_COMMIT]] = 1


@compiled
def apply_discard_down(s, k, ev, action, kind, player):
    """Pick a card, or commit: the setup's discard is face down (nobody learns the cards), the cesura's face up."""
    public = kind == Task.CESURA_DISCARD
    if action == k[K.A_COMMIT]:
        s.hand[player] -= s.build
        discard_all(s, s.build, public)
        if public:
            for c in range(NUM_CARD_TYPES):
                seen_leaving(s, player, c, s.build[c])
        else:
            unseen_leaving(s, player, s.build.sum())
        say(k, ev, Ev.DISCARDS, player, s.build.sum())
        s.build[:] = 0
    else:
        s.build[action - k[K.A_DISCARD]] += 1
        push(s, kind, player)


@compiled
def setup_finish(s, k, ev):
    """Shuffle the (face-down) setup discards back into the deck."""
    n = s.meta[Meta.DRAW_N]
    cards = np.empty(n + s.discard_hidden.sum(), dtype=np.int32)
    cards[:n] = s.draw[:n]
    i = n
    for c in range(NUM_CARD_TYPES):
        for _ in range(s.discard_hidden[c]):
            cards[i] = c
            i += 1
    shuffle(s.rng, cards)
    s.draw[: len(cards)] = cards
    s.meta[Meta.DRAW_N] = len(cards)
    s.discard_hidden[:] = 0


@compiled
def round_start(s, k, ev):
    """Phase 1: fill the card fields in region order."""
    s.meta[Meta.ROUND] += 1
    s.meta[Meta.PHASE] = 1
    s.meta[Meta.COIN_BOWL_USED] = 0
    s.coin_bowl[:] = 0
    say(k, ev, Ev.ROUND, s.meta[Meta.ROUND], s.meta[Meta.START_PLAYER])
    push(s, Task.PHASE2)
    for slot in range(k[K.SL_END] - 1, k[K.SL + PANTHEON] - 1, -1):
        push(s, Task.DEAL, slot)
    for _ in range(k[K.CATACOMB_CARDS]):
        push(s, Task.DEAL_CATACOMBS)
    for slot in range(k[K.SL + PANTHEON] - 1, k[K.SL + ATRIUM] - 1, -1):
        push(s, Task.DEAL, slot)
    for stack in range(s.curia.shape[0] - 1, -1, -1):
        push(s, Task.DEAL_CURIA, stack)
    for slot in range(k[K.SL + ATRIUM] - 1, -1, -1):
        push(s, Task.DEAL, slot)


@compiled
def deal(s, k, ev, slot, retry):
    card = draw_card(s, k, ev, Task.DEAL, slot, 0, retry)
    if card >= 0:
        s.slot_card[slot] = card
        s.slot_up[slot] = slot < k[K.SL + LATRINE]  # Thermae and Forum face up, the rest face down


@compiled
def draw(s, k, ev, player, retry):
    card = draw_card(s, k, ev, Task.DRAW, player, 0, retry)
    if card >= 0:
        s.hand[player, card] += 1
        say(k, ev, Ev.DRAW, player)


@compiled
def cesura_sets(s, k, ev):
    """Displayed sets lose their lowest cards, at most two and never below the minimum set
    (rulebook: sets of 4+ lose two, 3-card sets one); then reshuffle."""
    for f in range(NUM_FACTIONS):
        lose = max(0, min(s.sets[f].sum() - k[K.MIN_SET], k[K.CESURA_SET_LOSSES]))
        for _ in range(lose):
            v = 0
            while s.sets[f, v] == 0:
                v += 1
            s.sets[f, v] -= 1
            discard(s, f * NUM_VALUES + v, True)
        if lose:
            say(k, ev, Ev.SET_LOSES, f, lose)
    reshuffle(s, k, ev)


@compiled
def round_end(s, k, ev):
    """Pass the starting player coin; end after a declaration or at the round limit."""
    declared = False
    for p in range(k[K.N]):
        declared |= s.declared[p] >= 0
    if declared:
        finish(s, k, ev)
    elif s.meta[Meta.ROUND] >= k[K.ROUND_LIMIT]:
        s.meta[Meta.STATUS] = Status.TRUNCATED
        say(k, ev, Ev.TRUNCATED, k[K.ROUND_LIMIT])
    else:
        s.meta[Meta.START_PLAYER] = start_order(s, k, 1)
        push(s, Task.ROUND_START)

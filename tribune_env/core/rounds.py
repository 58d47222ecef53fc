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
def setup(buf, params, deck):
    """Rulebook setup 5-8 on a fresh state: shuffle `deck` into the draw pile, choose the starting
    player, give each seat its denarii and cards; then the setup discards and the first round.
    Returns the starting player.

    A lone game (:class:`~tribune_env.engine.Game`) and a batch's new deals
    (:func:`tribune_env.core.batched.deal`) both run it, so a batch deals as a lone game does.
    """
    state = views(buf, params)
    state.meta[Meta.TEMP_FAVOR] = -1
    state.meta[Meta.CHARIOT] = -1
    state.meta[Meta.PROCONSUL] = -1
    state.meta[Meta.CHALLENGER] = -1
    cards = deck.copy()
    shuffle(state.rng, cards)
    state.draw[: len(cards)] = cards
    n = params[K.N]
    start = below(state.rng, n)
    state.meta[Meta.START_PLAYER] = start
    top = len(cards)
    for i in range(n):
        p = (start + i) % n
        state.res[p, MONEY] = params[K.STARTING_MONEY] + i
        for _ in range(params[K.SETUP_DEAL]):
            top -= 1
            state.hand[p, state.draw[top]] += 1
            state.draw[top] = -1
    state.meta[Meta.DRAW_N] = top
    push(state, Task.ROUND_START)  # pushed last first: the first to run is on top
    push(state, Task.SETUP_FINISH)
    for i in range(n - 1, -1, -1):
        push(state, Task.SETUP_DISCARD, (start + i) % n)
    return start


@compiled
def mask_discard_down(state, params, mask, kind, player):
    """Cards still to pick for a discard down to the setup's or the cesura's limit, then commit."""
    keep = params[K.SETUP_KEEP] if kind == Task.SETUP_DISCARD else params[K.CESURA_HAND_LIMIT]
    if state.hand[player].sum() - state.build.sum() > keep:
        d = params[K.A_DISCARD]
        for c in range(NUM_CARD_TYPES):
            mask[d + c] = state.hand[player, c] > state.build[c]
    else:
        mask[params[K.A_COMMIT]] = 1


@compiled
def apply_discard_down(state, params, events, action, kind, player):
    """Pick a card, or commit: the setup's discard is face down (nobody learns the cards), the cesura's face up."""
    public = kind == Task.CESURA_DISCARD
    if action == params[K.A_COMMIT]:
        state.hand[player] -= state.build
        discard_all(state, state.build, public)
        if public:
            for c in range(NUM_CARD_TYPES):
                seen_leaving(state, player, c, state.build[c])
        else:
            unseen_leaving(state, player, state.build.sum())
        say(params, events, Ev.DISCARDS, player, state.build.sum())
        state.build[:] = 0
    else:
        state.build[action - params[K.A_DISCARD]] += 1
        push(state, kind, player)


@compiled
def setup_finish(state, params, events):
    """Shuffle the (face-down) setup discards back into the deck."""
    n = state.meta[Meta.DRAW_N]
    cards = np.empty(n + state.discard_hidden.sum(), dtype=np.int32)
    cards[:n] = state.draw[:n]
    i = n
    for c in range(NUM_CARD_TYPES):
        for _ in range(state.discard_hidden[c]):
            cards[i] = c
            i += 1
    shuffle(state.rng, cards)
    state.draw[: len(cards)] = cards
    state.meta[Meta.DRAW_N] = len(cards)
    state.discard_hidden[:] = 0


@compiled
def round_start(state, params, events):
    """Phase 1: fill the card fields in region order."""
    state.meta[Meta.ROUND] += 1
    state.meta[Meta.PHASE] = 1
    state.meta[Meta.COIN_BOWL_USED] = 0
    state.coin_bowl[:] = 0
    say(params, events, Ev.ROUND, state.meta[Meta.ROUND], state.meta[Meta.START_PLAYER])
    push(state, Task.PHASE2)
    for slot in range(params[K.SLOTS_END] - 1, params[K.FIRST_SLOT + PANTHEON] - 1, -1):
        push(state, Task.DEAL, slot)
    for _ in range(params[K.CATACOMB_CARDS]):
        push(state, Task.DEAL_CATACOMBS)
    for slot in range(params[K.FIRST_SLOT + PANTHEON] - 1, params[K.FIRST_SLOT + ATRIUM] - 1, -1):
        push(state, Task.DEAL, slot)
    for stack in range(state.curia.shape[0] - 1, -1, -1):
        push(state, Task.DEAL_CURIA, stack)
    for slot in range(params[K.FIRST_SLOT + ATRIUM] - 1, -1, -1):
        push(state, Task.DEAL, slot)


@compiled
def deal(state, params, events, slot, retry):
    card = draw_card(state, params, events, Task.DEAL, slot, 0, retry)
    if card >= 0:
        state.slot_card[slot] = card
        state.slot_up[slot] = slot < params[K.FIRST_SLOT + LATRINE]  # Thermae and Forum face up, the rest face down


@compiled
def draw(state, params, events, player, retry):
    card = draw_card(state, params, events, Task.DRAW, player, 0, retry)
    if card >= 0:
        state.hand[player, card] += 1
        say(params, events, Ev.DRAW, player)


@compiled
def cesura_sets(state, params, events):
    """Displayed sets lose their lowest cards, at most two and never below the minimum set
    (rulebook: sets of 4+ lose two, 3-card sets one); then reshuffle."""
    for f in range(NUM_FACTIONS):
        lose = max(0, min(state.sets[f].sum() - params[K.MIN_SET], params[K.CESURA_SET_LOSSES]))
        for _ in range(lose):
            v = 0
            while state.sets[f, v] == 0:
                v += 1
            state.sets[f, v] -= 1
            discard(state, f * NUM_VALUES + v, True)
        if lose:
            say(params, events, Ev.SET_LOSES, f, lose)
    reshuffle(state, params, events)


@compiled
def round_end(state, params, events):
    """Pass the starting player coin; end after a declaration or at the round limit."""
    declared = False
    for p in range(params[K.N]):
        declared |= state.declared[p] >= 0
    if declared:
        finish(state, params, events)
    elif state.meta[Meta.ROUND] >= params[K.ROUND_LIMIT]:
        state.meta[Meta.STATUS] = Status.TRUNCATED
        say(params, events, Ev.TRUNCATED, params[K.ROUND_LIMIT])
    else:
        state.meta[Meta.START_PLAYER] = start_order(state, params, 1)
        push(state, Task.ROUND_START)

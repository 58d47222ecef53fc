"""Compiled helpers every phase uses: the task stack, drawing, discarding, what a player receives."""

from collections import namedtuple

import numpy as np

from .._compiler import compiled
from ..data import NUM_CARD_TYPES, NUM_VALUES
from ..kernel import K, shuffle
from ..state import ETERNAL, LAURELS, LEGIONS, MARKERS, MONEY, TILE, Meta
from ..tasks import Task
from .events import Ev

C = NUM_CARD_TYPES
V = NUM_VALUES


@compiled(inline="always")
def copy_row(out, at, row):
    """out[at:at + len(row)] = row (in out's type), element by element: numba's assignment of
    one array to a slice of another takes a generic strided path, about three times slower on
    a whole state or observation and some 6 ns more on each short row."""
    into = out[at : at + len(row)]  # a slice cut short by out's end fails the loop's bounds check
    for j in range(len(row)):
        into[j] = row[j]


@compiled(inline="always")
def say(params, events, code, a=0, b=0, c=0, d=0, e=0, f=0):
    """Record an event for the log (only when the game keeps one)."""
    if params[K.LOG]:
        row = events[0, 0] + 1
        if row < events.shape[0]:
            events[row, 0] = code
            events[row, 1] = a
            events[row, 2] = b
            events[row, 3] = c
            events[row, 4] = d
            events[row, 5] = e
            events[row, 6] = f
            events[0, 0] = row


@compiled(inline="always")
def push(state, kind, a=0, b=0, c=0):
    n = state.meta[Meta.N_TASKS]
    if n < 0 or n >= state.tasks.shape[0]:
        raise IndexError("the task stack is full: the game state is corrupt")
    state.tasks[n, 0] = kind
    state.tasks[n, 1] = a
    state.tasks[n, 2] = b
    state.tasks[n, 3] = c
    state.meta[Meta.N_TASKS] = n + 1


@compiled(inline="always")
def top_task(state):
    """Row of the task on top of the stack; an empty or overfull stack is a corrupt state."""
    top = state.meta[Meta.N_TASKS] - 1
    if top < 0 or top >= state.tasks.shape[0]:
        raise IndexError("the task stack is empty or overfull: the game state is corrupt")
    return top


@compiled(inline="always")
def start_order(state, params, i):
    """The i-th seat clockwise from the starting player."""
    return (state.meta[Meta.START_PLAYER] + i) % params[K.N]


@compiled(inline="always")
def value_sum(counts):
    """Sum of card values of counts indexed by card code (or by value)."""
    total = 0
    for c in range(len(counts)):
        total += counts[c] * (c % V)
    return total


@compiled
def reshuffle(state, params, events):
    """Shuffle the whole discard pile into a new draw pile (below any cards still there)."""
    total = 0
    for c in range(C):
        total += state.discard_public[c] + state.discard_hidden[c]
    if total == 0:
        return
    cards = np.empty(total, dtype=np.int32)
    i = 0
    for c in range(C):
        for _ in range(state.discard_public[c] + state.discard_hidden[c]):
            cards[i] = c
            i += 1
    shuffle(state.rng, cards)
    n = state.meta[Meta.DRAW_N]
    state.draw[total : total + n] = state.draw[:n].copy()
    state.draw[:total] = cards
    state.meta[Meta.DRAW_N] = n + total
    state.meta[Meta.RESHUFFLES] += 1
    state.discard_public[:] = 0
    state.discard_hidden[:] = 0
    say(params, events, Ev.RESHUFFLE, total)


@compiled
def start_cesura(state, params, events):
    """Both piles are empty: hands above the limit are cut by their holders, then the sets."""
    say(params, events, Ev.CESURA)
    push(state, Task.CESURA_SETS)
    for i in range(params[K.N] - 1, -1, -1):
        p = start_order(state, params, i)
        if state.hand[p].sum() > params[K.CESURA_HAND_LIMIT]:
            push(state, Task.CESURA_DISCARD, p)


@compiled
def draw_card(state, params, events, kind, a, b, retry):
    """Pop the draw pile, reshuffling the discards when it is empty.

    With both piles empty a cesura magna runs first and the calling task is retried; if a
    retried draw still finds nothing, it returns -1 and the draw is skipped.
    """
    if state.meta[Meta.DRAW_N] == 0:
        reshuffle(state, params, events)
    if state.meta[Meta.DRAW_N] == 0:
        if not retry:
            push(state, kind, a, b, 1)
            start_cesura(state, params, events)
        return -1
    n = state.meta[Meta.DRAW_N] - 1
    state.meta[Meta.DRAW_N] = n
    card = state.draw[n]
    state.draw[n] = -1
    return card


@compiled(inline="always")
def discard(state, code, public):
    if public:
        state.discard_public[code] += 1
    else:
        state.discard_hidden[code] += 1


@compiled(inline="always")
def seen_leaving(state, player, code, count):
    """`count` cards `code` leave the player's hand face up: a card known there may be among them."""
    state.known[player, code] = max(0, state.known[player, code] - count)


@compiled
def unseen_leaving(state, player, count):
    """`count` cards leave the player's hand face down: any card known there may be among them."""
    for code in range(C):
        seen_leaving(state, player, code, count)


@compiled(inline="always")
def discard_from_hand(state, player, code):
    """A card leaves a hand for the discard pile, face up (Curia, sacrifice, Tigellinus)."""
    state.hand[player, code] -= 1
    state.discard_public[code] += 1
    seen_leaving(state, player, code, 1)


@compiled(inline="always")
def discard_all(state, counts, public):
    if public:
        state.discard_public[:] += counts
    else:
        state.discard_hidden[:] += counts


@compiled(inline="always")
def discard_set(state, faction, values):
    """A displayed set (counts by value) goes to the discard pile face up."""
    for v in range(V):
        state.discard_public[faction * V + v] += values[v]


@compiled
def gain_marker(state, params, events, player, faction):
    if not state.markers[player, faction]:
        state.markers[player, faction] = 1
        state.res[player, MARKERS] += 1
        say(params, events, Ev.MARKER, player, faction)


@compiled
def gain_eternal_favor(state, params, events, player):
    if not state.res[player, ETERNAL]:
        state.res[player, ETERNAL] = 1
        say(params, events, Ev.ETERNAL, player)
        if state.meta[Meta.TEMP_FAVOR] == player:
            state.meta[Meta.TEMP_FAVOR] = -1
            say(params, events, Ev.RETURN_TEMP, player)


@compiled
def lose_control_of_vestals(state, params, events, player):
    """The temporary favor goes back to the stock when its holder loses the Vestal Virgins."""
    if state.meta[Meta.TEMP_FAVOR] == player:
        state.meta[Meta.TEMP_FAVOR] = -1
        say(params, events, Ev.RETURN_TEMP, player)


@compiled
def mask_any_discard(state, params, mask, player):
    """Discard any card in hand, or decline (the Curia's and Gaius Tigellinus' trades)."""
    d = params[K.A_DISCARD]
    for c in range(C):
        mask[d + c] = state.hand[player, c] > 0
    mask[params[K.A_DECLINE]] = 1


Gains = namedtuple(
    "Gains",
    (
        "denarii",
        "from_colosseum",  # the denarii are the Colosseum's, which is emptied
        "laurels",
        "legions",
        "cards",  # drawn from the draw pile
        "tile",  # SCROLL or TRIBUNE received, or 0
        "eternal",  # the eternal favor of the gods
        "proconsul",
        "decision",  # a Task kind then put to the player (assassin, a leader's choice...), or 0
    ),
)
"""What a benefit or a leader gives. Each benefit and leader states its gains once
(``benefits.py``, ``leaders.py``); the engine applies them with :func:`receive` and the
agents price the same gains."""


@compiled(inline="always")  # into each caller: a tuple built where it is used, no allocation
def gains(denarii=0, from_colosseum=0, laurels=0, legions=0, cards=0, tile=0, eternal=0, proconsul=0, decision=0):
    """The :data:`Gains` of the items given."""
    return Gains(
        np.int64(denarii),
        np.int64(from_colosseum),
        np.int64(laurels),
        np.int64(legions),
        np.int64(cards),
        np.int64(tile),
        np.int64(eternal),
        np.int64(proconsul),
        np.int64(decision),
    )


@compiled
def receive(state, params, events, player, g):
    """The player receives the gains g; a decision it brings comes after the cards it draws."""
    state.res[player, MONEY] += g.denarii
    if g.from_colosseum:
        state.meta[Meta.COLOSSEUM] = 0
    state.res[player, LAURELS] += g.laurels
    state.res[player, LEGIONS] += g.legions
    if g.tile:
        state.res[player, TILE] = g.tile
    if g.eternal:
        gain_eternal_favor(state, params, events, player)
    if g.proconsul:
        state.meta[Meta.PROCONSUL] = player
    if g.decision:
        push(state, g.decision, player)
    for _ in range(g.cards):
        push(state, Task.DRAW, player)

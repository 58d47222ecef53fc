"""Compiled helpers every phase uses: the task stack, drawing, discarding, what a player receives."""

from enum import IntEnum

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
def say(k, ev, code, a=0, b=0, c=0, d=0, e=0, f=0):
    """Record an event for the log (only when the game keeps one)."""
    if k[K.LOG]:
        row = ev[0, 0] + 1
        if row < ev.shape[0]:
            ev[row, 0] = code
            ev[row, 1] = a
            ev[row, 2] = b
            ev[row, 3] = c
            ev[row, 4] = d
            ev[row, 5] = e
            ev[row, 6] = f
            ev[0, 0] = row


@compiled(inline="always")
def push(s, kind, a=0, b=0, c=0):
    n = s.meta[Meta.N_TASKS]
    if n < 0 or n >= s.tasks.shape[0]:
        raise IndexError("the task stack is full: the game state is corrupt")
    s.tasks[n, 0] = kind
    s.tasks[n, 1] = a
    s.tasks[n, 2] = b
    s.tasks[n, 3] = c
    s.meta[Meta.N_TASKS] = n + 1


@compiled(inline="always")
def top_task(s):
    """Row of the task on top of the stack; an empty or overfull stack is a corrupt state."""
    top = s.meta[Meta.N_TASKS] - 1
    if top < 0 or top >= s.tasks.shape[0]:
        raise IndexError("the task stack is empty or overfull: the game state is corrupt")
    return top


@compiled(inline="always")
def start_order(s, k, i):
    """The i-th seat clockwise from the starting player."""
    return (s.meta[Meta.START_PLAYER] + i) % k[K.N]


@compiled(inline="always")
def value_sum(counts):
    """Sum of card values of counts indexed by card code (or by value)."""
    total = 0
    for c in range(len(counts)):
        total += counts[c] * (c % V)
    return total


@compiled
def reshuffle(s, k, ev):
    """Shuffle the whole discard pile into a new draw pile (below any cards still there)."""
    total = 0
    for c in range(C):
        total += s.discard_public[c] + s.discard_hidden[c]
    if total == 0:
        return
    cards = np.empty(total, dtype=np.int32)
    i = 0
    for c in range(C):
        for _ in range(s.discard_public[c] + s.discard_hidden[c]):
            cards[i] = c
            i += 1
    shuffle(s.rng, cards)
    n = s.meta[Meta.DRAW_N]
    s.draw[total : total + n] = s.draw[:n].copy()
    s.draw[:total] = cards
    s.meta[Meta.DRAW_N] = n + total
    s.meta[Meta.RESHUFFLES] += 1
    s.discard_public[:] = 0
    s.discard_hidden[:] = 0
    say(k, ev, Ev.RESHUFFLE, total)


@compiled
def start_cesura(s, k, ev):
    """Both piles are empty: hands above the limit are cut by their holders, then the sets."""
    say(k, ev, Ev.CESURA)
    push(s, Task.CESURA_SETS)
    for i in range(k[K.N] - 1, -1, -1):
        p = start_order(s, k, i)
        if s.hand[p].sum() > k[K.CESURA_HAND_LIMIT]:
            push(s, Task.CESURA_DISCARD, p)


@compiled
def draw_card(s, k, ev, kind, a, b, retry):
    """Pop the draw pile, reshuffling the discards when it is empty.

    With both piles empty a cesura magna runs first and the calling task is retried; if a
    retried draw still finds nothing, it returns -1 and the draw is skipped.
    """
    if s.meta[Meta.DRAW_N] == 0:
        reshuffle(s, k, ev)
    if s.meta[Meta.DRAW_N] == 0:
        if not retry:
            push(s, kind, a, b, 1)
            start_cesura(s, k, ev)
        return -1
    n = s.meta[Meta.DRAW_N] - 1
    s.meta[Meta.DRAW_N] = n
    card = s.draw[n]
    s.draw[n] = -1
    return card


@compiled(inline="always")
def discard(s, code, public):
    if public:
        s.discard_public[code] += 1
    else:
        s.discard_hidden[code] += 1


@compiled(inline="always")
def seen_leaving(s, player, code, count):
    """`count` cards `code` leave the player's hand face up: a card known there may be among them."""
    s.known[player, code] = max(0, s.known[player, code] - count)


@compiled
def unseen_leaving(s, player, count):
    """`count` cards leave the player's hand face down: any card known there may be among them."""
    for code in range(C):
        seen_leaving(s, player, code, count)


@compiled(inline="always")
def discard_from_hand(s, player, code):
    """A card leaves a hand for the discard pile, face up (Curia, sacrifice, Tigellinus)."""
    s.hand[player, code] -= 1
    s.discard_public[code] += 1
    seen_leaving(s, player, code, 1)


@compiled(inline="always")
def discard_all(s, counts, public):
    if public:
        s.discard_public[:] += counts
    else:
        s.discard_hidden[:] += counts


@compiled(inline="always")
def discard_set(s, faction, values):
    """A displayed set (counts by value) goes to the discard pile face up."""
    for v in range(V):
        s.discard_public[faction * V + v] += values[v]


@compiled
def gain_marker(s, k, ev, player, faction):
    if not s.markers[player, faction]:
        s.markers[player, faction] = 1
        s.res[player, MARKERS] += 1
        say(k, ev, Ev.MARKER, player, faction)


@compiled
def gain_eternal_favor(s, k, ev, player):
    if not s.res[player, ETERNAL]:
        s.res[player, ETERNAL] = 1
        say(k, ev, Ev.ETERNAL, player)
        if s.meta[Meta.TEMP_FAVOR] == player:
            s.meta[Meta.TEMP_FAVOR] = -1
            say(k, ev, Ev.RETURN_TEMP, player)


@compiled
def lose_control_of_vestals(s, k, ev, player):
    """The temporary favor goes back to the stock when its holder loses the Vestal Virgins."""
    if s.meta[Meta.TEMP_FAVOR] == player:
        s.meta[Meta.TEMP_FAVOR] = -1
        say(k, ev, Ev.RETURN_TEMP, player)


@compiled
def mask_any_discard(s, k, m, player):
    """Discard any card in hand, or decline (the Curia's and Gaius Tigellinus' trades)."""
    d = k[K.A_DISCARD]
    for c in range(C):
        m[d + c] = s.hand[player, c] > 0
    m[k[K.A_DECLINE]] = 1


class Gain(IntEnum):
    """What a benefit or a leader gives: the items of a gains vector (:func:`gains`).

    Each benefit and leader states its gains once (``benefits.py``, ``leaders.py``); the
    engine applies them with :func:`receive` and the agents price the same vector.
    """

    DENARII = 0
    FROM_COLOSSEUM = 1  # the denarii are the Colosseum's, which is emptied
    LAURELS = 2
    LEGIONS = 3
    CARDS = 4  # drawn from the draw pile
    TILE = 5  # SCROLL or TRIBUNE received, or 0
    ETERNAL = 6  # the eternal favor of the gods
    PROCONSUL = 7
    DECISION = 8  # a Task kind then put to the player (assassin, a leader's choice...), or 0


GAIN_ITEMS = len(Gain)


@compiled
def gains(item=-1, amount=0):
    """A gains vector: nothing, or `amount` of one item of :class:`Gain`."""
    out = np.zeros(GAIN_ITEMS, dtype=np.int64)
    if item >= 0:
        out[item] = amount
    return out


@compiled
def receive(s, k, ev, player, g):
    """The player receives the gains g; a decision it brings comes after the cards it draws."""
    s.res[player, MONEY] += g[Gain.DENARII]
    if g[Gain.FROM_COLOSSEUM]:
        s.meta[Meta.COLOSSEUM] = 0
    s.res[player, LAURELS] += g[Gain.LAURELS]
    s.res[player, LEGIONS] += g[Gain.LEGIONS]
    if g[Gain.TILE]:
        s.res[player, TILE] = g[Gain.TILE]
    if g[Gain.ETERNAL]:
        gain_eternal_favor(s, k, ev, player)
    if g[Gain.PROCONSUL]:
        s.meta[Meta.PROCONSUL] = player
    if g[Gain.DECISION]:
        push(s, g[Gain.DECISION], player)
    for _ in range(g[Gain.CARDS]):
        push(s, Task.DRAW, player)

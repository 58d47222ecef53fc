"""Compiled helpers every phase uses: the task stack, drawing, discarding, resources."""
import numpy as np
from numba import njit

from ..data import NUM_CARD_TYPES, NUM_OBJECTIVES, NUM_VALUES, Objective
from ..kernel import JIT, K, shuffle
from ..state import ETERNAL, LAURELS, LEGIONS, MARKERS, MONEY, TILE, TRIBUNE, Meta
from ..tasks import Task
from .events import Ev

C = NUM_CARD_TYPES
V = NUM_VALUES


@njit(inline="always", **JIT)
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


@njit(inline="always", **JIT)
def push(s, kind, a=0, b=0, c=0):
    n = s.meta[Meta.N_TASKS]
    if n < 0 or n >= s.tasks.shape[0]:
        raise IndexError("the task stack is full: the game state is corrupt")
    s.tasks[n, 0] = kind
    s.tasks[n, 1] = a
    s.tasks[n, 2] = b
    s.tasks[n, 3] = c
    s.meta[Meta.N_TASKS] = n + 1


@njit(inline="always", **JIT)
def top_task(s):
    """Row of the task on top of the stack; an empty or overfull stack is a corrupt state."""
    top = s.meta[Meta.N_TASKS] - 1
    if top < 0 or top >= s.tasks.shape[0]:
        raise IndexError("the task stack is empty or overfull: the game state is corrupt")
    return top


@njit(inline="always", **JIT)
def start_order(s, k, i):
    """The i-th seat clockwise from the starting player."""
    return (s.meta[Meta.START_PLAYER] + i) % k[K.N]


@njit(inline="always", **JIT)
def value_sum(counts):
    """Sum of card values of counts indexed by card code (or by value)."""
    total = 0
    for c in range(len(counts)):
        total += counts[c] * (c % V)
    return total


@njit(**JIT)
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
    s.draw[total: total + n] = s.draw[:n].copy()
    s.draw[:total] = cards
    s.meta[Meta.DRAW_N] = n + total
    s.meta[Meta.RESHUFFLES] += 1
    s.discard_public[:] = 0
    s.discard_hidden[:] = 0
    say(k, ev, Ev.RESHUFFLE, total)


@njit(**JIT)
def start_cesura(s, k, ev):
    """Both piles are empty: hands above the limit are cut by their holders, then the sets."""
    say(k, ev, Ev.CESURA)
    push(s, Task.CESURA_SETS)
    for i in range(k[K.N] - 1, -1, -1):
        p = start_order(s, k, i)
        if s.hand[p].sum() > k[K.HAND_LIMIT]:
            push(s, Task.CESURA_DISCARD, p)


@njit(**JIT)
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


@njit(inline="always", **JIT)
def discard(s, code, public):
    if public:
        s.discard_public[code] += 1
    else:
        s.discard_hidden[code] += 1


@njit(inline="always", **JIT)
def discard_from_hand(s, p, code):
    """A card leaves a hand for the discard pile, face up (Curia, sacrifice, Tigellinus)."""
    s.hand[p, code] -= 1
    s.discard_public[code] += 1


@njit(inline="always", **JIT)
def discard_all(s, counts, public):
    if public:
        s.discard_public[:] += counts
    else:
        s.discard_hidden[:] += counts


@njit(inline="always", **JIT)
def discard_set(s, f, values):
    """A displayed set (counts by value) goes to the discard pile face up."""
    for v in range(V):
        s.discard_public[f * V + v] += values[v]


@njit(**JIT)
def gain_marker(s, k, ev, p, f):
    if not s.markers[p, f]:
        s.markers[p, f] = 1
        s.res[p, MARKERS] += 1
        say(k, ev, Ev.MARKER, p, f)


@njit(**JIT)
def gain_eternal_favor(s, k, ev, p):
    if not s.res[p, ETERNAL]:
        s.res[p, ETERNAL] = 1
        say(k, ev, Ev.ETERNAL, p)
        if s.meta[Meta.TEMP_FAVOR] == p:
            s.meta[Meta.TEMP_FAVOR] = -1
            say(k, ev, Ev.RETURN_TEMP, p)


@njit(**JIT)
def lose_control_of_vestals(s, k, ev, p):
    """The temporary favor goes back to the stock when its holder loses the Vestal Virgins."""
    if s.meta[Meta.TEMP_FAVOR] == p:
        s.meta[Meta.TEMP_FAVOR] = -1
        say(k, ev, Ev.RETURN_TEMP, p)


@njit(inline="always", **JIT)
def objective(res, k, temp_favor, p, i):
    """Whether a player (resources `res`) meets objective i of OBJECTIVES."""
    if i == Objective.TRIBUNE:
        return res[TILE] == TRIBUNE
    if i == Objective.FAVOR:
        return res[ETERNAL] > 0 or temp_favor == p
    if i == Objective.LAURELS:
        return res[LAURELS] >= k[K.V_LAURELS]
    if i == Objective.LEGIONS:
        return res[LEGIONS] >= k[K.V_LEGIONS]
    if i == Objective.DENARII:
        return res[MONEY] >= k[K.V_DENARII]
    return res[MARKERS] >= k[K.V_MARKERS]


@njit(**JIT)
def meets_victory(s, k, p):
    """Whether p now meets the victory card (in the point-value variant, the marker goal)."""
    res = s.res[p]
    if not k[K.VICTORY]:
        return res[MARKERS] >= k[K.MARKER_GOAL]
    temp_favor = s.meta[Meta.TEMP_FAVOR]
    met = 0
    for i in range(NUM_OBJECTIVES):
        met += objective(res, k, temp_favor, p, i)
    obligatory = k[K.V_OBLIGATORY]
    return met >= k[K.V_NEED] and (obligatory < 0 or objective(res, k, temp_favor, p, obligatory))


@njit(**JIT)
def check_declarations(s, k, ev):
    """Record, in order, each player who now meets the victory card (or the marker goal).

    Players who come to meet it in the same change of state are recorded clockwise from
    the starting player (clarifications, "Winning").
    """
    for i in range(k[K.N]):
        p = start_order(s, k, i)
        if s.declared[p] < 0 and meets_victory(s, k, p):
            order = s.meta[Meta.N_DECLARED]
            s.declared[p] = order
            s.meta[Meta.N_DECLARED] = order + 1
            say(k, ev, Ev.DECLARE, p)


@njit(**JIT)
def scores(s, k):
    """Points of the scoring table for each seat (the first declarer's bonus included)."""
    out = np.zeros(k[K.N], dtype=np.int64)
    for p in range(k[K.N]):
        r = s.res[p]
        points = 0
        if r[TILE] == TRIBUNE:
            points += k[K.SC_TRIBUNE]
        elif r[TILE] > 0:
            points += k[K.SC_SCROLL]
        points += r[ETERNAL] * k[K.SC_ETERNAL] + r[LEGIONS] * k[K.SC_LEGION]
        points += r[LAURELS] * k[K.SC_LAUREL] + r[MONEY] // k[K.SC_DENARII] + r[MARKERS] * k[K.SC_MARKER]
        if s.meta[Meta.TEMP_FAVOR] == p:
            points += k[K.SC_TEMPORARY]
        if s.declared[p] == 0:
            points += k[K.SC_FIRST]
        out[p] = points
    return out


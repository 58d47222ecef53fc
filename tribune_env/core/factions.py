"""Phase 4 (take-overs, their benefits and leaders) and Phase 5 (faction benefits)."""
from numba import njit

from ..actions import CHOICE_OFFSET
from ..data import (GLADIATORS, LEGATES, NUM_FACTIONS, NUM_VALUES, PATRICIANS, PLEBEIANS,
                    PRAETORIANS, SENATORS, VESTALS)
from ..kernel import JIT, K
from ..state import ETERNAL, LAURELS, LEGIONS, MONEY, NO_TILE, SCROLL, TILE, TRIBUNE, Meta
from ..tasks import Task
from .common import (discard, discard_from_hand, discard_set, gain_eternal_favor, gain_marker,
                     lose_control_of_vestals, push, say, value_sum)
from .events import Ev

V = NUM_VALUES


@njit(**JIT)
def takeover(s, f):
    """Space "2" plays first; "1" may then beat both the controller and "2" (rulebook)."""
    first, second = s.field_owner[f, 0], s.field_owner[f, 1]
    if first < 0:
        return
    push(s, Task.TAKEOVER_SET, first, f, 1)
    if second >= 0:
        push(s, Task.TAKEOVER_SET, second, f, 2)


@njit(**JIT)
def beats_all(s, f, role, count, total):
    """A set beats another with more cards or a higher sum; it must beat every target."""
    if s.controller[f] >= 0:
        if not (count > s.sets[f].sum() or total > value_sum(s.sets[f])):
            return False
    if role == 1 and s.meta[Meta.CHALLENGER] >= 0:
        if not (count > s.challenger.sum() or total > value_sum(s.challenger)):
            return False
    return True


@njit(**JIT)
def mask_takeover(s, k, m, p, f, role):
    """Add cards of the faction while a winning set can still be made; commit a winning set."""
    f0 = f * V
    hand = s.hand[p, f0:f0 + V]
    build = s.build[f0:f0 + V]
    all_count = hand.sum()
    if all_count >= 2 and beats_all(s, f, role, all_count, value_sum(hand)):
        for v in range(V):
            m[k[K.A_ADD] + f0 + v] = hand[v] > build[v]
        count = build.sum()
        m[k[K.A_COMMIT]] = count >= 2 and beats_all(s, f, role, count, value_sum(build))
    m[k[K.A_DECLINE]] = 1


@njit(**JIT)
def takeover_set(s, k, ev, action, p, f, role):
    f0 = f * V
    if action != k[K.A_COMMIT] and action != k[K.A_DECLINE]:
        s.build[action - k[K.A_ADD]] += 1
        push(s, Task.TAKEOVER_SET, p, f, role)
        return
    played = s.build[f0:f0 + V].copy()
    s.build[:] = 0
    challenger = s.meta[Meta.CHALLENGER]
    if action == k[K.A_COMMIT]:
        s.hand[p, f0:f0 + V] -= played
        if role == 2:
            s.challenger[:] = played
            s.meta[Meta.CHALLENGER] = p
            say(k, ev, Ev.CHALLENGE, p, f, played.sum(), value_sum(played))
            return
        take_over(s, k, ev, f, p, played)
        if challenger >= 0:
            push(s, Task.PENALTY, challenger, f)   # before the new controller's benefits
    elif role == 1 and challenger >= 0:
        take_over(s, k, ev, f, challenger, s.challenger.copy())
        s.challenger[:] = 0
        s.meta[Meta.CHALLENGER] = -1


@njit(**JIT)
def take_over(s, k, ev, f, p, played):
    """p displays `played` and controls f; the beaten set is discarded."""
    old = s.controller[f]
    if old >= 0:
        discard_set(s, f, s.sets[f])
        if f == VESTALS:
            lose_control_of_vestals(s, k, ev, old)
    s.sets[f] = played
    s.controller[f] = p
    say(k, ev, Ev.TAKEOVER, p, f, played.sum(), value_sum(played))
    if played[0]:
        push(s, Task.LEADER, p, f)
    push(s, Task.MARKER_LAUREL, p, f)
    push(s, Task.TAKEOVER_BENEFIT, p, f)


@njit(**JIT)
def mask_penalty(s, k, m, f):
    for v in range(V):
        m[k[K.A_DISCARD] + f * V + v] = s.challenger[v] > 0


@njit(**JIT)
def penalty(s, k, action, p, f):
    """The beaten "2" player takes its set back, less one card of its choice."""
    code = action - k[K.A_DISCARD]
    s.challenger[code % V] -= 1
    discard(s, code, True)
    s.hand[p, f * V:(f + 1) * V] += s.challenger
    s.challenger[:] = 0
    s.meta[Meta.CHALLENGER] = -1


@njit(**JIT)
def takeover_benefit(s, k, p, f):
    if f == GLADIATORS:
        s.res[p, LEGIONS] += k[K.GLADIATOR_LEGIONS]
    elif f == LEGATES:
        s.res[p, LAURELS] += k[K.LEGATE_LAURELS]
    elif f == PRAETORIANS:
        push(s, Task.DRAW, p)
    elif f == PLEBEIANS:
        push(s, Task.ASSASSIN, p)
        push(s, Task.DRAW, p)
    elif f == PATRICIANS:
        s.res[p, LAURELS] += k[K.PATRICIAN_LAURELS]
    elif f == VESTALS:
        s.res[p, MONEY] += k[K.VESTAL_DENARII]
    else:
        s.res[p, LAURELS] += k[K.SENATOR_LAURELS]


@njit(**JIT)
def marker_laurel(s, k, ev, p, f):
    gain_marker(s, k, ev, p, f)
    if s.first_laurel[f]:
        s.first_laurel[f] = 0
        s.res[p, LAURELS] += k[K.FIRST_LAURELS]
        say(k, ev, Ev.FIRST_LAUREL, p, f)


@njit(**JIT)
def leader(s, k, ev, p, f):
    say(k, ev, Ev.LEADER, p, f)
    if f == GLADIATORS:
        s.res[p, LEGIONS] += k[K.SPARTACUS_LEGIONS]
    elif f == LEGATES:
        s.res[p, LAURELS] += k[K.VARUS_LAURELS]
    elif f == PRAETORIANS:
        if s.hand[p].sum() > 0:
            push(s, Task.TIGELLINUS, p)
    elif f == PLEBEIANS:
        push(s, Task.AGRIPPA, p)
    elif f == PATRICIANS:
        s.res[p, MONEY] += k[K.SCIPIO_DENARII]
    elif f == VESTALS:
        gain_eternal_favor(s, k, ev, p)
    elif s.markers[p].sum() < NUM_FACTIONS:
        push(s, Task.CATO, p)


@njit(**JIT)
def tigellinus(s, k, action, p):
    """Gaius Tigellinus: discard a card for a legion."""
    if action != k[K.A_DECLINE]:
        discard_from_hand(s, p, action - k[K.A_DISCARD])
        s.res[p, LEGIONS] += 1


@njit(**JIT)
def mask_assassin(s, k, m):
    for f in range(NUM_FACTIONS):
        m[k[K.A_ASSASSIN] + f] = s.sets[f].sum() >= 3
    m[k[K.A_DECLINE]] = 1


@njit(**JIT)
def assassin(s, k, ev, action):
    """Remove the highest-value card of a displayed set of 3+; its owner keeps control."""
    if action == k[K.A_DECLINE]:
        return
    f = action - k[K.A_ASSASSIN]
    v = V - 1
    while s.sets[f, v] == 0:
        v -= 1
    s.sets[f, v] -= 1
    discard(s, f * V + v, True)
    say(k, ev, Ev.ASSASSIN, f, f * V + v)


@njit(**JIT)
def mask_agrippa(s, k, m, p):
    m[k[K.A_AGRIPPA]] = s.res[p, TILE] == NO_TILE
    m[k[K.A_AGRIPPA] + 1] = 1


@njit(**JIT)
def agrippa(s, k, action, p):
    if action == k[K.A_AGRIPPA]:
        s.res[p, TILE] = SCROLL
    else:
        push(s, Task.DRAW, p)


@njit(**JIT)
def mask_cato(s, k, m, p):
    for f in range(NUM_FACTIONS):
        m[k[K.A_MARKER] + f] = s.markers[p, f] == 0


# ------------------------------------------------------------------ Phase 5
@njit(**JIT)
def phase5(s):
    s.meta[Meta.PHASE] = 5
    s.field_owner[:] = -1
    push(s, Task.PHASE6)
    for f in range(NUM_FACTIONS - 1, -1, -1):
        push(s, Task.FACTION_BENEFIT, f)


@njit(**JIT)
def faction_benefit(s, f):
    p = s.controller[f]
    if p < 0:
        return
    if f == PRAETORIANS:
        s.res[p, LEGIONS] += 1
    elif f == PATRICIANS:
        s.meta[Meta.PROCONSUL] = p
    else:
        push(s, Task.BENEFIT_CHOICE, p, f)


@njit(**JIT)
def mask_benefit(s, k, m, p, f):
    tile = s.res[p, TILE]
    first = k[K.A_BENEFIT] + CHOICE_OFFSET[f]
    m[first] = tile == NO_TILE if (f == LEGATES or f == SENATORS) else 1
    if f == PLEBEIANS:
        m[first + 1] = tile == SCROLL and s.controller[PATRICIANS] == p
    elif f == VESTALS:
        m[first + 1] = tile == SCROLL and s.controller[SENATORS] == p
    else:
        m[first + 1] = 1


@njit(**JIT)
def benefit_choice(s, k, action, p, f):
    second = action - k[K.A_BENEFIT] - CHOICE_OFFSET[f]
    if f == GLADIATORS:
        if second:
            push(s, Task.ASSASSIN, p)
            push(s, Task.DRAW, p)
        else:
            s.res[p, MONEY] += s.meta[Meta.COLOSSEUM]
            s.meta[Meta.COLOSSEUM] = 0
    elif f == LEGATES:
        if second:
            push(s, Task.BUY_LEGION, p)
            push(s, Task.DRAW, p)
        else:
            s.res[p, TILE] = SCROLL
    elif f == PLEBEIANS:
        if second:
            s.res[p, TILE] = TRIBUNE
        else:
            s.res[p, MONEY] += k[K.PLEBEIAN_DENARII]
            push(s, Task.DRAW, p)
    elif f == VESTALS:
        if second:
            s.res[p, TILE] = TRIBUNE
        else:
            s.res[p, LAURELS] += k[K.VESTAL_LAURELS]
            if not s.res[p, ETERNAL] and s.meta[Meta.TEMP_FAVOR] != p:
                push(s, Task.TEMP_FAVOR, p)
    elif second:
        push(s, Task.DRAW, p)
        push(s, Task.DRAW, p)
    else:
        s.res[p, TILE] = SCROLL


@njit(**JIT)
def mask_buy_legion(s, k, m, p):
    """A legion for the sum of the player's displayed Legate set."""
    m[k[K.A_BUY_LEGION]] = s.res[p, MONEY] >= value_sum(s.sets[LEGATES])
    m[k[K.A_DECLINE]] = 1


@njit(**JIT)
def buy_legion(s, k, action, p):
    if action == k[K.A_BUY_LEGION]:
        s.res[p, MONEY] -= value_sum(s.sets[LEGATES])
        s.res[p, LEGIONS] += 1

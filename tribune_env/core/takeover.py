"""Phase 4, the take-overs (rulebook, "Faction Take-Overs"): sets played from the faction fields.

``rivals`` and ``takes_over`` are the rule of strength, which the engine's masks and the agents share.
"""

from .._compiler import compiled
from ..data import NUM_FACTIONS, NUM_VALUES, VESTALS
from ..kernel import K
from ..state import LAURELS, Meta
from ..tasks import Task
from .common import discard, discard_set, gain_marker, lose_control_of_vestals, push, say, seen_leaving, value_sum
from .events import Ev

V = NUM_VALUES


@compiled
def phase4(s):
    """Take-overs in board order (the regions' followers went back as each was evaluated)."""
    s.meta[Meta.PHASE] = 4
    push(s, Task.PHASE5)
    for f in range(NUM_FACTIONS - 1, -1, -1):
        push(s, Task.TAKEOVER, f)


@compiled
def takeover(s, faction):
    """Space "2" plays first; "1" may then beat both the controller and "2" (rulebook)."""
    first, second = s.field_owner[faction, 0], s.field_owner[faction, 1]
    if first < 0:
        return
    push(s, Task.TAKEOVER_SET, first, faction, 1)
    if second >= 0:
        push(s, Task.TAKEOVER_SET, second, faction, 2)


@compiled
def beats(count, total, rival_count, rival_total):
    """A set beats another with more cards or a higher sum of values."""
    return count > rival_count or total > rival_total


@compiled
def rivals(s, faction, role):
    """(count, sum) of the sets a take-over of the faction from field space `role` must beat: the
    controller's, and from space "1" the set of "2"; (-1, -1) where there is none."""
    controlled = s.controller[faction] >= 0
    challenged = role == 1 and s.meta[Meta.CHALLENGER] >= 0
    return (
        s.sets[faction].sum() if controlled else -1,
        value_sum(s.sets[faction]) if controlled else -1,
        s.challenger.sum() if challenged else -1,
        value_sum(s.challenger) if challenged else -1,
    )


@compiled
def takes_over(k, count, total, rival):
    """Whether `count` cards summing `total` win against `rival` (see ``rivals``): a set has at
    least ``min_set`` cards and beats every rival set."""
    return (
        count >= k[K.MIN_SET]
        and (rival[0] < 0 or beats(count, total, rival[0], rival[1]))
        and (rival[2] < 0 or beats(count, total, rival[2], rival[3]))
    )


@compiled
def mask_takeover(s, k, m, player, faction, role):
    """Add cards of the faction while a winning set can still be made; commit a winning set."""
    f0 = faction * V
    hand = s.hand[player, f0 : f0 + V]
    build = s.build[f0 : f0 + V]
    rival = rivals(s, faction, role)
    if takes_over(k, hand.sum(), value_sum(hand), rival):
        for v in range(V):
            m[k[K.A_ADD] + f0 + v] = hand[v] > build[v]
        m[k[K.A_COMMIT]] = takes_over(k, build.sum(), value_sum(build), rival)
    m[k[K.A_DECLINE]] = 1


@compiled
def takeover_set(s, k, ev, action, player, faction, role):
    f0 = faction * V
    if action != k[K.A_COMMIT] and action != k[K.A_DECLINE]:
        s.build[action - k[K.A_ADD]] += 1
        push(s, Task.TAKEOVER_SET, player, faction, role)
        return
    played = s.build[f0 : f0 + V].copy()
    s.build[:] = 0
    challenger = s.meta[Meta.CHALLENGER]
    if action == k[K.A_COMMIT]:
        s.hand[player, f0 : f0 + V] -= played
        for v in range(V):
            seen_leaving(s, player, f0 + v, played[v])
        if role == 2:
            s.challenger[:] = played
            s.meta[Meta.CHALLENGER] = player
            say(k, ev, Ev.CHALLENGE, player, faction, played.sum(), value_sum(played))
            return
        take_over(s, k, ev, faction, player, played)
        if challenger >= 0:
            push(s, Task.PENALTY, challenger, faction)  # before the new controller's benefits
    elif role == 1 and challenger >= 0:
        take_over(s, k, ev, faction, challenger, s.challenger.copy())
        s.challenger[:] = 0
        s.meta[Meta.CHALLENGER] = -1


@compiled
def take_over(s, k, ev, faction, player, played):
    """The player displays `played` and controls the faction; the beaten set is discarded."""
    old = s.controller[faction]
    if old >= 0:
        discard_set(s, faction, s.sets[faction])
        if faction == VESTALS:
            lose_control_of_vestals(s, k, ev, old)
    s.sets[faction] = played
    s.controller[faction] = player
    say(k, ev, Ev.TAKEOVER, player, faction, played.sum(), value_sum(played))
    if played[0]:
        push(s, Task.LEADER, player, faction)
    push(s, Task.MARKER_LAUREL, player, faction)
    push(s, Task.TAKEOVER_BENEFIT, player, faction)


@compiled
def mask_penalty(s, k, m, faction):
    for v in range(V):
        m[k[K.A_DISCARD] + faction * V + v] = s.challenger[v] > 0


@compiled
def penalty(s, k, action, player, faction):
    """The beaten "2" player takes its set back, less one card of its choice."""
    code = action - k[K.A_DISCARD]
    s.challenger[code % V] -= 1
    discard(s, code, True)
    s.hand[player, faction * V : (faction + 1) * V] += s.challenger
    s.known[player, faction * V : (faction + 1) * V] += s.challenger  # the set was on the table
    s.challenger[:] = 0
    s.meta[Meta.CHALLENGER] = -1


@compiled
def marker_laurel(s, k, ev, player, faction):
    gain_marker(s, k, ev, player, faction)
    if s.first_laurel[faction]:
        s.first_laurel[faction] = 0
        s.res[player, LAURELS] += k[K.FIRST_CONTROL_LAURELS]
        say(k, ev, Ev.FIRST_LAUREL, player, faction)

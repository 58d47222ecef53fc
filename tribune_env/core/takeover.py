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
def phase4(state):
    """Take-overs in board order (the regions' followers went back as each was evaluated)."""
    state.meta[Meta.PHASE] = 4
    push(state, Task.PHASE5)
    for f in range(NUM_FACTIONS - 1, -1, -1):
        push(state, Task.TAKEOVER, f)


@compiled
def takeover(state, faction):
    """Space "2" plays first; "1" may then beat both the controller and "2" (rulebook)."""
    first, second = state.field_owner[faction, 0], state.field_owner[faction, 1]
    if first < 0:
        return
    push(state, Task.TAKEOVER_SET, first, faction, 1)
    if second >= 0:
        push(state, Task.TAKEOVER_SET, second, faction, 2)


@compiled
def beats(count, total, rival_count, rival_total):
    """A set beats another with more cards or a higher sum of values."""
    return count > rival_count or total > rival_total


@compiled
def rivals(state, faction, role):
    """(count, sum) of the sets a take-over of the faction from field space `role` must beat: the
    controller's, and from space "1" the set of "2"; (-1, -1) where there is none."""
    controlled = state.controller[faction] >= 0
    challenged = role == 1 and state.meta[Meta.CHALLENGER] >= 0
    return (
        state.sets[faction].sum() if controlled else -1,
        value_sum(state.sets[faction]) if controlled else -1,
        state.challenger.sum() if challenged else -1,
        value_sum(state.challenger) if challenged else -1,
    )


@compiled
def takes_over(params, count, total, rival):
    """Whether `count` cards summing `total` win against `rival` (see ``rivals``): a set has at
    least ``min_set`` cards and beats every rival set."""
    return (
        count >= params[K.MIN_SET]
        and (rival[0] < 0 or beats(count, total, rival[0], rival[1]))
        and (rival[2] < 0 or beats(count, total, rival[2], rival[3]))
    )


@compiled
def mask_takeover(state, params, mask, player, faction, role):
    """Add cards of the faction while a winning set can still be made; commit a winning set."""
    f0 = faction * V
    hand = state.hand[player, f0 : f0 + V]
    build = state.build[f0 : f0 + V]
    rival = rivals(state, faction, role)
    if takes_over(params, hand.sum(), value_sum(hand), rival):
        for v in range(V):
            mask[params[K.A_ADD] + f0 + v] = hand[v] > build[v]
        mask[params[K.A_COMMIT]] = takes_over(params, build.sum(), value_sum(build), rival)
    mask[params[K.A_DECLINE]] = 1


@compiled
def takeover_set(state, params, events, action, player, faction, role):
    f0 = faction * V
    if action != params[K.A_COMMIT] and action != params[K.A_DECLINE]:
        state.build[action - params[K.A_ADD]] += 1
        push(state, Task.TAKEOVER_SET, player, faction, role)
        return
    played = state.build[f0 : f0 + V].copy()
    state.build[:] = 0
    challenger = state.meta[Meta.CHALLENGER]
    if action == params[K.A_COMMIT]:
        state.hand[player, f0 : f0 + V] -= played
        for v in range(V):
            seen_leaving(state, player, f0 + v, played[v])
        if role == 2:
            state.challenger[:] = played
            state.meta[Meta.CHALLENGER] = player
            say(params, events, Ev.CHALLENGE, player, faction, played.sum(), value_sum(played))
            return
        take_over(state, params, events, faction, player, played)
        if challenger >= 0:
            push(state, Task.PENALTY, challenger, faction)  # before the new controller's benefits
    elif role == 1 and challenger >= 0:
        take_over(state, params, events, faction, challenger, state.challenger.copy())
        state.challenger[:] = 0
        state.meta[Meta.CHALLENGER] = -1


@compiled
def take_over(state, params, events, faction, player, played):
    """The player displays `played` and controls the faction; the beaten set is discarded."""
    old = state.controller[faction]
    if old >= 0:
        discard_set(state, faction, state.sets[faction])
        if faction == VESTALS:
            lose_control_of_vestals(state, params, events, old)
    state.sets[faction] = played
    state.controller[faction] = player
    say(params, events, Ev.TAKEOVER, player, faction, played.sum(), value_sum(played))
    if played[0]:
        push(state, Task.LEADER, player, faction)
    push(state, Task.MARKER_LAUREL, player, faction)
    push(state, Task.TAKEOVER_BENEFIT, player, faction)


@compiled
def mask_penalty(state, params, mask, faction):
    for v in range(V):
        mask[params[K.A_DISCARD] + faction * V + v] = state.challenger[v] > 0


@compiled
def penalty(state, params, action, player, faction):
    """The beaten "2" player takes its set back, less one card of its choice."""
    code = action - params[K.A_DISCARD]
    state.challenger[code % V] -= 1
    discard(state, code, True)
    state.hand[player, faction * V : (faction + 1) * V] += state.challenger
    state.known[player, faction * V : (faction + 1) * V] += state.challenger  # the set was on the table
    state.challenger[:] = 0
    state.meta[Meta.CHALLENGER] = -1


@compiled
def marker_laurel(state, params, events, player, faction):
    gain_marker(state, params, events, player, faction)
    if state.first_laurel[faction]:
        state.first_laurel[faction] = 0
        state.res[player, LAURELS] += params[K.FIRST_CONTROL_LAURELS]
        say(params, events, Ev.FIRST_LAUREL, player, faction)

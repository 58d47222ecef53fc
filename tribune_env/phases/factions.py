"""Phase 4 (take-overs, with their benefits and leaders) and Phase 5 (faction benefits)."""
import numpy as np

from ..data import (FACTIONS, GLADIATORS, LEADERS, LEGATES, NUM_FACTIONS, NUM_VALUES, PATRICIANS,
                    PLEBEIANS, PRAETORIANS, SENATORS, VESTALS)
from ..state import ETERNAL, LAURELS, LEGIONS, M, MONEY, NO_TILE, SCROLL, TILE, TRIBUNE
from ..tasks import Task
from .registry import VALUE_OF, auto, beats, decision, faction_slice, set_strength
from .regions import mask_any_discard

VALUES = VALUE_OF[:NUM_VALUES]


@auto(Task.TAKEOVER)
def takeover(g, f, b, c):
    """Space "2" plays first; "1" may then beat both the controller and "2" (rulebook)."""
    first, second = (int(x) for x in g.field_owner[f])
    if first < 0:
        return
    g.push_seq(*([(Task.TAKEOVER_SET, second, f, 2)] if second >= 0 else []),
               (Task.TAKEOVER_SET, first, f, 1))


def _targets(g, f, role):
    """(cards, sum) of every set a new set must beat."""
    targets = []
    if g.controller[f] >= 0:
        targets.append(set_strength(g.sets[f]))
    if role == 1 and g.meta[M["challenger"]] >= 0:
        targets.append(set_strength(g.challenger))
    return targets


def mask_takeover(g, m, p, f, role):
    """Add cards of the faction while a winning set can still be made; commit a winning set."""
    A, s = g.A, faction_slice(f)
    hand, build = g.hand[p, s], g.build[s]
    targets = _targets(g, f, role)
    all_count, all_sum = int(hand.sum()), int(hand @ VALUES)
    if all_count >= 2 and all(beats(all_count, all_sum, t) for t in targets):
        m[A.ADD + s.start: A.ADD + s.stop] = hand > build
        count, total = int(build.sum()), int(build @ VALUES)
        m[A.COMMIT] = count >= 2 and all(beats(count, total, t) for t in targets)
    m[A.DECLINE] = 1


@decision(Task.TAKEOVER_SET, mask_takeover)
def takeover_set(g, action, p, f, role):
    A, s, meta = g.A, faction_slice(f), g.meta
    if action not in (A.COMMIT, A.DECLINE):
        g.build[action - A.ADD] += 1
        g.push(Task.TAKEOVER_SET, p, f, role)
        return
    played = g.build[s].copy()
    g.build[:] = 0
    challenger = int(meta[M["challenger"]])
    if action == A.COMMIT:
        g.hand[p, s] -= played
        if role == 2:
            g.challenger[:] = played
            meta[M["challenger"]] = p
            g.say(f"player_{p} plays {_describe(played, f)} for the {FACTIONS[f]} from space 2")
            return
        take_over(g, f, p, played)
        if challenger >= 0:
            g.push(Task.PENALTY, challenger, f)    # before the new controller's benefits
    elif role == 1 and challenger >= 0:
        take_over(g, f, challenger, g.challenger.copy())
        g.challenger[:] = 0
        meta[M["challenger"]] = -1


def _describe(values, f):
    count, total = set_strength(values)
    return f"a set of {count} {FACTIONS[f]} worth {total}"


def take_over(g, f, p, played):
    """p displays `played` and controls f; the beaten set is discarded."""
    old = int(g.controller[f])
    if old >= 0:
        g.discard_cards(_as_codes(g.sets[f], f))
        if f == VESTALS and g.meta[M["temp_favor"]] == old:
            g.meta[M["temp_favor"]] = -1
            g._dirty = True
            g.say(f"player_{old} returns the temporary favor")
    g.sets[f] = played
    g.controller[f] = p
    g.say(f"player_{p} takes over the {FACTIONS[f]} with {_describe(played, f)}")
    g.push_seq((Task.TAKEOVER_BENEFIT, p, f), (Task.MARKER_LAUREL, p, f),
               *([(Task.LEADER, p, f)] if played[0] else []))


def _as_codes(values, f):
    codes = np.zeros(NUM_FACTIONS * NUM_VALUES, dtype=np.int32)
    codes[faction_slice(f)] = values
    return codes


def mask_penalty(g, m, p, f, c):
    s = faction_slice(f)
    m[g.A.DISCARD + s.start: g.A.DISCARD + s.stop] = g.challenger > 0


@decision(Task.PENALTY, mask_penalty)
def penalty(g, action, p, f, c):
    """The beaten "2" player takes its set back, less one card of its choice."""
    code = action - g.A.DISCARD
    g.challenger[code % NUM_VALUES] -= 1
    g.discard_card(code)
    g.hand[p, faction_slice(f)] += g.challenger
    g.challenger[:] = 0
    g.meta[M["challenger"]] = -1


@auto(Task.TAKEOVER_BENEFIT)
def takeover_benefit(g, p, f, c):
    d = g.data
    if f == GLADIATORS:
        g.gain(p, LEGIONS, d.gladiator_legions)
    elif f == LEGATES:
        g.gain(p, LAURELS, d.legate_laurels)
    elif f == PRAETORIANS:
        g.push(Task.DRAW, p)
    elif f == PLEBEIANS:
        g.push_seq((Task.DRAW, p), (Task.ASSASSIN, p))
    elif f == PATRICIANS:
        g.gain(p, LAURELS, d.patrician_laurels)
    elif f == VESTALS:
        g.gain(p, MONEY, d.vestal_denarii)
    else:
        g.gain(p, LAURELS, d.senator_laurels)


@auto(Task.MARKER_LAUREL)
def marker_laurel(g, p, f, c):
    g.gain_marker(p, f)
    if g.first_laurel[f]:
        g.first_laurel[f] = 0
        g.gain(p, LAURELS, g.data.first_control_laurels)
        g.say(f"player_{p} is the first to control the {FACTIONS[f]} and takes its laurel")


@auto(Task.LEADER)
def leader(g, p, f, c):
    d = g.data
    g.say(f"player_{p} played {LEADERS[f]}")
    if f == GLADIATORS:
        g.gain(p, LEGIONS, d.spartacus_legions)
    elif f == LEGATES:
        g.gain(p, LAURELS, d.varus_laurels)
    elif f == PRAETORIANS:
        if g.hand[p].any():
            g.push(Task.TIGELLINUS, p)
    elif f == PLEBEIANS:
        g.push(Task.AGRIPPA, p)
    elif f == PATRICIANS:
        g.gain(p, MONEY, d.scipio_denarii)
    elif f == VESTALS:
        g.gain_eternal_favor(p)
    elif not g.markers[p].all():
        g.push(Task.CATO, p)


@decision(Task.TIGELLINUS, mask_any_discard)
def tigellinus(g, action, p, b, c):
    """Gaius Tigellinus: discard a card for a legion."""
    if action != g.A.DECLINE:
        code = action - g.A.DISCARD
        g.hand[p, code] -= 1
        g.discard_card(code)
        g.gain(p, LEGIONS, 1)


def mask_assassin(g, m, p, b, c):
    m[g.A.ASSASSIN: g.A.ASSASSIN + NUM_FACTIONS] = g.sets.sum(axis=1) >= 3
    m[g.A.DECLINE] = 1


@decision(Task.ASSASSIN, mask_assassin)
def assassin(g, action, p, b, c):
    """Remove the highest-value card of a displayed set of 3+; its owner keeps control."""
    if action == g.A.DECLINE:
        return
    f = action - g.A.ASSASSIN
    v = int(np.flatnonzero(g.sets[f])[-1])
    g.sets[f, v] -= 1
    g.discard_card(f * NUM_VALUES + v)
    g.say(f"the assassin removes {g.card_name(f * NUM_VALUES + v)} from the {FACTIONS[f]} set")


def mask_agrippa(g, m, p, b, c):
    m[g.A.AGRIPPA] = g.res[p, TILE] == NO_TILE
    m[g.A.AGRIPPA + 1] = 1


@decision(Task.AGRIPPA, mask_agrippa)
def agrippa(g, action, p, b, c):
    if action == g.A.AGRIPPA:
        g.gain(p, TILE, SCROLL)
    else:
        g.push(Task.DRAW, p)


def mask_cato(g, m, p, b, c):
    m[g.A.MARKER: g.A.MARKER + NUM_FACTIONS] = g.markers[p] == 0


@decision(Task.CATO, mask_cato)
def cato(g, action, p, b, c):
    g.gain_marker(p, action - g.A.MARKER)


# ------------------------------------------------------------------ Phase 5
@auto(Task.PHASE5)
def phase5(g, a, b, c):
    g.meta[M["phase"]] = 5
    g.field_owner[:] = -1
    g.push_seq(*[(Task.FACTION_BENEFIT, f) for f in range(NUM_FACTIONS)], (Task.PHASE6,))


CHOICE_OFFSET = {GLADIATORS: 0, LEGATES: 2, PLEBEIANS: 4, VESTALS: 6, SENATORS: 8}


@auto(Task.FACTION_BENEFIT)
def faction_benefit(g, f, b, c):
    p = int(g.controller[f])
    if p < 0:
        return
    if f == PRAETORIANS:
        g.gain(p, LEGIONS, 1)
    elif f == PATRICIANS:
        g.meta[M["proconsul"]] = p
    else:
        g.push(Task.BENEFIT_CHOICE, p, f)


def mask_benefit(g, m, p, f, c):
    tile = g.res[p, TILE]
    first = g.A.BENEFIT + CHOICE_OFFSET[f]
    scroll_ok = tile == NO_TILE
    m[first] = scroll_ok if f in (LEGATES, SENATORS) else 1
    if f == PLEBEIANS:
        m[first + 1] = tile == SCROLL and g.controller[PATRICIANS] == p
    elif f == VESTALS:
        m[first + 1] = tile == SCROLL and g.controller[SENATORS] == p
    else:
        m[first + 1] = 1


@decision(Task.BENEFIT_CHOICE, mask_benefit)
def benefit_choice(g, action, p, f, c):
    second = action - g.A.BENEFIT - CHOICE_OFFSET[f]
    d = g.data
    if f == GLADIATORS:
        if second:
            g.push_seq((Task.DRAW, p), (Task.ASSASSIN, p))
        else:
            g.gain(p, MONEY, int(g.meta[M["colosseum"]]))
            g.meta[M["colosseum"]] = 0
    elif f == LEGATES:
        if second:
            g.push_seq((Task.DRAW, p), (Task.BUY_LEGION, p))
        else:
            g.gain(p, TILE, SCROLL)
    elif f == PLEBEIANS:
        if second:
            g.gain(p, TILE, TRIBUNE - SCROLL)
        else:
            g.gain(p, MONEY, d.plebeian_benefit_denarii)
            g.push(Task.DRAW, p)
    elif f == VESTALS:
        if second:
            g.gain(p, TILE, TRIBUNE - SCROLL)
        else:
            g.gain(p, LAURELS, d.vestal_benefit_laurels)
            if not g.res[p, ETERNAL] and g.meta[M["temp_favor"]] != p:
                g.push(Task.TEMP_FAVOR, p)
    elif second:
        g.push_seq((Task.DRAW, p), (Task.DRAW, p))
    else:
        g.gain(p, TILE, SCROLL)


def mask_temp_favor(g, m, p, b, c):
    m[g.A.TEMP_FAVOR] = 1
    m[g.A.DECLINE] = 1


@decision(Task.TEMP_FAVOR, mask_temp_favor)
def temp_favor(g, action, p, b, c):
    if action == g.A.TEMP_FAVOR:
        g.set_temp_favor(p)


def _legate_price(g):
    return int(g.sets[LEGATES] @ VALUES)


def mask_buy_legion(g, m, p, b, c):
    m[g.A.BUY_LEGION] = g.res[p, MONEY] >= _legate_price(g)
    m[g.A.DECLINE] = 1


@decision(Task.BUY_LEGION, mask_buy_legion)
def buy_legion(g, action, p, b, c):
    """A legion for the sum of the player's displayed Legate set."""
    if action == g.A.BUY_LEGION:
        g.gain(p, MONEY, -_legate_price(g))
        g.gain(p, LEGIONS, 1)

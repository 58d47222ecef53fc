"""What one seat's decision is worth, in points of its potential: the heuristic's prices.

A :func:`read` of a determinised game (its own hand and the public table real, everything
hidden re-dealt) for one seat prices, in points of :func:`agents.evaluation.potential_of`:

- a faction's *take-over value*: what winning control would bring this round: the faction
  marker, the first-control laurel, the take-over benefit, the faction benefit of the coming
  Phase 5 and control itself; its leader's benefit is priced apart;
- a card's *worth*: how much closer it brings a winning take-over set of its faction
  (*readiness*: 1 when the cards in hand beat the displayed set, less for each card
  missing) times that take-over value, plus a base for what any card is good for (Field
  of Mars pairs, Curia and Pantheon discards);
- a denarius: what it adds to the potential (the denarii objective, the score), at least
  what money buys.

It reads only what the seat may know: its own hand and build, the public table, and
face-down cards only once they are face up or seen by this seat. Everything is compiled
(numba) so that a search can call the heuristic in its rollouts.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from tribune_env.core.benefits import benefit_gains, benefit_open, benefit_options, takeover_benefit_gains
from tribune_env.core.common import value_sum
from tribune_env.core.leaders import agrippa_open, agrippa_option, leader_gains, tigellinus_reward
from tribune_env.core.takeover import beats
from tribune_env.data import NUM_FACTIONS, NUM_VALUES, PLEBEIANS, PRAETORIANS, SENATORS
from tribune_env.kernel import K, borrowed
from tribune_env.state import MONEY as MONEY_COLUMN
from tribune_env.tasks import Task

from .compiled import compiled
from .evaluation import (
    CARD_POINTS,
    NO_CHANGE,
    ROW,
    change_by,
    merge,
    potential_after,
    potential_of,
    row_into,
)

V = NUM_VALUES
F = NUM_FACTIONS

MISSING = 0.4  # readiness per card still missing from a winning take-over set
SURPLUS = 0.3  # worth of a card beyond a winning set: a stronger set holds longer
DENARIUS_FLOOR = 0.25  # points per denarius at least: what money buys
SHORT_OF_MONEY = 6  # below this many denarii the floor doubles
NONE = -2  # a target count for the seat's own factions: no take-over to win

# A decision's reading, split so that the hot pricing functions get only the small tuples they
# use: passing the whole state to each costs more than their arithmetic.
Reading = namedtuple(
    "Reading", ("state", "params", "me", "hand", "money", "standing", "prices", "unseen", "unseen_worths")
)
Standing = namedtuple("Standing", ("row", "base", "params", "denarius"))  # prices a change to the seat's row
Prices = namedtuple("Prices", ("takeover_values", "leader_values", "target_cards", "target_sum", "average", "least"))


ROW_ONLY, PRICES, CARDS_TO_COME = range(3)  # how much a decision needs read


INTS = 2 * F * V + 2 * F  # a reading's integers: hand, unseen, target cards and sums
FLOATS = len(ROW) + 2 * F + F * V  # its floats: row, take-over and leader values, worths


@compiled(inline="always")  # into the entry points, which keep the space for their whole call
def reading_space():
    """Room for one :func:`read` at a time: its arrays are views of it that count no references."""
    return np.empty(INTS, dtype=np.int64), np.empty(FLOATS)


@compiled
def read(state, params, deck_counts, me, depth, space):
    """What the seat's decision is priced by, once per decision.

    Always its row, potential and the price of a denarius; from ``PRICES`` on, the take-over
    and leader values and targets that price cards; with ``CARDS_TO_COME``, the cards unseen
    and their worths (placements). What a decision does not need stays zero: a search
    calls this at every move of its rollouts. Its arrays are borrowed views of `space`
    (:func:`reading_space`, held by the entry point's frame): the pricing functions read them
    thousands of times a decision, and an owned array counts a reference at each.
    """
    ints, floats = borrowed(space[0]), borrowed(space[1])
    hand, unseen = ints[: F * V], ints[F * V : 2 * F * V]
    target_cards, target_sum = ints[2 * F * V : 2 * F * V + F], ints[2 * F * V + F :]
    row, takeover_values = floats[: len(ROW)], floats[len(ROW) : len(ROW) + F]
    leader_values, worths = floats[len(ROW) + F : len(ROW) + 2 * F], floats[len(ROW) + 2 * F :]
    hand[:] = state.hand[me]
    row_into(row, state, me)
    base = potential_of(row, params)
    average = value_sum(deck_counts) / deck_counts.sum()
    money = np.int64(state.res[me, MONEY_COLUMN])
    floor = DENARIUS_FLOOR * (2 if money < SHORT_OF_MONEY else 1)
    denarius = max(_gain(row, base, params, change_by(money=5)) / 5, floor)
    takeover_values[:] = 0.0
    leader_values[:] = 0.0
    for f in range(F if depth >= PRICES else 0):
        owner = state.controller[f]
        if owner != me:
            takeover_values[f] = _gain(row, base, params, takeover_change(state, params, row, base, me, f))
        leader_values[f] = _gain(row, base, params, leader_change(state, params, me, f))
        if owner == me:
            target_cards[f], target_sum[f] = NONE, 0
        elif owner < 0:
            target_cards[f], target_sum[f] = params[K.MIN_SET] - 1, -1  # no displayed set: any set wins
        else:
            target_cards[f], target_sum[f] = state.sets[f].sum(), value_sum(state.sets[f])
    if depth >= CARDS_TO_COME:
        unseen[:] = unseen_of(state, hand, deck_counts)
    else:
        unseen[:] = 0
    prices = Prices(takeover_values, leader_values, target_cards, target_sum, average, params[K.MIN_SET])
    worths[:] = 0.0
    for f in range(F if depth >= CARDS_TO_COME else 0):
        count, total = held_of(hand, f)
        for v in range(V):
            if unseen[f * V + v]:
                worths[f * V + v] = worth_to(prices, f, v, count, total)
    return Reading(state, params, me, hand, money, Standing(row, base, params, denarius), prices, unseen, worths)


@compiled(inline="always")  # small and hot: a call would cost more than its work
def _gain(row, base, params, change):
    return potential_after(row, change, params) - base


@compiled(inline="always")  # small and hot: a call would cost more than its work
def gain(standing, change):
    """Points the potential gains from a hypothetical change."""
    return _gain(standing.row, standing.base, standing.params, change)


@compiled(inline="always")  # small and hot: a call would cost more than its work
def income(standing, amount):
    return max(gain(standing, change_by(money=amount)), amount * standing.denarius)


@compiled(inline="always")  # small and hot: a call would cost more than its work
def cost(standing, amount):
    return max(-gain(standing, change_by(money=-amount)), amount * standing.denarius)


# ---------------------------------------------------------------- what control brings
@compiled
def takeover_change(state, params, row, base, me, f):
    """Control of f, its marker and first laurel, the take-over benefit and the next faction benefit."""
    played = change_by(
        laurels=params[K.FIRST_CONTROL_LAURELS] * state.first_laurel[f],
        markers=1 - state.markers[me, f],
        cards=-2,
        control=f,
    )
    gains = gains_change(params, takeover_benefit_gains(params, f))
    return merge(merge(played, gains), faction_benefit_change(state, params, row, base, me, f))


@compiled
def faction_benefit_change(state, params, row, base, me, f):
    """The best option of f's faction benefit open to the seat in the coming Phase 5 (the first if tied)."""
    best, best_gain = NO_CHANGE, -math.inf
    for i in range(benefit_options(f)):
        if benefit_open(state, me, f, i):
            option = gains_change(params, benefit_gains(state, params, me, f, i))
            value = _gain(row, base, params, option)
            if value > best_gain:
                best, best_gain = option, value
    return best


@compiled
def gains_change(params, g):
    """The engine's gains of a benefit or leader as a change. The seat's reading: the proconsul is
    priced as a later coin-bowl follower, the temporary favor as taken; the assassin and the
    Legates' legion are left out."""
    return change_by(
        money=g.denarii + (params[K.COIN_BOWL_LATER] if g.proconsul else 0),
        laurels=g.laurels,
        legions=g.legions,
        cards=g.cards,
        tile=g.tile,
        eternal=g.eternal,
        temp_favor=1.0 if g.decision == Task.TEMP_FAVOR else 0.0,
    )


@compiled
def leader_change(state, params, me, f):
    """What the leader of f brings to a take-over set that wins; for a leader's decision, the option
    the seat would take."""
    if f == PRAETORIANS:  # Gaius Tigellinus: a card of the hand for his legion
        return merge(gains_change(params, tigellinus_reward(params)), change_by(cards=-1))
    if f == PLEBEIANS:  # Agrippa: the scroll if it is open, else the card
        return gains_change(params, agrippa_option(params, 0 if agrippa_open(state, me, 0) else 1))
    if f == SENATORS:  # Cato the Elder: one more faction marker
        return change_by(markers=1)
    return gains_change(params, leader_gains(state, params, me, f))


# ---------------------------------------------------------------- cards
@compiled(inline="always")  # small and hot: a slice of the hand would cost more, in reference counts
def held_of(hand, f):
    """How many cards of faction f `hand` (counts by card code) holds, and the sum of their values."""
    count, total = 0, 0
    for v in range(V):
        count += hand[f * V + v]
        total += hand[f * V + v] * v
    return count, total


@compiled(inline="always")  # small and hot: a call would cost more than its work
def readiness_of(count, total, cards, value, average, least):
    """1 if `count` cards summing `total` make a set (of `least` cards at least) that beats a
    displayed set of (cards, value); MISSING per card short.

    A card still to come is counted at the deck's `average` value.
    """
    enough = max(least, cards + 1)
    if count >= least and beats(count, total, cards, value):
        return 1.0
    short = min(enough - count, max(least - count, math.ceil((value + 1 - total) / average)))
    return math.pow(MISSING, short)


@compiled(inline="always")  # small and hot: a call would cost more than its work
def readiness(prices, f, count, total):
    """How near `count` cards of faction f summing `total` are to a winning take-over set."""
    if prices.target_cards[f] == NONE:
        return 0.0
    return readiness_of(count, total, prices.target_cards[f], prices.target_sum[f], prices.average, prices.least)


@compiled(inline="always")  # small and hot: a call would cost more than its work
def worth_to(prices, f, v, count, total):
    """Points that a card of faction f and value v adds to `count` cards of f summing `total`."""
    before = readiness(prices, f, count, total)
    after = readiness(prices, f, count + 1, total + v)
    worth = CARD_POINTS + prices.takeover_values[f] * (after - before)
    if before == 1.0 and after == 1.0:
        worth += SURPLUS
    if v == 0:
        worth += prices.leader_values[f] * after
    return worth


@compiled(inline="always")  # small and hot: a call would cost more than its work
def worth(prices, code, hand):
    """Points that card `code` adds to `hand`."""
    f = code // V
    count, total = held_of(hand, f)
    return worth_to(prices, f, code % V, count, total)


@compiled(inline="always")  # small and hot: a call would cost more than its work
def keep(prices, code, hand):
    """Points lost if card `code` leaves `hand`."""
    f = code // V
    count, total = held_of(hand, f)
    return worth_to(prices, f, code % V, count - 1, total - code % V)


@compiled
def worth_of(prices, cards, hand):
    """Points that all `cards` (counts by code) add to `hand`, one after another."""
    total = 0.0
    for f in range(F):
        count, value = held_of(hand, f)
        for v in range(V):
            for _ in range(cards[f * V + v]):
                total += worth_to(prices, f, v, count, value)
                count, value = count + 1, value + v
    return total


@compiled
def cheapest(prices, hand, codes):
    """The card of `hand` among `codes` whose loss costs least (the first if tied), and that cost."""
    best, best_cost = -1, math.inf
    for code in codes:
        value = keep(prices, code, hand)
        if value < best_cost:
            best, best_cost = code, value
    return best, best_cost


@compiled
def cheapest_card(prices, hand):
    """:func:`cheapest` among all the cards of `hand`, faction by faction, with no list of them."""
    best, best_cost = -1, math.inf
    for f in range(F):
        count, total = held_of(hand, f)
        v, value = cheapest_value(prices, f, hand, count, total, -1)
        if value < best_cost:
            best, best_cost = f * V + v, value
    return best, best_cost


@compiled(inline="always")  # small and hot: a call would cost more than its work
def cheapest_value(prices, f, hand, count, total, gone):
    """The value of the card of faction f whose loss costs least among those of `hand` (counts by
    code, one card of value `gone` already taken out: `count` cards summing `total` left), and that cost."""
    best, best_cost = -1, math.inf
    for v in range(V):
        if hand[f * V + v] - (v == gone) > 0:
            value = worth_to(prices, f, v, count - 1, total - v)
            if value < best_cost:
                best, best_cost = v, value
    return best, best_cost


@compiled
def unseen_of(state, hand, deck_counts):
    """Counts of the cards out of the seat's sight now (hands, piles, face down): a card to come."""
    seen = hand + state.discard_public
    for f in range(F):
        for v in range(V):
            seen[f * V + v] += state.sets[f, v]
    for stack in range(state.curia.shape[0]):
        seen += state.curia[stack]
    for slot in range(len(state.slot_card)):
        if state.slot_card[slot] >= 0 and state.slot_up[slot] > 0:
            seen[state.slot_card[slot]] += 1
    return np.maximum(deck_counts - seen, 0)


@compiled(inline="always")  # small and hot: a call would cost more than its work
def unknown_card(r):
    """Expected worth of a card drawn from those unseen."""
    return (r.unseen * r.unseen_worths).sum() / max(r.unseen.sum(), 1)


@compiled
def best_of(r, k):
    """Expected worth of the best of k cards drawn from those unseen (the Catacombs)."""
    worths, unseen = r.unseen_worths, r.unseen
    order = np.empty(len(worths), dtype=np.int64)  # the codes unseen, by worth (the earlier code first if tied)
    m = 0
    for code in range(len(worths)):
        if unseen[code] > 0:
            j = m
            while j > 0 and worths[order[j - 1]] > worths[code]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = code
            m += 1
    cards = max(unseen.sum(), 1)
    total, below, met = 0.0, math.pow(0.0, k), 0  # below: the chance that all k are cards met so far
    for i in range(m):
        met += unseen[order[i]]
        reach = math.pow(met / cards, k)
        total += worths[order[i]] * (reach - below)
        below = reach
    return total

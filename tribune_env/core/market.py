"""Regions I and II, the Thermae and the Forum Romanum: each occupant pays if able and takes its card."""

from .._compiler import compiled
from ..data import FORUM, THERMAE
from ..kernel import K
from ..state import MONEY
from .common import say
from .events import Ev
from .regions import discard_slot, take_slot


@compiled
def pays(money, price):
    """Paying is compulsory when the player can pay (clarifications, "Forced and free choices")."""
    return money >= price


@compiled
def buy_each(state, params, events, region, cost):
    """Thermae and Forum: in order, each occupant pays if able and takes the card of its space
    (the region's card slots run up to the next region's first)."""
    space0, slot0 = params[K.FIRST_SPACE + region], params[K.FIRST_SLOT + region]
    for i in range(params[K.FIRST_SLOT + region + 1] - slot0):
        slot = slot0 + i
        if state.slot_card[slot] < 0:
            continue
        p = state.space_owner[space0 + i]
        if p >= 0 and pays(state.res[p, MONEY], cost):
            state.res[p, MONEY] -= cost
            say(params, events, Ev.PAYS, p, cost, state.slot_card[slot], region)
            take_slot(state, slot, p)
        else:
            discard_slot(state, slot)


@compiled
def thermae(state, params, events):
    buy_each(state, params, events, THERMAE, params[K.THERMAE_COST])


@compiled
def forum(state, params, events):
    buy_each(state, params, events, FORUM, params[K.FORUM_COST])

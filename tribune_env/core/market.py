"""Regions I and II, the Thermae and the Forum Romanum: each occupant pays if able and takes its card."""

from .._compiler import compiled
from ..data import FORUM, LATRINE, THERMAE
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
def buy_each(s, k, ev, space0, slot0, count, cost, region):
    """Thermae and Forum: in order, each occupant pays if able and takes the card."""
    for i in range(count):
        slot = slot0 + i
        if s.slot_card[slot] < 0:
            continue
        p = s.space_owner[space0 + i]
        if p >= 0 and pays(s.res[p, MONEY], cost):
            s.res[p, MONEY] -= cost
            say(k, ev, Ev.PAYS, p, cost, s.slot_card[slot], region)
            take_slot(s, slot, p)
        else:
            discard_slot(s, slot)


@compiled
def thermae(s, k, ev):
    buy_each(
        s, k, ev, k[K.SP + THERMAE], k[K.SL + THERMAE], k[K.SL + FORUM] - k[K.SL + THERMAE], k[K.THERMAE_COST], THERMAE
    )


@compiled
def forum(s, k, ev):
    buy_each(s, k, ev, k[K.SP + FORUM], k[K.SL + FORUM], k[K.SL + LATRINE] - k[K.SL + FORUM], k[K.FORUM_COST], FORUM)

"""Region III, the Latrine: its card is turned up; take its value in denarii, or pay that to keep it."""

from .._compiler import compiled
from ..data import LATRINE, NUM_VALUES
from ..kernel import K
from ..state import MONEY
from ..tasks import Task
from .common import push, say
from .events import Ev
from .regions import discard_slot, take_slot


@compiled
def latrine(s, k, ev):
    slot = k[K.SL + LATRINE]
    if s.slot_card[slot] < 0:
        return
    p = s.space_owner[k[K.SP + LATRINE]]
    if p < 0:
        discard_slot(s, slot)
        return
    s.slot_up[slot] = 1
    say(k, ev, Ev.LATRINE, p, s.slot_card[slot])
    push(s, Task.LATRINE_CHOICE, p)


@compiled
def mask_latrine(s, k, m, player):
    m[k[K.A_LATRINE]] = 1
    m[k[K.A_LATRINE] + 1] = s.res[player, MONEY] >= s.slot_card[k[K.SL + LATRINE]] % NUM_VALUES


@compiled
def latrine_choice(s, k, action, player):
    """Take the value in denarii and discard the card, or pay the value and keep it."""
    slot = k[K.SL + LATRINE]
    value = s.slot_card[slot] % NUM_VALUES
    if action == k[K.A_LATRINE]:
        s.res[player, MONEY] += value
        discard_slot(s, slot)
    else:
        s.res[player, MONEY] -= value
        take_slot(s, slot, player)

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
def latrine(state, params, events):
    slot = params[K.FIRST_SLOT + LATRINE]
    if state.slot_card[slot] < 0:
        return
    p = state.space_owner[params[K.FIRST_SPACE + LATRINE]]
    if p < 0:
        discard_slot(state, slot)
        return
    state.slot_up[slot] = 1
    say(params, events, Ev.LATRINE, p, state.slot_card[slot])
    push(state, Task.LATRINE_CHOICE, p)


@compiled
def mask_latrine(state, params, mask, player):
    mask[params[K.A_LATRINE]] = 1
    mask[params[K.A_LATRINE] + 1] = (
        state.res[player, MONEY] >= state.slot_card[params[K.FIRST_SLOT + LATRINE]] % NUM_VALUES
    )


@compiled
def latrine_choice(state, params, action, player):
    """Take the value in denarii and discard the card, or pay the value and keep it."""
    slot = params[K.FIRST_SLOT + LATRINE]
    value = state.slot_card[slot] % NUM_VALUES
    if action == params[K.A_LATRINE]:
        state.res[player, MONEY] += value
        discard_slot(state, slot)
    else:
        state.res[player, MONEY] -= value
        take_slot(state, slot, player)

"""Region VII, the Pantheon: its card is turned up; each occupant may sacrifice a card of its faction
for the eternal favor of the gods."""

from .._compiler import compiled
from ..data import MARS, NUM_VALUES, PANTHEON
from ..kernel import K
from ..state import ETERNAL
from ..tasks import Task
from .common import discard_from_hand, gain_eternal_favor, push, say
from .events import Ev
from .regions import discard_slot


@compiled
def pantheon(state, params, events):
    slot = params[K.FIRST_SLOT + PANTHEON]
    if state.slot_card[slot] < 0:
        state.pantheon_seen[:] = 0
        return
    state.slot_up[slot] = 1
    say(params, events, Ev.PANTHEON, state.slot_card[slot])
    push(state, Task.PANTHEON_END)
    for space in range(params[K.FIRST_SPACE + MARS] - 1, params[K.FIRST_SPACE + PANTHEON] - 1, -1):
        p = state.space_owner[space]
        if p >= 0 and not state.res[p, ETERNAL]:  # a holder of eternal favor may not sacrifice
            push(state, Task.SACRIFICE, p)


@compiled
def mask_sacrifice(state, params, mask, player):
    f = state.slot_card[params[K.FIRST_SLOT + PANTHEON]] // NUM_VALUES
    for v in range(NUM_VALUES):
        mask[params[K.A_DISCARD] + f * NUM_VALUES + v] = state.hand[player, f * NUM_VALUES + v] > 0
    mask[params[K.A_DECLINE]] = 1


@compiled
def sacrifice(state, params, action, player):
    """Discard a card of the revealed faction; the favor comes once all have chosen."""
    if action != params[K.A_DECLINE]:
        discard_from_hand(state, player, action - params[K.A_DISCARD])
        state.committed[player] = 1


@compiled
def pantheon_end(state, params, events):
    discard_slot(state, params[K.FIRST_SLOT + PANTHEON])
    for p in range(params[K.N]):
        if state.committed[p]:
            gain_eternal_favor(state, params, events, p)
    state.committed[:] = 0
    state.pantheon_seen[:] = 0

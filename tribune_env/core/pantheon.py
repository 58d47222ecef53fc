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
def pantheon(s, k, ev):
    slot = k[K.SL + PANTHEON]
    if s.slot_card[slot] < 0:
        s.pantheon_seen[:] = 0
        return
    s.slot_up[slot] = 1
    say(k, ev, Ev.PANTHEON, s.slot_card[slot])
    push(s, Task.PANTHEON_END)
    for space in range(k[K.SP + MARS] - 1, k[K.SP + PANTHEON] - 1, -1):
        p = s.space_owner[space]
        if p >= 0 and not s.res[p, ETERNAL]:  # a holder of eternal favor may not sacrifice
            push(s, Task.SACRIFICE, p)


@compiled
def mask_sacrifice(s, k, m, player):
    f = s.slot_card[k[K.SL + PANTHEON]] // NUM_VALUES
    for v in range(NUM_VALUES):
        m[k[K.A_DISCARD] + f * NUM_VALUES + v] = s.hand[player, f * NUM_VALUES + v] > 0
    m[k[K.A_DECLINE]] = 1


@compiled
def sacrifice(s, k, action, player):
    """Discard a card of the revealed faction; the favor comes once all have chosen."""
    if action != k[K.A_DECLINE]:
        discard_from_hand(s, player, action - k[K.A_DISCARD])
        s.committed[player] = 1


@compiled
def pantheon_end(s, k, ev):
    discard_slot(s, k[K.SL + PANTHEON])
    for p in range(k[K.N]):
        if s.committed[p]:
            gain_eternal_favor(s, k, ev, p)
    s.committed[:] = 0
    s.pantheon_seen[:] = 0

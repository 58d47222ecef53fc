"""What a seat can see of the board's cards (clarifications, "Secrecy and simultaneous acts").

The observation shows, and a determinisation re-deals, exactly what these functions say, so
the two cannot disagree.
"""

import numpy as np
from numba import njit

from ..data import PANTHEON
from ..kernel import JIT, K, views


@njit(inline="always", **JIT)
def sees_slot(k, slot_up, pantheon_seen, p, slot):
    """Whether p sees the card on `slot`: face up, or the Pantheon card p looked at on placing.

    It takes the two arrays it reads, not the state, and is inlined where it is called:
    a call costs more than this test, and the observation asks it for every slot.
    """
    return slot_up[slot] > 0 or (slot == k[K.SL + PANTHEON] and pantheon_seen[p] > 0)


@njit(**JIT)
def hidden_slots(buf, k, p):
    """The card slots holding a card that p cannot see (to re-deal them)."""
    s = views(buf, k)
    out = np.zeros(len(s.slot_card), dtype=np.bool_)
    for slot in range(len(s.slot_card)):
        out[slot] = s.slot_card[slot] >= 0 and not sees_slot(k, s.slot_up, s.pantheon_seen, p, slot)
    return np.flatnonzero(out)

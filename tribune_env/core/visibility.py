"""What a seat can see of the board's cards (clarifications, "Secrecy and simultaneous acts").

The observation and the table show, and a determinisation re-deals, exactly what these
functions say, so they cannot disagree.
"""

import numpy as np

from .._compiler import compiled, entry
from ..data import MARS, PANTHEON
from ..kernel import K, views


@entry(inline="always")
def sees_slot(params, slot_up, pantheon_seen, player, slot):
    """Whether the player sees the card on `slot`: face up, or the Pantheon card the player looked at on placing.

    It takes the two arrays it reads, not the state, and is inlined where it is called:
    a call costs more than this test, and the observation asks it for every slot.
    """
    return slot_up[slot] > 0 or (slot == params[K.FIRST_SLOT + PANTHEON] and pantheon_seen[player] > 0)


@compiled
def hidden_slots(state, params, player):
    """The card slots holding a card that the player cannot see (to re-deal them)."""
    out = np.zeros(len(state.slot_card), dtype=np.bool_)
    for slot in range(len(state.slot_card)):
        out[slot] = state.slot_card[slot] >= 0 and not sees_slot(
            params, state.slot_up, state.pantheon_seen, player, slot
        )
    return np.flatnonzero(out)


@compiled(inline="always")
def laid_pair(mars_pairs, space):
    """Whether a pair lies face down on Field of Mars space `space` (from its laying to the region's evaluation)."""
    return mars_pairs[space].sum() == 2


@compiled(inline="always")
def sees_pair(params, space_owner, player, space):
    """Whether the player sees the pair on Field of Mars space `space`: only the player who laid it does."""
    return space_owner[params[K.FIRST_SPACE + MARS] + space] == player


@compiled
def hidden_pairs(state, params, player):
    """The Field of Mars spaces whose pair the player cannot see (to re-deal them).

    It and :func:`hidden_slots` take the state's views, which their caller has built: as
    entries that built their own, a determinisation took a tenth longer."""
    out = np.zeros(state.mars_pairs.shape[0], dtype=np.bool_)
    for i in range(len(out)):
        out[i] = laid_pair(state.mars_pairs, i) and not sees_pair(params, state.space_owner, player, i)
    return np.flatnonzero(out)


@entry
def pairs_hidden_from(buf, params, player):
    """:func:`hidden_pairs` of a state buffer, for Python (the table)."""
    return hidden_pairs(views(buf, params), params, player)

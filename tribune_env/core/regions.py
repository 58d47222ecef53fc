"""Phase 3: the eight regions evaluated in board order (rulebook, "Region Evaluation").

Each region has its module, with its deal, evaluation, masks and choices: ``market`` (Thermae,
Forum Romanum), ``latrine``, ``curia``, ``atrium``, ``catacombs``, ``pantheon``, ``mars``.
"""

from .._compiler import compiled
from ..data import ATRIUM, CATACOMBS, CURIA, FORUM, LATRINE, MARS, PANTHEON, THERMAE
from ..kernel import K
from ..state import Meta
from ..tasks import Task
from .common import discard, push


@compiled
def phase3(state, params, events):
    """The regions in board order, each one's followers returned as soon as it is evaluated (rulebook)."""
    state.meta[Meta.PHASE] = 3
    push(state, Task.PHASE4)
    push(state, Task.RETURN_FOLLOWERS, MARS)
    push(state, Task.MARS)
    push(state, Task.RETURN_FOLLOWERS, PANTHEON)
    push(state, Task.PANTHEON)
    push(state, Task.RETURN_FOLLOWERS, CATACOMBS)
    push(state, Task.CATACOMBS_END)
    for i in range(params[K.FIRST_SPACE + PANTHEON] - params[K.FIRST_SPACE + CATACOMBS] - 1, -1, -1):
        push(state, Task.CATACOMBS, i)
    push(state, Task.RETURN_FOLLOWERS, ATRIUM)
    push(state, Task.ATRIUM)
    push(state, Task.RETURN_FOLLOWERS, CURIA)
    for stack in range(state.curia.shape[0] - 1, -1, -1):
        push(state, Task.CURIA, stack)
    push(state, Task.RETURN_FOLLOWERS, LATRINE)
    push(state, Task.LATRINE)
    push(state, Task.RETURN_FOLLOWERS, FORUM)
    push(state, Task.FORUM)
    push(state, Task.RETURN_FOLLOWERS, THERMAE)
    push(state, Task.THERMAE)


@compiled
def return_followers(state, params, region):
    """ "Once a given region has been evaluated, the followers in its follower spaces are returned"."""
    state.space_owner[params[K.FIRST_SPACE + region] : params[K.FIRST_SPACE + region + 1]] = -1


@compiled
def take_slot(state, slot, player):
    """The player takes a face-up card: every player saw it go into the player's hand."""
    state.hand[player, state.slot_card[slot]] += 1
    state.known[player, state.slot_card[slot]] += 1
    state.slot_card[slot] = -1


@compiled
def discard_slot(state, slot):
    """Face-up cards go to the discard pile openly, face-down ones unseen."""
    discard(state, state.slot_card[slot], state.slot_up[slot] > 0)
    state.slot_card[slot] = -1

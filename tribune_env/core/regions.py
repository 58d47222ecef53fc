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
def phase3(s, k, ev):
    """The regions in board order, each one's followers returned as soon as it is evaluated (rulebook)."""
    s.meta[Meta.PHASE] = 3
    push(s, Task.PHASE4)
    push(s, Task.RETURN_FOLLOWERS, MARS)
    push(s, Task.MARS)
    push(s, Task.RETURN_FOLLOWERS, PANTHEON)
    push(s, Task.PANTHEON)
    push(s, Task.RETURN_FOLLOWERS, CATACOMBS)
    push(s, Task.CATACOMBS_END)
    for i in range(k[K.SP + PANTHEON] - k[K.SP + CATACOMBS] - 1, -1, -1):
        push(s, Task.CATACOMBS, i)
    push(s, Task.RETURN_FOLLOWERS, ATRIUM)
    push(s, Task.ATRIUM)
    push(s, Task.RETURN_FOLLOWERS, CURIA)
    for stack in range(s.curia.shape[0] - 1, -1, -1):
        push(s, Task.CURIA, stack)
    push(s, Task.RETURN_FOLLOWERS, LATRINE)
    push(s, Task.LATRINE)
    push(s, Task.RETURN_FOLLOWERS, FORUM)
    push(s, Task.FORUM)
    push(s, Task.RETURN_FOLLOWERS, THERMAE)
    push(s, Task.THERMAE)


@compiled
def return_followers(s, k, region):
    """ "Once a given region has been evaluated, the followers in its follower spaces are returned"."""
    s.space_owner[k[K.SP + region] : k[K.SP + region + 1]] = -1


@compiled
def take_slot(s, slot, player):
    """The player takes a face-up card: every player saw it go into the player's hand."""
    s.hand[player, s.slot_card[slot]] += 1
    s.known[player, s.slot_card[slot]] += 1
    s.slot_card[slot] = -1


@compiled
def discard_slot(s, slot):
    """Face-up cards go to the discard pile openly, face-down ones unseen."""
    discard(s, s.slot_card[slot], s.slot_up[slot] > 0)
    s.slot_card[slot] = -1

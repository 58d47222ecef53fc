"""Phase 3: the eight regions evaluated in board order (rulebook, "Region Evaluation").

Each region has its module, with its deal, evaluation, masks and choices: ``market`` (Thermae,
Forum Romanum), ``latrine``, ``curia``, ``atrium``, ``catacombs``, ``pantheon``, ``mars``.
"""

from ..data import CATACOMBS, PANTHEON
from ..jit import compiled
from ..kernel import K
from ..state import Meta
from ..tasks import Task
from .common import discard, push


@compiled
def phase3(s, k, ev):
    s.meta[Meta.PHASE] = 3
    push(s, Task.PHASE4)
    push(s, Task.MARS)
    push(s, Task.PANTHEON)
    push(s, Task.CATACOMBS_END)
    for i in range(k[K.SP + PANTHEON] - k[K.SP + CATACOMBS] - 1, -1, -1):
        push(s, Task.CATACOMBS, i)
    push(s, Task.ATRIUM)
    for stack in range(s.curia.shape[0] - 1, -1, -1):
        push(s, Task.CURIA, stack)
    push(s, Task.LATRINE)
    push(s, Task.FORUM)
    push(s, Task.THERMAE)


@compiled
def take_slot(s, slot, p):
    s.hand[p, s.slot_card[slot]] += 1
    s.slot_card[slot] = -1


@compiled
def discard_slot(s, slot):
    """Face-up cards go to the discard pile openly, face-down ones unseen."""
    discard(s, s.slot_card[slot], s.slot_up[slot] > 0)
    s.slot_card[slot] = -1

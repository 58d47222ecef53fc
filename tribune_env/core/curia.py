"""Region IV, the Curia: its stacks are dealt in Phase 1; each occupant may discard a card for its stack."""

from .._compiler import compiled
from ..data import CURIA, NUM_VALUES
from ..kernel import K
from ..tasks import Task
from .common import discard_all, discard_from_hand, draw_card, mask_any_discard, push, say, value_sum
from .events import Ev


@compiled
def deal_curia(s, k, ev, stack, retry):
    """One more card on a stack, until its sum reaches the threshold or a leader lies on it."""
    card = draw_card(s, k, ev, Task.DEAL_CURIA, stack, 0, retry)
    if card < 0:
        return
    s.curia[stack, card] += 1
    if card % NUM_VALUES != 0 and value_sum(s.curia[stack]) < k[K.CURIA_SUM]:
        push(s, Task.DEAL_CURIA, stack)


@compiled
def curia(s, k, stack):
    if s.curia[stack].sum() == 0:
        return
    p = s.space_owner[k[K.SP + CURIA] + stack]
    if p < 0:
        discard_all(s, s.curia[stack], True)
        s.curia[stack] = 0
    else:
        push(s, Task.CURIA_CHOICE, p, stack)


@compiled
def mask_curia(s, k, m, player):
    """Any card of the hand for the stack, or decline."""
    mask_any_discard(s, k, m, player)


@compiled
def curia_choice(s, k, ev, action, player, stack):
    """Discard one hand card to take the whole stack, or decline and let it be discarded."""
    if action != k[K.A_DECLINE]:
        discard_from_hand(s, player, action - k[K.A_DISCARD])
        s.hand[player] += s.curia[stack]
        s.known[player] += s.curia[stack]  # a face-up stack
        say(k, ev, Ev.CURIA, player, stack, s.curia[stack].sum())
    else:
        discard_all(s, s.curia[stack], True)
    s.curia[stack] = 0

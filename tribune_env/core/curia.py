"""Region IV, the Curia: its stacks are dealt in Phase 1; each occupant may discard a card for its stack."""

from .._compiler import compiled
from ..data import CURIA, NUM_VALUES
from ..kernel import K
from ..tasks import Task
from .common import discard_all, discard_from_hand, draw_card, mask_any_discard, push, say, value_sum
from .events import Ev


@compiled
def deal_curia(state, params, events, stack, retry):
    """One more card on a stack, until its sum reaches the threshold or a leader lies on it."""
    card = draw_card(state, params, events, Task.DEAL_CURIA, stack, 0, retry)
    if card < 0:
        return
    state.curia[stack, card] += 1
    if card % NUM_VALUES != 0 and value_sum(state.curia[stack]) < params[K.CURIA_SUM]:
        push(state, Task.DEAL_CURIA, stack)


@compiled
def curia(state, params, stack):
    if state.curia[stack].sum() == 0:
        return
    p = state.space_owner[params[K.FIRST_SPACE + CURIA] + stack]
    if p < 0:
        discard_all(state, state.curia[stack], True)
        state.curia[stack] = 0
    else:
        push(state, Task.CURIA_CHOICE, p, stack)


@compiled
def mask_curia(state, params, mask, player):
    """Any card of the hand for the stack, or decline."""
    mask_any_discard(state, params, mask, player)


@compiled
def curia_choice(state, params, events, action, player, stack):
    """Discard one hand card to take the whole stack, or decline and let it be discarded."""
    if action != params[K.A_DECLINE]:
        discard_from_hand(state, player, action - params[K.A_DISCARD])
        state.hand[player] += state.curia[stack]
        state.known[player] += state.curia[stack]  # a face-up stack
        say(params, events, Ev.CURIA, player, stack, state.curia[stack].sum())
    else:
        discard_all(state, state.curia[stack], True)
    state.curia[stack] = 0

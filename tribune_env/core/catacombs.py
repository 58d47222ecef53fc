"""Region VI, the Catacombs: a pile dealt face down; each occupant in turn examines it and may buy a card."""

from .._compiler import compiled
from ..data import CATACOMBS, NUM_CARD_TYPES
from ..kernel import K
from ..state import MONEY, Meta
from ..tasks import Task
from .common import discard_all, draw_card, push, say
from .events import Ev


@compiled
def deal_catacombs(state, params, events, retry):
    card = draw_card(state, params, events, Task.DEAL_CATACOMBS, 0, 0, retry)
    if card >= 0:
        state.catacombs[card] += 1


@compiled
def catacombs(state, params, space):
    p = state.space_owner[params[K.FIRST_SPACE + CATACOMBS] + space]
    if p >= 0 and state.catacombs.sum() > 0:
        state.catacombs_seen[p] = state.catacombs  # it examines the pile; others see nothing
        push(state, Task.CATACOMBS_CHOICE, p, space)


@compiled
def mask_catacombs(state, params, mask, player, space):
    if state.res[player, MONEY] >= params[K.CATACOMB_PRICES + space]:
        for c in range(NUM_CARD_TYPES):
            mask[params[K.A_TAKE] + c] = state.catacombs[c] > 0
    mask[params[K.A_DECLINE]] = 1


@compiled
def catacombs_choice(state, params, events, action, player, space):
    """Buy one examined card; the price goes to the Colosseum."""
    if action == params[K.A_DECLINE]:
        return
    price = params[K.CATACOMB_PRICES + space]
    code = action - params[K.A_TAKE]
    state.res[player, MONEY] -= price
    state.meta[Meta.COLOSSEUM] += price
    state.catacombs[code] -= 1
    state.catacombs_seen[player, code] -= 1  # the player knows the pile without the card it took
    state.catacombs_bought[space] = code  # that the player bought is public, what only the player knows
    state.hand[player, code] += 1
    say(params, events, Ev.CATACOMBS, player, price)


@compiled
def catacombs_end(state):
    discard_all(state, state.catacombs, False)
    state.catacombs[:] = 0
    state.catacombs_seen[:] = 0
    state.catacombs_bought[:] = -1

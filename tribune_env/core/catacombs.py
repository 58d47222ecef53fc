"""Region VI, the Catacombs: a pile dealt face down; each occupant in turn examines it and may buy a card."""

from .._compiler import compiled
from ..data import CATACOMBS, NUM_CARD_TYPES
from ..kernel import K
from ..state import MONEY, Meta
from ..tasks import Task
from .common import discard_all, draw_card, push, say
from .events import Ev


@compiled
def deal_catacombs(s, k, ev, retry):
    card = draw_card(s, k, ev, Task.DEAL_CATACOMBS, 0, 0, retry)
    if card >= 0:
        s.catacombs[card] += 1


@compiled
def catacombs(s, k, space):
    p = s.space_owner[k[K.SP + CATACOMBS] + space]
    if p >= 0 and s.catacombs.sum() > 0:
        s.catacombs_seen[p] = s.catacombs  # it examines the pile; others see nothing
        push(s, Task.CATACOMBS_CHOICE, p, space)


@compiled
def mask_catacombs(s, k, m, player, space):
    if s.res[player, MONEY] >= k[K.CATACOMB_PRICES + space]:
        for c in range(NUM_CARD_TYPES):
            m[k[K.A_TAKE] + c] = s.catacombs[c] > 0
    m[k[K.A_DECLINE]] = 1


@compiled
def catacombs_choice(s, k, ev, action, player, space):
    """Buy one examined card; the price goes to the Colosseum."""
    if action == k[K.A_DECLINE]:
        return
    price = k[K.CATACOMB_PRICES + space]
    code = action - k[K.A_TAKE]
    s.res[player, MONEY] -= price
    s.meta[Meta.COLOSSEUM] += price
    s.catacombs[code] -= 1
    s.catacombs_seen[player, code] -= 1  # the player knows the pile without the card it took
    s.catacombs_bought[space] = code  # that the player bought is public, what only the player knows
    s.hand[player, code] += 1
    say(k, ev, Ev.CATACOMBS, player, price)


@compiled
def catacombs_end(s):
    discard_all(s, s.catacombs, False)
    s.catacombs[:] = 0
    s.catacombs_seen[:] = 0
    s.catacombs_bought[:] = -1

"""Phase 6: the sealed chariot auction and the block it places for the next round."""

from .._compiler import compiled
from ..data import NUM_FACTIONS
from ..kernel import K
from ..state import MONEY, Meta
from ..tasks import Task
from .common import push, say, start_order
from .events import Ev


@compiled
def phase6(state, params):
    state.meta[Meta.PHASE] = 6
    push(state, Task.ROUND_END)
    push(state, Task.CHARIOT_RESOLVE)
    for i in range(params[K.N] - 1, -1, -1):
        push(state, Task.CHARIOT_BID, start_order(state, params, i))


@compiled
def chariot_resolve(state, params, events):
    """The single highest bid wins and pays the stock; any tie for highest wins nothing."""
    n = params[K.N]
    bids = state.bids[:n]
    say(
        params,
        events,
        Ev.CHARIOT_BIDS,
        state.bids[0],
        state.bids[1],
        state.bids[2] if n > 2 else -1,
        state.bids[3] if n > 3 else -1,
        state.bids[4] if n > 4 else -1,
    )
    top = bids.max()
    state.meta[Meta.CHARIOT] = -1  # last round's block ends here
    leaders, winner = 0, -1
    for p in range(n):
        if bids[p] == top:
            leaders += 1
            winner = p
    if leaders == 1:
        state.res[winner, MONEY] -= top
        push(state, Task.CHARIOT_PLACE, winner)
    state.bids[:] = 0
    state.committed[:] = 0


@compiled
def mask_chariot(state, params, mask, player):
    for f in range(NUM_FACTIONS):
        mask[params[K.A_CHARIOT] + f] = state.controller[f] == player
    mask[params[K.A_DECLINE]] = 1


@compiled
def chariot_place(state, params, events, action, player):
    if action != params[K.A_DECLINE]:
        f = action - params[K.A_CHARIOT]
        state.meta[Meta.CHARIOT] = f
        say(params, events, Ev.CHARIOT, player, f)

"""Phase 6: the sealed chariot auction and the block it places for the next round."""

from .._compiler import compiled
from ..data import NUM_FACTIONS
from ..kernel import K
from ..state import MONEY, Meta
from ..tasks import Task
from .common import push, say, start_order
from .events import Ev


@compiled
def phase6(s, k):
    s.meta[Meta.PHASE] = 6
    push(s, Task.ROUND_END)
    push(s, Task.CHARIOT_RESOLVE)
    for i in range(k[K.N] - 1, -1, -1):
        push(s, Task.CHARIOT_BID, start_order(s, k, i))


@compiled
def chariot_resolve(s, k, ev):
    """The single highest bid wins and pays the stock; any tie for highest wins nothing."""
    n = k[K.N]
    bids = s.bids[:n]
    say(
        k,
        ev,
        Ev.CHARIOT_BIDS,
        s.bids[0],
        s.bids[1],
        s.bids[2] if n > 2 else -1,
        s.bids[3] if n > 3 else -1,
        s.bids[4] if n > 4 else -1,
    )
    top = bids.max()
    s.meta[Meta.CHARIOT] = -1  # last round's block ends here
    leaders, winner = 0, -1
    for p in range(n):
        if bids[p] == top:
            leaders += 1
            winner = p
    if leaders == 1:
        s.res[winner, MONEY] -= top
        push(s, Task.CHARIOT_PLACE, winner)
    s.bids[:] = 0
    s.committed[:] = 0


@compiled
def mask_chariot(s, k, m, player):
    for f in range(NUM_FACTIONS):
        m[k[K.A_CHARIOT] + f] = s.controller[f] == player
    m[k[K.A_DECLINE]] = 1


@compiled
def chariot_place(s, k, ev, action, player):
    if action != k[K.A_DECLINE]:
        f = action - k[K.A_CHARIOT]
        s.meta[Meta.CHARIOT] = f
        say(k, ev, Ev.CHARIOT, player, f)

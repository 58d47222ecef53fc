"""Phase 6: the sealed chariot auction and the block it places for the next round."""
import numpy as np

from ..data import FACTIONS, NUM_FACTIONS
from ..state import M, MONEY
from ..tasks import Task
from .regions import apply_bid, mask_bid
from .registry import auto, decision


@auto(Task.PHASE6)
def phase6(g, a, b, c):
    g.meta[M["phase"]] = 6
    start = int(g.meta[M["start_player"]])
    g.push_seq(*[(Task.CHARIOT_BID, (start + i) % g.n) for i in range(g.n)],
               (Task.CHARIOT_RESOLVE,), (Task.ROUND_END,))


decision(Task.CHARIOT_BID, mask_bid)(apply_bid)


@auto(Task.CHARIOT_RESOLVE)
def chariot_resolve(g, a, b, c):
    """The single highest bid wins and pays the stock; any tie for highest wins nothing."""
    bids = g.bids[: g.n]
    g.say(f"chariot bids: {bids.tolist()}")
    top = bids.max()
    g.meta[M["chariot"]] = -1                 # last round's block ends here
    leaders = np.flatnonzero(bids == top)
    if len(leaders) == 1:
        p = int(leaders[0])
        g.gain(p, MONEY, -int(top))
        g.push(Task.CHARIOT_PLACE, p)
    g.bids[:] = 0
    g.committed[:] = 0


def mask_chariot(g, m, p, b, c):
    m[g.A.CHARIOT: g.A.CHARIOT + NUM_FACTIONS] = g.controller == p
    m[g.A.DECLINE] = 1


@decision(Task.CHARIOT_PLACE, mask_chariot)
def chariot_place(g, action, p, b, c):
    if action != g.A.DECLINE:
        f = action - g.A.CHARIOT
        g.meta[M["chariot"]] = f
        g.say(f"player_{p} blocks the {FACTIONS[f]} with the chariot")

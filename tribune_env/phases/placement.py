"""Phase 2: placing followers on region spaces, faction fields and the coin bowl."""
import numpy as np

from ..data import FACTIONS, PATRICIANS, VESTALS
from ..state import M, MONEY
from ..tasks import Task
from .registry import auto, decision


@auto(Task.PHASE2)
def phase2(g, a, b, c):
    meta = g.meta
    meta[M["phase"]] = 2
    g.followers[: g.n] = g.data.followers[g.n]
    proconsul = int(meta[M["proconsul"]])
    if proconsul >= 0 and g.controller[PATRICIANS] == proconsul:
        g.followers[proconsul] += 1          # the proconsul is one extra follower
        g.say(f"player_{proconsul} places the proconsul as an extra follower")
    g.push(Task.PLACE, int(meta[M["start_player"]]))


def _pooled_space(g, region, p):
    """The space a follower takes in a region whose spaces are filled in order, or -1."""
    spaces = g.board.spaces[region]
    owners = g.space_owner[spaces.start: spaces.stop]
    if region != "Field of Mars" and (owners == p).any():
        return -1                             # never both spaces of the Atrium or the Pantheon
    free = np.flatnonzero(owners < 0)
    return spaces.start + int(free[0]) if len(free) else -1


def mask_place(g, m, p, b, c):
    A, board = g.A, g.board
    targets = board.place_targets
    owner = g.space_owner
    for i, (region, space) in enumerate(targets):
        if space is None:
            if region == "Pantheon" and not g.markers[p, VESTALS]:
                continue
            m[A.PLACE + i] = _pooled_space(g, region, p) >= 0
        else:
            m[A.PLACE + i] = owner[space] < 0
    fo = g.field_owner
    ok = ((fo[:, 0] < 0) | ((fo[:, 1] < 0) & (fo[:, 0] != p))) & (g.controller != p)
    chariot = g.meta[M["chariot"]]
    if chariot >= 0:
        ok[chariot] = False                   # the chariot blocks its faction for this round
    m[A.FIELD: A.FIELD + len(FACTIONS)] = ok
    m[A.COIN_BOWL] = 1


@decision(Task.PLACE, mask_place)
def place(g, action, p, b, c):
    A, board, meta = g.A, g.board, g.meta
    if action == A.COIN_BOWL:
        first = meta[M["coin_bowl_used"]] == 0
        meta[M["coin_bowl_used"]] += 1
        g.coin_bowl[p] += 1
        g.gain(p, MONEY, g.data.coin_bowl_first if first else g.data.coin_bowl_later)
    elif action >= A.FIELD:
        f = action - A.FIELD
        g.field_owner[f, 0 if g.field_owner[f, 0] < 0 else 1] = p
    else:
        region, space = board.place_targets[action - A.PLACE]
        if space is None:
            space = _pooled_space(g, region, p)
        g.space_owner[space] = p
        _on_region_placement(g, p, region, space)
    g.followers[p] -= 1
    for i in range(1, g.n + 1):
        q = (p + i) % g.n
        if g.followers[q] > 0:
            g.push(Task.PLACE, q)
            break
    else:
        g.push(Task.PHASE3)
    if action < A.FIELD and region == "Atrium Auctionorum" and space == board.spaces[region].start:
        atrium = board.slots["Atrium Auctionorum"]
        if (g.slot_card[atrium.start: atrium.stop] >= 0).any():
            g.push(Task.ATRIUM_FLIP, p)      # before the next follower is placed


def _on_region_placement(g, p, region, space):
    """The two Phase 2 exceptions: Atrium flips and the Pantheon's private look."""
    if region == "Pantheon":
        g.pantheon_seen[p] = 1
    elif region == "Atrium Auctionorum" and space != g.board.spaces[region].start:
        atrium = g.board.slots[region]
        g.slot_up[atrium.start: atrium.stop] = g.slot_card[atrium.start: atrium.stop] >= 0


def mask_atrium_flip(g, m, p, b, c):
    atrium = g.board.slots["Atrium Auctionorum"]
    m[g.A.ATRIUM: g.A.ATRIUM + len(atrium)] = g.slot_card[atrium.start: atrium.stop] >= 0


@decision(Task.ATRIUM_FLIP, mask_atrium_flip)
def atrium_flip(g, action, p, b, c):
    """The player on "1." turns all Atrium cards but the chosen one face up."""
    atrium = g.board.slots["Atrium Auctionorum"]
    up = g.slot_card[atrium.start: atrium.stop] >= 0
    up[action - g.A.ATRIUM] = False
    g.slot_up[atrium.start: atrium.stop] = up

"""Phase 2: placing followers on region spaces, faction fields and the coin bowl."""

from .._compiler import compiled
from ..data import ATRIUM, CATACOMBS, MARS, NUM_FACTIONS, PANTHEON, PATRICIANS, VESTALS
from ..kernel import K
from ..state import MONEY, Meta
from ..tasks import Task
from .atrium import atrium_placed
from .common import push, say
from .events import Ev


@compiled
def phase2(s, k, ev):
    s.meta[Meta.PHASE] = 2
    s.followers[: k[K.N]] = k[K.FOLLOWERS]
    proconsul = s.meta[Meta.PROCONSUL]
    if proconsul >= 0 and s.controller[PATRICIANS] == proconsul:
        s.followers[proconsul] += k[K.PROCONSUL_FOLLOWERS]  # the proconsul: extra followers
        say(k, ev, Ev.PROCONSUL, proconsul)
    push(s, Task.PLACE, s.meta[Meta.START_PLAYER])


@compiled
def region_range(k, region):
    if region == ATRIUM:
        return k[K.SP + ATRIUM], k[K.SP + CATACOMBS]
    if region == PANTHEON:
        return k[K.SP + PANTHEON], k[K.SP + MARS]
    return k[K.SP + MARS], k[K.SP_END]


@compiled
def pooled_space(s, k, region, player):
    """The space a follower takes in a region filled in order, or -1 if none is open to the player."""
    start, stop = region_range(k, region)
    free = -1
    for space in range(start, stop):
        owner = s.space_owner[space]
        if owner == player and region != MARS:
            return -1  # never both spaces of the Atrium or the Pantheon
        if owner < 0 and free < 0:
            free = space
    return free


@compiled
def mask_place(s, k, m, player):
    place = k[K.A_PLACE]
    for i in range(k[K.A_FIELD] - place):
        space = k[K.PLACE_SPACE + i]
        if space >= 0:
            m[place + i] = s.space_owner[space] < 0
        else:
            region = k[K.PLACE_REGION + i]
            if region != PANTHEON or s.markers[player, VESTALS]:
                m[place + i] = pooled_space(s, k, region, player) >= 0
    chariot = s.meta[Meta.CHARIOT]
    for f in range(NUM_FACTIONS):
        first, second = s.field_owner[f, 0], s.field_owner[f, 1]
        m[k[K.A_FIELD] + f] = (
            (first < 0 or (second < 0 and first != player)) and s.controller[f] != player and f != chariot
        )
    m[k[K.A_COIN_BOWL]] = 1


@compiled
def place(s, k, ev, action, player):
    atrium_flip = False
    if action == k[K.A_COIN_BOWL]:
        first = s.meta[Meta.COIN_BOWL_USED] == 0
        s.meta[Meta.COIN_BOWL_USED] += 1
        s.coin_bowl[player] += 1
        s.res[player, MONEY] += k[K.COIN_BOWL_FIRST] if first else k[K.COIN_BOWL_LATER]
    elif action >= k[K.A_FIELD]:
        f = action - k[K.A_FIELD]
        s.field_owner[f, 0 if s.field_owner[f, 0] < 0 else 1] = player
    else:
        i = action - k[K.A_PLACE]
        space = k[K.PLACE_SPACE + i]
        region = k[K.PLACE_REGION + i]
        if space < 0:
            space = pooled_space(s, k, region, player)
        s.space_owner[space] = player
        if region == PANTHEON:
            s.pantheon_seen[player] = 1  # a private look at the face-down card
        elif region == ATRIUM:
            atrium_flip = atrium_placed(s, k, space)
    s.followers[player] -= 1
    n = k[K.N]
    placed = False
    for i in range(1, n + 1):
        q = (player + i) % n
        if s.followers[q] > 0:
            push(s, Task.PLACE, q)
            placed = True
            break
    if not placed:
        push(s, Task.PHASE3)
    if atrium_flip:
        push(s, Task.ATRIUM_FLIP, player)  # pushed last: it runs before the next follower is placed

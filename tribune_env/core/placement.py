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
def phase2(state, params, events):
    state.meta[Meta.PHASE] = 2
    state.followers[: params[K.N]] = params[K.FOLLOWERS]
    proconsul = state.meta[Meta.PROCONSUL]
    if proconsul >= 0 and state.controller[PATRICIANS] == proconsul:
        state.followers[proconsul] += params[K.PROCONSUL_FOLLOWERS]  # the proconsul: extra followers
        say(params, events, Ev.PROCONSUL, proconsul)
    push(state, Task.PLACE, state.meta[Meta.START_PLAYER])


@compiled
def region_range(params, region):
    if region == ATRIUM:
        return params[K.FIRST_SPACE + ATRIUM], params[K.FIRST_SPACE + CATACOMBS]
    if region == PANTHEON:
        return params[K.FIRST_SPACE + PANTHEON], params[K.FIRST_SPACE + MARS]
    return params[K.FIRST_SPACE + MARS], params[K.SPACES_END]


@compiled
def pooled_space(state, params, region, player):
    """The space a follower takes in a region filled in order, or -1 if none is open to the player."""
    start, stop = region_range(params, region)
    free = -1
    for space in range(start, stop):
        owner = state.space_owner[space]
        if owner == player and region != MARS:
            return -1  # never both spaces of the Atrium or the Pantheon
        if owner < 0 and free < 0:
            free = space
    return free


@compiled
def mask_place(state, params, mask, player):
    place = params[K.A_PLACE]
    for i in range(params[K.A_FIELD] - place):
        space = params[K.PLACE_SPACE + i]
        if space >= 0:
            mask[place + i] = state.space_owner[space] < 0
        else:
            region = params[K.PLACE_REGION + i]
            if region != PANTHEON or state.markers[player, VESTALS]:
                mask[place + i] = pooled_space(state, params, region, player) >= 0
    chariot = state.meta[Meta.CHARIOT]
    for f in range(NUM_FACTIONS):
        first, second = state.field_owner[f, 0], state.field_owner[f, 1]
        mask[params[K.A_FIELD] + f] = (
            (first < 0 or (second < 0 and first != player)) and state.controller[f] != player and f != chariot
        )
    mask[params[K.A_COIN_BOWL]] = 1


@compiled
def place(state, params, events, action, player):
    atrium_flip = False
    if action == params[K.A_COIN_BOWL]:
        first = state.meta[Meta.COIN_BOWL_USED] == 0
        state.meta[Meta.COIN_BOWL_USED] += 1
        state.coin_bowl[player] += 1
        state.res[player, MONEY] += params[K.COIN_BOWL_FIRST] if first else params[K.COIN_BOWL_LATER]
    elif action >= params[K.A_FIELD]:
        f = action - params[K.A_FIELD]
        state.field_owner[f, 0 if state.field_owner[f, 0] < 0 else 1] = player
    else:
        i = action - params[K.A_PLACE]
        space = params[K.PLACE_SPACE + i]
        region = params[K.PLACE_REGION + i]
        if space < 0:
            space = pooled_space(state, params, region, player)
        state.space_owner[space] = player
        if region == PANTHEON:
            state.pantheon_seen[player] = 1  # a private look at the face-down card
        elif region == ATRIUM:
            atrium_flip = atrium_placed(state, params, space)
    state.followers[player] -= 1
    n = params[K.N]
    placed = False
    for i in range(1, n + 1):
        q = (player + i) % n
        if state.followers[q] > 0:
            push(state, Task.PLACE, q)
            placed = True
            break
    if not placed:
        push(state, Task.PHASE3)
    if atrium_flip:
        push(state, Task.ATRIUM_FLIP, player)  # pushed last: it runs before the next follower is placed

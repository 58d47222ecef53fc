"""The observation, compiled: one player's view written into a float32 vector.

Offsets come from :class:`tribune_env.observation.ObservationLayout` as an int64 array
indexed by :class:`~tribune_env.observation.Seg`. The part fixed for a whole game (seats present,
victory card) is written from the game's parameters into a zeroed vector: a template of the
whole observation, copied at every call, cost a sixth of the encoding, and 6.6 KB a game in a batch.
"""

from .._compiler import compiled, entry
from ..data import MARS, MAX_PLAYERS, NUM_CARD_TYPES, NUM_FACTIONS, NUM_OBJECTIVES, NUM_VALUES, PANTHEON
from ..kernel import K, views
from ..observation import SLOT_FEATURES, Seg
from ..state import ETERNAL, LAURELS, LEGIONS, MARKERS, MONEY, TILE, Meta, Status
from ..tasks import BIDS, ON_FACTION, ON_SPACE, WITH_ROLE, Task
from .bids import bid_position
from .common import copy_row, top_task
from .scoring import objective
from .visibility import laid_pair, sees_pair, sees_slot


@compiled(inline="always")
def one_hot(out, at, n, observer, seat):
    """Mark `seat` seat-relative to the observer at out[at:at + MAX_PLAYERS]; nobody (-1) marks nothing.

    Both seats are below n, so one addition does what ``% n`` would, without its division."""
    if seat >= 0:
        relative = seat - observer
        out[at + (relative + n if relative < 0 else relative)] = 1


@compiled(inline="always")
def fixed_part(params, seg, out):
    """Seats present and the victory card (in the point-value variant, its marker goal)."""
    for seat in range(params[K.N]):
        out[seg[Seg.seat_present] + seat] = 1
    if not params[K.VICTORY]:
        out[seg[Seg.point_variant]] = 1
        out[seg[Seg.marker_goal]] = params[K.POINT_VARIANT_MARKERS]
        return
    out[seg[Seg.victory]] = params[K.V_LAURELS]
    out[seg[Seg.victory] + 1] = params[K.V_LEGIONS]
    out[seg[Seg.victory] + 2] = params[K.V_DENARII]
    out[seg[Seg.victory] + 3] = params[K.V_MARKERS]
    out[seg[Seg.victory_need]] = params[K.V_NEED]
    if params[K.V_OBLIGATORY] >= 0:
        out[seg[Seg.obligatory] + params[K.V_OBLIGATORY]] = 1


@entry
def observe(buf, params, seg, observer, out):
    state = views(buf, params)
    n = params[K.N]
    out[:] = 0
    fixed_part(params, seg, out)
    # seat-relative rows: position i is seat (observer + i) % n; the rows past the n seats stay zero
    temporary_favor = state.meta[Meta.TEMP_FAVOR]
    for i in range(n):
        q = observer + i - n if observer + i >= n else observer + i
        res = state.res[q]
        out[seg[Seg.money] + i] = res[MONEY]
        out[seg[Seg.laurels] + i] = res[LAURELS]
        out[seg[Seg.legions] + i] = res[LEGIONS]
        out[seg[Seg.tile] + i] = res[TILE]
        out[seg[Seg.eternal_favor] + i] = res[ETERNAL]
        out[seg[Seg.marker_count] + i] = res[MARKERS]
        copy_row(out, seg[Seg.markers] + i * NUM_FACTIONS, state.markers[q])
        out[seg[Seg.followers_left] + i] = state.followers[q]
        out[seg[Seg.coin_bowl] + i] = state.coin_bowl[q]
        out[seg[Seg.has_bid] + i] = state.committed[q]
        out[seg[Seg.hand_size] + i] = state.hand[q].sum()
        out[seg[Seg.declared] + i] = state.declared[q] + 1
        copy_row(out, seg[Seg.known_hands] + i * NUM_CARD_TYPES, state.known[q])
        at = seg[Seg.objectives] + i * NUM_OBJECTIVES
        for j in range(NUM_OBJECTIVES):
            out[at + j] = objective(res, params, temporary_favor, q, j)
    copy_row(out, seg[Seg.hand], state.hand[observer])
    copy_row(out, seg[Seg.discard_public], state.discard_public)
    for stack in range(state.curia.shape[0]):
        copy_row(out, seg[Seg.curia] + stack * NUM_CARD_TYPES, state.curia[stack])
    for f in range(NUM_FACTIONS):
        copy_row(out, seg[Seg.sets] + f * NUM_VALUES, state.sets[f])
        out[seg[Seg.first_laurel] + f] = state.first_laurel[f]
        one_hot(out, seg[Seg.controller] + f * MAX_PLAYERS, n, observer, state.controller[f])
        for j in range(2):
            one_hot(out, seg[Seg.field_owner] + (f * 2 + j) * MAX_PLAYERS, n, observer, state.field_owner[f, j])
    for v in range(NUM_VALUES):
        out[seg[Seg.challenger] + v] = state.challenger[v]
    out[seg[Seg.colosseum]] = state.meta[Meta.COLOSSEUM]
    out[seg[Seg.draw_size]] = state.meta[Meta.DRAW_N]
    out[seg[Seg.round]] = state.meta[Meta.ROUND]
    for space in range(len(state.space_owner)):
        one_hot(out, seg[Seg.space_owner] + space * MAX_PLAYERS, n, observer, state.space_owner[space])
    one_hot(out, seg[Seg.start_player], n, observer, state.meta[Meta.START_PLAYER])
    one_hot(out, seg[Seg.proconsul], n, observer, state.meta[Meta.PROCONSUL])
    one_hot(out, seg[Seg.temporary_favor], n, observer, state.meta[Meta.TEMP_FAVOR])

    # what the observer alone holds or has seen
    kind, actor, b, c = 0, -1, 0, 0
    if state.meta[Meta.STATUS] == Status.RUNNING and state.meta[Meta.N_TASKS] > 0:  # (a staged state may hold none)
        top = top_task(state)
        kind, actor, b, c = state.tasks[top, 0], state.tasks[top, 1], state.tasks[top, 2], state.tasks[top, 3]
    if actor == observer:
        for card in range(NUM_CARD_TYPES):
            out[seg[Seg.build] + card] = state.build[card]
    if kind in BIDS:
        out[seg[Seg.own_bid]] = state.bids[observer]  # entered so far, or committed
    for i in range(state.mars_pairs.shape[0]):
        if sees_pair(params, state.space_owner, observer, i):
            for card in range(NUM_CARD_TYPES):
                out[seg[Seg.own_pairs] + card] += state.mars_pairs[i, card]
        if laid_pair(state.mars_pairs, i):
            out[seg[Seg.pairs_laid] + (state.space_owner[params[K.FIRST_SPACE + MARS] + i] - observer) % n] += 1
    for card in range(NUM_CARD_TYPES):  # as the observer last saw it: later purchases stay secret
        out[seg[Seg.catacombs_seen] + card] = state.catacombs_seen[observer, card]
    out[seg[Seg.catacombs_size]] = state.catacombs.sum()
    out[seg[Seg.discard_hidden_size]] = state.discard_hidden.sum()

    # the board: face-down cards only once turned up, or the Pantheon card after a private look
    chariot = state.meta[Meta.CHARIOT]
    if chariot >= 0:
        out[seg[Seg.chariot] + chariot] = 1
    pantheon = params[K.FIRST_SLOT + PANTHEON]
    for slot in range(len(state.slot_card)):
        card = state.slot_card[slot]
        at = seg[Seg.slots] + slot * SLOT_FEATURES
        if card >= 0:
            out[at] = 1
            if sees_slot(params, state.slot_up, state.pantheon_seen, observer, slot):
                out[at + 1 + card // NUM_VALUES] = 1
                out[at + 1 + NUM_FACTIONS] = card % NUM_VALUES

    # the round and the decision
    out[seg[Seg.phase] + state.meta[Meta.PHASE]] = 1
    out[seg[Seg.rounds_left]] = params[K.ROUND_LIMIT] - state.meta[Meta.ROUND]
    if kind:
        out[seg[Seg.decision] + kind - Task.SETUP_DISCARD] = 1
        one_hot(out, seg[Seg.actor], n, observer, actor)
        if kind in ON_FACTION:
            out[seg[Seg.context_faction] + b] = 1
        elif kind == Task.SACRIFICE:
            out[seg[Seg.context_faction] + state.slot_card[pantheon] // NUM_VALUES] = 1
        if kind in ON_SPACE:
            out[seg[Seg.context_index] + b] = 1
        elif kind in BIDS and actor == observer:
            position = bid_position(state, params, observer, b)
            if position > 0:  # the units, the only digit below the base, stay unmarked
                size = seg[Seg.context_role] - seg[Seg.context_index]
                out[seg[Seg.context_index] + min(position, size) - 1] = 1
        if kind in WITH_ROLE:
            out[seg[Seg.context_role] + (c == 1)] = 1

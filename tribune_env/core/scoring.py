"""Victory and scoring: the objectives of the victory card, declarations, points, the winner.

``points`` is the scoring table, shared by the engine (``scores``) and the agents' evaluation.
"""

import numpy as np

from .._compiler import compiled
from ..data import NUM_OBJECTIVES, Objective
from ..kernel import K
from ..state import ETERNAL, LAURELS, LEGIONS, MARKERS, MONEY, SCROLL, TILE, TRIBUNE, Meta, Status
from .common import say, start_order
from .events import Ev


@compiled(inline="always")
def objective(res, params, temp_favor, player, i):
    """Whether a player (resources `res`) meets objective i of OBJECTIVES."""
    if i == Objective.TRIBUNE:
        return res[TILE] == TRIBUNE
    if i == Objective.FAVOR:
        return res[ETERNAL] > 0 or temp_favor == player
    if i == Objective.LAURELS:
        return res[LAURELS] >= params[K.V_LAURELS]
    if i == Objective.LEGIONS:
        return res[LEGIONS] >= params[K.V_LEGIONS]
    if i == Objective.DENARII:
        return res[MONEY] >= params[K.V_DENARII]
    return res[MARKERS] >= params[K.V_MARKERS]


@compiled
def meets_victory(state, params, player):
    """Whether the player now meets the victory card (in the point-value variant, the marker goal)."""
    res = state.res[player]
    if not params[K.VICTORY]:
        return res[MARKERS] >= params[K.POINT_VARIANT_MARKERS]
    temp_favor = state.meta[Meta.TEMP_FAVOR]
    met = 0
    for i in range(NUM_OBJECTIVES):
        met += objective(res, params, temp_favor, player, i)
    obligatory = params[K.V_OBLIGATORY]
    return met >= params[K.V_NEED] and (obligatory < 0 or objective(res, params, temp_favor, player, obligatory))


@compiled
def check_declarations(state, params, events):
    """Record, in order, each player who now meets the victory card (or the marker goal).

    Players who come to meet it in the same change of state are recorded clockwise from
    the starting player (clarifications, "Winning").
    """
    for i in range(params[K.N]):
        p = start_order(state, params, i)
        if state.declared[p] < 0 and meets_victory(state, params, p):
            order = state.meta[Meta.N_DECLARED]
            state.declared[p] = order
            state.meta[Meta.N_DECLARED] = order + 1
            say(params, events, Ev.DECLARE, p)


@compiled
def points(params, tile, eternal, temporary, legions, laurels, denarii, markers, first):
    """Points of the scoring table (rulebook, "The End of Play"), the first declarer's 2 included.

    The engine scores the real state with it, the agents a hypothetical one (floats).
    """
    total = params[K.SCORING_TRIBUNE] if tile == TRIBUNE else params[K.SCORING_SCROLL] if tile == SCROLL else 0
    total += eternal * params[K.SCORING_ETERNAL_FAVOR] + temporary * params[K.SCORING_TEMPORARY_FAVOR]
    total += legions * params[K.SCORING_LEGION] + laurels * params[K.SCORING_LAUREL]
    total += (
        denarii // params[K.SCORING_DENARII_PER_POINT]
        + markers * params[K.SCORING_MARKER]
        + first * params[K.SCORING_FIRST_DECLARER]
    )
    return total


@compiled
def scores(state, params):
    """Points of each seat now."""
    out = np.zeros(params[K.N], dtype=np.int64)
    for p in range(params[K.N]):
        r = state.res[p]
        out[p] = points(
            params,
            r[TILE],
            r[ETERNAL],
            state.meta[Meta.TEMP_FAVOR] == p,
            r[LEGIONS],
            r[LAURELS],
            r[MONEY],
            r[MARKERS],
            state.declared[p] == 0,
        )
    return out


@compiled
def finish(state, params, events):
    """End of the round in which someone declared: the highest score among declarers wins.

    Equal scores go to the earlier declarer; in the point-value variant they share the win.
    """
    points = scores(state, params)
    n = params[K.N]
    if params[K.VICTORY]:
        best = -1
        for p in range(n):
            if state.declared[p] >= 0 and (
                best < 0
                or points[p] > points[best]
                or (points[p] == points[best] and state.declared[p] < state.declared[best])
            ):
                best = p
        state.winner[best] = 1
    else:
        top = points.max()
        for p in range(n):
            state.winner[p] = points[p] == top
    state.meta[Meta.STATUS] = Status.TERMINATED
    say(params, events, Ev.GAME_OVER, state.meta[Meta.ROUND])

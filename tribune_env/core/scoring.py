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
def objective(res, k, temp_favor, player, i):
    """Whether a player (resources `res`) meets objective i of OBJECTIVES."""
    if i == Objective.TRIBUNE:
        return res[TILE] == TRIBUNE
    if i == Objective.FAVOR:
        return res[ETERNAL] > 0 or temp_favor == player
    if i == Objective.LAURELS:
        return res[LAURELS] >= k[K.V_LAURELS]
    if i == Objective.LEGIONS:
        return res[LEGIONS] >= k[K.V_LEGIONS]
    if i == Objective.DENARII:
        return res[MONEY] >= k[K.V_DENARII]
    return res[MARKERS] >= k[K.V_MARKERS]


@compiled
def meets_victory(s, k, player):
    """Whether the player now meets the victory card (in the point-value variant, the marker goal)."""
    res = s.res[player]
    if not k[K.VICTORY]:
        return res[MARKERS] >= k[K.POINT_VARIANT_MARKERS]
    temp_favor = s.meta[Meta.TEMP_FAVOR]
    met = 0
    for i in range(NUM_OBJECTIVES):
        met += objective(res, k, temp_favor, player, i)
    obligatory = k[K.V_OBLIGATORY]
    return met >= k[K.V_NEED] and (obligatory < 0 or objective(res, k, temp_favor, player, obligatory))


@compiled
def check_declarations(s, k, ev):
    """Record, in order, each player who now meets the victory card (or the marker goal).

    Players who come to meet it in the same change of state are recorded clockwise from
    the starting player (clarifications, "Winning").
    """
    for i in range(k[K.N]):
        p = start_order(s, k, i)
        if s.declared[p] < 0 and meets_victory(s, k, p):
            order = s.meta[Meta.N_DECLARED]
            s.declared[p] = order
            s.meta[Meta.N_DECLARED] = order + 1
            say(k, ev, Ev.DECLARE, p)


@compiled
def points(k, tile, eternal, temporary, legions, laurels, denarii, markers, first):
    """Points of the scoring table (rulebook, "The End of Play"), the first declarer's 2 included.

    The engine scores the real state with it, the agents a hypothetical one (floats).
    """
    total = k[K.SCORING_TRIBUNE] if tile == TRIBUNE else k[K.SCORING_SCROLL] if tile == SCROLL else 0
    total += eternal * k[K.SCORING_ETERNAL_FAVOR] + temporary * k[K.SCORING_TEMPORARY_FAVOR]
    total += legions * k[K.SCORING_LEGION] + laurels * k[K.SCORING_LAUREL]
    total += (
        denarii // k[K.SCORING_DENARII_PER_POINT] + markers * k[K.SCORING_MARKER] + first * k[K.SCORING_FIRST_DECLARER]
    )
    return total


@compiled
def scores(s, k):
    """Points of each seat now."""
    out = np.zeros(k[K.N], dtype=np.int64)
    for p in range(k[K.N]):
        r = s.res[p]
        out[p] = points(
            k,
            r[TILE],
            r[ETERNAL],
            s.meta[Meta.TEMP_FAVOR] == p,
            r[LEGIONS],
            r[LAURELS],
            r[MONEY],
            r[MARKERS],
            s.declared[p] == 0,
        )
    return out


@compiled
def finish(s, k, ev):
    """End of the round in which someone declared: the highest score among declarers wins.

    Equal scores go to the earlier declarer; in the point-value variant they share the win.
    """
    points = scores(s, k)
    n = k[K.N]
    if k[K.VICTORY]:
        best = -1
        for p in range(n):
            if s.declared[p] >= 0 and (
                best < 0 or points[p] > points[best] or (points[p] == points[best] and s.declared[p] < s.declared[best])
            ):
                best = p
        s.winner[best] = 1
    else:
        top = points.max()
        for p in range(n):
            s.winner[p] = points[p] == top
    s.meta[Meta.STATUS] = Status.TERMINATED
    say(k, ev, Ev.GAME_OVER, s.meta[Meta.ROUND])

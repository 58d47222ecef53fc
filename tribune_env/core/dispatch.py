"""The compiled engine loop: run automatic tasks, compute masks, apply decisions.

``step`` is the one entry point: it applies an action to the decision on top of the task
stack, runs automatic tasks (and, if enabled, decisions with a single legal action) until
a real decision or the end, and leaves that decision's mask in ``m``.
"""

import numpy as np

from ..data import NUM_OBJECTIVES
from ..jit import compiled, entry
from ..kernel import K, views
from ..state import Meta, Status
from ..tasks import Task
from . import atrium, benefits, catacombs, curia, latrine, leaders, market, mars, pantheon, takeover
from . import bids as bd
from . import chariot as ch
from . import placement as pl
from . import regions as rg
from . import rounds as ro
from .common import say, top_task
from .events import Ev
from .scoring import check_declarations, meets_victory, objective, scores


@compiled(inline="always")
def run_auto(s, k, ev, kind, a, b, c):
    if kind == Task.ROUND_START:
        ro.round_start(s, k, ev)
    elif kind == Task.DEAL:
        ro.deal(s, k, ev, a, c)
    elif kind == Task.DEAL_CURIA:
        curia.deal_curia(s, k, ev, a, c)
    elif kind == Task.DEAL_CATACOMBS:
        catacombs.deal_catacombs(s, k, ev, c)
    elif kind == Task.DRAW:
        ro.draw(s, k, ev, a, c)
    elif kind == Task.PHASE2:
        pl.phase2(s, k, ev)
    elif kind == Task.PHASE3:
        rg.phase3(s, k, ev)
    elif kind == Task.THERMAE:
        market.thermae(s, k, ev)
    elif kind == Task.FORUM:
        market.forum(s, k, ev)
    elif kind == Task.LATRINE:
        latrine.latrine(s, k, ev)
    elif kind == Task.CURIA:
        curia.curia(s, k, a)
    elif kind == Task.ATRIUM:
        atrium.atrium(s, k, ev)
    elif kind == Task.ATRIUM_RESOLVE:
        atrium.atrium_resolve(s, k, ev)
    elif kind == Task.CATACOMBS:
        catacombs.catacombs(s, k, a)
    elif kind == Task.CATACOMBS_END:
        catacombs.catacombs_end(s)
    elif kind == Task.PANTHEON:
        pantheon.pantheon(s, k, ev)
    elif kind == Task.PANTHEON_END:
        pantheon.pantheon_end(s, k, ev)
    elif kind == Task.MARS:
        mars.mars(s, k)
    elif kind == Task.MARS_RESOLVE:
        mars.mars_resolve(s, k, ev)
    elif kind == Task.PHASE4:
        takeover.phase4(s)
    elif kind == Task.TAKEOVER:
        takeover.takeover(s, a)
    elif kind == Task.TAKEOVER_BENEFIT:
        benefits.takeover_benefit(s, k, ev, a, b)
    elif kind == Task.MARKER_LAUREL:
        takeover.marker_laurel(s, k, ev, a, b)
    elif kind == Task.LEADER:
        leaders.leader(s, k, ev, a, b)
    elif kind == Task.PHASE5:
        benefits.phase5(s)
    elif kind == Task.FACTION_BENEFIT:
        benefits.faction_benefit(s, k, ev, a)
    elif kind == Task.PHASE6:
        ch.phase6(s, k)
    elif kind == Task.CHARIOT_RESOLVE:
        ch.chariot_resolve(s, k, ev)
    elif kind == Task.ROUND_END:
        ro.round_end(s, k, ev)
    elif kind == Task.CESURA_SETS:
        ro.cesura_sets(s, k, ev)
    elif kind == Task.SETUP_FINISH:
        ro.setup_finish(s, k, ev)
    elif kind == Task.RETURN_FOLLOWERS:
        rg.return_followers(s, k, a)


@compiled(inline="always")
def fill_mask(s, k, m, kind, p, b, c):
    """Write the legal actions of decision (kind, p, b, c) into the zeroed mask m."""
    if kind == Task.PLACE:
        pl.mask_place(s, k, m, p)
    elif kind == Task.SETUP_DISCARD:
        ro.mask_discard_down(s, k, m, p, k[K.SETUP_KEEP])
    elif kind == Task.CESURA_DISCARD:
        ro.mask_discard_down(s, k, m, p, k[K.CESURA_HAND_LIMIT])
    elif kind == Task.ATRIUM_FLIP:
        atrium.mask_atrium_flip(s, k, m)
    elif kind == Task.LATRINE_CHOICE:
        latrine.mask_latrine(s, k, m, p)
    elif kind == Task.CURIA_CHOICE:
        curia.mask_curia(s, k, m, p)
    elif kind == Task.TIGELLINUS:
        leaders.mask_tigellinus(s, k, m, p)
    elif kind == Task.ATRIUM_BID or kind == Task.CHARIOT_BID:
        bd.mask_bid(s, k, m, p, b)
    elif kind == Task.CATACOMBS_CHOICE:
        catacombs.mask_catacombs(s, k, m, p, b)
    elif kind == Task.SACRIFICE:
        pantheon.mask_sacrifice(s, k, m, p)
    elif kind == Task.MARS_PAIR:
        mars.mask_mars(s, k, m, p)
    elif kind == Task.TAKEOVER_SET:
        takeover.mask_takeover(s, k, m, p, b, c)
    elif kind == Task.PENALTY:
        takeover.mask_penalty(s, k, m, b)
    elif kind == Task.ASSASSIN:
        benefits.mask_assassin(s, k, m)
    elif kind == Task.AGRIPPA:
        leaders.mask_agrippa(s, k, m, p)
    elif kind == Task.CATO:
        leaders.mask_cato(s, k, m, p)
    elif kind == Task.BENEFIT_CHOICE:
        benefits.mask_benefit(s, k, m, p, b)
    elif kind == Task.TEMP_FAVOR:
        benefits.mask_temporary_favor(s, k, m)
    elif kind == Task.BUY_LEGION:
        benefits.mask_buy_legion(s, k, m, p)
    elif kind == Task.CHARIOT_PLACE:
        ch.mask_chariot(s, k, m, p)


@compiled(inline="always")
def apply(s, k, ev, action, kind, p, b, c):
    if kind == Task.PLACE:
        pl.place(s, k, ev, action, p)
    elif kind == Task.SETUP_DISCARD:
        ro.apply_discard_down(s, k, ev, action, kind, p, False)  # face down: nobody learns them
    elif kind == Task.CESURA_DISCARD:
        ro.apply_discard_down(s, k, ev, action, kind, p, True)
    elif kind == Task.ATRIUM_FLIP:
        atrium.atrium_flip(s, k, action)
    elif kind == Task.LATRINE_CHOICE:
        latrine.latrine_choice(s, k, action, p)
    elif kind == Task.CURIA_CHOICE:
        curia.curia_choice(s, k, ev, action, p, b)
    elif kind == Task.ATRIUM_BID or kind == Task.CHARIOT_BID:
        bd.bid(s, k, action, kind, p, b)
    elif kind == Task.CATACOMBS_CHOICE:
        catacombs.catacombs_choice(s, k, ev, action, p, b)
    elif kind == Task.SACRIFICE:
        pantheon.sacrifice(s, k, action, p)
    elif kind == Task.MARS_PAIR:
        mars.mars_pair(s, k, action, p, b)
    elif kind == Task.TAKEOVER_SET:
        takeover.takeover_set(s, k, ev, action, p, b, c)
    elif kind == Task.PENALTY:
        takeover.penalty(s, k, action, p, b)
    elif kind == Task.TIGELLINUS:
        leaders.tigellinus_trade(s, k, ev, action, p)
    elif kind == Task.ASSASSIN:
        benefits.assassin(s, k, ev, action)
    elif kind == Task.AGRIPPA:
        leaders.agrippa_choice(s, k, ev, action, p)
    elif kind == Task.CATO:
        leaders.cato_marker(s, k, ev, action, p)
    elif kind == Task.BENEFIT_CHOICE:
        benefits.benefit_choice(s, k, ev, action, p, b)
    elif kind == Task.TEMP_FAVOR:
        benefits.temporary_favor(s, k, action, p)
    elif kind == Task.BUY_LEGION:
        benefits.buy_legion(s, k, action, p)
    elif kind == Task.CHARIOT_PLACE:
        ch.chariot_place(s, k, ev, action, p)


@compiled(inline="always")
def mask_of_top(s, k, m):
    """Fill m for the decision on top of the stack; return (legal count, last legal action)."""
    m[:] = 0
    if s.meta[Meta.STATUS] != Status.RUNNING:
        return 0, -1
    top = top_task(s)
    fill_mask(s, k, m, s.tasks[top, 0], s.tasks[top, 1], s.tasks[top, 2], s.tasks[top, 3])
    count, last = 0, -1
    for a in range(len(m)):
        if m[a]:
            count += 1
            last = a
    return count, last


@compiled
def forced_in_public(s, k, kind, p, b, only):
    """Whether every player can see that decision (kind, p, b) has `only` as its one legal action.

    Only such a decision is played automatically (clarifications, "Forced decisions and
    secrecy"). One that is forced by what p alone knows (its hand, the digits of its own
    bid) is still put to p, so that, as at the table, nobody can tell "cannot" from "will not".
    """
    hand = s.hand[p].sum()
    if kind == Task.SETUP_DISCARD or kind == Task.CESURA_DISCARD:
        return only == k[K.A_COMMIT]  # how many cards were picked is public, which ones not
    if kind == Task.SACRIFICE:
        return hand == 0
    if kind == Task.MARS_PAIR:
        return hand < 2  # no pair without two cards
    if kind == Task.TAKEOVER_SET:
        return hand < k[K.MIN_SET]
    if kind == Task.ATRIUM_BID or kind == Task.CHARIOT_BID:
        return b == 0  # the first digit's range follows from p's denarii alone
    return True


RUN = -1


@entry
def step(buf, k, ev, m, action):
    """Apply `action` (already checked against m) and run on to the next decision.

    The decision applied is the task on top of the stack; then automatic tasks run, and
    decisions with one legal action that everyone can see is forced, until a real decision
    (its mask left in m) or the end. With RUN (-1) nothing is applied first: the engine just
    runs from the current task stack (after setup, loading or a hand edit).

    This is the engine's one entry point for play, written as one loop, with the task
    tables (``run_auto``, ``apply``, ``mask_of_top``, ``fill_mask``) inlined into it: numba
    optimises and compiles afresh everything a compiled function calls, so every level
    over the whole engine that is a function of its own adds that compile again to the
    first start (``docs/architecture.md``, "Start-up").
    """
    s = views(buf, k)
    while s.meta[Meta.STATUS] == Status.RUNNING:
        top = top_task(s)
        kind, p, b, c = s.tasks[top, 0], s.tasks[top, 1], s.tasks[top, 2], s.tasks[top, 3]
        if action == RUN and kind >= Task.SETUP_DISCARD:
            count, last = mask_of_top(s, k, m)
            if count != 1 or not k[K.AUTO_FORCED] or not forced_in_public(s, k, kind, p, b, last):
                return
            action = last
        s.meta[Meta.N_TASKS] = top
        if action == RUN:
            run_auto(s, k, ev, kind, p, b, c)
        else:
            say(k, ev, Ev.ACTION, p, action)
            apply(s, k, ev, action, kind, p, b, c)
            action = RUN
        check_declarations(s, k, ev)
    m[:] = 0


@entry
def legal_mask(buf, k, m):
    """Recompute m for the decision waiting, without running anything (copies, samples)."""
    mask_of_top(views(buf, k), k, m)


@entry
def final_scores(buf, k):
    return scores(views(buf, k), k)


@entry
def objectives(buf, k):
    """(players, objectives) bool: the objectives of the victory card each player meets now."""
    s = views(buf, k)
    out = np.zeros((k[K.N], NUM_OBJECTIVES), dtype=np.bool_)
    for p in range(k[K.N]):
        for i in range(NUM_OBJECTIVES):
            out[p, i] = objective(s.res[p], k, s.meta[Meta.TEMP_FAVOR], p, i)
    return out


@entry
def victory_met(buf, k):
    """(players,) bool: who now meets the victory card (or the point variant's marker goal)."""
    s = views(buf, k)
    out = np.zeros(k[K.N], dtype=np.bool_)
    for p in range(k[K.N]):
        out[p] = meets_victory(s, k, p)
    return out

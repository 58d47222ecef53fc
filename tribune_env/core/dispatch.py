"""The compiled engine loop: run automatic tasks, compute masks, apply decisions.

``step`` is the one entry point: it applies an action to the decision on top of the task
stack, runs automatic tasks (and, if enabled, decisions with a single legal action) until
a real decision or the end, and leaves that decision's mask in ``m``.
"""

import numpy as np

from .._compiler import compiled, entry
from ..data import NUM_OBJECTIVES
from ..kernel import K, views
from ..state import Meta, Status
from ..task_switch import task_switch
from ..tasks import BIDS, Task
from . import atrium, benefits, catacombs, curia, latrine, leaders, market, mars, pantheon, takeover
from . import bids as bd
from . import chariot as ch
from . import placement as pl
from . import regions as rg
from . import rounds as ro
from .common import say, top_task
from .events import Ev
from .scoring import check_declarations, meets_victory, objective, scores

# Each task kind's rule, declared once; the switches below are written out from these tables
# (tribune_env/task_switch.py), each rule given the task's arguments its parameters name.
AUTOMATIC_RULES = {
    Task.SETUP_FINISH: ro.setup_finish,
    Task.ROUND_START: ro.round_start,
    Task.DEAL: ro.deal,
    Task.DEAL_CURIA: curia.deal_curia,
    Task.DEAL_CATACOMBS: catacombs.deal_catacombs,
    Task.DRAW: ro.draw,
    Task.PHASE2: pl.phase2,
    Task.PHASE3: rg.phase3,
    Task.THERMAE: market.thermae,
    Task.FORUM: market.forum,
    Task.LATRINE: latrine.latrine,
    Task.CURIA: curia.curia,
    Task.ATRIUM: atrium.atrium,
    Task.ATRIUM_RESOLVE: atrium.atrium_resolve,
    Task.CATACOMBS: catacombs.catacombs,
    Task.CATACOMBS_END: catacombs.catacombs_end,
    Task.PANTHEON: pantheon.pantheon,
    Task.PANTHEON_END: pantheon.pantheon_end,
    Task.MARS: mars.mars,
    Task.MARS_RESOLVE: mars.mars_resolve,
    Task.PHASE4: takeover.phase4,
    Task.TAKEOVER: takeover.takeover,
    Task.TAKEOVER_BENEFIT: benefits.takeover_benefit,
    Task.MARKER_LAUREL: takeover.marker_laurel,
    Task.LEADER: leaders.leader,
    Task.PHASE5: benefits.phase5,
    Task.FACTION_BENEFIT: benefits.faction_benefit,
    Task.PHASE6: ch.phase6,
    Task.CHARIOT_RESOLVE: ch.chariot_resolve,
    Task.ROUND_END: ro.round_end,
    Task.CESURA_SETS: ro.cesura_sets,
    Task.RETURN_FOLLOWERS: rg.return_followers,
}

DECISION_RULES = {  # kind: (what is legal, what an action does)
    Task.SETUP_DISCARD: (ro.mask_discard_down, ro.apply_discard_down),
    Task.CESURA_DISCARD: (ro.mask_discard_down, ro.apply_discard_down),
    Task.PLACE: (pl.mask_place, pl.place),
    Task.ATRIUM_FLIP: (atrium.mask_atrium_flip, atrium.atrium_flip),
    Task.LATRINE_CHOICE: (latrine.mask_latrine, latrine.latrine_choice),
    Task.CURIA_CHOICE: (curia.mask_curia, curia.curia_choice),
    Task.ATRIUM_BID: (bd.mask_bid, bd.bid),
    Task.CATACOMBS_CHOICE: (catacombs.mask_catacombs, catacombs.catacombs_choice),
    Task.SACRIFICE: (pantheon.mask_sacrifice, pantheon.sacrifice),
    Task.MARS_PAIR: (mars.mask_mars, mars.mars_pair),
    Task.TAKEOVER_SET: (takeover.mask_takeover, takeover.takeover_set),
    Task.PENALTY: (takeover.mask_penalty, takeover.penalty),
    Task.TIGELLINUS: (leaders.mask_tigellinus, leaders.tigellinus_trade),
    Task.ASSASSIN: (benefits.mask_assassin, benefits.assassin),
    Task.AGRIPPA: (leaders.mask_agrippa, leaders.agrippa_choice),
    Task.CATO: (leaders.mask_cato, leaders.cato_marker),
    Task.BENEFIT_CHOICE: (benefits.mask_benefit, benefits.benefit_choice),
    Task.TEMP_FAVOR: (benefits.mask_temporary_favor, benefits.temporary_favor),
    Task.BUY_LEGION: (benefits.mask_buy_legion, benefits.buy_legion),
    Task.CHARIOT_BID: (bd.mask_bid, bd.bid),
    Task.CHARIOT_PLACE: (ch.mask_chariot, ch.chariot_place),
}


def _switch(name, parameters, table):
    return compiled(task_switch(name, parameters, table, module=__name__, file=__file__), inline="always")


run_auto = _switch("run_auto", ("s", "k", "ev", "kind", "a", "b", "c"), AUTOMATIC_RULES)
fill_mask = _switch("fill_mask", ("s", "k", "m", "kind", "a", "b", "c"), {t: d[0] for t, d in DECISION_RULES.items()})
apply = _switch(
    "apply", ("s", "k", "ev", "action", "kind", "a", "b", "c"), {t: d[1] for t, d in DECISION_RULES.items()}
)


@compiled(inline="always")
def mask_of_top(s, k, m):
    """Fill m for the decision on top of the stack; return (legal count, last legal action)."""
    m[:] = 0
    if s.meta[Meta.STATUS] != Status.RUNNING:
        return 0, -1
    top = top_task(s)
    fill_mask(s, k, m, s.tasks[top, 0], s.tasks[top, 1], s.tasks[top, 2], s.tasks[top, 3])
    count, last = 0, -1
    for action in range(len(m)):
        if m[action]:
            count += 1
            last = action
    return count, last


@compiled
def forced_in_public(s, k, kind, player, digits_entered, only):
    """Whether every player can see that decision `kind` of `player` has `only` as its one legal action.

    Only such a decision is played automatically (clarifications, "Forced decisions and
    secrecy"). One that is forced by what the player alone knows (its hand, the digits of its own
    bid) is still put to the player, so that, as at the table, nobody can tell "cannot" from "will not".
    """
    hand = s.hand[player].sum()
    if kind == Task.SETUP_DISCARD or kind == Task.CESURA_DISCARD:
        return only == k[K.A_COMMIT]  # how many cards were picked is public, which ones not
    if kind == Task.SACRIFICE:
        return hand == 0
    if kind == Task.MARS_PAIR:
        return hand < 2  # no pair without two cards
    if kind == Task.TAKEOVER_SET:
        return hand < k[K.MIN_SET]
    if kind in BIDS:
        return digits_entered == 0  # the first digit's range follows from the player's denarii alone
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
        kind, a, b, c = s.tasks[top, 0], s.tasks[top, 1], s.tasks[top, 2], s.tasks[top, 3]
        if action == RUN and kind >= Task.SETUP_DISCARD:
            count, last = mask_of_top(s, k, m)
            if count != 1 or not k[K.AUTO_FORCED] or not forced_in_public(s, k, kind, a, b, last):
                return
            action = last
        s.meta[Meta.N_TASKS] = top
        if action == RUN:
            run_auto(s, k, ev, kind, a, b, c)
        else:
            say(k, ev, Ev.ACTION, a, action)
            apply(s, k, ev, action, kind, a, b, c)
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

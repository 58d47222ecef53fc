"""The compiled engine loop: run automatic tasks, compute masks, apply decisions.

``step`` is the one entry point: it applies an action to the decision on top of the task
stack, runs automatic tasks (and, if enabled, decisions with a single legal action) until
a real decision or the end, and leaves that decision's mask in ``mask``.
"""

import numpy as np

from .._compiler import compiled, entry
from ..data import NUM_OBJECTIVES
from ..kernel import K, views
from ..state import Meta, Status
from ..task_switch import task_switch
from ..tasks import BIDS, Task
from . import (
    atrium,
    benefits,
    bids,
    catacombs,
    chariot,
    curia,
    latrine,
    leaders,
    market,
    mars,
    pantheon,
    placement,
    regions,
    rounds,
    takeover,
)
from .common import say, top_task
from .events import Ev
from .scoring import check_declarations, meets_victory, objective, scores

# Each task kind's rule, declared once; the switches below are written out from these tables
# (tribune_env/task_switch.py), each rule given the task's arguments its parameters name.
AUTOMATIC_RULES = {
    Task.SETUP_FINISH: rounds.setup_finish,
    Task.ROUND_START: rounds.round_start,
    Task.DEAL: rounds.deal,
    Task.DEAL_CURIA: curia.deal_curia,
    Task.DEAL_CATACOMBS: catacombs.deal_catacombs,
    Task.DRAW: rounds.draw,
    Task.PHASE2: placement.phase2,
    Task.PHASE3: regions.phase3,
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
    Task.PHASE6: chariot.phase6,
    Task.CHARIOT_RESOLVE: chariot.chariot_resolve,
    Task.ROUND_END: rounds.round_end,
    Task.CESURA_SETS: rounds.cesura_sets,
    Task.RETURN_FOLLOWERS: regions.return_followers,
}

DECISION_RULES = {  # kind: (what is legal, what an action does)
    Task.SETUP_DISCARD: (rounds.mask_discard_down, rounds.apply_discard_down),
    Task.CESURA_DISCARD: (rounds.mask_discard_down, rounds.apply_discard_down),
    Task.PLACE: (placement.mask_place, placement.place),
    Task.ATRIUM_FLIP: (atrium.mask_atrium_flip, atrium.atrium_flip),
    Task.LATRINE_CHOICE: (latrine.mask_latrine, latrine.latrine_choice),
    Task.CURIA_CHOICE: (curia.mask_curia, curia.curia_choice),
    Task.ATRIUM_BID: (bids.mask_bid, bids.bid),
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
    Task.CHARIOT_BID: (bids.mask_bid, bids.bid),
    Task.CHARIOT_PLACE: (chariot.mask_chariot, chariot.chariot_place),
}


def _switch(name, parameters, table):
    return compiled(task_switch(name, parameters, table, module=__name__, file=__file__), inline="always")


run_auto = _switch("run_auto", ("state", "params", "events", "kind", "a", "b", "c"), AUTOMATIC_RULES)
fill_mask = _switch(
    "fill_mask", ("state", "params", "mask", "kind", "a", "b", "c"), {t: d[0] for t, d in DECISION_RULES.items()}
)
apply = _switch(
    "apply",
    ("state", "params", "events", "action", "kind", "a", "b", "c"),
    {t: d[1] for t, d in DECISION_RULES.items()},
)


@compiled(inline="always")
def mask_of_top(state, params, mask):
    """Fill m for the decision on top of the stack; return (legal count, last legal action)."""
    mask[:] = 0
    if state.meta[Meta.STATUS] != Status.RUNNING:
        return 0, -1
    top = top_task(state)
    fill_mask(state, params, mask, state.tasks[top, 0], state.tasks[top, 1], state.tasks[top, 2], state.tasks[top, 3])
    count, last = 0, -1
    for action in range(len(mask)):
        if mask[action]:
            count += 1
            last = action
    return count, last


@compiled
def forced_in_public(state, params, kind, player, digits_entered, only):
    """Whether every player can see that decision `kind` of `player` has `only` as its one legal action.

    Only such a decision is played automatically (clarifications, "Forced decisions and
    secrecy"). One that is forced by what the player alone knows (its hand, the digits of its own
    bid) is still put to the player, so that, as at the table, nobody can tell "cannot" from "will not".
    """
    hand = state.hand[player].sum()
    if kind == Task.SETUP_DISCARD or kind == Task.CESURA_DISCARD:
        return only == params[K.A_COMMIT]  # how many cards were picked is public, which ones not
    if kind == Task.SACRIFICE:
        return hand == 0
    if kind == Task.MARS_PAIR:
        return hand < 2  # no pair without two cards
    if kind == Task.TAKEOVER_SET:
        return hand < params[K.MIN_SET]
    if kind in BIDS:
        return digits_entered == 0  # the first digit's range follows from the player's denarii alone
    return True


RUN = -1


@entry
def step(buf, params, events, mask, action):
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
    state = views(buf, params)
    while state.meta[Meta.STATUS] == Status.RUNNING:
        top = top_task(state)
        kind, a, b, c = state.tasks[top, 0], state.tasks[top, 1], state.tasks[top, 2], state.tasks[top, 3]
        if action == RUN and kind >= Task.SETUP_DISCARD:
            count, last = mask_of_top(state, params, mask)
            if count != 1 or not params[K.AUTO_FORCED] or not forced_in_public(state, params, kind, a, b, last):
                return
            action = last
        state.meta[Meta.N_TASKS] = top
        if action == RUN:
            run_auto(state, params, events, kind, a, b, c)
        else:
            say(params, events, Ev.ACTION, a, action)
            apply(state, params, events, action, kind, a, b, c)
            action = RUN
        check_declarations(state, params, events)
    mask[:] = 0


@entry
def legal_mask(buf, params, mask):
    """Recompute m for the decision waiting, without running anything (copies, samples)."""
    mask_of_top(views(buf, params), params, mask)


@entry
def final_scores(buf, params):
    return scores(views(buf, params), params)


@entry
def objectives(buf, params):
    """(players, objectives) bool: the objectives of the victory card each player meets now."""
    state = views(buf, params)
    out = np.zeros((params[K.N], NUM_OBJECTIVES), dtype=np.bool_)
    for p in range(params[K.N]):
        for i in range(NUM_OBJECTIVES):
            out[p, i] = objective(state.res[p], params, state.meta[Meta.TEMP_FAVOR], p, i)
    return out


@entry
def victory_met(buf, params):
    """(players,) bool: who now meets the victory card (or the point variant's marker goal)."""
    state = views(buf, params)
    out = np.zeros(params[K.N], dtype=np.bool_)
    for p in range(params[K.N]):
        out[p] = meets_victory(state, params, p)
    return out

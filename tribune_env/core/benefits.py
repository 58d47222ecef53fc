"""The factions' benefits (rulebook, "The Factions"): one function per take-over benefit and per
faction benefit, named after its faction, that says what it gives (its ``Gains``).

The engine applies those gains (``common.receive``) and the agents price the same vectors, so
each benefit is stated once. Phase 5 and the decisions benefits bring (the assassin, the
Legates' legion, the temporary favor) are here too.
"""

import numpy as np

from .._compiler import compiled
from ..data import GLADIATORS, LEGATES, NUM_FACTIONS, NUM_VALUES, PATRICIANS, PLEBEIANS, PRAETORIANS, SENATORS, VESTALS
from ..kernel import K
from ..state import ETERNAL, LEGIONS, MONEY, NO_TILE, SCROLL, TILE, TRIBUNE, Meta
from ..tasks import Task
from .common import discard, gains, push, receive, say, value_sum
from .events import Ev

V = NUM_VALUES


# ------------------------------------------------------------------ take-over benefits
@compiled
def gladiators_takeover_benefit(params):
    """One legion."""
    return gains(legions=params[K.GLADIATOR_LEGIONS])


@compiled
def legates_takeover_benefit(params):
    """Two laurel wreaths."""
    return gains(laurels=params[K.LEGATE_LAURELS])


@compiled
def praetorians_takeover_benefit(params):
    """One card from the draw pile."""
    return gains(cards=params[K.BENEFIT_CARDS])


@compiled
def plebeians_takeover_benefit(params):
    """One card from the draw pile, and an assassin."""
    return gains(cards=params[K.BENEFIT_CARDS], decision=Task.ASSASSIN)


@compiled
def patricians_takeover_benefit(params):
    """One laurel wreath."""
    return gains(laurels=params[K.PATRICIAN_LAURELS])


@compiled
def vestals_takeover_benefit(params):
    """5 denarii from the stock."""
    return gains(denarii=params[K.VESTAL_DENARII])


@compiled
def senators_takeover_benefit(params):
    """One laurel wreath."""
    return gains(laurels=params[K.SENATOR_LAURELS])


@compiled
def takeover_benefit_gains(params, faction):
    """What the new controller of the faction receives (a query the agents share)."""
    if faction == GLADIATORS:
        return gladiators_takeover_benefit(params)
    if faction == LEGATES:
        return legates_takeover_benefit(params)
    if faction == PRAETORIANS:
        return praetorians_takeover_benefit(params)
    if faction == PLEBEIANS:
        return plebeians_takeover_benefit(params)
    if faction == PATRICIANS:
        return patricians_takeover_benefit(params)
    if faction == VESTALS:
        return vestals_takeover_benefit(params)
    return senators_takeover_benefit(params)


@compiled
def takeover_benefit(state, params, events, player, faction):
    receive(state, params, events, player, takeover_benefit_gains(params, faction))


# ------------------------------------------------------------------ faction benefits (Phase 5)
@compiled
def gladiators_benefit(state, params, player, option):
    """The denarii on the Colosseum; or one card and an assassin."""
    if option == 0:
        return gains(denarii=state.meta[Meta.COLOSSEUM], from_colosseum=1)
    return gains(cards=params[K.BENEFIT_CARDS], decision=Task.ASSASSIN)


@compiled
def legates_benefit(state, params, player, option):
    """A scroll (to a player without one); or one card and the right to buy a legion."""
    if option == 0:
        return gains(tile=SCROLL)
    return gains(cards=params[K.BENEFIT_CARDS], decision=Task.BUY_LEGION)


@compiled
def praetorians_benefit(params):
    """One legion."""
    return gains(legions=params[K.PRAETORIAN_BENEFIT_LEGIONS])


@compiled
def plebeians_benefit(state, params, player, option):
    """One card and two denarii; or a tribune, with a scroll and control of the Patricians."""
    if option == 0:
        return gains(cards=params[K.BENEFIT_CARDS], denarii=params[K.PLEBEIAN_BENEFIT_DENARII])
    return gains(tile=TRIBUNE)


@compiled
def patricians_benefit():
    """The proconsul: one more follower next round, while the player still controls the Patricians."""
    return gains(proconsul=1)


@compiled
def vestals_benefit(state, params, player, option):
    """One laurel and the temporary favor (without eternal favor); or a tribune, with a scroll
    and control of the Senators."""
    if option == 0:
        favor = not state.res[player, ETERNAL] and state.meta[Meta.TEMP_FAVOR] != player
        return gains(laurels=params[K.VESTAL_BENEFIT_LAURELS], decision=Task.TEMP_FAVOR if favor else 0)
    return gains(tile=TRIBUNE)


@compiled
def senators_benefit(state, params, player, option):
    """A scroll (to a player without one); or two cards."""
    if option == 0:
        return gains(tile=SCROLL)
    return gains(cards=params[K.SENATOR_BENEFIT_CARDS])


@compiled
def benefit_options(faction):
    """How many options the faction's benefit offers: one is received without a decision."""
    return 1 if faction == PRAETORIANS or faction == PATRICIANS else 2


@compiled
def benefit_open(state, player, faction, option):
    """Whether `option` of the faction's benefit is open to the player (a query the agents share)."""
    tile = state.res[player, TILE]
    if option == 0:
        return tile == NO_TILE if (faction == LEGATES or faction == SENATORS) else True
    if faction == PLEBEIANS:
        return tile == SCROLL and state.controller[PATRICIANS] == player
    if faction == VESTALS:
        return tile == SCROLL and state.controller[SENATORS] == player
    return True


@compiled
def benefit_gains(state, params, player, faction, option):
    """What `option` of the faction's benefit gives the player (a query the agents share)."""
    if faction == GLADIATORS:
        return gladiators_benefit(state, params, player, option)
    if faction == LEGATES:
        return legates_benefit(state, params, player, option)
    if faction == PRAETORIANS:
        return praetorians_benefit(params)
    if faction == PLEBEIANS:
        return plebeians_benefit(state, params, player, option)
    if faction == PATRICIANS:
        return patricians_benefit()
    if faction == VESTALS:
        return vestals_benefit(state, params, player, option)
    return senators_benefit(state, params, player, option)


@compiled
def phase5(state):
    state.meta[Meta.PHASE] = 5
    state.field_owner[:] = -1
    push(state, Task.PHASE6)
    for f in range(NUM_FACTIONS - 1, -1, -1):
        push(state, Task.FACTION_BENEFIT, f)


@compiled
def faction_benefit(state, params, events, faction):
    """The controller of the faction receives its benefit, or chooses an option."""
    p = state.controller[faction]
    if p < 0:
        return
    if benefit_options(faction) == 1:
        receive(state, params, events, p, benefit_gains(state, params, p, faction, 0))
    else:
        push(state, Task.BENEFIT_CHOICE, p, faction)


CHOICE_OFFSET = np.array([0, 2, -1, 4, -1, 6, 8])  # first option of each faction with a choice


@compiled
def mask_benefit(state, params, mask, player, faction):
    first = params[K.A_BENEFIT] + CHOICE_OFFSET[faction]
    for i in range(benefit_options(faction)):
        mask[first + i] = benefit_open(state, player, faction, i)


@compiled
def benefit_choice(state, params, events, action, player, faction):
    receive(
        state,
        params,
        events,
        player,
        benefit_gains(state, params, player, faction, action - params[K.A_BENEFIT] - CHOICE_OFFSET[faction]),
    )


# ------------------------------------------------------------------ decisions benefits bring
@compiled
def mask_assassin(state, params, mask):
    """Any displayed set of at least ``assassin_min_set`` cards, the player's own included."""
    for f in range(NUM_FACTIONS):
        mask[params[K.A_ASSASSIN] + f] = state.sets[f].sum() >= params[K.ASSASSIN_MIN_SET]
    mask[params[K.A_DECLINE]] = 1


@compiled
def assassin(state, params, events, action):
    """Remove the highest-value card of the targeted set; its owner keeps control."""
    if action == params[K.A_DECLINE]:
        return
    f = action - params[K.A_ASSASSIN]
    v = V - 1
    while state.sets[f, v] == 0:
        v -= 1
    state.sets[f, v] -= 1
    discard(state, f * V + v, True)
    say(params, events, Ev.ASSASSIN, f, f * V + v)


@compiled
def mask_buy_legion(state, params, mask, player):
    """A legion for the sum of the player's displayed Legate set."""
    mask[params[K.A_BUY_LEGION]] = state.res[player, MONEY] >= value_sum(state.sets[LEGATES])
    mask[params[K.A_DECLINE]] = 1


@compiled
def buy_legion(state, params, action, player):
    if action == params[K.A_BUY_LEGION]:
        state.res[player, MONEY] -= value_sum(state.sets[LEGATES])
        state.res[player, LEGIONS] += params[K.BOUGHT_LEGIONS]


@compiled
def mask_temporary_favor(state, params, mask):
    """Take the temporary favor of the gods, or leave it."""
    mask[params[K.A_TEMP_FAVOR]] = 1
    mask[params[K.A_DECLINE]] = 1


@compiled
def temporary_favor(state, params, action, player):
    if action == params[K.A_TEMP_FAVOR]:
        state.meta[Meta.TEMP_FAVOR] = player

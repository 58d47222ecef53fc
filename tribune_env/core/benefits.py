"""The factions' benefits (rulebook, "The Factions"): one function per take-over benefit and per
faction benefit, named after its faction, that says what it gives (a gains vector, ``Gain``).

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
from .common import Gain, discard, gains, push, receive, say, value_sum
from .events import Ev

V = NUM_VALUES


# ------------------------------------------------------------------ take-over benefits
@compiled
def gladiators_takeover_benefit(k):
    """One legion."""
    return gains(Gain.LEGIONS, k[K.GLADIATOR_LEGIONS])


@compiled
def legates_takeover_benefit(k):
    """Two laurel wreaths."""
    return gains(Gain.LAURELS, k[K.LEGATE_LAURELS])


@compiled
def praetorians_takeover_benefit(k):
    """One card from the draw pile."""
    return gains(Gain.CARDS, k[K.BENEFIT_CARDS])


@compiled
def plebeians_takeover_benefit(k):
    """One card from the draw pile, and an assassin."""
    g = gains(Gain.CARDS, k[K.BENEFIT_CARDS])
    g[Gain.DECISION] = Task.ASSASSIN
    return g


@compiled
def patricians_takeover_benefit(k):
    """One laurel wreath."""
    return gains(Gain.LAURELS, k[K.PATRICIAN_LAURELS])


@compiled
def vestals_takeover_benefit(k):
    """5 denarii from the stock."""
    return gains(Gain.DENARII, k[K.VESTAL_DENARII])


@compiled
def senators_takeover_benefit(k):
    """One laurel wreath."""
    return gains(Gain.LAURELS, k[K.SENATOR_LAURELS])


@compiled
def takeover_benefit_gains(k, faction):
    """What the new controller of the faction receives (a query the agents share)."""
    if faction == GLADIATORS:
        return gladiators_takeover_benefit(k)
    if faction == LEGATES:
        return legates_takeover_benefit(k)
    if faction == PRAETORIANS:
        return praetorians_takeover_benefit(k)
    if faction == PLEBEIANS:
        return plebeians_takeover_benefit(k)
    if faction == PATRICIANS:
        return patricians_takeover_benefit(k)
    if faction == VESTALS:
        return vestals_takeover_benefit(k)
    return senators_takeover_benefit(k)


@compiled
def takeover_benefit(s, k, ev, player, faction):
    receive(s, k, ev, player, takeover_benefit_gains(k, faction))


# ------------------------------------------------------------------ faction benefits (Phase 5)
@compiled
def gladiators_benefit(s, k, player, option):
    """The denarii on the Colosseum; or one card and an assassin."""
    if option == 0:
        g = gains(Gain.DENARII, s.meta[Meta.COLOSSEUM])
        g[Gain.FROM_COLOSSEUM] = 1
        return g
    g = gains(Gain.CARDS, k[K.BENEFIT_CARDS])
    g[Gain.DECISION] = Task.ASSASSIN
    return g


@compiled
def legates_benefit(s, k, player, option):
    """A scroll (to a player without one); or one card and the right to buy a legion."""
    if option == 0:
        return gains(Gain.TILE, SCROLL)
    g = gains(Gain.CARDS, k[K.BENEFIT_CARDS])
    g[Gain.DECISION] = Task.BUY_LEGION
    return g


@compiled
def praetorians_benefit(k):
    """One legion."""
    return gains(Gain.LEGIONS, k[K.PRAETORIAN_BENEFIT_LEGIONS])


@compiled
def plebeians_benefit(s, k, player, option):
    """One card and two denarii; or a tribune, with a scroll and control of the Patricians."""
    if option == 0:
        g = gains(Gain.CARDS, k[K.BENEFIT_CARDS])
        g[Gain.DENARII] = k[K.PLEBEIAN_BENEFIT_DENARII]
        return g
    return gains(Gain.TILE, TRIBUNE)


@compiled
def patricians_benefit():
    """The proconsul: one more follower next round, while the player still controls the Patricians."""
    return gains(Gain.PROCONSUL, 1)


@compiled
def vestals_benefit(s, k, player, option):
    """One laurel and the temporary favor (without eternal favor); or a tribune, with a scroll
    and control of the Senators."""
    if option == 0:
        g = gains(Gain.LAURELS, k[K.VESTAL_BENEFIT_LAURELS])
        if not s.res[player, ETERNAL] and s.meta[Meta.TEMP_FAVOR] != player:
            g[Gain.DECISION] = Task.TEMP_FAVOR
        return g
    return gains(Gain.TILE, TRIBUNE)


@compiled
def senators_benefit(s, k, player, option):
    """A scroll (to a player without one); or two cards."""
    if option == 0:
        return gains(Gain.TILE, SCROLL)
    return gains(Gain.CARDS, k[K.SENATOR_BENEFIT_CARDS])


@compiled
def benefit_options(faction):
    """How many options the faction's benefit offers: one is received without a decision."""
    return 1 if faction == PRAETORIANS or faction == PATRICIANS else 2


@compiled
def benefit_open(s, player, faction, option):
    """Whether `option` of the faction's benefit is open to the player (a query the agents share)."""
    tile = s.res[player, TILE]
    if option == 0:
        return tile == NO_TILE if (faction == LEGATES or faction == SENATORS) else True
    if faction == PLEBEIANS:
        return tile == SCROLL and s.controller[PATRICIANS] == player
    if faction == VESTALS:
        return tile == SCROLL and s.controller[SENATORS] == player
    return True


@compiled
def benefit_gains(s, k, player, faction, option):
    """What `option` of the faction's benefit gives the player (a query the agents share)."""
    if faction == GLADIATORS:
        return gladiators_benefit(s, k, player, option)
    if faction == LEGATES:
        return legates_benefit(s, k, player, option)
    if faction == PRAETORIANS:
        return praetorians_benefit(k)
    if faction == PLEBEIANS:
        return plebeians_benefit(s, k, player, option)
    if faction == PATRICIANS:
        return patricians_benefit()
    if faction == VESTALS:
        return vestals_benefit(s, k, player, option)
    return senators_benefit(s, k, player, option)


@compiled
def phase5(s):
    s.meta[Meta.PHASE] = 5
    s.field_owner[:] = -1
    push(s, Task.PHASE6)
    for f in range(NUM_FACTIONS - 1, -1, -1):
        push(s, Task.FACTION_BENEFIT, f)


@compiled
def faction_benefit(s, k, ev, faction):
    """The controller of the faction receives its benefit, or chooses an option."""
    p = s.controller[faction]
    if p < 0:
        return
    if benefit_options(faction) == 1:
        receive(s, k, ev, p, benefit_gains(s, k, p, faction, 0))
    else:
        push(s, Task.BENEFIT_CHOICE, p, faction)


CHOICE_OFFSET = np.array([0, 2, -1, 4, -1, 6, 8])  # first option of each faction with a choice


@compiled
def mask_benefit(s, k, m, player, faction):
    first = k[K.A_BENEFIT] + CHOICE_OFFSET[faction]
    for i in range(benefit_options(faction)):
        m[first + i] = benefit_open(s, player, faction, i)


@compiled
def benefit_choice(s, k, ev, action, player, faction):
    receive(s, k, ev, player, benefit_gains(s, k, player, faction, action - k[K.A_BENEFIT] - CHOICE_OFFSET[faction]))


# ------------------------------------------------------------------ decisions benefits bring
@compiled
def mask_assassin(s, k, m):
    """Any displayed set of at least ``assassin_min_set`` cards, the player's own included."""
    for f in range(NUM_FACTIONS):
        m[k[K.A_ASSASSIN] + f] = s.sets[f].sum() >= k[K.ASSASSIN_MIN_SET]
    m[k[K.A_DECLINE]] = 1


@compiled
def assassin(s, k, ev, action):
    """Remove the highest-value card of the targeted set; its owner keeps control."""
    if action == k[K.A_DECLINE]:
        return
    f = action - k[K.A_ASSASSIN]
    v = V - 1
    while s.sets[f, v] == 0:
        v -= 1
    s.sets[f, v] -= 1
    discard(s, f * V + v, True)
    say(k, ev, Ev.ASSASSIN, f, f * V + v)


@compiled
def mask_buy_legion(s, k, m, player):
    """A legion for the sum of the player's displayed Legate set."""
    m[k[K.A_BUY_LEGION]] = s.res[player, MONEY] >= value_sum(s.sets[LEGATES])
    m[k[K.A_DECLINE]] = 1


@compiled
def buy_legion(s, k, action, player):
    if action == k[K.A_BUY_LEGION]:
        s.res[player, MONEY] -= value_sum(s.sets[LEGATES])
        s.res[player, LEGIONS] += k[K.BOUGHT_LEGIONS]


@compiled
def mask_temporary_favor(s, k, m):
    """Take the temporary favor of the gods, or leave it."""
    m[k[K.A_TEMP_FAVOR]] = 1
    m[k[K.A_DECLINE]] = 1


@compiled
def temporary_favor(s, k, action, player):
    if action == k[K.A_TEMP_FAVOR]:
        s.meta[Meta.TEMP_FAVOR] = player

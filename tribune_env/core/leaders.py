"""The seven leaders (rulebook, "The Factions"): one function per leader, named after him or her,
that says what a winning take-over set with the leader gives (its ``Gains``), and
the decisions three of them bring. The engine applies the gains (``common.receive``); the
agents price them.
"""

from .._compiler import compiled
from ..data import GLADIATORS, LEGATES, NUM_FACTIONS, PATRICIANS, PLEBEIANS, PRAETORIANS, VESTALS
from ..kernel import K
from ..state import NO_TILE, SCROLL, TILE
from ..tasks import Task
from .common import discard_from_hand, gain_marker, gains, mask_any_discard, receive, say
from .events import Ev


@compiled
def spartacus(state, params, player):
    """Gladiators: one more legion."""
    return gains(legions=params[K.SPARTACUS_LEGIONS])


@compiled
def varus(state, params, player):
    """Legates: one more laurel wreath."""
    return gains(laurels=params[K.VARUS_LAURELS])


@compiled
def gaius_tigellinus(state, params, player):
    """Praetorians: the player may discard a card for a legion (``tigellinus_legions``)."""
    return gains(decision=Task.TIGELLINUS if state.hand[player].sum() > 0 else 0)


@compiled
def agrippa(state, params, player):
    """Plebeians: a scroll (to a player without one) or one card, as the player chooses."""
    return gains(decision=Task.AGRIPPA)


@compiled
def scipio_africanus(state, params, player):
    """Patricians: 10 denarii from the stock."""
    return gains(denarii=params[K.SCIPIO_DENARII])


@compiled
def aquilia_severa(state, params, player):
    """Vestal Virgins: the eternal favor of the gods, kept when the Vestals are lost."""
    return gains(eternal=1)


@compiled
def cato_the_elder(state, params, player):
    """Senators: a faction marker of the player's choice that it does not hold yet."""
    return gains(decision=Task.CATO if state.markers[player].sum() < NUM_FACTIONS else 0)


@compiled
def leader_gains(state, params, player, faction):
    """What the leader of the faction in the player's winning set gives the player."""
    if faction == GLADIATORS:
        return spartacus(state, params, player)
    if faction == LEGATES:
        return varus(state, params, player)
    if faction == PRAETORIANS:
        return gaius_tigellinus(state, params, player)
    if faction == PLEBEIANS:
        return agrippa(state, params, player)
    if faction == PATRICIANS:
        return scipio_africanus(state, params, player)
    if faction == VESTALS:
        return aquilia_severa(state, params, player)
    return cato_the_elder(state, params, player)


@compiled
def leader(state, params, events, player, faction):
    say(params, events, Ev.LEADER, player, faction)
    receive(state, params, events, player, leader_gains(state, params, player, faction))


# ------------------------------------------------------------------ Gaius Tigellinus' trade
@compiled
def tigellinus_reward(params):
    """What the card discarded for Gaius Tigellinus brings (a query the agents share)."""
    return gains(legions=params[K.TIGELLINUS_LEGIONS])


@compiled
def mask_tigellinus(state, params, mask, player):
    """Any card of the hand, or decline."""
    mask_any_discard(state, params, mask, player)


@compiled
def tigellinus_trade(state, params, events, action, player):
    if action != params[K.A_DECLINE]:
        discard_from_hand(state, player, action - params[K.A_DISCARD])
        receive(state, params, events, player, tigellinus_reward(params))


# ------------------------------------------------------------------ Agrippa's choice
@compiled
def agrippa_open(state, player, option):
    """Whether Agrippa's `option` (0: a scroll, 1: a card) is open to the player."""
    return state.res[player, TILE] == NO_TILE if option == 0 else True


@compiled
def agrippa_option(params, option):
    """What Agrippa's `option` gives (a query the agents share)."""
    return gains(tile=SCROLL) if option == 0 else gains(cards=params[K.BENEFIT_CARDS])


@compiled
def mask_agrippa(state, params, mask, player):
    for i in range(2):
        mask[params[K.A_AGRIPPA] + i] = agrippa_open(state, player, i)


@compiled
def agrippa_choice(state, params, events, action, player):
    receive(state, params, events, player, agrippa_option(params, action - params[K.A_AGRIPPA]))


# ------------------------------------------------------------------ Cato the Elder's marker
@compiled
def mask_cato(state, params, mask, player):
    """Any faction marker the player does not hold."""
    for f in range(NUM_FACTIONS):
        mask[params[K.A_MARKER] + f] = state.markers[player, f] == 0


@compiled
def cato_marker(state, params, events, action, player):
    gain_marker(state, params, events, player, action - params[K.A_MARKER])

"""The seven leaders (rulebook, "The Factions"): one function per leader, named after him or her,
that says what a winning take-over set with the leader gives (a gains vector, ``Gain``), and
the decisions three of them bring. The engine applies the gains (``common.receive``); the
agents price them.
"""

from .._compiler import compiled
from ..data import GLADIATORS, LEGATES, NUM_FACTIONS, PATRICIANS, PLEBEIANS, PRAETORIANS, VESTALS
from ..kernel import K
from ..state import NO_TILE, SCROLL, TILE
from ..tasks import Task
from .common import Gain, discard_from_hand, gain_marker, gains, mask_any_discard, receive, say
from .events import Ev


@compiled
def spartacus(s, k, player):
    """Gladiators: one more legion."""
    return gains(Gain.LEGIONS, k[K.SPARTACUS_LEGIONS])


@compiled
def varus(s, k, player):
    """Legates: one more laurel wreath."""
    return gains(Gain.LAURELS, k[K.VARUS_LAURELS])


@compiled
def gaius_tigellinus(s, k, player):
    """Praetorians: the player may discard a card for a legion (``tigellinus_legions``)."""
    g = gains()
    if s.hand[player].sum() > 0:
        g[Gain.DECISION] = Task.TIGELLINUS
    return g


@compiled
def agrippa(s, k, player):
    """Plebeians: a scroll (to a player without one) or one card, as the player chooses."""
    g = gains()
    g[Gain.DECISION] = Task.AGRIPPA
    return g


@compiled
def scipio_africanus(s, k, player):
    """Patricians: 10 denarii from the stock."""
    return gains(Gain.DENARII, k[K.SCIPIO_DENARII])


@compiled
def aquilia_severa(s, k, player):
    """Vestal Virgins: the eternal favor of the gods, kept when the Vestals are lost."""
    return gains(Gain.ETERNAL, 1)


@compiled
def cato_the_elder(s, k, player):
    """Senators: a faction marker of the player's choice that it does not hold yet."""
    g = gains()
    if s.markers[player].sum() < NUM_FACTIONS:
        g[Gain.DECISION] = Task.CATO
    return g


@compiled
def leader_gains(s, k, player, faction):
    """What the leader of the faction in the player's winning set gives the player."""
    if faction == GLADIATORS:
        return spartacus(s, k, player)
    if faction == LEGATES:
        return varus(s, k, player)
    if faction == PRAETORIANS:
        return gaius_tigellinus(s, k, player)
    if faction == PLEBEIANS:
        return agrippa(s, k, player)
    if faction == PATRICIANS:
        return scipio_africanus(s, k, player)
    if faction == VESTALS:
        return aquilia_severa(s, k, player)
    return cato_the_elder(s, k, player)


@compiled
def leader(s, k, ev, player, faction):
    say(k, ev, Ev.LEADER, player, faction)
    receive(s, k, ev, player, leader_gains(s, k, player, faction))


# ------------------------------------------------------------------ Gaius Tigellinus' trade
@compiled
def tigellinus_reward(k):
    """What the card discarded for Gaius Tigellinus brings (a query the agents share)."""
    return gains(Gain.LEGIONS, k[K.TIGELLINUS_LEGIONS])


@compiled
def mask_tigellinus(s, k, m, player):
    """Any card of the hand, or decline."""
    mask_any_discard(s, k, m, player)


@compiled
def tigellinus_trade(s, k, ev, action, player):
    if action != k[K.A_DECLINE]:
        discard_from_hand(s, player, action - k[K.A_DISCARD])
        receive(s, k, ev, player, tigellinus_reward(k))


# ------------------------------------------------------------------ Agrippa's choice
@compiled
def agrippa_open(s, player, option):
    """Whether Agrippa's `option` (0: a scroll, 1: a card) is open to the player."""
    return s.res[player, TILE] == NO_TILE if option == 0 else True


@compiled
def agrippa_option(k, option):
    """What Agrippa's `option` gives (a query the agents share)."""
    return gains(Gain.TILE, SCROLL) if option == 0 else gains(Gain.CARDS, k[K.BENEFIT_CARDS])


@compiled
def mask_agrippa(s, k, m, player):
    for i in range(2):
        m[k[K.A_AGRIPPA] + i] = agrippa_open(s, player, i)


@compiled
def agrippa_choice(s, k, ev, action, player):
    receive(s, k, ev, player, agrippa_option(k, action - k[K.A_AGRIPPA]))


# ------------------------------------------------------------------ Cato the Elder's marker
@compiled
def mask_cato(s, k, m, player):
    """Any faction marker the player does not hold."""
    for f in range(NUM_FACTIONS):
        m[k[K.A_MARKER] + f] = s.markers[player, f] == 0


@compiled
def cato_marker(s, k, ev, action, player):
    gain_marker(s, k, ev, player, action - k[K.A_MARKER])

"""Sealed bids (Atrium, chariot), entered digit by digit so that any amount can be bid.

The rulebook lets a player bid "any number of their denarii (including zero)", so no
fixed range of bid actions can hold every bid. A bid is entered instead as the digits of
its amount in base ``K.BID_BASE``, most significant first, one decision per digit: a
bidder holding fewer denarii than the base bids in one action, "bid digit 37" for 37.
How many digits a bid takes follows from the bidder's denarii alone, which everyone
sees, so the length of the entry tells the table nothing about the amount. The amount
entered so far is kept in ``bids[p]``; ``committed[p]`` is set with the last digit.
The bid task's arguments are the bidder and the digits it has entered.
"""

from .._compiler import compiled, entry
from ..kernel import K, views
from ..state import MONEY
from .common import push


@entry
def bid_digits(money, base):
    """How many digits a bid of a player holding `money` denarii takes (at least one)."""
    digits = 1
    while money >= base:
        money //= base
        digits += 1
    return digits


@compiled
def bid_place(state, params, player, entered):
    """Denarii that one unit of the player's next bid digit is worth, after `entered` digits."""
    place = 1
    for _ in range(bid_position(state, params, player, entered)):
        place *= params[K.BID_BASE]
    return place


@compiled
def bid_position(state, params, player, entered):
    """Which digit the player enters next, counted from the units (0), after `entered` digits."""
    return bid_digits(state.res[player, MONEY], params[K.BID_BASE]) - 1 - entered


@compiled
def bid_room(state, params, player, entered):
    """The largest digit the player may enter next: the bid never exceeds what the player holds."""
    return min(
        params[K.BID_BASE] - 1,
        (state.res[player, MONEY] - state.bids[player]) // bid_place(state, params, player, entered),
    )


@compiled
def mask_bid(state, params, mask, player, digits_entered):
    """Every digit the player may enter next."""
    for digit in range(bid_room(state, params, player, digits_entered) + 1):
        mask[params[K.A_BID] + digit] = 1


@compiled
def bid(state, params, action, kind, player, digits_entered):
    """Add one digit to the player's sealed bid; the last digit commits it, unseen by the others."""
    state.bids[player] += (action - params[K.A_BID]) * bid_place(state, params, player, digits_entered)
    if digits_entered + 1 < bid_digits(state.res[player, MONEY], params[K.BID_BASE]):
        push(state, kind, player, digits_entered + 1)
    else:
        state.committed[player] = 1


@compiled
def digit_toward(state, params, player, entered, amount):
    """The bid action that enters the player's next digit of `amount` (clamped to what the player may bid).

    Agents choose an amount and enter it with this, one digit per decision, so that
    they need not know the encoding.
    """
    place = bid_place(state, params, player, entered)
    wanted = max(0, amount - state.bids[player]) // place
    return params[K.A_BID] + min(wanted, bid_room(state, params, player, entered))


@entry
def entered_part(buf, params, player, entered, amount):
    """The part of `amount` that the player has entered after `entered` digits (to re-deal an unseen bid)."""
    unit = bid_place(views(buf, params), params, player, entered) * params[K.BID_BASE]
    return amount - amount % unit

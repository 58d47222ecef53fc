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
def bid_place(s, k, player, entered):
    """Denarii that one unit of the player's next bid digit is worth, after `entered` digits."""
    place = 1
    for _ in range(bid_position(s, k, player, entered)):
        place *= k[K.BID_BASE]
    return place


@compiled
def bid_position(s, k, player, entered):
    """Which digit the player enters next, counted from the units (0), after `entered` digits."""
    return bid_digits(s.res[player, MONEY], k[K.BID_BASE]) - 1 - entered


@compiled
def bid_room(s, k, player, entered):
    """The largest digit the player may enter next: the bid never exceeds what the player holds."""
    return min(k[K.BID_BASE] - 1, (s.res[player, MONEY] - s.bids[player]) // bid_place(s, k, player, entered))


@compiled
def mask_bid(s, k, m, player, digits_entered):
    """Every digit the player may enter next."""
    for digit in range(bid_room(s, k, player, digits_entered) + 1):
        m[k[K.A_BID] + digit] = 1


@compiled
def bid(s, k, action, kind, player, digits_entered):
    """Add one digit to the player's sealed bid; the last digit commits it, unseen by the others."""
    s.bids[player] += (action - k[K.A_BID]) * bid_place(s, k, player, digits_entered)
    if digits_entered + 1 < bid_digits(s.res[player, MONEY], k[K.BID_BASE]):
        push(s, kind, player, digits_entered + 1)
    else:
        s.committed[player] = 1


@compiled
def digit_toward(s, k, player, entered, amount):
    """The bid action that enters the player's next digit of `amount` (clamped to what the player may bid).

    Agents choose an amount and enter it with this, one digit per decision, so that
    they need not know the encoding.
    """
    place = bid_place(s, k, player, entered)
    wanted = max(0, amount - s.bids[player]) // place
    return k[K.A_BID] + min(wanted, bid_room(s, k, player, entered))


@entry
def entered_part(buf, k, player, entered, amount):
    """The part of `amount` that the player has entered after `entered` digits (to re-deal an unseen bid)."""
    unit = bid_place(views(buf, k), k, player, entered) * k[K.BID_BASE]
    return amount - amount % unit

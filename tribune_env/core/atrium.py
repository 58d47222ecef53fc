"""Region V, the Atrium Auctionorum: "1." turns cards up on placing, then takes them alone or the
two occupants bid, sealed; the higher bid wins, a tie goes to "1." and the winner pays the loser."""

from .._compiler import compiled
from ..data import ATRIUM, PANTHEON
from ..kernel import K
from ..state import MONEY
from ..tasks import Task
from .common import push, say
from .events import Ev
from .regions import discard_slot, take_slot


@compiled
def least_winning_bid(rival_bid, on_first):
    """The smallest bid that wins the auction against `rival_bid`: a tie goes to "1."."""
    return rival_bid if on_first else rival_bid + 1


@compiled
def atrium_placed(s, k, space):
    """A follower lands on Atrium space `space`. On "2." every card is turned face up; on "1."
    its player is to look at the cards and leave one face down: True when there is a card for
    that decision, which comes before the next follower is placed."""
    if space != k[K.SP + ATRIUM]:
        for slot in range(k[K.SL + ATRIUM], k[K.SL + PANTHEON]):
            s.slot_up[slot] = s.slot_card[slot] >= 0
        return False
    for slot in range(k[K.SL + ATRIUM], k[K.SL + PANTHEON]):
        if s.slot_card[slot] >= 0:
            return True
    return False


@compiled
def mask_atrium_flip(s, k, m):
    for i in range(k[K.SL + PANTHEON] - k[K.SL + ATRIUM]):
        m[k[K.A_ATRIUM] + i] = s.slot_card[k[K.SL + ATRIUM] + i] >= 0


@compiled
def atrium_flip(s, k, action):
    """The player on "1." turns all Atrium cards but the chosen one face up."""
    hide = k[K.SL + ATRIUM] + action - k[K.A_ATRIUM]
    for slot in range(k[K.SL + ATRIUM], k[K.SL + PANTHEON]):
        s.slot_up[slot] = s.slot_card[slot] >= 0 and slot != hide


@compiled
def atrium(s, k, ev):
    first, second = s.space_owner[k[K.SP + ATRIUM]], s.space_owner[k[K.SP + ATRIUM] + 1]
    if first >= 0 and second >= 0:
        push(s, Task.ATRIUM_RESOLVE)
        push(s, Task.ATRIUM_BID, second)
        push(s, Task.ATRIUM_BID, first)
        return
    # "1." alone pays 1 (if able) and takes the face-up cards (clarifications §4, Atrium flip)
    pays = first >= 0 and s.res[first, MONEY] >= k[K.ATRIUM_SINGLE_COST]
    if pays:
        s.res[first, MONEY] -= k[K.ATRIUM_SINGLE_COST]
        say(k, ev, Ev.ATRIUM_SINGLE, first, k[K.ATRIUM_SINGLE_COST])
    for slot in range(k[K.SL + ATRIUM], k[K.SL + PANTHEON]):
        if s.slot_card[slot] >= 0:
            if pays and s.slot_up[slot]:
                take_slot(s, slot, first)
            else:
                discard_slot(s, slot)


@compiled
def atrium_resolve(s, k, ev):
    """Higher bid wins (a tie goes to "1."); the winner pays its bid to the loser."""
    first, second = s.space_owner[k[K.SP + ATRIUM]], s.space_owner[k[K.SP + ATRIUM] + 1]
    first_wins = s.bids[first] >= least_winning_bid(s.bids[second], True)
    winner, loser = (first, second) if first_wins else (second, first)
    price = s.bids[winner]
    say(k, ev, Ev.ATRIUM_BIDS, first, s.bids[first], second, s.bids[second], winner)
    s.res[winner, MONEY] -= price
    s.res[loser, MONEY] += price
    for slot in range(k[K.SL + ATRIUM], k[K.SL + PANTHEON]):
        if s.slot_card[slot] >= 0:
            take_slot(s, slot, winner)
    s.bids[:] = 0
    s.committed[:] = 0

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
def atrium_placed(state, params, space):
    """A follower lands on Atrium space `space`. On "2." every card is turned face up; on "1."
    its player is to look at the cards and leave one face down: True when there is a card for
    that decision, which comes before the next follower is placed."""
    if space != params[K.FIRST_SPACE + ATRIUM]:
        for slot in range(params[K.FIRST_SLOT + ATRIUM], params[K.FIRST_SLOT + PANTHEON]):
            state.slot_up[slot] = state.slot_card[slot] >= 0
        return False
    for slot in range(params[K.FIRST_SLOT + ATRIUM], params[K.FIRST_SLOT + PANTHEON]):
        if state.slot_card[slot] >= 0:
            return True
    return False


@compiled
def mask_atrium_flip(state, params, mask):
    for i in range(params[K.FIRST_SLOT + PANTHEON] - params[K.FIRST_SLOT + ATRIUM]):
        mask[params[K.A_ATRIUM] + i] = state.slot_card[params[K.FIRST_SLOT + ATRIUM] + i] >= 0


@compiled
def atrium_flip(state, params, action):
    """The player on "1." turns all Atrium cards but the chosen one face up."""
    hide = params[K.FIRST_SLOT + ATRIUM] + action - params[K.A_ATRIUM]
    for slot in range(params[K.FIRST_SLOT + ATRIUM], params[K.FIRST_SLOT + PANTHEON]):
        state.slot_up[slot] = state.slot_card[slot] >= 0 and slot != hide


@compiled
def atrium(state, params, events):
    first, second = (
        state.space_owner[params[K.FIRST_SPACE + ATRIUM]],
        state.space_owner[params[K.FIRST_SPACE + ATRIUM] + 1],
    )
    if first >= 0 and second >= 0:
        push(state, Task.ATRIUM_RESOLVE)
        push(state, Task.ATRIUM_BID, second)
        push(state, Task.ATRIUM_BID, first)
        return
    # "1." alone pays 1 (if able) and takes the face-up cards (clarifications §4, Atrium flip)
    pays = first >= 0 and state.res[first, MONEY] >= params[K.ATRIUM_SINGLE_COST]
    if pays:
        state.res[first, MONEY] -= params[K.ATRIUM_SINGLE_COST]
        say(params, events, Ev.ATRIUM_SINGLE, first, params[K.ATRIUM_SINGLE_COST])
    for slot in range(params[K.FIRST_SLOT + ATRIUM], params[K.FIRST_SLOT + PANTHEON]):
        if state.slot_card[slot] >= 0:
            if pays and state.slot_up[slot]:
                take_slot(state, slot, first)
            else:
                discard_slot(state, slot)


@compiled
def atrium_resolve(state, params, events):
    """Higher bid wins (a tie goes to "1."); the winner pays its bid to the loser."""
    first, second = (
        state.space_owner[params[K.FIRST_SPACE + ATRIUM]],
        state.space_owner[params[K.FIRST_SPACE + ATRIUM] + 1],
    )
    first_wins = state.bids[first] >= least_winning_bid(state.bids[second], True)
    winner, loser = (first, second) if first_wins else (second, first)
    price = state.bids[winner]
    say(params, events, Ev.ATRIUM_BIDS, first, state.bids[first], second, state.bids[second], winner)
    state.res[winner, MONEY] -= price
    state.res[loser, MONEY] += price
    for slot in range(params[K.FIRST_SLOT + ATRIUM], params[K.FIRST_SLOT + PANTHEON]):
        if state.slot_card[slot] >= 0:
            take_slot(state, slot, winner)
    state.bids[:] = 0
    state.committed[:] = 0

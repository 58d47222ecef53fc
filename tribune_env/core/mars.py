"""Region VIII, the Field of Mars: pairs laid face down, a laurel each, one more for the single best."""

from .._compiler import compiled
from ..data import MARS, NUM_CARD_TYPES, NUM_VALUES
from ..kernel import K
from ..state import LAURELS
from ..tasks import Task
from .common import discard_all, push, say, unseen_leaving, value_sum
from .events import Ev
from .visibility import laid_pair


@compiled
def mars(state, params):
    push(state, Task.MARS_RESOLVE)
    for i in range(params[K.SPACES_END] - params[K.FIRST_SPACE + MARS] - 1, -1, -1):
        p = state.space_owner[params[K.FIRST_SPACE + MARS] + i]
        if p >= 0:
            push(state, Task.MARS_PAIR, p, i)


@compiled
def mask_mars(state, params, mask, player):
    """A pair of one faction, built card by card; commit with two cards; decline any time."""
    chosen = state.build.sum()
    add = params[K.A_ADD]
    if chosen == 2:
        mask[params[K.A_COMMIT]] = 1
    elif chosen == 1:
        first = 0
        while state.build[first] == 0:
            first += 1
        f0 = first - first % NUM_VALUES
        for c in range(f0, f0 + NUM_VALUES):
            mask[add + c] = state.hand[player, c] > state.build[c]
    else:
        for f in range(NUM_CARD_TYPES // NUM_VALUES):
            f0 = f * NUM_VALUES
            if state.hand[player, f0 : f0 + NUM_VALUES].sum() >= 2:
                for c in range(f0, f0 + NUM_VALUES):
                    mask[add + c] = state.hand[player, c] > 0
    mask[params[K.A_DECLINE]] = 1


@compiled
def mars_pair(state, params, action, player, space):
    if action == params[K.A_COMMIT]:
        state.hand[player] -= state.build  # laid face down until every pair is in
        unseen_leaving(state, player, 2)
        state.mars_pairs[space] = state.build
        state.build[:] = 0
    elif action == params[K.A_DECLINE]:
        state.build[:] = 0
    else:
        state.build[action - params[K.A_ADD]] += 1
        push(state, Task.MARS_PAIR, player, space)


@compiled
def mars_resolve(state, params, events):
    """Each pair earns a laurel; the single highest pair sum earns one more (clarifications §4)."""
    best, leader, tied = -1, -1, False
    for i in range(state.mars_pairs.shape[0]):
        if not laid_pair(state.mars_pairs, i):
            continue
        p = state.space_owner[params[K.FIRST_SPACE + MARS] + i]
        total = value_sum(state.mars_pairs[i])
        state.res[p, LAURELS] += params[K.MARS_LAURELS_PER_PAIR]
        say(params, events, Ev.MARS_PAIR, p, total)
        if total > best:
            best, leader, tied = total, p, False
        elif total == best and p != leader:
            tied = True
    if leader >= 0 and not tied:
        state.res[leader, LAURELS] += params[K.MARS_BONUS_LAURELS]
    for i in range(state.mars_pairs.shape[0]):
        discard_all(state, state.mars_pairs[i], True)
    state.mars_pairs[:] = 0

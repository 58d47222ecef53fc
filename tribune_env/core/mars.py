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
def mars(s, k):
    push(s, Task.MARS_RESOLVE)
    for i in range(k[K.SP_END] - k[K.SP + MARS] - 1, -1, -1):
        p = s.space_owner[k[K.SP + MARS] + i]
        if p >= 0:
            push(s, Task.MARS_PAIR, p, i)


@compiled
def mask_mars(s, k, m, player):
    """A pair of one faction, built card by card; commit with two cards; decline any time."""
    chosen = s.build.sum()
    add = k[K.A_ADD]
    if chosen == 2:
        m[k[K.A_COMMIT]] = 1
    elif chosen == 1:
        first = 0
        while s.build[first] == 0:
            first += 1
        f0 = first - first % NUM_VALUES
        for c in range(f0, f0 + NUM_VALUES):
            m[add + c] = s.hand[player, c] > s.build[c]
    else:
        for f in range(NUM_CARD_TYPES // NUM_VALUES):
            f0 = f * NUM_VALUES
            if s.hand[player, f0 : f0 + NUM_VALUES].sum() >= 2:
                for c in range(f0, f0 + NUM_VALUES):
                    m[add + c] = s.hand[player, c] > 0
    m[k[K.A_DECLINE]] = 1


@compiled
def mars_pair(s, k, action, player, space):
    if action == k[K.A_COMMIT]:
        s.hand[player] -= s.build  # laid face down until every pair is in
        unseen_leaving(s, player, 2)
        s.mars_pairs[space] = s.build
        s.build[:] = 0
    elif action == k[K.A_DECLINE]:
        s.build[:] = 0
    else:
        s.build[action - k[K.A_ADD]] += 1
        push(s, Task.MARS_PAIR, player, space)


@compiled
def mars_resolve(s, k, ev):
    """Each pair earns a laurel; the single highest pair sum earns one more (clarifications §4)."""
    best, leader, tied = -1, -1, False
    for i in range(s.mars_pairs.shape[0]):
        if not laid_pair(s.mars_pairs, i):
            continue
        p = s.space_owner[k[K.SP + MARS] + i]
        total = value_sum(s.mars_pairs[i])
        s.res[p, LAURELS] += k[K.MARS_LAURELS_PER_PAIR]
        say(k, ev, Ev.MARS_PAIR, p, total)
        if total > best:
            best, leader, tied = total, p, False
        elif total == best and p != leader:
            tied = True
    if leader >= 0 and not tied:
        s.res[leader, LAURELS] += k[K.MARS_BONUS_LAURELS]
    for i in range(s.mars_pairs.shape[0]):
        discard_all(s, s.mars_pairs[i], True)
    s.mars_pairs[:] = 0

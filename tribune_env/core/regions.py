"""Phase 3: the eight regions, evaluated in order (rulebook, "Region Evaluation")."""
from numba import njit

from ..data import ATRIUM, CATACOMBS, CURIA, FORUM, LATRINE, MARS, NUM_CARD_TYPES, NUM_VALUES, PANTHEON, THERMAE
from ..kernel import JIT, K
from ..state import ETERNAL, LAURELS, MONEY, Meta
from ..tasks import Task
from .common import discard, discard_all, discard_from_hand, gain_eternal_favor, push, say, value_sum
from .events import Ev

THERMAE_REGION, FORUM_REGION = 0, 1


@njit(**JIT)
def phase3(s, k, ev):
    s.meta[Meta.PHASE] = 3
    push(s, Task.PHASE4)
    push(s, Task.MARS)
    push(s, Task.PANTHEON)
    push(s, Task.CATACOMBS_END)
    for i in range(k[K.SP + PANTHEON] - k[K.SP + CATACOMBS] - 1, -1, -1):
        push(s, Task.CATACOMBS, i)
    push(s, Task.ATRIUM)
    for stack in range(s.curia.shape[0] - 1, -1, -1):
        push(s, Task.CURIA, stack)
    push(s, Task.LATRINE)
    push(s, Task.FORUM)
    push(s, Task.THERMAE)


@njit(**JIT)
def take_slot(s, slot, p):
    s.hand[p, s.slot_card[slot]] += 1
    s.slot_card[slot] = -1


@njit(**JIT)
def discard_slot(s, slot):
    """Face-up cards go to the discard pile openly, face-down ones unseen."""
    discard(s, s.slot_card[slot], s.slot_up[slot] > 0)
    s.slot_card[slot] = -1


@njit(**JIT)
def buy_each(s, k, ev, space0, slot0, count, cost, region):
    """Thermae and Forum: in order, each occupant pays if able and takes the card."""
    for i in range(count):
        slot = slot0 + i
        if s.slot_card[slot] < 0:
            continue
        p = s.space_owner[space0 + i]
        if p >= 0 and s.res[p, MONEY] >= cost:
            s.res[p, MONEY] -= cost
            say(k, ev, Ev.PAYS, p, cost, s.slot_card[slot], region)
            take_slot(s, slot, p)
        else:
            discard_slot(s, slot)


@njit(**JIT)
def thermae(s, k, ev):
    buy_each(s, k, ev, k[K.SP + THERMAE], k[K.SL + THERMAE], k[K.SL + FORUM] - k[K.SL + THERMAE],
             k[K.THERMAE_COST], THERMAE_REGION)


@njit(**JIT)
def forum(s, k, ev):
    buy_each(s, k, ev, k[K.SP + FORUM], k[K.SL + FORUM], k[K.SL + LATRINE] - k[K.SL + FORUM],
             k[K.FORUM_COST], FORUM_REGION)


@njit(**JIT)
def latrine(s, k, ev):
    slot = k[K.SL + LATRINE]
    if s.slot_card[slot] < 0:
        return
    p = s.space_owner[k[K.SP + LATRINE]]
    if p < 0:
        discard_slot(s, slot)
        return
    s.slot_up[slot] = 1
    say(k, ev, Ev.LATRINE, p, s.slot_card[slot])
    push(s, Task.LATRINE_CHOICE, p)


@njit(**JIT)
def mask_latrine(s, k, m, p):
    m[k[K.A_LATRINE]] = 1
    m[k[K.A_LATRINE] + 1] = s.res[p, MONEY] >= s.slot_card[k[K.SL + LATRINE]] % NUM_VALUES


@njit(**JIT)
def latrine_choice(s, k, action, p):
    """Take the value in denarii and discard the card, or pay the value and keep it."""
    slot = k[K.SL + LATRINE]
    value = s.slot_card[slot] % NUM_VALUES
    if action == k[K.A_LATRINE]:
        s.res[p, MONEY] += value
        discard_slot(s, slot)
    else:
        s.res[p, MONEY] -= value
        take_slot(s, slot, p)


@njit(**JIT)
def curia(s, k, stack):
    if s.curia[stack].sum() == 0:
        return
    p = s.space_owner[k[K.SP + CURIA] + stack]
    if p < 0:
        discard_all(s, s.curia[stack], True)
        s.curia[stack] = 0
    else:
        push(s, Task.CURIA_CHOICE, p, stack)


@njit(**JIT)
def mask_any_discard(s, k, m, p):
    """Discard any card in hand, or decline (Curia, Tigellinus)."""
    d = k[K.A_DISCARD]
    for c in range(NUM_CARD_TYPES):
        m[d + c] = s.hand[p, c] > 0
    m[k[K.A_DECLINE]] = 1


@njit(**JIT)
def curia_choice(s, k, ev, action, p, stack):
    """Discard one hand card to take the whole stack, or decline and let it be discarded."""
    if action != k[K.A_DECLINE]:
        discard_from_hand(s, p, action - k[K.A_DISCARD])
        s.hand[p] += s.curia[stack]
        say(k, ev, Ev.CURIA, p, stack, s.curia[stack].sum())
    else:
        discard_all(s, s.curia[stack], True)
    s.curia[stack] = 0


@njit(**JIT)
def atrium(s, k, ev):
    first, second = s.space_owner[k[K.SP + ATRIUM]], s.space_owner[k[K.SP + ATRIUM] + 1]
    if first >= 0 and second >= 0:
        push(s, Task.ATRIUM_RESOLVE)
        push(s, Task.ATRIUM_BID, second)
        push(s, Task.ATRIUM_BID, first)
        return
    # "1." alone pays 1 (if able) and takes the face-up cards (clarifications §4, Atrium flip)
    pays = first >= 0 and s.res[first, MONEY] >= k[K.ATRIUM_COST]
    if pays:
        s.res[first, MONEY] -= k[K.ATRIUM_COST]
        say(k, ev, Ev.ATRIUM_SINGLE, first, k[K.ATRIUM_COST])
    for slot in range(k[K.SL + ATRIUM], k[K.SL + PANTHEON]):
        if s.slot_card[slot] >= 0:
            if pays and s.slot_up[slot]:
                take_slot(s, slot, first)
            else:
                discard_slot(s, slot)


@njit(**JIT)
def atrium_resolve(s, k, ev):
    """Higher bid wins (a tie goes to "1."); the winner pays its bid to the loser."""
    first, second = s.space_owner[k[K.SP + ATRIUM]], s.space_owner[k[K.SP + ATRIUM] + 1]
    winner, loser = (first, second) if s.bids[first] >= s.bids[second] else (second, first)
    price = s.bids[winner]
    say(k, ev, Ev.ATRIUM_BIDS, first, s.bids[first], second, s.bids[second], winner)
    s.res[winner, MONEY] -= price
    s.res[loser, MONEY] += price
    for slot in range(k[K.SL + ATRIUM], k[K.SL + PANTHEON]):
        if s.slot_card[slot] >= 0:
            take_slot(s, slot, winner)
    s.bids[:] = 0
    s.committed[:] = 0


@njit(**JIT)
def catacombs(s, k, i):
    p = s.space_owner[k[K.SP + CATACOMBS] + i]
    if p >= 0 and s.catacombs.sum() > 0:
        s.catacombs_seen[p] = s.catacombs     # it examines the pile; others see nothing
        push(s, Task.CATACOMBS_CHOICE, p, i)


@njit(**JIT)
def mask_catacombs(s, k, m, p, i):
    if s.res[p, MONEY] >= k[K.CATACOMB_PRICES + i]:
        for c in range(NUM_CARD_TYPES):
            m[k[K.A_TAKE] + c] = s.catacombs[c] > 0
    m[k[K.A_DECLINE]] = 1


@njit(**JIT)
def catacombs_choice(s, k, ev, action, p, i):
    """Buy one examined card; the price goes to the Colosseum."""
    if action == k[K.A_DECLINE]:
        return
    price = k[K.CATACOMB_PRICES + i]
    code = action - k[K.A_TAKE]
    s.res[p, MONEY] -= price
    s.meta[Meta.COLOSSEUM] += price
    s.catacombs[code] -= 1
    s.catacombs_seen[p, code] -= 1      # p knows the pile without the card it took
    s.hand[p, code] += 1
    say(k, ev, Ev.CATACOMBS, p, price)


@njit(**JIT)
def catacombs_end(s):
    discard_all(s, s.catacombs, False)
    s.catacombs[:] = 0
    s.catacombs_seen[:] = 0


@njit(**JIT)
def pantheon(s, k, ev):
    slot = k[K.SL + PANTHEON]
    if s.slot_card[slot] < 0:
        s.pantheon_seen[:] = 0
        return
    s.slot_up[slot] = 1
    say(k, ev, Ev.PANTHEON, s.slot_card[slot])
    push(s, Task.PANTHEON_END)
    for space in range(k[K.SP + MARS] - 1, k[K.SP + PANTHEON] - 1, -1):
        p = s.space_owner[space]
        if p >= 0 and not s.res[p, ETERNAL]:   # a holder of eternal favor may not sacrifice
            push(s, Task.SACRIFICE, p)


@njit(**JIT)
def mask_sacrifice(s, k, m, p):
    f = s.slot_card[k[K.SL + PANTHEON]] // NUM_VALUES
    for v in range(NUM_VALUES):
        m[k[K.A_DISCARD] + f * NUM_VALUES + v] = s.hand[p, f * NUM_VALUES + v] > 0
    m[k[K.A_DECLINE]] = 1


@njit(**JIT)
def sacrifice(s, k, action, p):
    """Discard a card of the revealed faction; the favor comes once all have chosen."""
    if action != k[K.A_DECLINE]:
        discard_from_hand(s, p, action - k[K.A_DISCARD])
        s.committed[p] = 1


@njit(**JIT)
def pantheon_end(s, k, ev):
    discard_slot(s, k[K.SL + PANTHEON])
    for p in range(k[K.N]):
        if s.committed[p]:
            gain_eternal_favor(s, k, ev, p)
    s.committed[:] = 0
    s.pantheon_seen[:] = 0


@njit(**JIT)
def mars(s, k):
    push(s, Task.MARS_RESOLVE)
    for i in range(k[K.SP_END] - k[K.SP + MARS] - 1, -1, -1):
        p = s.space_owner[k[K.SP + MARS] + i]
        if p >= 0:
            push(s, Task.MARS_PAIR, p, i)


@njit(**JIT)
def mask_mars(s, k, m, p):
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
            m[add + c] = s.hand[p, c] > s.build[c]
    else:
        for f in range(NUM_CARD_TYPES // NUM_VALUES):
            f0 = f * NUM_VALUES
            if s.hand[p, f0:f0 + NUM_VALUES].sum() >= 2:
                for c in range(f0, f0 + NUM_VALUES):
                    m[add + c] = s.hand[p, c] > 0
    m[k[K.A_DECLINE]] = 1


@njit(**JIT)
def mars_pair(s, k, action, p, i):
    if action == k[K.A_COMMIT]:
        s.hand[p] -= s.build                  # laid face down until every pair is in
        s.mars_pairs[i] = s.build
        s.build[:] = 0
    elif action == k[K.A_DECLINE]:
        s.build[:] = 0
    else:
        s.build[action - k[K.A_ADD]] += 1
        push(s, Task.MARS_PAIR, p, i)


@njit(**JIT)
def mars_resolve(s, k, ev):
    """Each pair earns a laurel; the single highest pair sum earns one more (clarifications §4)."""
    best, leader, tied = -1, -1, False
    for i in range(s.mars_pairs.shape[0]):
        if s.mars_pairs[i].sum() != 2:
            continue
        p = s.space_owner[k[K.SP + MARS] + i]
        total = value_sum(s.mars_pairs[i])
        s.res[p, LAURELS] += k[K.MARS_LAUREL]
        say(k, ev, Ev.MARS_PAIR, p, total)
        if total > best:
            best, leader, tied = total, p, False
        elif total == best and p != leader:
            tied = True
    if leader >= 0 and not tied:
        s.res[leader, LAURELS] += k[K.MARS_BONUS]
    for i in range(s.mars_pairs.shape[0]):
        discard_all(s, s.mars_pairs[i], True)
    s.mars_pairs[:] = 0


@njit(**JIT)
def phase4(s):
    """Followers leave the regions; take-overs follow in board order."""
    s.space_owner[:] = -1
    s.meta[Meta.PHASE] = 4
    push(s, Task.PHASE5)
    for f in range(6, -1, -1):
        push(s, Task.TAKEOVER, f)

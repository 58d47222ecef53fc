"""Phase 3: the eight regions, evaluated in order (rulebook, "Region Evaluation")."""
import numpy as np

from ..data import NUM_CARD_TYPES
from ..state import LAURELS, M, MONEY
from ..tasks import Task
from .registry import FACTION_OF, VALUE_OF, auto, decision, faction_slice


@auto(Task.PHASE3)
def phase3(g, a, b, c):
    g.meta[M["phase"]] = 3
    data = g.data
    g.push_seq((Task.THERMAE,), (Task.FORUM,), (Task.LATRINE,),
               *[(Task.CURIA, k) for k in range(data.curia_stacks)],
               (Task.ATRIUM,),
               *[(Task.CATACOMBS, i) for i in range(len(data.catacomb_prices))],
               (Task.CATACOMBS_END,), (Task.PANTHEON,), (Task.MARS,), (Task.PHASE4,))


def _take_slot(g, slot, p):
    g.hand[p, g.slot_card[slot]] += 1
    g.slot_card[slot] = -1


def _discard_slot(g, slot):
    """Face-up cards go to the discard pile openly, face-down ones unseen."""
    g.discard_card(g.slot_card[slot], public=bool(g.slot_up[slot]))
    g.slot_card[slot] = -1


def _buy_each(g, region, cost):
    """Thermae and Forum: left to right, each occupant pays if able and takes the card."""
    for space, slot in zip(g.board.spaces[region], g.board.slots[region]):
        if g.slot_card[slot] < 0:
            continue
        p = int(g.space_owner[space])
        if p >= 0 and g.res[p, MONEY] >= cost:
            g.gain(p, MONEY, -cost)
            g.say(f"player_{p} pays {cost} for {g.card_name(g.slot_card[slot])} ({region})")
            _take_slot(g, slot, p)
        else:
            _discard_slot(g, slot)


@auto(Task.THERMAE)
def thermae(g, a, b, c):
    _buy_each(g, "Thermae", g.data.thermae_cost)


@auto(Task.FORUM)
def forum(g, a, b, c):
    _buy_each(g, "Forum Romanum", g.data.forum_cost)


@auto(Task.LATRINE)
def latrine(g, a, b, c):
    slot = g.board.slots["Latrine"].start
    if g.slot_card[slot] < 0:
        return
    p = int(g.space_owner[g.board.spaces["Latrine"].start])
    if p < 0:
        _discard_slot(g, slot)
        return
    g.slot_up[slot] = 1
    g.say(f"Latrine: player_{p} reveals {g.card_name(g.slot_card[slot])}")
    g.push(Task.LATRINE_CHOICE, p)


def mask_latrine(g, m, p, b, c):
    value = VALUE_OF[g.slot_card[g.board.slots["Latrine"].start]]
    m[g.A.LATRINE] = 1
    m[g.A.LATRINE + 1] = g.res[p, MONEY] >= value


@decision(Task.LATRINE_CHOICE, mask_latrine)
def latrine_choice(g, action, p, b, c):
    """Take the value in denarii and discard the card, or pay the value and keep it."""
    slot = g.board.slots["Latrine"].start
    value = int(VALUE_OF[g.slot_card[slot]])
    if action == g.A.LATRINE:
        g.gain(p, MONEY, value)
        _discard_slot(g, slot)
    else:
        g.gain(p, MONEY, -value)
        _take_slot(g, slot, p)


@auto(Task.CURIA)
def curia(g, k, b, c):
    if not g.curia[k].any():
        return
    p = int(g.space_owner[g.board.spaces["Curia"][k]])
    if p < 0:
        g.discard_cards(g.curia[k])
        g.curia[k] = 0
    else:
        g.push(Task.CURIA_CHOICE, p, k)


def mask_any_discard(g, m, p, b, c):
    """Discard any card in hand, or decline (Curia, Tigellinus)."""
    m[g.A.DISCARD: g.A.DISCARD + NUM_CARD_TYPES] = g.hand[p] > 0
    m[g.A.DECLINE] = 1


@decision(Task.CURIA_CHOICE, mask_any_discard)
def curia_choice(g, action, p, k, c):
    """Discard one hand card to take the whole stack, or decline and let it be discarded."""
    if action != g.A.DECLINE:
        code = action - g.A.DISCARD
        g.hand[p, code] -= 1
        g.discard_card(code)
        g.hand[p] += g.curia[k]
        g.say(f"player_{p} takes Curia stack {k + 1} ({int(g.curia[k].sum())} cards)")
    else:
        g.discard_cards(g.curia[k])
    g.curia[k] = 0


@auto(Task.ATRIUM)
def atrium(g, a, b, c):
    spaces, slots = g.board.spaces["Atrium Auctionorum"], g.board.slots["Atrium Auctionorum"]
    first, second = (int(g.space_owner[s]) for s in spaces)
    if first >= 0 and second >= 0:
        g.push_seq((Task.ATRIUM_BID, first), (Task.ATRIUM_BID, second), (Task.ATRIUM_RESOLVE,))
        return
    # "1." alone pays 1 (if able) and takes the face-up cards (clarifications §4, Atrium flip)
    pays = first >= 0 and g.res[first, MONEY] >= g.data.atrium_single_cost
    if pays:
        g.gain(first, MONEY, -g.data.atrium_single_cost)
        g.say(f"player_{first} pays {g.data.atrium_single_cost} for the face-up Atrium cards")
    for slot in slots:
        if g.slot_card[slot] >= 0:
            if pays and g.slot_up[slot]:
                _take_slot(g, slot, first)
            else:
                _discard_slot(g, slot)


def mask_bid(g, m, p, b, c):
    m[g.A.BID: g.A.BID + min(int(g.res[p, MONEY]), g.data.max_bid) + 1] = 1


def apply_bid(g, action, p, b, c):
    """A sealed bid: stored, shown to nobody else until all have bid."""
    g.bids[p] = action - g.A.BID
    g.committed[p] = 1


decision(Task.ATRIUM_BID, mask_bid)(apply_bid)


@auto(Task.ATRIUM_RESOLVE)
def atrium_resolve(g, a, b, c):
    """Higher bid wins (a tie goes to "1."); the winner pays its bid to the loser."""
    first, second = (int(g.space_owner[s]) for s in g.board.spaces["Atrium Auctionorum"])
    winner, loser = (first, second) if g.bids[first] >= g.bids[second] else (second, first)
    price = int(g.bids[winner])
    g.say(f"Atrium bids: player_{first} {int(g.bids[first])}, player_{second} {int(g.bids[second])}; "
          f"player_{winner} takes the cards")
    g.gain(winner, MONEY, -price)
    g.gain(loser, MONEY, price)
    for slot in g.board.slots["Atrium Auctionorum"]:
        if g.slot_card[slot] >= 0:
            _take_slot(g, slot, winner)
    g.bids[:] = 0
    g.committed[:] = 0


@auto(Task.CATACOMBS)
def catacombs(g, i, b, c):
    p = int(g.space_owner[g.board.spaces["Catacombs"][i]])
    if p >= 0 and g.catacombs.any():
        g.catacombs_seen[p] = 1               # it examines the pile; others see nothing
        g.push(Task.CATACOMBS_CHOICE, p, i)


def mask_catacombs(g, m, p, i, c):
    if g.res[p, MONEY] >= g.data.catacomb_prices[i]:
        m[g.A.TAKE: g.A.TAKE + NUM_CARD_TYPES] = g.catacombs > 0
    m[g.A.DECLINE] = 1


@decision(Task.CATACOMBS_CHOICE, mask_catacombs)
def catacombs_choice(g, action, p, i, c):
    """Buy one examined card; the price goes to the Colosseum."""
    if action == g.A.DECLINE:
        return
    price = g.data.catacomb_prices[i]
    code = action - g.A.TAKE
    g.gain(p, MONEY, -price)
    g.meta[M["colosseum"]] += price
    g.catacombs[code] -= 1
    g.hand[p, code] += 1
    g.say(f"player_{p} buys a Catacombs card for {price}")


@auto(Task.CATACOMBS_END)
def catacombs_end(g, a, b, c):
    g.discard_cards(g.catacombs, public=False)
    g.catacombs[:] = 0
    g.catacombs_seen[:] = 0


@auto(Task.PANTHEON)
def pantheon(g, a, b, c):
    slot = g.board.slots["Pantheon"].start
    if g.slot_card[slot] < 0:
        g.pantheon_seen[:] = 0
        return
    g.slot_up[slot] = 1
    g.say(f"Pantheon: {g.card_name(g.slot_card[slot])} is turned face up")
    occupants = [int(g.space_owner[s]) for s in g.board.spaces["Pantheon"]]
    g.push_seq(*[(Task.SACRIFICE, p) for p in occupants if p >= 0 and not g.res[p, 4]],
               (Task.PANTHEON_END,))


def mask_sacrifice(g, m, p, b, c):
    f = FACTION_OF[g.slot_card[g.board.slots["Pantheon"].start]]
    m[g.A.DISCARD + f * 11: g.A.DISCARD + f * 11 + 11] = g.hand[p, faction_slice(f)] > 0
    m[g.A.DECLINE] = 1


@decision(Task.SACRIFICE, mask_sacrifice)
def sacrifice(g, action, p, b, c):
    """Discard a card of the revealed faction; the favor comes once all have chosen."""
    if action != g.A.DECLINE:
        code = action - g.A.DISCARD
        g.hand[p, code] -= 1
        g.discard_card(code)
        g.committed[p] = 1


@auto(Task.PANTHEON_END)
def pantheon_end(g, a, b, c):
    _discard_slot(g, g.board.slots["Pantheon"].start)
    for p in np.flatnonzero(g.committed):
        g.gain_eternal_favor(int(p))
    g.committed[:] = 0
    g.pantheon_seen[:] = 0


@auto(Task.MARS)
def mars(g, a, b, c):
    spaces = g.board.spaces["Field of Mars"]
    g.push_seq(*[(Task.MARS_PAIR, int(g.space_owner[s]), i) for i, s in enumerate(spaces)
                 if g.space_owner[s] >= 0], (Task.MARS_RESOLVE,))


def mask_mars(g, m, p, i, c):
    """A pair of one faction, built card by card; commit with two cards; decline any time."""
    A, build, hand = g.A, g.build, g.hand[p]
    chosen = int(build.sum())
    if chosen == 2:
        m[A.COMMIT] = 1
    elif chosen == 1:
        f = FACTION_OF[int(np.flatnonzero(build)[0])]
        s = faction_slice(f)
        m[A.ADD + s.start: A.ADD + s.stop] = hand[s] > build[s]
    else:
        pairs = hand.reshape(7, -1).sum(axis=1) >= 2
        m[A.ADD: A.ADD + NUM_CARD_TYPES] = (hand > 0) & np.repeat(pairs, hand.size // 7)
    m[A.DECLINE] = 1


@decision(Task.MARS_PAIR, mask_mars)
def mars_pair(g, action, p, i, c):
    A = g.A
    if action == A.COMMIT:
        g.hand[p] -= g.build                  # laid face down until every pair is in
        g.mars_pairs[i] = g.build
        g.build[:] = 0
    elif action == A.DECLINE:
        g.build[:] = 0
    else:
        g.build[action - A.ADD] += 1
        g.push(Task.MARS_PAIR, p, i)


@auto(Task.MARS_RESOLVE)
def mars_resolve(g, a, b, c):
    """Each pair earns a laurel; the single highest pair sum earns one more (clarifications §4)."""
    spaces = g.board.spaces["Field of Mars"]
    owners = np.array([g.space_owner[s] for s in spaces])
    laid = g.mars_pairs.sum(axis=1) == 2
    sums = g.mars_pairs @ VALUE_OF
    for i in np.flatnonzero(laid):
        g.gain(int(owners[i]), LAURELS, g.data.mars_laurels_per_pair)
        g.say(f"Field of Mars: player_{int(owners[i])} lays a pair worth {int(sums[i])}")
    if laid.any():
        best = sums[laid].max()
        leaders = set(owners[laid & (sums == best)].tolist())
        if len(leaders) == 1:
            g.gain(leaders.pop(), LAURELS, g.data.mars_bonus_laurels)
    g.discard_cards(g.mars_pairs.sum(axis=0))
    g.mars_pairs[:] = 0


@auto(Task.PHASE4)
def phase4(g, a, b, c):
    """Followers leave the regions; take-overs follow in board order."""
    g.space_owner[:] = -1
    g.meta[M["phase"]] = 4
    g.push_seq(*[(Task.TAKEOVER, f) for f in range(7)], (Task.PHASE5,))

"""Setup, Phase 1 (card placement), drawing, the cesura magna and the end of a round."""
import numpy as np

from ..data import FACTIONS, NUM_CARD_TYPES
from ..state import M, MONEY
from ..kernel import below, shuffle
from ..tasks import Task
from .registry import VALUE_OF, auto, decision


def setup(g):
    """Rulebook setup 5-8: shuffle, deal, choose the starting player and money."""
    meta = g.meta
    for key in ("temp_favor", "chariot", "proconsul", "challenger"):
        meta[M[key]] = -1
    deck = g.deck.astype(np.int32)
    shuffle(g.rng, deck)
    g.draw[: len(deck)] = deck
    meta[M["draw_n"]] = len(deck)
    start = int(below(g.rng, g.n))
    meta[M["start_player"]] = start
    order = [(start + i) % g.n for i in range(g.n)]
    for i, p in enumerate(order):
        g.res[p, MONEY] = g.data.starting_money + i
        for _ in range(g.data.setup_deal):
            g.hand[p, g.draw_card(Task.DRAW, p)] += 1
    g.say(f"setup: player_{start} starts; "
          + ("point-value variant" if g.victory_card is None else f"victory card {g.victory_card.id}"))
    g.push_seq(*[(Task.SETUP_DISCARD, p) for p in order], (Task.SETUP_FINISH,), (Task.ROUND_START,))


def mask_discard_down(g, m, p, keep):
    """Cards still to pick for a discard down to `keep` cards, then commit."""
    hand = g.hand[p]
    if hand.sum() - g.build.sum() > keep:
        m[g.A.DISCARD: g.A.DISCARD + NUM_CARD_TYPES] = hand > g.build
    else:
        m[g.A.COMMIT] = 1


def apply_discard_down(g, action, kind, p, public):
    if action == g.A.COMMIT:
        g.hand[p] -= g.build
        g.discard_cards(g.build, public)
        g.say(f"player_{p} discards {int(g.build.sum())} cards")
        g.build[:] = 0
    else:
        g.build[action - g.A.DISCARD] += 1
        g.push(kind, p)


@decision(Task.SETUP_DISCARD, lambda g, m, p, b, c: mask_discard_down(g, m, p, g.data.setup_keep))
def setup_discard(g, action, p, b, c):
    # setup discards are face down: nobody else learns them (clarifications §4, secrecy)
    apply_discard_down(g, action, Task.SETUP_DISCARD, p, public=False)


@auto(Task.SETUP_FINISH)
def setup_finish(g, a, b, c):
    """Shuffle the setup discards back into the deck."""
    n = int(g.meta[M["draw_n"]])
    cards = np.concatenate([g.draw[:n], np.repeat(np.arange(NUM_CARD_TYPES, dtype=np.int32),
                                                  g.discard_hidden)])
    shuffle(g.rng, cards)
    g.draw[: len(cards)] = cards
    g.meta[M["draw_n"]] = len(cards)
    g.discard_hidden[:] = 0


@auto(Task.ROUND_START)
def round_start(g, a, b, c):
    """Phase 1: fill the card fields in region order."""
    meta = g.meta
    meta[M["round"]] += 1
    meta[M["phase"]] = 1
    meta[M["coin_bowl_used"]] = 0
    g.coin_bowl[:] = 0
    g.say(f"round {int(meta[M['round']])}: player_{int(meta[M['start_player']])} starts")
    slots, data = g.board.slots, g.data
    g.push_seq(*[(Task.DEAL, s) for s in (*slots["Thermae"], *slots["Forum Romanum"], *slots["Latrine"])],
               *[(Task.DEAL_CURIA, k) for k in range(data.curia_stacks)],
               *[(Task.DEAL, s) for s in slots["Atrium Auctionorum"]],
               *[(Task.DEAL_CATACOMBS,)] * data.catacomb_cards,
               *[(Task.DEAL, s) for s in slots["Pantheon"]],
               (Task.PHASE2,))


@auto(Task.DEAL)
def deal(g, slot, b, retry):
    card = g.draw_card(Task.DEAL, slot, 0, retry)
    if card is not None:
        g.slot_card[slot] = card
        # Thermae and Forum cards lie face up, the others face down
        g.slot_up[slot] = slot < g.board.slots["Latrine"].start


@auto(Task.DEAL_CURIA)
def deal_curia(g, k, b, retry):
    """One more card on stack k, until its sum reaches 5 or a leader lies on it."""
    card = g.draw_card(Task.DEAL_CURIA, k, 0, retry)
    if card is None:
        return
    g.curia[k, card] += 1
    if VALUE_OF[card] != 0 and g.curia[k] @ VALUE_OF < g.data.curia_sum:
        g.push(Task.DEAL_CURIA, k)


@auto(Task.DEAL_CATACOMBS)
def deal_catacombs(g, a, b, retry):
    card = g.draw_card(Task.DEAL_CATACOMBS, 0, 0, retry)
    if card is not None:
        g.catacombs[card] += 1


@auto(Task.DRAW)
def draw(g, p, b, retry):
    card = g.draw_card(Task.DRAW, p, 0, retry)
    if card is not None:
        g.hand[p, card] += 1
        g.say(f"player_{p} draws a card")


def start_cesura(g):
    """Both piles are empty: hands above the limit are cut by their holders, then the sets."""
    g.say("cesura magna!")
    start = int(g.meta[M["start_player"]])
    order = [(start + i) % g.n for i in range(g.n)]
    g.push_seq(*[(Task.CESURA_DISCARD, p) for p in order
                 if g.hand[p].sum() > g.data.cesura_hand_limit], (Task.CESURA_SETS,))


@decision(Task.CESURA_DISCARD, lambda g, m, p, b, c: mask_discard_down(g, m, p, g.data.cesura_hand_limit))
def cesura_discard(g, action, p, b, c):
    apply_discard_down(g, action, Task.CESURA_DISCARD, p, public=True)


@auto(Task.CESURA_SETS)
def cesura_sets(g, a, b, c):
    """Sets of 4+ lose their two lowest cards, 3-card sets their lowest; then reshuffle."""
    for f in range(len(FACTIONS)):
        size = int(g.sets[f].sum())
        lose = 2 if size >= 4 else 1 if size == 3 else 0
        for _ in range(lose):
            v = int(np.flatnonzero(g.sets[f])[0])
            g.sets[f, v] -= 1
            g.discard_card(f * len(g.sets[f]) + v)
        if lose:
            g.say(f"the {FACTIONS[f]} set loses {lose} card(s)")
    g.reshuffle()


@auto(Task.ROUND_END)
def round_end(g, a, b, c):
    """Pass the starting player coin; end the game after a declaration or at the round limit."""
    if (g.declared[: g.n] >= 0).any():
        g.finish()
    elif g.round >= g.round_limit:
        g.truncate()
    else:
        g.meta[M["start_player"]] = (g.meta[M["start_player"]] + 1) % g.n
        g.push(Task.ROUND_START)

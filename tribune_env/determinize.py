"""Sample a full game state consistent with one player's information (for IS-MCTS).

Hidden from a player: other hands, the order and content of the draw pile, face-down
discards, face-down board cards it has not seen, other players' sealed bids and
face-down Field of Mars pairs, another player's set under construction, which cards the
others bought in the Catacombs and what they remember of that pile. These are pooled and
dealt again at random into the same places with the same sizes, keeping what the player
knows: the cards every player saw go into a hand stay in it (``known``), the Catacombs
cards the player examined are the pile and the later buyers' purchases, and each other
examiner remembers the pile as it stood in this world. Everything the player's
observation shows is kept, so ``observe(player)`` is unchanged; the copy's log is the
player's own view of the log (:meth:`Game.seat_log`).
"""

from __future__ import annotations

import numpy as np

from .core import dispatch
from .core.bids import entered_part
from .core.visibility import hidden_pairs as hidden_pairs_of
from .core.visibility import hidden_slots as hidden_slots_of
from .data import NUM_CARD_TYPES, NUM_VALUES
from .kernel import seed_words
from .state import MONEY, Meta
from .tasks import BIDS, Task


def determinize(game, player: int, rng: np.random.Generator | None = None):
    """A clone of `game` with everything hidden from `player` re-dealt by `rng`.

    Whatever decision waits stays consistent: the engine puts a decision to its player
    even when only that player's hidden cards leave it one legal action, so the
    decision's presence tells `player` nothing that a re-deal could contradict.
    """
    player = game.seat(player)
    if rng is None:  # derived from the game's generator, which is left untouched
        rng = np.random.default_rng(game.state.rng.view(np.uint32).tolist())
    return _sample(game, player, rng)


def _sample(game, player, rng):
    """One re-deal of everything hidden from `player`."""
    g = game.clone()
    g.edited()  # a world of its own, which no seed and moves make
    g.log = game.seat_log(player)
    s = g.state
    s.rng[:] = seed_words(rng.integers(2**63))  # the sampled world's future differs too
    others = [q for q in range(g.n) if q != player]
    decision = g.decision()
    if decision is not None and decision[1] != player:
        s.build[:] = 0  # someone else's unfinished set is unknown
    hands = {q: s.known[q].astype(np.int64) for q in others}  # each hand's cards fixed so far
    pool = np.zeros(NUM_CARD_TYPES, dtype=np.int64)
    for q in others:
        pool += s.hand[q] - s.known[q]
    n_draw = int(s.meta[Meta.DRAW_N])
    pool += np.bincount(s.draw[:n_draw], minlength=NUM_CARD_TYPES)
    pool += s.discard_hidden
    hidden_slots = hidden_slots_of(g.handle.buffer, g.handle.params, player)
    for slot in hidden_slots:
        pool[s.slot_card[slot]] += 1
    catacombs = _Catacombs(g, player, decision)
    if catacombs.hidden:
        pool += s.catacombs
    hidden_pairs = hidden_pairs_of(g.handle.buffer, g.handle.params, player)
    for i in hidden_pairs:
        pool += s.mars_pairs[i]

    for i in hidden_pairs:  # pairs first: they must be of one faction
        pair = _sample_pair(pool, rng)
        if pair is not None:
            s.mars_pairs[i] = pair
        pool -= s.mars_pairs[i]
    catacombs.sample(pool, hands, rng)
    cards = np.repeat(np.arange(NUM_CARD_TYPES, dtype=np.int32), pool)
    rng.shuffle(cards)
    at = 0

    def take(k):
        nonlocal at
        at += k
        return cards[at - k : at]

    for q in others:
        s.hand[q] = hands[q] + np.bincount(take(int(s.hand[q].sum() - hands[q].sum())), minlength=NUM_CARD_TYPES)
    for slot in hidden_slots:
        s.slot_card[slot] = take(1)[0]
    if catacombs.hidden and catacombs.seen is None:
        s.catacombs[:] = np.bincount(take(int(s.catacombs.sum())), minlength=NUM_CARD_TYPES)
    catacombs.remember()
    s.discard_hidden[:] = np.bincount(take(int(s.discard_hidden.sum())), minlength=NUM_CARD_TYPES)
    s.draw[:n_draw] = take(n_draw)
    assert at == len(cards)
    if decision is not None and decision[0] in BIDS:
        _sample_bids(g, others, decision, rng)
    dispatch.legal_mask(*g.handle)  # the same decision waits
    return g


class _Catacombs:
    """The Catacombs while they are evaluated: the pile, who bought what, who remembers what.

    Examinations run space by space; the one on top of the stack is under way, and its
    examiner sees the pile as it is now. Each examiner remembers the pile as it left it;
    that a seat bought is public, the card only its buyer's. In the sampled world the
    player's own memory and purchases stay; the pile and the others' purchases are drawn
    (from what the player saw, for what was bought after it looked), and every other
    examiner remembers the sampled pile plus what was bought after its last look.
    """

    def __init__(self, g, player, decision):
        self.g, self.player = g, player
        s, board = g.state, g.board
        self.looks = []  # (examiner, space), in order, the one under way last
        if decision is not None and decision[0] == Task.CATACOMBS_CHOICE:
            spaces = board.spaces["Catacombs"]
            current = decision[2]
            self.looks = [(int(s.space_owner[spaces[i]]), i) for i in range(current + 1)]
            self.looks = [(q, i) for q, i in self.looks if q >= 0]
        last = [t for t, (q, _) in enumerate(self.looks) if q == player]
        self.last_look = last[-1] if last else None
        # the pile as the player last saw it (the pile itself while it looks), which held every card bought since
        self.seen = None if self.last_look is None else s.catacombs_seen[player].astype(np.int64)
        if self.seen is None:
            self.hidden = bool(s.catacombs.any())
        else:  # others have looked (and maybe bought) since
            self.hidden = self.last_look < len(self.looks) - 1

    def sample(self, pool, hands, rng):
        """Draw the pile and the others' purchases from `pool`, putting each purchase in its buyer's hand."""
        s = self.g.state
        bought = [t for t, (_, i) in enumerate(self.looks) if s.catacombs_bought[i] >= 0]
        if self.seen is not None and self.hidden:
            # what the player saw is the pile now and one card for each later purchase
            pool -= self.seen
            later = [t for t in bought if t > self.last_look]
            cards = np.repeat(np.arange(NUM_CARD_TYPES), self.seen)
            rng.shuffle(cards)
            for j, t in enumerate(later):
                self._buy(t, int(cards[j]), hands)
            s.catacombs[:] = np.bincount(cards[len(later) :], minlength=NUM_CARD_TYPES)
        # bought before the player looked (or it never did): any card of the pool
        before = len(self.looks) if self.last_look is None else self.last_look
        for t in (t for t in bought if t < before and self.looks[t][0] != self.player):
            card = int(rng.choice(NUM_CARD_TYPES, p=pool / pool.sum()))
            pool[card] -= 1
            self._buy(t, card, hands)

    def _buy(self, t, card, hands):
        q, i = self.looks[t]
        self.g.state.catacombs_bought[i] = card
        hands[q][card] += 1

    def remember(self):
        """Each other examiner's memory: the pile now and what was bought after its last look."""
        s = self.g.state
        for q in {q for q, _ in self.looks} - {self.player}:
            last = max(t for t, (who, _) in enumerate(self.looks) if who == q)
            memory = s.catacombs.astype(np.int64).copy()
            for t in range(last + 1, len(self.looks)):
                card = s.catacombs_bought[self.looks[t][1]]
                if card >= 0:
                    memory[card] += 1
            s.catacombs_seen[q] = memory


def _sample_bids(g, others, decision, rng):
    """Other players' sealed bids, committed or (the bidder's) partly entered, not yet revealed."""
    _, actor, entered, _ = decision
    for q in others:
        amount = int(rng.integers(int(g.state.res[q, MONEY]) + 1))
        if g.state.committed[q]:
            g.state.bids[q] = amount
        elif q == actor:
            g.state.bids[q] = entered_part(g.handle.buffer, g.handle.params, q, entered, amount)


def _sample_pair(pool, rng):
    """Two cards of one faction from the pool, or None if no faction has two."""
    by_faction = pool.reshape(-1, NUM_VALUES).sum(axis=1)
    weights = by_faction * (by_faction - 1)
    if not weights.any():
        return None
    f = rng.choice(len(weights), p=weights / weights.sum())
    values = np.repeat(np.arange(NUM_VALUES), pool[f * NUM_VALUES : (f + 1) * NUM_VALUES])
    chosen = rng.choice(values, size=2, replace=False)
    pair = np.zeros(NUM_CARD_TYPES, dtype=np.int64)
    for v in chosen:
        pair[f * NUM_VALUES + v] += 1
    return pair

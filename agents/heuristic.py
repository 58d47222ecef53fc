"""A rule-based Tribune player that pursues the victory card: ``HeuristicAgent`` (``heuristic``).

At each decision with a choice it determinises the game once (``view.determinize``: its own
hand and the public table are real there, everything hidden is re-dealt at random) and
prices what is on offer through a :class:`Reading`, in points of its potential
(:func:`agents.evaluation.potential`: progress towards the victory card, or the score in the
point-value variant):

- a faction's *take-over value*: what winning control would bring this round: the faction
  marker, the first-control laurel, the take-over benefit, the faction benefit of the coming
  Phase 5 and control itself; its leader's benefit is priced apart;
- a card's *worth*: how much closer it brings a winning take-over set of its faction
  (*readiness*: 1 when the cards in hand beat the displayed set, less for each card
  missing) times that take-over value, plus a base for what any card is good for (Field
  of Mars pairs, Curia and Pantheon discards);
- a denarius: what it adds to the potential (the denarii objective, the score), at least
  what money buys.

Then one rule per kind of decision. Placement greedily takes the space worth the most,
given what its earlier followers claimed this round (cards coming, denarii owed), so it
goes to the coin bowl when nothing else pays and money runs short; faction fields are
taken when the hand can win the take-over. Bids are the worth of what is on offer (the
Atrium cards; the chariot's protection of a faction it controls), never more than that.
Take-over sets are the fewest cards that win, the leader always among them, then the
highest sum. Faction benefits, Agrippa, Cato, the temporary favor and the Legate legion
are chosen by one-step lookahead with :func:`agents.evaluation.evaluate`.
"""
from __future__ import annotations

import itertools
import math
from functools import cached_property

import numpy as np

from tribune_env.data import (GLADIATORS, LEGATES, NUM_FACTIONS, NUM_VALUES, PATRICIANS, PLEBEIANS,
                              PRAETORIANS, SENATORS, VESTALS)
from tribune_env.state import ETERNAL, M, MONEY, NO_TILE, SCROLL, TILE, TRIBUNE
from tribune_env.tasks import Task

from .base import Agent
from .evaluation import CARD_POINTS, CONTROL_POINTS, Goal, changed, evaluate, rows

V = NUM_VALUES
VALUES = np.arange(V)
CARDS = [divmod(code, V) for code in range(NUM_FACTIONS * V)]     # (faction, value) of each card code

MISSING = 0.4             # readiness per card still missing from a winning take-over set
SURPLUS = 0.3             # worth of a card beyond a winning set: a stronger set holds longer
DENARIUS_FLOOR = 0.25     # points per denarius at least: what money buys
SHORT_OF_MONEY = 6        # below this many denarii the floor doubles
HOLDS = (0.85, 0.7)       # chance a take-over from faction field space 1 / 2 succeeds
ATRIUM_RISK = 0.8         # "1." alone may meet a bidder on "2."
AUCTION_SHARE = 0.5       # "2." of the Atrium: win the cards at a price, or be paid
BID_SHARE = 0.8           # part of what the Atrium cards are worth that it bids
MARS_LAURELS = 1.5        # a pair's laurel, and half a chance of the bonus
THREAT = 0.25             # chance that a controlled faction is taken over next round
ASSASSIN_HARM = 0.5       # points for weakening an opponent's set


class HeuristicAgent(Agent):
    """Plays by the rules of thumb of this module; the same seed gives the same play.

    ``HeuristicAgent(seed=None)``: the seed feeds the agent's own generator, which draws
    its determinisations. It takes no other options.
    """

    name = "heuristic"

    def act(self, observation, action_mask, view) -> int:
        if action_mask.sum() == 1:            # nothing to weigh: spare the determinisation
            return int(np.flatnonzero(action_mask)[0])
        return self.choose(view.determinize(self.rng))

    def choose(self, game) -> int:
        """The move of the player to act in a full game that is already one of its determinisations.

        ``act`` calls it on ``view.determinize(rng)``; a search that holds such a sampled world
        (IS-MCTS) can call it directly and spare a determinisation. The game is left unchanged.
        """
        legal = game.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        return int(DECIDE[game.decision()[0]](Reading(game, game.current_player), legal))


class Reading:
    """One decision's view of a determinised game, with everything priced in points of potential.

    It reads only what the seat may know: its own hand and build, the public table, and
    face-down cards only once they are face up or seen by this seat.
    """

    def __init__(self, game, seat: int):
        self.game, self.me = game, seat
        self.A = game.A
        self.data = game.data
        self.hand = game.hand[seat].astype(np.int64)
        self.money = int(game.res[seat, MONEY])
        self.goal = Goal.of(game)
        self.row = rows(game)[seat]
        self.base = self.goal.potential(self.row)
        self.average_value = float(np.mean(game.deck % V))

    @property
    def decision(self):
        return self.game.decision()

    def gain(self, **change) -> float:
        """Points the potential gains from a hypothetical change (see evaluation.changed)."""
        return self.goal.potential(changed(self.row, **change)) - self.base

    # ------------------------------------------------------------ money
    @cached_property
    def denarius(self) -> float:
        """Points per denarius: what it adds to the potential, at least what money buys."""
        floor = DENARIUS_FLOOR * (2 if self.money < SHORT_OF_MONEY else 1)
        return max(self.gain(money=5) / 5, floor)

    def income(self, amount: int) -> float:
        return max(self.gain(money=amount), amount * self.denarius)

    def cost(self, amount: int) -> float:
        return max(-self.gain(money=-amount), amount * self.denarius)

    # ------------------------------------------------------------ factions
    @cached_property
    def takeover_values(self) -> list[float]:
        """Per faction, points gained by winning control this round (0 for its own factions)."""
        return [0.0 if self.game.controller[f] == self.me else self.gain(**takeover_change(self, f))
                for f in range(NUM_FACTIONS)]

    @cached_property
    def leader_values(self) -> list[float]:
        return [self.gain(**leader_change(self, f)) for f in range(NUM_FACTIONS)]

    @cached_property
    def targets(self) -> list[tuple[int, int] | None]:
        """Per faction, the (cards, sum) a take-over must beat; None for the agent's own factions."""
        g = self.game
        return [None if owner == self.me else (1, -1) if owner < 0       # (1, -1): any two cards
                else (int(g.sets[f].sum()), int(g.sets[f] @ VALUES))
                for f, owner in enumerate(g.controller.tolist())]

    def readiness(self, f: int, count: int, total: int) -> float:
        """How near `count` cards of faction f summing `total` are to a winning take-over set."""
        target = self.targets[f]
        return 0.0 if target is None else readiness(count, total, target, self.average_value)

    # ------------------------------------------------------------ cards
    def worth(self, code: int, hand: np.ndarray) -> float:
        """Points that card `code` adds to `hand`."""
        f, v = divmod(int(code), V)
        cards = hand[f * V:(f + 1) * V]
        return self.worth_to(f, v, int(cards.sum()), int(cards @ VALUES))

    def worth_to(self, f: int, v: int, count: int, total: int) -> float:
        """Points that a card of faction f and value v adds to `count` cards of f summing `total`."""
        before = self.readiness(f, count, total)
        after = self.readiness(f, count + 1, total + v)
        worth = CARD_POINTS + self.takeover_values[f] * (after - before)
        if before == 1.0 and after == 1.0:
            worth += SURPLUS
        if v == 0:
            worth += self.leader_values[f] * after
        return worth

    def keep(self, code: int, hand: np.ndarray) -> float:
        """Points lost if card `code` leaves `hand`."""
        less = hand.copy()
        less[code] -= 1
        return self.worth(code, less)

    def worth_of(self, cards: np.ndarray, hand: np.ndarray) -> float:
        """Points that all `cards` (counts by code) add to `hand`, one after another."""
        total, hand = 0.0, hand.copy()
        for code in np.repeat(np.arange(len(cards)), cards):
            total += self.worth(code, hand)
            hand[code] += 1
        return total

    def cheapest(self, hand: np.ndarray, codes=None) -> tuple[int, float]:
        """The card of `hand` (among `codes`) whose loss costs least, and that cost."""
        codes = np.flatnonzero(hand) if codes is None else codes
        costs = [self.keep(c, hand) for c in codes]
        i = int(np.argmin(costs))
        return int(codes[i]), costs[i]

    @cached_property
    def unseen(self) -> np.ndarray:
        """Counts of the cards out of this seat's sight now (hands, piles, face down): a card to come."""
        g = self.game
        seen = self.hand + g.sets.reshape(-1) + g.discard_public + g.curia.sum(axis=0)
        face_up = g.slot_card[(g.slot_card >= 0) & (g.slot_up > 0)]
        seen += np.bincount(face_up, minlength=len(seen))
        return np.maximum(g.deck_counts - seen, 0)

    @cached_property
    def unseen_worths(self) -> np.ndarray:
        """Worth of each card code to the current hand (for cards still to come)."""
        by_faction = self.hand.reshape(NUM_FACTIONS, V)
        counts, totals = by_faction.sum(axis=1).tolist(), (by_faction @ VALUES).tolist()
        return np.array([self.worth_to(f, v, counts[f], totals[f]) if n else 0.0
                         for (f, v), n in zip(CARDS, self.unseen.tolist())])

    def unknown_card(self) -> float:
        """Expected worth of a card drawn from those unseen."""
        return float(self.unseen @ self.unseen_worths / max(self.unseen.sum(), 1))

    def best_of(self, k: int) -> float:
        """Expected worth of the best of k cards drawn from those unseen (the Catacombs)."""
        order = np.argsort(self.unseen_worths)
        share = np.cumsum(self.unseen[order]) / max(self.unseen.sum(), 1)
        below = np.concatenate(([0.0], share[:-1]))
        return float(self.unseen_worths[order] @ (share ** k - below ** k))


def readiness(count: int, total: int, shown: tuple[int, int], average: float) -> float:
    """1 if `count` cards summing `total` beat a displayed set of (cards, sum); MISSING per card short.

    A card still to come is counted at the deck's `average` value.
    """
    cards, value = shown
    enough = max(2, cards + 1)
    if count >= 2 and (count >= enough or total > value):
        return 1.0
    short = min(enough - count, max(2 - count, math.ceil((value + 1 - total) / average)))
    return MISSING ** short


# ---------------------------------------------------------------- what control brings
def merge(*changes: dict) -> dict:
    """Sum hypothetical changes; tiles and favors take the best."""
    out = {}
    for change in changes:
        for key, value in change.items():
            if key in ("tile", "eternal", "temp_favor", "control"):
                out[key] = max(out.get(key, value), value)
            else:
                out[key] = out.get(key, 0) + value
    return out


def takeover_change(r: Reading, f: int) -> dict:
    """Control of f, its marker and first laurel, the take-over benefit and the next faction benefit."""
    d, g = r.data, r.game
    laurels = d.first_control_laurels * int(g.first_laurel[f])
    gains = {GLADIATORS: {"legions": d.gladiator_legions}, LEGATES: {"laurels": d.legate_laurels},
             PRAETORIANS: {"cards": 1}, PLEBEIANS: {"cards": 1}, PATRICIANS: {"laurels": d.patrician_laurels},
             VESTALS: {"money": d.vestal_denarii}, SENATORS: {"laurels": d.senator_laurels}}[f]
    played = {"cards": -2, "control": f, "markers": 1 - int(g.markers[r.me, f]), "laurels": laurels}
    return merge(played, gains, faction_benefit_change(r, f))


def faction_benefit_change(r: Reading, f: int) -> dict:
    """The best option of f's faction benefit for the agent, in the coming Phase 5."""
    return max(benefit_options(r, f), key=lambda option: r.gain(**option))


def benefit_options(r: Reading, f: int) -> list[dict]:
    """What each option of f's faction benefit would bring the agent now (rulebook, "The Factions")."""
    g, d, me = r.game, r.data, r.me
    tile = int(g.res[me, TILE])
    scroll = [{"tile": SCROLL}] if tile == NO_TILE else []

    def tribune_with(partner):
        return [{"tile": TRIBUNE}] if tile == SCROLL and g.controller[partner] == me else []

    if f == GLADIATORS:
        return [{"money": int(g.meta[M["colosseum"]])}, {"cards": 1}]
    if f == LEGATES:
        return scroll + [{"cards": 1}]
    if f == PRAETORIANS:
        return [{"legions": 1}]
    if f == PLEBEIANS:
        return [{"cards": 1, "money": d.plebeian_benefit_denarii}] + tribune_with(PATRICIANS)
    if f == PATRICIANS:
        return [{"money": d.coin_bowl_later}]        # the proconsul: one more follower next round
    if f == VESTALS:
        return [{"laurels": d.vestal_benefit_laurels, "temp_favor": True}] + tribune_with(SENATORS)
    return scroll + [{"cards": 2}]


def leader_change(r: Reading, f: int) -> dict:
    """What the leader of f brings to a take-over set that wins."""
    d = r.data
    if f == GLADIATORS:
        return {"legions": d.spartacus_legions}
    if f == LEGATES:
        return {"laurels": d.varus_laurels}
    if f == PRAETORIANS:
        return {"legions": 1, "cards": -1}
    if f == PLEBEIANS:
        return {"tile": SCROLL} if r.game.res[r.me, TILE] == NO_TILE else {"cards": 1}
    if f == PATRICIANS:
        return {"money": d.scipio_denarii}
    if f == VESTALS:
        return {"eternal": True}
    return {"markers": 1}


# ---------------------------------------------------------------- Phase 2: placing followers
class Claims:
    """What the agent's followers already placed this round will bring and cost."""

    def __init__(self, r: Reading):
        self.r, self.g, self.board = r, r.game, r.game.board
        self.hand = r.hand.copy()
        self.owed = 0
        self.discards = self.held("Curia") + self.held("Pantheon")   # each takes a card from hand
        self.pairs = self.held("Field of Mars")
        self.bought("Thermae", r.data.thermae_cost)
        self.bought("Forum Romanum", r.data.forum_cost)
        for stack, space in enumerate(self.board.spaces["Curia"]):
            if self.g.space_owner[space] == r.me:
                self.hand += self.g.curia[stack]
        self.atrium_alone()
        for space, price in zip(self.board.spaces["Catacombs"], r.data.catacomb_prices):
            self.owed += price * (self.g.space_owner[space] == r.me)

    def held(self, region: str) -> int:
        """The agent's followers in a region."""
        return int(np.sum(self.g.space_owner[list(self.board.spaces[region])] == self.r.me))

    def budget(self) -> int:
        return self.r.money - self.owed

    def bought(self, region: str, price: int):
        """Thermae and Forum cards its followers stand by, while the money lasts."""
        for space, slot in zip(self.board.spaces[region], self.board.slots[region]):
            card = self.g.slot_card[slot]
            if self.g.space_owner[space] == self.r.me and card >= 0 and self.budget() >= price:
                self.owed += price
                self.hand[card] += 1

    def atrium_alone(self):
        """On "1." with "2." still free: the face-up cards for one denarius."""
        first, second = self.board.spaces["Atrium Auctionorum"]
        if self.g.space_owner[first] == self.r.me and self.g.space_owner[second] < 0:
            self.owed += self.r.data.atrium_single_cost
            for slot in self.board.slots["Atrium Auctionorum"]:
                if self.g.slot_card[slot] >= 0 and self.g.slot_up[slot]:
                    self.hand[self.g.slot_card[slot]] += 1


def decide_place(r: Reading, legal) -> int:
    """The follower space (or the coin bowl) worth the most now."""
    claims = Claims(r)
    values = [place_value(r, claims, int(a)) for a in legal]
    return legal[int(np.argmax(values))]


def place_value(r: Reading, claims: Claims, action: int) -> float:
    """Points a follower placed by `action` should bring this round."""
    A = r.A
    if action == A.COIN_BOWL:
        first = r.game.meta[M["coin_bowl_used"]] == 0
        return r.income(r.data.coin_bowl_first if first else r.data.coin_bowl_later)
    if action >= A.FIELD:
        return field_value(r, claims, action - A.FIELD)
    region, space = r.game.board.place_targets[action - A.PLACE]
    return REGION_VALUE[region](r, claims, region, space)


def field_value(r: Reading, claims: Claims, f: int) -> float:
    """A take-over the (expected) hand can win, times the chance it holds from this space."""
    cards = claims.hand[f * V:(f + 1) * V]
    if r.readiness(f, int(cards.sum()), int(cards @ VALUES)) < 1.0:
        return 0.0
    space = 0 if r.game.field_owner[f, 0] < 0 else 1
    leader = r.leader_values[f] if cards[0] else 0.0
    return HOLDS[space] * (r.takeover_values[f] + leader)


def bought_card_value(r: Reading, claims: Claims, region: str, space: int) -> float:
    """Thermae and Forum: the card's worth less its price, if the budget pays for it."""
    board = r.game.board
    price = r.data.thermae_cost if region == "Thermae" else r.data.forum_cost
    card = r.game.slot_card[board.slots[region][space - board.spaces[region].start]]
    if card < 0 or claims.budget() < price:
        return -1.0
    return r.worth(card, claims.hand) - r.cost(price)


def latrine_value(r: Reading, claims: Claims, region: str, space: int) -> float:
    """An unseen card: take its value in denarii, or buy it if the budget allows."""
    values = np.arange(len(r.unseen)) % V
    cash = values * r.denarius
    buy = np.where(values <= claims.budget(), r.unseen_worths - cash, -np.inf)
    return float(r.unseen @ np.maximum(cash, buy) / max(r.unseen.sum(), 1))


def curia_value(r: Reading, claims: Claims, region: str, space: int) -> float:
    """The whole stack for the cheapest card of the hand."""
    stack = r.game.curia[space - r.game.board.spaces["Curia"].start]
    if claims.hand.sum() <= claims.discards or not stack.any():
        return -1.0
    return r.worth_of(stack, claims.hand) - r.cheapest(claims.hand)[1]


def atrium_value(r: Reading, claims: Claims, region: str, space) -> float:
    """"1.": two cards for 1 denarius unless someone bids; "2.": an auction for three."""
    g, board = r.game, r.game.board
    if g.space_owner[board.spaces[region][0]] < 0:
        if claims.budget() < r.data.atrium_single_cost:
            return -1.0
        return ATRIUM_RISK * 2 * r.unknown_card() - r.cost(r.data.atrium_single_cost)
    cards = np.zeros_like(r.hand)
    for slot in board.slots[region]:
        if g.slot_card[slot] >= 0 and g.slot_up[slot]:
            cards[g.slot_card[slot]] += 1
    return AUCTION_SHARE * (r.worth_of(cards, claims.hand) + r.unknown_card())


def catacombs_value(r: Reading, claims: Claims, region: str, space: int) -> float:
    """The best card the pile keeps after one pick per other follower there, for its price."""
    price = r.data.catacomb_prices[space - r.game.board.spaces[region].start]
    if claims.budget() < price:
        return -1.0
    picks = int(np.sum(r.game.space_owner[list(r.game.board.spaces[region])] >= 0))
    return r.best_of(r.data.catacomb_cards - picks) - r.cost(price)


def pantheon_value(r: Reading, claims: Claims, region: str, space) -> float:
    """Eternal favor, if the hand holds a card of the faction turned up."""
    if r.game.res[r.me, ETERNAL]:
        return -1.0
    by_faction = r.unseen.reshape(NUM_FACTIONS, V).sum(axis=1)
    held = claims.hand.reshape(NUM_FACTIONS, V).sum(axis=1) > 0
    chance = by_faction @ held / max(by_faction.sum(), 1)
    return chance * r.gain(eternal=True) - CARD_POINTS


def mars_value(r: Reading, claims: Claims, region: str, space) -> float:
    """A laurel (and maybe the bonus) for the cheapest pair not yet promised."""
    pairs = sorted(pair_costs(r, claims.hand).values())
    if len(pairs) <= claims.pairs:
        return -1.0
    return r.gain(laurels=MARS_LAURELS) - pairs[claims.pairs][0]


REGION_VALUE = {"Thermae": bought_card_value, "Forum Romanum": bought_card_value,
                "Latrine": latrine_value, "Curia": curia_value, "Atrium Auctionorum": atrium_value,
                "Catacombs": catacombs_value, "Pantheon": pantheon_value, "Field of Mars": mars_value}


# ---------------------------------------------------------------- card choices
def pair_costs(r: Reading, hand: np.ndarray) -> dict:
    """Per faction with two cards or more: (points lost, the pair of its two cheapest cards)."""
    out = {}
    for f in range(NUM_FACTIONS):
        codes = np.flatnonzero(hand[f * V:(f + 1) * V]) + f * V
        if hand[codes].sum() < 2:
            continue
        first, cost = r.cheapest(hand, codes)
        rest = hand.copy()
        rest[first] -= 1
        second, more = r.cheapest(rest, np.flatnonzero(rest[f * V:(f + 1) * V]) + f * V)
        out[f] = (cost + more, (first, second))
    return out


def decide_discard_down(r: Reading, legal) -> int:
    """Setup and cesura magna: discard the cheapest card still kept, then commit."""
    if r.A.COMMIT in legal:
        return r.A.COMMIT
    kept = r.hand - r.game.build
    return r.A.DISCARD + r.cheapest(kept)[0]


def decide_latrine(r: Reading, legal) -> int:
    """Buy the revealed card if it is worth more to the hand than its value in denarii."""
    card = int(r.game.slot_card[r.game.board.slots["Latrine"][0]])
    value = card % V
    buy = r.A.LATRINE + 1
    if buy in legal and r.worth(card, r.hand) - r.cost(value) > r.income(value):
        return buy
    return r.A.LATRINE


def decide_curia(r: Reading, legal) -> int:
    """Discard the cheapest card for the stack if the stack is worth more."""
    stack = r.game.curia[r.decision[2]]
    card, cost = r.cheapest(r.hand)
    return r.A.DISCARD + card if r.worth_of(stack, r.hand) > cost else r.A.DECLINE


def decide_atrium_flip(r: Reading, legal) -> int:
    """The cards are face down: which stays hidden is a blind choice."""
    return legal[0]


def decide_atrium_bid(r: Reading, legal) -> int:
    """Bid part of what the three cards are worth, in denarii, and never more than the rival can bid."""
    g = r.game
    cards = np.zeros_like(r.hand)
    for slot in g.board.slots["Atrium Auctionorum"]:
        if g.slot_card[slot] >= 0:
            cards[g.slot_card[slot]] += 1
    first, second = (int(g.space_owner[s]) for s in g.board.spaces["Atrium Auctionorum"])
    rival = second if first == r.me else first
    enough = int(g.res[rival, MONEY]) + (first != r.me)     # a tie goes to "1."
    amount = max(0, int(BID_SHARE * r.worth_of(cards, r.hand) / r.denarius))
    return r.A.BID + min(amount, enough, r.money, r.data.max_bid)


def decide_catacombs(r: Reading, legal) -> int:
    """Buy the pile's best card if it is worth its price."""
    takes = [a for a in legal if a != r.A.DECLINE]
    if not takes:
        return r.A.DECLINE
    price = r.data.catacomb_prices[r.decision[2]]
    worths = [r.worth(a - r.A.TAKE, r.hand) for a in takes]
    best = int(np.argmax(worths))
    return takes[best] if worths[best] > r.cost(price) else r.A.DECLINE


def decide_sacrifice(r: Reading, legal) -> int:
    """Sacrifice the cheapest matching card for eternal favor if that is worth more."""
    codes = [a - r.A.DISCARD for a in legal if a != r.A.DECLINE]
    card, cost = r.cheapest(r.hand, codes)
    return r.A.DISCARD + card if r.gain(eternal=True) > cost else r.A.DECLINE


def decide_mars(r: Reading, legal) -> int:
    """Lay the cheapest pair for a laurel if the laurel is worth more; card by card."""
    if r.A.COMMIT in legal:
        return r.A.COMMIT
    pairs = pair_costs(r, r.hand)
    build = r.game.build
    if build.any():
        f = int(np.flatnonzero(build)[0]) // V
        pair = pairs[f][1]
    else:
        if not pairs:
            return r.A.DECLINE
        cost, pair = min(pairs.values())
        if cost >= r.gain(laurels=MARS_LAURELS):
            return r.A.DECLINE
    chosen = build.copy()
    for code in pair:
        if chosen[code] == 0:
            return r.A.ADD + code
        chosen[code] -= 1
    return r.A.DECLINE


def decide_penalty(r: Reading, legal) -> int:
    """Of the beaten set coming back to hand, lose the cheapest card."""
    back = r.hand.copy()
    f = r.decision[2]
    back[f * V:(f + 1) * V] += r.game.challenger
    return r.A.DISCARD + r.cheapest(back, [a - r.A.DISCARD for a in legal])[0]


def decide_tigellinus(r: Reading, legal) -> int:
    """Discard the cheapest card for a legion if the legion is worth more."""
    card, cost = r.cheapest(r.hand)
    return r.A.DISCARD + card if r.gain(legions=1) > cost else r.A.DECLINE


# ---------------------------------------------------------------- Phase 4: take-overs
def winning_set(r: Reading, f: int, role: int) -> np.ndarray | None:
    """The fewest cards of f that win (the leader always with them; then the highest sum)."""
    g = r.game
    held = r.hand[f * V:(f + 1) * V]
    rivals = [g.sets[f]] if g.controller[f] >= 0 else []
    if role == 1 and g.meta[M["challenger"]] >= 0:
        rivals.append(g.challenger)
    rivals = [(int(s.sum()), int(s @ VALUES)) for s in rivals]
    best, best_key = None, None
    for counts in itertools.product(*(range(int(n) + 1) for n in held)):
        counts = np.array(counts)
        count, total = int(counts.sum()), int(counts @ VALUES)
        if count < 2 or not all(count > c or total > s for c, s in rivals):
            continue
        key = (int(counts[0] < held[0]), count, -total)
        if best_key is None or key < best_key:
            best, best_key = counts, key
    return best


def decide_takeover(r: Reading, legal) -> int:
    """Build the chosen winning set card by card, then commit; decline when none wins."""
    _, _, f, role = r.decision
    target = winning_set(r, f, role)
    if target is None:
        return r.A.DECLINE
    built = r.game.build[f * V:(f + 1) * V]
    missing = np.flatnonzero(target > built)
    if len(missing) == 0:
        return r.A.COMMIT
    return r.A.ADD + f * V + int(missing[0])


def decide_assassin(r: Reading, legal) -> int:
    """Strike the opponent's set whose loss helps the agent's take-overs most."""
    best, best_value = r.A.DECLINE, 0.0
    for a in legal:
        if a == r.A.DECLINE:
            continue
        f = a - r.A.ASSASSIN
        if r.game.controller[f] == r.me:
            continue
        shown = r.game.sets[f]
        top = int(np.flatnonzero(shown)[-1])
        count, total = int(shown.sum()), int(shown @ VALUES)
        held = r.hand[f * V:(f + 1) * V]
        mine = int(held.sum()), int(held @ VALUES)
        before = readiness(*mine, (count, total), r.average_value)
        after = readiness(*mine, (count - 1, total - top), r.average_value)
        value = r.takeover_values[f] * (after - before) + ASSASSIN_HARM
        if value > best_value:
            best, best_value = a, value
    return best


# ---------------------------------------------------------------- Phase 6: the chariot
def keep_values(r: Reading) -> dict:
    """Per faction the agent controls: points a round of keeping it is worth."""
    return {f: CONTROL_POINTS + r.gain(**faction_benefit_change(r, f))
            for f in range(NUM_FACTIONS) if r.game.controller[f] == r.me}


def decide_chariot_bid(r: Reading, legal) -> int:
    """Bid what blocking its most valuable faction for a round is worth, in denarii."""
    kept = keep_values(r)
    worth = THREAT * max(kept.values(), default=0.0)
    return r.A.BID + min(max(0, int(worth / r.denarius)), r.money, r.data.max_bid)


def decide_chariot_place(r: Reading, legal) -> int:
    """Block the faction most worth keeping, per card of its displayed set (weak sets first)."""
    kept = keep_values(r)
    if not kept:
        return r.A.DECLINE
    f = max(kept, key=lambda f: kept[f] / r.game.sets[f].sum())
    return r.A.CHARIOT + f


# ---------------------------------------------------------------- one-step lookahead
def decide_by_lookahead(r: Reading, legal) -> int:
    """The action after which the evaluation of the (determinised) game is best."""
    values = []
    for a in legal:
        after = r.game.clone()
        after.step(int(a))
        values.append(evaluate(after, r.me))
    return legal[int(np.argmax(values))]


DECIDE = {
    Task.SETUP_DISCARD: decide_discard_down, Task.CESURA_DISCARD: decide_discard_down,
    Task.PLACE: decide_place, Task.ATRIUM_FLIP: decide_atrium_flip, Task.LATRINE_CHOICE: decide_latrine,
    Task.CURIA_CHOICE: decide_curia, Task.ATRIUM_BID: decide_atrium_bid,
    Task.CATACOMBS_CHOICE: decide_catacombs, Task.SACRIFICE: decide_sacrifice, Task.MARS_PAIR: decide_mars,
    Task.TAKEOVER_SET: decide_takeover, Task.PENALTY: decide_penalty, Task.TIGELLINUS: decide_tigellinus,
    Task.ASSASSIN: decide_assassin, Task.AGRIPPA: decide_by_lookahead, Task.CATO: decide_by_lookahead,
    Task.BENEFIT_CHOICE: decide_by_lookahead, Task.TEMP_FAVOR: decide_by_lookahead,
    Task.BUY_LEGION: decide_by_lookahead, Task.CHARIOT_BID: decide_chariot_bid,
    Task.CHARIOT_PLACE: decide_chariot_place,
}

"""A rule-based Tribune player that pursues the victory card: ``HeuristicAgent`` (``heuristic``).

At each decision with a choice it determinises the game once (``view.determinize``: its own
hand and the public table are real there, everything hidden is re-dealt at random) and
prices what is on offer with :func:`agents.reading.read`, in points of its potential. Then
one rule per kind of decision. Placement greedily takes the space worth the most, given
what its earlier followers claimed this round (cards coming, denarii owed), so it goes to
the coin bowl when nothing else pays and money runs short; faction fields are taken when
the hand can win the take-over. Bids are the worth of what is on offer (the Atrium cards;
the chariot's protection of a faction it controls), never more than that. Take-over sets
are the fewest cards that win, the leader always among them, then the highest sum.
Faction benefits, Agrippa, Cato, the temporary favor and the Legate legion are chosen by
one-step lookahead with :func:`agents.evaluation.evaluate_position`. The rules of thumb read only
what the seat knows, so in a batch they decide on the game itself and only a lookahead, which
steps the engine into hidden cards, samples a world: the same moves for less.

The rules run compiled (numba) on the engine's state buffer: :func:`choose` is what a
search calls in its rollouts, tens of microseconds a decision. :func:`choose_batch` samples
the worlds it needs and chooses for a whole batch of games in one call (``HeuristicAgent.act_rows``,
the vector environments' heuristic seats).
"""

from __future__ import annotations

import math

import numpy as np

from tribune_env._compiler import native
from tribune_env.core.atrium import least_winning_bid
from tribune_env.core.batched import actor
from tribune_env.core.bids import digit_toward
from tribune_env.core.common import copy_row, top_task, value_sum
from tribune_env.core.events import CAPACITY, WIDTH
from tribune_env.core.leaders import tigellinus_reward
from tribune_env.core.market import pays
from tribune_env.core.takeover import rivals, takes_over
from tribune_env.core.worlds import redeal
from tribune_env.data import (
    ATRIUM,
    CATACOMBS,
    CURIA,
    FORUM,
    LATRINE,
    MARS,
    NUM_FACTIONS,
    NUM_VALUES,
    PANTHEON,
    REGIONS,
    THERMAE,
)
from tribune_env.determinize import sampler_words
from tribune_env.kernel import K, borrowed, views
from tribune_env.state import ETERNAL as ETERNAL_COLUMN
from tribune_env.state import MONEY as MONEY_COLUMN
from tribune_env.state import Meta, Status
from tribune_env.task_switch import task_switch
from tribune_env.tasks import Task

from .base import Agent
from .compiled import compiled, entry
from .evaluation import (
    CARD_POINTS,
    CONTROL_POINTS,
    change_by,
    evaluate_state,
)
from .reading import (
    CARDS_TO_COME,
    PRICES,
    ROW_ONLY,
    best_of,
    cheapest,
    cheapest_card,
    cheapest_value,
    cost,
    faction_benefit_change,
    gain,
    gains_change,
    held_of,
    income,
    read,
    readiness,
    readiness_of,
    reading_space,
    unknown_card,
    worth,
    worth_of,
)

V = NUM_VALUES
F = NUM_FACTIONS

HOLDS = (0.85, 0.7)  # chance a take-over from faction field space 1 / 2 succeeds
ATRIUM_RISK = 0.8  # "1." alone may meet a bidder on "2."
AUCTION_SHARE = 0.5  # "2." of the Atrium: win the cards at a price, or be paid
BID_SHARE = 0.8  # part of what the Atrium cards are worth that it bids
MARS_LAURELS = 1.5  # a pair's laurel, and half a chance of the bonus
THREAT = 0.25  # chance that a controlled faction is taken over next round
ASSASSIN_HARM = 0.5  # points for weakening an opponent's set
ROW_ENOUGH = (
    Task.TAKEOVER_SET,
    Task.ATRIUM_FLIP,
    Task.CHARIOT_BID,
    Task.CHARIOT_PLACE,
    Task.AGRIPPA,
    Task.CATO,
    Task.BENEFIT_CHOICE,
    Task.TEMP_FAVOR,
    Task.BUY_LEGION,
)  # need no card prices


DECISION_ROWS = 4  # games a thread takes at least in play_rows: a decision costs some 20 µs, a hand-off 50


class HeuristicAgent(Agent):
    """Plays by the rules of thumb of this module; the same seed gives the same play.

    ``HeuristicAgent(seed=None)``: the seed feeds the agent's own generator, which draws
    its determinisations. It takes no other options.
    """

    name = "heuristic"
    reads_observations = False  # it reads the game itself (a view, or the batch's rows)

    def act(self, observation, action_mask, view) -> int:
        if action_mask.sum() == 1:  # nothing to weigh: spare the determinisation
            return int(np.flatnonzero(action_mask)[0])
        return self.choose(view.determinize(self.rng))

    def act_rows(self, buffers, params, masks, rows, deck_counts) -> np.ndarray:
        """The move in each game of `rows` of a batch held as rows of 2-D arrays (state buffers,
        parameters and masks, as the vector games keep them; `deck_counts` their deck by card),
        for its player to act, in one compiled call without the GIL.

        The same moves, drawing the same from the agent's generator, as :meth:`act` on each of
        those games in turn. The true state is read by the rules of thumb, which read only what
        the acting seat knows (the move of any of its worlds), and to sample a world from the
        seat's information for a lookahead, as ``view.determinize`` does.
        """
        rows = np.asarray(rows, dtype=np.int64)
        legal = np.count_nonzero(masks[rows], axis=1)
        if (legal == 0).any():
            raise ValueError(f"row(s) {rows[legal == 0].tolist()} have no legal action (a finished game)")
        words = np.zeros((len(rows), 4), dtype=np.int32)  # a forced move samples no world, as in act
        words[legal > 1] = sampler_words(self.rng, int((legal > 1).sum()))
        out = np.empty(len(rows), dtype=np.int64)
        native.ready()
        choose_batch(buffers, params, masks, rows, deck_counts, words, out)
        return out

    def sampler(self) -> np.ndarray:
        """A generator of worlds for one seat in one game of a batch (4 int32 words, from the
        agent's generator): :meth:`play_rows` samples that seat's worlds with it."""
        return sampler_words(self.rng, 1)[0]

    def play_rows(self, games, rows, seats, samplers, readers, actions=None):
        """Play the heuristic's seats in the games of `rows` of a ``VectorGames`` for as long as
        one of them is to act, after the other seats' `actions` there (one per game, -1 none):
        ``seats[row, seat]`` says which seats are the heuristic's, each sampling its worlds with
        its own generator ``samplers[row, seat]`` (:meth:`sampler`). One compiled call a thread,
        whatever the number of moves; returns what ``games.play_rows`` does. The moves are
        :meth:`act`'s, in worlds drawn from the seats' generators."""
        return games.play_rows(
            play_batch, rows, readers, seats, samplers, games.deck_counts, actions=actions, min_rows=DECISION_ROWS
        )

    def choose(self, game) -> int:
        """The move of the player to act in a full game that is already one of its determinisations.

        ``act`` calls it on ``view.determinize(rng)``; a search that holds such a sampled world
        (IS-MCTS) can call it directly and spare a determinisation. The game is left unchanged.
        """
        native.ready()
        return int(choose(*game.handle, game.deck_counts))


@entry
def choose(buf, params, mask, deck_counts):
    """The heuristic's move for the player to act, on a state buffer, its parameters and mask.

    Its lookahead calls the engine's step at its address: from Python, call
    ``native.ready()`` first (``HeuristicAgent.choose`` does).
    """
    legal = np.flatnonzero(mask)
    if len(legal) == 1:
        return legal[0]
    return choose_among(buf, params, legal, deck_counts, reading_space())


@compiled  # not inlined: its caller holds `space`, which the reading's views borrow, until it returns
def choose_among(buf, params, legal, deck_counts, space):
    """The heuristic's move among `legal` (two or more) for the player to act (`space`: room for its
    reading, :func:`agents.reading.reading_space`)."""
    params = borrowed(params)
    state = views(buf, params)
    top = top_task(state)
    kind, player, b, c = state.tasks[top, 0], state.tasks[top, 1], state.tasks[top, 2], state.tasks[top, 3]
    depth = CARDS_TO_COME if kind == Task.PLACE else ROW_ONLY if kind in ROW_ENOUGH else PRICES
    r = read(state, params, deck_counts, player, depth, space)
    return decide(r, buf, legal, kind, player, b, c)


@entry
def choose_batch(bufs, ks, masks, rows, deck_counts, words, out):
    """``out[j]``: the heuristic's move in the game of row ``rows[j]``, chosen as in one world sampled
    for its player to act with the generator ``words[j]`` (advanced where a lookahead samples it:
    :func:`choose_sampled`).

    ``act`` on one game (its determinisation, then :func:`choose`) is the same move for the
    same words. Call ``native.ready()`` first.
    """
    world, space = np.empty(bufs.shape[1], dtype=np.int32), reading_space()
    for j in range(len(rows)):
        i = rows[j]
        out[j] = choose_sampled(bufs[i], ks[i], masks[i], deck_counts, words[j], world, space)


@entry
def play_batch(bufs, ks, events, masks, rows, actions, meta_at, tasks_at, players, seats, samplers, deck_counts):
    """In the game of each row of `rows`: apply ``actions[row]`` unless it is -1 (another seat's
    move), then play for as long as its player to act is one of the heuristic's ``seats[row]``,
    each decision chosen as in a world sampled with that seat's own generator
    ``samplers[row, seat]`` (advanced where a lookahead samples it); ``players[row]`` gets who
    acts then, -1 once the game is over. ``VectorGames.play_rows`` calls it."""
    world, space = np.empty(bufs.shape[1], dtype=np.int32), reading_space()
    for j in range(len(rows)):
        i = rows[j]
        if actions[i] >= 0:
            events[0, 0] = 0
            native.step(bufs[i], ks[i], events, masks[i], actions[i])
        player = actor(bufs[i], meta_at, tasks_at)
        while player >= 0 and seats[i, player]:
            move = choose_sampled(bufs[i], ks[i], masks[i], deck_counts, samplers[i, player], world, space)
            events[0, 0] = 0
            native.step(bufs[i], ks[i], events, masks[i], move)
            player = actor(bufs[i], meta_at, tasks_at)
        players[i] = player


@compiled(inline="always")  # into choose_batch and play_batch, its callers
def choose_sampled(buf, params, mask, deck_counts, rng, world, space):
    """The move for the player to act in `buf`, as :meth:`HeuristicAgent.act` chooses it in a world.

    A rule of thumb reads only what the seat knows (:func:`agents.reading.read` and the public
    table), so it decides on the game itself: a world would give the same move. A lookahead
    steps the engine, which may draw hidden cards, so it decides in a world sampled for the
    seat into `world` with `rng`, where the legal actions are the game's (``redeal``)."""
    legal = np.flatnonzero(mask)
    if len(legal) == 1:
        return legal[0]
    state = views(buf, params)
    top = top_task(state)
    if state.tasks[top, 0] in RULE_KINDS:
        return choose_among(buf, params, legal, deck_counts, space)
    copy_row(world, 0, buf)
    redeal(world, params, state.tasks[top, 1], rng)
    return choose_among(world, params, legal, deck_counts, space)


# ---------------------------------------------------------------- board geometry
@compiled(inline="always")  # small and hot: a call would cost more than its work
def spaces(params, region):
    """First and end follower space of a region (a block of the parameters, one entry per region)."""
    return params[K.FIRST_SPACE + region], params[K.FIRST_SPACE + region + 1]


@compiled(inline="always")  # small and hot: a call would cost more than its work
def slots(params, region):
    """First and end card slot of a region (empty for a region that shows no cards)."""
    return params[K.FIRST_SLOT + region], params[K.FIRST_SLOT + region + 1]


@compiled(inline="always")  # small and hot: a call would cost more than its work
def argmax(values):
    """Index of the first largest value."""
    best = 0
    for i in range(1, len(values)):
        if values[i] > values[best]:
            best = i
    return best


@compiled(inline="always")  # small and hot: a call would cost more than its work
def held(r, region):
    """The seat's followers in a region."""
    first, end = spaces(r.params, region)
    return (r.state.space_owner[first:end] == r.me).sum()


# ---------------------------------------------------------------- Phase 2: placing followers
@compiled
def claims(r):
    """What the seat's followers already placed this round will bring and cost.

    Returns the hand it expects (cards coming), the denarii owed, the cards its Curia and
    Pantheon followers will take from the hand, and its Field of Mars followers.
    """
    state, params, me = r.state, r.params, r.me
    hand = r.hand.copy()
    owed = 0
    for region, price in ((THERMAE, params[K.THERMAE_COST]), (FORUM, params[K.FORUM_COST])):
        first, end = spaces(params, region)
        slot = slots(params, region)[0]
        for space in range(first, end):  # its cards, while the money lasts
            card = state.slot_card[slot + space - first]
            if state.space_owner[space] == me and card >= 0 and pays(r.money - owed, price):
                owed += price
                hand[card] += 1
    first = spaces(params, CURIA)[0]
    for stack in range(state.curia.shape[0]):
        if state.space_owner[first + stack] == me:
            hand += state.curia[stack]
    atrium = spaces(params, ATRIUM)[0]
    if state.space_owner[atrium] == me and state.space_owner[atrium + 1] < 0:  # "1." alone: the face-up cards
        owed += params[K.ATRIUM_SINGLE_COST]
        for slot in range(*slots(params, ATRIUM)):
            if state.slot_card[slot] >= 0 and state.slot_up[slot]:
                hand[state.slot_card[slot]] += 1
    first, end = spaces(params, CATACOMBS)
    for space in range(first, end):
        owed += params[K.CATACOMB_PRICES + space - first] * (state.space_owner[space] == me)
    return hand, owed, held(r, CURIA) + held(r, PANTHEON), held(r, MARS)


@compiled
def decide_place(r, legal):
    """The follower space (or the coin bowl) worth the most now."""
    return legal[argmax(place_values(r, legal))]


@compiled
def place_values(r, legal):
    """Points each legal placement should bring this round, given the followers already placed."""
    hand, owed, discards, pairs = claims(r)
    discard = cheapest_card(r.prices, hand)[1] if hand.sum() > discards else math.inf  # a Curia stack's price
    values = np.empty(len(legal))
    shared = np.full(len(REGIONS), np.nan)  # per region, a part of its value that is the same on every space
    for i in range(len(legal)):
        values[i] = place_value(r, hand, r.money - owed, discard, pairs, legal[i], shared)
    return values


@compiled(inline="always")  # small and hot: a call would cost more than its work
def place_value(r, hand, budget, discard, pairs, action, shared):
    """Points a follower placed by `action` should bring this round (`discard`: what the card a
    Curia follower lays down costs, inf if the hand has none to spare; `shared`: the parts of
    the regions' values worked out so far, nan until then)."""
    params = r.params
    if action == params[K.A_COIN_BOWL]:
        first = r.state.meta[Meta.COIN_BOWL_USED] == 0
        return income(r.standing, params[K.COIN_BOWL_FIRST] if first else params[K.COIN_BOWL_LATER])
    if action >= params[K.A_FIELD]:
        return field_value(r, hand, action - params[K.A_FIELD])
    target = action - params[K.A_PLACE]
    region, space = params[K.PLACE_REGION + target], params[K.PLACE_SPACE + target]
    if region == THERMAE or region == FORUM:
        return bought_card_value(r, hand, budget, region, space, shared)
    if region == LATRINE:
        return latrine_value(r, budget)
    if region == CURIA:
        return curia_value(r, hand, discard, space)
    if region == ATRIUM:
        return atrium_value(r, hand, budget)
    if region == CATACOMBS:
        return catacombs_value(r, budget, space, shared)
    if region == PANTHEON:
        return pantheon_value(r, hand)
    return mars_value(r, hand, pairs)


@compiled(inline="always")  # small and hot: a call would cost more than its work
def field_value(r, hand, f):
    """A take-over the (expected) hand can win, times the chance it holds from this space."""
    count, total = held_of(hand, f)
    if readiness(r.prices, f, count, total) < 1.0:
        return 0.0
    space = 0 if r.state.field_owner[f, 0] < 0 else 1
    leader = r.prices.leader_values[f] if hand[f * V] else 0.0
    return HOLDS[space] * (r.prices.takeover_values[f] + leader)


@compiled(inline="always")  # small and hot: a call would cost more than its work
def bought_card_value(r, hand, budget, region, space, shared):
    """Thermae and Forum: the card's worth less its price (`shared[region]`), if the budget pays for it."""
    price = r.params[K.THERMAE_COST] if region == THERMAE else r.params[K.FORUM_COST]
    card = r.state.slot_card[slots(r.params, region)[0] + space - spaces(r.params, region)[0]]
    if card < 0 or budget < price:
        return -1.0
    if math.isnan(shared[region]):
        shared[region] = cost(r.standing, price)
    return worth(r.prices, card, hand) - shared[region]


@compiled(inline="always")  # small and hot: a call would cost more than its work
def latrine_value(r, budget):
    """An unseen card: take its value in denarii, or buy it if the budget allows."""
    total = 0.0
    for code in range(len(r.unseen)):
        value = code % V
        cash = value * r.standing.denarius
        buy = r.unseen_worths[code] - cash if value <= budget else -math.inf
        total += r.unseen[code] * max(cash, buy)
    return total / max(r.unseen.sum(), 1)


@compiled(inline="always")  # small and hot: a call would cost more than its work
def curia_value(r, hand, discard, space):
    """The whole stack for the cheapest card of the hand."""
    stack = r.state.curia[space - spaces(r.params, CURIA)[0]]
    if discard == math.inf or not stack.any():
        return -1.0
    return worth_of(r.prices, stack, hand) - discard


@compiled(inline="always")  # small and hot: a call would cost more than its work
def face_up(r, region):
    """Counts by code of the face-up cards of a region."""
    cards = np.zeros_like(r.hand)
    for slot in range(*slots(r.params, region)):
        if r.state.slot_card[slot] >= 0 and r.state.slot_up[slot]:
            cards[r.state.slot_card[slot]] += 1
    return cards


@compiled(inline="always")  # small and hot: a call would cost more than its work
def atrium_value(r, hand, budget):
    """ "1.": two cards for 1 denarius unless someone bids; "2.": an auction for three."""
    if r.state.space_owner[spaces(r.params, ATRIUM)[0]] < 0:
        if budget < r.params[K.ATRIUM_SINGLE_COST]:
            return -1.0
        return ATRIUM_RISK * 2 * unknown_card(r) - cost(r.standing, r.params[K.ATRIUM_SINGLE_COST])
    return AUCTION_SHARE * (worth_of(r.prices, face_up(r, ATRIUM), hand) + unknown_card(r))


@compiled(inline="always")  # small and hot: a call would cost more than its work
def catacombs_value(r, budget, space, shared):
    """The best card the pile keeps after one pick per other follower there (`shared[CATACOMBS]`),
    for its price."""
    first, end = spaces(r.params, CATACOMBS)
    price = r.params[K.CATACOMB_PRICES + space - first]
    if budget < price:
        return -1.0
    if math.isnan(shared[CATACOMBS]):
        picks = (r.state.space_owner[first:end] >= 0).sum()
        shared[CATACOMBS] = best_of(r, r.params[K.CATACOMB_CARDS] - picks)
    return shared[CATACOMBS] - cost(r.standing, price)


@compiled(inline="always")  # small and hot: a call would cost more than its work
def pantheon_value(r, hand):
    """Eternal favor, if the hand holds a card of the faction turned up."""
    if r.state.res[r.me, ETERNAL_COLUMN]:
        return -1.0
    matching, unseen = 0, 0
    for f in range(F):
        count = held_of(r.unseen, f)[0]
        unseen += count
        if held_of(hand, f)[0] > 0:
            matching += count
    return matching / max(unseen, 1) * gain(r.standing, change_by(eternal=1)) - CARD_POINTS


@compiled(inline="always")  # small and hot: a call would cost more than its work
def mars_value(r, hand, pairs):
    """A laurel (and maybe the bonus) for the cheapest pair not yet promised."""
    costs = pair_costs(r, hand)[0]
    cheapest_free = nth_smallest(costs, pairs)
    if cheapest_free == math.inf:
        return -1.0
    return gain(r.standing, change_by(laurels=MARS_LAURELS)) - cheapest_free


# ---------------------------------------------------------------- card choices
@compiled
def pair_costs(r, hand):
    """Per faction: points lost by laying its two cheapest cards, and those two (inf: fewer than two)."""
    costs = np.full(F, math.inf)
    pair = np.full((F, 2), -1, dtype=np.int64)
    for f in range(F):
        count, total = held_of(hand, f)
        if count < 2:
            continue
        first, price = cheapest_value(r.prices, f, hand, count, total, -1)
        second, more = cheapest_value(r.prices, f, hand, count - 1, total - first, first)
        costs[f], pair[f, 0], pair[f, 1] = price + more, f * V + first, f * V + second
    return costs, pair


@compiled
def nth_smallest(values, n):
    """The value of rank `n` (0: the smallest) of `values`, inf if there are not that many."""
    for value in values:
        below, equal = 0, 0
        for other in values:
            below += other < value
            equal += other == value
        if below <= n < below + equal:
            return value
    return math.inf


@compiled
def _in(action, legal):
    return (legal == action).any()


@compiled
def decide_discard_down(r, legal):
    """Setup and cesura magna: discard the cheapest card still kept, then commit."""
    if _in(r.params[K.A_COMMIT], legal):
        return r.params[K.A_COMMIT]
    kept = r.hand - r.state.build
    return r.params[K.A_DISCARD] + cheapest_card(r.prices, kept)[0]


@compiled
def decide_latrine(r, legal):
    """Buy the revealed card if it is worth more to the hand than its value in denarii."""
    card = r.state.slot_card[slots(r.params, LATRINE)[0]]
    value = card % V
    buy = r.params[K.A_LATRINE] + 1
    if _in(buy, legal) and worth(r.prices, card, r.hand) - cost(r.standing, value) > income(r.standing, value):
        return buy
    return r.params[K.A_LATRINE]


@compiled
def decide_curia(r, stack):
    """Discard the cheapest card for the stack if the stack is worth more."""
    card, price = cheapest_card(r.prices, r.hand)
    return (
        r.params[K.A_DISCARD] + card
        if worth_of(r.prices, r.state.curia[stack], r.hand) > price
        else r.params[K.A_DECLINE]
    )


@compiled
def decide_atrium_bid(r, digits_entered):
    """Bid part of what the three cards are worth, in denarii, and never more than the rival can bid."""
    state, params = r.state, r.params
    cards = np.zeros_like(r.hand)
    for slot in range(*slots(params, ATRIUM)):
        if state.slot_card[slot] >= 0:
            cards[state.slot_card[slot]] += 1
    atrium = spaces(params, ATRIUM)[0]
    first, second = state.space_owner[atrium], state.space_owner[atrium + 1]
    rival = second if first == r.me else first
    enough = least_winning_bid(state.res[rival, MONEY_COLUMN], first == r.me)
    amount = max(0, int(BID_SHARE * worth_of(r.prices, cards, r.hand) / r.standing.denarius))
    return digit_toward(state, params, r.me, digits_entered, min(amount, enough))


@compiled
def decide_catacombs(r, legal, space):
    """Buy the pile's best card if it is worth its price."""
    params = r.params
    best, best_worth = -1, -math.inf
    for a in legal:
        if a != params[K.A_DECLINE]:
            value = worth(r.prices, a - params[K.A_TAKE], r.hand)
            if value > best_worth:
                best, best_worth = a, value
    if best < 0 or best_worth <= cost(r.standing, params[K.CATACOMB_PRICES + space]):
        return params[K.A_DECLINE]
    return best


@compiled
def decide_sacrifice(r, legal):
    """Sacrifice the cheapest matching card for eternal favor if that is worth more."""
    params = r.params
    codes = legal[legal != params[K.A_DECLINE]] - params[K.A_DISCARD]
    card, price = cheapest(r.prices, r.hand, codes)
    return params[K.A_DISCARD] + card if gain(r.standing, change_by(eternal=1)) > price else params[K.A_DECLINE]


@compiled
def decide_mars(r, legal):
    """Lay the cheapest pair for a laurel if the laurel is worth more; card by card."""
    params = r.params
    if _in(params[K.A_COMMIT], legal):
        return params[K.A_COMMIT]
    costs, pairs = pair_costs(r, r.hand)
    build = r.state.build
    if build.any():
        f = np.flatnonzero(build)[0] // V
    else:
        f = int(np.argmin(costs))
        if costs[f] == math.inf or costs[f] >= gain(r.standing, change_by(laurels=MARS_LAURELS)):
            return params[K.A_DECLINE]
    chosen = build.copy()
    for code in pairs[f]:
        if chosen[code] == 0:
            return params[K.A_ADD] + code
        chosen[code] -= 1
    return params[K.A_DECLINE]


@compiled
def decide_penalty(r, legal, faction):
    """Of the beaten set coming back to hand, lose the cheapest card."""
    back = r.hand.copy()
    back[faction * V : (faction + 1) * V] += r.state.challenger
    return r.params[K.A_DISCARD] + cheapest(r.prices, back, legal - r.params[K.A_DISCARD])[0]


@compiled
def decide_tigellinus(r):
    """Discard the cheapest card for a legion if the legion is worth more."""
    card, price = cheapest_card(r.prices, r.hand)
    reward = gains_change(r.params, tigellinus_reward(r.params))  # the engine's own trade
    return r.params[K.A_DISCARD] + card if gain(r.standing, reward) > price else r.params[K.A_DECLINE]


# ---------------------------------------------------------------- Phase 4: take-overs
@compiled
def winning_set(r, f, role):
    """The fewest cards of f that win (the leader always with them; then the highest sum); None if none.

    Sets are tried in the order of itertools.product over the counts held, so ties go to the first.
    """
    held = r.hand[f * V : (f + 1) * V]
    rival = rivals(r.state, f, role)
    counts = np.zeros(V, dtype=np.int64)
    best = np.zeros(V, dtype=np.int64)
    found, best_key = False, (0, 0, 0)
    while True:
        count, total = counts.sum(), value_sum(counts)
        wins = takes_over(r.params, count, total, rival)
        key = (int(counts[0] < held[0]), count, -total)
        if wins and (not found or key < best_key):
            best[:], best_key, found = counts, key, True
        digit = V - 1  # the next counts, the last value fastest
        while digit >= 0 and counts[digit] == held[digit]:
            counts[digit] = 0
            digit -= 1
        if digit < 0:
            return found, best
        counts[digit] += 1


@compiled
def decide_takeover(r, faction, role):
    """Build the chosen winning set card by card, then commit; decline when none wins."""
    params = r.params
    found, target = winning_set(r, faction, role)
    if not found:
        return params[K.A_DECLINE]
    built = r.state.build[faction * V : (faction + 1) * V]
    for v in range(V):
        if target[v] > built[v]:
            return params[K.A_ADD] + faction * V + v
    return params[K.A_COMMIT]


@compiled
def decide_assassin(r, legal):
    """Strike the opponent's set whose loss helps the seat's take-overs most."""
    state, params = r.state, r.params
    best, best_value = params[K.A_DECLINE], 0.0
    for a in legal:
        if a == params[K.A_DECLINE]:
            continue
        f = a - params[K.A_ASSASSIN]
        if state.controller[f] == r.me:
            continue
        shown = state.sets[f]
        top = np.flatnonzero(shown)[-1]
        count, total = shown.sum(), value_sum(shown)
        mine, mine_total = held_of(r.hand, f)
        before = readiness_of(mine, mine_total, count, total, r.prices.average, r.prices.least)
        after = readiness_of(mine, mine_total, count - 1, total - top, r.prices.average, r.prices.least)
        value = r.prices.takeover_values[f] * (after - before) + ASSASSIN_HARM
        if value > best_value:
            best, best_value = a, value
    return best


# ---------------------------------------------------------------- Phase 6: the chariot
@compiled
def keep_values(r):
    """Per faction: points a round of keeping it is worth (-inf for factions the seat does not control)."""
    kept = np.full(F, -math.inf)
    for f in range(F):
        if r.state.controller[f] == r.me:
            kept[f] = CONTROL_POINTS + gain(
                r.standing, faction_benefit_change(r.state, r.params, r.standing.row, r.standing.base, r.me, f)
            )
    return kept


@compiled
def decide_chariot_bid(r, digits_entered):
    """Bid what blocking its most valuable faction for a round is worth, in denarii."""
    kept = keep_values(r)
    worth_kept = THREAT * kept.max() if (kept > -math.inf).any() else 0.0
    return digit_toward(r.state, r.params, r.me, digits_entered, max(0, int(worth_kept / r.standing.denarius)))


@compiled
def decide_chariot_place(r):
    """Block the faction most worth keeping, per card of its displayed set (weak sets first)."""
    kept = keep_values(r)
    best, best_value = -1, -math.inf
    for f in range(F):
        if kept[f] > -math.inf:
            value = kept[f] / r.state.sets[f].sum()
            if value > best_value:
                best, best_value = f, value
    return r.params[K.A_DECLINE] if best < 0 else r.params[K.A_CHARIOT] + best


# ---------------------------------------------------------------- one-step lookahead
@compiled(inline="always")  # into choose, its one caller: no library of its own to compile
def decide_by_lookahead(r, buf, legal):
    """The action after which the evaluation of the (determinised) game is best."""
    events = np.zeros((CAPACITY, WIDTH), dtype=np.int32)
    mask = np.zeros(r.params[K.A_SIZE], dtype=np.int8)
    values = np.empty(len(legal))
    for i in range(len(legal)):
        after = buf.copy()
        events[0, 0] = 0
        native.step(after, r.params, events, mask, legal[i])
        values[i] = evaluate_state(after, r.params, r.me)
    return legal[argmax(values)]


@compiled(inline="always")
def decide_atrium_flip(legal):
    """The cards are face down: which one stays hidden is a blind choice."""
    return legal[0]


# The rule of thumb for each kind of decision; the others (Agrippa, Cato, a benefit, the
# temporary favor, a legion) look one step ahead. The switch is written out from the table
# (tribune_env/task_switch.py).
RULES_OF_THUMB = {
    Task.SETUP_DISCARD: decide_discard_down,
    Task.CESURA_DISCARD: decide_discard_down,
    Task.PLACE: decide_place,
    Task.ATRIUM_FLIP: decide_atrium_flip,
    Task.LATRINE_CHOICE: decide_latrine,
    Task.CURIA_CHOICE: decide_curia,
    Task.ATRIUM_BID: decide_atrium_bid,
    Task.CATACOMBS_CHOICE: decide_catacombs,
    Task.SACRIFICE: decide_sacrifice,
    Task.MARS_PAIR: decide_mars,
    Task.TAKEOVER_SET: decide_takeover,
    Task.PENALTY: decide_penalty,
    Task.TIGELLINUS: decide_tigellinus,
    Task.ASSASSIN: decide_assassin,
    Task.CHARIOT_BID: decide_chariot_bid,
    Task.CHARIOT_PLACE: decide_chariot_place,
}
RULE_KINDS = tuple(int(kind) for kind in RULES_OF_THUMB)  # decided on what the seat knows alone
decide = compiled(
    task_switch(
        "decide",
        ("r", "buf", "legal", "kind", "a", "b", "c"),
        RULES_OF_THUMB,
        default=decide_by_lookahead,
        module=__name__,
        file=__file__,
    ),
    inline="always",
)


# ---------------------------------------------------------------- for search
def best_placements(game, width: int) -> np.ndarray:
    """The `width` placements the heuristic values most for the player to act in `game` (a full
    game: a determinisation), best first; None if the decision waiting is not a placement."""
    if game.decision()[0] != Task.PLACE:
        return None
    return _best_placements(*game.handle, game.deck_counts, width)


@entry
def _best_placements(buf, params, mask, deck_counts, width):
    legal = np.flatnonzero(mask)
    order = np.argsort(-placement_values(buf, params, legal, deck_counts, reading_space()), kind="mergesort")
    return legal[order[:width]]  # mergesort is stable: ties keep the action order


@compiled  # not inlined: its caller holds `space` until it returns
def placement_values(buf, params, legal, deck_counts, space):
    """:func:`place_values` of the `legal` placements for the player to act."""
    state = views(buf, params)
    return place_values(read(state, params, deck_counts, state.tasks[top_task(state), 1], CARDS_TO_COME, space), legal)


def heuristic_rollout(game, rounds: int, moves: int) -> None:
    """Every seat of `game` (a full game: a determinisation) plays the heuristic until the game
    is over, `rounds` more rounds have begun or `moves` moves are played.

    All in compiled code, without a return to Python per move: a search's rollout. The game
    is left at the next decision, as if each move had been stepped, except that its log (if
    any) does not record them.
    """
    native.ready()
    _heuristic_rollout(*game.handle, game.deck_counts, rounds, moves)


@entry
def _heuristic_rollout(buf, params, mask, deck_counts, rounds, moves):
    rollout(buf, params, mask, deck_counts, rounds, moves, np.zeros((CAPACITY, WIDTH), dtype=np.int32))


@compiled
def rollout(buf, params, mask, deck_counts, rounds, moves, events):
    """:func:`heuristic_rollout` on a state buffer, with the caller's events buffer."""
    state = views(buf, params)
    end = state.meta[Meta.ROUND] + rounds
    for _ in range(moves):
        if state.meta[Meta.STATUS] != Status.RUNNING or state.meta[Meta.ROUND] >= end:
            return
        events[0, 0] = 0
        native.step(buf, params, events, mask, choose(buf, params, mask, deck_counts))

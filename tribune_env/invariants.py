"""The invariants every state of every game keeps, stated once and checked in compiled code.

The rules' conservation laws and end of play, restated from the rulebook rather than read
from the engine's own bookkeeping, so that a slip in a rule shows up as a broken
invariant: the test suite checks them after every step of its games
(``tests/test_invariants.py``) and ``tribune gate`` over a million games
(``training/tools/gate.py``). Each check answers with the :class:`Invariant` a state
breaks, or 0 for none, so a report names the invariant.

Compiled code calls :func:`state_violation` after every step, with the state before the
step (for what is never lost), and :func:`end_violation` once the game is over; Python
calls :func:`violation` and :func:`end_of_play` on a :class:`~tribune_env.Game`.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from ._compiler import compiled, entry
from .data import MAX_PLAYERS, NUM_CARD_TYPES, NUM_FACTIONS, NUM_OBJECTIVES, NUM_VALUES, PATRICIANS, VESTALS
from .kernel import K, views
from .state import ETERNAL, LAURELS, LEGIONS, MARKERS, MONEY, SCROLL, TILE, TRIBUNE, Meta, Status

NEVER_LOST = (LAURELS, LEGIONS, TILE, ETERNAL, MARKERS)  # columns of `res` that never decrease


class Invariant(IntEnum):
    """What a state can break; 0 (none) is not a member."""

    CARDS_CONSERVED = 1
    FOLLOWERS_CONSERVED = 2
    RESOURCES_IN_RANGE = 3
    NEVER_LOST = 4
    LEGAL_ACTIONS = 5
    DECLARATIONS = 6
    ROUND_LIMIT = 7
    END_OF_PLAY = 8
    SCORES = 9
    WINNER = 10
    NO_ERROR = 11  # checked by whoever plays: compiled code cannot catch the engine's exceptions

    @property
    def meaning(self) -> str:
        return MEANINGS[self]

    def __str__(self) -> str:
        return f"{self.name.lower()}: {self.meaning}"


MEANINGS = {
    Invariant.CARDS_CONSERVED: "every card of the deck lies in exactly one place (a player's hand, the draw pile, "
    "the discards, the board, the Curia, the Catacombs, the Field of Mars, a set)",
    Invariant.FOLLOWERS_CONSERVED: "in Phase 2 each player's followers placed and still to place make its "
    "allotment (the proconsul's included); none wait outside Phase 2",
    Invariant.RESOURCES_IN_RANGE: "no negative denarii, laurels or legions; a scroll or tribune at most; "
    "eternal favor 0 or 1; one marker per faction at most, counted in the markers; "
    "the temporary favor only with the Vestal Virgins' controller, never beside eternal favor; "
    "nothing in an absent seat",
    Invariant.NEVER_LOST: "laurels, legions, the scroll or tribune, eternal favor, faction markers and "
    "declarations are never lost",
    Invariant.LEGAL_ACTIONS: "a running game offers at least one legal action, a finished game none",
    Invariant.DECLARATIONS: "whoever meets the victory card (the point variant's marker goal) has declared "
    "'Veni, vidi, vici', the declarations numbered 0, 1, 2... in order",
    Invariant.ROUND_LIMIT: "the round never passes the round limit, and the game is over by it",
    Invariant.END_OF_PLAY: "a game ends in Phase 6: truncated at the round limit with no declaration and no "
    "winner, or terminated in the round of the first declaration",
    Invariant.SCORES: "each player's score is the scoring table of 'The End of Play'",
    Invariant.WINNER: "the winner is the declarer with the highest score, the earlier declarer on a tie "
    "(the point variant: every player with the highest score)",
    Invariant.NO_ERROR: "the engine plays every legal action without raising an error",
}


# ------------------------------------------------------------------ checks of one state
@compiled
def cards_conserved(state, params, deck_counts, counts):
    """Count every card wherever it lies into `counts`; true if that is the deck, with nothing negative."""
    counts[:] = 0
    for p in range(MAX_PLAYERS):
        if not add_cards(counts, state.hand[p]) or (p >= params[K.N] and count(state.hand[p], 0) != NUM_CARD_TYPES):
            return False
    n_draw = state.meta[Meta.DRAW_N]
    for i in range(state.draw.shape[0]):
        card = state.draw[i]
        if (i < n_draw) != (card >= 0) or card >= NUM_CARD_TYPES:
            return False
        if card >= 0:
            counts[card] += 1
    for i in range(state.slot_card.shape[0]):
        if state.slot_card[i] >= 0:
            counts[state.slot_card[i]] += 1
    for row in range(state.curia.shape[0]):
        if not add_cards(counts, state.curia[row]):
            return False
    for row in range(state.mars_pairs.shape[0]):
        if not add_cards(counts, state.mars_pairs[row]):
            return False
    for f in range(NUM_FACTIONS):
        if not add_cards(counts[f * NUM_VALUES : (f + 1) * NUM_VALUES], state.sets[f]):
            return False
    if not (
        add_cards(counts, state.discard_public)
        and add_cards(counts, state.discard_hidden)
        and add_cards(counts, state.catacombs)
    ):
        return False
    if state.meta[Meta.CHALLENGER] >= 0:  # the set played against the contested faction's, the top decision's
        if state.meta[Meta.STATUS] != Status.RUNNING or state.meta[Meta.N_TASKS] < 1:
            return False
        f = state.tasks[state.meta[Meta.N_TASKS] - 1, 2]
        if not add_cards(counts[f * NUM_VALUES : (f + 1) * NUM_VALUES], state.challenger):
            return False
    elif count(state.challenger, 0) != state.challenger.shape[0]:
        return False
    for c in range(deck_counts.shape[0]):
        if counts[c] != deck_counts[c]:
            return False
    return True


@compiled
def add_cards(counts, cards):
    """counts += cards, true unless a count in `cards` is negative (no branch in the loop: it vectorises)."""
    lowest = 0
    for c in range(cards.shape[0]):
        counts[c] += cards[c]
        lowest = min(lowest, cards[c])
    return lowest >= 0


@compiled
def count(values, value):
    """How many entries of `values` equal `value` (no temporary array, unlike np.sum(values == value))."""
    total = 0
    for i in range(values.shape[0]):
        total += values[i] == value
    return total


@compiled
def followers_conserved(state, params):
    """Phase 2: placed + still to place = the allotment; outside it, no follower waits."""
    if state.meta[Meta.PHASE] != 2:
        return count(state.followers, 0) == state.followers.shape[0]
    for p in range(params[K.N]):
        placed = (
            state.coin_bowl[p]
            + count(state.space_owner, p)
            + count(state.field_owner[:, 0], p)
            + count(state.field_owner[:, 1], p)
        )
        allotment = params[K.FOLLOWERS]
        if state.meta[Meta.PROCONSUL] == p and state.controller[PATRICIANS] == p:
            allotment += params[K.PROCONSUL_FOLLOWERS]
        if placed + state.followers[p] != allotment:
            return False
    return True


@compiled
def resources_in_range(state, params):
    """Each player's resources and markers within the rules' ranges; absent seats hold nothing."""
    for p in range(MAX_PLAYERS):
        r, markers = state.res[p], state.markers[p]
        if p >= params[K.N]:
            if count(r, 0) != r.shape[0] or count(markers, 0) != markers.shape[0]:
                return False
            continue
        if r[MONEY] < 0 or r[LAURELS] < 0 or r[LEGIONS] < 0 or not 0 <= r[TILE] <= TRIBUNE or not 0 <= r[ETERNAL] <= 1:
            return False
        if count(markers, 0) + count(markers, 1) != markers.shape[0] or r[MARKERS] != count(markers, 1):
            return False
    temp = state.meta[Meta.TEMP_FAVOR]
    return temp == -1 or (
        temp == state.controller[VESTALS] and 0 <= temp < params[K.N] and state.res[temp, ETERNAL] == 0
    )


@compiled
def never_lost(state, before, params):
    """Nothing of NEVER_LOST, no faction marker and no declaration is lost between `before` and `state`."""
    for p in range(params[K.N]):
        for column in NEVER_LOST:
            if state.res[p, column] < before.res[p, column]:
                return False
        for f in range(NUM_FACTIONS):
            if state.markers[p, f] < before.markers[p, f]:
                return False
        if before.declared[p] >= 0 and state.declared[p] != before.declared[p]:
            return False
    return True


@compiled
def legal_actions(state, mask):
    """A legal action offered exactly while the game runs."""
    running = state.meta[Meta.STATUS] == Status.RUNNING
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            return running
    return not running


@compiled
def meets_card(state, params, p):
    """Whether player p meets the victory card (the point variant: the marker goal), from the rulebook."""
    r = state.res[p]
    if not params[K.VICTORY]:
        return r[MARKERS] >= params[K.POINT_VARIANT_MARKERS]
    met = (
        r[TILE] == TRIBUNE,
        r[ETERNAL] == 1 or state.meta[Meta.TEMP_FAVOR] == p,
        r[LAURELS] >= params[K.V_LAURELS],
        r[LEGIONS] >= params[K.V_LEGIONS],
        r[MONEY] >= params[K.V_DENARII],
        r[MARKERS] >= params[K.V_MARKERS],
    )  # in the order of OBJECTIVES
    obligatory, total, required = params[K.V_OBLIGATORY], 0, True
    for i in range(NUM_OBJECTIVES):
        total += met[i]
        required &= i != obligatory or met[i]
    return total >= params[K.V_NEED] and required


@compiled
def declarations(state, params):
    """Every player meeting the card has declared; the declarations are 0..N_DECLARED-1, once each."""
    n, declared, seen = params[K.N], state.meta[Meta.N_DECLARED], 0  # seen: a bit per declaration number
    for p in range(MAX_PLAYERS):
        order = state.declared[p]
        if p >= n or order < 0:
            if order != -1 or (p < n and meets_card(state, params, p)):
                return False
        elif order >= declared or seen & (1 << order):
            return False
        else:
            seen |= 1 << order
    return seen == (1 << declared) - 1


@compiled
def within_round_limit(state, params):
    return 0 <= state.meta[Meta.ROUND] <= params[K.ROUND_LIMIT] and 0 <= state.meta[Meta.PHASE] <= 6


@compiled
def state_violation(state, before, params, mask, deck_counts, counts):
    """The first invariant `state` (mask `mask`) breaks, `before` being the state before the step; 0 for none."""
    if not cards_conserved(state, params, deck_counts, counts):
        return Invariant.CARDS_CONSERVED
    if not followers_conserved(state, params):
        return Invariant.FOLLOWERS_CONSERVED
    if not resources_in_range(state, params):
        return Invariant.RESOURCES_IN_RANGE
    if not never_lost(state, before, params):
        return Invariant.NEVER_LOST
    if not legal_actions(state, mask):
        return Invariant.LEGAL_ACTIONS
    if not declarations(state, params):
        return Invariant.DECLARATIONS
    if not within_round_limit(state, params):
        return Invariant.ROUND_LIMIT
    return 0


@compiled
def remember(before, state):
    """Keep what :func:`never_lost` compares from `state` in `before`."""
    before.res[:] = state.res
    before.markers[:] = state.markers
    before.declared[:] = state.declared


# ------------------------------------------------------------------ the end of play
@compiled
def table_score(state, params, p):
    """Player p's points by the scoring table of 'The End of Play' (rulebook)."""
    r = state.res[p]
    total = params[K.SCORING_TRIBUNE] if r[TILE] == TRIBUNE else params[K.SCORING_SCROLL] if r[TILE] == SCROLL else 0
    total += (
        r[ETERNAL] * params[K.SCORING_ETERNAL_FAVOR]
        + r[LEGIONS] * params[K.SCORING_LEGION]
        + r[LAURELS] * params[K.SCORING_LAUREL]
    )
    total += r[MONEY] // params[K.SCORING_DENARII_PER_POINT] + r[MARKERS] * params[K.SCORING_MARKER]
    if state.meta[Meta.TEMP_FAVOR] == p:
        total += params[K.SCORING_TEMPORARY_FAVOR]
    if state.declared[p] == 0:
        total += params[K.SCORING_FIRST_DECLARER]
    return total


@compiled
def scores_consistent(state, params, engine_scores):
    for p in range(params[K.N]):
        if engine_scores[p] != table_score(state, params, p):
            return False
    return True


@compiled
def right_winner(state, params, points):
    """The winner as 'The End of Play' names it, from the scores `points`."""
    n = params[K.N]
    best = -1
    for p in range(n):
        if params[K.VICTORY]:
            better = state.declared[p] >= 0 and (
                best < 0
                or points[p] > points[best]
                or (points[p] == points[best] and state.declared[p] < state.declared[best])
            )
        else:
            better = best < 0 or points[p] > points[best]
        if better:
            best = p
    for p in range(n):
        won = state.winner[p] == 1
        if params[K.VICTORY] and won != (p == best):
            return False
        if not params[K.VICTORY] and won != (points[p] == points[best]):
            return False
    return np.sum(state.winner[:n]) >= 1 and not np.any(state.winner[n:] != 0)


@compiled
def end_violation(state, params, engine_scores, declared_in):
    """The first invariant a game breaks at its end (`declared_in`: the round of the first declaration, or -1); 0 for none.

    A game still running when play stopped was not over by its round limit.
    """
    status, n_declared = state.meta[Meta.STATUS], state.meta[Meta.N_DECLARED]
    if status == Status.RUNNING:
        return Invariant.ROUND_LIMIT
    if state.meta[Meta.PHASE] != 6:
        return Invariant.END_OF_PLAY
    if status == Status.TRUNCATED:
        ok = state.meta[Meta.ROUND] == params[K.ROUND_LIMIT] and n_declared == 0 and not np.any(state.winner != 0)
        return 0 if ok else Invariant.END_OF_PLAY
    if status != Status.TERMINATED or n_declared < 1 or state.meta[Meta.ROUND] != declared_in:
        return Invariant.END_OF_PLAY
    if not scores_consistent(state, params, engine_scores):
        return Invariant.SCORES
    return 0 if right_winner(state, params, engine_scores) else Invariant.WINNER


# ------------------------------------------------------------------ from Python
@entry
def check_state(buf, params, mask, deck_counts, before):
    """:func:`state_violation` of a state buffer, `before` the buffer of the state before the step."""
    counts = np.zeros(deck_counts.shape[0], dtype=np.int64)
    return state_violation(views(buf, params), views(before, params), params, mask, deck_counts, counts)


@entry
def check_end(buf, params, engine_scores, declared_in):
    """:func:`end_violation` of a state buffer."""
    return end_violation(views(buf, params), params, engine_scores, declared_in)


def violation(game, before=None) -> Invariant | None:
    """The first invariant `game` breaks now, `before` a copy of its state buffer before the last step."""
    buffer, params, mask = game.handle
    broken = check_state(buffer, params, mask, game.deck_counts, buffer if before is None else before)
    return Invariant(broken) if broken else None


def end_of_play(game, declared_in: int) -> Invariant | None:
    """The first invariant `game`, over, breaks at its end (`declared_in`: the round of the first declaration, or -1)."""
    buf, k, _ = game.handle
    broken = check_end(buf, k, game.scores(), declared_in)
    return Invariant(broken) if broken else None

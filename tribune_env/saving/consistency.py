"""Stage 5: the fields against each other, as the rules make them agree."""

from __future__ import annotations

import numpy as np

from ..core import dispatch
from ..core.bids import bid_digits
from ..data import (
    FACTIONS,
    GLADIATORS,
    LEGATES,
    NUM_CARD_TYPES,
    NUM_FACTIONS,
    NUM_VALUES,
    PATRICIANS,
    PLEBEIANS,
    PRAETORIANS,
    REGIONS,
    SENATORS,
    VESTALS,
)
from ..state import (
    ETERNAL,
    LAURELS,
    LEGIONS,
    MARKERS,
    MONEY,
    Meta,
    Status,
)
from ..tasks import FIRST_DECISION, Task
from .limits import BIDS, BUILDERS, MAX_AMOUNT, fail
from .stack import check_task_stack, live_tasks, pending_tasks, pushed_by, space_owner, start_order

AMOUNTS = ("money and the Colosseum", "laurels", "legions", "colosseum", "reshuffles")


def _amount_vector(**amounts) -> np.ndarray:
    keys = {"money": 0, "laurels": 1, "legions": 2, "colosseum": 3, "reshuffles": 4}
    v = np.zeros(len(AMOUNTS), dtype=np.int64)
    for key, value in amounts.items():
        v[keys[key]] = value
    return v


def _takeover_gain(g, f: int) -> np.ndarray:
    """The most a take-over of faction f adds: its benefit, its leader, the first laurel, draws."""
    d = g.data
    return _amount_vector(
        money={VESTALS: d.vestal_denarii, PATRICIANS: d.scipio_denarii}.get(f, 0),
        laurels=d.first_control_laurels
        + {
            LEGATES: d.legate_laurels + d.varus_laurels,
            PATRICIANS: d.patrician_laurels,
            SENATORS: d.senator_laurels,
        }.get(f, 0),
        legions={GLADIATORS: d.gladiator_legions + d.spartacus_legions, PRAETORIANS: d.tigellinus_legions}.get(f, 0),
        reshuffles=2 * d.benefit_cards * {PRAETORIANS: 1, PLEBEIANS: 2}.get(f, 0),
    )  # 2 a card drawn: the take-over benefit's, and Agrippa's


def _benefit_gain(g, f: int) -> np.ndarray:
    """The most Phase 5's benefit of faction f adds."""
    d = g.data
    cards = (
        d.senator_benefit_cards if f == SENATORS else d.benefit_cards if f in (GLADIATORS, LEGATES, PLEBEIANS) else 0
    )
    return _amount_vector(
        money=d.plebeian_benefit_denarii if f == PLEBEIANS else 0,
        laurels=d.vestal_benefit_laurels if f == VESTALS else 0,
        legions={PRAETORIANS: d.praetorian_benefit_legions, LEGATES: d.bought_legions}.get(f, 0),
        reshuffles=2 * cards,  # 2 a card drawn
    )


def _task_gain(g, row, fresh: bool = False) -> np.ndarray:
    """The most that task `row`, and everything it will push, can still add to each amount
    before the next round starts (`fresh`: as at the start of a round).

    Each addition in the rules is counted on the task that makes it (a coin-bowl follower
    on the placement, a take-over's denarii on the take-over, a reshuffle on the draw, at
    most two a draw: before it and in a cesura), so running or deciding a task never adds
    more than the sum over the stack drops. That makes the bound of ``check_growth`` hold
    for every state play reaches from an accepted one.
    """
    kind, a, b, c = row
    d, T = g.data, Task
    bowl = max(d.coin_bowl_first, d.coin_bowl_later)
    if kind == T.ROUND_START:
        return sum((_task_gain(g, r, fresh=True) for r in pushed_by(g, row)[0]), _amount_vector())
    if kind in (T.DEAL, T.DEAL_CATACOMBS, T.DRAW):
        return _amount_vector(reshuffles=2 - c)
    if kind == T.DEAL_CURIA:
        return _amount_vector(reshuffles=2 - c + 2 * (d.curia_sum if fresh else _curia_room(g, a)))
    if kind == T.CESURA_SETS:
        return _amount_vector(reshuffles=1)
    if kind in (T.PHASE2, T.PLACE):
        followers = (
            g.n * d.followers[g.n] + d.proconsul_followers if kind == T.PHASE2 else int(g.state.followers[: g.n].sum())
        )
        return _amount_vector(money=followers * bowl) + _task_gain(g, (T.PHASE3, 0, 0, 0))
    if kind == T.PHASE3:
        return _amount_vector(
            money=max(max(v) for v in d.deck.values()),
            colosseum=sum(max(x, 0) for x in d.catacomb_prices),
            laurels=d.field_of_mars_spaces * d.mars_laurels_per_pair + d.mars_bonus_laurels,
        ) + _task_gain(g, (T.PHASE4, 0, 0, 0))
    if kind in (T.LATRINE, T.LATRINE_CHOICE):
        return _amount_vector(money=max(max(v) for v in d.deck.values()))
    if kind in (T.CATACOMBS, T.CATACOMBS_CHOICE):
        return _amount_vector(colosseum=max(d.catacomb_prices[a if kind == T.CATACOMBS else b], 0))
    if kind in (T.MARS, T.MARS_RESOLVE):
        return _amount_vector(laurels=d.field_of_mars_spaces * d.mars_laurels_per_pair + d.mars_bonus_laurels)
    if kind == T.PHASE4:
        return sum((_takeover_gain(g, f) for f in range(NUM_FACTIONS)), _task_gain(g, (T.PHASE5, 0, 0, 0)))
    if kind == T.TAKEOVER or (kind == T.TAKEOVER_SET and c == 1):
        return _takeover_gain(g, a if kind == T.TAKEOVER else b)
    if kind == T.TAKEOVER_BENEFIT:
        return _amount_vector(
            money=d.vestal_denarii if b == VESTALS else 0,
            laurels={LEGATES: d.legate_laurels, PATRICIANS: d.patrician_laurels, SENATORS: d.senator_laurels}.get(b, 0),
            legions=d.gladiator_legions if b == GLADIATORS else 0,
            reshuffles=2 * d.benefit_cards if b in (PRAETORIANS, PLEBEIANS) else 0,
        )
    if kind == T.MARKER_LAUREL:
        return _amount_vector(laurels=d.first_control_laurels)
    if kind == T.LEADER:
        return _amount_vector(
            money=d.scipio_denarii if b == PATRICIANS else 0,
            laurels=d.varus_laurels if b == LEGATES else 0,
            legions={GLADIATORS: d.spartacus_legions, PRAETORIANS: d.tigellinus_legions}.get(b, 0),
            reshuffles=2 * d.benefit_cards if b == PLEBEIANS else 0,
        )
    if kind == T.AGRIPPA:
        return _amount_vector(reshuffles=2 * d.benefit_cards)
    if kind == T.TIGELLINUS:
        return _amount_vector(legions=g.data.tigellinus_legions)
    if kind == T.BUY_LEGION:
        return _amount_vector(legions=d.bought_legions)
    if kind == T.PHASE5:
        return sum((_benefit_gain(g, f) for f in range(NUM_FACTIONS)), _amount_vector())
    if kind in (T.FACTION_BENEFIT, T.BENEFIT_CHOICE):
        return _benefit_gain(g, a if kind == T.FACTION_BENEFIT else b)
    return _amount_vector()


def _curia_room(g, stack: int) -> int:
    """Cards (each worth 1 or more) a Curia stack being dealt can still take."""
    values = np.arange(NUM_CARD_TYPES) % NUM_VALUES
    cards = g.state.curia[stack]
    return 0 if cards[values == 0].any() else max(0, g.data.curia_sum - int(cards @ values))


def check_growth(g):
    """No amount beyond what the rounds played can have added to the start (so none can overflow).

    A round adds at most `per_round` (with the default numbers 174 denarii, 17 laurels,
    5 legions, 9 to the Colosseum, 90 reshuffles), of which the tasks on the stack can
    still add `to_come`. The game's numbers must keep a game played to its round limit
    within MAX_AMOUNT; a loaded game then stays there too, far from int32 overflow.
    """
    per_round = _task_gain(g, (Task.ROUND_START, 0, 0, 0))
    to_come = sum((_task_gain(g, row) for row in live_tasks(g)), _amount_vector())
    n = g.n
    start = _amount_vector(money=sum(g.data.starting_money + i for i in range(n)))
    reach = start + per_round * g.round_limit
    if reach.max() > MAX_AMOUNT:
        fail(
            f"with these game numbers the {AMOUNTS[int(reach.argmax())]} could pass {MAX_AMOUNT} "
            f"before round_limit {g.round_limit}"
        )
    held = _amount_vector(
        money=int(g.state.res[:n, MONEY].sum()) + int(g.state.meta[Meta.COLOSSEUM]),
        laurels=int(g.state.res[:n, LAURELS].sum()),
        legions=int(g.state.res[:n, LEGIONS].sum()),
        colosseum=int(g.state.meta[Meta.COLOSSEUM]),
        reshuffles=int(g.state.meta[Meta.RESHUFFLES]),
    )
    most = start + per_round * max(g.round - 1, 0) + per_round - to_come
    for i, name in enumerate(AMOUNTS):
        if held[i] > most[i]:
            fail(f"{name} total {held[i]}, more than round {g.round}, phase {g.phase} can reach ({most[i]})")


def check_resources(g):
    """Marker counts match the markers held."""
    if (g.state.res[:, MARKERS] != g.state.markers.sum(axis=1)).any():
        fail("marker counts (res) disagree with the faction markers held")


def check_setup(g):
    """Round 0 (setup): the deal, starting money, the discards so far; everything else untouched."""
    if g.phase != 0:
        if g.round == 0:
            fail("meta round is 0 after the setup")
        return
    if g.round != 0:
        fail(f"meta round is {g.round} during the setup (phase 0)")
    d, n, order = g.data, g.n, start_order(g)
    waiting = {r[1] for r in pending_tasks(g, Task.SETUP_DISCARD)}
    for i, p in enumerate(order):
        if g.state.res[p, MONEY] != d.starting_money + i:
            fail(f"player_{p} holds {int(g.state.res[p, MONEY])} denarii at setup, not {d.starting_money + i}")
        if g.state.hand[p].sum() != (d.setup_deal if p in waiting else d.setup_keep):
            fail(f"player_{p} holds {int(g.state.hand[p].sum())} cards in the setup")
    if g.state.discard_hidden.sum() != (n - len(waiting)) * (d.setup_deal - d.setup_keep):
        fail("the setup discards (discard_hidden) disagree with who has discarded")
    if g.state.meta[Meta.DRAW_N] != d.deck_size() - n * d.setup_deal:
        fail("the draw pile (draw_n) at setup is not the deck less the deal")
    initial = g.state.layout.initial
    for name in (
        "discard_public",
        "sets",
        "controller",
        "first_laurel",
        "markers",
        "followers",
        "coin_bowl",
        "space_owner",
        "field_owner",
        "slot_card",
        "slot_up",
        "curia",
        "catacombs",
        "pantheon_seen",
        "catacombs_seen",
        "catacombs_bought",
        "known",
        "bids",
        "committed",
        "mars_pairs",
        "challenger",
        "winner",
    ):
        o, size, _ = g.state.layout.offsets[name]
        if not np.array_equal(g.handle.buffer[o : o + size], initial[o : o + size]):
            fail(f"array {name!r} is not as dealt during the setup")
    if g.state.res[:, LAURELS : MARKERS + 1].any():
        fail("array 'res' holds laurels, legions, a tile, favor or markers during the setup")
    for key, value in (
        ("coin_bowl_used", 0),
        ("colosseum", 0),
        ("chariot", -1),
        ("proconsul", -1),
        ("temp_favor", -1),
        ("challenger", -1),
        ("reshuffles", 0),
    ):
        if g.state.meta[Meta[key.upper()]] != value:
            fail(f"meta {key} is {int(g.state.meta[Meta[key.upper()]])} during the setup, not {value}")


def check_outcome(g):
    """Winners only in a finished game; a victory has a declarer and the rules' winner(s)."""
    status, n = g.status, g.n
    winners = [int(p) for p in np.flatnonzero(g.state.winner[:n])]
    declarers = [p for p in range(n) if g.state.declared[p] >= 0]
    if status == Status.RUNNING:
        if winners:
            fail("array 'winner' names winners while the game runs")
        return
    if g.phase != 6:
        fail(f"a game ends in phase 6, not {g.phase}")
    if status == Status.TRUNCATED:
        if g.round != g.round_limit or declarers or winners:
            fail("a truncated game ends at its round limit with no declaration and no winner")
        return
    if not declarers:
        fail("a terminated game needs a declaration (array 'declared')")
    scores = g.scores().tolist()
    if g.victory_card is None:
        best = max(scores)
        expected = [p for p in range(n) if scores[p] == best]
    else:
        expected = [min(declarers, key=lambda p: (-scores[p], g.state.declared[p]))]
    if winners != expected:
        fail(f"array 'winner' names {winners}; the scores {scores} give {expected}")


def check_declarations(g):
    """'declared' numbers the declarers 0..n_declared-1; whoever meets the card has declared.

    The engine records a declaration after every step, so only the state before the first
    step (the setup) may hold someone who meets the card undeclared.
    """
    n, count = g.n, int(g.state.meta[Meta.N_DECLARED])
    order = sorted(int(x) for x in g.state.declared[:n] if x >= 0)
    if order != list(range(count)):
        fail(f"array 'declared' {g.state.declared[:n].tolist()} disagrees with meta n_declared {count}")
    if g.phase == 0:
        return
    for p in np.flatnonzero(g.meets_victory()):
        if g.state.declared[p] < 0:
            fail(f"player_{p} meets the victory condition but has not declared (array 'declared')")


def check_favor(g):
    """The temporary favor: with the Vestal Virgins' controller only, and never beside eternal favor."""
    temp = int(g.state.meta[Meta.TEMP_FAVOR])
    if temp >= 0 and (temp != g.state.controller[VESTALS] or g.state.res[temp, ETERNAL]):
        fail(f"meta temp_favor is player_{temp}, who does not control the Vestal Virgins or holds eternal favor")


def check_factions(g):
    """Sets, controllers, markers, first laurels, field followers and the chariot agree."""
    pending_laurel = {r[2] for r in pending_tasks(g, Task.MARKER_LAUREL)}
    for f in range(NUM_FACTIONS):
        size, owner = int(g.state.sets[f].sum()), int(g.state.controller[f])
        if (owner >= 0) != (size > 0) or 0 < size < g.data.min_set:
            fail(f"faction {f}: a displayed set (sets) needs a controller and {g.data.min_set}+ cards")
        if not g.state.first_laurel[f] and not g.state.markers[:, f].any():
            fail(f"{FACTIONS[f]}: the first-control laurel is gone but nobody holds its marker")
        if owner >= 0 and f not in pending_laurel and (g.state.first_laurel[f] or not g.state.markers[owner, f]):
            fail(f"{FACTIONS[f]}: its controller lacks the marker or the first laurel is still there")
    first, second = g.state.field_owner[:, 0], g.state.field_owner[:, 1]
    if ((second >= 0) & ((first < 0) | (first == second))).any():
        fail("a faction field's space 2 is filled before space 1, or by the same seat")
    if g.phase in (2, 3):
        for f in range(NUM_FACTIONS):
            if g.state.controller[f] >= 0 and g.state.controller[f] in g.state.field_owner[f]:
                fail(f"{FACTIONS[f]}: its controller has a follower on its field (field_owner)")
    chariot = int(g.state.meta[Meta.CHARIOT])
    if chariot >= 0:
        if g.state.controller[chariot] < 0:
            fail("meta chariot blocks a faction nobody controls")
        if g.phase in (2, 3, 4) and (g.state.field_owner[chariot] >= 0).any():
            fail("a follower on the faction field the chariot blocks (field_owner)")
    if g.state.meta[Meta.PROCONSUL] >= 0 and g.state.first_laurel[PATRICIANS]:
        fail("meta proconsul is set, but nobody has ever controlled the Patricians")


def returned(g) -> set:
    """The regions whose followers went back (Phase 3 evaluated them; every region after it)."""
    if g.phase != 3:
        return set(range(len(REGIONS))) if g.phase > 3 else set()
    pending = {r[1] for r in pending_tasks(g, Task.RETURN_FOLLOWERS)}
    return set(range(len(REGIONS))) - pending


def check_spaces(g):
    """Region followers: only in Phases 2-3, until their region is evaluated; pooled regions
    fill in order; Atrium and Pantheon rules."""
    owners = g.state.space_owner
    if g.phase not in (2, 3):
        if (owners >= 0).any():
            fail(f"a follower on a region space (space_owner) in phase {g.phase}")
    for region in returned(g):
        if (owners[g.board.spaces[REGIONS[region]]] >= 0).any():
            fail(f"a follower on the {REGIONS[region]} (space_owner) after the region was evaluated")
    for region in ("Atrium Auctionorum", "Pantheon", "Field of Mars"):
        row = owners[g.board.spaces[region]]
        taken = row >= 0
        if (taken[1:] & ~taken[:-1]).any():
            fail(f"{region}: a later space is taken before an earlier one (space_owner)")
        if region != "Field of Mars" and taken.all() and row[0] == row[-1]:
            fail(f"{region}: one player on both spaces (space_owner)")
    for s in g.board.spaces["Pantheon"]:
        if owners[s] >= 0 and not g.state.markers[owners[s], VESTALS]:
            fail("a Pantheon follower without a Vestal Virgins marker (space_owner)")
    if g.phase in (0, 1, 5, 6) and (g.state.field_owner >= 0).any():
        fail(f"a follower on a faction field (field_owner) in phase {g.phase}")


def check_followers(g):
    """Phases 2-3: each player's followers placed plus those left are its allotment (less
    those returned from evaluated regions); none left after."""
    if g.phase != 2 and g.state.followers.any():
        fail(f"followers left to place (followers) in phase {g.phase}")
    if g.phase in (2, 3):
        owners = g.state.space_owner.tolist() + g.state.field_owner.ravel().tolist()
        all_placed = not returned(g)
        for p in range(g.n):
            allot = _allotment(g, p)
            placed = owners.count(p) + g.state.coin_bowl[p] + g.state.followers[p]
            if placed > allot or (all_placed and placed != allot):
                fail(f"player_{p}: followers placed and left (followers) do not add up to {allot}")
    if g.state.coin_bowl.sum() != g.state.meta[Meta.COIN_BOWL_USED]:
        fail("meta coin_bowl_used disagrees with the followers on the coin bowl")
    if g.phase < 2 and g.state.coin_bowl.any():
        fail(f"followers on the coin bowl in phase {g.phase}")


def _allotment(g, p: int) -> int:
    """Followers p places this round: the player count's number, one more for the proconsul."""
    proconsul = g.state.meta[Meta.PROCONSUL]
    return g.data.followers[g.n] + int(proconsul == p and g.state.controller[PATRICIANS] == p)


def check_placement_order(g):
    """Phase 2: players place in turn from the starting player, skipping those with none left.

    So the followers each has left, who placed last (and may turn Atrium cards) and who
    places next all follow from how many followers were placed.
    """
    if g.phase != 2:
        return
    n = g.n
    left = [_allotment(g, p) for p in range(n)]
    placed = sum(left) - int(g.state.followers[:n].sum())
    seat, last = int(g.state.meta[Meta.START_PLAYER]), -1
    for _ in range(placed):
        left[seat] -= 1
        last = seat
        seat = next(((seat + i) % n for i in range(1, n + 1) if left[(seat + i) % n] > 0), -1)
    if left != g.state.followers[:n].tolist():
        fail(f"followers left (followers) {g.state.followers[:n].tolist()} are not what placing in turn leaves")
    live = live_tasks(g)
    if live[0] != ((Task.PLACE, seat, 0, 0) if seat >= 0 else (Task.PHASE3, 0, 0, 0)):
        fail(f"the next placement (tasks) is not player_{seat}'s, whose turn it is")
    if live[-1][0] == Task.ATRIUM_FLIP and live[-1][1] != last:
        fail(f"the Atrium flip (tasks) is not for player_{last}, who placed last")


def check_cesura(g):
    """In a cesura magna, exactly the players above the hand limit have a discard pending."""
    if Task.CESURA_SETS not in {r[0] for r in live_tasks(g)}:
        return
    over = {p for p in range(g.n) if g.state.hand[p].sum() > g.data.cesura_hand_limit}
    if over != {r[1] for r in pending_tasks(g, Task.CESURA_DISCARD)}:
        fail("the cesura discards pending (tasks) are not for the players above the hand limit (hand)")


def _slots(g, region):
    return list(g.board.slots[region])


def check_slots(g):
    """Cards on the board: dealt in Phase 1, face down until turned, gone once a region is resolved."""
    phase, kinds = g.phase, {r[0] for r in live_tasks(g)}
    card, up = g.state.slot_card, g.state.slot_up
    if phase in (1, 2):
        for region in ("Thermae", "Forum Romanum"):
            if any(card[s] >= 0 and not up[s] for s in _slots(g, region)):
                fail(f"a {region} card lies face down (slot_up)")
        for region in ("Latrine", "Pantheon") + (("Atrium Auctionorum",) if phase == 1 else ()):
            if any(card[s] >= 0 and up[s] for s in _slots(g, region)):
                fail(f"a {region} card lies face up (slot_up) in phase {phase}")
    if phase == 2:
        check_atrium_cards(g)
    if phase == 3:
        resolved = {
            "Thermae": Task.THERMAE not in kinds,
            "Forum Romanum": Task.FORUM not in kinds,
            "Latrine": not kinds & {Task.LATRINE, Task.LATRINE_CHOICE},
            "Atrium Auctionorum": not kinds & {Task.ATRIUM, Task.ATRIUM_RESOLVE},
            "Pantheon": not kinds & {Task.PANTHEON, Task.PANTHEON_END},
        }
        for region, done in resolved.items():
            if done and (card[_slots(g, region)] >= 0).any():
                fail(f"a card (slot_card) is left in the {region}, which is resolved")
        if Task.LATRINE_CHOICE in kinds:
            s = _slots(g, "Latrine")[0]
            if card[s] < 0 or not up[s]:
                fail("the Latrine choice waits, but no card lies face up there (slot_card)")
        if kinds & {Task.SACRIFICE, Task.PANTHEON_END}:
            s = _slots(g, "Pantheon")[0]
            if card[s] < 0 or not up[s]:
                fail("the Pantheon sacrifice waits, but no card lies face up there (slot_card)")
    if phase in (0, 4, 5, 6) and (card >= 0).any():
        fail(f"a card on the board (slot_card) in phase {phase}")


def check_atrium_cards(g):
    """Phase 2: Atrium cards face down, two up once "1." chose, all up once "2." is taken."""
    slots = _slots(g, "Atrium Auctionorum")
    present = g.state.slot_card[slots] >= 0
    face_up = int((g.state.slot_up[slots] & present).sum())
    first, second = space_owner(g, "Atrium Auctionorum", 0), space_owner(g, "Atrium Auctionorum", 1)
    flipping = live_tasks(g)[-1][0] == Task.ATRIUM_FLIP
    if first < 0 or flipping:
        expected = 0
    elif second < 0:
        expected = max(int(present.sum()) - 1, 0)  # all but the one "1." keeps face down
    else:
        expected = int(present.sum())
    if face_up != expected:
        fail("the Atrium cards face up (slot_up) do not match who is on the Atrium")


def check_piles(g):
    """Curia stacks, the Catacombs pile and Field of Mars pairs: when they may hold cards, and how many."""
    phase, kinds = g.phase, {r[0] for r in live_tasks(g)}
    d = g.data
    values = np.arange(NUM_CARD_TYPES) % NUM_VALUES
    for s in range(d.curia_stacks):
        stack = g.state.curia[s]
        total, leaders = int(stack @ values), int(stack[values == 0].sum())
        highest = int(values[stack > 0].max(initial=0))
        if leaders > 1 or (leaders and total >= d.curia_sum) or (not leaders and total - highest >= d.curia_sum):
            fail(f"Curia stack {s} holds more than a deal puts there (curia)")
        resolved = phase == 3 and not (_has(g, Task.CURIA, s) or _has(g, Task.CURIA_CHOICE, s, at=2))
        if stack.any() and (phase in (0, 4, 5, 6) or resolved):
            fail(f"cards on Curia stack {s} (curia) in phase {phase}, after it was resolved")
    catacombs_done = phase in (0, 4, 5, 6) or (phase == 3 and Task.CATACOMBS_END not in kinds)
    waiting = len(pending_tasks(g, Task.DEAL_CATACOMBS))
    if g.state.catacombs.sum() + waiting > d.catacomb_cards:
        fail("the Catacombs pile (catacombs) holds more cards than are dealt there")
    if catacombs_done and (g.state.catacombs.any() or g.state.catacombs_seen.any()):
        fail(f"cards in the Catacombs (catacombs, catacombs_seen) in phase {phase}, after they were resolved")
    for i, card in enumerate(g.state.catacombs_bought.tolist()):
        buyer = space_owner(g, "Catacombs", i)
        if card >= 0 and (
            catacombs_done
            or _has(g, Task.CATACOMBS, i)
            or _has(g, Task.CATACOMBS_CHOICE, i, at=2)
            or buyer < 0
            or not g.state.hand[buyer, card]
        ):
            fail(f"a Catacombs purchase at space {i} (catacombs_bought) that nobody there can have made")
    for p in range(g.n):
        seen = g.state.catacombs_seen[p]
        if seen.any() and (
            phase != 3 or (g.state.catacombs > seen).any() or p not in g.state.space_owner[g.board.spaces["Catacombs"]]
        ):
            fail(f"player_{p} has seen Catacombs cards (catacombs_seen) it cannot have examined")
    check_mars_pairs(g)


def _has(g, kind, value, at=1) -> bool:
    return any(r[at] == value for r in pending_tasks(g, kind))


def check_mars_pairs(g):
    """Face-down Field of Mars pairs: two cards of one faction, on an owned space, until resolved."""
    resolving = Task.MARS_RESOLVE in {r[0] for r in live_tasks(g)}
    for i, pair in enumerate(g.state.mars_pairs):
        if not pair.any():
            continue
        factions = np.flatnonzero(pair) // NUM_VALUES
        if (
            not resolving
            or pair.sum() != 2
            or factions.min() != factions.max()
            or space_owner(g, "Field of Mars", i) < 0
            or _has(g, Task.MARS_PAIR, i, at=2)
        ):
            fail(f"Field of Mars pair {i} (mars_pairs) is not one a player laid this round")


def check_pending_deals(g):
    """A deal still to come finds its place empty: a slot, or a Curia stack still being filled."""
    slots = [r[1] for r in pending_tasks(g, Task.DEAL)]
    if len(set(slots)) != len(slots) or any(g.state.slot_card[s] >= 0 for s in slots):
        fail("a pending DEAL task would deal onto a filled slot (slot_card)")
    stacks = [r[1] for r in pending_tasks(g, Task.DEAL_CURIA)]
    if len(set(stacks)) != len(stacks) or any(g.state.curia[s].any() for s in stacks[:-1]):
        fail("a pending DEAL_CURIA task would deal onto a Curia stack already dealt (curia)")
    if stacks:  # the stack being filled: below the sum, no leader yet
        stack = g.state.curia[stacks[-1]]
        values = np.arange(NUM_CARD_TYPES) % NUM_VALUES
        if stack @ values >= g.data.curia_sum or stack[values == 0].any():
            fail("a pending DEAL_CURIA task would deal onto a complete Curia stack (curia)")


def check_pantheon_seen(g):
    """Who looked at the Pantheon card: its followers, until the Pantheon is resolved."""
    kinds = {r[0] for r in live_tasks(g)}
    looking = g.phase == 2 or (g.phase == 3 and kinds & {Task.PANTHEON, Task.PANTHEON_END})
    on = {int(g.state.space_owner[s]) for s in g.board.spaces["Pantheon"]} if looking else set()
    if [bool(x) for x in g.state.pantheon_seen[: g.n]] != [p in on for p in range(g.n)]:
        fail("array 'pantheon_seen' disagrees with the followers on the Pantheon")


def check_bids(g):
    """Sealed bids and commitments exist only while their auction or the Pantheon is resolved.

    A bidder whose bid task is done has committed; bids[p] is at most p's money and
    non-zero only once p committed, or while p enters its bid (a bid task with digits).
    """
    live = live_tasks(g)
    kinds = {r[0] for r in live}
    n = g.n
    bidding = {r[1] for r in live if r[0] in BIDS}
    if Task.ATRIUM_RESOLVE in kinds:
        bidders = {space_owner(g, "Atrium Auctionorum", 0), space_owner(g, "Atrium Auctionorum", 1)}
    elif Task.CHARIOT_RESOLVE in kinds:
        bidders = set(range(n))
    else:
        bidders = set()
    sacrificing = {r[1] for r in live if r[0] == Task.SACRIFICE}
    pantheon = (
        {int(g.state.space_owner[s]) for s in g.board.spaces["Pantheon"]} if Task.PANTHEON_END in kinds else set()
    )
    top = live[-1] if live and not g.is_over else None
    entering = top[1] if top is not None and top[0] in BIDS and top[2] > 0 else -1
    for kind, p, entered, _ in live:
        if kind in BIDS and (
            entered >= bid_digits(int(g.state.res[p, MONEY]), g.data.bid_base) or (entered and p != entering)
        ):
            fail(f"player_{p}'s bid task has entered {entered} digits, which its money or turn rules out")
    for p in range(n):
        done = p in bidders and p not in bidding
        may_commit = done or (p in pantheon and p not in sacrificing and not g.state.res[p, ETERNAL])
        if (g.state.committed[p] and not may_commit) or (done and not g.state.committed[p]):
            fail(f"player_{p}'s commitment (committed) does not fit the bids and sacrifices under way")
        if g.state.bids[p] > g.state.res[p, MONEY] or (
            g.state.bids[p] and not (g.state.committed[p] and p in bidders) and p != entering
        ):
            fail(f"player_{p}'s bid (bids) is more than its money or outside an auction")


def check_build(g):
    """The set under construction: only a multi-card decision's, from its actor's hand."""
    if g.is_over or live_tasks(g)[-1][0] not in BUILDERS:
        if g.state.build.any():
            fail("array 'build' holds cards, but no decision builds a set")
        return
    kind, p, b, c = live_tasks(g)[-1]
    build, hand = g.state.build, g.state.hand[p]
    if (build > hand).any():
        fail("the set under construction (build) holds cards its builder lacks")
    if kind == Task.SETUP_DISCARD and hand.sum() - build.sum() < g.data.setup_keep:
        fail("the setup discard (build) goes below the cards kept")
    if kind == Task.CESURA_DISCARD and hand.sum() - build.sum() < g.data.cesura_hand_limit:
        fail("the cesura discard (build) goes below the hand limit")
    factions = np.flatnonzero(build) // NUM_VALUES
    if kind == Task.MARS_PAIR and (build.sum() > 2 or (factions.size and factions.min() != factions.max())):
        fail("a Field of Mars pair (build) is at most two cards of one faction")
    if kind == Task.TAKEOVER_SET and (factions != b).any():
        fail("a take-over set (build) holds cards of another faction")


def check_challenger(g):
    """The set of space "2" waits only while "1" of the same faction decides, or pays its penalty."""
    c = int(g.state.meta[Meta.CHALLENGER])
    if (c >= 0) != bool(g.state.challenger.any()):
        fail("a challenger's set and its player (meta challenger) must come together")
    if c < 0:
        return
    kind, p, f, role = live_tasks(g)[-1] if not g.is_over else (0, -1, 0, 0)
    waiting = (kind == Task.TAKEOVER_SET and role == 1) or (kind == Task.PENALTY and p == c)
    if not waiting or g.state.field_owner[f, 1] != c or g.state.challenger.sum() < 2:
        fail("meta challenger names a player who is not the waiting challenger of a take-over")
    if kind == Task.TAKEOVER_SET and g.state.controller[f] >= 0:
        count, total = int(g.state.challenger.sum()), int(g.state.challenger @ np.arange(NUM_VALUES))
        held = g.state.sets[f]
        if not (count > held.sum() or total > held @ np.arange(NUM_VALUES)):
            fail("the challenger's set (challenger) does not beat the set it challenged")


def check_actors(g):
    """The player of each pending decision (and take-over task) is the one the rules name."""
    for kind, p, b, c in live_tasks(g):
        problem = _actor_problem(g, kind, p, b, c)
        if problem:
            fail(f"task {Task(kind).name} for player_{p}: {problem}")


def _actor_problem(g, kind, p, b, c):
    T = Task
    if kind < FIRST_DECISION and kind not in (T.TAKEOVER_BENEFIT, T.MARKER_LAUREL, T.LEADER):
        return None  # automatic tasks without a player
    if kind == T.CESURA_DISCARD and g.state.hand[p].sum() <= g.data.cesura_hand_limit:
        return "its hand is within the limit"
    if kind == T.PLACE and g.state.followers[p] < 1:
        return "no follower left to place"
    if kind == T.ATRIUM_FLIP:
        slots = _slots(g, "Atrium Auctionorum")
        if (
            space_owner(g, "Atrium Auctionorum", 0) != p
            or space_owner(g, "Atrium Auctionorum", 1) >= 0
            or not (g.state.slot_card[slots] >= 0).any()
        ):
            return "not alone on Atrium space 1 with cards to turn"
    if kind == T.CATACOMBS_CHOICE and (
        not g.state.catacombs.any() or (g.state.catacombs_seen[p] != g.state.catacombs).any()
    ):
        return "no examined Catacombs card to buy"
    if kind == T.CURIA_CHOICE and not g.state.curia[b].any():
        return "the Curia stack is empty"
    if kind in (T.SACRIFICE, T.TEMP_FAVOR) and g.state.res[p, ETERNAL]:
        return "it holds eternal favor"
    if kind in (T.TAKEOVER_BENEFIT, T.MARKER_LAUREL, T.LEADER, T.BENEFIT_CHOICE) and g.state.controller[b] != p:
        return "it does not control the faction"
    faction = {
        T.TIGELLINUS: PRAETORIANS,
        T.AGRIPPA: PLEBEIANS,
        T.CATO: SENATORS,
        T.TEMP_FAVOR: VESTALS,
        T.BUY_LEGION: LEGATES,
        T.ASSASSIN: PLEBEIANS if g.phase == 4 else GLADIATORS,
    }.get(kind)
    if faction is not None and g.state.controller[faction] != p:
        return f"it does not control the {FACTIONS[faction]}"
    if kind == T.TEMP_FAVOR and g.state.meta[Meta.TEMP_FAVOR] == p:
        return "it holds the temporary favor already"
    if kind == T.PENALTY and g.state.meta[Meta.CHALLENGER] != p:
        return "it is not the challenger"
    if kind == T.CHARIOT_PLACE and g.state.meta[Meta.CHARIOT] >= 0:
        return "the chariot is already placed"
    return None


def card_counts(g) -> np.ndarray:
    """Where every card is, summed: must equal the deck."""
    total = g.state.hand.sum(axis=0).astype(np.int64)
    n = int(g.state.meta[Meta.DRAW_N])
    total += np.bincount(g.state.draw[:n], minlength=NUM_CARD_TYPES)
    total += g.state.discard_public + g.state.discard_hidden + g.state.catacombs + g.state.curia.sum(axis=0)
    total += g.state.mars_pairs.sum(axis=0)
    total += np.bincount(g.state.slot_card[g.state.slot_card >= 0], minlength=NUM_CARD_TYPES)
    for f in range(g.state.sets.shape[0]):
        total[f * NUM_VALUES : (f + 1) * NUM_VALUES] += g.state.sets[f]
    challenger = int(g.state.meta[Meta.CHALLENGER])
    if challenger >= 0:
        decision = g.decision()
        f = decision[2] if decision is not None else 0
        total[f * NUM_VALUES : (f + 1) * NUM_VALUES] += g.state.challenger
    return total


def check_known(g):
    """Cards known to be in a hand are in it."""
    for p in range(g.n):
        if (g.state.known[p] > g.state.hand[p]).any():
            fail(f"player_{p} is known to hold cards (known) that its hand does not hold")


def check_cards(g):
    """All the deck's cards, each exactly where the arrays say, none twice or lost."""
    counts = card_counts(g)
    if (counts != g.deck_counts).any():
        bad = int(np.flatnonzero(counts != g.deck_counts)[0])
        fail(
            f"card accounting fails: {g.card_name(bad)} appears {int(counts[bad])} "
            f"times, the deck has {int(g.deck_counts[bad])}"
        )
    if Task.CESURA_SETS in {r[0] for r in live_tasks(g)}:
        if g.state.meta[Meta.DRAW_N] or g.state.discard_hidden.any():
            fail("a cesura magna runs only when the draw pile (draw_n) and hidden discards are empty")


def check_legal_action(g):
    """The decision waiting offers at least one action (computed by the engine itself)."""
    if g.is_over:
        return
    dispatch.legal_mask(*g.handle)
    if not g.handle.mask.any():
        fail("the decision waiting has no legal action")


CONSISTENCY = (
    check_task_stack,
    check_setup,
    check_outcome,
    check_resources,
    check_growth,
    check_declarations,
    check_favor,
    check_factions,
    check_spaces,
    check_followers,
    check_placement_order,
    check_cesura,
    check_slots,
    check_piles,
    check_pending_deals,
    check_pantheon_seen,
    check_bids,
    check_build,
    check_challenger,
    check_actors,
    check_known,
    check_cards,
    check_legal_action,
)  # in this order: later checks rely on earlier ones (the stack first)


def check_consistency(g):
    """Raise StateFormatError if the arrays, each in range, still cannot be a real game's state."""
    for check in CONSISTENCY:
        check(g)

"""Hidden information, determinisation and determinism.

A player's observation may depend only on what that player can know (clarifications §4,
"Secrecy and simultaneous acts"): changing anything hidden from it -- other hands, the
draw pile, face-down discards, face-down board cards it has not seen, sealed bids not yet
revealed, other players' face-down Field of Mars pairs, another player's set under
construction, another player's Catacombs purchase -- must leave ``observe(p)``, its
table, its rendering, its view of the log, its text view (what a language model is shown)
and every determinisation for it exactly unchanged, while changing its own hand must change it.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import (
    NUM_CARDS,
    assert_same_determinisations,
    card_counts,
    collect_states,
    play,
    random_action,
    total_cards,
)

from tribune_env import Game, IllegalActionError, PlayerView, staging
from tribune_env.core import worlds
from tribune_env.data import NUM_VALUES, PANTHEON
from tribune_env.determinize import sampler_words
from tribune_env.state import MONEY, Meta, State
from tribune_env.tasks import Task
from tribune_env.text_seat import TextSeat, prompt

BIDS = (Task.ATRIUM_BID, Task.CHARIOT_BID)


# ------------------------------------------------------------------------------ helpers
def observations(g):
    return [g.observe(p).copy() for p in range(g.n)]


def draw_pile(g):
    return g.state.draw[: int(g.state.meta[Meta.DRAW_N])]


def swap_with_draw(g, counts, c_out, c_in):
    """Move one card c_out from `counts` (a count array) into the draw pile, replacing a c_in."""
    pile = draw_pile(g)
    i = int(np.flatnonzero(pile == c_in)[0])
    pile[i] = c_out
    counts[c_out] -= 1
    counts[c_in] += 1


def draw_card_not(g, excluded):
    """A card type in the draw pile that is not in `excluded`, or None."""
    for c in draw_pile(g).tolist():
        if c not in excluded:
            return int(c)
    return None


def examined(g, p) -> bool:
    """Whether player p has looked at the Catacombs pile this round (flag or remembered pile)."""
    return bool(np.any(g.state.catacombs_seen[p]))


def free_cards(g, q):
    """Card types in q's hand that are neither part of the set q is building nor known to all."""
    hand = g.state.hand[q] - g.state.known[q]
    if g.current_player == q:
        hand -= g.state.build
    return [int(c) for c in np.flatnonzero(hand > 0)]


def text_view(g, p):
    """What a text seat shows player_p at this point, reading the log from the start: the view and its prompt."""
    view = TextSeat(p).view(PlayerView(g, p))
    return view, prompt(view)


def changed_segments(g, a, b):
    return [name for name, sl in g.obs_layout.slices.items() if not np.array_equal(a[sl], b[sl])]


def assert_invisible_to(g, edit, observers, also_render=True):
    """Apply `edit` to a clone; each observer's observation, table, log view, text view,
    determinisations (and rendering) stay the same."""
    h = g.clone()
    edit(h)
    assert not h.state_equals(g), "the edit must change the hidden state"
    assert (card_counts(h) == h.deck_counts).all(), "the edit must keep the cards accounted for"
    for p in observers:
        before, after = g.observe(p), h.observe(p)
        assert np.array_equal(before, after), (
            f"player_{p} observes a hidden change in {changed_segments(g, before, after)}"
        )
        assert g.table(p) == h.table(p), f"player_{p}'s table shows a hidden change"
        assert g.seat_log(p) == h.seat_log(p), f"player_{p}'s log shows a hidden change"
        assert text_view(g, p) == text_view(h, p), f"player_{p}'s text view shows a hidden change"
        assert_same_determinisations(g, h, p)
        if also_render:
            assert g.render(p) == h.render(p), f"player_{p}'s rendering shows a hidden change"
    return h


HIDDEN_PREDICATES = {
    "bid": lambda g: (
        g.decision()[0] in BIDS
        and any(g.state.committed[q] and g.state.res[q, MONEY] >= 1 for q in range(g.n) if q != g.current_player)
    ),
    "mars": lambda g: bool((g.state.mars_pairs.sum(axis=1) == 2).any()),
    "build": lambda g: g.state.build.sum() > 0 and g.n >= 2,
    "latrine": lambda g: (
        g.phase == 2
        and g.state.slot_card[g.board.slots["Latrine"].start] >= 0
        and not g.state.slot_up[g.board.slots["Latrine"].start]
    ),
    "pantheon_seen": lambda g: (
        g.state.slot_card[g.board.slots["Pantheon"].start] >= 0
        and not g.state.slot_up[g.board.slots["Pantheon"].start]
        and g.state.pantheon_seen[: g.n].any()
    ),
    "atrium": lambda g: (
        any(g.state.slot_card[s] >= 0 and not g.state.slot_up[s] for s in g.board.slots["Atrium Auctionorum"])
        and any(g.state.slot_up[s] for s in g.board.slots["Atrium Auctionorum"])
    ),
    "catacombs": lambda g: g.state.catacombs.sum() > 0 and not all(examined(g, p) for p in range(g.n)),
    "discard_hidden": lambda g: g.state.discard_hidden.sum() > 0,
    "takeover": lambda g: g.decision()[0] == Task.TAKEOVER_SET and g.state.build.sum() == 0,
    "sacrifice": lambda g: g.decision()[0] == Task.SACRIFICE,
    "three_players": lambda g: g.n >= 3 and g.round >= 2,
    "two_players": lambda g: g.n == 2 and g.round >= 2,
}


@pytest.fixture(scope="module")
def hidden_states():
    found = collect_states(range(60), HIDDEN_PREDICATES, per_predicate=3)
    for name, states in found.items():
        assert states, f"no random game reached a state for {name!r}"
    return found


# ------------------------------------------------------------------------------ hidden changes
def test_swapping_cards_between_other_hands_is_invisible(hidden_states):
    checked = 0
    for g in hidden_states["three_players"]:
        for p in range(g.n):
            q, r = [x for x in range(g.n) if x != p][:2]
            pairs = [(a, b) for a in free_cards(g, q) for b in free_cards(g, r) if a != b]
            if not pairs:
                continue
            a, b = pairs[0]

            def edit(h, q=q, r=r, a=a, b=b):
                h.state.hand[q, a] -= 1
                h.state.hand[q, b] += 1
                h.state.hand[r, b] -= 1
                h.state.hand[r, a] += 1

            h = assert_invisible_to(g, edit, [p])
            # the holders themselves do see it
            assert not np.array_equal(g.observe(q), h.observe(q))
            assert not np.array_equal(g.observe(r), h.observe(r))
            checked += 1
    assert checked >= 3


def test_swapping_an_opponent_card_with_the_draw_pile_is_invisible(hidden_states):
    checked = 0
    for g in hidden_states["two_players"] + hidden_states["three_players"]:
        p = g.current_player
        q = (p + 1) % g.n
        mine = free_cards(g, q)
        if not mine:
            continue
        c_in = draw_card_not(g, mine[:1])
        if c_in is None:
            continue
        h = assert_invisible_to(
            g, lambda h: swap_with_draw(h, h.state.hand[q], mine[0], c_in), [x for x in range(g.n) if x != q]
        )
        assert not np.array_equal(g.observe(q), h.observe(q))
        checked += 1
    assert checked >= 3


def test_reordering_the_draw_pile_is_invisible(hidden_states):
    checked = 0
    for states in hidden_states.values():
        for g in states:
            pile = draw_pile(g)
            if len(set(pile.tolist())) < 2:
                continue

            def edit(h):
                p = draw_pile(h)
                p[:] = p[::-1].copy() if not np.array_equal(p, p[::-1]) else np.roll(p, 1)

            assert_invisible_to(g, edit, range(g.n))
            checked += 1
    assert checked >= 10


def test_the_acting_seats_options_are_invisible_to_the_others(hidden_states):
    """Its legal moves tell the acting seat's hand (the cards it may discard, add to a set or
    play): a card of that hand swapped with the draw pile changes them, and no other seat's view."""
    changed = 0
    for states in hidden_states.values():
        for g in states:
            actor = g.current_player
            mine = free_cards(g, actor)
            c_in = draw_card_not(g, mine) if mine else None
            if c_in is None:
                continue

            def edit(h, actor=actor, c_out=mine[0], c_in=c_in):
                swap_with_draw(h, h.state.hand[actor], c_out, c_in)
                staging.resume(h)  # the decision's legal moves, from the new hand

            h = assert_invisible_to(g, edit, [p for p in range(g.n) if p != actor])
            changed += not np.array_equal(g.legal_mask(), h.legal_mask())
    assert changed >= 3, "too few states where the acting seat's options depend on its hand"


def test_own_hand_change_is_visible(hidden_states):
    checked = 0
    for g in hidden_states["three_players"] + hidden_states["two_players"]:
        for p in range(g.n):
            mine = free_cards(g, p)
            c_in = draw_card_not(g, mine[:1]) if mine else None
            if c_in is None:
                continue
            h = g.clone()
            swap_with_draw(h, h.state.hand[p], mine[0], c_in)
            assert not np.array_equal(g.observe(p), h.observe(p)), "a player must see its own hand"
            assert g.table(p)["players"][p]["hand"] != h.table(p)["players"][p]["hand"]
            assert text_view(g, p)[1] != text_view(h, p)[1], "a player's text view shows its own hand"
            hand = g.obs_layout.slices["hand"]
            assert np.array_equal(h.observe(p)[hand], h.state.hand[p]), "the hand segment is the hand"
            for q in range(g.n):
                if q != p:
                    assert np.array_equal(g.observe(q), h.observe(q))
            checked += 1
    assert checked >= 5


def test_face_down_discards_are_invisible(hidden_states):
    for g in hidden_states["discard_hidden"]:
        c_out = int(np.flatnonzero(g.state.discard_hidden)[0])
        c_in = draw_card_not(g, [c_out])
        assert c_in is not None
        assert_invisible_to(g, lambda h: swap_with_draw(h, h.state.discard_hidden, c_out, c_in), range(g.n))


def test_sealed_bids_stay_hidden_until_revealed(hidden_states):
    for g in hidden_states["bid"]:
        actor = g.current_player
        q = next(q for q in range(g.n) if q != actor and g.state.committed[q] and g.state.res[q, MONEY] >= 1)
        new_bid = 0 if g.state.bids[q] > 0 else 1

        def edit(h):
            h.state.bids[q] = new_bid

        h = assert_invisible_to(g, edit, [p for p in range(g.n) if p != q])
        # the bidder itself knows its own bid
        assert not np.array_equal(g.observe(q), h.observe(q))


def test_face_down_latrine_and_atrium_cards_are_invisible(hidden_states):
    for name, region in (("latrine", "Latrine"), ("atrium", "Atrium Auctionorum")):
        for g in hidden_states[name]:
            slot = next(s for s in g.board.slots[region] if g.state.slot_card[s] >= 0 and not g.state.slot_up[s])
            c_out = int(g.state.slot_card[slot])
            c_in = draw_card_not(g, [c_out])

            def edit(h, slot=slot, c_in=c_in, c_out=c_out):
                pile = draw_pile(h)
                pile[int(np.flatnonzero(pile == c_in)[0])] = c_out
                h.state.slot_card[slot] = c_in

            assert_invisible_to(g, edit, range(g.n))


def test_pantheon_card_visible_only_to_who_looked(hidden_states):
    for g in hidden_states["pantheon_seen"]:
        slot = g.board.slots["Pantheon"].start
        c_out = int(g.state.slot_card[slot])
        # a card of another faction, so that the change cannot be hidden by chance
        c_in = draw_card_not(g, [c_out // NUM_VALUES * NUM_VALUES + v for v in range(NUM_VALUES)])
        assert c_in is not None

        def edit(h):
            pile = draw_pile(h)
            pile[int(np.flatnonzero(pile == c_in)[0])] = c_out
            h.state.slot_card[slot] = c_in

        seen = [p for p in range(g.n) if g.state.pantheon_seen[p]]
        unseen = [p for p in range(g.n) if not g.state.pantheon_seen[p]]
        h = assert_invisible_to(g, edit, unseen)
        for p in seen:
            assert not np.array_equal(g.observe(p), h.observe(p)), "the player who looked knows the card"
            assert g.table(p)["regions"][PANTHEON]["cards"] != h.table(p)["regions"][PANTHEON]["cards"]


def test_unexamined_catacombs_are_invisible(hidden_states):
    for g in hidden_states["catacombs"]:
        c_out = int(np.flatnonzero(g.state.catacombs)[0])
        c_in = draw_card_not(g, [c_out])
        assert_invisible_to(
            g,
            lambda h: swap_with_draw(h, h.state.catacombs, c_out, c_in),
            [p for p in range(g.n) if not examined(g, p)],
        )


def test_other_players_field_of_mars_pairs_are_invisible(hidden_states):
    for g in hidden_states["mars"]:
        mars = g.board.spaces["Field of Mars"]
        i = int(np.flatnonzero(g.state.mars_pairs.sum(axis=1) == 2)[0])
        q = int(g.state.space_owner[mars[i]])
        old = [int(c) for c in np.repeat(np.arange(g.state.mars_pairs.shape[1]), g.state.mars_pairs[i])]
        pile = draw_pile(g).tolist()
        # another pair of one faction, from the draw pile
        new = None
        for f in range(7):
            cards = [c for c in pile if c // NUM_VALUES == f]
            if len(cards) >= 2 and sorted(cards[:2]) != sorted(old):
                new = cards[:2]
                break
        assert new is not None

        def edit(h):
            p = draw_pile(h)
            for c_in, c_out in zip(new, old):
                j = int(np.flatnonzero(p == c_in)[0])
                p[j] = c_out
                h.state.mars_pairs[i, c_out] -= 1
                h.state.mars_pairs[i, c_in] += 1

        h = assert_invisible_to(g, edit, [p for p in range(g.n) if p != q])
        assert not np.array_equal(g.observe(q), h.observe(q)), "a player knows its own pair"
        assert g.table(q)["players"][q]["pairs"] != h.table(q)["players"][q]["pairs"]


def test_another_players_unfinished_set_is_invisible(hidden_states):
    for g in hidden_states["build"]:
        actor = g.current_player
        c = int(np.flatnonzero(g.state.build)[0])

        def edit(h):
            h.state.build[c] -= 1

        h = assert_invisible_to(g, edit, [p for p in range(g.n) if p != actor], also_render=False)
        assert not np.array_equal(g.observe(actor), h.observe(actor))


def test_catacombs_purchase_is_hidden_from_an_earlier_examiner():
    """A player who examined the Catacombs does not learn which card a later player bought.

    Player Y examines the pile at "4" (or "3") and chooses; player Z then buys a card at a
    later space, and a third decision follows at space "2". Y saw the pile before Z's
    purchase only, so a world where Z bought another card of that pile is the same to Y:
    swapping Z's bought card with another card still in the pile must not change Y's
    observation (clarifications §4: what a player saw stays in its observation only).
    """
    checked = 0
    for seed in range(120):
        g = Game(3 + seed % 3, seed=seed, log=False)
        rng = np.random.default_rng(seed)
        looks = []  # who examined the pile this round, in order
        purchases = []  # (look, buyer, card, space)
        while not g.is_over and checked < 3:
            d = g.decision()
            if d[0] != Task.CATACOMBS_CHOICE:
                looks, purchases = [], []
                g.step(random_action(g, rng))
                continue
            actor = d[1]
            last_look = {q: t for t, q in enumerate([*looks, actor])}
            for t, buyer, card, space in purchases:
                others = [int(c) for c in np.flatnonzero(g.state.catacombs) if c != card]
                observers = [y for y, at in last_look.items() if at < t and y not in (actor, buyer)]
                if not others or not observers:
                    continue
                c_other = others[0]

                def edit(h, t=t, buyer=buyer, card=card, space=space, c_other=c_other):
                    h.state.hand[buyer, card] -= 1
                    h.state.hand[buyer, c_other] += 1
                    h.state.catacombs[c_other] -= 1
                    h.state.catacombs[card] += 1
                    h.state.catacombs_bought[space] = c_other
                    for q, at in last_look.items():  # who looked since saw the other card left
                        if at >= t:
                            h.state.catacombs_seen[q, c_other] -= 1
                            h.state.catacombs_seen[q, card] += 1

                assert_invisible_to(g, edit, observers, also_render=False)
                checked += 1
            pile = g.state.catacombs.copy()
            g.step(random_action(g, rng))
            bought = pile - g.state.catacombs
            if bought.any():
                purchases.append((len(looks), actor, int(np.flatnonzero(bought)[0]), d[2]))
            looks.append(actor)
        if checked >= 3:
            break
    assert checked >= 1, "no random game had a Catacombs purchase between two other examinations"


# ------------------------------------------------------------------------------ determinisation
@pytest.fixture(scope="module")
def varied_states(hidden_states):
    states = []
    for name in (
        "bid",
        "mars",
        "build",
        "pantheon_seen",
        "atrium",
        "catacombs",
        "three_players",
        "two_players",
        "discard_hidden",
        "latrine",
        "takeover",
        "sacrifice",
    ):
        states += hidden_states[name]
    return states


def test_determinize_keeps_the_observation_and_the_cards(varied_states):
    for k, g in enumerate(varied_states):
        before = g.to_dict()
        for p in range(g.n):
            d = g.determinize(p, np.random.default_rng(k * 10 + p))
            assert np.array_equal(d.observe(p), g.observe(p)), f"determinize({p}) changed what player_{p} sees"
            assert d.table(p) == g.table(p), f"player_{p}'s table shows what determinize({p}) re-dealt"
            assert (card_counts(d) == d.deck_counts).all()
            assert total_cards(d) == NUM_CARDS
            assert (d.state.hand[: g.n].sum(axis=1) == g.state.hand[: g.n].sum(axis=1)).all(), "hand sizes are public"
            assert (d.state.hand[p] == g.state.hand[p]).all()
            # every laid Field of Mars pair is still a pair of one faction
            for pair in d.state.mars_pairs:
                if pair.sum():
                    assert pair.sum() == 2 and len(set(np.flatnonzero(pair) // NUM_VALUES)) == 1
            for q in range(g.n):
                if d.state.committed[q] and d.decision() is not None and d.decision()[0] in BIDS:
                    assert 0 <= d.state.bids[q] <= d.state.res[q, MONEY]
            if g.current_player == p:
                assert np.array_equal(d.legal_mask(), g.legal_mask()), (
                    "the actor's options depend only on what it knows"
                )
        assert g.to_dict() == before, "determinize must not change the game"


def test_determinize_keeps_the_decision_waiting(varied_states):
    """The sampled world waits at the same decision, with at least one legal action."""
    for k, g in enumerate(varied_states):
        for p in range(g.n):
            for s in range(4):
                d = g.determinize(p, np.random.default_rng(1000 * k + 10 * p + s))
                assert d.decision() == g.decision(), (
                    f"determinize({p}) moved the game from {g.decision()} to {d.decision()}"
                )
                assert len(d.legal_actions()) >= 1


def test_determinize_samples_differ_by_rng_and_repeat_by_seed(varied_states):
    differ = 0
    for _k, g in enumerate(varied_states):
        p = g.current_player
        a = g.determinize(p, np.random.default_rng(1))
        b = g.determinize(p, np.random.default_rng(1))
        assert a.state_equals(b), "the same rng gives the same sample"
        c = g.determinize(p, np.random.default_rng(2))
        hidden_a = [a.state.hand[q].tolist() for q in range(g.n) if q != p] + [draw_pile(a).tolist()]
        hidden_c = [c.state.hand[q].tolist() for q in range(g.n) if q != p] + [draw_pile(c).tolist()]
        differ += hidden_a != hidden_c
    assert differ >= len(varied_states) - 1, "different rngs give different hidden states"


def test_determinize_resamples_opponent_hands(varied_states):
    changed = total = 0
    for g in varied_states:
        p = g.current_player
        if sum(int(g.state.hand[q].sum()) for q in range(g.n) if q != p) == 0:
            continue
        total += 1
        samples = [g.determinize(p, np.random.default_rng(s)) for s in range(4)]
        truth = [g.state.hand[q].tolist() for q in range(g.n) if q != p]
        changed += any([d.state.hand[q].tolist() for q in range(g.n) if q != p] != truth for d in samples)
    assert total > 10 and changed == total


def test_worlds_are_sampled_in_place_into_the_rows_of_an_array(varied_states):
    """A search's primitive: copies of the game in the rows of one array, each re-dealt in place
    from one generator of the engine's kind, with no Game per world. The first world is the one
    Game.determinize samples from the same draws; the generator moves on, so the next differ."""
    differ = 0
    for k, g in enumerate(varied_states):
        p = g.current_player
        rows = np.tile(g.handle.buffer, (3, 1))
        masks = np.zeros((3, g.A.size), dtype=np.int8)
        rng = sampler_words(np.random.default_rng(k), 1)[0]
        for row, mask in zip(rows, masks):
            worlds.determinize(row, g.handle.params, p, rng, mask)
        d = g.determinize(p, np.random.default_rng(k))
        assert np.array_equal(rows[0], d.handle.buffer) and np.array_equal(masks[0], d.legal_mask())
        hands = [State(g.state.layout, row).hand[: g.n] for row in rows]
        differ += not np.array_equal(hands[1], hands[2])
    assert differ >= len(varied_states) // 2


def test_determinized_games_play_to_the_end(varied_states):
    for k, g in enumerate(varied_states[::2]):
        d = g.determinize(g.current_player, np.random.default_rng(k))

        def check(h, a):
            assert (card_counts(h) == h.deck_counts).all()
            assert (h.state.res[:, MONEY] >= 0).all()

        play(d, np.random.default_rng(k), on_step=check)
        assert d.terminated or d.truncated


# ------------------------------------------------------------------------------ determinism
def test_same_seed_same_game():
    for n in (2, 3, 4, 5):
        a, b = Game(n, seed=77 + n), Game(n, seed=77 + n)
        assert a.state_equals(b) and a.to_dict() == b.to_dict()
        rng = np.random.default_rng(n)
        while not a.is_over:
            act = random_action(a, rng)
            a.step(act)
            b.step(act)
            assert a.state_equals(b)
        assert a.to_dict() == b.to_dict()
        assert b.is_over and a.winners() == b.winners()


def test_different_seeds_deal_differently():
    hands = {Game(4, seed=s).state.hand.tobytes() for s in range(10)}
    assert len(hands) == 10


def test_engine_ignores_the_global_random_state():
    for n in (2, 4):
        random.seed(0)
        np.random.seed(0)
        a = Game(n, seed=5)
        random.seed(123)
        np.random.seed(456)
        b = Game(n, seed=5)
        assert a.state_equals(b)
        rng = np.random.default_rng(0)
        steps = 0
        while not a.is_over:
            act = random_action(a, rng)
            a.step(act)
            random.random()
            np.random.random()
            if steps % 97 == 0:
                random.seed(steps)
                np.random.seed(steps)
            b.step(act)
            steps += 1
            if steps % 50 == 0:
                assert a.state_equals(b)
        assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("players, seed", [(5, 3), (4, 8), (3, 2), (2, 5)])
def test_determinize_works_for_every_seat_at_every_decision(players, seed):
    """Not only the seat acting: any seat's view can be sampled, in every decision of two rounds
    (Catacombs purchases by others included), and the sample shows that seat what it saw."""
    g = Game(players, seed=seed)
    rng = np.random.default_rng(seed)
    sampled = 0
    while not g.is_over and g.round <= 2:
        for q in range(g.n):
            d = g.determinize(q, np.random.default_rng(sampled))
            np.testing.assert_array_equal(d.observe(q), g.observe(q))
            assert d.decision() == g.decision()
            assert np.array_equal(Game.from_dict(d.to_dict()).legal_mask(), d.legal_mask())  # the world's own mask
            sampled += 1
        legal = g.legal_actions()
        g.step(int(legal[rng.integers(len(legal))]))
    assert sampled > 50


@pytest.mark.parametrize("seat", [9, 5, -1, 2.0, "1", True, None])
def test_a_seat_outside_the_game_is_named(seat):
    g = Game(5, seed=0)
    queries = (g.determinize, g.observe) if seat is None else (g.render, g.determinize, g.observe)
    for query in queries:  # render(None) is the full table
        with pytest.raises(IllegalActionError, match="seat"):
            query(seat)

"""Each seat's information state: what it remembers, and worlds sampled from it.

A determinisation for seat p is a function of what p knows and nothing else, so two games
that p cannot tell apart give p the same sampled worlds, every field and the log alike.
The sampled worlds are possible: the cards are all there, each card known to be in a hand
is in it, and every memory of the Catacombs pile fits the re-dealt pile and purchases.
Followers leave a region as soon as it is evaluated (rulebook, Phase 3).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same_determinisations, card_counts, collect_states, random_action

from tribune_env import Game, IllegalActionError
from tribune_env.data import NUM_CARD_TYPES, REGIONS
from tribune_env.tasks import Task

PLAYERS = (2, 3, 4, 5)


def _catacombs_with_history(g):
    """A Catacombs decision after another seat's purchase."""
    d = g.decision()
    return d[0] == Task.CATACOMBS_CHOICE and (g.state.catacombs_bought >= 0).any()


def _known_cards(g):
    return g.state.known[: g.n].sum() > 0 and g.round >= 2


STATES = {
    "setup": lambda g: g.decision()[0] == Task.SETUP_DISCARD and g.state.discard_hidden.any(),
    "catacombs": _catacombs_with_history,
    "mars": lambda g: bool((g.state.mars_pairs.sum(axis=1) == 2).any()),
    "bid": lambda g: g.decision()[0] in (Task.ATRIUM_BID, Task.CHARIOT_BID) and g.state.committed.any(),
    "known": _known_cards,
    "late": lambda g: g.round >= 4 and g.phase == 2,
}


@pytest.fixture(scope="module")
def states():
    found = collect_states(range(80), STATES, per_predicate=6)
    for name, games in found.items():
        assert len(games) >= 3, f"no random game reached {name!r}"
    return [g for games in found.values() for g in games]


def test_a_determinisation_depends_only_on_what_the_seat_knows(states):
    """A world sampled for p is a game p cannot tell from the true one: sampling from it gives
    the very worlds sampling from the truth gives (so no field, log included, carries the truth)."""
    for k, g in enumerate(states):
        for p in range(g.n):
            other = g.determinize(p, np.random.default_rng(1_000 + k))
            assert np.array_equal(other.observe(p), g.observe(p))
            assert_same_determinisations(g, other, p)


def test_the_log_of_a_determinisation_is_the_seats_view(states):
    for k, g in enumerate(states):
        for p in range(g.n):
            d = g.determinize(p, np.random.default_rng(k))
            assert d.log == g.seat_log(p)
            assert not [line for line, _ in _hidden_lines(d, d.log, p)]


def _hidden_lines(g, log, p):
    """(index, range name) of each line of `log` that tells another seat's hidden choice:
    a bid digit, a Catacombs card, a card added to a set or pair, a setup discard."""
    out, setup = [], True
    for i, line in enumerate(log):
        setup = setup and not line.startswith("round ")
        who, sep, label = line.partition(": ")
        if not sep or not who.startswith("player_") or who == f"player_{p}":
            continue
        try:
            kind = g.A.decode(g.A.action(label))[0]
        except IllegalActionError:  # not an action: "player_2: Veni, vidi, vici!"
            continue
        if kind in ("bid", "take", "add") or (kind == "discard" and setup):
            out.append((i, kind))
    return out


def _hidden_line_edits(g, p):
    """(index, new line, kind) for each line of the log that tells another seat's hidden choice,
    with another card or digit of the same kind."""
    edits = []
    for i, kind in _hidden_lines(g, g.log, p):
        who, _, label = g.log[i].partition(": ")
        other = next(lb for lb in (g.A.labels[a] for a in g.A.ranges[kind]) if lb != label)
        edits.append((i, f"{who}: {other}", kind))
    return edits


def test_another_seats_hidden_choices_in_the_log_are_invisible(states):
    """Another seat's sealed bid digits, setup discards, Catacombs purchase and set in the
    making, told otherwise in the log, change nothing the seat reads or samples."""
    edited = set()
    for g in states:
        for p in range(g.n):
            for i, line, kind in _hidden_line_edits(g, p):
                h = g.clone()
                h.log[i] = line
                assert h.seat_log(p) == g.seat_log(p)
                assert_same_determinisations(g, h, p, seeds=range(1))
                edited.add(kind)
    assert edited >= {"bid", "take", "add", "discard"}


# ------------------------------------------------------------------------------ possible worlds
def _check_possible(g, d, p):
    """Every consistency the rules imply holds in d, a world sampled for p from g."""
    s, t = d.state, g.state
    assert (card_counts(d) == d.deck_counts).all()
    assert (s.hand.sum(axis=1) == t.hand.sum(axis=1)).all(), "hand sizes are public"
    assert (s.known == t.known).all() and (s.hand >= s.known).all(), "a known card is in its hand"
    spaces = d.board.spaces["Catacombs"]
    assert s.catacombs.sum() == t.catacombs.sum()
    bought = np.bincount(s.catacombs_bought[s.catacombs_bought >= 0], minlength=NUM_CARD_TYPES)
    for q in range(d.n):
        memory = s.catacombs_seen[q]
        assert memory.sum() == t.catacombs_seen[q].sum(), "a memory keeps its size"
        if memory.any():
            assert (memory >= s.catacombs).all(), "a memory holds the pile it saw shrink since"
            assert (memory <= s.catacombs + bought).all(), "and what was bought since"
    for i, card in enumerate(s.catacombs_bought):
        if card >= 0:
            assert (t.catacombs_bought[i] >= 0) and s.hand[s.space_owner[spaces[i]], card] > 0
    assert np.array_equal(Game.from_dict(d.to_dict()).legal_mask(), d.legal_mask()), "the mask is the world's own"


@pytest.mark.parametrize("players", PLAYERS)
def test_determinisations_are_possible_worlds(players):
    checked = {"catacombs": 0, "mars": 0, "known": 0}
    for seed in range(40):
        g = Game(players, seed=seed)
        rng = np.random.default_rng(seed)
        while not g.is_over and g.round <= 6:
            kind = g.decision()[0]
            if kind in (Task.CATACOMBS_CHOICE, Task.MARS_PAIR, Task.SACRIFICE) or rng.random() < 0.03:
                for p in range(g.n):
                    _check_possible(g, g.determinize(p, rng), p)
                checked["catacombs"] += kind == Task.CATACOMBS_CHOICE and (g.state.catacombs_bought >= 0).any()
                checked["mars"] += bool(g.state.mars_pairs.any())
                checked["known"] += bool(g.state.known.any())
            g.step(random_action(g, rng))
        if min(checked.values()) >= 3:
            break
    assert min(checked.values()) >= 1, checked


def test_memories_are_sampled_not_copied():
    """A seat that never examined the pile cannot read it, nor another's purchase, from the
    other examiners' memories in its sampled worlds: they vary with the sample."""
    looked = 0
    for seed in range(200):
        g = Game(3 + seed % 3, seed=seed, log=False)
        rng = np.random.default_rng(seed)
        while not g.is_over and g.round <= 8:
            d = g.decision()
            if d[0] == Task.CATACOMBS_CHOICE and (g.state.catacombs_bought >= 0).any():
                stranger = next(
                    (
                        p
                        for p in range(g.n)
                        if not g.state.catacombs_seen[p].any()
                        and p not in g.state.space_owner[g.board.spaces["Catacombs"]]
                    ),
                    None,
                )
                if stranger is not None:
                    memories = {
                        g.determinize(stranger, np.random.default_rng(s)).state.catacombs_seen.tobytes()
                        for s in range(12)
                    }
                    assert len(memories) > 1, "every sampled world remembers the true pile"
                    looked += 1
            g.step(random_action(g, rng))
        if looked >= 3:
            break
    assert looked >= 1


# ------------------------------------------------------------------------------ known cards
@pytest.mark.parametrize("players", PLAYERS)
def test_known_cards_are_where_they_are_known_to_be(players):
    """In random games every known card is in its hand, in the true game and in every sampled
    world; each seat's observation shows every hand's known cards, seat-relative."""
    sampled = 0
    for seed in range(6):
        g = Game(players, seed=seed, log=False)
        rng = np.random.default_rng(seed)
        layout = g.obs_layout.slices["known_hands"]
        while not g.is_over:
            s = g.state
            assert (s.hand >= s.known).all()
            if rng.random() < 0.05:
                for p in range(g.n):
                    seen = g.observe(p)[layout].reshape(-1, NUM_CARD_TYPES)
                    for i in range(g.n):
                        assert (seen[i] == s.known[(p + i) % g.n]).all()
                    assert not seen[g.n :].any()
                    d = g.determinize(p, rng)
                    assert (d.state.hand >= s.known).all()
                    sampled += 1
            g.step(random_action(g, rng))
    assert sampled > 20


def test_a_curia_stack_is_known_to_be_in_its_takers_hand():
    """Curia example: the stack taken is face up, so every seat knows those cards are in the
    taker's hand; the card discarded for it leaves face up."""
    for seed in range(60):
        g = Game(3, seed=seed, log=False)
        rng = np.random.default_rng(seed)
        while not g.is_over:
            d = g.decision()
            if d[0] == Task.CURIA_CHOICE and g.state.known[d[1]].any() and g.state.curia[d[2]].any():
                p, stack = d[1], g.state.curia[d[2]].copy()
                paid = int(np.flatnonzero(g.state.known[p])[0])  # a card the others know it holds
                before, hand = g.state.known[p].copy(), g.state.hand[p].copy()
                g.step(g.A.DISCARD + paid)
                expected = before + stack
                expected[paid] -= 1
                hand += stack
                hand[paid] -= 1
                if (g.state.hand[p] != hand).any():  # the steps after the choice changed the hand too
                    continue
                assert (g.state.known[p] == expected).all()
                watcher = (p + 1) % g.n
                row = g.observe(watcher)[g.obs_layout.slices["known_hands"]].reshape(-1, NUM_CARD_TYPES)
                assert (row[(p - watcher) % g.n] == expected).all()
                return
            g.step(random_action(g, rng))
    pytest.fail("no random game reached a Curia choice by a seat holding known cards")


def test_a_face_down_pair_makes_known_cards_uncertain():
    """A Field of Mars pair leaves the hand face down: each known count drops by two."""
    for seed in range(200):
        g = Game(4, seed=seed, log=False)
        rng = np.random.default_rng(seed)
        while not g.is_over:
            d = g.decision()
            if d[0] == Task.MARS_PAIR and g.state.known[d[1]].any() and g.A.COMMIT in g.legal_actions():
                p, before = d[1], g.state.known[d[1]].copy()
                g.step(g.A.COMMIT)
                assert (g.state.known[p] == np.maximum(before - 2, 0)).all()
                return
            g.step(random_action(g, rng))
    pytest.fail("no random game laid a pair from a hand holding known cards")


# ------------------------------------------------------------------------------ followers return
REGION_OF_DECISION = {
    Task.LATRINE_CHOICE: "Latrine",
    Task.CURIA_CHOICE: "Curia",
    Task.ATRIUM_BID: "Atrium Auctionorum",
    Task.CATACOMBS_CHOICE: "Catacombs",
    Task.SACRIFICE: "Pantheon",
    Task.MARS_PAIR: "Field of Mars",
}


@pytest.mark.parametrize("players", PLAYERS)
def test_followers_return_once_their_region_is_evaluated(players):
    """Rulebook, Phase 3: "Once a given region has been evaluated, the followers in its follower
    spaces are returned to their owners immediately." At every Phase 3 decision the regions
    before the one deciding are empty, in the state, the observation and the table; it and the
    later ones keep their followers as placed."""
    seen = set()
    for seed in range(10):
        g = Game(players, seed=seed, log=False)
        rng = np.random.default_rng(seed)
        placed = None
        while not g.is_over:
            d = g.decision()
            region = REGION_OF_DECISION.get(d[0])
            if g.phase == 3 and region is not None:
                at = REGIONS.index(region)
                for r, name in enumerate(REGIONS):
                    spaces = g.board.spaces[name]
                    owners = g.state.space_owner[spaces]
                    if r < at:
                        assert (owners == -1).all(), f"followers still on the {name} during the {region}"
                        table = g.table(d[1])["regions"][r]
                        assert all(space["owner"] is None for space in table["spaces"]), name
                    else:
                        assert (owners == placed[spaces]).all()
                seen.add(region)
            if g.phase == 4:
                assert (g.state.space_owner == -1).all()
            action = random_action(g, rng)
            if g.phase == 2:
                placed = g.state.space_owner.copy()
                if g.A.PLACE <= action < g.A.FIELD:  # the last placement leads straight into Phase 3
                    name, space = g.board.place_targets[action - g.A.PLACE]
                    free = [s for s in g.board.spaces[name] if placed[s] < 0]
                    placed[free[0] if space is None else space] = d[1]
            g.step(action)
    assert {"Curia", "Catacombs", "Field of Mars"} <= seen

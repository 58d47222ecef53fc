"""The interface: action space, errors, configuration checks, observation layout,
forced decisions, rendering and the log."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import play, random_action

from tribune_env import (
    DEFAULT_DATA,
    ConfigError,
    Game,
    GameConfig,
    GameData,
    IllegalActionError,
    StateFormatError,
    VictoryCard,
    card_name,
)
from tribune_env.core.events import WIDTH
from tribune_env.data import DECK, FACTIONS, NUM_CARD_TYPES, OBJECTIVES
from tribune_env.engine import UNLOGGED_EVENTS
from tribune_env.errors import TribuneError
from tribune_env.tasks import Task


@pytest.fixture(scope="module")
def games():
    return {n: Game(n, seed=n) for n in (2, 3, 4, 5)}


# ------------------------------------------------------------------------------ action space
def test_action_space_does_not_depend_on_the_player_count(games):
    sizes = {n: g.A.size for n, g in games.items()}
    assert len(set(sizes.values())) == 1, sizes
    labels = {g.A.labels for g in games.values()}
    assert len(labels) == 1
    assert Game(3, point_variant=True, seed=0).A.labels == games[3].A.labels
    assert Game(5, "quinque-viri", seed=0).A.size == games[2].A.size
    for g in games.values():
        assert g.legal_mask().shape == (g.A.size,) and g.legal_mask().dtype == np.int8


def test_labels_are_unique_and_invertible(games):
    A = games[4].A
    assert len(A.labels) == A.size
    assert len(set(A.labels)) == A.size
    assert len({label.lower() for label in A.labels}) == A.size
    for a in range(A.size):
        label = A.label(a)
        assert isinstance(label, str) and label
        assert A.action(label) == a
        assert A.action(label.upper()) == a and A.action(f"  {label} ") == a
        assert A.label(np.int64(a)) == label


def test_decode_agrees_with_the_ranges(games):
    A = games[3].A
    covered = []
    for name, rng in A.ranges.items():
        assert len(rng) > 0, name
        covered.extend(rng)
        for i, a in enumerate(rng):
            assert A.decode(a) == (name, i)
    assert covered == list(range(A.size)), "ranges are contiguous, in order, and cover the space"
    # ranges sized by the data, never by the player count
    assert len(A.ranges["discard"]) == len(A.ranges["add"]) == len(A.ranges["take"]) == NUM_CARD_TYPES
    assert len(A.ranges["bid"]) == DEFAULT_DATA.bid_base
    assert len(A.ranges["chariot"]) == len(A.ranges["marker"]) == len(A.ranges["assassin"]) == len(FACTIONS)
    for code in range(NUM_CARD_TYPES):
        assert A.label(A.ranges["discard"][code]) == f"discard {card_name(code)}"


def test_action_space_rejects_unknown_actions_and_labels(games):
    A = games[2].A
    for bad in (-1, A.size, A.size + 7):
        with pytest.raises(IllegalActionError):
            A.label(bad)
        with pytest.raises(IllegalActionError):
            A.decode(bad)
    for bad in ("", "fly to the moon", "discard Senators 11"):
        with pytest.raises(IllegalActionError):
            A.action(bad)


# ------------------------------------------------------------------------------ illegal actions
def _positions():
    out = []
    for n in (2, 3, 4, 5):
        g = Game(n, seed=60 + n)
        rng = np.random.default_rng(n)
        for step in range(700):
            if g.is_over:
                break
            if step % 140 == 0:
                out.append(g.clone())
            g.step(random_action(g, rng))
    return out


@pytest.fixture(scope="module")
def positions():
    return _positions()


def test_illegal_actions_raise_and_change_nothing(positions):
    for g in positions:
        before = g.to_dict()
        mask = g.legal_mask().copy()
        obs = [g.observe(p).copy() for p in range(g.n)]
        illegal = [int(a) for a in np.flatnonzero(mask == 0)[:5]] + [-1, -100, g.A.size, g.A.size + 1, 10**9]
        bad_types = [
            1.0,
            float(np.flatnonzero(mask)[0]),
            str(int(np.flatnonzero(mask)[0])),
            None,
            True,
            np.bool_(True),
            [int(np.flatnonzero(mask)[0])],
            np.array([0]),
        ]
        for a in illegal + bad_types:
            with pytest.raises(IllegalActionError):
                g.step(a)
            assert g.to_dict() == before, f"the illegal action {a!r} changed the game"
            assert np.array_equal(g.legal_mask(), mask)
            for p in range(g.n):
                assert np.array_equal(g.observe(p), obs[p])
        with pytest.raises(IllegalActionError):
            g.step_label("fly to the moon")
        assert g.to_dict() == before
        # a legal action as a numpy integer is accepted like an int
        a = int(np.flatnonzero(mask)[-1])
        h = g.clone()
        g.step(np.int64(a))
        h.step(a)
        assert g.state_equals(h)


def test_illegal_action_error_names_the_action(positions):
    g = positions[1]
    a = int(np.flatnonzero(g.legal_mask() == 0)[0])
    with pytest.raises(IllegalActionError) as info:
        g.step(a)
    assert str(a) in str(info.value)


def test_step_label_plays_the_labelled_action(positions):
    for g in positions[:4]:
        a = int(g.legal_actions()[0])
        h = g.clone()
        g.step_label(g.A.label(a))
        h.step(a)
        assert g.state_equals(h)


def test_stepping_after_the_end_raises():
    g = Game(2, seed=8)
    play(g, np.random.default_rng(8))
    assert g.is_over and g.current_player is None and g.decision() is None
    assert not g.legal_mask().any() and len(g.legal_actions()) == 0
    before = g.to_dict()
    for a in (0, 1, g.A.size - 1, g.A.action("decline")):
        with pytest.raises(IllegalActionError):
            g.step(a)
    assert g.to_dict() == before


def test_error_classes():
    for cls in (ConfigError, IllegalActionError, StateFormatError):
        assert issubclass(cls, TribuneError) and issubclass(cls, ValueError)


# ------------------------------------------------------------------------------ configuration
def _deck(**changes):
    deck = dict(DECK)
    deck.update(changes)
    return deck


BAD_CONFIGS = {
    "one player": (dict(num_players=1), ["num_players"]),
    "six players": (dict(num_players=6), ["num_players"]),
    "players as text": (dict(num_players="3"), ["num_players"]),
    "players as bool": (dict(num_players=True), ["num_players"]),
    "players as float": (dict(num_players=3.0), ["num_players"]),
    "unknown victory card": (dict(num_players=3, victory_card="veni-vidi-visa"), ["veni-vidi-visa"]),
    "card not for four": (dict(num_players=4, victory_card="quinque-viri"), ["quinque-viri", "4"]),
    "card not for five": (dict(num_players=5, victory_card="alea-iacta-est-short"), ["alea-iacta-est-short", "5"]),
    "victory card of a wrong type": (dict(num_players=3, victory_card=42), ["victory_card", "victory card"]),
    "negative threshold": (
        dict(num_players=3, victory_card=lambda: VictoryCard("neg", -1, 2, 25, 4, {3: 3})),
        ["laurels"],
    ),
    "need above six": (dict(num_players=3, victory_card=lambda: VictoryCard("greedy", 8, 2, 25, 4, {3: 7})), ["need"]),
    "need zero": (dict(num_players=3, victory_card=lambda: VictoryCard("lazy", 8, 2, 25, 4, {3: 0})), ["need"]),
    "need for six players": (
        dict(num_players=3, victory_card=lambda: VictoryCard("six", 8, 2, 25, 4, {3: 3, 6: 3})),
        ["player count", "6"],
    ),
    "no player count": (
        dict(num_players=3, victory_card=lambda: VictoryCard("none", 8, 2, 25, 4, {})),
        ["need", "player count"],
    ),
    "unknown obligatory": (
        dict(num_players=3, victory_card=lambda: VictoryCard("odd", 8, 2, 25, 4, {3: 3}, "glory")),
        ["glory"],
    ),
    "threshold past the bound": (
        dict(num_players=2, victory_card=lambda: VictoryCard("x", 2**63, 1, 1, 1, {2: 2})),
        ["laurels", "100,000,000"],
    ),
    "threshold as bool": (
        dict(num_players=2, victory_card=lambda: VictoryCard("x", True, 1, 1, 1, {2: 2})),
        ["laurels"],
    ),
    "custom card not for count": (
        dict(num_players=4, victory_card=lambda: VictoryCard("three", 8, 2, 25, 4, {3: 3})),
        ["three", "4"],
    ),
    "deck missing a faction": (
        dict(num_players=3, data=GameData(deck={k: v for k, v in DECK.items() if k != "Senators"})),
        ["deck"],
    ),
    "deck with two leaders": (
        dict(num_players=3, data=GameData(deck=_deck(Legates=(0, 0, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6)))),
        ["leader", "Legates"],
    ),
    "deck with no leader": (
        dict(num_players=3, data=GameData(deck=_deck(Legates=(1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6)))),
        ["leader", "Legates"],
    ),
    "deck value eleven": (
        dict(num_players=3, data=GameData(deck=_deck(Senators=(0, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 11)))),
        ["Senators", "0..10"],
    ),
    "deck unknown faction": (dict(num_players=3, data=GameData(deck=_deck(Druids=(0, 1, 2)))), ["deck"]),
    "point variant with a card": (dict(num_players=3, victory_card="pax-romana", point_variant=True), ["variant"]),
    "round limit zero": (dict(num_players=3, round_limit=0), ["round_limit"]),
    "round limit negative": (dict(num_players=3, round_limit=-4), ["round_limit"]),
    "round limit as text": (dict(num_players=3, round_limit="10"), ["round_limit"]),
    "data of a wrong type": (dict(num_players=3, data={"deck": DECK}), ["GameData"]),
    "round limit past 10,000": (dict(num_players=3, round_limit=10_001), ["round_limit"]),
    "round limit of 10**30": (dict(num_players=3, round_limit=10**30), ["round_limit"]),
    "players as a 5,000-digit int": (dict(num_players=10**5000), ["num_players"]),
    "a coin bowl of 10**9": (dict(num_players=3, data=GameData(coin_bowl_first=10**9)), ["coin_bowl_first"]),
    "a negative Forum cost": (dict(num_players=3, data=GameData(forum_cost=-3)), ["forum_cost"]),
    "a negative Catacombs price": (dict(num_players=3, data=GameData(catacomb_prices=(4, 3, -2))), ["catacomb_prices"]),
    "a bid base of one": (dict(num_players=3, data=GameData(bid_base=1)), ["bid_base"]),
}


@pytest.mark.parametrize("name", sorted(BAD_CONFIGS))
def test_bad_configuration_raises_config_error(name):
    kwargs, words = BAD_CONFIGS[name]
    with pytest.raises(ConfigError) as info:  # a card is built here: it is checked where it is made
        Game(seed=0, **{k: v() if callable(v) else v for k, v in kwargs.items()})
    message = str(info.value)
    assert any(w.lower() in message.lower() for w in words), f"{message!r} does not name the problem"
    assert len(message) < 400, "the message never echoes a huge input"


def test_valid_configurations():
    assert Game(5, seed=0).victory_card.id in ("ave-caesar", "quinque-viri")
    assert Game(np.int64(3), seed=0).n == 3
    card = VictoryCard("three-only", 8, 2, 25, 4, {3: 3})
    assert Game(3, card, seed=0).victory_card == card
    g = Game(2, point_variant=True, seed=0)
    assert g.victory_card is None and g.point_variant
    assert Game(4, seed=0, round_limit=1).round_limit == 1
    g = Game(3, seed=0, data=dataclasses.replace(DEFAULT_DATA, coin_bowl_first=8))
    assert g.data.coin_bowl_first == 8


# ------------------------------------------------------------------------------ observation
def test_observation_size_and_layout(games):
    sizes = set()
    for n, g in games.items():
        L = g.obs_layout
        for p in range(n):
            o = g.observe(p)
            assert o.dtype == np.float32 and o.shape == (L.size,)
        sizes.add(L.size)
        # segments contiguous, in order, covering the vector; slices agree
        offset = 0
        names = []
        for name, start, shape in L.segments:
            assert start == offset, f"segment {name} starts at {start}, expected {offset}"
            size = int(np.prod(shape))
            assert size > 0
            assert L.slices[name] == slice(start, start + size)
            offset += size
            names.append(name)
        assert offset == L.size
        assert len(set(names)) == len(names) and set(names) == set(L.slices)
    sizes.add(Game(3, point_variant=True, seed=0).obs_layout.size)
    assert len(sizes) == 1, f"observation size depends on the configuration: {sizes}"


def test_observe_into_a_buffer_and_bad_players(games):
    g = games[4]
    buf = np.full(g.obs_layout.size, 7.0, dtype=np.float32)
    out = g.observe(1, out=buf)
    assert out is buf and np.array_equal(buf, g.observe(1))
    for bad in (-1, 4, 5, "0", 1.0, None, True):
        with pytest.raises(IllegalActionError):
            g.observe(bad)


def test_observation_is_seat_relative_and_shows_own_hand(games):
    for n, g in games.items():
        s = g.obs_layout.slices
        for p in range(n):
            o = g.observe(p)
            assert np.array_equal(o[s["hand"]], g.state.hand[p])
            assert o[s["seat_present"]].tolist() == [1.0] * n + [0.0] * (5 - n)
            assert o[s["money"]][0] == g.state.res[p, 0]
            assert o[s["hand_size"]][:n].tolist() == [float(g.state.hand[(p + i) % n].sum()) for i in range(n)]


def test_observation_shows_the_victory_card_or_the_marker_goal():
    for n in range(2, 6):
        config = GameConfig(num_players=n)
        for card_id in [*config.fitting_cards(), None]:
            g = Game(n, victory_card=card_id, point_variant=card_id is None, seed=n)
            s = g.obs_layout.slices
            o = g.observe(n - 1)
            card = DEFAULT_DATA.victory_cards.get(card_id)
            victory = [0] * 4 if card is None else [card.laurels, card.legions, card.denarii, card.markers]
            assert o[s["victory"]].tolist() == victory
            assert o[s["victory_need"]].tolist() == [0 if card is None else card.need[n]]
            obligatory = [0.0] * len(OBJECTIVES)
            if card is not None and card.obligatory:
                obligatory[OBJECTIVES.index(card.obligatory)] = 1.0
            assert o[s["obligatory"]].tolist() == obligatory
            assert o[s["point_variant"]].tolist() == [float(card is None)]
            assert o[s["marker_goal"]].tolist() == [DEFAULT_DATA.point_variant_markers[n] if card is None else 0]


# ------------------------------------------------------------------------------ forced decisions
def forced_by_what_only_the_player_knows(g) -> bool:
    """Whether the one legal action of the decision waiting follows from the player's secrets:
    its hand (no card to sacrifice, no pair, no winning set, which cards to discard) or the
    digits of its own bid (clarifications, "Forced decisions and secrecy")."""
    kind, p, entered, _ = g.decision()
    hand = int(g.state.hand[p].sum())
    if kind in (Task.SETUP_DISCARD, Task.CESURA_DISCARD):
        return g.legal_actions()[0] != g.A.COMMIT
    if kind == Task.SACRIFICE:
        return hand > 0
    if kind in (Task.MARS_PAIR, Task.TAKEOVER_SET):
        return hand >= 2
    return kind in (Task.ATRIUM_BID, Task.CHARIOT_BID) and entered > 0


def test_auto_forced_offers_a_single_action_only_when_its_reason_is_secret():
    privately_forced = 0
    for n in (2, 3, 4, 5):
        for seed in range(2):
            g = Game(n, seed=seed, log=False)
            rng = np.random.default_rng(seed)
            decisions = 0
            while not g.is_over:
                legal = g.legal_actions()
                if len(legal) == 1:
                    assert forced_by_what_only_the_player_knows(g), f"{g.decision()} offers only {legal}"
                    privately_forced += 1
                decisions += 1
                g.step(int(legal[rng.integers(len(legal))]))
            assert decisions > 50
    assert privately_forced > 0


def test_auto_forced_only_skips_forced_decisions():
    """Replaying with auto_forced=False, playing forced actions by hand, gives the same game."""
    for n in (2, 3, 4, 5):
        g = Game(n, seed=n)
        h = Game(n, seed=n, auto_forced=False)
        rng = np.random.default_rng(n)
        forced = 0

        def settle():
            """Play h's forced decisions by hand until it stands where g stands."""
            nonlocal forced
            while not h.is_over and g.to_dict()["arrays"] != h.to_dict()["arrays"]:
                assert len(h.legal_actions()) == 1, "h holds a real choice that g skipped"
                h.step(int(h.legal_actions()[0]))
                forced += 1

        settle()
        while not g.is_over:
            assert not h.is_over and h.decision() == g.decision()
            assert np.array_equal(g.legal_mask(), h.legal_mask())
            a = random_action(g, rng)
            g.step(a)
            h.step(a)
            settle()
        assert h.is_over and forced > 0
        dg, dh = g.to_dict(), h.to_dict()
        assert dg["config"] == {**dh["config"], "auto_forced": True}
        assert dg["arrays"] == dh["arrays"] and dg.get("rng") == dh.get("rng")
        assert g.winners() == h.winners()


# ------------------------------------------------------------------------------ render and log
def test_render_mentions_every_player_and_hides_other_hands(positions):
    for g in positions:
        full = g.render()
        assert isinstance(full, str)
        for p in range(g.n):
            assert f"player_{p}" in full
        for viewer in range(g.n):
            text = g.render(viewer)
            assert isinstance(text, str)
            for p in range(g.n):
                assert f"player_{p}" in text
                size = int(g.state.hand[p].sum())
                shown_as_count = f"hand: {size} cards"
                if p != viewer:
                    assert shown_as_count in text or size == 0
            own = [card_name(c) for c in np.flatnonzero(g.state.hand[viewer])]
            assert all(name in text for name in own), "the viewer sees its own cards"
        # without a viewer every hand is shown
        for p in range(g.n):
            assert all(card_name(c) in full for c in np.flatnonzero(g.state.hand[p]))


def test_render_of_a_finished_game_tells_the_outcome():
    outcomes = set()
    for seed in range(12):
        g = Game(3, seed=seed, round_limit=12, log=False)
        play(g, np.random.default_rng(seed))
        text = g.render().lower()
        if g.terminated:
            assert "won" in text or "winner" in text
            winners = g.winners()
            assert winners and all(f"player_{p}" in text.split("game over")[-1] for p in winners)
        else:
            assert "truncat" in text
        outcomes.add(g.terminated)
    assert outcomes == {True, False}, "both endings occur with a 12-round limit"


def test_log_is_a_growing_list_of_strings():
    g = Game(3, seed=4)
    assert isinstance(g.log, list) and g.log and all(isinstance(x, str) for x in g.log)
    rng = np.random.default_rng(4)
    while not g.is_over:
        before = list(g.log)
        g.step(random_action(g, rng))
        assert g.log[: len(before)] == before, "the log only grows"
        assert len(g.log) > len(before), "every action is logged"
        assert all(isinstance(x, str) for x in g.log[len(before) :])
    quiet = Game(3, seed=4, log=False)
    assert quiet.log is None
    quiet.step(random_action(quiet, np.random.default_rng(0)))
    assert quiet.log is None


def test_games_without_a_log_share_an_event_buffer_that_nothing_writes():
    """A game kept without a log spares itself the engine's 112 KB event buffer: every such game,
    its clones and their determinisations (which take a seat's reading of the log) share one
    buffer with room for no event, and whole games leave it as it was."""
    games = [Game(n, seed=n, log=False) for n in range(2, 6)]
    logged = Game(3, seed=4)
    assert logged._events.shape[0] > 1 and all(g._events is UNLOGGED_EVENTS for g in games)
    rng = np.random.default_rng(5)
    for g in games:
        world = g.determinize(g.current_player, rng)
        assert world._events is UNLOGGED_EVENTS and g.clone()._events is UNLOGGED_EVENTS
        for game in (g, world):
            play(game, rng)
    assert not UNLOGGED_EVENTS.any() and UNLOGGED_EVENTS.shape == (1, WIDTH)
    assert logged.clone()._events is not logged._events

"""Copies and saved games: clone and JSON round trips, independence, malformed input.

A clone or a loaded game must equal the original (state, generator, observations, legal
actions, log), be independent of it, and continue exactly like it. Loading a malformed
or inconsistent saved state raises StateFormatError naming the problem, and never
returns a half-built game.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from conftest import play, random_action

from tribune_env import ConfigError, Game, GameData, IllegalActionError, StateFormatError, VictoryCard
from tribune_env.data import VESTALS
from tribune_env.errors import TribuneError
from tribune_env.saving import card_counts
from tribune_env.saving.limits import MAX_TEXT
from tribune_env.state import MONEY, Meta
from tribune_env.tasks import Task


def assert_same(g: Game, h: Game):
    assert g.state_equals(h) and h.state_equals(g)
    assert g.config() == h.config()
    assert g.is_over == h.is_over and g.current_player == h.current_player
    assert g.decision() == h.decision()
    assert np.array_equal(g.legal_mask(), h.legal_mask())
    for p in range(g.n):
        assert np.array_equal(g.observe(p), h.observe(p))
    assert g.log == h.log
    assert g.scores().tolist() == h.scores().tolist()
    assert g.winners() == h.winners()


@pytest.fixture(scope="module")
def saved_positions():
    """(game, its JSON) at many points of random games, 2-5 players."""
    out = []
    for n in (2, 3, 4, 5):
        g = Game(n, seed=40 + n)
        rng = np.random.default_rng(n)
        step = 0
        while not g.is_over:
            if step % 61 == 0 or step < 12:
                out.append(g.clone())
            g.step(random_action(g, rng))
            step += 1
        out.append(g)
    return out


def test_clone_and_json_round_trip_are_equal(saved_positions):
    for g in saved_positions:
        c = g.clone()
        text = g.to_json()
        j = Game.from_json(text)
        assert_same(g, c)
        assert_same(g, j)
        assert j.to_json() == text, "saving a loaded game gives the same text"
        assert Game.from_json(json.loads(text)).state_equals(g), "a parsed dict loads too"


def test_clone_is_independent(saved_positions):
    for k, g in enumerate(saved_positions):
        if g.is_over:
            continue
        original = g.clone()
        before = original.to_json()
        # changing the copy leaves the original alone ...
        c = original.clone()
        c.step(random_action(c, np.random.default_rng(k)))
        c.state.hand[:] = 0
        c.state.res[:] = 7
        assert original.to_json() == before, "changing the clone changed the original"
        # ... and stepping the original leaves the copy alone
        d = original.clone()
        original.step(random_action(original, np.random.default_rng(k)))
        assert d.to_json() == before, "stepping the original changed the clone"
        assert not original.state_equals(d)


def test_loaded_game_is_independent(saved_positions):
    for k, g in enumerate(saved_positions):
        if g.is_over:
            continue
        original = g.clone()
        before = original.to_json()
        j = Game.from_json(before)
        j.step(random_action(j, np.random.default_rng(k)))
        assert original.to_json() == before, "stepping the loaded game changed the original"
        j2 = Game.from_json(before)
        original.step(random_action(original, np.random.default_rng(k)))
        assert j2.to_json() == before, "stepping the original changed the loaded game"


@pytest.mark.parametrize("copier", ["clone", "json"])
def test_copies_continue_identically_to_the_end(copier):
    """The generator state is copied: the same actions give the same future (draws, reshuffles)."""
    reshuffled = False
    for n in (2, 3, 4, 5):
        g = Game(n, seed=900 + n)
        rng = np.random.default_rng(n)
        for _ in range(150 * n):
            g.step(random_action(g, rng))
        h = g.clone() if copier == "clone" else Game.from_json(g.to_json())
        start_reshuffles = int(g.state.meta[Meta.RESHUFFLES])
        while not g.is_over:
            a = random_action(g, rng)
            g.step(a)
            h.step(a)
        assert h.is_over
        assert g.state_equals(h)
        assert g.to_json() == h.to_json()
        assert g.winners() == h.winners() and g.terminated == h.terminated
        reshuffled |= int(g.state.meta[Meta.RESHUFFLES]) > start_reshuffles
    assert reshuffled, "some game reshuffled the discards after the copy"


def test_round_trip_of_a_finished_game():
    g = Game(3, seed=3)
    play(g, np.random.default_rng(3))
    j = Game.from_json(g.to_json())
    assert j.is_over and j.terminated == g.terminated and j.truncated == g.truncated
    assert j.winners() == g.winners() and j.current_player is None
    assert not j.legal_mask().any()
    with pytest.raises(IllegalActionError):
        j.step(0)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(num_players=2, point_variant=True),
        dict(num_players=4, victory_card="pax-romana", auto_forced=False),
        dict(num_players=3, round_limit=7, log=False),
        dict(num_players=5, victory_card=VictoryCard("mine", 5, 2, 20, 3, {3: 3, 5: 2}, "favor", "short")),
    ],
)
def test_round_trip_keeps_the_configuration(kwargs):
    g = Game(seed=11, **kwargs)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if g.is_over:
            break
        g.step(random_action(g, rng))
    j = Game.from_json(g.to_json())
    assert j.config() == g.config()
    assert j.victory_card == g.victory_card
    assert j.point_variant == g.point_variant and j.round_limit == g.round_limit
    assert j.auto_forced == g.auto_forced
    assert (j.log is None) == (g.log is None)
    assert_same(g, j)


# ------------------------------------------------------------------------------ malformed input
@pytest.fixture(scope="module")
def saved():
    g = Game(3, seed=21)
    rng = np.random.default_rng(21)
    for _ in range(400):
        g.step(random_action(g, rng))
    assert not g.is_over
    return g.to_json()


def top_task(d):
    n = d["arrays"]["meta"][Meta.N_TASKS]
    return d["arrays"]["tasks"][n - 1]


def set_meta(name, value):
    def edit(d):
        d["arrays"]["meta"][Meta[name.upper()]] = value

    return edit


def bad_rng(kind):
    """Corrupt the generator state, wherever the format keeps it."""

    def edit(d):
        if "rng" in d["arrays"]:
            d["arrays"]["rng"] = [0] * len(d["arrays"]["rng"]) if kind == "zero" else "not a generator"
        elif kind == "zero":
            d["rng"] = {"bit_generator": "PCG64", "state": {"state": -1, "inc": -1}, "has_uint32": 0, "uinteger": 0}
        else:
            d["rng"] = "not a generator"

    return edit


def one_more_card(d):
    d["arrays"]["hand"][0][0] += 1


def negative_money(d):
    d["arrays"]["res"][1][MONEY] = -3


def fractional_money(d):
    d["arrays"]["res"][1][MONEY] = 12.5


def wrong_shape(d):
    d["arrays"]["hand"] = d["arrays"]["hand"][:-1]


def marker_count_mismatch(d):
    d["arrays"]["res"][0][5] += 1


MALFORMED = {
    # name: (edit of the parsed dict, words one of which the message must contain)
    "wrong format tag": (lambda d: d.__setitem__("format", "chess-state"), ["format", "tribune"]),
    "no format tag": (lambda d: d.pop("format"), ["format", "tribune"]),
    "wrong version": (lambda d: d.__setitem__("version", 99), ["version"]),
    "missing config": (lambda d: d.pop("config"), ["config"]),
    "missing arrays": (lambda d: d.pop("arrays"), ["arrays"]),
    "arrays not a mapping": (lambda d: d.__setitem__("arrays", 5), ["arrays"]),
    "missing array": (lambda d: d["arrays"].pop("hand"), ["hand"]),
    "unknown array": (lambda d: d["arrays"].__setitem__("secret", [1]), ["secret", "unknown"]),
    "wrong shape": (wrong_shape, ["hand", "shape"]),
    "non-numeric array": (lambda d: d["arrays"].__setitem__("res", "lots"), ["res", "numeric"]),
    "fractional money": (fractional_money, ["res", "integer", "int"]),
    "card accounting broken": (one_more_card, ["accounting", "card"]),
    "card missing": (
        lambda d: d["arrays"]["hand"][0].__setitem__(
            int(np.flatnonzero(d["arrays"]["hand"][0])[0]),
            d["arrays"]["hand"][0][int(np.flatnonzero(d["arrays"]["hand"][0])[0])] - 1,
        ),
        ["accounting", "card"],
    ),
    "negative money": (negative_money, ["money", "negative"]),
    "tile out of range": (lambda d: d["arrays"]["res"][0].__setitem__(3, 5), ["tile"]),
    "card code too large": (lambda d: d["arrays"]["draw"].__setitem__(0, 500), ["draw", "card"]),
    "negative card code": (lambda d: d["arrays"]["draw"].__setitem__(0, -5), ["draw", "card"]),
    "slot card code too large": (lambda d: d["arrays"]["slot_card"].__setitem__(0, 300), ["slot", "card"]),
    "marker count": (marker_count_mismatch, ["marker"]),
    "unknown task kind": (lambda d: top_task(d).__setitem__(0, 999), ["task"]),
    "empty task stack": (set_meta("n_tasks", 0), ["task"]),
    "phase out of range": (set_meta("phase", 17), ["phase"]),
    "temporary favor with a stranger": (set_meta("temp_favor", 7), ["temp_favor", "favor"]),
    "status out of range": (set_meta("status", 5), ["status"]),
    "generator all zero": (bad_rng("zero"), ["generator", "rng"]),
    "generator not numbers": (bad_rng("text"), ["generator", "rng"]),
    "bad player count": (lambda d: d["config"].__setitem__("num_players", 9), ["num_players"]),
    "bad victory card": (lambda d: d["config"].__setitem__("victory_card", {"id": "x"}), ["victory card", "laurels"]),
    "config missing a key": (lambda d: d["config"].pop("round_limit"), ["round_limit", "config"]),
    "log not strings": (lambda d: d.__setitem__("log", [1, 2]), ["log"]),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_saved_state_raises_state_format_error(saved, name):
    edit, words = MALFORMED[name]
    d = json.loads(saved)
    edit(d)
    text = json.dumps(d)
    with pytest.raises(StateFormatError) as info:
        Game.from_json(text)
    message = str(info.value).lower()
    assert any(w.lower() in message for w in words), f"message {message!r} does not name the problem"
    # a parsed dict fails the same way and is not changed by the attempt
    kept = copy.deepcopy(d)
    with pytest.raises(StateFormatError):
        Game.from_json(d)
    assert d == kept
    # the original text still loads: nothing global was left half-changed
    assert Game.from_json(saved).to_json() == saved


def test_queued_decision_of_an_absent_seat_is_rejected():
    """A setup discard queued for player_4 of a three-player game cannot be loaded.

    (Accepting it loads a game in which a seated player silently never discards.)
    """
    g = Game(3, seed=21)
    d = json.loads(g.to_json())
    n = d["arrays"]["meta"][Meta.N_TASKS]
    tasks = d["arrays"]["tasks"]
    below = [i for i in range(n - 1) if tasks[i][0] == Task.SETUP_DISCARD]  # under the top
    assert below
    tasks[below[0]][1] = 4
    with pytest.raises(StateFormatError) as info:
        Game.from_json(json.dumps(d))
    message = str(info.value).lower()
    assert any(w in message for w in ("task", "seat", "player")), message


@pytest.mark.parametrize(
    "text", ["", "{", "not json", "[1, 2, 3]", "null", "42", '"tribune"', b"\xff\xfe\x00", b'{"format": 1']
)
def test_not_a_saved_game(text):
    with pytest.raises(StateFormatError):
        Game.from_json(text)


def test_state_format_error_is_a_value_error():
    assert issubclass(StateFormatError, ValueError) and issubclass(StateFormatError, TribuneError)


def test_loading_never_returns_a_half_built_game(saved):
    """Random single-entry corruptions either fail with StateFormatError or load a usable game."""
    rng = np.random.default_rng(5)
    base = json.loads(saved)
    names = sorted(base["arrays"])
    loaded = rejected = 0
    for _trial in range(300):
        d = copy.deepcopy(base)
        name = names[rng.integers(len(names))]
        flat = np.array(d["arrays"][name], dtype=np.int64)
        if flat.size == 0:
            continue
        i = int(rng.integers(flat.size))
        flat.flat[i] = int(rng.integers(-3, 14))
        d["arrays"][name] = flat.tolist()
        try:
            g = Game.from_json(json.dumps(d))
        except StateFormatError:
            rejected += 1
            continue
        except Exception as exc:  # pragma: no cover - reported as a failure
            pytest.fail(f"corrupting {name}[{i}] raised {type(exc).__name__}: {exc}")
        loaded += 1
        # a loaded game is whole: accounted, observable, savable, and offers an action
        assert (card_counts(g) == g.deck_counts).all()
        for p in range(g.n):
            assert g.observe(p).shape == (g.obs_layout.size,)
            assert isinstance(g.render(p), str)
        assert Game.from_json(g.to_json()).state_equals(g)
        if not g.is_over:
            assert g.legal_mask().any()
    assert rejected > 0 and loaded > 0


# ------------------------------------------------------------------------------ issue 16: files that broke the engine
# One test per class of file a fuzzer found crashing the loader, accepted although no
# game can be in it, or accepted and then breaking the rules in play.
def _rejected(source, *words):
    """Loading `source` raises StateFormatError whose (short) message names one of `words`."""
    with pytest.raises(StateFormatError) as info:
        Game.from_json(source)
    message = str(info.value)
    assert len(message) < 300, "the message never echoes the input"
    assert any(w.lower() in message.lower() for w in words), message
    return message


@pytest.fixture(scope="module")
def finished():
    g = Game(3, seed=3, log=False)
    play(g, np.random.default_rng(3))
    assert g.terminated
    return g.to_json()


def test_a_round_limit_too_large_for_c(saved):
    """A round limit of 10**30 raised OverflowError building the engine's parameters."""
    d = json.loads(saved)
    d["config"]["round_limit"] = 10**30
    _rejected(json.dumps(d), "round_limit")
    d["config"]["round_limit"] = 10_001
    _rejected(json.dumps(d), "round_limit")
    for limit in (10**30, 10_001, 0):
        with pytest.raises(ConfigError, match="round_limit"):
            Game(3, round_limit=limit)
    assert Game(3, round_limit=10_000, seed=1).round_limit == 10_000


def _spy_on_json_loads(monkeypatch) -> list:
    """Texts json.loads is given from now on (it still parses them)."""
    seen, loads = [], json.loads
    monkeypatch.setattr(json, "loads", lambda text, *a, **k: (seen.append(text), loads(text, *a, **k))[1])
    return seen


def test_a_5000_digit_integer_literal(saved, monkeypatch):
    """int() of a 5,000-digit literal raised ValueError inside json.loads; it never gets there now."""
    parsed = _spy_on_json_loads(monkeypatch)
    text = saved.replace('"round_limit":50', '"round_limit":' + "7" * 5000)
    assert text != saved
    _rejected(text, "digits", "number")
    _rejected(saved.replace('"meta":[', '"meta":[' + "1" * 41 + ","), "digits", "number")
    assert not parsed, "json.loads never sees the literal"


def test_deep_nesting(saved, monkeypatch):
    """100,000 nested arrays or objects raised RecursionError; the depth is counted before parsing."""
    parsed = _spy_on_json_loads(monkeypatch)
    for opener, closer in (("[", "]"), ('{"a":', "}")):
        deep = opener * 100_000 + "0" + closer * 100_000
        assert '"log":[' in saved
        _rejected(saved.replace('"log":[', '"log":[' + deep + ",", 1), "nest")
        _rejected(deep, "nest")
        _rejected(deep.encode("utf-16"), "nest")
    assert not parsed
    monkeypatch.undo()
    nested = [0]
    for _ in range(100_000):  # the same as Python data: walked without recursion
        nested = [nested]
    d = json.loads(saved)
    d["log"] = nested
    _rejected(d, "nest")


def test_a_round_past_the_round_limit(saved):
    d = json.loads(saved)
    d["arrays"]["meta"][Meta.ROUND] = d["config"]["round_limit"] + 1
    _rejected(json.dumps(d), "round")


def test_temporary_favor_without_the_vestal_virgins(saved):
    d = json.loads(saved)
    controller = d["arrays"]["controller"][VESTALS]
    d["arrays"]["meta"][Meta.TEMP_FAVOR] = (controller + 1) % 3
    _rejected(json.dumps(d), "temp_favor")


def test_declared_disagreeing_with_n_declared(saved):
    d = json.loads(saved)
    assert d["arrays"]["meta"][Meta.N_DECLARED] == 0
    d["arrays"]["declared"][1] = 0
    _rejected(json.dumps(d), "declared")
    d["arrays"]["meta"][Meta.N_DECLARED] = 2
    _rejected(json.dumps(d), "declared")


def test_winners_while_the_game_runs(saved):
    d = json.loads(saved)
    d["arrays"]["winner"][0] = 1
    _rejected(json.dumps(d), "winner")


def test_a_finished_game_without_a_winner(finished):
    d = json.loads(finished)
    d["arrays"]["winner"] = [0] * 5
    _rejected(json.dumps(d), "winner")
    d = json.loads(finished)
    d["arrays"]["meta"][Meta.STATUS] = 2  # "truncated" before its round limit, with a winner
    _rejected(json.dumps(d), "truncated")


def test_an_altered_bottom_of_the_task_stack(saved):
    """With the bottom task changed the stack pointer ran below zero once the round ended;
    the compiled engine then read and wrote meta as task rows."""
    base = json.loads(saved)
    n = base["arrays"]["meta"][Meta.N_TASKS]
    for bottom in ([Task.THERMAE, 0, 0, 0], [Task.PLACE, 0, 0, 0], [Task.ROUND_START, 0, 0, 0], [Task.DRAW, 1, 0, 1]):
        d = copy.deepcopy(base)
        d["arrays"]["tasks"][0] = bottom
        _rejected(json.dumps(d), "task")
    d = copy.deepcopy(base)  # the bottom task dropped
    d["arrays"]["tasks"] = d["arrays"]["tasks"][1:] + [[0, 0, 0, 0]]
    d["arrays"]["meta"][Meta.N_TASKS] = n - 1
    _rejected(json.dumps(d), "task")


def test_a_deal_onto_a_filled_slot():
    """A DEAL still on the stack overwrote the card in its slot, destroying it."""
    g = Game(5, seed=0, log=False)
    rng = np.random.default_rng(0)
    while not (g.phase == 1 and g.decision()[0] == Task.CESURA_DISCARD):
        g.step(random_action(g, rng))
    d = json.loads(g.to_json())
    Game.from_json(json.dumps(d))
    deals = [t for t in d["arrays"]["tasks"][: d["arrays"]["meta"][Meta.N_TASKS]] if t[0] == Task.DEAL]
    slot = deals[0][1]
    assert d["arrays"]["slot_card"][slot] == -1
    seat = next(
        p
        for p in range(5)
        if sum(d["arrays"]["hand"][p])
        and not any(
            t[0] == Task.CESURA_DISCARD and t[1] == p for t in d["arrays"]["tasks"][: d["arrays"]["meta"][Meta.N_TASKS]]
        )
    )
    code = next(c for c, x in enumerate(d["arrays"]["hand"][seat]) if x)
    d["arrays"]["hand"][seat][code] -= 1  # moved, so every card is still accounted for
    d["arrays"]["slot_card"][slot] = code
    _rejected(json.dumps(d), "deal", "slot")


def test_a_colosseum_at_the_int32_limit(saved):
    """2**31 - 1 in the Colosseum wrapped to -2**31 a few steps later; the game's own save then failed."""
    for value in (2**31 - 1, 10**8 + 1, 500):
        d = json.loads(saved)
        d["arrays"]["meta"][Meta.COLOSSEUM] = value
        _rejected(json.dumps(d), "colosseum")
    d = json.loads(saved)
    d["arrays"]["res"][0][MONEY] = 2**31 - 1
    _rejected(json.dumps(d), "money")


def test_messages_stay_short_for_huge_inputs(saved):
    d = json.loads(saved)
    d["version"] = "v" * 1_000_000
    _rejected(json.dumps(d), "version")
    d = json.loads(saved)
    d["config"]["victory_card"]["id"] = "x" * 100_000
    _rejected(json.dumps(d), "victory card")
    d = json.loads(saved)
    d["arrays"]["res"][0][0] = 10**5000  # as Python data: never formatted
    _rejected(d, "res", "int32")
    _rejected(" " * (MAX_TEXT + 1), "characters")


def test_game_numbers_that_could_overflow_before_the_round_limit():
    """Saves of a game whose numbers let money pass 10**8 by its round limit are refused."""
    data = GameData(coin_bowl_first=1000, coin_bowl_later=1000, scipio_denarii=1000, vestal_denarii=1000)
    g = Game(2, seed=1, data=data, round_limit=10_000, log=False)
    with pytest.raises(StateFormatError, match="game numbers"):
        Game.from_json(g.to_json(), data=data)
    g = Game(2, seed=1, data=data, round_limit=4, log=False)  # a few thousand a round, 4 rounds: fine
    assert Game.from_json(g.to_json(), data=data).state_equals(g)


@pytest.mark.parametrize("data", [None, 5, 2.5, "", [1], {"format": 1}, object()])
def test_python_data_that_is_not_a_saved_game(data):
    _rejected(data, "not a saved tribune game", "JSON")


def test_the_compiled_engine_raises_on_a_state_that_slipped_past_the_loader():
    """Defence in depth: the task stack and every index are checked in compiled code."""
    g = Game(3, seed=0)
    g.state.meta[Meta.N_TASKS] = 0  # an empty stack in a running game
    with pytest.raises(IndexError):
        g.resume()
    g = Game(3, seed=0)
    g.state.meta[Meta.N_TASKS] = len(g.state.tasks) + 5  # a stack pointer past the stack
    with pytest.raises(IndexError):
        g.resume()
    g = Game(3, seed=0)
    g.state.slot_card[0] = 1_000_000  # a card code far outside the deck
    g.state.slot_up[0] = 1
    with pytest.raises(IndexError):
        g.observe(0)


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('"round_limit":50', '"round_limit":-Infinity', "holds -Infinity at config.round_limit"),
        ('"round_limit":50', '"round_limit":NaN', "holds NaN at config.round_limit"),
        ('"format":', '"version":2,"format":', "repeats the key 'version'"),
    ],
)
def test_a_saved_file_error_names_the_key_at_fault(old, new, message):
    text = Game(2, seed=0).to_json()
    assert old in text
    with pytest.raises(StateFormatError, match=message):
        Game.from_json(text.replace(old, new, 1))

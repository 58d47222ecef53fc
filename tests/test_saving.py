"""Saving a game as its configuration, seed and moves, and loading it by replaying them.

Round trips at several points of games of 2-5 players, with every victory card and the
point variant; what the engine keeps (its seed, its moves, shared with clones); the games
that cannot be saved as moves; and each way a record can be wrong, refused by name.
tests/test_fuzz_saving.py mutates records at random.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import numpy as np
import pytest
from conftest import play, random_action

from tribune_env import DEFAULT_DATA, VICTORY_CARDS, ConfigError, Game, StateFormatError, TribuneError, saving
from tribune_env.kernel import MAX_SEED
from tribune_env.saving import limits
from tribune_env.staging import push as staged

CARDS = [
    (n, card)
    for n in range(2, 6)
    for card in [None, *sorted(VICTORY_CARDS)]
    if card is None or n in VICTORY_CARDS[card].need
]


def played(n=3, seed=1, steps=None, **kw) -> Game:
    """A game of random legal moves: `steps` of them, or to its end."""
    g = Game(n, seed=seed, **kw)
    rng = np.random.default_rng(seed)
    while not g.is_over and steps != 0:
        g.step(random_action(g, rng))
        steps = None if steps is None else steps - 1
    return g


def assert_round_trip(g: Game):
    text = g.to_json()
    loaded = Game.from_json(text)
    assert loaded.state_equals(g) and np.array_equal(loaded.legal_mask(), g.legal_mask())
    assert loaded.log == g.log and loaded.moves() == g.moves() and loaded.seed == g.seed
    assert loaded.to_json() == text


# ----------------------------------------------------------------- round trips
@pytest.mark.parametrize("n, card", CARDS)
def test_a_game_saved_at_any_point_loads_as_it_was(n, card):
    """Saved at its deal, at points through the game and at its end, every game loads as the same game."""
    kw = {"point_variant": True} if card is None else {"victory_card": card}
    g, rng = Game(n, seed=n * 7, **kw), np.random.default_rng(n)
    points = 0
    while True:
        if points == 0 or rng.random() < 0.01 or g.is_over:
            assert_round_trip(g)
            points += 1
        if g.is_over:
            break
        g.step(random_action(g, rng))
    assert points >= 3
    record = json.loads(g.to_json())
    assert record["outcome"] == saving.outcome(g) and len(record["actions"]) == len(g.moves())


@pytest.mark.parametrize("n", [2, 5])
def test_a_drawn_card_a_truncated_game_and_played_forced_moves_round_trip(n):
    drawn = played(n, seed=3)
    assert drawn.victory_card_drawn and json.loads(drawn.to_json())["config"]["victory_card_drawn"] is True
    assert_round_trip(drawn)
    truncated = played(n, seed=4, round_limit=2)
    assert truncated.truncated and json.loads(truncated.to_json())["outcome"]["truncated"] is True
    assert_round_trip(truncated)
    unforced = played(n, seed=5, auto_forced=False, steps=300)
    assert_round_trip(unforced)


def test_a_game_loads_without_its_log_as_the_same_game():
    g = played(4, seed=2)
    quiet = Game.from_json(g.to_json(), log=False)
    assert quiet.log is None and quiet.state_equals(g)


def test_loading_accepts_text_bytes_and_parsed_data():
    g = played(2, seed=6, steps=40)
    text = g.to_json()
    for source in (text, text.encode(), text.encode("utf-16"), json.loads(text)):
        assert Game.from_json(source).state_equals(g)


def test_a_record_of_version_1_the_arenas_records_so_far_loads():
    g = played(3, seed=8)
    record = dict(json.loads(g.to_json()), version=1, agents=["random"] * 3, game=4)
    assert Game.from_json(record).state_equals(g)
    with pytest.raises(StateFormatError, match="outcome must be an object, got None"):
        Game.from_json(dict(json.loads(played(3, seed=8, steps=5).to_json()), version=1))


# ----------------------------------------------------------------- what the engine keeps
def test_the_seed_is_kept_and_drawn_from_entropy_when_not_given():
    assert Game(2, seed=123).seed == 123 and Game(2, seed=np.int64(5)).seed == 5
    seeds = {Game(2).seed for _ in range(4)}
    assert len(seeds) == 4 and all(type(s) is int and 0 <= s <= MAX_SEED for s in seeds)
    g = played(2, seed=None, steps=30)
    assert_round_trip(g)


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, True, 1.0, "1", [1, 2]])
def test_a_seed_that_cannot_be_saved_is_refused(seed):
    with pytest.raises(ConfigError, match="seed must be None or an int from 0 to 9223372036854775807"):
        Game(2, seed=seed)


def test_the_moves_are_those_played_and_not_the_forced_ones():
    g, rng = Game(3, seed=9), np.random.default_rng(9)
    actions = play(g, rng)
    assert g.moves() == actions
    assert Game(3, seed=9, auto_forced=False).moves() == []


def test_clones_share_their_moves_until_they_differ():
    g = played(4, seed=10, steps=100)
    a, b = g.clone(), g.clone()
    a.step(int(a.legal_actions()[0]))
    b.step(int(b.legal_actions()[-1]))
    g.step(int(g.legal_actions()[-1]))
    assert a.moves()[:-1] == b.moves()[:-1] == g.moves()[:-1] and len(g.moves()) == 101
    assert a.moves()[-1] != b.moves()[-1] == g.moves()[-1]
    for game in (a, b, g):
        assert_round_trip(game)


def test_copies_and_pickles_keep_the_moves():
    g = played(2, seed=11, steps=60)
    g.clone().step(int(g.legal_actions()[0]))  # appended to the shared list: not one of g's moves
    for copied in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert copied.moves() == g.moves() and copied.to_json() == g.to_json()


def test_a_game_cloned_at_every_step_keeps_its_moves_and_pickles():
    """Each clone freezes the moves since the last into the chain clones share: thousands deep here."""
    g, rng = Game(5, seed=16, log=False), np.random.default_rng(16)
    actions = []
    while not g.is_over:
        g.clone()
        actions.append(random_action(g, rng))
        g.step(actions[-1])
    assert len(actions) > 1000 and g.moves() == actions
    assert pickle.loads(pickle.dumps(g)).moves() == actions and copy.deepcopy(g).moves() == actions


@pytest.mark.parametrize(
    "make",
    [
        lambda g: g.determinize(0),
        lambda g: Game.from_dict(g.to_dict()),
        lambda g: staged(g, *g.state.tasks[0]) or g,
    ],
    ids=["determinize", "state dump", "pushed"],
)
def test_a_game_without_moves_from_a_seed_is_not_saved_as_moves(make):
    game = make(played(3, seed=12, steps=50))
    assert game.moves() is None and game.seed is None
    with pytest.raises(TribuneError, match=r"no moves from a seed to save .*game.to_dict\(\) dumps its state"):
        game.to_json()


def test_the_state_dump_loads_as_the_same_game_trusted():
    g = played(5, seed=13, steps=400)
    dump = json.loads(json.dumps(g.to_dict()))
    h = Game.from_dict(dump)
    assert h.state_equals(g) and h.log == g.log and np.array_equal(h.legal_mask(), g.legal_mask())
    assert dump["format"] == "tribune-state"
    with pytest.raises(StateFormatError, match="not a saved Tribune game"):
        Game.from_json(dump)  # a state dump is never loaded as a saved game


# ----------------------------------------------------------------- refusals, by name
@pytest.fixture(scope="module")
def record():
    return json.loads(played(3, seed=14).to_json())


def _changed(record, path, value):
    changed = copy.deepcopy(record)
    *keys, last = path
    target = changed
    for key in keys:
        target = target[key]
    if value is DELETE:
        del target[last]
    else:
        target[last] = value
    return changed


DELETE = object()
CARD = VICTORY_CARDS["pax-romana"].to_dict()


@pytest.mark.parametrize(
    "path, value, message",
    [
        (["format"], "tribune-state", "not a saved Tribune game (expected format 'tribune-record')"),
        (["version"], 3, "version 3: this engine reads versions 1, 2"),
        (["version"], True, "version True: this engine reads"),
        (["version"], 2.0, "version 2.0: this engine reads"),
        (["actions"], DELETE, "the record has no 'actions'"),
        (["moves"], [], "the record has unknown keys 'moves'"),
        (["game"], -1, "game must be an int from 0, got -1"),
        (["config"], [], "config must be an object, got a list"),
        (["config", "num_players"], True, "config num_players must be an int from 2 to 5, got True"),
        (["config", "num_players"], 6, "config num_players must be an int from 2 to 5, got 6"),
        (["config", "seed"], -1, "config seed must be an int from 0 to 9223372036854775807, got -1"),
        (["config", "seed"], 2**64, "config seed must be an int from 0 to 9223372036854775807, got a huge integer"),
        (["config", "seed"], 1.5, "config seed must be an int from 0 to 9223372036854775807, got 1.5"),
        (["config", "round_limit"], 0, "config round_limit must be an int from 1 to 10000, got 0"),
        (["config", "round_limit"], "50", "config round_limit must be an int from 1 to 10000, got '50'"),
        (["config", "auto_forced"], 1, "config auto_forced must be true or false, got 1"),
        (["config", "victory_card"], "pax-romana", "config victory_card must be an object or null, got 'pax-romana'"),
        (["config", "rules"], 1, "config has unknown keys 'rules'"),
        (["config", "round_limit"], DELETE, "config has no 'round_limit'"),
        (["agents"], ["random"], "agents must be a list of 3 names, or empty"),
        (["agents"], ["a", "b", 3], "agents must be names, got 3"),
        (["actions"], {}, "actions must be a list, got a dict"),
        (["actions", 7], 3.0, "action 7 must be an int, got 3.0"),
        (["actions", 7], True, "action 7 must be an int, got True"),
        (["actions", 7], "3", "action 7 must be an int, got '3'"),
        (["actions", 7], 10**30, "action 7 is a huge integer, outside the actions 0..399"),
        (["actions", 7], -1, "action 7 is -1, outside the actions 0..399"),
        (["outcome"], [], "outcome must be an object, got a list"),
        (["outcome", "terminated"], 1, "outcome terminated must be true or false, got 1"),
        (["outcome", "scores"], [1, 2, 2.5], "outcome scores must be a list of ints"),
        (["outcome", "rounds"], 999, "outcome rounds is 999, but the actions end the game with"),
        (["outcome"], None, "outcome is null, but the actions finish the game"),
    ],
)
def test_a_bad_field_is_named(record, path, value, message):
    with pytest.raises(StateFormatError) as info:
        Game.from_json(json.dumps(_changed(record, path, value)))
    assert message in str(info.value)


def test_a_config_the_game_does_not_make_is_named(record):
    drawn_other = _changed(record, ["config", "victory_card"], CARD)
    with pytest.raises(StateFormatError, match='config victory_card is .*"pax-romana".* but the game it makes has .*'):
        Game.from_json(drawn_other)
    both = _changed(record, ["config", "point_variant"], True)
    with pytest.raises(StateFormatError, match="config: the point-value variant uses no victory card"):
        Game.from_json(_changed(both, ["config", "victory_card_drawn"], False))
    unfit = _changed(
        _changed(record, ["config", "victory_card"], VICTORY_CARDS["quinque-viri"].to_dict()),
        ["config", "victory_card_drawn"],
        False,
    )
    with pytest.raises(StateFormatError, match="config: victory card 'quinque-viri' is not for 3 players"):
        Game.from_json(unfit)
    huge = _changed(record, ["config", "victory_card"], dict(CARD, laurels=2**63))
    with pytest.raises(StateFormatError, match="laurels must be an int from 0 to 100,000,000"):
        Game.from_json(_changed(huge, ["config", "victory_card_drawn"], False))


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("id", "x" * 2**20, "id must be 1 to 100 printable characters, got a string of 1048576 characters"),
        ("id", "", "id must be 1 to 100 printable characters, got ''"),
        ("id", "pax\x1b[2J", r"id must be 1 to 100 printable characters, got 'pax\x1b[2J'"),
        ("id", "pax\u202eromana", r"id must be 1 to 100 printable characters, got 'pax\u202eromana'"),
        ("id", "pax\nromana", r"id must be 1 to 100 printable characters, got 'pax\nromana'"),
        ("id", 7, "id must be a string, got 7"),
        ("length", {"a": 1}, "length must be a string, got a dict"),
        ("length", "l" * 2**20, "length must be 1 to 100 printable characters, got a string of 1048576 characters"),
        ("obligatory", "o" * 2**20, "obligatory must be null or one of tribune, favor, laurels, legions, denarii"),
        ("obligatory", 3, "obligatory must be a string or null, got 3"),
        ("laurels", True, "laurels must be an int, got True"),
        ("need", {"2": True, "3": 4, "4": 4}, "need must map player counts 2 to 5 to ints"),
        ("need", {"9": 4}, "need must map player counts 2 to 5 to ints"),
        ("need", [], "need must be an object, got a list"),
        ("length", DELETE, "config victory_card has no 'length'"),
        ("colour", "red", "config victory_card has unknown keys 'colour'"),
    ],
)
def test_a_bad_victory_card_field_is_named_briefly(record, key, value, message):
    """Checked before the card is made: VictoryCard quotes its id in full, and keeps any length."""
    card = _changed(record, ["config", "victory_card"], dict(CARD))
    with pytest.raises(StateFormatError) as info:
        Game.from_json(_changed(card, ["config", "victory_card", key], value))
    assert f"config victory_card {key}" in str(info.value) or message.startswith("config")
    assert message in str(info.value) and len(str(info.value)) < 200


def test_an_action_the_engine_refuses_is_named_by_its_index_and_label(record):
    g = Game.from_json(_changed(record, ["actions"], record["actions"][:20]) | {"outcome": None})
    illegal = int(np.flatnonzero(g.legal_mask() == 0)[0])
    bad = _changed(record, ["actions", 20], illegal)
    with pytest.raises(StateFormatError, match=rf"^action 20, '{g.A.labels[illegal]}', is not legal here$"):
        Game.from_json(bad)
    longer = _changed(record, ["actions"], [*record["actions"], record["actions"][-1]])
    with pytest.raises(StateFormatError, match=r"^action \d+, '.*', comes after the end of the game$"):
        Game.from_json(longer)
    shorter = _changed(record, ["actions"], record["actions"][:-1])
    with pytest.raises(StateFormatError, match=r"the actions stop in round \d+, before the end the outcome records"):
        Game.from_json(shorter)


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "saved game is not valid JSON: Expecting value at character 0"),
        ('{"actions": [NaN]}', "saved game holds NaN at actions[0], which is not a JSON number"),
        ('{"a": 1, "a": 2}', "saved game repeats the key 'a' in an object"),
        ("[" * 10 + "]" * 10, "saved game nests arrays or objects more than 8 deep"),
        ('{"seed": ' + "9" * 41 + "}", "saved game holds a number literal of more than 40 digits"),
        (b'{"format": "tribune-record\xff"}', "saved game is not valid JSON: not UTF-8/16/32 text"),
        ("[1, 2]", "not a saved Tribune game"),
    ],
)
def test_bad_text_is_refused_before_it_is_parsed_or_played(text, message):
    with pytest.raises(StateFormatError) as info:
        Game.from_json(text)
    assert message in str(info.value)


def test_text_too_long_is_refused_before_it_is_read(monkeypatch):
    monkeypatch.setattr(limits, "MAX_TEXT", 100)
    monkeypatch.setattr("tribune_env.saving.text.MAX_TEXT", 100)
    with pytest.raises(StateFormatError, match="saved game is 101 characters long, more than the limit of 100"):
        Game.from_json(" " * 101)


def test_data_that_json_cannot_write_is_refused(record):
    for value, message in ((np.int64(3), "int64 is not JSON serializable"), (float("nan"), "Out of range float")):
        with pytest.raises(StateFormatError, match=f"saved game is not plain JSON data: .*{message}"):
            Game.from_json(_changed(record, ["actions", 0], value))
    deep = []
    for _ in range(50):
        deep = [deep]
    with pytest.raises(StateFormatError, match="nests arrays or objects more than 8 deep"):
        Game.from_json(_changed(record, ["agents"], deep))


def test_a_game_saved_with_its_own_numbers_loads_with_them():
    data = dataclasses.replace(DEFAULT_DATA, starting_money=9)
    g = played(2, seed=15, steps=80, data=data)
    assert Game.from_json(g.to_json(), data).state_equals(g)

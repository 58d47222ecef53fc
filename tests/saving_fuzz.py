"""Mutated records for fuzzing the loader, and the check each must pass.

A mutation changes a real record (2-5 players, victory cards and the point variant,
finished, truncated and unfinished games) as data (a config value, the actions truncated,
reordered, repeated, replaced, the outcome, the version...) or as text (cut short, a
character changed, a number made huge). Loading each must either refuse it with
StateFormatError or return the game it records: the same record written back, and the
same state as playing its actions on a fresh game. Used by tests/test_fuzz_saving.py and
benchmarks/fuzz_saving.py.
"""

from __future__ import annotations

import copy
import json

import numpy as np

from tribune_env import Game, StateFormatError, VictoryCard

ODD_VALUES = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    5,
    2**31,
    2**63,
    2**64,
    10**30,
    -(10**30),
    1.5,
    0.0,
    "",
    "1",
    [],
    {},
    [1],
    {"a": 1},
]
ODD_TEXT = ["NaN", "Infinity", "-Infinity", "1e999", "9" * 45, "[[[[[[[[[[1]]]]]]]]]]", '"\\ud800"', "true", "null"]


def base_records() -> list[str]:
    """Real saved games: each player count, cards drawn and given, the point variant, ends and middles."""
    texts = []
    for n in range(2, 6):
        for i, kw in enumerate(({}, {"point_variant": True}, {"round_limit": 2}, {"auto_forced": False})):
            seed = 10 * n + i
            g, rng = Game(n, seed=seed, log=False, **kw), np.random.default_rng(seed)
            stop = None if i < 2 else int(rng.integers(30, 200))  # some games saved before their end
            while not g.is_over and stop != 0:
                legal = g.legal_actions()
                g.step(int(legal[rng.integers(len(legal))]))
                stop = None if stop is None else stop - 1
            texts.append(g.to_json())
    texts.append(Game(3, "pax-romana", seed=1, log=False).to_json())  # a given card, no moves yet
    return texts


def _odd(rng):
    return copy.deepcopy(ODD_VALUES[rng.integers(len(ODD_VALUES))])


def _pick(rng, items):
    return items[rng.integers(len(items))]


def _actions(rng, d):
    actions = d.get("actions")
    if not isinstance(actions, list):
        return
    n = len(actions)
    i = int(rng.integers(n)) if n else 0
    kind = _pick(
        rng, ["truncate", "truncate-unfinished", "swap", "repeat", "drop", "insert", "replace", "odd", "reverse"]
    )
    if kind.startswith("truncate"):
        d["actions"] = actions[:i]
        if kind == "truncate-unfinished":
            d["outcome"] = None  # a game saved earlier: accepted unless a move was the last
    elif kind == "swap" and n > 1:
        j = int(rng.integers(n))
        actions[i], actions[j] = actions[j], actions[i]
    elif kind == "repeat" and n:
        actions.insert(i, actions[i])
    elif kind == "drop" and n:
        del actions[i]
    elif kind == "insert":
        actions.insert(i, int(rng.integers(-5, 500)))
    elif kind == "replace" and n:
        actions[i] = int(rng.integers(-5, 500))
    elif kind == "odd" and n:
        actions[i] = _odd(rng)
    elif kind == "reverse":
        d["actions"] = actions[::-1]


def _config(rng, d):
    config = d.get("config")
    if not isinstance(config, dict):
        return
    key = _pick(rng, sorted(config) + ["extra"])
    kind = _pick(rng, ["odd", "delete", "near"])
    if kind == "delete" and key in config:
        del config[key]
    elif kind == "near" and type(config.get(key)) is int:
        config[key] += int(rng.integers(-2, 3))
    elif kind == "near" and key == "victory_card" and isinstance(config[key], (dict, type(None))):
        card = config[key] or VictoryCard("made-up", 8, 2, 25, 4, {2: 4, 3: 4, 4: 3, 5: 3}).to_dict()
        card[_pick(rng, sorted(card))] = _odd(rng)
        config[key] = card
    elif kind == "near" and isinstance(config.get(key), bool):
        config[key] = not config[key]
    else:
        config[key] = _odd(rng)


def _outcome(rng, d):
    outcome = d.get("outcome")
    if isinstance(outcome, dict) and outcome and rng.random() < 0.7:
        outcome[_pick(rng, sorted(outcome))] = _odd(rng)
    else:
        d["outcome"] = _odd(rng)


def _top(rng, d):
    key = _pick(rng, ["format", "version", "config", "agents", "actions", "outcome", "game", "extra"])
    if rng.random() < 0.3 and key in d:
        del d[key]
    else:
        d[key] = _odd(rng)


def _agents(rng, d):
    d["agents"] = _pick(rng, [["random"] * int(rng.integers(0, 6)), [_odd(rng)] * 3])


DATA_MUTATIONS = (_actions, _actions, _actions, _config, _config, _outcome, _top, _agents)


def _text(rng, text: str) -> str:
    i = int(rng.integers(len(text)))
    kind = _pick(rng, ["cut", "char", "odd", "delete"])
    if kind == "cut":
        return text[:i]
    if kind == "char":
        return text[:i] + chr(int(rng.integers(32, 127))) + text[i + 1 :]
    if kind == "delete":
        return text[:i] + text[i + 1 :]
    digits = [k for k, c in enumerate(text) if c.isdigit()]  # a number replaced by an odd literal
    k = _pick(rng, digits) if digits else i
    return text[:k] + _pick(rng, ODD_TEXT) + text[k + 1 :]


def mutate(rng, text: str) -> str:
    """One to three mutations of a record's text, as data or as text."""
    d = json.loads(text)
    for _ in range(int(rng.integers(1, 4))):
        if not isinstance(d, dict) or rng.random() < 0.15:
            return _text(rng, json.dumps(d))
        _pick(rng, DATA_MUTATIONS)(rng, d)
    return json.dumps(d)


def check(text: str) -> str:
    """Load `text`: 'refused', or 'accepted' once the game is checked to be the one the text records.

    Any exception other than StateFormatError is a crash and propagates, as does a wrong game.
    """
    try:
        game = Game.from_json(text, log=False)
    except StateFormatError:
        return "refused"
    record = json.loads(text)
    saved = json.loads(game.to_json())
    for key in ("config", "actions", "outcome"):
        assert _canonical(saved[key]) == _canonical(record[key]), f"the loaded game saves another {key}"
    config = record["config"]
    card = (
        None
        if config["victory_card_drawn"] or config["victory_card"] is None
        else VictoryCard.from_dict(config["victory_card"])
    )
    fresh = Game(
        config["num_players"],
        card,
        point_variant=config["point_variant"],
        seed=config["seed"],
        round_limit=config["round_limit"],
        auto_forced=config["auto_forced"],
        log=False,
    )
    for action in record["actions"]:
        fresh.step(action)
    assert fresh.state_equals(game), "the loaded game is not the one its actions play"
    assert game.is_over == (record["outcome"] is not None)
    return "accepted"


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def fuzz(inputs: int, seed: int, pool: list[str]) -> dict:
    """Mutate records of `pool` `inputs` times and check each; counts of refused and accepted."""
    rng = np.random.default_rng(seed)
    counts = {"refused": 0, "accepted": 0}
    for _ in range(inputs):
        text = mutate(rng, _pick(rng, pool))
        try:
            counts[check(text)] += 1
        except Exception as exc:
            raise AssertionError(f"{type(exc).__name__}: {exc} on the record {text[:2000]}") from exc
    return counts

"""Stage 2: the document's keys, the config and the victory card, strictly typed."""

from __future__ import annotations

import numpy as np

from ..data import MAX_PLAYERS, MAX_ROUND_LIMIT, MIN_PLAYERS, OBJECTIVES, VictoryCard
from ..errors import brief
from .limits import FORMAT, FORMAT_VERSION, MAX_AMOUNT, fail


def check_document(d):
    """The document's keys, format tag, version, config and log, before any array is read."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        fail(f"not a saved Tribune game (expected format {FORMAT!r})")
    version = d.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        fail(f"unsupported version {brief(version)}; this engine reads {FORMAT_VERSION}")
    for key in ("config", "arrays"):
        if key not in d:
            fail(f"saved game lacks {key!r}")
    extra = set(d) - {"format", "version", "config", "arrays", "log"}
    if extra:
        fail(f"saved game has unknown keys {sorted(brief(k) for k in extra)}")
    if not isinstance(d["arrays"], dict):
        fail("'arrays' must map array names to nested lists")
    log = d.get("log")
    if log is not None and not (isinstance(log, list) and all(isinstance(x, str) for x in log)):
        fail("log must be a list of strings or null")
    check_config(d["config"])


CONFIG_KEYS = ("num_players", "point_variant", "victory_card", "round_limit", "auto_forced")
CARD_KEYS = ("id", "laurels", "legions", "denarii", "markers", "need", "obligatory", "length")


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def check_config(config):
    """Exactly the keys the engine writes, each of its type and range (so it saves back the same)."""
    if not isinstance(config, dict):
        fail("malformed config: not an object")
    for key in CONFIG_KEYS:
        if key not in config:
            fail(f"malformed config: missing {key!r}")
    if set(config) != set(CONFIG_KEYS):
        fail(f"malformed config: unknown keys {sorted(brief(k) for k in set(config) - set(CONFIG_KEYS))}")
    n = config["num_players"]
    if not _is_int(n) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
        fail(f"config num_players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}, got {brief(n)}")
    limit = config["round_limit"]
    if not _is_int(limit) or not 1 <= limit <= MAX_ROUND_LIMIT:
        fail(f"config round_limit must be an int from 1 to {MAX_ROUND_LIMIT}, got {brief(limit)}")
    for key in ("point_variant", "auto_forced"):
        if not isinstance(config[key], bool):
            fail(f"config {key} must be true or false, got {brief(config[key])}")
    if config["victory_card"] is not None:
        check_victory_card(config["victory_card"])
    elif not config["point_variant"]:
        fail("config victory_card is null, but only the point-value variant plays without one")


def check_victory_card(card):
    """A victory card object: the eight keys, thresholds within MAX_AMOUNT, need per player count."""
    if not isinstance(card, dict) or set(card) != set(CARD_KEYS):
        fail(f"malformed config: a victory card has exactly the keys {list(CARD_KEYS)}")
    for key in ("id", "length"):
        if not isinstance(card[key], str) or not 0 < len(card[key]) <= 100:
            fail(f"victory card {key} must be a string of 1 to 100 characters")
    for key in ("laurels", "legions", "denarii", "markers"):
        if not _is_int(card[key]) or not 0 <= card[key] <= MAX_AMOUNT:
            fail(f"victory card {key} must be an int from 0 to {MAX_AMOUNT}, got {brief(card[key])}")
    need = card["need"]
    counts = {str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    if not isinstance(need, dict) or not need or not set(need) <= counts:
        fail("victory card need must map player counts '2'..'5' to objectives needed")
    if not all(_is_int(v) and 1 <= v <= len(OBJECTIVES) for v in need.values()):
        fail(f"victory card need must give 1 to {len(OBJECTIVES)} objectives")
    if card["obligatory"] is not None and card["obligatory"] not in OBJECTIVES:
        fail(f"victory card obligatory must be null or one of {list(OBJECTIVES)}")


def config_arguments(config):
    card = config["victory_card"]
    return config["num_players"], None if card is None else VictoryCard.from_dict(card), config["point_variant"]


def integer_array(name, value, shape) -> np.ndarray:
    """A nested list of exactly `shape` holding int32 integers (not floats, not booleans)."""
    level = [value]
    for size in shape:
        following = []
        for item in level:
            if not isinstance(item, (list, tuple)) or len(item) != size:
                fail(f"array {name!r} must be nested lists of shape {shape}")
            following.extend(item)
        level = following
    if set(map(type, level)) - {int}:  # numpy integers pass; name anything else
        for x in level:
            if isinstance(x, (float, np.floating)):
                fail(f"array {name!r} must hold integers, not {brief(x)}")
            if not _is_int(x):
                fail(f"array {name!r} is not numeric: it holds {brief(x)}")
        level = [int(x) for x in level]
    if level and (min(level) < -(2**31) or max(level) >= 2**31):
        fail(f"array {name!r} holds values outside int32")
    return np.array(level, dtype=np.int64)

"""A record's fields: its keys and each value's type and range, checked before anything is played.

Only the shape of the record is checked here; whether its config makes a game, and whether
its actions are legal, the engine itself decides while the record is played
(:mod:`tribune_env.saving.replay`).
"""

from __future__ import annotations

from ..data import MAX_PLAYERS, MAX_ROUND_LIMIT, MIN_PLAYERS, OBJECTIVES
from ..errors import brief
from ..kernel import MAX_SEED
from .limits import FORMAT, READS, fail

REQUIRED = ("format", "version", "config", "agents", "actions", "outcome")
OPTIONAL = ("game",)  # the game's number in its tournament
CONFIG = {
    "num_players": range(MIN_PLAYERS, MAX_PLAYERS + 1),
    "point_variant": bool,
    "victory_card": (dict, type(None)),  # check_victory_card
    "round_limit": range(1, MAX_ROUND_LIMIT + 1),
    "auto_forced": bool,
    "seed": range(MAX_SEED + 1),
    "victory_card_drawn": bool,
}
# A card's keys and their types; its numbers' ranges are VictoryCard's own checks.
VICTORY_CARD = {
    "id": str,
    "laurels": int,
    "legions": int,
    "denarii": int,
    "markers": int,
    "need": dict,
    "obligatory": (str, type(None)),
    "length": str,
}
MAX_CARD_TEXT = 100  # characters of a card's id or length, which the log and the table show
PLAYER_COUNTS = {str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
OUTCOME = {"rounds": int, "terminated": bool, "truncated": bool, "winners": list, "scores": list}


def check(record) -> None:
    """Every field of `record` of its type and range, or StateFormatError naming the first that is not."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        fail(f"not a saved Tribune game (expected format {FORMAT!r})")
    version = record.get("version")
    if type(version) is not int or version not in READS:  # true is not 1, nor 1.0
        fail(f"version {brief(version)}: this engine reads versions {', '.join(map(str, READS))}")
    for key in REQUIRED:
        if key not in record:
            fail(f"the record has no {key!r}")
    unknown = set(record) - set(REQUIRED) - set(OPTIONAL)
    if unknown:
        fail(f"the record has unknown keys {_names(unknown)}")
    if "game" in record and not _count(record["game"]):
        fail(f"game must be an int from 0, got {brief(record['game'])}")
    check_fields("config", record["config"], CONFIG)
    if record["config"]["victory_card"] is not None:
        check_victory_card(record["config"]["victory_card"])
    check_agents(record["agents"], record["config"]["num_players"])
    check_actions(record["actions"])
    if record["outcome"] is not None or version == 1:  # null: a game saved before its end
        check_outcome(record["outcome"])


def check_fields(name: str, value, kinds: dict) -> None:
    """`value` an object with exactly the keys of `kinds`, each of its kind (a type, or a range of ints)."""
    if not isinstance(value, dict):
        fail(f"{name} must be an object, got {brief(value)}")
    for key, kind in kinds.items():
        if key not in value:
            fail(f"{name} has no {key!r}")
        item = value[key]
        if isinstance(kind, range):
            if type(item) is not int or item not in kind:
                fail(f"{name} {key} must be an int from {kind.start} to {kind.stop - 1}, got {brief(item)}")
        elif type(item) not in (kind if isinstance(kind, tuple) else (kind,)):
            fail(f"{name} {key} must be {_kind_name(kind)}, got {brief(item)}")
    unknown = set(value) - set(kinds)
    if unknown:
        fail(f"{name} has unknown keys {_names(unknown)}")


def check_victory_card(card: dict) -> None:
    """The card's keys and types, its id and length short printable text (the terminal and the
    web page show them), its objective one of the game's and `need` ints by player count."""
    check_fields("config victory_card", card, VICTORY_CARD)
    for key in ("id", "length"):
        text = card[key]
        if not 0 < len(text) <= MAX_CARD_TEXT or not text.isprintable():
            fail(f"config victory_card {key} must be 1 to {MAX_CARD_TEXT} printable characters, got {brief(text)}")
    objective = card["obligatory"]
    if objective is not None and objective not in OBJECTIVES:
        fail(f"config victory_card obligatory must be null or one of {', '.join(OBJECTIVES)}, got {brief(objective)}")
    need = card["need"]
    if not set(need) <= PLAYER_COUNTS or not all(type(n) is int for n in need.values()):
        fail(f"config victory_card need must map player counts {MIN_PLAYERS} to {MAX_PLAYERS} to ints")


def _kind_name(kind) -> str:
    names = {
        bool: "true or false",
        int: "an int",
        str: "a string",
        list: "a list",
        dict: "an object",
        type(None): "null",
    }
    return " or ".join(names[k] for k in (kind if isinstance(kind, tuple) else (kind,)))


def check_agents(agents, num_players: int) -> None:
    """No agents (a plain save), or one name per seat."""
    if not isinstance(agents, list) or len(agents) not in (0, num_players):
        fail(f"agents must be a list of {num_players} names, or empty")
    if not all(isinstance(a, str) for a in agents):
        fail(f"agents must be names, got {brief(next(a for a in agents if not isinstance(a, str)))}")
    for name in agents:  # a lone surrogate ("\ud800") is no character: no page or terminal could show the name
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            fail(f"agents must be names of Unicode text, got {brief(name)}, which holds a lone surrogate")


def check_actions(actions) -> None:
    """A list of ints: what each must be, the engine's legal mask decides as it is played."""
    if not isinstance(actions, list):
        fail(f"actions must be a list, got {brief(actions)}")
    if not set(map(type, actions)) <= {int}:
        i, action = next((i, a) for i, a in enumerate(actions) if type(a) is not int)
        fail(f"action {i} must be an int, got {brief(action)}")


def check_outcome(outcome) -> None:
    """How a finished game ended (its values are compared with the replay's own)."""
    check_fields("outcome", outcome, OUTCOME)
    for key in ("winners", "scores"):
        if not all(type(x) is int for x in outcome[key]):
            fail(f"outcome {key} must be a list of ints")


def _names(keys) -> str:
    return ", ".join(sorted(brief(k) for k in keys))


def _count(x) -> bool:
    return type(x) is int and x >= 0

"""Loading a record: the game built from its config, its actions played through the engine.

The engine's legal mask checks every action, so no rule is restated here, and whatever
is accepted is a game that play reaches. The game is handed out only once the whole
record has played and ended as it says.
"""

from __future__ import annotations

import json

from ..data import DEFAULT_DATA, GameData
from ..engine import Game
from ..errors import ConfigError, IllegalActionError, brief
from ..game_config import GameConfig
from .fields import check
from .limits import fail
from .record import outcome, saved_config
from .text import as_text, parse


def load(source, data: GameData = DEFAULT_DATA, log: bool = True) -> Game:
    """The game a record (JSON text or bytes, or its parsed data) describes, played to its last action."""
    record = parse(source if isinstance(source, (str, bytes, bytearray)) else as_text(source))
    check(record)
    for game in replay(record, data, log):  # noqa: B007 (the game is read after its last action)
        pass
    check_ending(game, record["outcome"])
    return game


def replay(record: dict, data: GameData = DEFAULT_DATA, log: bool = True):
    """Yield the game of a checked record (:func:`~tribune_env.saving.fields.check`) after
    its deal and after each action; the same object throughout, left after the last action."""
    game = build(record["config"], data, log)
    yield game
    for i, action in enumerate(record["actions"]):
        try:
            game.step(action)
        except IllegalActionError:
            fail(refusal(game, i, action))
        yield game


def build(config: dict, data: GameData = DEFAULT_DATA, log: bool = True) -> Game:
    """The game a checked config describes, dealt from its seed: the same config saved back, or StateFormatError."""
    settings = {key: value for key, value in config.items() if key not in ("seed", "victory_card_drawn")}
    if config["victory_card_drawn"]:
        settings["victory_card"] = None  # drawn again from the seed
    try:
        game = Game.from_config(GameConfig.from_dict(settings, data), seed=config["seed"], log=log)
    except ConfigError as exc:
        fail(f"config: {exc}")
    made = saved_config(game)
    for key, value in made.items():  # a card drawn, or written another way, differs here
        if not same(config[key], value):
            fail(f"config {key} is {shown(config[key])}, but the game it makes has {shown(value)}")
    return game


def refusal(game: Game, index: int, action: int) -> str:
    """Why action `index` of a record cannot be played, named by its label."""
    if not 0 <= action < game.A.size:
        return f"action {index} is {brief(action)}, outside the actions 0..{game.A.size - 1}"
    if game.is_over:
        return f"action {index}, {game.A.labels[action]!r}, comes after the end of the game"
    return f"action {index}, {game.A.labels[action]!r}, is not legal here"


def check_ending(game: Game, recorded) -> None:
    """A finished game's record ends as the replay does; an unfinished one's replay has not ended."""
    if recorded is None:
        if game.is_over:
            fail("outcome is null, but the actions finish the game")
    elif not game.is_over:
        fail(f"the actions stop in round {game.round}, before the end the outcome records")
    else:
        replayed = outcome(game)
        for key, value in replayed.items():
            if not same(recorded[key], value):
                fail(f"outcome {key} is {shown(recorded[key])}, but the actions end the game with {shown(value)}")


def same(a, b) -> bool:
    """Equal as JSON: unlike Python's ==, true is not 1 and 2.0 is not 2."""
    return canonical(a) == canonical(b)


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def shown(value) -> str:
    """A value of the record as JSON, cut short for a message."""
    text = canonical(value)
    return text if len(text) <= 80 else text[:77] + "..."

"""Game records: one finished game per JSON line (seed, configuration, agents, actions,
outcome), enough to play it again exactly, and the replay itself.

A record's ``config`` is ``Game.config()`` with the ``seed`` and ``victory_card_drawn``
(true when the game drew its victory card from the seed: it must be drawn again, not
given, for the same deal to follow). ``outcome`` is what the replay must reach.
"""
from __future__ import annotations

import json
from pathlib import Path

from tribune_env import Game, IllegalActionError, StateFormatError, VictoryCard

FORMAT, VERSION = "tribune-record", 1
FIELDS = {"config": dict, "agents": list, "actions": list, "outcome": dict}


def outcome(game: Game) -> dict:
    """The facts of a finished game that a replay must reproduce."""
    return {"rounds": game.round, "terminated": game.terminated, "truncated": game.truncated,
            "winners": game.winners(), "scores": [int(s) for s in game.scores()]}


def make(final: Game, seed: int, drawn: bool, agents: list, actions: list, **extra) -> dict:
    """The record of the game `final`, finished after `actions` from `seed`; `extra` (e.g.
    the tournament's game index) is stored alongside."""
    return {"format": FORMAT, "version": VERSION, **extra,
            "config": {**final.config(), "seed": seed, "victory_card_drawn": drawn},
            "agents": list(agents), "actions": list(actions), "outcome": outcome(final)}


def write(path, records) -> None:
    """Records, one JSON line each, to `path` (its directory made if needed)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        f.writelines(json.dumps(record, separators=(",", ":")) + "\n" for record in records)


def read(path, index: int) -> dict:
    """Game `index` (0-based, counting non-blank lines) of a records file; StateFormatError if malformed."""
    count = 0
    with open(path, errors="replace") as f:           # a binary file fails as "not JSON"
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            if count == index:
                return _check(line, f"{path}, line {number}")
            count += 1
    raise StateFormatError(f"{path} holds {count} game record(s); there is no game {index}")


def _check(line: str, where: str) -> dict:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise StateFormatError(f"{where}: not JSON ({exc})") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise StateFormatError(f"{where}: not a {FORMAT!r} record")
    if record.get("version") != VERSION:
        raise StateFormatError(f"{where}: record version {record.get('version')!r}; this tribune "
                               f"reads version {VERSION}")
    for key, kind in FIELDS.items():
        if not isinstance(record.get(key), kind):
            raise StateFormatError(f"{where}: {key!r} is missing or not a {kind.__name__}")
    return record


def build(config: dict) -> Game:
    """The game a record's config describes, at its start, keeping its log for the replay."""
    try:
        card = None if config["victory_card_drawn"] or config["victory_card"] is None \
            else VictoryCard.from_dict(config["victory_card"])
        return Game(config["num_players"], card, point_variant=config["point_variant"], seed=config["seed"],
                    round_limit=config["round_limit"], auto_forced=config["auto_forced"])
    except (KeyError, TypeError) as exc:
        raise StateFormatError(f"record config is missing or has a wrong {exc}") from None


def replay(record: dict):
    """Play a record back: yields (game, step, log lines of that step), step 0 being the deal.

    The game object is the same throughout; it is left at the end of the record's actions.
    """
    game = build(record["config"])
    seen = len(game.log)
    yield game, 0, list(game.log)
    for step, action in enumerate(record["actions"], 1):
        try:
            game.step(action)
        except IllegalActionError as exc:
            raise StateFormatError(f"step {step} of the record cannot be played: {exc}") from None
        yield game, step, game.log[seen:]
        seen = len(game.log)


def matches(game: Game, record: dict) -> bool:
    """Whether a replayed game ended as the record says."""
    return game.is_over and outcome(game) == record["outcome"]

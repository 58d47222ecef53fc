"""Game records: one finished game per JSON line (seed, configuration, agents, actions,
outcome), enough to play it again exactly, and the replay itself.

A record's ``config`` is ``Game.config()`` with the ``seed`` and ``victory_card_drawn``
(true when the game drew its victory card from the seed: it must be drawn again, not
given, for the same deal to follow). ``outcome`` is what the replay must reach.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path

from tribune_env import Game, IllegalActionError, StateFormatError, VictoryCard, files

from ..bounds import MAX_ROUND_LIMIT, MAX_SEED

FORMAT, VERSION = "tribune-record", 1
FIELDS = {"config": dict, "agents": list, "actions": list, "outcome": dict}
CONFIG = {
    "num_players": int,
    "seed": range(MAX_SEED + 1),
    "round_limit": range(1, MAX_ROUND_LIMIT + 1),
    "point_variant": bool,
    "auto_forced": bool,
    "victory_card_drawn": bool,
    "victory_card": object,
}  # any value: None or what VictoryCard.from_dict accepts
MAX_LINE = 16 * 2**20  # bytes in one record; a game's record is some kilobytes


def outcome(game: Game) -> dict:
    """The facts of a finished game that a replay must reproduce."""
    return {
        "rounds": game.round,
        "terminated": game.terminated,
        "truncated": game.truncated,
        "winners": game.winners(),
        "scores": [int(s) for s in game.scores()],
    }


def make(final: Game, seed: int, drawn: bool, agents: list, actions: list, **extra) -> dict:
    """The record of the game `final`, finished after `actions` from `seed`; `extra` (e.g.
    the tournament's game index) is stored alongside."""
    return {
        "format": FORMAT,
        "version": VERSION,
        **extra,
        "config": {**final.config(), "seed": seed, "victory_card_drawn": drawn},
        "agents": list(agents),
        "actions": list(actions),
        "outcome": outcome(final),
    }


@contextmanager
def writer(path, append: bool = False):
    """A function adding one record to `path` as a JSON line, each line written as its game ends
    (the directory made if needed); with `append` the records already there are kept."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a" if append else "w") as f:
        if append and path.is_file() and not _ends_a_line(path):
            f.write("\n")
        yield lambda record: f.write(json.dumps(record, separators=(",", ":")) + "\n")


def _ends_a_line(path: Path) -> bool:
    """Whether the file is empty or ends with a newline, so that a record appended starts its own line."""
    with open(path, "rb") as f:
        if f.seek(0, os.SEEK_END) == 0:
            return True
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def write(path, records, append: bool = False) -> None:
    """Records, one JSON line each, to `path`; see :func:`writer`."""
    with writer(path, append) as add:
        for record in records:
            add(record)


def read(path, index: int) -> dict:
    """Game `index` (0-based, counting non-blank lines) of a records file; StateFormatError if malformed."""
    count = 0
    try:
        with open(path, "rb") as f:
            for number, line in lines(f, str(path)):
                if count == index:
                    return parse(line, f"{path}, line {number}")
                count += 1
    except OSError as exc:
        raise StateFormatError(f"cannot read {path}: {exc.strerror or exc}") from None
    raise StateFormatError(f"{path} holds {count} game record(s); there is no game {index}")


def lines(stream, where: str):
    """(line number, line) of each non-blank line of a binary stream of records (a file, an
    upload), none longer than MAX_LINE; read each with :func:`parse`."""
    for number, line in enumerate(iter(lambda: stream.readline(MAX_LINE + 1), b""), 1):
        files.check_size(len(line.rstrip(b"\r\n")), MAX_LINE, f"{where}, line {number}", StateFormatError)
        if line.strip():
            yield number, line


def parse(line: bytes, where: str) -> dict:
    """One line of a records file as a record, its fields checked; StateFormatError naming `where` if malformed."""
    record = files.parse_json(files.decode(line, where, StateFormatError), where, StateFormatError)
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise StateFormatError(f"{where}: not a {FORMAT!r} record")
    if type(record.get("version")) is not int or record["version"] != VERSION:  # true is not 1
        raise StateFormatError(
            f"{where}: record version {record.get('version')!r}; this tribune reads version {VERSION}"
        )
    for key, kind in FIELDS.items():
        if not isinstance(record.get(key), kind):
            raise StateFormatError(f"{where}: {key!r} is missing or not a {kind.__name__}")
    return record


def build(config: dict) -> Game:
    """The game a record's config describes, at its start, keeping its log for the replay."""
    _check_config(config)
    card = (
        None
        if config["victory_card_drawn"] or config["victory_card"] is None
        else VictoryCard.from_dict(config["victory_card"])
    )
    return Game(
        config["num_players"],
        card,
        point_variant=config["point_variant"],
        seed=config["seed"],
        round_limit=config["round_limit"],
        auto_forced=config["auto_forced"],
    )


def _check_config(config: dict) -> None:
    """The config's settings have their types and ranges (the engine checks the rest)."""
    for key, kind in CONFIG.items():
        if key not in config:
            raise StateFormatError(f"record config is missing {key!r}")
        value = config[key]
        if isinstance(kind, range):
            if isinstance(value, bool) or not isinstance(value, int) or value not in kind:
                raise StateFormatError(
                    f"record config: {key} must be an int from {kind.start} to {kind.stop - 1}, got {value!r}"
                )
        elif not isinstance(value, kind):
            raise StateFormatError(f"record config: {key} must be {kind.__name__}, got {value!r}")


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

"""Files of game records: one record a JSON line, read one line at a time.

A record is the engine's saved-game format (:mod:`tribune_env.saving`, docs/state-format.md):
configuration and seed, agents, actions, outcome. This module writes and reads files of
them, and replays one step by step for the commands and the web page.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path

from tribune_env import Game, StateFormatError, files, saving

MAX_LINE = 16 * 2**20  # bytes in one record; a game's record is some kilobytes


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
    try:
        record = saving.parse(line)
        saving.check(record)
    except StateFormatError as exc:
        raise StateFormatError(f"{where}: {exc}") from None
    return record


def replay(record: dict):
    """Play a parsed record back: yields (game, step, log lines of that step), step 0 being
    the deal; StateFormatError naming the first action the engine refuses.

    The game object is the same throughout; it is left at the end of the record's actions.
    """
    seen = 0
    for step, game in enumerate(saving.replay(record)):
        yield game, step, game.log[seen:]
        seen = len(game.log)


def matches(game: Game, record: dict) -> bool:
    """Whether a replayed game ended as the record says (a record saved before the end, as it has not ended)."""
    try:
        saving.check_ending(game, record["outcome"])
    except StateFormatError:
        return False
    return True

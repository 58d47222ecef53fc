"""Saved games: a game is saved as its configuration, its seed and its actions (a record,
docs/state-format.md), and loaded by playing them again through the engine.

The engine's legal mask checks every action, so nothing about the rules is restated here,
and what loads is a game that play reaches. The arena's game records are the same format
(``training/arena/records.py`` reads and writes files of them). One module each:

- ``text``: the text's length, nesting and number literals, before ``json.loads`` sees it;
- ``fields``: the record's keys, and each value's type and range;
- ``record``: a game written as a record;
- ``replay``: a record played back, each action checked by the engine, its ending compared.
"""

from .fields import check
from .limits import FORMAT, VERSION
from .record import outcome, record
from .replay import build, check_ending, load, replay
from .text import parse

__all__ = ["FORMAT", "VERSION", "build", "check", "check_ending", "load", "outcome", "parse", "record", "replay"]

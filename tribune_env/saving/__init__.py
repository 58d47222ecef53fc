"""Loading a saved game (JSON) with every field checked; see docs/state-format.md.

A saved game is data that users exchange, and the compiled engine indexes its arrays
with the numbers they hold. So the loader accepts only a state that a real game can be
in, and raises :class:`StateFormatError` naming the field for anything else. The checks
run in this order, one module each, each stage relying on the ones before:

1. ``text``: its length, how deep it nests and how long its number literals are, before
   ``json.loads`` sees it (so no RecursionError, no slow or failing int conversion);
2. ``document``: its keys, the config (strict types), every array's shape and integers;
3. ``ranges``: every entry within what its field can hold in this game, with amounts that
   play increases bounded so that play cannot overflow int32 (``limits.MAX_AMOUNT``);
4. ``stack``: every row a known task with arguments in range, and the live stack one
   that play builds (its bottom, what lies under what, its phase);
5. ``consistency``: the board against the phase and the pending tasks, the actor of
   every pending decision, bids, favor, declarations, the outcome, the cards.
"""

from __future__ import annotations

import numpy as np

from ..data import GameData
from ..errors import ConfigError, brief
from ..state import State
from .consistency import card_counts, check_consistency
from .document import check_document, config_arguments, integer_array
from .limits import FORMAT, FORMAT_VERSION, fail
from .ranges import check_ranges
from .text import check_plain_data, parse

__all__ = ["FORMAT", "FORMAT_VERSION", "card_counts", "load"]


def load(cls, source, data: GameData):
    """Build a Game from JSON text or its parsed data; raise StateFormatError naming the first problem."""
    if isinstance(source, (str, bytes, bytearray)):
        d = parse(source)
    else:
        d = source
        check_plain_data(d)
    check_document(d)
    config = d["config"]
    try:
        num_players, victory_card, point_variant = config_arguments(config)
        data.validate()
        layout = cls.state_layout(data)
    except ConfigError as exc:
        fail(f"bad config in saved game: {exc}")
    missing = [name for name in layout.offsets if name not in d["arrays"]]
    if missing:
        fail(f"saved game lacks the array {missing[0]!r}")
    extra = set(d["arrays"]) - set(layout.offsets)
    if extra:
        fail(f"saved game has unknown arrays {sorted(brief(k) for k in extra)}")
    buffer = np.empty(layout.size, dtype=np.int32)
    for name, (offset, size, shape) in layout.offsets.items():
        buffer[offset : offset + size] = integer_array(name, d["arrays"][name], shape)
    try:
        game = cls.from_state(
            State(layout, buffer),
            num_players,
            victory_card,
            point_variant=point_variant,
            data=data,
            round_limit=config["round_limit"],
            auto_forced=config["auto_forced"],
            log=d.get("log"),
        )
    except ConfigError as exc:
        fail(f"bad config in saved game: {exc}")
    check_ranges(game, game.state.arrays)
    check_consistency(game)
    return game

"""Loading a saved game (JSON) with every field checked; see docs/state-format.md."""
from __future__ import annotations

import numpy as np

from .data import NUM_CARD_TYPES, NUM_VALUES, GameData, VictoryCard
from .errors import ConfigError, StateFormatError
from .state import META, M, MAX_TASKS, State
from .core import dispatch
from .tasks import Task

FORMAT = "tribune-state"
FORMAT_VERSION = 1


def load(cls, d: dict, data: GameData):
    """Build a Game from `d`; raise StateFormatError naming the first problem."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise StateFormatError(f"not a saved Tribune game (expected format {FORMAT!r})")
    if d.get("version") != FORMAT_VERSION:
        raise StateFormatError(f"unsupported version {d.get('version')!r}; this engine reads {FORMAT_VERSION}")
    for key in ("config", "arrays"):
        if key not in d:
            raise StateFormatError(f"saved game lacks {key!r}")
    game = object.__new__(cls)
    config = d["config"]
    try:
        card = config["victory_card"]
        card = None if card is None else VictoryCard.from_dict(card)
        game._configure(config["num_players"], card, config["point_variant"], data,
                        config["round_limit"], config["auto_forced"])
    except (KeyError, TypeError) as exc:
        raise StateFormatError(f"malformed config: missing or wrong {exc}") from None
    except ConfigError as exc:
        raise StateFormatError(f"bad config in saved game: {exc}") from None
    layout = game._layout
    buffer = np.empty(layout.size, dtype=np.int32)
    info = np.iinfo(np.int32)
    for name, (offset, size, shape) in layout.offsets.items():
        if name not in d["arrays"]:
            raise StateFormatError(f"saved game lacks the array {name!r}")
        try:
            a = np.array(d["arrays"][name], dtype=np.int64)
        except (TypeError, ValueError):
            raise StateFormatError(f"array {name!r} is not numeric") from None
        if a.shape != shape:
            raise StateFormatError(f"array {name!r} has shape {a.shape}, expected {shape}")
        if a.size and (a.min() < info.min or a.max() > info.max):
            raise StateFormatError(f"array {name!r} holds values outside int32")
        buffer[offset: offset + size] = a.ravel()
    extra = set(d["arrays"]) - set(layout.offsets)
    if extra:
        raise StateFormatError(f"saved game has unknown arrays {sorted(extra)}")
    if not buffer[layout.offsets["rng"][0]: layout.offsets["rng"][0] + 4].any():
        raise StateFormatError("the generator state is all zero")
    log = d.get("log")
    if log is not None and not (isinstance(log, list) and all(isinstance(x, str) for x in log)):
        raise StateFormatError("log must be a list of strings or null")
    game._finish_init(State(layout, buffer), log is not None)
    game.log = log
    check_consistency(game)
    return game


def card_counts(g) -> np.ndarray:
    """Where every card is, summed: must equal the deck."""
    total = g.hand.sum(axis=0).astype(np.int64)
    n = int(g.meta[M["draw_n"]])
    total += np.bincount(g.draw[:n], minlength=NUM_CARD_TYPES)
    total += g.discard_public + g.discard_hidden + g.catacombs + g.curia.sum(axis=0)
    total += g.mars_pairs.sum(axis=0)
    total += np.bincount(g.slot_card[g.slot_card >= 0], minlength=NUM_CARD_TYPES)
    for f in range(g.sets.shape[0]):
        total[f * NUM_VALUES:(f + 1) * NUM_VALUES] += g.sets[f]
    challenger = int(g.meta[M["challenger"]])
    if challenger >= 0:
        decision = g.decision()
        f = decision[2] if decision is not None else 0
        total[f * NUM_VALUES:(f + 1) * NUM_VALUES] += g.challenger
    return total


def check_consistency(g):
    """Raise StateFormatError if the loaded arrays cannot be a game in progress."""
    meta = g.meta
    n = g.n
    if not 0 <= meta[M["n_tasks"]] <= MAX_TASKS:
        raise StateFormatError(f"meta n_tasks {meta[M['n_tasks']]} outside 0..{MAX_TASKS}")
    if not 0 <= meta[M["draw_n"]] <= len(g.draw):
        raise StateFormatError("meta draw_n outside the draw pile")
    if meta[M["status"]] not in (0, 1, 2):
        raise StateFormatError(f"meta status {meta[M['status']]} is not 0, 1 or 2")
    if not 0 <= meta[M["start_player"]] < n:
        raise StateFormatError("meta start_player is not a seat of this game")
    for key in ("temp_favor", "proconsul", "challenger"):
        if not -1 <= meta[M[key]] < n:
            raise StateFormatError(f"meta {key} is not -1 or a seat of this game")
    if not -1 <= meta[M["chariot"]] < 7:
        raise StateFormatError("meta chariot is not -1 or a faction")
    for name in ("controller", "space_owner", "field_owner"):
        a = getattr(g, name)
        if ((a < -1) | (a >= n)).any():
            raise StateFormatError(f"{name} names a seat outside this game")
    if (g.res[:, 0] < 0).any() or (g.res[:, 1:] < 0).any():
        raise StateFormatError("negative money, laurels, legions, tiles or markers")
    if (g.hand[n:] != 0).any() or (g.res[n:] != 0).any():
        raise StateFormatError("absent seats hold cards or resources")
    if ((g.markers < 0) | (g.markers > 1)).any():
        raise StateFormatError("a player holds a faction marker other than 0 or 1 times")
    if (g.res[:, 5] != g.markers.sum(axis=1)).any():
        raise StateFormatError("marker counts disagree with the markers held")
    counts = card_counts(g)
    if (counts != g.deck_counts).any():
        bad = int(np.flatnonzero(counts != g.deck_counts)[0])
        raise StateFormatError(f"card accounting fails: {g.card_name(bad)} appears {int(counts[bad])} "
                               f"times, the deck has {int(g.deck_counts[bad])}")
    if meta[M["status"]] == 0:
        n_tasks = int(meta[M["n_tasks"]])
        kinds = g.tasks[:n_tasks, 0]
        valid = set(int(t) for t in Task)
        if n_tasks == 0 or any(int(k) not in valid for k in kinds):
            raise StateFormatError("the task stack holds an unknown task")
        kind, a = int(g.tasks[n_tasks - 1, 0]), int(g.tasks[n_tasks - 1, 1])
        if kind < Task.SETUP_DISCARD or not 0 <= a < n:
            raise StateFormatError("a running game must wait for a decision of a seated player")
        dispatch.step(g._buffer, g._params, g._events, g._mask, -1)
        if not g._mask.any():
            raise StateFormatError("the decision waiting has no legal action")

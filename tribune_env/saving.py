"""Loading a saved game (JSON) with every field checked; see docs/state-format.md."""
from __future__ import annotations

import numpy as np

from .data import NUM_CARD_TYPES, NUM_VALUES, GameData, VictoryCard
from .errors import ConfigError, StateFormatError
from .state import ETERNAL, M, MAX_TASKS, TILE, TRIBUNE, State
from .core import dispatch
from .tasks import Task

FORMAT = "tribune-state"
FORMAT_VERSION = 1


def load(cls, d, data: GameData):
    """Build a Game from `d`; raise StateFormatError naming the first problem."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise StateFormatError(f"not a saved Tribune game (expected format {FORMAT!r})")
    if d.get("version") != FORMAT_VERSION:
        raise StateFormatError(f"unsupported version {d.get('version')!r}; this engine reads {FORMAT_VERSION}")
    for key in ("config", "arrays"):
        if key not in d:
            raise StateFormatError(f"saved game lacks {key!r}")
    if not isinstance(d["arrays"], dict):
        raise StateFormatError("'arrays' must map array names to nested lists")
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
    for name, (offset, size, shape) in layout.offsets.items():
        if name not in d["arrays"]:
            raise StateFormatError(f"saved game lacks the array {name!r}")
        buffer[offset: offset + size] = _integers(name, d["arrays"][name], shape).ravel()
    extra = set(d["arrays"]) - set(layout.offsets)
    if extra:
        raise StateFormatError(f"saved game has unknown arrays {sorted(extra)}")
    log = d.get("log")
    if log is not None and not (isinstance(log, list) and all(isinstance(x, str) for x in log)):
        raise StateFormatError("log must be a list of strings or null")
    state = State(layout, buffer)
    check_ranges(game, state.arrays)
    game._finish_init(state, log is not None)
    game.log = log
    check_consistency(game)
    return game


def _integers(name, value, shape) -> np.ndarray:
    try:
        a = np.array(value)
    except (TypeError, ValueError):
        raise StateFormatError(f"array {name!r} is not numeric") from None
    if a.shape != shape:
        raise StateFormatError(f"array {name!r} has shape {a.shape}, expected {shape}")
    if a.size and a.dtype.kind not in "iu":
        if a.dtype.kind == "f" and np.isfinite(a).all() and (a == np.round(a)).all():
            a = a.astype(np.int64)
        elif a.dtype.kind in "fb":
            raise StateFormatError(f"array {name!r} must hold integers")
        else:
            raise StateFormatError(f"array {name!r} is not numeric")
    info = np.iinfo(np.int32)
    if a.size and (a.min() < info.min or a.max() > info.max):
        raise StateFormatError(f"array {name!r} holds values outside int32")
    return a.astype(np.int64)


def _bounds(game) -> dict:
    """Inclusive (low, high) of every array's entries, for a game of this size."""
    n, d = game.n, game.data
    big = np.iinfo(np.int32).max
    card = NUM_CARD_TYPES - 1
    return {"tasks": (0, big), "hand": (0, NUM_VALUES * 16), "draw": (-1, card),
            "discard_public": (0, 16), "discard_hidden": (0, 16), "sets": (0, 16),
            "controller": (-1, n - 1), "first_laurel": (0, 1), "markers": (0, 1), "res": (0, big),
            "followers": (0, max(d.followers.values()) + 1), "coin_bowl": (0, 50),
            "space_owner": (-1, n - 1), "field_owner": (-1, n - 1), "slot_card": (-1, card),
            "slot_up": (0, 1), "curia": (0, 16), "catacombs": (0, 16), "pantheon_seen": (0, 1),
            "catacombs_seen": (0, 16), "bids": (0, big), "committed": (0, 1),
            "mars_pairs": (0, 2), "build": (0, 16), "challenger": (0, 16), "declared": (-1, n - 1),
            "winner": (0, 1), "rng": (np.iinfo(np.int32).min, big), "meta": (-1, big)}


META_BOUNDS = {"phase": (0, 6), "status": (0, 2), "chariot": (-1, 6), "round": (0, 10**6)}


def check_ranges(game, arrays):
    """Every entry within its field's range, and absent seats empty (before anything runs)."""
    n = game.n
    for name, (low, high) in _bounds(game).items():
        a = arrays[name]
        if name == "res" and a.size and a.min() < 0:
            raise StateFormatError("array 'res' holds a negative amount (money, laurels, legions, ...)")
        if a.size and (a.min() < low or a.max() > high):
            raise StateFormatError(f"array {name!r} holds {int(a.min() if a.min() < low else a.max())}, "
                                   f"outside {low}..{high}")
    meta = arrays["meta"]
    seats = {"start_player": (0, n - 1), "temp_favor": (-1, n - 1), "proconsul": (-1, n - 1),
             "challenger": (-1, n - 1), "n_declared": (0, n), "draw_n": (0, len(arrays["draw"])),
             "n_tasks": (0, MAX_TASKS // 2)}
    for key, (low, high) in {**META_BOUNDS, **seats}.items():
        if not low <= meta[M[key]] <= high:
            raise StateFormatError(f"meta {key} is {int(meta[M[key]])}, outside {low}..{high}")
    if any((meta[M[key]] < 0) for key in ("coin_bowl_used", "colosseum", "reshuffles")):
        raise StateFormatError("meta coin_bowl_used, colosseum and reshuffles must be >= 0")
    res = arrays["res"]
    if (res[:, TILE] > TRIBUNE).any():
        raise StateFormatError("a tile other than none (0), scroll (1) or tribune (2)")
    if (res[:, ETERNAL] > 1).any():
        raise StateFormatError("eternal favor must be 0 or 1")
    for name in ("hand", "markers", "res", "followers", "coin_bowl", "pantheon_seen",
                 "catacombs_seen", "bids", "committed", "winner"):
        if arrays[name][n:].any():
            raise StateFormatError(f"array {name!r} gives something to an absent seat")
    if (arrays["declared"][n:] != -1).any():
        raise StateFormatError("array 'declared' records an absent seat")
    draw_n = int(meta[M["draw_n"]])
    if (arrays["draw"][:draw_n] < 0).any() or (arrays["draw"][draw_n:] != -1).any():
        raise StateFormatError("the draw pile must hold card codes up to draw_n and -1 after")
    if not arrays["rng"].any():
        raise StateFormatError("the generator (rng) state is all zero")
    _check_tasks(game, arrays["tasks"][: meta[M["n_tasks"]]])


def _check_tasks(game, tasks):
    """Each task a known kind whose arguments index what exists in this game."""
    n, board, d = game.n, game.board, game.data
    seat, faction = range(n), range(7)
    limits = {Task.DEAL: (range(board.num_slots), None, range(2)),
              Task.DEAL_CURIA: (range(d.curia_stacks), None, range(2)),
              Task.DEAL_CATACOMBS: (None, None, range(2)), Task.DRAW: (seat, None, range(2)),
              Task.CURIA: (range(d.curia_stacks), None, None),
              Task.CATACOMBS: (range(len(d.catacomb_prices)), None, None),
              Task.TAKEOVER: (faction, None, None), Task.FACTION_BENEFIT: (faction, None, None),
              Task.TAKEOVER_BENEFIT: (seat, faction, None), Task.MARKER_LAUREL: (seat, faction, None),
              Task.LEADER: (seat, faction, None),
              Task.CURIA_CHOICE: (seat, range(d.curia_stacks), None),
              Task.CATACOMBS_CHOICE: (seat, range(len(d.catacomb_prices)), None),
              Task.MARS_PAIR: (seat, range(d.field_of_mars_spaces), None),
              Task.TAKEOVER_SET: (seat, faction, range(1, 3)), Task.PENALTY: (seat, faction, None),
              Task.BENEFIT_CHOICE: (seat, (0, 1, 3, 5, 6), None)}
    known = {int(t) for t in Task}
    for kind, *args in tasks.tolist():
        if kind not in known:
            raise StateFormatError(f"the task stack holds an unknown task kind {kind}")
        allowed = limits.get(kind, (seat, None, None) if kind >= Task.SETUP_DISCARD else (None, None, None))
        for arg, values in zip(args, allowed):
            if values is not None and arg not in values:
                raise StateFormatError(f"task {Task(kind).name} names {arg}, which this game has not "
                                       f"(a seat, faction, stack or space outside the board)")


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
    """Raise StateFormatError if the arrays, each in range, still cannot be a game in progress."""
    if (g.res[:, 5] != g.markers.sum(axis=1)).any():
        raise StateFormatError("marker counts disagree with the faction markers held")
    for f in range(7):
        size = int(g.sets[f].sum())
        if (g.controller[f] >= 0) != (size > 0) or 0 < size < 2:
            raise StateFormatError(f"faction {f}: a displayed set needs a controller and 2+ cards")
    first, second = g.field_owner[:, 0], g.field_owner[:, 1]
    if ((second >= 0) & ((first < 0) | (first == second))).any():
        raise StateFormatError("a faction field's space 2 is filled before space 1, or by the same seat")
    counts = card_counts(g)
    if (counts != g.deck_counts).any():
        bad = int(np.flatnonzero(counts != g.deck_counts)[0])
        raise StateFormatError(f"card accounting fails: {g.card_name(bad)} appears {int(counts[bad])} "
                               f"times, the deck has {int(g.deck_counts[bad])}")
    if g.is_over:
        return
    n_tasks = int(g.meta[M["n_tasks"]])
    if n_tasks == 0 or g.tasks[n_tasks - 1, 0] < Task.SETUP_DISCARD:
        raise StateFormatError("a running game must have a decision on top of its task stack")
    actor = int(g.tasks[n_tasks - 1, 1])
    if (g.build > g.hand[actor]).any():
        raise StateFormatError("the set under construction holds cards its builder lacks")
    if (g.meta[M["challenger"]] >= 0) != bool(g.challenger.any()):
        raise StateFormatError("a challenger's set and its player must come together")
    dispatch.legal_mask(g._buffer, g._params, g._mask)
    if not g._mask.any():
        raise StateFormatError("the decision waiting has no legal action")

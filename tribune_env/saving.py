"""Loading a saved game (JSON) with every field checked; see docs/state-format.md.

A saved game is data that users exchange, and the compiled engine indexes its arrays
with the numbers they hold, without bounds checks. So the loader accepts only a state
that a real game can be in, and raises :class:`StateFormatError` naming the field for
anything else. The checks run in this order, each stage relying on the ones before:

1. the text: its length, how deep it nests and how long its number literals are, before
   ``json.loads`` sees it (so no RecursionError, no slow or failing int conversion);
2. the document: its keys, the config (strict types), every array's shape and integers;
3. ranges: every entry within what its field can hold in this game, with amounts that
   play increases bounded so that play cannot overflow int32 (see ``MAX_AMOUNT``);
4. the task stack: every row a known task with arguments in range, and the live stack
   one that play builds (its bottom, what lies under what, its phase);
5. consistency across fields: the board against the phase and the pending tasks, the
   actor of every pending decision, bids, favor, declarations, the outcome, the cards.
"""
from __future__ import annotations

import itertools
import json
import re

import numpy as np

from .data import (FACTIONS, GLADIATORS, LEGATES, MAX_PLAYERS, MIN_PLAYERS, NUM_CARD_TYPES,
                   NUM_FACTIONS, NUM_VALUES, OBJECTIVES, PATRICIANS, PLEBEIANS, PRAETORIANS, SENATORS,
                   VESTALS, GameData, VictoryCard)
from .errors import ConfigError, StateFormatError
from .state import (ETERNAL, LAURELS, LEGIONS, MARKERS, MONEY, RESOURCES, STATUS_RUNNING,
                    STATUS_TRUNCATED, TILE, TRIBUNE, M, MAX_TASKS, State)
from .core import dispatch
from .tasks import FIRST_DECISION, Task

FORMAT = "tribune-state"
FORMAT_VERSION = 1

# ---------------------------------------------------------------------------- limits
# Text. A saved game with its log grows by about 3,000 characters a round (150,000 for a
# 50-round game), so even a game played to MAX_ROUND_LIMIT fits in MAX_TEXT. The format
# nests 4 deep (document / arrays / tasks / row). int32 needs 10 digits; literals up to
# MAX_DIGITS are parsed (instantly) so that the field's own check names the field, longer
# ones are refused before parsing (int() of 4,300+ digits fails, and takes quadratic time).
MAX_TEXT = 64 * 2 ** 20
MAX_DEPTH = 8
MAX_DIGITS = 40
MAX_STRING = 10_000            # a log line or a victory card id (real ones are < 200)
MAX_ITEMS = 4 * MAX_TEXT // 10  # values in a document passed as Python data (a JSON value takes 2+ chars)

# Amounts. Play adds to money (with the Colosseum), laurels, legions, the Colosseum and the
# reshuffle count only a bounded amount a round: with the default numbers at most 174
# denarii, 17 laurels, 5 legions, 9 denarii to the Colosseum and 90 reshuffles
# (``_task_gain``). ``check_growth`` accepts an amount only up to what the rounds played
# (and the part of this round already played) can have added to the start, and only game
# numbers with which a game played to its round limit stays within MAX_AMOUNT: with the
# default numbers 70 + 10,000 * 174 < 2 million denarii. So no state reachable from a
# loaded one holds more than MAX_AMOUNT = 10**8, a twentieth of 2**31 - 1: int32 sums of
# a few amounts cannot overflow and float32 observations stay finite. Real games come
# nowhere near it; victory thresholds are bounded by it too. The round limit is at most
# MAX_ROUND_LIMIT, for saved and new games alike (``Game(round_limit=...)``).
MAX_ROUND_LIMIT = 10_000
MAX_AMOUNT = 10 ** 8
MAX_STACK = MAX_TASKS // 2     # a real game's task stack stays under 40 rows

ROOT = 0                       # the parent of the setup tasks (not a task kind)
ANY = None                     # in a task pattern: any value (its range is checked apart)

BUILDERS = (Task.SETUP_DISCARD, Task.CESURA_DISCARD, Task.MARS_PAIR, Task.TAKEOVER_SET)
BIDS = (Task.ATRIUM_BID, Task.CHARIOT_BID)
BASE_PHASE = {Task.ROUND_START: 0, Task.PHASE2: 1, Task.PLACE: 2, Task.PHASE3: 2, Task.PHASE4: 3,
              Task.PHASE5: 4, Task.PHASE6: 5, Task.ROUND_END: 6}   # bottom task -> phase


def _fail(message: str):
    raise StateFormatError(message)


def brief(value) -> str:
    """A short description of a value from the file (never the value itself if large)."""
    if isinstance(value, (bool, float, np.floating)) or value is None:
        return repr(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value)) if abs(int(value)) < 10 ** 12 else "a huge integer"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else f"a string of {len(value)} characters"
    return f"a {type(value).__name__}"


# ---------------------------------------------------------------------------- 1. the text
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r'[^\[\]{}]+')
_LONG_NUMBER = re.compile(r'\d{%d,}' % (MAX_DIGITS + 1))


def parse(text) -> object:
    """JSON text (str or bytes) to plain data, checking its size and shape before json.loads."""
    if isinstance(text, (bytes, bytearray)):
        check_text_length(len(text))
        try:
            text = bytes(text).decode(json.detect_encoding(text), "surrogatepass")
        except (UnicodeDecodeError, LookupError):
            _fail("saved state is not valid JSON: not UTF-8/16/32 text")
    check_text_length(len(text))
    bare = _STRING.sub('""', text)
    check_nesting(_NOT_BRACKET.sub("", bare))
    check_number_literals(bare)
    try:
        return json.loads(text, object_pairs_hook=_object_without_duplicates,
                          parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        _fail(f"saved state is not valid JSON: {exc.msg} at character {exc.pos}")


def check_text_length(length: int):
    """Longer than any real save: refuse before spending time or memory on it."""
    if length > MAX_TEXT:
        _fail(f"saved state is {length} characters long, more than the limit of {MAX_TEXT}")


def check_nesting(brackets: str, limit: int = MAX_DEPTH):
    """Brackets outside strings nest at most `limit` deep (counted, not recursed)."""
    depth = 0
    for start in range(0, len(brackets), 2 ** 20):
        chunk = np.frombuffer(brackets[start: start + 2 ** 20].encode("ascii"), dtype=np.uint8)
        steps = np.where((chunk == ord("[")) | (chunk == ord("{")), 1, -1)
        levels = depth + np.cumsum(steps, dtype=np.int64)
        if levels.max(initial=0) > limit:
            _fail(f"saved state nests arrays or objects more than {limit} deep")
        depth = int(levels[-1])


def check_number_literals(bare: str):
    """No number literal longer than an int32 needs (a 5,000-digit one makes int() fail)."""
    if _LONG_NUMBER.search(bare):
        _fail(f"saved state holds a number literal of more than {MAX_DIGITS} digits")


def _object_without_duplicates(pairs):
    """A JSON object; a key given twice would make the file say two things."""
    d = dict(pairs)
    if len(d) != len(pairs):
        _fail("saved state repeats a key in an object")
    return d


def _no_constant(name):
    _fail(f"saved state holds {name}, which is not a JSON number")


def check_plain_data(doc):
    """Containers at most MAX_DEPTH deep and MAX_ITEMS values in all (a document passed as data).

    Walked with a list, not recursion; what each value must be is checked field by field.
    """
    todo, items = ([(doc, 1)] if isinstance(doc, (dict, list, tuple)) else []), 0
    while todo:
        value, depth = todo.pop()
        if depth > MAX_DEPTH:
            _fail(f"saved state nests arrays or objects more than {MAX_DEPTH} deep")
        children = value.values() if isinstance(value, dict) else value
        items += len(children)
        if items > MAX_ITEMS:
            _fail(f"saved state holds more than {MAX_ITEMS} values")
        todo.extend((v, depth + 1) for v in children if isinstance(v, (dict, list, tuple)))


# ---------------------------------------------------------------------------- 2. the document
def load(cls, source, data: GameData):
    """Build a Game from JSON text or its parsed data; raise StateFormatError naming the first problem."""
    if isinstance(source, (str, bytes, bytearray)):
        d = parse(source)
    else:
        d = source
        check_plain_data(d)
    check_document(d)
    game = object.__new__(cls)
    try:
        game._configure(*_config_arguments(d["config"]), data, d["config"]["round_limit"],
                        d["config"]["auto_forced"])
    except ConfigError as exc:
        _fail(f"bad config in saved game: {exc}")
    layout = game._layout
    missing = [name for name in layout.offsets if name not in d["arrays"]]
    if missing:
        _fail(f"saved game lacks the array {missing[0]!r}")
    extra = set(d["arrays"]) - set(layout.offsets)
    if extra:
        _fail(f"saved game has unknown arrays {sorted(brief(k) for k in extra)}")
    buffer = np.empty(layout.size, dtype=np.int32)
    for name, (offset, size, shape) in layout.offsets.items():
        buffer[offset: offset + size] = _integers(name, d["arrays"][name], shape)
    log = d.get("log")
    state = State(layout, buffer)
    check_ranges(game, state.arrays)
    game._finish_init(state, log is not None)
    game.log = None if log is None else list(log)
    check_consistency(game)
    return game


def check_document(d):
    """The document's keys, format tag, version, config and log, before any array is read."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        _fail(f"not a saved Tribune game (expected format {FORMAT!r})")
    version = d.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        _fail(f"unsupported version {brief(version)}; this engine reads {FORMAT_VERSION}")
    for key in ("config", "arrays"):
        if key not in d:
            _fail(f"saved game lacks {key!r}")
    extra = set(d) - {"format", "version", "config", "arrays", "log"}
    if extra:
        _fail(f"saved game has unknown keys {sorted(brief(k) for k in extra)}")
    if not isinstance(d["arrays"], dict):
        _fail("'arrays' must map array names to nested lists")
    log = d.get("log")
    if log is not None and not (isinstance(log, list) and all(isinstance(x, str) for x in log)):
        _fail("log must be a list of strings or null")
    check_config(d["config"])


CONFIG_KEYS = ("num_players", "point_variant", "victory_card", "round_limit", "auto_forced")
CARD_KEYS = ("id", "laurels", "legions", "denarii", "markers", "need", "obligatory", "length")


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def check_config(config):
    """Exactly the keys the engine writes, each of its type and range (so it saves back the same)."""
    if not isinstance(config, dict):
        _fail("malformed config: not an object")
    for key in CONFIG_KEYS:
        if key not in config:
            _fail(f"malformed config: missing {key!r}")
    if set(config) != set(CONFIG_KEYS):
        _fail(f"malformed config: unknown keys {sorted(brief(k) for k in set(config) - set(CONFIG_KEYS))}")
    n = config["num_players"]
    if not _is_int(n) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
        _fail(f"config num_players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}, got {brief(n)}")
    limit = config["round_limit"]
    if not _is_int(limit) or not 1 <= limit <= MAX_ROUND_LIMIT:
        _fail(f"config round_limit must be an int from 1 to {MAX_ROUND_LIMIT}, got {brief(limit)}")
    for key in ("point_variant", "auto_forced"):
        if not isinstance(config[key], bool):
            _fail(f"config {key} must be true or false, got {brief(config[key])}")
    if config["victory_card"] is not None:
        check_victory_card(config["victory_card"])
    elif not config["point_variant"]:
        _fail("config victory_card is null, but only the point-value variant plays without one")


def check_victory_card(card):
    """A victory card object: the eight keys, thresholds within MAX_AMOUNT, need per player count."""
    if not isinstance(card, dict) or set(card) != set(CARD_KEYS):
        _fail(f"malformed config: a victory card has exactly the keys {list(CARD_KEYS)}")
    for key in ("id", "length"):
        if not isinstance(card[key], str) or not 0 < len(card[key]) <= 100:
            _fail(f"victory card {key} must be a string of 1 to 100 characters")
    for key in ("laurels", "legions", "denarii", "markers"):
        if not _is_int(card[key]) or not 0 <= card[key] <= MAX_AMOUNT:
            _fail(f"victory card {key} must be an int from 0 to {MAX_AMOUNT}, got {brief(card[key])}")
    need = card["need"]
    counts = {str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    if not isinstance(need, dict) or not need or not set(need) <= counts:
        _fail("victory card need must map player counts '2'..'5' to objectives needed")
    if not all(_is_int(v) and 1 <= v <= len(OBJECTIVES) for v in need.values()):
        _fail(f"victory card need must give 1 to {len(OBJECTIVES)} objectives")
    if card["obligatory"] is not None and card["obligatory"] not in OBJECTIVES:
        _fail(f"victory card obligatory must be null or one of {list(OBJECTIVES)}")


def _config_arguments(config):
    card = config["victory_card"]
    return config["num_players"], None if card is None else VictoryCard.from_dict(card), config["point_variant"]


def _integers(name, value, shape) -> np.ndarray:
    """A nested list of exactly `shape` holding int32 integers (not floats, not booleans)."""
    level = [value]
    for size in shape:
        following = []
        for item in level:
            if not isinstance(item, (list, tuple)) or len(item) != size:
                _fail(f"array {name!r} must be nested lists of shape {shape}")
            following.extend(item)
        level = following
    if set(map(type, level)) - {int}:          # numpy integers pass; name anything else
        for x in level:
            if isinstance(x, (float, np.floating)):
                _fail(f"array {name!r} must hold integers, not {brief(x)}")
            if not _is_int(x):
                _fail(f"array {name!r} is not numeric: it holds {brief(x)}")
        level = [int(x) for x in level]
    if level and (min(level) < -2 ** 31 or max(level) >= 2 ** 31):
        _fail(f"array {name!r} holds values outside int32")
    return np.array(level, dtype=np.int64)


# ---------------------------------------------------------------------------- 3. ranges
def _bounds(game) -> dict:
    """Inclusive (low, high) of every array's entries, for a game of this size."""
    n, d = game.n, game.data
    card = NUM_CARD_TYPES - 1
    copies = game.deck_counts                             # a count of card c is at most its copies
    per_value = game.deck_counts.reshape(NUM_FACTIONS, NUM_VALUES)
    followers = d.followers[n] + 1                        # the proconsul is one more
    resources = np.array([MAX_AMOUNT, MAX_AMOUNT, MAX_AMOUNT, TRIBUNE, 1, NUM_FACTIONS])
    return {"hand": (0, copies), "draw": (-1, card), "discard_public": (0, copies),
            "discard_hidden": (0, copies), "sets": (0, per_value), "controller": (-1, n - 1),
            "first_laurel": (0, 1), "markers": (0, 1), "res": (0, resources),
            "followers": (0, followers), "coin_bowl": (0, followers), "space_owner": (-1, n - 1),
            "field_owner": (-1, n - 1), "slot_card": (-1, card), "slot_up": (0, 1), "curia": (0, copies),
            "catacombs": (0, copies), "pantheon_seen": (0, 1), "catacombs_seen": (0, copies),
            "bids": (0, MAX_AMOUNT), "committed": (0, 1), "mars_pairs": (0, copies), "build": (0, copies),
            "challenger": (0, per_value.max(axis=0)), "declared": (-1, n - 1), "winner": (0, 1)}


def _meta_bounds(game) -> dict:
    n, d = game.n, game.data
    return {"round": (0, game.round_limit), "phase": (0, 6), "start_player": (0, n - 1),
            "coin_bowl_used": (0, n * d.followers[n] + 1), "colosseum": (0, MAX_AMOUNT),
            "chariot": (-1, NUM_FACTIONS - 1), "proconsul": (-1, n - 1), "temp_favor": (-1, n - 1),
            "draw_n": (0, d.deck_size()), "n_tasks": (0, MAX_STACK), "n_declared": (0, n),
            "status": (0, 2), "challenger": (-1, n - 1), "reshuffles": (0, MAX_AMOUNT)}


def check_ranges(game, arrays):
    """Every entry within its field's range, and absent seats empty (before anything runs)."""
    for name, (low, high) in _bounds(game).items():
        a = arrays[name]
        bad = (a < low) | (a > high)
        if bad.any():
            at = tuple(int(i) for i in np.argwhere(bad)[0])
            lo, hi = (int(np.broadcast_to(x, a.shape)[at]) for x in (low, high))
            where = f"{RESOURCES[at[1]]} of player_{at[0]}" if name == "res" else f"at {list(at)}"
            what = "a negative amount" if name == "res" and a[at] < 0 else int(a[at])
            _fail(f"array {name!r} holds {what} ({where}), outside {lo}..{hi}")
    meta = arrays["meta"]
    for key, (low, high) in _meta_bounds(game).items():
        if not low <= meta[M[key]] <= high:
            _fail(f"meta {key} is {int(meta[M[key]])}, outside {low}..{high}")
    n = game.n
    for name in ("hand", "markers", "res", "followers", "coin_bowl", "pantheon_seen",
                 "catacombs_seen", "bids", "committed", "winner"):
        if arrays[name][n:].any():
            _fail(f"array {name!r} gives something to an absent seat")
    if (arrays["declared"][n:] != -1).any():
        _fail("array 'declared' records an absent seat")
    draw_n = int(meta[M["draw_n"]])
    if (arrays["draw"][:draw_n] < 0).any() or (arrays["draw"][draw_n:] != -1).any():
        _fail("the draw pile must hold card codes up to draw_n and -1 after")
    if not arrays["rng"].any():
        _fail("the generator (rng) state is all zero")
    check_task_rows(game, arrays["tasks"], int(meta[M["n_tasks"]]))


# ---------------------------------------------------------------------------- 4. the task stack
def _bid_task_args(game):
    """Arguments b, c of an ATRIUM_BID / CHARIOT_BID task: (kind, p, 0, 0).

    The one place that knows the bid tasks' arguments: when bids are entered digit by
    digit, b (digits entered) ranges over the digits a bid can have.
    """
    return range(1), range(1)


def _task_args(game) -> dict:
    """Task kind -> the values its arguments a, b, c can take in this game."""
    n, board, d = game.n, game.board, game.data
    seat, faction, zero, retry = range(n), range(NUM_FACTIONS), range(1), range(2)
    stack, catacomb, mars = range(d.curia_stacks), range(len(d.catacomb_prices)), range(d.field_of_mars_spaces)
    args = {kind: (zero, zero, zero) for kind in Task if kind < FIRST_DECISION}
    args.update({kind: (seat, zero, zero) for kind in Task if kind >= FIRST_DECISION})
    args.update({
        Task.DEAL: (range(board.num_slots), zero, retry), Task.DEAL_CURIA: (stack, zero, retry),
        Task.DEAL_CATACOMBS: (zero, zero, retry), Task.DRAW: (seat, zero, retry),
        Task.CURIA: (stack, zero, zero), Task.CATACOMBS: (catacomb, zero, zero),
        Task.TAKEOVER: (faction, zero, zero), Task.FACTION_BENEFIT: (faction, zero, zero),
        Task.TAKEOVER_BENEFIT: (seat, faction, zero), Task.MARKER_LAUREL: (seat, faction, zero),
        Task.LEADER: (seat, faction, zero), Task.CURIA_CHOICE: (seat, stack, zero),
        Task.CATACOMBS_CHOICE: (seat, catacomb, zero), Task.MARS_PAIR: (seat, mars, zero),
        Task.TAKEOVER_SET: (seat, faction, range(1, 3)), Task.PENALTY: (seat, faction, zero),
        Task.BENEFIT_CHOICE: (seat, (GLADIATORS, LEGATES, PLEBEIANS, VESTALS, SENATORS), zero)})
    for kind in BIDS:
        args[kind] = (seat, *_bid_task_args(game))
    return args


def check_task_rows(game, tasks, n_tasks):
    """Every row a known task whose arguments index what exists in this game.

    Rows above n_tasks are left over from popped tasks (or unused, all zero); the engine
    overwrites them before reading, but they are checked the same way.
    """
    args = _task_args(game)
    for i, row in enumerate(tasks.tolist()):
        kind, *values = row
        if i >= n_tasks and not any(row):
            continue
        if kind not in args:
            _fail(f"the task stack holds an unknown task kind {kind} (row {i})")
        for value, allowed in zip(values, args[kind]):
            if value not in allowed:
                _fail(f"task {Task(kind).name} (row {i}) names {value}, which this game has not "
                      f"(a seat, faction, stack or space outside the board)")


def _pattern(kind, a=0, b=0, c=0):
    return int(kind), a, b, c


def _start_order(g) -> list:
    start = int(g.meta[M["start_player"]])
    return [(start + i) % g.n for i in range(g.n)]


def _owner(g, region: str, i: int = 0) -> int:
    return int(g.space_owner[g.board.spaces[region].start + i])


def _pushes(g, task) -> list:
    """Every list of tasks (bottom first) that task (kind, a, b, c), run or decided, may push.

    Seats that cannot have changed since the push are filled in from the state (space
    owners in Phase 3, field owners in Phase 4, controllers in Phase 5, the starting
    player within a round); others are ANY.
    """
    kind, a, b, c = task
    T, P = Task, _pattern
    d, board, order = g.data, g.board, _start_order(g)
    if kind == ROOT:
        return [(P(T.ROUND_START), P(T.SETUP_FINISH), *(P(T.SETUP_DISCARD, p) for p in reversed(order)))]
    if kind == T.ROUND_START:
        slots = board.slots
        return [(P(T.PHASE2), *(P(T.DEAL, s) for s in reversed(slots["Pantheon"])),
                 *(P(T.DEAL_CATACOMBS),) * d.catacomb_cards,
                 *(P(T.DEAL, s) for s in reversed(slots["Atrium Auctionorum"])),
                 *(P(T.DEAL_CURIA, s) for s in reversed(range(d.curia_stacks))),
                 *(P(T.DEAL, s) for s in reversed(range(slots["Atrium Auctionorum"].start))))]
    if kind in (T.DEAL, T.DEAL_CATACOMBS, T.DRAW, T.DEAL_CURIA):
        lists = [()]
        if kind == T.DEAL_CURIA:
            lists.append((P(T.DEAL_CURIA, a),))
        if c == 0:          # both piles empty: a cesura magna, then the draw once more
            retry = (P(kind, a, 0, 1), P(T.CESURA_SETS))
            for chosen in itertools.product((False, True), repeat=g.n):
                lists.append(retry + tuple(P(T.CESURA_DISCARD, p)
                                           for p, x in zip(reversed(order), chosen) if x))
        return lists
    if kind == T.PHASE2:
        return [(P(T.PLACE, order[0]),)]
    if kind == T.PLACE:
        return [(P(T.PLACE, ANY),), (P(T.PHASE3),), (P(T.PLACE, ANY), P(T.ATRIUM_FLIP, a)),
                (P(T.PHASE3), P(T.ATRIUM_FLIP, a))]
    if kind == T.PHASE3:
        return [(P(T.PHASE4), P(T.MARS), P(T.PANTHEON), P(T.CATACOMBS_END),
                 *(P(T.CATACOMBS, i) for i in reversed(range(len(d.catacomb_prices)))), P(T.ATRIUM),
                 *(P(T.CURIA, s) for s in reversed(range(d.curia_stacks))), P(T.LATRINE), P(T.FORUM),
                 P(T.THERMAE))]
    if kind == T.LATRINE:
        return [(), (P(T.LATRINE_CHOICE, _owner(g, "Latrine")),)]
    if kind == T.CURIA:
        return [(), (P(T.CURIA_CHOICE, _owner(g, "Curia", a), a),)]
    if kind == T.ATRIUM:
        first, second = _owner(g, "Atrium Auctionorum", 0), _owner(g, "Atrium Auctionorum", 1)
        if first < 0 or second < 0:
            return [()]
        return [(P(T.ATRIUM_RESOLVE), P(T.ATRIUM_BID, second, ANY, ANY), P(T.ATRIUM_BID, first, ANY, ANY))]
    if kind == T.CATACOMBS:
        return [(), (P(T.CATACOMBS_CHOICE, _owner(g, "Catacombs", a), a),)]
    if kind == T.PANTHEON:
        owners = [int(g.space_owner[s]) for s in reversed(board.spaces["Pantheon"])]
        return [(), (P(T.PANTHEON_END), *(P(T.SACRIFICE, p) for p in owners if p >= 0 and not g.res[p, ETERNAL]))]
    if kind == T.MARS:
        spaces = reversed(range(d.field_of_mars_spaces))
        return [(P(T.MARS_RESOLVE), *(P(T.MARS_PAIR, _owner(g, "Field of Mars", i), i)
                                      for i in spaces if _owner(g, "Field of Mars", i) >= 0))]
    if kind == T.PHASE4:
        return [(P(T.PHASE5), *(P(T.TAKEOVER, f) for f in reversed(range(NUM_FACTIONS))))]
    if kind == T.TAKEOVER:
        first, second = (int(x) for x in g.field_owner[a])
        return [()] if first < 0 else [(P(T.TAKEOVER_SET, first, a, 1),) + (
            (P(T.TAKEOVER_SET, second, a, 2),) if second >= 0 else ())]
    if kind == T.TAKEOVER_SET:
        if c != 1:
            return [()]
        second = int(g.field_owner[b, 1])

        def take_over(p):
            return [(P(T.MARKER_LAUREL, p, b), P(T.TAKEOVER_BENEFIT, p, b)),
                    (P(T.LEADER, p, b), P(T.MARKER_LAUREL, p, b), P(T.TAKEOVER_BENEFIT, p, b))]
        return [()] + take_over(a) + [x + (P(T.PENALTY, second, b),) for x in take_over(a)] + take_over(second)
    if kind == T.TAKEOVER_BENEFIT:
        return {PRAETORIANS: [(P(T.DRAW, a),)], PLEBEIANS: [(P(T.ASSASSIN, a), P(T.DRAW, a))]}.get(b, [()])
    if kind == T.LEADER:
        return {PRAETORIANS: [(), (P(T.TIGELLINUS, a),)], PLEBEIANS: [(P(T.AGRIPPA, a),)],
                SENATORS: [(), (P(T.CATO, a),)]}.get(b, [()])
    if kind == T.AGRIPPA:
        return [(), (P(T.DRAW, a),)]
    if kind == T.PHASE5:
        return [(P(T.PHASE6), *(P(T.FACTION_BENEFIT, f) for f in reversed(range(NUM_FACTIONS))))]
    if kind == T.FACTION_BENEFIT:
        p = int(g.controller[a])
        return [()] if p < 0 or a in (PRAETORIANS, PATRICIANS) else [(P(T.BENEFIT_CHOICE, p, a),)]
    if kind == T.BENEFIT_CHOICE:
        return [(), {GLADIATORS: (P(T.ASSASSIN, a), P(T.DRAW, a)), LEGATES: (P(T.BUY_LEGION, a), P(T.DRAW, a)),
                     PLEBEIANS: (P(T.DRAW, a),), VESTALS: (P(T.TEMP_FAVOR, a),),
                     SENATORS: (P(T.DRAW, a), P(T.DRAW, a))}[b]]
    if kind == T.PHASE6:
        return [(P(T.ROUND_END), P(T.CHARIOT_RESOLVE), *(P(T.CHARIOT_BID, p, ANY, ANY) for p in reversed(order)))]
    if kind == T.CHARIOT_RESOLVE:
        return [(), (P(T.CHARIOT_PLACE, ANY),)]
    if kind == T.ROUND_END:
        return [(), (P(T.ROUND_START),)]
    return [()]     # pushes nothing (a decision that re-pushes itself stays where it was)


def _matches(row, pattern) -> bool:
    return all(want is ANY or want == got for got, want in zip(row, pattern))


def stack_can_arise(g, rows) -> bool:
    """Whether play builds this live stack (bottom first), from the setup on.

    Each task, when run, pushes one of the lists `_pushes` gives, on top of the tasks that
    were under it. So the stack is a bottom part of one task's list, then what the next
    task of that list (now popped) pushed, and so on: a search over (row, popped task).
    """
    todo, seen = [(0, (ROOT, 0, 0, 0))], set()
    while todo:
        at, parent = todo.pop()
        if (at, parent) in seen:
            continue
        seen.add((at, parent))
        for pushed in _pushes(g, parent):
            for i, task in enumerate(pushed, at):
                if i >= len(rows):
                    break
                todo.append((i, task))            # `task` ran; the rows from i are its doing
                if not _matches(rows[i], task):
                    break
                if i == len(rows) - 1:
                    return True                   # the stack is the bottom part of this list
    return False


def check_task_stack(g):
    """A running game waits on a decision, on a stack play builds, in the phase its base says."""
    n_tasks = int(g.meta[M["n_tasks"]])
    if g.is_over:
        if n_tasks:
            _fail(f"a finished game has {n_tasks} tasks left on its stack (n_tasks must be 0)")
        return
    rows = [tuple(r) for r in g.tasks[:n_tasks].tolist()]
    if n_tasks == 0 or rows[-1][0] < FIRST_DECISION:
        _fail("a running game must have a decision on top of its task stack")
    if not stack_can_arise(g, rows):
        _fail("the task stack (tasks, n_tasks) is not one that play builds: "
              f"bottom {Task(rows[0][0]).name}, top {Task(rows[-1][0]).name}")
    phase = BASE_PHASE[rows[0][0]]
    if g.phase != phase:
        _fail(f"meta phase is {g.phase}, but the task stack is that of phase {phase}")


def _live(g) -> list:
    """The live task rows, bottom first, as (kind, a, b, c) tuples."""
    return [tuple(r) for r in g.tasks[: int(g.meta[M["n_tasks"]])].tolist()]


def _pending(g, kind) -> list:
    """The live rows of one task kind."""
    return [r for r in _live(g) if r[0] == kind]


# ---------------------------------------------------------------------------- 5. consistency
AMOUNTS = ("money and the Colosseum", "laurels", "legions", "colosseum", "reshuffles")


def _amount_vector(**amounts) -> np.ndarray:
    keys = {"money": 0, "laurels": 1, "legions": 2, "colosseum": 3, "reshuffles": 4}
    v = np.zeros(len(AMOUNTS), dtype=np.int64)
    for key, value in amounts.items():
        v[keys[key]] = value
    return v


def _takeover_gain(g, f: int) -> np.ndarray:
    """The most a take-over of faction f adds: its benefit, its leader, the first laurel, draws."""
    d = g.data
    return _amount_vector(
        money={VESTALS: d.vestal_denarii, PATRICIANS: d.scipio_denarii}.get(f, 0),
        laurels=d.first_control_laurels + {LEGATES: d.legate_laurels + d.varus_laurels,
                                           PATRICIANS: d.patrician_laurels, SENATORS: d.senator_laurels}.get(f, 0),
        legions={GLADIATORS: d.gladiator_legions + d.spartacus_legions, PRAETORIANS: 1}.get(f, 0),
        reshuffles={PRAETORIANS: 2, PLEBEIANS: 4}.get(f, 0))     # 2 a draw: (DRAW, TB / Agrippa)


def _benefit_gain(g, f: int) -> np.ndarray:
    """The most Phase 5's benefit of faction f adds."""
    d = g.data
    return _amount_vector(money=d.plebeian_benefit_denarii if f == PLEBEIANS else 0,
                          laurels=d.vestal_benefit_laurels if f == VESTALS else 0,
                          legions=1 if f in (PRAETORIANS, LEGATES) else 0,
                          reshuffles={GLADIATORS: 2, LEGATES: 2, PLEBEIANS: 2, SENATORS: 4}.get(f, 0))


def _task_gain(g, row, fresh: bool = False) -> np.ndarray:
    """The most that task `row`, and everything it will push, can still add to each amount
    before the next round starts (`fresh`: as at the start of a round).

    Each addition in the rules is counted on the task that makes it (a coin-bowl follower
    on the placement, a take-over's denarii on the take-over, a reshuffle on the draw, at
    most two a draw: before it and in a cesura), so running or deciding a task never adds
    more than the sum over the stack drops. That makes the bound of ``check_growth`` hold
    for every state play reaches from an accepted one.
    """
    kind, a, b, c = row
    d, T = g.data, Task
    bowl = max(d.coin_bowl_first, d.coin_bowl_later)
    if kind == T.ROUND_START:
        return sum((_task_gain(g, r, fresh=True) for r in _pushes(g, row)[0]), _amount_vector())
    if kind in (T.DEAL, T.DEAL_CATACOMBS, T.DRAW):
        return _amount_vector(reshuffles=2 - c)
    if kind == T.DEAL_CURIA:
        return _amount_vector(reshuffles=2 - c + 2 * (d.curia_sum if fresh else _curia_room(g, a)))
    if kind == T.CESURA_SETS:
        return _amount_vector(reshuffles=1)
    if kind in (T.PHASE2, T.PLACE):
        followers = g.n * d.followers[g.n] + 1 if kind == T.PHASE2 else int(g.followers[:g.n].sum())
        return _amount_vector(money=followers * bowl) + _task_gain(g, (T.PHASE3, 0, 0, 0))
    if kind == T.PHASE3:
        return (_amount_vector(money=max(max(v) for v in d.deck.values()),
                               colosseum=sum(max(x, 0) for x in d.catacomb_prices),
                               laurels=d.field_of_mars_spaces * d.mars_laurels_per_pair + d.mars_bonus_laurels)
                + _task_gain(g, (T.PHASE4, 0, 0, 0)))
    if kind in (T.LATRINE, T.LATRINE_CHOICE):
        return _amount_vector(money=max(max(v) for v in d.deck.values()))
    if kind in (T.CATACOMBS, T.CATACOMBS_CHOICE):
        return _amount_vector(colosseum=max(d.catacomb_prices[a if kind == T.CATACOMBS else b], 0))
    if kind in (T.MARS, T.MARS_RESOLVE):
        return _amount_vector(laurels=d.field_of_mars_spaces * d.mars_laurels_per_pair + d.mars_bonus_laurels)
    if kind == T.PHASE4:
        return sum((_takeover_gain(g, f) for f in range(NUM_FACTIONS)), _task_gain(g, (T.PHASE5, 0, 0, 0)))
    if kind == T.TAKEOVER or (kind == T.TAKEOVER_SET and c == 1):
        return _takeover_gain(g, a if kind == T.TAKEOVER else b)
    if kind == T.TAKEOVER_BENEFIT:
        return _amount_vector(money=d.vestal_denarii if b == VESTALS else 0,
                              laurels={LEGATES: d.legate_laurels, PATRICIANS: d.patrician_laurels,
                                       SENATORS: d.senator_laurels}.get(b, 0),
                              legions=d.gladiator_legions if b == GLADIATORS else 0,
                              reshuffles=2 if b in (PRAETORIANS, PLEBEIANS) else 0)
    if kind == T.MARKER_LAUREL:
        return _amount_vector(laurels=d.first_control_laurels)
    if kind == T.LEADER:
        return _amount_vector(money=d.scipio_denarii if b == PATRICIANS else 0,
                              laurels=d.varus_laurels if b == LEGATES else 0,
                              legions={GLADIATORS: d.spartacus_legions, PRAETORIANS: 1}.get(b, 0),
                              reshuffles=2 if b == PLEBEIANS else 0)
    if kind == T.AGRIPPA:
        return _amount_vector(reshuffles=2)
    if kind in (T.TIGELLINUS, T.BUY_LEGION):
        return _amount_vector(legions=1)
    if kind == T.PHASE5:
        return sum((_benefit_gain(g, f) for f in range(NUM_FACTIONS)), _amount_vector())
    if kind in (T.FACTION_BENEFIT, T.BENEFIT_CHOICE):
        return _benefit_gain(g, a if kind == T.FACTION_BENEFIT else b)
    return _amount_vector()


def _curia_room(g, stack: int) -> int:
    """Cards (each worth 1 or more) a Curia stack being dealt can still take."""
    values = np.arange(NUM_CARD_TYPES) % NUM_VALUES
    cards = g.curia[stack]
    return 0 if cards[values == 0].any() else max(0, g.data.curia_sum - int(cards @ values))


def check_growth(g):
    """No amount beyond what the rounds played can have added to the start (so none can overflow).

    A round adds at most `per_round` (with the default numbers 174 denarii, 17 laurels,
    5 legions, 9 to the Colosseum, 90 reshuffles), of which the tasks on the stack can
    still add `to_come`. The game's numbers must keep a game played to its round limit
    within MAX_AMOUNT; a loaded game then stays there too, far from int32 overflow.
    """
    per_round = _task_gain(g, (Task.ROUND_START, 0, 0, 0))
    to_come = sum((_task_gain(g, row) for row in _live(g)), _amount_vector())
    n = g.n
    start = _amount_vector(money=sum(g.data.starting_money + i for i in range(n)))
    reach = start + per_round * g.round_limit
    if reach.max() > MAX_AMOUNT:
        _fail(f"with these game numbers the {AMOUNTS[int(reach.argmax())]} could pass {MAX_AMOUNT} "
              f"before round_limit {g.round_limit}")
    held = _amount_vector(money=int(g.res[:n, MONEY].sum()) + int(g.meta[M["colosseum"]]),
                          laurels=int(g.res[:n, LAURELS].sum()), legions=int(g.res[:n, LEGIONS].sum()),
                          colosseum=int(g.meta[M["colosseum"]]), reshuffles=int(g.meta[M["reshuffles"]]))
    most = start + per_round * max(g.round - 1, 0) + per_round - to_come
    for i, name in enumerate(AMOUNTS):
        if held[i] > most[i]:
            _fail(f"{name} total {held[i]}, more than round {g.round}, phase {g.phase} can reach ({most[i]})")


def check_resources(g):
    """Marker counts match the markers held."""
    if (g.res[:, MARKERS] != g.markers.sum(axis=1)).any():
        _fail("marker counts (res) disagree with the faction markers held")


def check_setup(g):
    """Round 0 (setup): the deal, starting money, the discards so far; everything else untouched."""
    if g.phase != 0:
        if g.round == 0:
            _fail("meta round is 0 after the setup")
        return
    if g.round != 0:
        _fail(f"meta round is {g.round} during the setup (phase 0)")
    d, n, order = g.data, g.n, _start_order(g)
    waiting = {r[1] for r in _pending(g, Task.SETUP_DISCARD)}
    for i, p in enumerate(order):
        if g.res[p, MONEY] != d.starting_money + i:
            _fail(f"player_{p} holds {int(g.res[p, MONEY])} denarii at setup, not {d.starting_money + i}")
        if g.hand[p].sum() != (d.setup_deal if p in waiting else d.setup_keep):
            _fail(f"player_{p} holds {int(g.hand[p].sum())} cards in the setup")
    if g.discard_hidden.sum() != (n - len(waiting)) * (d.setup_deal - d.setup_keep):
        _fail("the setup discards (discard_hidden) disagree with who has discarded")
    if g.meta[M["draw_n"]] != d.deck_size() - n * d.setup_deal:
        _fail("the draw pile (draw_n) at setup is not the deck less the deal")
    initial = g._layout.initial
    for name in ("discard_public", "sets", "controller", "first_laurel", "markers", "followers",
                 "coin_bowl", "space_owner", "field_owner", "slot_card", "slot_up", "curia", "catacombs",
                 "pantheon_seen", "catacombs_seen", "bids", "committed", "mars_pairs", "challenger", "winner"):
        o, size, _ = g._layout.offsets[name]
        if not np.array_equal(g._buffer[o: o + size], initial[o: o + size]):
            _fail(f"array {name!r} is not as dealt during the setup")
    if g.res[:, LAURELS:MARKERS + 1].any():
        _fail("array 'res' holds laurels, legions, a tile, favor or markers during the setup")
    for key, value in (("coin_bowl_used", 0), ("colosseum", 0), ("chariot", -1), ("proconsul", -1),
                       ("temp_favor", -1), ("challenger", -1), ("reshuffles", 0)):
        if g.meta[M[key]] != value:
            _fail(f"meta {key} is {int(g.meta[M[key]])} during the setup, not {value}")


def check_outcome(g):
    """Winners only in a finished game; a victory has a declarer and the rules' winner(s)."""
    status, n = g.status, g.n
    winners = [int(p) for p in np.flatnonzero(g.winner[:n])]
    declarers = [p for p in range(n) if g.declared[p] >= 0]
    if status == STATUS_RUNNING:
        if winners:
            _fail("array 'winner' names winners while the game runs")
        return
    if g.phase != 6:
        _fail(f"a game ends in phase 6, not {g.phase}")
    if status == STATUS_TRUNCATED:
        if g.round != g.round_limit or declarers or winners:
            _fail("a truncated game ends at its round limit with no declaration and no winner")
        return
    if not declarers:
        _fail("a terminated game needs a declaration (array 'declared')")
    scores = g.scores().tolist()
    if g.victory_card is None:
        best = max(scores)
        expected = [p for p in range(n) if scores[p] == best]
    else:
        expected = [min(declarers, key=lambda p: (-scores[p], g.declared[p]))]
    if winners != expected:
        _fail(f"array 'winner' names {winners}; the scores {scores} give {expected}")


def _objective(g, p: int, i: int) -> bool:
    r, card = g.res[p], g.victory_card
    return bool((r[TILE] == TRIBUNE, r[ETERNAL] > 0 or g.meta[M["temp_favor"]] == p,
                 r[LAURELS] >= card.laurels, r[LEGIONS] >= card.legions, r[MONEY] >= card.denarii,
                 r[MARKERS] >= card.markers)[i])


def meets_victory(g, p: int) -> bool:
    """Whether player p now meets the victory card (or the point variant's marker goal)."""
    if g.victory_card is None:
        return g.res[p, MARKERS] >= g.marker_goal
    need = g.victory_card.need[g.n]
    obligatory = g.victory_card.obligatory
    met = sum(_objective(g, p, i) for i in range(len(OBJECTIVES)))
    return met >= need and (obligatory is None or _objective(g, p, OBJECTIVES.index(obligatory)))


def check_declarations(g):
    """'declared' numbers the declarers 0..n_declared-1; whoever meets the card has declared.

    The engine records a declaration after every step, so only the state before the first
    step (the setup) may hold someone who meets the card undeclared.
    """
    n, count = g.n, int(g.meta[M["n_declared"]])
    order = sorted(int(x) for x in g.declared[:n] if x >= 0)
    if order != list(range(count)):
        _fail(f"array 'declared' {g.declared[:n].tolist()} disagrees with meta n_declared {count}")
    if g.phase == 0:
        return
    for p in range(n):
        if g.declared[p] < 0 and meets_victory(g, p):
            _fail(f"player_{p} meets the victory condition but has not declared (array 'declared')")


def check_favor(g):
    """The temporary favor: with the Vestal Virgins' controller only, and never beside eternal favor."""
    temp = int(g.meta[M["temp_favor"]])
    if temp >= 0 and (temp != g.controller[VESTALS] or g.res[temp, ETERNAL]):
        _fail(f"meta temp_favor is player_{temp}, who does not control the Vestal Virgins "
              "or holds eternal favor")


def check_factions(g):
    """Sets, controllers, markers, first laurels, field followers and the chariot agree."""
    pending_laurel = {r[2] for r in _pending(g, Task.MARKER_LAUREL)}
    for f in range(NUM_FACTIONS):
        size, owner = int(g.sets[f].sum()), int(g.controller[f])
        if (owner >= 0) != (size > 0) or 0 < size < 2:
            _fail(f"faction {f}: a displayed set (sets) needs a controller and 2+ cards")
        if not g.first_laurel[f] and not g.markers[:, f].any():
            _fail(f"{FACTIONS[f]}: the first-control laurel is gone but nobody holds its marker")
        if owner >= 0 and f not in pending_laurel and (g.first_laurel[f] or not g.markers[owner, f]):
            _fail(f"{FACTIONS[f]}: its controller lacks the marker or the first laurel is still there")
    first, second = g.field_owner[:, 0], g.field_owner[:, 1]
    if ((second >= 0) & ((first < 0) | (first == second))).any():
        _fail("a faction field's space 2 is filled before space 1, or by the same seat")
    if g.phase in (2, 3):
        for f in range(NUM_FACTIONS):
            if g.controller[f] >= 0 and g.controller[f] in g.field_owner[f]:
                _fail(f"{FACTIONS[f]}: its controller has a follower on its field (field_owner)")
    chariot = int(g.meta[M["chariot"]])
    if chariot >= 0:
        if g.controller[chariot] < 0:
            _fail("meta chariot blocks a faction nobody controls")
        if g.phase in (2, 3, 4) and (g.field_owner[chariot] >= 0).any():
            _fail("a follower on the faction field the chariot blocks (field_owner)")
    if g.meta[M["proconsul"]] >= 0 and g.first_laurel[PATRICIANS]:
        _fail("meta proconsul is set, but nobody has ever controlled the Patricians")


def check_spaces(g):
    """Region followers: only in Phases 2-3; pooled regions fill in order; Atrium and Pantheon rules."""
    owners = g.space_owner
    if g.phase not in (2, 3):
        if (owners >= 0).any():
            _fail(f"a follower on a region space (space_owner) in phase {g.phase}")
    for region in ("Atrium Auctionorum", "Pantheon", "Field of Mars"):
        row = owners[g.board.spaces[region]]
        taken = row >= 0
        if (taken[1:] & ~taken[:-1]).any():
            _fail(f"{region}: a later space is taken before an earlier one (space_owner)")
        if region != "Field of Mars" and taken.all() and row[0] == row[-1]:
            _fail(f"{region}: one player on both spaces (space_owner)")
    for s in g.board.spaces["Pantheon"]:
        if owners[s] >= 0 and not g.markers[owners[s], VESTALS]:
            _fail("a Pantheon follower without a Vestal Virgins marker (space_owner)")
    if g.phase in (0, 1, 5, 6) and (g.field_owner >= 0).any():
        _fail(f"a follower on a faction field (field_owner) in phase {g.phase}")


def check_followers(g):
    """Phases 2-3: each player's followers placed plus those left are its allotment; none left after."""
    if g.phase != 2 and g.followers.any():
        _fail(f"followers left to place (followers) in phase {g.phase}")
    if g.phase in (2, 3):
        owners = g.space_owner.tolist() + g.field_owner.ravel().tolist()
        for p in range(g.n):
            allot = _allotment(g, p)
            if owners.count(p) + g.coin_bowl[p] + g.followers[p] != allot:
                _fail(f"player_{p}: followers placed and left (followers) do not add up to {allot}")
    if g.coin_bowl.sum() != g.meta[M["coin_bowl_used"]]:
        _fail("meta coin_bowl_used disagrees with the followers on the coin bowl")
    if g.phase < 2 and g.coin_bowl.any():
        _fail(f"followers on the coin bowl in phase {g.phase}")


def _allotment(g, p: int) -> int:
    """Followers p places this round: the player count's number, one more for the proconsul."""
    proconsul = g.meta[M["proconsul"]]
    return g.data.followers[g.n] + int(proconsul == p and g.controller[PATRICIANS] == p)


def check_placement_order(g):
    """Phase 2: players place in turn from the starting player, skipping those with none left.

    So the followers each has left, who placed last (and may turn Atrium cards) and who
    places next all follow from how many followers were placed.
    """
    if g.phase != 2:
        return
    n = g.n
    left = [_allotment(g, p) for p in range(n)]
    placed = sum(left) - int(g.followers[:n].sum())
    seat, last = int(g.meta[M["start_player"]]), -1
    for _ in range(placed):
        left[seat] -= 1
        last = seat
        seat = next(((seat + i) % n for i in range(1, n + 1) if left[(seat + i) % n] > 0), -1)
    if left != g.followers[:n].tolist():
        _fail(f"followers left (followers) {g.followers[:n].tolist()} are not what placing in turn leaves")
    live = _live(g)
    if live[0] != ((Task.PLACE, seat, 0, 0) if seat >= 0 else (Task.PHASE3, 0, 0, 0)):
        _fail(f"the next placement (tasks) is not player_{seat}'s, whose turn it is")
    if live[-1][0] == Task.ATRIUM_FLIP and live[-1][1] != last:
        _fail(f"the Atrium flip (tasks) is not for player_{last}, who placed last")


def check_cesura(g):
    """In a cesura magna, exactly the players above the hand limit have a discard pending."""
    if Task.CESURA_SETS not in {r[0] for r in _live(g)}:
        return
    over = {p for p in range(g.n) if g.hand[p].sum() > g.data.cesura_hand_limit}
    if over != {r[1] for r in _pending(g, Task.CESURA_DISCARD)}:
        _fail("the cesura discards pending (tasks) are not for the players above the hand limit (hand)")


def _slots(g, region):
    return list(g.board.slots[region])


def check_slots(g):
    """Cards on the board: dealt in Phase 1, face down until turned, gone once a region is resolved."""
    phase, kinds = g.phase, {r[0] for r in _live(g)}
    card, up = g.slot_card, g.slot_up
    if phase in (1, 2):
        for region in ("Thermae", "Forum Romanum"):
            if any(card[s] >= 0 and not up[s] for s in _slots(g, region)):
                _fail(f"a {region} card lies face down (slot_up)")
        for region in ("Latrine", "Pantheon") + (("Atrium Auctionorum",) if phase == 1 else ()):
            if any(card[s] >= 0 and up[s] for s in _slots(g, region)):
                _fail(f"a {region} card lies face up (slot_up) in phase {phase}")
    if phase == 2:
        check_atrium_cards(g)
    if phase == 3:
        resolved = {"Thermae": Task.THERMAE not in kinds, "Forum Romanum": Task.FORUM not in kinds,
                    "Latrine": not kinds & {Task.LATRINE, Task.LATRINE_CHOICE},
                    "Atrium Auctionorum": not kinds & {Task.ATRIUM, Task.ATRIUM_RESOLVE},
                    "Pantheon": not kinds & {Task.PANTHEON, Task.PANTHEON_END}}
        for region, done in resolved.items():
            if done and (card[_slots(g, region)] >= 0).any():
                _fail(f"a card (slot_card) is left in the {region}, which is resolved")
        if Task.LATRINE_CHOICE in kinds:
            s = _slots(g, "Latrine")[0]
            if card[s] < 0 or not up[s]:
                _fail("the Latrine choice waits, but no card lies face up there (slot_card)")
        if kinds & {Task.SACRIFICE, Task.PANTHEON_END}:
            s = _slots(g, "Pantheon")[0]
            if card[s] < 0 or not up[s]:
                _fail("the Pantheon sacrifice waits, but no card lies face up there (slot_card)")
    if phase in (0, 4, 5, 6) and (card >= 0).any():
        _fail(f"a card on the board (slot_card) in phase {phase}")


def check_atrium_cards(g):
    """Phase 2: Atrium cards face down, two up once "1." chose, all up once "2." is taken."""
    slots = _slots(g, "Atrium Auctionorum")
    present = g.slot_card[slots] >= 0
    face_up = int((g.slot_up[slots] & present).sum())
    first, second = _owner(g, "Atrium Auctionorum", 0), _owner(g, "Atrium Auctionorum", 1)
    flipping = _live(g)[-1][0] == Task.ATRIUM_FLIP
    if first < 0 or flipping:
        expected = 0
    elif second < 0:
        expected = max(int(present.sum()) - 1, 0)    # all but the one "1." keeps face down
    else:
        expected = int(present.sum())
    if face_up != expected:
        _fail("the Atrium cards face up (slot_up) do not match who is on the Atrium")


def check_piles(g):
    """Curia stacks, the Catacombs pile and Field of Mars pairs: when they may hold cards, and how many."""
    phase, kinds = g.phase, {r[0] for r in _live(g)}
    d = g.data
    values = np.arange(NUM_CARD_TYPES) % NUM_VALUES
    for s in range(d.curia_stacks):
        stack = g.curia[s]
        total, leaders = int(stack @ values), int(stack[values == 0].sum())
        highest = int(values[stack > 0].max(initial=0))
        if leaders > 1 or (leaders and total >= d.curia_sum) or (not leaders and total - highest >= d.curia_sum):
            _fail(f"Curia stack {s} holds more than a deal puts there (curia)")
        resolved = phase == 3 and not (_has(g, Task.CURIA, s) or _has(g, Task.CURIA_CHOICE, s, at=2))
        if stack.any() and (phase in (0, 4, 5, 6) or resolved):
            _fail(f"cards on Curia stack {s} (curia) in phase {phase}, after it was resolved")
    catacombs_done = phase in (0, 4, 5, 6) or (phase == 3 and Task.CATACOMBS_END not in kinds)
    waiting = len(_pending(g, Task.DEAL_CATACOMBS))
    if g.catacombs.sum() + waiting > d.catacomb_cards:
        _fail("the Catacombs pile (catacombs) holds more cards than are dealt there")
    if catacombs_done and (g.catacombs.any() or g.catacombs_seen.any()):
        _fail(f"cards in the Catacombs (catacombs, catacombs_seen) in phase {phase}, after they were resolved")
    for p in range(g.n):
        seen = g.catacombs_seen[p]
        if seen.any() and (phase != 3 or (g.catacombs > seen).any() or p not in g.space_owner[
                g.board.spaces["Catacombs"]]):
            _fail(f"player_{p} has seen Catacombs cards (catacombs_seen) it cannot have examined")
    check_mars_pairs(g)


def _has(g, kind, value, at=1) -> bool:
    return any(r[at] == value for r in _pending(g, kind))


def check_mars_pairs(g):
    """Face-down Field of Mars pairs: two cards of one faction, on an owned space, until resolved."""
    resolving = Task.MARS_RESOLVE in {r[0] for r in _live(g)}
    for i, pair in enumerate(g.mars_pairs):
        if not pair.any():
            continue
        factions = np.flatnonzero(pair) // NUM_VALUES
        if (not resolving or pair.sum() != 2 or factions.min() != factions.max()
                or _owner(g, "Field of Mars", i) < 0 or _has(g, Task.MARS_PAIR, i, at=2)):
            _fail(f"Field of Mars pair {i} (mars_pairs) is not one a player laid this round")


def check_pending_deals(g):
    """A deal still to come finds its place empty: a slot, or a Curia stack still being filled."""
    slots = [r[1] for r in _pending(g, Task.DEAL)]
    if len(set(slots)) != len(slots) or any(g.slot_card[s] >= 0 for s in slots):
        _fail("a pending DEAL task would deal onto a filled slot (slot_card)")
    stacks = [r[1] for r in _pending(g, Task.DEAL_CURIA)]
    if len(set(stacks)) != len(stacks) or any(g.curia[s].any() for s in stacks[:-1]):
        _fail("a pending DEAL_CURIA task would deal onto a Curia stack already dealt (curia)")
    if stacks:                     # the stack being filled: below the sum, no leader yet
        stack = g.curia[stacks[-1]]
        values = np.arange(NUM_CARD_TYPES) % NUM_VALUES
        if stack @ values >= g.data.curia_sum or stack[values == 0].any():
            _fail("a pending DEAL_CURIA task would deal onto a complete Curia stack (curia)")


def check_pantheon_seen(g):
    """Who looked at the Pantheon card: its followers, until the Pantheon is resolved."""
    kinds = {r[0] for r in _live(g)}
    looking = g.phase == 2 or (g.phase == 3 and kinds & {Task.PANTHEON, Task.PANTHEON_END})
    on = {int(g.space_owner[s]) for s in g.board.spaces["Pantheon"]} if looking else set()
    if [bool(x) for x in g.pantheon_seen[:g.n]] != [p in on for p in range(g.n)]:
        _fail("array 'pantheon_seen' disagrees with the followers on the Pantheon")


def check_bids(g):
    """Sealed bids and commitments exist only while their auction or the Pantheon is resolved.

    A bidder whose bid task is done has committed; bids[p] is at most p's money and
    non-zero only once p committed, or while p enters its bid (a bid task with digits).
    """
    live = _live(g)
    kinds = {r[0] for r in live}
    n = g.n
    bidding = {r[1] for r in live if r[0] in BIDS}
    if Task.ATRIUM_RESOLVE in kinds:
        bidders = {_owner(g, "Atrium Auctionorum", 0), _owner(g, "Atrium Auctionorum", 1)}
    elif Task.CHARIOT_RESOLVE in kinds:
        bidders = set(range(n))
    else:
        bidders = set()
    sacrificing = {r[1] for r in live if r[0] == Task.SACRIFICE}
    pantheon = {int(g.space_owner[s]) for s in g.board.spaces["Pantheon"]} if Task.PANTHEON_END in kinds else set()
    top = live[-1] if live and not g.is_over else None
    entering = top[1] if top is not None and top[0] in BIDS and top[2] > 0 else -1
    for p in range(n):
        done = p in bidders and p not in bidding
        may_commit = done or (p in pantheon and p not in sacrificing and not g.res[p, ETERNAL])
        if (g.committed[p] and not may_commit) or (done and not g.committed[p]):
            _fail(f"player_{p}'s commitment (committed) does not fit the bids and sacrifices under way")
        if g.bids[p] > g.res[p, MONEY] or (g.bids[p] and not (g.committed[p] and p in bidders) and p != entering):
            _fail(f"player_{p}'s bid (bids) is more than its money or outside an auction")


def check_build(g):
    """The set under construction: only a multi-card decision's, from its actor's hand."""
    if g.is_over or _live(g)[-1][0] not in BUILDERS:
        if g.build.any():
            _fail("array 'build' holds cards, but no decision builds a set")
        return
    kind, p, b, c = _live(g)[-1]
    build, hand = g.build, g.hand[p]
    if (build > hand).any():
        _fail("the set under construction (build) holds cards its builder lacks")
    if kind == Task.SETUP_DISCARD and hand.sum() - build.sum() < g.data.setup_keep:
        _fail("the setup discard (build) goes below the cards kept")
    if kind == Task.CESURA_DISCARD and hand.sum() - build.sum() < g.data.cesura_hand_limit:
        _fail("the cesura discard (build) goes below the hand limit")
    factions = np.flatnonzero(build) // NUM_VALUES
    if kind == Task.MARS_PAIR and (build.sum() > 2 or (factions.size and factions.min() != factions.max())):
        _fail("a Field of Mars pair (build) is at most two cards of one faction")
    if kind == Task.TAKEOVER_SET and (factions != b).any():
        _fail("a take-over set (build) holds cards of another faction")


def check_challenger(g):
    """The set of space "2" waits only while "1" of the same faction decides, or pays its penalty."""
    c = int(g.meta[M["challenger"]])
    if (c >= 0) != bool(g.challenger.any()):
        _fail("a challenger's set and its player (meta challenger) must come together")
    if c < 0:
        return
    kind, p, f, role = _live(g)[-1] if not g.is_over else (0, -1, 0, 0)
    waiting = (kind == Task.TAKEOVER_SET and role == 1) or (kind == Task.PENALTY and p == c)
    if not waiting or g.field_owner[f, 1] != c or g.challenger.sum() < 2:
        _fail("meta challenger names a player who is not the waiting challenger of a take-over")
    if kind == Task.TAKEOVER_SET and g.controller[f] >= 0:
        count, total = int(g.challenger.sum()), int(g.challenger @ np.arange(NUM_VALUES))
        held = g.sets[f]
        if not (count > held.sum() or total > held @ np.arange(NUM_VALUES)):
            _fail("the challenger's set (challenger) does not beat the set it challenged")


def check_actors(g):
    """The player of each pending decision (and take-over task) is the one the rules name."""
    for kind, p, b, c in _live(g):
        problem = _actor_problem(g, kind, p, b, c)
        if problem:
            _fail(f"task {Task(kind).name} for player_{p}: {problem}")


def _actor_problem(g, kind, p, b, c):
    T = Task
    if kind < FIRST_DECISION and kind not in (T.TAKEOVER_BENEFIT, T.MARKER_LAUREL, T.LEADER):
        return None                      # automatic tasks without a player
    if kind == T.CESURA_DISCARD and g.hand[p].sum() <= g.data.cesura_hand_limit:
        return "its hand is within the limit"
    if kind == T.PLACE and g.followers[p] < 1:
        return "no follower left to place"
    if kind == T.ATRIUM_FLIP:
        slots = _slots(g, "Atrium Auctionorum")
        if _owner(g, "Atrium Auctionorum", 0) != p or _owner(g, "Atrium Auctionorum", 1) >= 0 \
                or not (g.slot_card[slots] >= 0).any():
            return "not alone on Atrium space 1 with cards to turn"
    if kind == T.CATACOMBS_CHOICE and (not g.catacombs.any() or (g.catacombs_seen[p] != g.catacombs).any()):
        return "no examined Catacombs card to buy"
    if kind == T.CURIA_CHOICE and not g.curia[b].any():
        return "the Curia stack is empty"
    if kind in (T.SACRIFICE, T.TEMP_FAVOR) and g.res[p, ETERNAL]:
        return "it holds eternal favor"
    if kind in (T.TAKEOVER_BENEFIT, T.MARKER_LAUREL, T.LEADER, T.BENEFIT_CHOICE) and g.controller[b] != p:
        return "it does not control the faction"
    faction = {T.TIGELLINUS: PRAETORIANS, T.AGRIPPA: PLEBEIANS, T.CATO: SENATORS, T.TEMP_FAVOR: VESTALS,
               T.BUY_LEGION: LEGATES, T.ASSASSIN: PLEBEIANS if g.phase == 4 else GLADIATORS}.get(kind)
    if faction is not None and g.controller[faction] != p:
        return f"it does not control the {FACTIONS[faction]}"
    if kind == T.TEMP_FAVOR and g.meta[M["temp_favor"]] == p:
        return "it holds the temporary favor already"
    if kind == T.PENALTY and g.meta[M["challenger"]] != p:
        return "it is not the challenger"
    if kind == T.CHARIOT_PLACE and g.meta[M["chariot"]] >= 0:
        return "the chariot is already placed"
    return None


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


def check_cards(g):
    """All the deck's cards, each exactly where the arrays say, none twice or lost."""
    counts = card_counts(g)
    if (counts != g.deck_counts).any():
        bad = int(np.flatnonzero(counts != g.deck_counts)[0])
        _fail(f"card accounting fails: {g.card_name(bad)} appears {int(counts[bad])} "
              f"times, the deck has {int(g.deck_counts[bad])}")
    if Task.CESURA_SETS in {r[0] for r in _live(g)}:
        if g.meta[M["draw_n"]] or g.discard_hidden.any():
            _fail("a cesura magna runs only when the draw pile (draw_n) and hidden discards are empty")


def check_legal_action(g):
    """The decision waiting offers at least one action (computed by the engine itself)."""
    if g.is_over:
        return
    dispatch.legal_mask(g._buffer, g._params, g._mask)
    if not g._mask.any():
        _fail("the decision waiting has no legal action")


CONSISTENCY = (check_task_stack, check_setup, check_outcome, check_resources, check_growth,
               check_declarations, check_favor, check_factions, check_spaces, check_followers,
               check_placement_order, check_cesura, check_slots, check_piles, check_pending_deals,
               check_pantheon_seen, check_bids, check_build, check_challenger, check_actors, check_cards,
               check_legal_action)   # in this order: later checks rely on earlier ones (the stack first)


def check_consistency(g):
    """Raise StateFormatError if the arrays, each in range, still cannot be a real game's state."""
    for check in CONSISTENCY:
        check(g)

"""A seeded fuzzer for ``Game.from_json``: mutations of real saved games, and what must hold.

Every input must either be rejected with :class:`StateFormatError` (a short message), or
load a game that is what the file says (its arrays, config and log), keeps every
invariant (card accounting, observations inside their Box space and finite, a legal
action while running, ``to_json`` loading back to the same state) and plays on to its
end with random legal actions, the invariants holding after every step.

``tests/test_fuzz_saving.py`` runs it in CI, ``benchmarks/fuzz_saving.py`` for longer.
Deterministic: the same seed gives the same inputs and the same verdicts.
"""

from __future__ import annotations

import copy
import json
import zlib
from dataclasses import dataclass, field

import numpy as np

from tribune_env import Game, StateFormatError, VictoryCard
from tribune_env.data import NUM_VALUES
from tribune_env.envs.observation_space import observation_space
from tribune_env.saving import card_counts
from tribune_env.state import Meta
from tribune_env.tasks import Task

MESSAGE_LIMIT = 300  # a rejection names the problem; it never echoes the input
CHECK_RELOAD_EVERY = 40  # steps between reloads of the game's own save during play

EASY_CARD = VictoryCard(
    "fuzz-easy",
    laurels=4,
    legions=1,
    denarii=20,
    markers=2,
    need={2: 3, 3: 3, 4: 2, 5: 2},
    obligatory="markers",
    length="short",
)
BASE_GAMES = (  # (players, victory card or "points", auto_forced, log, round limit, seed)
    (2, "alea-iacta-est-short", True, True, 50, 1),
    (3, "panem-et-circenses", True, False, 50, 2),
    (4, "cursus-honorum", True, True, 50, 3),
    (5, "quinque-viri", True, True, 50, 4),
    (2, "points", False, True, 50, 5),
    (3, "points", True, True, 50, 6),
    (4, "pax-romana", False, False, 50, 7),
    (5, EASY_CARD, True, True, 50, 8),
    (3, "alea-iacta-est-long", True, True, 3, 9),
    (4, "points", True, False, 50, 10),
    (2, "cursus-honorum", True, True, 50, 11),
    (5, "quinque-viri", False, True, 50, 12),
)
LOG_KEPT = 12  # lines of a base state's log kept (the log is free text; short saves fuzz faster)


# ------------------------------------------------------------------------------ real states
def base_states(games=BASE_GAMES, every: int = 60) -> list[str]:
    """Saved real games: the first state of each decision kind in each game, every `every`-th
    state, and the end; most with the round limit lowered to a round or two ahead.

    A game's state does not depend on its round limit until the limit is reached, so the
    state at round r of a game limited to 50 rounds is also that of the same game limited
    to r + 1: a real state whose play to the end is short.
    """
    out = []
    for n, card, auto_forced, log, limit, seed in games:
        kw = dict(point_variant=True) if card == "points" else dict(victory_card=card)
        g = Game(n, seed=seed, auto_forced=auto_forced, log=log, round_limit=limit, **kw)
        rng = np.random.default_rng(seed)
        seen, step = set(), 0
        while True:
            decision = g.decision()
            if g.is_over or step % every == 0 or (decision and decision[0] not in seen):
                d = json.loads(g.to_json())
                if d["log"] is not None:
                    d["log"] = d["log"][-LOG_KEPT:]
                if not g.is_over:
                    seen.add(decision[0])
                    d["config"]["round_limit"] = max(1, min(g.round_limit, g.round + step % 3))
                out.append(json.dumps(d, separators=(",", ":")))
            if g.is_over:
                break
            g.step(int(rng.choice(g.legal_actions())))
            step += 1
    return out


def decision_kinds(texts) -> set:
    """The decision kinds waiting in these saved games."""
    kinds = set()
    for text in texts:
        d = json.loads(text)
        meta, tasks = d["arrays"]["meta"], d["arrays"]["tasks"]
        if meta[Meta.STATUS] == 0:
            kinds.add(Task(tasks[meta[Meta.N_TASKS] - 1][0]))
    return kinds


# ------------------------------------------------------------------------------ mutations
INT_PALETTE = (
    -1,
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    10,
    11,
    16,
    50,
    76,
    77,
    99,
    100,
    127,
    128,
    255,
    10_000,
    10_001,
    2**15,
    10**8,
    10**8 + 1,
    2**31 - 1,
    -(2**31),
    2**31,
    -(2**31) - 1,
    2**32,
    2**53 + 1,
    2**63,
    -(2**63) - 1,
    10**30,
)
ODD_VALUES = (1.5, 3.0, -0.0, 1e308, "7", "", "x" * 300, True, False, None, [], [1], {}, {"a": 1}, [[[0]]])


def _int(rng, old=None):
    if old is not None and isinstance(old, int) and rng.random() < 0.4:
        return old + int(rng.choice((-2, -1, 1, 2)))
    if rng.random() < 0.3:
        return int(rng.integers(-3, 20))
    return INT_PALETTE[rng.integers(len(INT_PALETTE))]


def _leaves(value, path=()):
    """(path, value) of every non-container value inside nested lists."""
    if isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, path + (i,))
    else:
        yield path, value


def _set(container, path, value):
    for key in path[:-1]:
        container = container[key]
    container[path[-1]] = value


def _pick(rng, seq):
    return seq[rng.integers(len(seq))]


def _array_entry(rng, d, names=None):
    name = _pick(rng, sorted(names or d["arrays"]))
    leaves = list(_leaves(d["arrays"][name]))
    path, value = _pick(rng, leaves)
    return name, path, value


def int_value(rng, d, pool):
    """One array entry set to a nearby, small or boundary value."""
    name, path, value = _array_entry(rng, d)
    _set(d["arrays"], (name,) + path, _int(rng, value))
    return d


def meta_value(rng, d, pool):
    """One meta scalar (round, phase, n_tasks, colosseum, ...) changed."""
    i = int(rng.integers(len(d["arrays"]["meta"])))
    d["arrays"]["meta"][i] = _int(rng, d["arrays"]["meta"][i])
    return d


def several_values(rng, d, pool):
    """Two to five entries changed at once."""
    for _ in range(int(rng.integers(2, 6))):
        (int_value if rng.random() < 0.7 else meta_value)(rng, d, pool)
    return d


def resource_value(rng, d, pool):
    """Money, laurels, legions, the Colosseum, bids or reshuffles set anywhere up to int32."""
    choice = rng.integers(4)
    value = int(_pick(rng, (0, 1, 40, 500, 10**6, 10**8, 10**8 + 1, 2**31 - 1, 2**31 - 100)))
    if choice == 0:
        d["arrays"]["res"][int(rng.integers(5))][int(rng.integers(3))] = value
    elif choice == 1:
        d["arrays"]["meta"][Meta[_pick(rng, ("colosseum", "reshuffles", "round", "coin_bowl_used")).upper()]] = value
    elif choice == 2:
        d["arrays"]["bids"][int(rng.integers(5))] = value
    else:
        d["config"]["round_limit"] = value
    return d


def amount_at_limit(rng, d, pool):
    """An amount (money, laurels, legions, the Colosseum, reshuffles) set to the largest value the
    loader accepts (found by bisection), or one more: play from there must stay loadable."""
    if rng.random() < 0.6:
        row, col = int(rng.integers(d["config"]["num_players"])), int(rng.integers(3))
        holder, key = d["arrays"]["res"][row], col
    else:
        holder, key = d["arrays"]["meta"], Meta[_pick(rng, ("colosseum", "reshuffles")).upper()]

    def accepted(value):
        holder[key] = value
        try:
            Game.from_json(d)
        except StateFormatError:
            return False
        return True

    low, high = holder[key], 2**31 - 1
    if not accepted(low):
        return d
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if accepted(middle) else (low, middle - 1)
    holder[key] = low + int(rng.random() < 0.3)
    return d


def _live(d):
    return d["arrays"]["tasks"][: d["arrays"]["meta"][Meta.N_TASKS]]


def task_edit(rng, d, pool):
    """The task stack: a kind or argument changed, rows swapped, dropped or repeated, n_tasks moved."""
    tasks, meta = d["arrays"]["tasks"], d["arrays"]["meta"]
    n = meta[Meta.N_TASKS]
    choice = int(rng.integers(7))
    i = int(rng.integers(max(n, 1)))
    if choice == 0:
        tasks[i][0] = int(_pick(rng, [int(t) for t in Task] + [0, 32, 49, 71, 999]))
    elif choice == 1:
        tasks[i][int(rng.integers(1, 4))] = _int(rng, tasks[i][1])
    elif choice == 2 and n >= 2:
        j = int(rng.integers(n))
        tasks[i], tasks[j] = tasks[j], tasks[i]
    elif choice == 3 and n >= 1:  # drop a row (the bottom one often)
        i = 0 if rng.random() < 0.5 else i
        del tasks[i]
        tasks.append([0, 0, 0, 0])
        meta[Meta.N_TASKS] = n - 1
    elif choice == 4 and n >= 1:  # a row repeated
        tasks.insert(i, list(tasks[i]))
        tasks.pop()
        meta[Meta.N_TASKS] = n + 1
    elif choice == 5:
        meta[Meta.N_TASKS] = max(0, n + int(_pick(rng, (-2, -1, 1, 2, 60, 64, 65, 128))))
    else:  # the bottom entry altered
        tasks[0] = [int(_pick(rng, [int(t) for t in Task])), int(rng.integers(-1, 5)), int(rng.integers(3)), 0]
    return d


# where cards lie: (array, how to reach counts of card code c)
def _card_places(d):
    a = d["arrays"]
    places = [("hand", p) for p in range(len(a["hand"]))]
    places += [("discard_public", None), ("discard_hidden", None), ("catacombs", None), ("build", None)]
    places += [("curia", s) for s in range(len(a["curia"]))]
    places += [("mars_pairs", s) for s in range(len(a["mars_pairs"]))]
    places += [("catacombs_seen", p) for p in range(len(a["catacombs_seen"]))]
    return places


def _counts(d, place):
    name, row = place
    return d["arrays"][name] if row is None else d["arrays"][name][row]


def move_card(rng, d, pool):
    """One card moved from where it lies to another place, all cards still accounted for."""
    a = d["arrays"]
    meta = a["meta"]
    sources = []
    for place in _card_places(d):
        if place[0] in ("build", "catacombs_seen"):
            continue
        sources += [("counts", place, c) for c, x in enumerate(_counts(d, place)) if x > 0]
    sources += [("draw", i, a["draw"][i]) for i in range(meta[Meta.DRAW_N])]
    sources += [("slot", s, code) for s, code in enumerate(a["slot_card"]) if code >= 0]
    sources += [("sets", f, f * NUM_VALUES + v) for f, row in enumerate(a["sets"]) for v, x in enumerate(row) if x]
    kind, where, code = _pick(rng, sources)
    if kind == "counts":
        _counts(d, where)[code] -= 1
    elif kind == "draw":
        del a["draw"][where]
        a["draw"].append(-1)
        meta[Meta.DRAW_N] -= 1
    elif kind == "slot":
        a["slot_card"][where] = -1
    else:
        a["sets"][where][code % NUM_VALUES] -= 1
    target = int(rng.integers(4))
    empty = [s for s, x in enumerate(a["slot_card"]) if x < 0]
    if target == 0 and empty:
        a["slot_card"][_pick(rng, empty)] = code
        a["slot_up"][int(rng.integers(len(a["slot_up"])))] ^= int(rng.integers(2))
    elif target == 1:
        a["draw"].insert(int(rng.integers(meta[Meta.DRAW_N] + 1)), code)
        a["draw"].pop()
        meta[Meta.DRAW_N] += 1
    elif target == 2:
        a["sets"][code // NUM_VALUES][code % NUM_VALUES] += 1
    else:
        places = [p for p in _card_places(d) if p[0] not in ("build", "catacombs_seen")]
        _counts(d, _pick(rng, places))[code] += 1
    if rng.random() < 0.2:  # and the build or a seen pile touched too
        _counts(d, _pick(rng, [p for p in _card_places(d) if p[0] in ("build", "catacombs_seen")]))[code] += 1
    return d


SEAT_ARRAYS = (
    "hand",
    "markers",
    "res",
    "followers",
    "coin_bowl",
    "pantheon_seen",
    "catacombs_seen",
    "bids",
    "committed",
    "declared",
    "winner",
)


def swap_seats(rng, d, pool):
    """Two seats' rows swapped in some or all per-seat arrays."""
    n = d["config"]["num_players"]
    p, q = (int(x) for x in rng.choice(n, 2, replace=False))
    names = SEAT_ARRAYS if rng.random() < 0.5 else [x for x in SEAT_ARRAYS if rng.random() < 0.5]
    for name in names:
        a = d["arrays"][name]
        a[p], a[q] = a[q], a[p]
    return d


def splice(rng, d, pool):
    """An array (or a meta entry) taken from another real saved game of the same size."""
    n = d["config"]["num_players"]
    other = json.loads(_pick(rng, [t for t in pool if f'"num_players":{n},' in t] or pool))
    name = _pick(rng, sorted(d["arrays"]))
    if name == "meta" and rng.random() < 0.7:
        i = int(rng.integers(len(d["arrays"]["meta"])))
        d["arrays"]["meta"][i] = other["arrays"]["meta"][i]
    else:
        d["arrays"][name] = other["arrays"][name]
    return d


def splice_group(rng, d, pool):
    """Several arrays (the task stack, meta, the board, ...) taken together from another real game."""
    n = d["config"]["num_players"]
    other = json.loads(_pick(rng, [t for t in pool if f'"num_players":{n},' in t]))
    names = sorted(d["arrays"])
    for name in rng.choice(names, int(rng.integers(2, 8)), replace=False):
        d["arrays"][str(name)] = other["arrays"][str(name)]
    return d


def config_edit(rng, d, pool):
    """The config: player count, round limit, variant, auto_forced, the victory card."""
    config = d["config"]
    choice = int(rng.integers(6))
    if choice == 0:
        config["num_players"] = _pick(rng, (1, 2, 3, 4, 5, 6, 0, -1, 10**30, True, 3.0, "4"))
    elif choice == 1:
        config["round_limit"] = _pick(
            rng,
            (
                0,
                1,
                -1,
                2,
                10,
                49,
                50,
                51,
                9_999,
                10_000,
                10_001,
                2**31,
                10**30,
                2.5,
                "50",
                True,
                None,
                d["arrays"]["meta"][Meta.ROUND] - 1,
            ),
        )
    elif choice == 2:
        key = _pick(rng, ("point_variant", "auto_forced"))
        config[key] = _pick(rng, (not config[key], 0, 1, "yes", None))
    elif choice == 3:
        card = dict(VictoryCard("c", 8, 2, 25, 4, {2: 4, 3: 4, 4: 3, 5: 3}).to_dict())
        config["victory_card"] = _pick(rng, (None, card, EASY_CARD.to_dict()))
    elif config["victory_card"] is not None:
        card = config["victory_card"]
        key = _pick(rng, ("laurels", "legions", "denarii", "markers", "need", "id", "obligatory", "length", "extra"))
        card[key] = _pick(
            rng,
            (
                0,
                3,
                -1,
                10**8,
                10**8 + 1,
                2**31,
                10**30,
                "x" * 200,
                None,
                "favor",
                {"02": 3},
                {"2": 7},
                {"2.0": 3},
                {"9": 3},
                [],
                1.5,
            ),
        )
    else:
        config.pop(_pick(rng, sorted(config)))
    return d


def shape_change(rng, d, pool):
    """An array's shape changed: an element dropped, added, wrapped, flattened or replaced."""
    name = _pick(rng, sorted(d["arrays"]))
    value = d["arrays"][name]
    choice = int(rng.integers(5))
    target = value
    if isinstance(value[0], list) and rng.random() < 0.5:
        target = value[int(rng.integers(len(value)))]
    if choice == 0:
        target.pop()
    elif choice == 1:
        target.append(copy.deepcopy(target[-1]))
    elif choice == 2:
        d["arrays"][name] = [value]
    elif choice == 3:
        d["arrays"][name] = [x for row in value for x in (row if isinstance(row, list) else [row])]
    else:
        target[int(rng.integers(len(target)))] = [0, 0]
    return d


def delete_key(rng, d, pool):
    """A key deleted: at the top, in the config, the arrays or the victory card."""
    holders = [d, d["config"], d["arrays"]] + ([d["config"]["victory_card"]] if d["config"]["victory_card"] else [])
    holder = _pick(rng, holders)
    holder.pop(_pick(rng, sorted(holder)))
    return d


def type_change(rng, d, pool):
    """A value replaced by one of another type (float, string, bool, null, list, object)."""
    odd = copy.deepcopy(_pick(rng, ODD_VALUES))
    choice = int(rng.integers(4))
    if choice == 0:
        name, path, _ = _array_entry(rng, d)
        _set(d["arrays"], (name,) + path, odd)
    elif choice == 1:
        d["arrays"][_pick(rng, sorted(d["arrays"]))] = odd
    elif choice == 2:
        d[_pick(rng, ("format", "version", "config", "arrays", "log"))] = odd
    else:
        d["config"][_pick(rng, sorted(d["config"]))] = odd
    return d


def add_key(rng, d, pool):
    """An unknown key added, or a known value nested one level deeper."""
    choice = int(rng.integers(3))
    holder = _pick(rng, (d, d["config"], d["arrays"]))
    if choice == 0:
        holder[_pick(rng, ("extra", "rng", "Meta", "meta "))] = [0]
    else:
        key = _pick(rng, sorted(holder))
        holder[key] = [holder[key]] if choice == 1 else {"value": holder[key]}
    return d


def log_edit(rng, d, pool):
    d["log"] = _pick(rng, (None, [], ["x"], [1], "text", [["nested"]], ["y" * 20_000], {"a": "b"}))
    return d


DOC_MUTATIONS = (
    int_value,
    meta_value,
    several_values,
    resource_value,
    amount_at_limit,
    task_edit,
    move_card,
    swap_seats,
    splice,
    splice_group,
    config_edit,
    shape_change,
    delete_key,
    type_change,
    add_key,
    log_edit,
)


# text mutations: (rng, text) -> str or bytes
def truncate(rng, text):
    return text[: int(rng.integers(len(text)))]


def garble(rng, text):
    chars = list(text)
    for _ in range(int(rng.integers(1, 6))):
        i = int(rng.integers(len(chars)))
        new = _pick(rng, list('[]{}",:0123456789-+eE. \\tfnul') + ["\x00", "é", "\ud800"])
        op = rng.integers(3)
        if op == 0:
            chars[i] = new
        elif op == 1:
            chars.insert(i, new)
        else:
            del chars[i]
    return "".join(chars)


def _replace_value(rng, text, replacement):
    """`text` with the value of one key (or one number) replaced by `replacement`."""
    keys = ['"log":', '"round_limit":', '"meta":', '"hand":', '"version":', '"need":', '"rng":']
    key = _pick(rng, [k for k in keys if k in text])
    start = text.index(key) + len(key)
    d = json.JSONDecoder()
    _, end = d.raw_decode(text, start)
    return text[:start] + replacement + text[end:]


def deep_nesting(rng, text):
    depth = int(_pick(rng, (9, 20, 1000, 100_000)))
    opener, closer = ("[", "]") if rng.random() < 0.6 else ('{"a":', "}")
    return _replace_value(rng, text, opener * depth + "0" + closer * depth)


def long_literal(rng, text):
    digits = int(_pick(rng, (11, 13, 20, 40, 400, 5000)))
    literal = _pick(rng, ("", "-")) + "9" * digits + _pick(rng, ("", ".5", "e5", "e400"))
    return _replace_value(rng, text, literal)


def constant(rng, text):
    return _replace_value(rng, text, _pick(rng, ("NaN", "Infinity", "-Infinity", "1e400", "-0", "0.0")))


def duplicate_key(rng, text):
    key = _pick(rng, ('"meta":[0]', '"format":"tribune-state"', '"version":1', '"log":null'))
    return text[:1] + key + "," + text[1:]


def encoding(rng, text):
    choice = int(rng.integers(5))
    if choice == 0:
        return text.encode(_pick(rng, ("utf-8", "utf-16", "utf-32", "utf-16-le", "utf-32-be")))
    if choice == 1:
        return "\ufeff" + text
    if choice == 2:
        raw = bytearray(text.encode())
        raw[int(rng.integers(len(raw)))] = int(rng.integers(128, 256))
        return bytes(raw)
    if choice == 3:
        return text.encode("utf-8")[: int(rng.integers(1, 40))]
    return " " * int(rng.integers(1, 1000)) + text + "\n" * 3


TEXT_MUTATIONS = (truncate, garble, deep_nesting, long_literal, constant, duplicate_key, encoding)


def mutate(rng, text: str, pool) -> tuple[str, object]:
    """(name of the mutation, input): mostly document edits, some text edits; some as Python data."""
    if rng.random() < 0.2:
        m = _pick(rng, TEXT_MUTATIONS)
        return m.__name__, m(rng, text)
    m = _pick(rng, DOC_MUTATIONS)
    d = m(rng, json.loads(text), pool)
    if rng.random() < 0.15:
        return m.__name__ + " (as data)", d
    return m.__name__, json.dumps(d, separators=(",", ":"))


# ------------------------------------------------------------------------------ the oracle
class Breach(AssertionError):
    """An accepted input broke an invariant."""


def _expect(ok, message):
    if not ok:
        raise Breach(message)


_SPACES = {}


def _space(g: Game):
    """The game's declared observation space (a gymnasium Box; one per layout size)."""
    if g.obs_layout.size not in _SPACES:
        _SPACES[g.obs_layout.size] = observation_space(g.obs_layout)
    return _SPACES[g.obs_layout.size]


def check_invariants(g: Game, extra=None):
    """Cards, observations, the mask, and (optionally) the rule invariants of tests/test_invariants.py."""
    _expect((card_counts(g) == g.deck_counts).all(), "card accounting broken")
    space = _space(g)
    for p in range(g.n):
        obs = g.observe(p)
        _expect(
            np.isfinite(obs).all() and space.contains(obs),
            f"observation of player_{p} outside its space (min {obs.min()}, at {int(obs.argmin())})",
        )
    _expect(bool(g.legal_mask().any()) != g.is_over, "a running game offers no action, or a finished one does")
    if extra is not None:
        extra(g)


def check_round_trip(g: Game):
    text = g.to_json()
    try:
        again = Game.from_json(text)
    except StateFormatError as exc:
        raise Breach(f"the game's own save no longer loads: {exc}") from None
    _expect(again.state_equals(g) and again.to_json() == text, "to_json does not round-trip")


def _canonical(x) -> str:
    return json.dumps(x, sort_keys=True)


def check_as_written(g: Game, source):
    """Nothing accepted differs from what the file said: arrays, config and log."""
    d = source if isinstance(source, dict) else json.loads(source)
    saved = g.to_dict()
    for key in ("arrays", "config"):
        _expect(_canonical(saved[key]) == _canonical(d[key]), f"the loaded {key} differ from the file's")
    _expect(saved["log"] == d.get("log"), "the loaded log differs from the file's")


def play_to_end(g: Game, seed: int, extra=None, extra_every: int = 0, max_steps: int = 100_000):
    rng = np.random.default_rng(seed)
    steps = 0
    while not g.is_over:
        legal = g.legal_actions()
        g.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        check_invariants(g, extra if extra_every and steps % extra_every == 0 else None)
        if steps % CHECK_RELOAD_EVERY == 0:
            check_round_trip(g)
        _expect(steps < max_steps, "the game does not end")
    check_invariants(g, extra)
    check_round_trip(g)
    return steps


@dataclass
class Report:
    tried: int = 0
    rejected: int = 0
    accepted: int = 0
    played: int = 0  # distinct accepted states played to the end
    steps: int = 0
    crashes: list = field(default_factory=list)
    breaches: list = field(default_factory=list)
    by_mutation: dict = field(default_factory=dict)

    def summary(self) -> str:
        return (
            f"inputs tried {self.tried}, rejected {self.rejected}, accepted {self.accepted} "
            f"({self.played} distinct states played to the end, {self.steps} steps), "
            f"crashes {len(self.crashes)}, invariant breaches {len(self.breaches)}"
        )


def _state_key(g: Game) -> bytes:
    return _canonical(g.config()).encode() + g.handle.buffer.tobytes()


def check_input(source, report: Report, played: set, extra=None, extra_every: int = 0) -> str:
    """Load one input and judge it; returns 'rejected' or 'accepted' (raises Breach)."""
    try:
        g = Game.from_json(source)
    except StateFormatError as exc:
        message = str(exc)
        _expect(0 < len(message) <= MESSAGE_LIMIT, f"a rejection message of {len(message)} characters")
        return "rejected"
    try:
        check_as_written(g, source)
        check_invariants(g, extra)
        check_round_trip(g)
        key = _state_key(g)
        if key not in played:  # the same state (and so the same seeded play) is judged once
            played.add(key)
            report.played += 1
            report.steps += play_to_end(g, zlib.crc32(key), extra, extra_every)
    except Breach:
        raise
    except Exception as exc:  # an exception in play is a breach too
        raise Breach(f"{type(exc).__name__} after loading: {str(exc)[:300]}") from exc
    return "accepted"


def fuzz(inputs: int, seed: int, pool: list[str], extra=None, extra_every: int = 0, progress=None) -> Report:
    """Try `inputs` mutations of the saved games in `pool`; count verdicts, crashes and breaches."""
    rng = np.random.default_rng(seed)
    report, played = Report(), set()
    for i in range(inputs):
        base = pool[rng.integers(len(pool))]
        name, source = mutate(rng, base, pool)
        report.tried += 1
        counts = report.by_mutation.setdefault(name.split(" ")[0], [0, 0])
        try:
            verdict = check_input(source, report, played, extra, extra_every)
        except Breach as exc:
            report.breaches.append((i, name, str(exc)[:500]))
            continue
        except Exception as exc:  # noqa: BLE001 - any other exception is what we hunt
            report.crashes.append((i, name, f"{type(exc).__name__}: {str(exc)[:300]}"))
            continue
        if verdict == "rejected":
            report.rejected += 1
            counts[0] += 1
        else:
            report.accepted += 1
            counts[1] += 1
        if progress is not None:
            progress(i, report)
    return report

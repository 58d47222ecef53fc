"""Shared ground of the compiled engine: parameters, the seeded generator, state views.

Compiled handlers receive the state as named views into the flat int32 buffer (``views``,
written out from :func:`tribune_env.state.fields`, passed by reference as a
:class:`~tribune_env._compiler.state_ref.StateRef` when :mod:`tribune_env._compiler.internals` is on, as the
namedtuple itself when off) and the game's numbers as one int64 array indexed by
:class:`K`, declared once by :data:`ENTRIES` (each number of
:class:`~tribune_env.data.GameData` under its field's name) and filled by :func:`params`. The random generator is
xoshiro128** whose four 32-bit words live in the state buffer, so a copy or a saved game
carries it, and the same seed always gives the same game.
"""

from __future__ import annotations

import ctypes
from collections import namedtuple
from dataclasses import fields as dataclass_fields
from enum import IntEnum

import numpy as np
from numba import carray, types
from numba.core import cgutils

from ._compiler import compiled, entry, internals, intrinsic
from .data import DEFAULT_DATA, OBJECTIVES, REGIONS, GameData
from .state import FIELDS, fields

MAX_TUPLE_ENTRIES = 8  # room for a tuple of GameData (the catacomb prices)
MAX_PLACE_TARGETS = 32  # distinct follower spaces a placement action can name
ACTION_STARTS = (  # ActionSpace's attributes: the first action of each range (``K.A_PLACE``...)
    "PLACE", "FIELD", "COIN_BOWL", "DISCARD", "ADD", "TAKE", "BID", "ATRIUM", "LATRINE", "BENEFIT",
    "AGRIPPA", "ASSASSIN", "CHARIOT", "MARKER", "TEMP_FAVOR", "BUY_LEGION", "COMMIT", "DECLINE",
)  # fmt: skip

# The parameter array, in order: each name with its number of entries and its value in a
# game. ``K.<name>`` is the index of its (first) entry, so a block is read as
# ``params[K.FIRST_SPACE + region]``. The game's own settings, the board, the actions and the buffer
# are declared here; every number of GameData follows, named after its field
# (:func:`_data_parameters`), so a new rule number is one field of GameData.
GAME_PARAMETERS = (
    ("N", 1, lambda game: game.n),
    ("AUTO_FORCED", 1, lambda game: game.auto_forced),
    ("ROUND_LIMIT", 1, lambda game: game.round_limit),  # the game's, which may differ from data.round_limit
    ("VICTORY", 1, lambda game: game.victory_card is not None),  # 0 in the point-value variant
    ("V_LAURELS", 1, lambda game: _card(game, "laurels")),
    ("V_LEGIONS", 1, lambda game: _card(game, "legions")),
    ("V_DENARII", 1, lambda game: _card(game, "denarii")),
    ("V_MARKERS", 1, lambda game: _card(game, "markers")),
    ("V_NEED", 1, lambda game: game.victory_card.need[game.n] if game.victory_card else 0),
    ("V_OBLIGATORY", 1, lambda game: _obligatory(game.victory_card)),  # index into OBJECTIVES, or -1
    ("DECK", 1, lambda game: game.data.deck_size()),  # number of cards
    # board geometry: per region in board order (REGIONS), so a region's end is the next one's start
    ("FIRST_SPACE", len(REGIONS), lambda game: [game.board.spaces[name].start for name in REGIONS]),
    ("SPACES_END", 1, lambda game: game.board.num_spaces),  # first follower space; number of spaces
    ("FIRST_SLOT", len(REGIONS), lambda game: _slot_starts(game.board)),
    ("SLOTS_END", 1, lambda game: game.board.num_slots),  # first card slot (a region without one: the next one's)
    ("PLACE_SPACE", MAX_PLACE_TARGETS, lambda game: _padded(_place_spaces(game.board), MAX_PLACE_TARGETS)),
    ("PLACE_REGION", MAX_PLACE_TARGETS, lambda game: _padded(_place_regions(game.board), MAX_PLACE_TARGETS)),
    # first action of each range (ActionSpace), then the size of the action space
    *((f"A_{name}", 1, lambda game, name=name: getattr(game.A, name)) for name in ACTION_STARTS),
    ("A_SIZE", 1, lambda game: game.A.size),
    ("OFFSETS", len(FIELDS) + 1, lambda game: _offsets(game.state.layout)),  # each state field's start, then the end
)


def _data_parameters(data: GameData = DEFAULT_DATA) -> tuple:
    """(name, length, value) of every number of GameData, named after its field: a number as
    it is, one per player count as this game's, the scoring table one entry per item
    (``SCORING_LAUREL``), a tuple padded with -1. The deck and the victory cards are tables
    of their own (``DECK``, ``V_*``), and the round limit is the game's."""
    entries = []
    for f in dataclass_fields(data):
        name, value = f.name.upper(), getattr(data, f.name)
        if f.name in ("deck", "victory_cards", "round_limit"):
            continue
        if isinstance(value, int):
            entries.append((name, 1, lambda game, f=f.name: getattr(game.data, f)))
        elif isinstance(value, tuple):
            pad = lambda game, f=f.name: _padded(getattr(game.data, f), MAX_TUPLE_ENTRIES)  # noqa: E731
            entries.append((name, MAX_TUPLE_ENTRIES, pad))
        elif all(isinstance(key, int) for key in value):
            entries.append((name, 1, lambda game, f=f.name: getattr(game.data, f)[game.n]))
        else:
            entries += [
                (f"{name}_{key.upper()}", 1, lambda game, f=f.name, key=key: getattr(game.data, f)[key])
                for key in value
            ]
    return tuple(entries)


ENTRIES = (("LOG", 1, None), *GAME_PARAMETERS, *_data_parameters())  # LOG: the flag given to params()


def _indices(entries) -> dict:
    """Name -> index of its first entry, and SIZE, the length of the whole array."""
    at, indices = 0, {}
    for name, length, _ in entries:
        indices[name] = at
        at += length
    return {**indices, "SIZE": at}


K = IntEnum("K", _indices(ENTRIES))  # compile-time constants in compiled code
"""Indices into the parameter array, derived from :data:`ENTRIES`."""


def params(game, log: bool) -> np.ndarray:
    """The int64 parameter array of a game (its numbers, board, actions and buffer offsets)."""
    k = np.empty(K.SIZE, dtype=np.int64)
    for name, length, value in ENTRIES:
        k[K[name] : K[name] + length] = log if value is None else value(game)
    return k


def _card(game, objective: str) -> int:
    return getattr(game.victory_card, objective) if game.victory_card is not None else 0


def _obligatory(card) -> int:
    return -1 if card is None or card.obligatory is None else OBJECTIVES.index(card.obligatory)


def _place_spaces(board) -> list:
    return [-1 if space is None else space for _, space in board.place_targets]


def _place_regions(board) -> list:
    return [REGIONS.index(region) for region, _ in board.place_targets]


def _offsets(layout) -> list:
    return [layout.offsets[name][0] for name in FIELDS] + [layout.size]


def _slot_starts(board) -> list:
    """First card slot of each region; a region without slots starts where the next one does."""
    starts, start = [], board.num_slots
    for name in reversed(REGIONS):
        start = board.slots[name].start if name in board.slots else start
        starts.insert(0, start)
    return starts


def _padded(values, length: int) -> list:
    return list(values) + [-1] * (length - len(values))


def check_limits(data) -> None:
    """The parameter array has fixed room for catacomb prices and placement targets."""
    from .errors import ConfigError

    if len(data.catacomb_prices) > MAX_TUPLE_ENTRIES:
        raise ConfigError(f"at most {MAX_TUPLE_ENTRIES} catacomb prices are supported")
    targets = data.thermae_cards + data.forum_cards + data.curia_stacks + len(data.catacomb_prices) + 4
    if targets > MAX_PLACE_TARGETS:
        raise ConfigError(f"too many distinct follower spaces for the action space (at most {MAX_PLACE_TARGETS})")


@intrinsic(lambda address: ctypes.cast(int(address), ctypes.POINTER(ctypes.c_int32)))
def _int32_pointer(typingctx, address):
    """An int32 pointer at a memory address (for views that need no reference counting)."""

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int32)))

    return types.CPointer(types.int32)(address), codegen


@intrinsic(lambda array: array)
def borrowed(typingctx, array):
    """`array` without its reference count: a view that compiled code passes on and reads for free.

    Only for an array that outlives every use of the view: an argument of the entry point's
    Python caller, which holds it for the whole call."""

    def codegen(context, builder, signature, args):
        view = context.make_array(signature.args[0])(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen


@compiled(inline="always")
def _field(buf, o, i):
    """Field i of the buffer as a flat array, without a reference count.

    Passing 29 reference-counted views to every handler costs more than the handlers'
    work; these views borrow the buffer, which the caller keeps alive for the call.
    """
    return carray(_int32_pointer(buf.ctypes.data + 4 * o[i]), o[i + 1] - o[i])


@compiled(inline="always")
def _rows(buf, o, i, columns):
    """Field i of the buffer as rows of `columns` entries (how many rows: from the field's size)."""
    return carray(_int32_pointer(buf.ctypes.data + 4 * o[i]), ((o[i + 1] - o[i]) // columns, columns))


S = namedtuple("S", FIELDS)


def _views_source() -> str:
    """Source of :func:`state_views`, one line per state field of :func:`tribune_env.state.fields`.

    Numba cannot loop over the fields to build a namedtuple, so the function is written
    out from the declaration. A table's rows may change with the board, not its columns:
    the row count is computed from the field's size (a ``carray`` of that shape, cheaper to
    compile than a reshape).
    """
    small, large = fields(1, 1, 1, 1, 1, 1), fields(2, 2, 2, 2, 2, 2)
    lines = []
    for i, name in enumerate(FIELDS):
        shape, other = small[name][0], large[name][0]
        if len(shape) > 2 or shape[1:] != other[1:]:
            raise ValueError(f"state field {name!r}: a view is a list, or a table of a fixed number of columns")
        view = f"_rows(buf, o, {i}, {shape[1]})" if len(shape) == 2 else f"_field(buf, o, {i})"
        lines.append(f"        {view},   # {name}")
    return (
        "def state_views(buf, params):\n"
        '    """The state buffer as named arrays (the namedtuple S of state.FIELDS)."""\n'
        f"    o = params[{int(K.OFFSETS)}:{int(K.OFFSETS) + len(FIELDS) + 1}]\n"
        "    return S(\n" + "\n".join(lines) + "\n    )\n"
    )


def _compile_views():
    namespace = {
        "__name__": __name__,
        "S": S,
        "_field": _field,
        "_rows": _rows,
    }  # the cache rebuilds it from this module
    exec(compile(_views_source(), __file__, "exec"), namespace)
    return compiled(namespace["state_views"])


state_views = _compile_views()


if internals.ON:
    from ._compiler.state_ref import borrow

    @compiled(inline="always")
    def views(buf, params):
        """An entry point's state, as the StateRef its handlers pass on (inlined: the views live in the entry's frame)."""
        return borrow(state_views(buf, params))

else:
    views = state_views


# ---------------------------------------------------------------- xoshiro128**
MASK32 = np.uint64(0xFFFFFFFF)


MAX_SEED = 2**63 - 1  # a game's seed is an int64 (what numpy and the environments draw), so it is saved as it is


def seed_words(seed) -> np.ndarray:
    """Four non-zero 32-bit words from any numpy-style seed (None draws fresh entropy)."""
    words = np.random.SeedSequence(seed).generate_state(4, dtype=np.uint32)
    if not words.any():
        words[0] = 1
    return words.view(np.int32)


@compiled
def _rotl(x, r):
    return ((x << np.uint64(r)) | (x >> np.uint64(32 - r))) & MASK32


@compiled
def next_u32(rng):
    """Advance the generator held in `rng` (4 int32 words) and return 32 random bits."""
    s0 = np.uint64(rng[0]) & MASK32
    s1 = np.uint64(rng[1]) & MASK32
    s2 = np.uint64(rng[2]) & MASK32
    s3 = np.uint64(rng[3]) & MASK32
    result = (_rotl((s1 * np.uint64(5)) & MASK32, 7) * np.uint64(9)) & MASK32
    t = (s1 << np.uint64(9)) & MASK32
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 11)
    rng[0] = np.int32(np.int64(s0) - (np.int64(s0 >> np.uint64(31)) << 32))
    rng[1] = np.int32(np.int64(s1) - (np.int64(s1 >> np.uint64(31)) << 32))
    rng[2] = np.int32(np.int64(s2) - (np.int64(s2 >> np.uint64(31)) << 32))
    rng[3] = np.int32(np.int64(s3) - (np.int64(s3 >> np.uint64(31)) << 32))
    return result


@entry
def below(rng, n):
    """A random int in [0, n) (multiply-shift; the bias is below n / 2**32)."""
    return np.int64((next_u32(rng) * np.uint64(n)) >> np.uint64(32))


@entry
def shuffle(rng, a):
    """Fisher-Yates shuffle of a 1-d array in place."""
    for i in range(len(a) - 1, 0, -1):
        j = below(rng, i + 1)
        a[i], a[j] = a[j], a[i]

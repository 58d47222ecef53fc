"""Shared ground of the compiled engine: parameters, the seeded generator, state views.

Compiled handlers receive the state as named views into the flat int32 buffer (``views``,
written out from :func:`tribune_env.state.fields`, passed by reference as a
:class:`~tribune_env.state_ref.StateRef`) and the game's numbers as one int64 array
indexed by :class:`K`, declared by :data:`PARAMETERS` and filled from
:class:`~tribune_env.data.GameData` by :func:`params`. The random generator is
xoshiro128** whose four 32-bit words live in the state buffer, so a copy or a saved game
carries it, and the same seed always gives the same game.
"""

from __future__ import annotations

from collections import namedtuple
from enum import IntEnum

import numpy as np
from numba import carray, types
from numba.extending import intrinsic

from .data import OBJECTIVES, REGIONS
from .jit import compiled, entry
from .state import FIELDS, fields
from .state_ref import borrow

MAX_CATACOMB_PRICES = 8
MAX_PLACE_TARGETS = 32  # distinct follower spaces a placement action can name

# The parameter array, in order: each name with its number of entries. ``K.<name>`` is
# the index of its (first) entry, so a block is read as ``k[K.SP + region]``.
PARAMETERS = (
    ("N", 1),
    ("AUTO_FORCED", 1),
    ("LOG", 1),
    ("ROUND_LIMIT", 1),
    ("BID_BASE", 1),
    ("FOLLOWERS", 1),
    ("START_MONEY", 1),
    ("SETUP_DEAL", 1),
    ("SETUP_KEEP", 1),
    ("COIN_FIRST", 1),
    ("COIN_LATER", 1),
    ("THERMAE_COST", 1),
    ("FORUM_COST", 1),
    ("CURIA_SUM", 1),
    ("ATRIUM_COST", 1),
    ("CATACOMB_CARDS", 1),
    ("MARS_LAUREL", 1),
    ("MARS_BONUS", 1),
    ("HAND_LIMIT", 1),
    ("GLADIATOR_LEGIONS", 1),
    ("SPARTACUS_LEGIONS", 1),
    ("LEGATE_LAURELS", 1),
    ("VARUS_LAURELS", 1),
    ("PATRICIAN_LAURELS", 1),
    ("SCIPIO_DENARII", 1),
    ("VESTAL_DENARII", 1),
    ("SENATOR_LAURELS", 1),
    ("PLEBEIAN_DENARII", 1),
    ("VESTAL_LAURELS", 1),
    ("FIRST_LAURELS", 1),
    ("VICTORY", 1),  # 1 with a victory card, 0 in the point-value variant
    ("V_LAURELS", 1),
    ("V_LEGIONS", 1),
    ("V_DENARII", 1),
    ("V_MARKERS", 1),
    ("V_NEED", 1),
    ("V_OBLIGATORY", 1),  # index into OBJECTIVES, or -1
    ("MARKER_GOAL", 1),
    ("DECK", 1),  # number of cards
    ("MIN_SET", 1),
    ("ASSASSIN_MIN_SET", 1),
    ("CESURA_SET_LOSSES", 1),
    ("TIGELLINUS_LEGIONS", 1),
    ("BENEFIT_CARDS", 1),
    ("BOUGHT_LEGIONS", 1),
    ("PROCONSUL_FOLLOWERS", 1),
    ("PRAETORIAN_LEGIONS", 1),
    ("SENATOR_CARDS", 1),
    # board geometry: per region in board order (REGIONS), so a region's end is the next one's start
    ("SP", len(REGIONS)),
    ("SP_END", 1),  # first follower space; number of spaces
    ("SL", len(REGIONS)),
    ("SL_END", 1),  # first card slot (a region without one: the next one's); slots
    # first action of each range (ActionSpace), then the size of the action space
    ("A_PLACE", 1),
    ("A_FIELD", 1),
    ("A_COIN_BOWL", 1),
    ("A_DISCARD", 1),
    ("A_ADD", 1),
    ("A_TAKE", 1),
    ("A_BID", 1),
    ("A_ATRIUM", 1),
    ("A_LATRINE", 1),
    ("A_BENEFIT", 1),
    ("A_AGRIPPA", 1),
    ("A_ASSASSIN", 1),
    ("A_CHARIOT", 1),
    ("A_MARKER", 1),
    ("A_TEMP_FAVOR", 1),
    ("A_BUY_LEGION", 1),
    ("A_COMMIT", 1),
    ("A_DECLINE", 1),
    ("A_SIZE", 1),
    # scoring table
    ("SC_TRIBUNE", 1),
    ("SC_SCROLL", 1),
    ("SC_ETERNAL", 1),
    ("SC_TEMPORARY", 1),
    ("SC_LEGION", 1),
    ("SC_LAUREL", 1),
    ("SC_DENARII", 1),
    ("SC_MARKER", 1),
    ("SC_FIRST", 1),
    ("CATACOMB_PRICES", MAX_CATACOMB_PRICES),  # -1 past the last
    ("PLACE_SPACE", MAX_PLACE_TARGETS),  # follower space of each region placement, -1 = pooled
    ("PLACE_REGION", MAX_PLACE_TARGETS),  # region of each placement action
    ("OFFSETS", len(FIELDS) + 1),  # start of each state field in the buffer, then its end
)


def _indices(declaration) -> dict:
    """Name -> index of its first entry, and SIZE, the length of the whole array."""
    at, indices = 0, {}
    for name, length in declaration:
        indices[name] = at
        at += length
    return {**indices, "SIZE": at}


K = IntEnum("K", _indices(PARAMETERS))  # compile-time constants in compiled code
"""Indices into the parameter array, derived from :data:`PARAMETERS`."""


def params(game, log: bool) -> np.ndarray:
    """The int64 parameter array of a game (its numbers, board, actions and buffer offsets)."""
    d, A, board = game.data, game.A, game.board
    card = game.victory_card
    s = d.scoring
    values = {
        "N": game.n,
        "AUTO_FORCED": game.auto_forced,
        "LOG": log,
        "ROUND_LIMIT": game.round_limit,
        "BID_BASE": d.bid_base,
        "FOLLOWERS": d.followers[game.n],
        "START_MONEY": d.starting_money,
        "SETUP_DEAL": d.setup_deal,
        "SETUP_KEEP": d.setup_keep,
        "COIN_FIRST": d.coin_bowl_first,
        "COIN_LATER": d.coin_bowl_later,
        "THERMAE_COST": d.thermae_cost,
        "FORUM_COST": d.forum_cost,
        "CURIA_SUM": d.curia_sum,
        "ATRIUM_COST": d.atrium_single_cost,
        "CATACOMB_CARDS": d.catacomb_cards,
        "MARS_LAUREL": d.mars_laurels_per_pair,
        "MARS_BONUS": d.mars_bonus_laurels,
        "HAND_LIMIT": d.cesura_hand_limit,
        "GLADIATOR_LEGIONS": d.gladiator_legions,
        "SPARTACUS_LEGIONS": d.spartacus_legions,
        "LEGATE_LAURELS": d.legate_laurels,
        "VARUS_LAURELS": d.varus_laurels,
        "PATRICIAN_LAURELS": d.patrician_laurels,
        "SCIPIO_DENARII": d.scipio_denarii,
        "VESTAL_DENARII": d.vestal_denarii,
        "SENATOR_LAURELS": d.senator_laurels,
        "PLEBEIAN_DENARII": d.plebeian_benefit_denarii,
        "VESTAL_LAURELS": d.vestal_benefit_laurels,
        "FIRST_LAURELS": d.first_control_laurels,
        "VICTORY": card is not None,
        "V_LAURELS": 0,
        "V_LEGIONS": 0,
        "V_DENARII": 0,
        "V_MARKERS": 0,
        "V_NEED": 0,
        "V_OBLIGATORY": 0,
        "MARKER_GOAL": d.point_variant_markers[game.n],
        "DECK": d.deck_size(),
        "MIN_SET": d.min_set,
        "ASSASSIN_MIN_SET": d.assassin_min_set,
        "CESURA_SET_LOSSES": d.cesura_set_losses,
        "TIGELLINUS_LEGIONS": d.tigellinus_legions,
        "BENEFIT_CARDS": d.benefit_cards,
        "BOUGHT_LEGIONS": d.bought_legions,
        "PROCONSUL_FOLLOWERS": d.proconsul_followers,
        "PRAETORIAN_LEGIONS": d.praetorian_benefit_legions,
        "SENATOR_CARDS": d.senator_benefit_cards,
        "SP": [board.spaces[name].start for name in REGIONS],
        "SP_END": board.num_spaces,
        "SL": _slot_starts(board),
        "SL_END": board.num_slots,
        "A_PLACE": A.PLACE,
        "A_FIELD": A.FIELD,
        "A_COIN_BOWL": A.COIN_BOWL,
        "A_DISCARD": A.DISCARD,
        "A_ADD": A.ADD,
        "A_TAKE": A.TAKE,
        "A_BID": A.BID,
        "A_ATRIUM": A.ATRIUM,
        "A_LATRINE": A.LATRINE,
        "A_BENEFIT": A.BENEFIT,
        "A_AGRIPPA": A.AGRIPPA,
        "A_ASSASSIN": A.ASSASSIN,
        "A_CHARIOT": A.CHARIOT,
        "A_MARKER": A.MARKER,
        "A_TEMP_FAVOR": A.TEMP_FAVOR,
        "A_BUY_LEGION": A.BUY_LEGION,
        "A_COMMIT": A.COMMIT,
        "A_DECLINE": A.DECLINE,
        "A_SIZE": A.size,
        "SC_TRIBUNE": s["tribune"],
        "SC_SCROLL": s["scroll"],
        "SC_ETERNAL": s["eternal_favor"],
        "SC_TEMPORARY": s["temporary_favor"],
        "SC_LEGION": s["legion"],
        "SC_LAUREL": s["laurel"],
        "SC_DENARII": s["denarii_per_point"],
        "SC_MARKER": s["marker"],
        "SC_FIRST": s["first_declarer"],
        "CATACOMB_PRICES": _padded(d.catacomb_prices, MAX_CATACOMB_PRICES),
        "PLACE_SPACE": _padded([-1 if space is None else space for _, space in board.place_targets], MAX_PLACE_TARGETS),
        "PLACE_REGION": _padded([REGIONS.index(region) for region, _ in board.place_targets], MAX_PLACE_TARGETS),
        "OFFSETS": [game.state.layout.offsets[name][0] for name in FIELDS] + [game.state.layout.size],
    }
    if card is not None:
        values.update(
            {
                "V_LAURELS": card.laurels,
                "V_LEGIONS": card.legions,
                "V_DENARII": card.denarii,
                "V_MARKERS": card.markers,
                "V_NEED": card.need[game.n],
                "V_OBLIGATORY": -1 if card.obligatory is None else OBJECTIVES.index(card.obligatory),
            }
        )
    k = np.empty(K.SIZE, dtype=np.int64)
    for name, length in PARAMETERS:
        k[K[name] : K[name] + length] = values[name]
    return k


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

    if len(data.catacomb_prices) > MAX_CATACOMB_PRICES:
        raise ConfigError(f"at most {MAX_CATACOMB_PRICES} catacomb prices are supported")
    targets = data.thermae_cards + data.forum_cards + data.curia_stacks + len(data.catacomb_prices) + 4
    if targets > MAX_PLACE_TARGETS:
        raise ConfigError(f"too many distinct follower spaces for the action space (at most {MAX_PLACE_TARGETS})")


@intrinsic
def _int32_pointer(typingctx, address):
    """An int32 pointer at a memory address (for views that need no reference counting)."""

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int32)))

    return types.CPointer(types.int32)(address), codegen


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
        "def state_views(buf, k):\n"
        '    """The state buffer as named arrays (the namedtuple S of state.FIELDS)."""\n'
        f"    o = k[{int(K.OFFSETS)}:{int(K.OFFSETS) + len(FIELDS) + 1}]\n"
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


@compiled(inline="always")
def views(buf, k):
    """An entry point's state, as the StateRef its handlers pass on (inlined: the views live in the entry's frame)."""
    return borrow(state_views(buf, k))


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

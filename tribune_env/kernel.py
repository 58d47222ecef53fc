"""Shared ground of the compiled engine: parameters, the seeded generator, state views.

Compiled handlers receive the state as a namedtuple of views into the flat int32 buffer
(``views``) and the game's numbers as one int64 array indexed by :class:`K`, built from
:class:`~tribune_env.data.GameData` by :func:`params`. The random generator is
xoshiro128** whose four 32-bit words live in the state buffer, so a copy or a saved game
carries it, and the same seed always gives the same game.
"""
from __future__ import annotations

from collections import namedtuple
from enum import IntEnum

import numpy as np
from numba import carray, njit, types
from numba.extending import intrinsic

from .data import NUM_FACTIONS, NUM_VALUES, OBJECTIVES
from .jit import JIT
from .state import fields

STATE_FIELDS = tuple(fields(1, 1, 1, 1, 1))    # buffer order, defined once in state.py
S = namedtuple("S", STATE_FIELDS)


class K(IntEnum):
    """Indices into the parameter array."""
    N = 0
    AUTO_FORCED = 1
    LOG = 2
    ROUND_LIMIT = 3
    BID_BASE = 4
    FOLLOWERS = 5
    START_MONEY = 6
    SETUP_DEAL = 7
    SETUP_KEEP = 8
    COIN_FIRST = 9
    COIN_LATER = 10
    THERMAE_COST = 11
    FORUM_COST = 12
    CURIA_SUM = 13
    ATRIUM_COST = 14
    CATACOMB_CARDS = 15
    MARS_LAUREL = 16
    MARS_BONUS = 17
    HAND_LIMIT = 18
    GLADIATOR_LEGIONS = 19
    SPARTACUS_LEGIONS = 20
    LEGATE_LAURELS = 21
    VARUS_LAURELS = 22
    PATRICIAN_LAURELS = 23
    SCIPIO_DENARII = 24
    VESTAL_DENARII = 25
    SENATOR_LAURELS = 26
    PLEBEIAN_DENARII = 27
    VESTAL_LAURELS = 28
    FIRST_LAURELS = 29
    VICTORY = 30          # 1 with a victory card, 0 in the point-value variant
    V_LAURELS = 31
    V_LEGIONS = 32
    V_DENARII = 33
    V_MARKERS = 34
    V_NEED = 35
    V_OBLIGATORY = 36     # index into OBJECTIVES, or -1
    MARKER_GOAL = 37
    DECK = 38             # number of cards
    MIN_SET = 39
    # board geometry: first follower space / card slot of each region
    SP_THERMAE = 40
    SP_FORUM = 41
    SP_LATRINE = 42
    SP_CURIA = 43
    SP_ATRIUM = 44
    SP_CATACOMBS = 45
    SP_PANTHEON = 46
    SP_MARS = 47
    SP_END = 48
    SL_THERMAE = 49
    SL_FORUM = 50
    SL_LATRINE = 51
    SL_ATRIUM = 52
    SL_PANTHEON = 53
    SL_END = 54
    TIGELLINUS_LEGIONS = 55
    PRAETORIAN_LEGIONS = 56
    ASSASSIN_MIN_SET = 57
    CESURA_SET_LOSSES = 58
    SENATOR_CARDS = 59
    # action offsets
    A_PLACE = 60
    A_FIELD = 61
    A_COIN_BOWL = 62
    A_DISCARD = 63
    A_ADD = 64
    A_TAKE = 65
    A_BID = 66
    A_ATRIUM = 67
    A_LATRINE = 68
    A_BENEFIT = 69
    A_AGRIPPA = 70
    A_ASSASSIN = 71
    A_CHARIOT = 72
    A_MARKER = 73
    A_TEMP_FAVOR = 74
    A_BUY_LEGION = 75
    A_COMMIT = 76
    A_DECLINE = 77
    A_SIZE = 78
    # scoring table
    SC_TRIBUNE = 80
    SC_SCROLL = 81
    SC_ETERNAL = 82
    SC_TEMPORARY = 83
    SC_LEGION = 84
    SC_LAUREL = 85
    SC_DENARII = 86
    SC_MARKER = 87
    SC_FIRST = 88
    # variable-length blocks
    CATACOMB_PRICES = 90  # 8 entries, -1 past the last
    PLACE_SPACE = 100     # 32 entries: follower space of each region placement, -1 = pooled
    PLACE_REGION = 132    # 32 entries: region of each placement action (0-7)
    OFFSETS = 170         # start of each state field in the buffer (STATE_FIELDS order), then its end
    SIZE = 200


# regions, in board order
THERMAE, FORUM, LATRINE, CURIA, ATRIUM, CATACOMBS, PANTHEON, MARS = range(8)


def params(game, log: bool) -> np.ndarray:
    """The int64 parameter array of a game (its numbers, board, actions and buffer offsets)."""
    d, A, board = game.data, game.A, game.board
    k = np.zeros(K.SIZE, dtype=np.int64)
    card = game.victory_card
    sp = board.spaces
    sl = board.slots
    values = {
        K.N: game.n, K.AUTO_FORCED: game.auto_forced, K.LOG: log, K.ROUND_LIMIT: game.round_limit,
        K.BID_BASE: d.bid_base, K.FOLLOWERS: d.followers[game.n], K.START_MONEY: d.starting_money,
        K.SETUP_DEAL: d.setup_deal, K.SETUP_KEEP: d.setup_keep, K.COIN_FIRST: d.coin_bowl_first,
        K.COIN_LATER: d.coin_bowl_later, K.THERMAE_COST: d.thermae_cost, K.FORUM_COST: d.forum_cost,
        K.CURIA_SUM: d.curia_sum, K.ATRIUM_COST: d.atrium_single_cost,
        K.CATACOMB_CARDS: d.catacomb_cards, K.MARS_LAUREL: d.mars_laurels_per_pair,
        K.MARS_BONUS: d.mars_bonus_laurels, K.HAND_LIMIT: d.cesura_hand_limit,
        K.GLADIATOR_LEGIONS: d.gladiator_legions, K.SPARTACUS_LEGIONS: d.spartacus_legions,
        K.LEGATE_LAURELS: d.legate_laurels, K.VARUS_LAURELS: d.varus_laurels,
        K.PATRICIAN_LAURELS: d.patrician_laurels, K.SCIPIO_DENARII: d.scipio_denarii,
        K.VESTAL_DENARII: d.vestal_denarii, K.SENATOR_LAURELS: d.senator_laurels,
        K.PLEBEIAN_DENARII: d.plebeian_benefit_denarii, K.VESTAL_LAURELS: d.vestal_benefit_laurels,
        K.FIRST_LAURELS: d.first_control_laurels, K.VICTORY: card is not None,
        K.MARKER_GOAL: d.point_variant_markers[game.n], K.DECK: d.deck_size(),
        K.MIN_SET: d.min_set, K.TIGELLINUS_LEGIONS: d.tigellinus_legions,
        K.PRAETORIAN_LEGIONS: d.praetorian_benefit_legions, K.ASSASSIN_MIN_SET: d.assassin_min_set,
        K.CESURA_SET_LOSSES: d.cesura_set_losses, K.SENATOR_CARDS: d.senator_benefit_cards,
        K.SP_THERMAE: sp["Thermae"].start, K.SP_FORUM: sp["Forum Romanum"].start,
        K.SP_LATRINE: sp["Latrine"].start, K.SP_CURIA: sp["Curia"].start,
        K.SP_ATRIUM: sp["Atrium Auctionorum"].start, K.SP_CATACOMBS: sp["Catacombs"].start,
        K.SP_PANTHEON: sp["Pantheon"].start, K.SP_MARS: sp["Field of Mars"].start,
        K.SP_END: board.num_spaces, K.SL_THERMAE: sl["Thermae"].start,
        K.SL_FORUM: sl["Forum Romanum"].start, K.SL_LATRINE: sl["Latrine"].start,
        K.SL_ATRIUM: sl["Atrium Auctionorum"].start, K.SL_PANTHEON: sl["Pantheon"].start,
        K.SL_END: board.num_slots,
        K.A_PLACE: A.PLACE, K.A_FIELD: A.FIELD, K.A_COIN_BOWL: A.COIN_BOWL, K.A_DISCARD: A.DISCARD,
        K.A_ADD: A.ADD, K.A_TAKE: A.TAKE, K.A_BID: A.BID, K.A_ATRIUM: A.ATRIUM,
        K.A_LATRINE: A.LATRINE, K.A_BENEFIT: A.BENEFIT, K.A_AGRIPPA: A.AGRIPPA,
        K.A_ASSASSIN: A.ASSASSIN, K.A_CHARIOT: A.CHARIOT, K.A_MARKER: A.MARKER,
        K.A_TEMP_FAVOR: A.TEMP_FAVOR, K.A_BUY_LEGION: A.BUY_LEGION, K.A_COMMIT: A.COMMIT,
        K.A_DECLINE: A.DECLINE, K.A_SIZE: A.size,
    }
    if card is not None:
        values.update({K.V_LAURELS: card.laurels, K.V_LEGIONS: card.legions, K.V_DENARII: card.denarii,
                       K.V_MARKERS: card.markers, K.V_NEED: card.need[game.n],
                       K.V_OBLIGATORY: -1 if card.obligatory is None else OBJECTIVES.index(card.obligatory)})
    s = d.scoring
    values.update({K.SC_TRIBUNE: s["tribune"], K.SC_SCROLL: s["scroll"], K.SC_ETERNAL: s["eternal_favor"],
                   K.SC_TEMPORARY: s["temporary_favor"], K.SC_LEGION: s["legion"],
                   K.SC_LAUREL: s["laurel"], K.SC_DENARII: s["denarii_per_point"],
                   K.SC_MARKER: s["marker"], K.SC_FIRST: s["first_declarer"]})
    for key, value in values.items():
        k[key] = int(value)
    k[K.CATACOMB_PRICES: K.CATACOMB_PRICES + 8] = -1
    k[K.CATACOMB_PRICES: K.CATACOMB_PRICES + len(d.catacomb_prices)] = d.catacomb_prices
    names = board.region_names
    for i, (region, space) in enumerate(board.place_targets):
        k[K.PLACE_SPACE + i] = -1 if space is None else space
        k[K.PLACE_REGION + i] = names.index(region)
    for i, name in enumerate(STATE_FIELDS):
        k[K.OFFSETS + i] = game._layout.offsets[name][0]
    k[K.OFFSETS + len(STATE_FIELDS)] = game._layout.size
    return k


def check_limits(data) -> None:
    """The parameter array has fixed room for catacomb prices and placement targets."""
    from .errors import ConfigError
    if len(data.catacomb_prices) > 8:
        raise ConfigError("at most 8 catacomb prices are supported")
    if data.thermae_cards + data.forum_cards + data.curia_stacks + len(data.catacomb_prices) + 4 > 32:
        raise ConfigError("too many distinct follower spaces for the action space (at most 32)")


@intrinsic
def _int32_pointer(typingctx, address):
    """An int32 pointer at a memory address (for views that need no reference counting)."""
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int32)))
    return types.CPointer(types.int32)(address), codegen


@njit(inline="always", **JIT)
def _field(buf, k, i, size):
    """Field i of the buffer as a flat array of `size` items, without a reference count.

    Passing 29 reference-counted views to every handler costs more than the handlers'
    work; these views borrow the buffer, which the caller keeps alive for the call.
    """
    return carray(_int32_pointer(buf.ctypes.data + 4 * k[K.OFFSETS + i]), size)


@njit(**JIT)
def views(buf, k):
    """The state buffer as named arrays; sizes come from the offsets, so only state.py defines them."""
    o = k[K.OFFSETS:K.OFFSETS + len(STATE_FIELDS) + 1]
    P, C, F = 5, NUM_FACTIONS * NUM_VALUES, NUM_FACTIONS

    def field(i):
        return _field(buf, k, i, o[i + 1] - o[i])

    return S(field(0), field(1).reshape((-1, 4)), field(2).reshape((P, -1)), field(3), field(4),
             field(5), field(6).reshape((F, -1)), field(7), field(8), field(9).reshape((P, -1)),
             field(10).reshape((P, -1)), field(11), field(12), field(13), field(14).reshape((F, -1)),
             field(15), field(16), field(17).reshape((-1, C)), field(18), field(19),
             field(20).reshape((P, -1)), field(21), field(22), field(23).reshape((-1, C)), field(24),
             field(25), field(26), field(27), field(28))


# ---------------------------------------------------------------- xoshiro128**
MASK32 = np.uint64(0xFFFFFFFF)


def seed_words(seed) -> np.ndarray:
    """Four non-zero 32-bit words from any numpy-style seed (None draws fresh entropy)."""
    words = np.random.SeedSequence(seed).generate_state(4, dtype=np.uint32)
    if not words.any():
        words[0] = 1
    return words.view(np.int32)


@njit(**JIT)
def _rotl(x, r):
    return ((x << np.uint64(r)) | (x >> np.uint64(32 - r))) & MASK32


@njit(**JIT)
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


@njit(**JIT)
def below(rng, n):
    """A random int in [0, n) (multiply-shift; the bias is below n / 2**32)."""
    return np.int64((next_u32(rng) * np.uint64(n)) >> np.uint64(32))


@njit(**JIT)
def shuffle(rng, a):
    """Fisher-Yates shuffle of a 1-d array in place."""
    for i in range(len(a) - 1, 0, -1):
        j = below(rng, i + 1)
        a[i], a[j] = a[j], a[i]

"""A fast evaluation of a Tribune position for one seat: leaf values for search, lookahead for agents.

``evaluate_position(game, seat)`` reads a full :class:`tribune_env.Game` (for an agent, a determinised
copy: ``view.determinize(rng)``) and says how good it is for `seat`, higher is better:

- a finished game: +1 won (1/k for a win shared by k players of the point-value variant),
  -1 lost; a truncated game is valued like a running one;
- a running game: ``tanh(lead / LEAD_SCALE)``, in (-1, 1), where `lead` is the seat's
  *potential* less the best potential among its opponents: about +-0.46 for a lead of 5
  points, +-0.76 for 10, +-0.96 for 20.

A player's potential is in points of the scoring table (rulebook, "The End of Play"):

- ``VICTORY_WEIGHT`` times its progress towards the victory card, from 0 to 1. Each of the
  six objectives gets a fraction: laurels, legions, denarii and markers held over those
  needed; the tribune objective counts a scroll as a step (more with control of a faction
  that turns it into a tribune); the favor of the gods counts control of the Vestal
  Virgins (the temporary favor comes with their benefit) or their marker (the Pantheon).
  An objective not yet met counts ``UNMET`` of its fraction. The best `need` objectives
  count fully (the obligatory one always among them, ``OBLIGATORY`` times), the others
  ``SPARE``; a player who has declared "Veni, vidi, vici" has progress 1. In the
  point-value variant ``RACE_WEIGHT`` times the share of the ending number of faction
  markers held stands instead for the race to end the game (its ender scores 2 more).
- its score (what decides between declarers, and the point-value variant);
- ``CARD_POINTS`` per card in hand and ``CONTROL_POINTS`` per faction it controls: the
  means of future take-overs and benefits.

It is compiled (numba), on the engine's own state buffer and parameter array, so the
heuristic's pricing and a search's rollouts call it without leaving machine code:
``benchmarks/heuristic_vs_random.py`` reports its cost.

A player's *row* (:data:`ROW`) holds what the potential reads; a *change* (:data:`CHANGE`)
is a hypothetical gain added to a row (:func:`potential_after`), so agents can price what an action
brings: :func:`potential` gives one player's potential, optionally after such a change. A
change is a tuple (:func:`change_by`), not an array: the heuristic prices dozens a decision, and
a tuple costs no allocation.
"""

from __future__ import annotations

import math

import numpy as np

from tribune_env.core.scoring import points
from tribune_env.data import (
    LEGATES,
    NUM_FACTIONS,
    NUM_OBJECTIVES,
    PATRICIANS,
    PLEBEIANS,
    SENATORS,
    VESTALS,
)
from tribune_env.kernel import K, views
from tribune_env.state import SCROLL, TRIBUNE, Meta, Status

from .compiled import compiled, entry

VICTORY_WEIGHT = 30.0  # points for the whole way from nothing to meeting the victory card
LEAD_SCALE = 10.0  # points of lead that make tanh(1) = 0.76
UNMET = 0.8  # an objective half-way counts 0.4: meeting it is worth a jump
SPARE = 0.2  # weight of the objectives beyond the best `need`
OBLIGATORY = 2.0  # the obligatory objective counts twice: no win without it
CARD_POINTS = 0.5
CONTROL_POINTS = 1.0
RACE_WEIGHT = 5.0  # point-value variant: markers bring the end (and its 2 points) nearer

SCROLL_STEP = 0.5  # tribune objective with a scroll
SCROLL_AND_ONE = 0.65  # ... and control of one faction of a pair that turns it into a tribune
SCROLL_AND_PAIR = 0.85  # ... and control of both (the tribune comes in the next Phase 5)
SCROLL_SOURCE = 0.2  # no tile yet, but control of the Legates or Senators (a scroll)
FAVOR_BY_CONTROL = 0.6  # control of the Vestal Virgins: the temporary favor in Phase 5
FAVOR_BY_MARKER = 0.35  # a Vestal Virgins marker opens the Pantheon

# A player's row: the resource columns of the state (money .. markers), then the rest.
ROW = (
    "money",
    "laurels",
    "legions",
    "tile",
    "eternal",
    "markers",
    "temp",
    "cards",
    "declared",
    "controls",
    "vestal_marker",
)
(MONEY_, LAURELS_, LEGIONS_, TILE_, ETERNAL_, MARKERS_, TEMP_, CARDS_, DECLARED_, CONTROLS_, VESTAL_) = range(len(ROW))

# A change: amounts added (money .. cards), tiles and favors raised to, a faction controlled (-1: none).
CHANGE = ("money", "laurels", "legions", "markers", "cards", "tile", "eternal", "temp_favor", "control")
(MONEY, LAURELS, LEGIONS, MARKERS, CARDS, TILE, ETERNAL, TEMP_FAVOR, CONTROL) = range(len(CHANGE))

# factions as bits of a control mask; joint control of a pair turns a scroll into a tribune
_PLEBEIAN_TRIBUNE = (1 << PATRICIANS) | (1 << PLEBEIANS)
_VESTAL_TRIBUNE = (1 << SENATORS) | (1 << VESTALS)
_TRIBUNE_FACTIONS = _PLEBEIAN_TRIBUNE | _VESTAL_TRIBUNE
_SCROLL_SOURCES = (1 << LEGATES) | (1 << SENATORS)
_VESTALS = 1 << VESTALS


def evaluate_position(game, seat: int) -> float:
    """How good `game` is for `seat`, in [-1, 1] (see the module docstring for the scale)."""
    return evaluate_state(game.handle.buffer, game.handle.params, seat)


def potential(game, player: int, **change) -> float:
    """Player's potential in points, optionally after a hypothetical change (see :data:`CHANGE`)."""
    return float(changed_potential(game.handle.buffer, game.handle.params, player, change_of(**change)))


def change_of(**change) -> tuple:
    """A change from keywords of :data:`CHANGE`; an unknown keyword raises ValueError."""
    unknown = sorted(set(change) - set(CHANGE))
    if unknown:
        raise ValueError(f"unknown change {unknown[0]!r}; known: {CHANGE}")
    return tuple(float(change.get(key, none)) for key, none in zip(CHANGE, NO_CHANGE))


NO_CHANGE = tuple(-1.0 if key == "control" else 0.0 for key in CHANGE)  # a constant of compiled code


@compiled(inline="always")  # into each caller: a tuple built where it is used
def change_by(
    money=0.0, laurels=0.0, legions=0.0, markers=0.0, cards=0.0, tile=0.0, eternal=0.0, temp_favor=0.0, control=-1.0
):
    """A change of the items given (in the order of :data:`CHANGE`)."""
    return (
        float(money),
        float(laurels),
        float(legions),
        float(markers),
        float(cards),
        float(tile),
        float(eternal),
        float(temp_favor),
        float(control),
    )


@entry
def evaluate_state(buf, params, seat):
    """:func:`evaluate_position` on a state buffer and its parameters."""
    state = views(buf, params)
    n = params[K.N]
    if state.meta[Meta.STATUS] == Status.TERMINATED:
        winners = 0
        for p in range(n):
            winners += state.winner[p] != 0
        return 1.0 / winners if state.winner[seat] else -1.0
    mine, best = 0.0, -math.inf
    for p in range(n):
        value = potential_of(player_row(state, params, p), params)
        if p == seat:
            mine = value
        elif value > best:
            best = value
    return math.tanh((mine - best) / LEAD_SCALE)


@entry
def changed_potential(buf, params, player, change):
    state = views(buf, params)
    return potential_after(player_row(state, params, player), change, params)


@compiled
def player_row(state, params, p):
    """Player p's row (see ROW; ``controls`` is a bit mask of factions), as floats: a change may add half a laurel."""
    return row_into(np.empty(len(ROW)), state, p)


@compiled
def row_into(row, state, p):
    """:func:`player_row` written into `row`."""
    controls = 0
    for i in range(6):
        row[i] = state.res[p, i]
    row[TEMP_] = state.meta[Meta.TEMP_FAVOR] == p
    row[CARDS_] = state.hand[p].sum()
    row[DECLARED_] = state.declared[p]
    for f in range(NUM_FACTIONS):
        if state.controller[f] == p:
            controls |= 1 << f
    row[CONTROLS_] = controls
    row[VESTAL_] = state.markers[p, VESTALS]
    return row


@compiled
def merge(a, b):
    """Two changes summed; tiles, favors and control take the larger."""
    return change_by(
        a[MONEY] + b[MONEY],
        a[LAURELS] + b[LAURELS],
        a[LEGIONS] + b[LEGIONS],
        a[MARKERS] + b[MARKERS],
        a[CARDS] + b[CARDS],
        max(a[TILE], b[TILE]),
        max(a[ETERNAL], b[ETERNAL]),
        max(a[TEMP_FAVOR], b[TEMP_FAVOR]),
        max(a[CONTROL], b[CONTROL]),
    )


@compiled
def _bits(x):
    count = 0
    while x:
        count += x & 1
        x >>= 1
    return count


@compiled
def potential_of(row, params):
    """Points: progress (or the race to the marker goal), score, cards and control."""
    return potential_after(row, NO_CHANGE, params)


@compiled
def potential_after(row, change, params):
    """The potential of the row after a hypothetical change (an expired temporary favor stays off).

    The changed row is never built: the heuristic prices every action by it, and an array a
    call costs more than the arithmetic."""
    money, laurels = row[MONEY_] + change[MONEY], row[LAURELS_] + change[LAURELS]
    legions, markers = row[LEGIONS_] + change[LEGIONS], row[MARKERS_] + change[MARKERS]
    tile = max(row[TILE_], change[TILE])
    eternal = 1.0 if row[ETERNAL_] or change[ETERNAL] else 0.0
    temp = 1.0 if (row[TEMP_] or change[TEMP_FAVOR]) and not eternal else 0.0
    controls = int(row[CONTROLS_])
    if change[CONTROL] >= 0:
        controls |= 1 << int(change[CONTROL])
    declared = row[DECLARED_]
    extra = CARD_POINTS * (row[CARDS_] + change[CARDS]) + CONTROL_POINTS * _bits(controls)
    # whole denarii score the same points, by an integer division: a float's calls the C library
    score = points(params, tile, eternal, temp, legions, laurels, np.int64(math.floor(money)), markers, declared == 0)
    if not params[K.VICTORY]:
        return RACE_WEIGHT * min(markers / params[K.POINT_VARIANT_MARKERS], 1.0) + score + extra
    if declared >= 0:
        progress = 1.0
    else:
        favored = eternal or temp
        progress = progress_of(params, tile, controls, favored, row[VESTAL_], laurels, legions, money, markers)
    return VICTORY_WEIGHT * progress + score + extra


@compiled
def progress_of(params, tile, controls, favored, vestal_marker, laurels, legions, money, markers):
    """Weighted share of the victory card met: the best `need` objectives count fully."""
    credit = (  # in the order of Objective
        _tribune_credit(tile, controls),
        _favor_credit(favored, controls, vestal_marker),
        _credit(laurels, params[K.V_LAURELS]),
        _credit(legions, params[K.V_LEGIONS]),
        _credit(money, params[K.V_DENARII]),
        _credit(markers, params[K.V_MARKERS]),
    )
    need, obligatory = params[K.V_NEED], params[K.V_OBLIGATORY]
    weights = need + (OBLIGATORY - 1 if obligatory >= 0 else 0.0) + SPARE * (NUM_OBJECTIVES - need)
    counted = OBLIGATORY * credit[obligatory] if obligatory >= 0 else 0.0
    need -= obligatory >= 0
    best, rest = 0.0, 0.0
    place = 0
    for value in _descending(credit, obligatory):  # the others, best first (as a selection of the best would sum)
        if place < need:
            best += value
        elif place < NUM_OBJECTIVES - (obligatory >= 0):
            rest += value
        place += 1
    return (counted + best + SPARE * rest) / weights


@compiled(inline="always")
def _descending(credit, left_out):
    """The six credits largest first, the one at `left_out` (if any) last as -inf: an optimal
    sorting network (12 comparisons, no array). Equal values may swap, which no sum tells."""
    c0, c1, c2 = (
        (-np.inf if left_out == 0 else credit[0]),
        (-np.inf if left_out == 1 else credit[1]),
        (-np.inf if left_out == 2 else credit[2]),
    )
    c3, c4, c5 = (
        (-np.inf if left_out == 3 else credit[3]),
        (-np.inf if left_out == 4 else credit[4]),
        (-np.inf if left_out == 5 else credit[5]),
    )
    (c0, c5), (c1, c3), (c2, c4) = _ordered(c0, c5), _ordered(c1, c3), _ordered(c2, c4)  # its five layers
    (c1, c2), (c3, c4) = _ordered(c1, c2), _ordered(c3, c4)
    (c0, c3), (c2, c5) = _ordered(c0, c3), _ordered(c2, c5)
    (c0, c1), (c2, c3), (c4, c5) = _ordered(c0, c1), _ordered(c2, c3), _ordered(c4, c5)
    (c1, c2), (c3, c4) = _ordered(c1, c2), _ordered(c3, c4)
    return c0, c1, c2, c3, c4, c5


@compiled(inline="always")
def _ordered(a, b):
    return (a, b) if a >= b else (b, a)


@compiled
def _credit(have, needed):
    return 1.0 if have >= needed else UNMET * have / needed


@compiled
def _tribune_credit(tile, controls):
    if tile == TRIBUNE:
        return 1.0
    if tile == SCROLL:
        if controls & _PLEBEIAN_TRIBUNE == _PLEBEIAN_TRIBUNE or controls & _VESTAL_TRIBUNE == _VESTAL_TRIBUNE:
            return UNMET * SCROLL_AND_PAIR
        return UNMET * (SCROLL_AND_ONE if controls & _TRIBUNE_FACTIONS else SCROLL_STEP)
    return UNMET * SCROLL_SOURCE if controls & _SCROLL_SOURCES else 0.0


@compiled
def _favor_credit(favored, controls, vestal_marker):
    if favored:
        return 1.0
    if controls & _VESTALS:
        return UNMET * FAVOR_BY_CONTROL
    return UNMET * FAVOR_BY_MARKER if vestal_marker else 0.0

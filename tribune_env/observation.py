"""One player's view of the table as a fixed-size float32 vector.

Seat-relative: row 0 of every per-player segment is the observer, then clockwise;
padded to 5 seats. Only what the observer may know is written: its own hand, build,
bid and pairs; the public board; face-down cards only once turned up or privately seen
(the Pantheon card after placing there, the Catacombs pile after examining it).
``ObservationLayout(data).segments`` lists (name, offset, shape); ``docs/observation.md``
documents each.
"""
from __future__ import annotations

import numpy as np

from .data import MAX_PLAYERS as P, NUM_CARD_TYPES as C, NUM_FACTIONS as F, NUM_VALUES as V, OBJECTIVES
from .state import ETERNAL, LAURELS, LEGIONS, M, MARKERS, MONEY, SCROLL, TILE, TRIBUNE
from .tasks import DECISIONS, Task

PHASES = 7          # 0 = setup, 1-6 the phases of a round
SLOT_FEATURES = 1 + F + 1   # present, faction one-hot, value


class ObservationLayout:
    """Named segments and their offsets, derived from the board size."""

    def __init__(self, board, data):
        self.board = board
        ctx = max(data.curia_stacks, len(data.catacomb_prices), data.field_of_mars_spaces)
        spec = [
            ("hand", (C,)), ("build", (C,)), ("own_bid", (1,)), ("own_pairs", (C,)),
            ("catacombs_seen", (C,)),
            ("seat_present", (P,)), ("money", (P,)), ("laurels", (P,)), ("legions", (P,)),
            ("scroll", (P,)), ("tribune", (P,)), ("eternal_favor", (P,)), ("temporary_favor", (P,)),
            ("marker_count", (P,)), ("markers", (P, F)), ("hand_size", (P,)),
            ("followers_left", (P,)), ("coin_bowl", (P,)), ("has_bid", (P,)), ("pairs_laid", (P,)),
            ("declared", (P,)), ("start_player", (P,)), ("proconsul", (P,)), ("objectives", (P, len(OBJECTIVES))),
            ("controller", (F, P)), ("sets", (C,)), ("first_laurel", (F,)), ("field_owner", (F, 2, P)),
            ("chariot", (F,)), ("space_owner", (board.num_spaces, P)),
            ("slots", (board.num_slots, SLOT_FEATURES)), ("curia", (data.curia_stacks, C)),
            ("catacombs_size", (1,)), ("colosseum", (1,)), ("draw_size", (1,)),
            ("discard_public", (C,)), ("discard_hidden_size", (1,)), ("challenger", (V,)),
            ("phase", (PHASES,)), ("round", (1,)), ("rounds_left", (1,)),
            ("decision", (len(DECISIONS),)), ("actor", (P,)), ("context_faction", (F,)),
            ("context_index", (ctx,)), ("context_role", (2,)),
            ("victory", (4,)), ("victory_need", (1,)), ("obligatory", (len(OBJECTIVES),)),
            ("point_variant", (1,)), ("marker_goal", (1,)),
        ]
        self.segments = []
        self.slices = {}
        offset = 0
        for name, shape in spec:
            size = int(np.prod(shape))
            self.segments.append((name, offset, shape))
            self.slices[name] = slice(offset, offset + size)
            offset += size
        self.size = offset
        # seat tables: rot[o][i] is the absolute seat at relative position i (padding -> zero row)
        self.rot = {}
        self.onehot = {}

    def tables(self, n, observer):
        key = (n, observer)
        if key not in self.rot:
            self.rot[key] = np.array([(observer + i) % n if i < n else i for i in range(P)])
            onehot = np.zeros((P + 1, P), dtype=np.float32)      # row 0: nobody
            for q in range(n):
                onehot[q + 1, (q - observer) % n] = 1
            self.onehot[key] = onehot
        return self.rot[key], self.onehot[key]


DECISION_INDEX = {int(d): i for i, d in enumerate(DECISIONS)}
CONTEXT_FACTION = {Task.TAKEOVER_SET, Task.PENALTY, Task.BENEFIT_CHOICE}
CONTEXT_INDEX = {Task.CURIA_CHOICE, Task.CATACOMBS_CHOICE, Task.MARS_PAIR}


def observe(g, observer: int, out: np.ndarray | None = None) -> np.ndarray:
    """Write player `observer`'s observation into `out` (a new array by default)."""
    L = g.obs_layout
    s = L.slices
    o = np.zeros(L.size, dtype=np.float32) if out is None else out
    if out is not None:
        o.fill(0)
    rot, onehot = L.tables(g.n, observer)
    meta = g.meta
    res = g.res[rot]
    kind, actor, b, c = g.tasks[meta[M["n_tasks"]] - 1].tolist() if not g.is_over else (0, -1, 0, 0)
    acting = actor == observer

    # what the observer alone holds or has seen
    o[s["hand"]] = g.hand[observer]
    if acting:
        o[s["build"]] = g.build
    if g.committed[observer] and kind in (Task.ATRIUM_BID, Task.CHARIOT_BID, Task.ATRIUM_RESOLVE, Task.CHARIOT_RESOLVE):
        o[s["own_bid"]] = g.bids[observer]
    mars = g.board.spaces["Field of Mars"]
    own = g.space_owner[mars.start: mars.stop] == observer
    if own.any():
        o[s["own_pairs"]] = g.mars_pairs[own].sum(axis=0)
    if g.catacombs_seen[observer]:
        o[s["catacombs_seen"]] = g.catacombs

    # players, seat-relative
    o[s["seat_present"]][: g.n] = 1
    o[s["money"]] = res[:, MONEY]
    o[s["laurels"]] = res[:, LAURELS]
    o[s["legions"]] = res[:, LEGIONS]
    o[s["scroll"]] = res[:, TILE] == SCROLL
    o[s["tribune"]] = res[:, TILE] == TRIBUNE
    o[s["eternal_favor"]] = res[:, ETERNAL]
    o[s["marker_count"]] = res[:, MARKERS]
    o[s["markers"]] = g.markers[rot].ravel()
    o[s["hand_size"]] = g.hand[rot].sum(axis=1)
    o[s["followers_left"]] = g.followers[rot]
    o[s["coin_bowl"]] = g.coin_bowl[rot]
    o[s["has_bid"]] = g.committed[rot]
    laid = g.mars_pairs.sum(axis=1) == 2
    o[s["pairs_laid"]] = onehot[g.space_owner[mars.start: mars.stop][laid] + 1].sum(axis=0)
    o[s["declared"]] = g.declared[rot] >= 0
    o[s["start_player"]] = onehot[meta[M["start_player"]] + 1]
    o[s["proconsul"]] = onehot[meta[M["proconsul"]] + 1]
    o[s["temporary_favor"]] = onehot[meta[M["temp_favor"]] + 1]
    objectives = np.zeros((P, len(OBJECTIVES)), dtype=np.float32)
    objectives[: g.n] = g.objectives()[rot[: g.n]]
    o[s["objectives"]] = objectives.ravel()

    # factions
    o[s["controller"]] = onehot[g.controller + 1].ravel()
    o[s["sets"]] = g.sets.ravel()
    o[s["first_laurel"]] = g.first_laurel
    o[s["field_owner"]] = onehot[g.field_owner + 1].ravel()
    if meta[M["chariot"]] >= 0:
        o[s["chariot"].start + meta[M["chariot"]]] = 1

    # regions
    o[s["space_owner"]] = onehot[g.space_owner + 1].ravel()
    slots = o[s["slots"]].reshape(-1, SLOT_FEATURES)
    cards = g.slot_card
    slots[:, 0] = cards >= 0
    visible = g.slot_up.astype(bool)
    if g.pantheon_seen[observer]:
        visible[g.board.slots["Pantheon"].start] = True
    visible &= cards >= 0
    idx = np.flatnonzero(visible)
    slots[idx, 1 + cards[idx] // V] = 1
    slots[idx, 1 + F] = cards[idx] % V
    o[s["curia"]] = g.curia.ravel()
    o[s["catacombs_size"]] = g.catacombs.sum()
    o[s["colosseum"]] = meta[M["colosseum"]]
    o[s["draw_size"]] = meta[M["draw_n"]]
    o[s["discard_public"]] = g.discard_public
    o[s["discard_hidden_size"]] = g.discard_hidden.sum()
    o[s["challenger"]] = g.challenger

    # the round and the decision
    o[s["phase"].start + meta[M["phase"]]] = 1
    o[s["round"]] = meta[M["round"]]
    o[s["rounds_left"]] = g.round_limit - meta[M["round"]]
    if kind:
        o[s["decision"].start + DECISION_INDEX[kind]] = 1
        o[s["actor"]] = onehot[actor + 1]
        if kind in CONTEXT_FACTION:
            o[s["context_faction"].start + b] = 1
        elif kind == Task.SACRIFICE:
            o[s["context_faction"].start + g.slot_card[g.board.slots["Pantheon"].start] // V] = 1
        if kind in CONTEXT_INDEX:
            o[s["context_index"].start + b] = 1
        if kind == Task.TAKEOVER_SET:
            o[s["context_role"].start + (c == 1)] = 1

    # the victory card
    card = g.victory_card
    if card is None:
        o[s["point_variant"]] = 1
        o[s["marker_goal"]] = g.marker_goal
    else:
        o[s["victory"]] = (card.laurels, card.legions, card.denarii, card.markers)
        o[s["victory_need"]] = g.need
        if card.obligatory:
            o[s["obligatory"].start + OBJECTIVES.index(card.obligatory)] = 1
    return o

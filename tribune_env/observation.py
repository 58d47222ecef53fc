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
from .state import ETERNAL, LAURELS, LEGIONS, M, MARKERS, MONEY, TILE
from .tasks import DECISIONS, Task

PHASES = 7          # 0 = setup, 1-6 the phases of a round
SLOT_FEATURES = 1 + F + 1   # present, faction one-hot, value


# Segments copied straight from the state buffer (seat-relative rows), in this order.
DIRECT = ("hand", "money", "laurels", "legions", "tile", "eternal_favor", "marker_count", "markers",
          "followers_left", "coin_bowl", "has_bid", "sets", "first_laurel", "curia",
          "discard_public", "challenger", "colosseum", "draw_size", "round")
# Seats (or nobody) shown one-hot, seat-relative, from one gather of seat ids.
OWNERS = ("space_owner", "field_owner", "controller", "start_player", "proconsul", "temporary_favor")


class ObservationLayout:
    """Named segments and their offsets, derived from the board size."""

    def __init__(self, board, data, state_layout):
        self.board = board
        self.state_layout = state_layout
        ctx = max(data.curia_stacks, len(data.catacomb_prices), data.field_of_mars_spaces)
        shapes = {
            "hand": (C,), "money": (P,), "laurels": (P,), "legions": (P,), "tile": (P,),
            "eternal_favor": (P,), "marker_count": (P,), "markers": (P, F), "followers_left": (P,),
            "coin_bowl": (P,), "has_bid": (P,), "sets": (C,), "first_laurel": (F,),
            "curia": (data.curia_stacks, C), "discard_public": (C,), "challenger": (V,),
            "colosseum": (1,), "draw_size": (1,), "round": (1,),
            "space_owner": (board.num_spaces, P), "field_owner": (F, 2, P), "controller": (F, P),
            "start_player": (P,), "proconsul": (P,), "temporary_favor": (P,),
            "build": (C,), "own_bid": (1,), "own_pairs": (C,), "catacombs_seen": (C,),
            "hand_size": (P,), "pairs_laid": (P,), "declared": (P,), "objectives": (P, len(OBJECTIVES)),
            "chariot": (F,), "slots": (board.num_slots, SLOT_FEATURES), "catacombs_size": (1,),
            "discard_hidden_size": (1,), "phase": (PHASES,), "rounds_left": (1,),
            "decision": (len(DECISIONS),), "actor": (P,), "context_faction": (F,),
            "context_index": (ctx,), "context_role": (2,),
            "seat_present": (P,), "victory": (4,), "victory_need": (1,),
            "obligatory": (len(OBJECTIVES),), "point_variant": (1,), "marker_goal": (1,),
        }
        self.segments = []
        self.slices = {}
        offset = 0
        for name, shape in shapes.items():
            size = int(np.prod(shape))
            self.segments.append((name, offset, shape))
            self.slices[name] = slice(offset, offset + size)
            offset += size
        self.size = offset
        self.direct = slice(0, self.slices[DIRECT[-1]].stop)
        self.owners = slice(self.slices[OWNERS[0]].start, self.slices[OWNERS[-1]].stop)
        self._tables = {}

    def tables(self, n, observer):
        """(rot, one-hot table, direct gather index, owner gather index) for this seat."""
        key = (n, observer)
        if key not in self._tables:
            rot = np.array([(observer + i) % n if i < n else i for i in range(P)])
            onehot = np.zeros((P + 1, P), dtype=np.float32)      # row 0: nobody
            for q in range(n):
                onehot[q + 1, (q - observer) % n] = 1
            self._tables[key] = (rot, onehot, self._direct_index(rot, observer), self._owner_index())
        return self._tables[key]

    def _at(self, name):
        offset, size, shape = self.state_layout.offsets[name]
        return offset + np.arange(size).reshape(shape)

    def _direct_index(self, rot, observer):
        res = self._at("res")[rot]
        meta = self._at("meta")
        parts = {
            "hand": self._at("hand")[observer], "money": res[:, MONEY], "laurels": res[:, LAURELS],
            "legions": res[:, LEGIONS], "tile": res[:, TILE], "eternal_favor": res[:, ETERNAL],
            "marker_count": res[:, MARKERS], "markers": self._at("markers")[rot],
            "followers_left": self._at("followers")[rot], "coin_bowl": self._at("coin_bowl")[rot],
            "has_bid": self._at("committed")[rot], "sets": self._at("sets"),
            "first_laurel": self._at("first_laurel"), "curia": self._at("curia"),
            "discard_public": self._at("discard_public"), "challenger": self._at("challenger"),
            "colosseum": meta[M["colosseum"]], "draw_size": meta[M["draw_n"]], "round": meta[M["round"]],
        }
        return np.concatenate([np.ravel(parts[name]) for name in DIRECT])

    def _owner_index(self):
        meta = self._at("meta")
        return np.concatenate([self._at("space_owner").ravel(), self._at("field_owner").ravel(),
                               self._at("controller").ravel(),
                               [meta[M["start_player"]], meta[M["proconsul"]], meta[M["temp_favor"]]]])

    def template(self, g) -> np.ndarray:
        """The parts fixed for a whole game: seats present and the victory card."""
        o = np.zeros(self.size, dtype=np.float32)
        s = self.slices
        o[s["seat_present"]][: g.n] = 1
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


DECISION_INDEX = {int(d): i for i, d in enumerate(DECISIONS)}
CONTEXT_FACTION = {Task.TAKEOVER_SET, Task.PENALTY, Task.BENEFIT_CHOICE}
CONTEXT_INDEX = {Task.CURIA_CHOICE, Task.CATACOMBS_CHOICE, Task.MARS_PAIR}
BIDDING = {Task.ATRIUM_BID, Task.CHARIOT_BID}


def observe(g, observer: int, out: np.ndarray | None = None) -> np.ndarray:
    """Write player `observer`'s observation into `out` (a new array by default)."""
    L = g.obs_layout
    s = L.slices
    if out is None:
        o = g.obs_template.copy()
    else:
        o = out
        o[:] = g.obs_template
    rot, onehot, direct, owners = L.tables(g.n, observer)
    buffer = g._state.buffer
    meta = g.meta
    o[L.direct] = buffer[direct]
    o[L.owners] = onehot[buffer[owners] + 1].ravel()

    # what the observer alone holds or has seen
    kind, actor, b, c = g.tasks[meta[M["n_tasks"]] - 1].tolist() if not g.is_over else (0, -1, 0, 0)
    if actor == observer:
        o[s["build"]] = g.build
    if g.committed[observer] and kind in BIDDING:
        o[s["own_bid"]] = g.bids[observer]
    mars = g.board.spaces["Field of Mars"]
    if g.mars_pairs.any():
        owner = g.space_owner[mars.start: mars.stop]
        laid = g.mars_pairs.sum(axis=1) == 2
        o[s["own_pairs"]] = g.mars_pairs[owner == observer].sum(axis=0)
        o[s["pairs_laid"]] = onehot[owner[laid] + 1].sum(axis=0)
    if g.catacombs_seen[observer]:
        o[s["catacombs_seen"]] = g.catacombs

    # counts and flags derived from the state
    o[s["hand_size"]] = g.hand.sum(axis=1)[rot]
    o[s["declared"]] = g.declared[rot] + 1
    o[s["objectives"]][: g.n * len(OBJECTIVES)] = g.objectives()[rot[: g.n]].ravel()
    if meta[M["chariot"]] >= 0:
        o[s["chariot"].start + meta[M["chariot"]]] = 1
    cards = g.slot_card
    visible = (g.slot_up > 0) & (cards >= 0)
    pantheon = g.board.slots["Pantheon"].start
    if g.pantheon_seen[observer] and cards[pantheon] >= 0:
        visible[pantheon] = True
    slots = o[s["slots"]].reshape(-1, SLOT_FEATURES)
    slots[:, 0] = cards >= 0
    idx = np.flatnonzero(visible)
    if len(idx):
        slots[idx, 1 + cards[idx] // V] = 1
        slots[idx, 1 + F] = cards[idx] % V
    o[s["catacombs_size"]] = g.catacombs.sum()
    o[s["discard_hidden_size"]] = g.discard_hidden.sum()

    # the round and the decision
    o[s["phase"].start + meta[M["phase"]]] = 1
    o[s["rounds_left"]] = g.round_limit - meta[M["round"]]
    if kind:
        o[s["decision"].start + DECISION_INDEX[kind]] = 1
        o[s["actor"]] = onehot[actor + 1]
        if kind in CONTEXT_FACTION:
            o[s["context_faction"].start + b] = 1
        elif kind == Task.SACRIFICE:
            o[s["context_faction"].start + cards[pantheon] // V] = 1
        if kind in CONTEXT_INDEX:
            o[s["context_index"].start + b] = 1
        if kind == Task.TAKEOVER_SET:
            o[s["context_role"].start + (c == 1)] = 1
    return o

"""The layout of one player's view of the table: named segments of a float32 vector.

Seat-relative: row 0 of every per-player segment is the observer, then clockwise;
padded to 5 seats. Only what the observer may know is written (the compiled encoder is
:func:`tribune_env.core.observe.observe`): its own hand, build, bid and pairs; the public
board; face-down cards only once turned up or privately seen (the Pantheon card after
placing there, the Catacombs pile after examining it). ``ObservationLayout.segments``
lists (name, offset, shape); ``docs/observation.md`` documents each.
"""
from __future__ import annotations

import numpy as np

from .data import MAX_PLAYERS as P, NUM_CARD_TYPES as C, NUM_FACTIONS as F, NUM_VALUES as V, OBJECTIVES
from .core.observe import SLOT_FEATURES, Seg
from .tasks import DECISIONS

PHASES = 7          # 0 = setup, 1-6 the phases of a round


class ObservationLayout:
    """Named segments and their offsets, derived from the board size."""

    def __init__(self, board, data):
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
        assert [name for name, _, _ in self.segments] == [seg.name for seg in Seg], "Seg order"
        self.offsets = np.array([self.slices[seg.name].start for seg in Seg], dtype=np.int64)

    def space(self):
        """The Gymnasium space of one observation (every value is a count or a flag, so >= 0)."""
        from gymnasium import spaces
        return spaces.Box(0.0, np.inf, (self.size,), np.float32)

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

"""The layout of one player's view of the table: named segments of a float32 vector.

Seat-relative: row 0 of every per-player segment is the observer, then clockwise;
padded to 5 seats. Only what the observer may know is written (the compiled encoder is
:func:`tribune_env.core.observe.observe`): its own hand, build, bid and pairs; the public
board; face-down cards only once turned up or privately seen (the Pantheon card after
placing there, the Catacombs pile after examining it). :data:`SEGMENTS` declares each
segment once; the compiled encoder's :class:`Seg`, the offsets and the table of
``docs/observation.md`` derive from it.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from .data import MAX_PLAYERS, NUM_CARD_TYPES, NUM_FACTIONS, NUM_VALUES, OBJECTIVES, PHASE_NAMES
from .tasks import DECISIONS

PHASES = len(PHASE_NAMES)  # 0 = setup, 1-6 the phases of a round
SLOT_FEATURES = 1 + NUM_FACTIONS + 1

# (name, shape, meaning) of each segment, in vector order. A shape gives numbers or the
# names of sizes that ObservationLayout.sizes holds (some follow the board and the data).
SEGMENTS = (
    ("hand", ("C",), "own hand: count of each card (faction * 11 + value)"),
    ("money", ("P",), "denarii of each seat (seat-relative: 0 = observer, then clockwise; padded to 5)"),
    ("laurels", ("P",), "laurels of each seat"),
    ("legions", ("P",), "legions of each seat"),
    ("tile", ("P",), "0 none, 1 scroll, 2 tribune, per seat"),
    ("eternal_favor", ("P",), "1 if the seat holds eternal favor"),
    ("marker_count", ("P",), "faction markers held, per seat"),
    ("markers", ("P", "F"), "seat x faction: 1 if held"),
    ("followers_left", ("P",), "followers still to place this round, per seat"),
    ("coin_bowl", ("P",), "followers on the coin bowl this round, per seat"),
    ("has_bid", ("P",), "1 if the seat has committed a sealed bid not yet revealed (never the amount)"),
    ("sets", ("C",), "displayed set of each faction: count by faction * 11 + value"),
    ("first_laurel", ("F",), "1 while the faction's first-control laurel is still on the board"),
    ("curia", ("curia", "C"), "each Curia stack: card counts"),
    ("discard_public", ("C",), "face-up discards since the last reshuffle"),
    ("challenger", ("V",), "set played from space 2 of the contested faction, by value"),
    ("colosseum", (1,), "denarii on the Colosseum"),
    ("draw_size", (1,), "cards in the draw pile"),
    ("round", (1,), "round number"),
    ("space_owner", ("spaces", "P"), "each region follower space: one-hot seat (all zero if empty)"),
    ("field_owner", ("F", 2, "P"), "faction x space 1/2: one-hot seat"),
    ("controller", ("F", "P"), "faction: one-hot controlling seat"),
    ("start_player", ("P",), "one-hot seat holding the starting player coin"),
    ("proconsul", ("P",), "one-hot seat holding the proconsul"),
    ("temporary_favor", ("P",), "one-hot seat holding it"),
    ("build", ("C",), "the set the observer is building (only when it is the observer's decision)"),
    ("own_bid", (1,), "during a sealed bid, the denarii of the observer's own bid: entered so far, or committed"),
    ("own_pairs", ("C",), "the observer's face-down Field of Mars pairs, until the reveal"),
    (
        "catacombs_seen",
        ("C",),
        "the Catacombs pile as the observer last examined it, less what it bought (cleared after Phase 3)",
    ),
    ("hand_size", ("P",), "cards in hand, per seat"),
    ("pairs_laid", ("P",), "face-down Field of Mars pairs, per seat"),
    ("declared", ("P",), "declaration order (1 = first), 0 if none, per seat"),
    (
        "objectives",
        ("P", "objectives"),
        "seat x objective (tribune, favor, laurels, legions, denarii, markers): 1 if met",
    ),
    ("chariot", ("F",), "one-hot faction blocked by the chariot this round"),
    (
        "slots",
        ("slots", "slot"),
        "each single-card field (Thermae, Forum, Latrine, Atrium, Pantheon): [card present, faction one-hot"
        " (7), value] - faction and value only if visible to the observer",
    ),
    ("catacombs_size", (1,), "face-down cards on the Catacombs"),
    ("discard_hidden_size", (1,), "face-down discards"),
    ("phase", ("phases",), "one-hot: 0 setup, 1-6 the phases"),
    ("rounds_left", (1,), "rounds until the round limit"),
    ("decision", ("decisions",), "one-hot kind of the decision waiting (Task order)"),
    ("actor", ("P",), "one-hot seat to act"),
    ("context_faction", ("F",), "faction contested / whose benefit / of the sacrifice"),
    (
        "context_index",
        ("context",),
        "Curia stack, Catacombs space or Field of Mars space of the decision; while the observer enters a "
        "sealed bid, the digit it enters: none for the units, then the base's first, second and third power"
        " (the last also marks any higher one)",
    ),
    ("context_role", (2,), "take-over set from space 2 (index 0) or space 1 (index 1)"),
    ("seat_present", ("P",), "1 for each seat in the game"),
    ("victory", (4,), "laurels, legions, denarii, markers needed"),
    ("victory_need", (1,), "objectives needed"),
    ("obligatory", ("objectives",), "one-hot obligatory objective"),
    ("point_variant", (1,), "1 in the point-value variant"),
    ("marker_goal", (1,), "markers that end a point-value game"),
    (
        "known_hands",
        ("P", "C"),
        "seat x card: cards every player saw go into the seat's hand face up (a Thermae, Forum, Latrine or Atrium"
        " card, a Curia stack, a beaten set taken back) and has not seen leave it; cards leaving face down (a"
        " Field of Mars pair) lower every count of that hand by their number, as any known card may be among them",
    ),
)
Seg = IntEnum("Seg", [(name, i) for i, (name, _, _) in enumerate(SEGMENTS)])  # compiled code: seg[Seg.hand]


class ObservationLayout:
    """Named segments and their offsets, derived from the board size."""

    def __init__(self, board, data):
        self.sizes = {
            "P": MAX_PLAYERS,
            "C": NUM_CARD_TYPES,
            "F": NUM_FACTIONS,
            "V": NUM_VALUES,
            "objectives": len(OBJECTIVES),
            "phases": PHASES,
            "decisions": len(DECISIONS),
            "slot": SLOT_FEATURES,
            "spaces": board.num_spaces,
            "slots": board.num_slots,
            "curia": data.curia_stacks,
            "context": max(data.curia_stacks, len(data.catacomb_prices), data.field_of_mars_spaces),
        }
        self.segments = []
        self.slices = {}
        offset = 0
        for name, dims, _ in SEGMENTS:
            shape = tuple(self.sizes.get(d, d) for d in dims)
            size = int(np.prod(shape))
            self.segments.append((name, offset, shape))
            self.slices[name] = slice(offset, offset + size)
            offset += size
        self.size = offset
        self.offsets = np.array([self.slices[name].start for name, _, _ in SEGMENTS], dtype=np.int64)

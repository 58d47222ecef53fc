"""The game state: a flat set of fixed-shape numpy arrays.

Copying and serialising are loops over :data:`FIELDS`, so a field can never be
forgotten. Every player-indexed array has ``MAX_PLAYERS`` rows; rows of absent seats
stay zero. Scalars live in ``meta`` under the names of :data:`META`.
"""
from __future__ import annotations

import numpy as np

from .data import MAX_PLAYERS as P, NUM_CARD_TYPES as C, NUM_FACTIONS as F, NUM_VALUES as V

META = ("round", "phase", "start_player", "turn", "coin_bowl_used", "colosseum", "chariot",
        "proconsul", "temp_favor", "draw_n", "n_tasks", "n_declared", "status", "challenger",
        "reshuffles")
M = {name: i for i, name in enumerate(META)}
STATUS_RUNNING, STATUS_TERMINATED, STATUS_TRUNCATED = 0, 1, 2

# per-player resources, columns of `res`
MONEY, LAURELS, LEGIONS, TILE, ETERNAL, MARKERS = range(6)
RESOURCES = ("money", "laurels", "legions", "tile", "eternal_favor", "markers")
NO_TILE, SCROLL, TRIBUNE = 0, 1, 2
MAX_TASKS = 128


def fields(num_spaces: int, num_slots: int, curia: int, mars: int, deck: int) -> dict:
    """Name -> (shape, dtype, fill) of every state array, for a board of this size."""
    return {
        "meta": ((len(META),), np.int64, 0),
        "tasks": ((MAX_TASKS, 4), np.int16, 0),
        "hand": ((P, C), np.int16, 0),
        "draw": ((deck,), np.int16, -1),
        "discard_public": ((C,), np.int16, 0),   # face-up discards, known to all
        "discard_hidden": ((C,), np.int16, 0),   # face-down discards, known to none
        "sets": ((F, V), np.int16, 0),           # the controller's displayed set, by value
        "controller": ((F,), np.int8, -1),
        "first_laurel": ((F,), np.int8, 1),
        "markers": ((P, F), np.int8, 0),
        "res": ((P, len(RESOURCES)), np.int32, 0),
        "followers": ((P,), np.int8, 0),         # followers still to place this round
        "coin_bowl": ((P,), np.int8, 0),
        "space_owner": ((num_spaces,), np.int8, -1),
        "field_owner": ((F, 2), np.int8, -1),
        "slot_card": ((num_slots,), np.int16, -1),
        "slot_up": ((num_slots,), np.int8, 0),
        "curia": ((curia, C), np.int16, 0),
        "catacombs": ((C,), np.int16, 0),
        "pantheon_seen": ((P,), np.int8, 0),
        "catacombs_seen": ((P,), np.int8, 0),
        "bids": ((P,), np.int32, 0),
        "committed": ((P,), np.int8, 0),
        "mars_pairs": ((mars, C), np.int16, 0),
        "build": ((C,), np.int16, 0),            # the card set under construction
        "challenger": ((V,), np.int16, 0),       # set played from space "2" of the contested faction
        "declared": ((P,), np.int8, -1),         # order of "Veni, vidi, vici", -1 if none
        "winner": ((P,), np.int8, 0),
    }


class State:
    """Arrays named by :func:`fields`, plus the seeded generator every random draw uses."""

    __slots__ = ("arrays", "rng")

    def __init__(self, arrays: dict, rng: np.random.Generator):
        self.arrays = arrays
        self.rng = rng

    @classmethod
    def empty(cls, spec: dict, rng: np.random.Generator) -> "State":
        return cls({name: np.full(shape, fill, dtype) for name, (shape, dtype, fill) in spec.items()}, rng)

    def clone(self) -> "State":
        rng = np.random.Generator(type(self.rng.bit_generator)())
        rng.bit_generator.state = self.rng.bit_generator.state
        return State({name: a.copy() for name, a in self.arrays.items()}, rng)

    def equals(self, other: "State") -> bool:
        return (self.arrays.keys() == other.arrays.keys()
                and all(np.array_equal(a, other.arrays[k]) for k, a in self.arrays.items())
                and self.rng.bit_generator.state == other.rng.bit_generator.state)

    def to_dict(self) -> dict:
        return {"arrays": {name: a.tolist() for name, a in self.arrays.items()},
                "rng": _jsonable(self.rng.bit_generator.state)}


def _jsonable(obj):
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.integer):
        return int(obj)
    return obj

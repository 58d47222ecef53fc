"""The game state: fixed-shape numpy arrays, all views of one flat int32 buffer.

Copying is one buffer copy and serialising a loop over the named arrays, so a field
can never be forgotten. Every player-indexed array has ``MAX_PLAYERS`` rows; rows of absent seats
stay zero. Scalars live in ``meta``, indexed by :class:`Meta`. :func:`fields` is the one
declaration of the buffer: the offsets, the saved format and the compiled views
(:mod:`tribune_env.kernel`) all derive from it.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from .data import MAX_PLAYERS as P
from .data import NUM_CARD_TYPES as C
from .data import NUM_FACTIONS as F
from .data import NUM_VALUES as V

META = (
    "round",
    "phase",
    "start_player",
    "coin_bowl_used",
    "colosseum",
    "chariot",
    "proconsul",
    "temp_favor",
    "draw_n",
    "n_tasks",
    "n_declared",
    "status",
    "challenger",
    "reshuffles",
)
Meta = IntEnum("Meta", {name.upper(): i for i, name in enumerate(META)})  # meta[Meta.ROUND], compiled or not


class Status(IntEnum):
    """``meta[Meta.STATUS]``: whether the game goes on, was won, or hit its round limit."""

    RUNNING = 0
    TERMINATED = 1
    TRUNCATED = 2


# per-player resources, columns of `res`
MONEY, LAURELS, LEGIONS, TILE, ETERNAL, MARKERS = range(6)
RESOURCES = ("money", "laurels", "legions", "tile", "eternal_favor", "markers")
NO_TILE, SCROLL, TRIBUNE = 0, 1, 2
MAX_TASKS = 128


def fields(num_spaces: int, num_slots: int, curia: int, catacomb_spaces: int, mars: int, deck: int) -> dict:
    """Name -> (shape, fill) of every state array, for a board of this size."""
    return {
        "meta": ((len(META),), 0),
        "tasks": ((MAX_TASKS, 4), 0),
        "hand": ((P, C), 0),
        "draw": ((deck,), -1),
        "discard_public": ((C,), 0),  # face-up discards, known to all
        "discard_hidden": ((C,), 0),  # face-down discards, known to none
        "sets": ((F, V), 0),  # the controller's displayed set, by value
        "controller": ((F,), -1),
        "first_laurel": ((F,), 1),
        "markers": ((P, F), 0),
        "res": ((P, len(RESOURCES)), 0),
        "followers": ((P,), 0),  # followers still to place this round
        "coin_bowl": ((P,), 0),
        "space_owner": ((num_spaces,), -1),
        "field_owner": ((F, 2), -1),
        "slot_card": ((num_slots,), -1),
        "slot_up": ((num_slots,), 0),
        "curia": ((curia, C), 0),
        "catacombs": ((C,), 0),
        "pantheon_seen": ((P,), 0),
        "catacombs_seen": ((P, C), 0),  # the pile as each player last examined it, less its own purchase
        "catacombs_bought": ((catacomb_spaces,), -1),  # the card bought at each Catacombs space, until the pile goes
        "known": ((P, C), 0),  # cards every player saw enter a hand face up and not yet seen leaving it
        "bids": ((P,), 0),
        "committed": ((P,), 0),
        "mars_pairs": ((mars, C), 0),
        "build": ((C,), 0),  # the card set under construction
        "challenger": ((V,), 0),  # set played from space "2" of the contested faction
        "declared": ((P,), -1),  # order of "Veni, vidi, vici", -1 if none
        "winner": ((P,), 0),
        "rng": ((4,), 0),  # xoshiro128** words of the game's generator
    }


FIELDS = tuple(fields(1, 1, 1, 1, 1, 1))  # the names, in buffer order


class Layout:
    """Offsets of each named array inside the one flat int32 buffer of a state."""

    def __init__(self, spec: dict):
        self.spec = spec
        self.offsets = {}
        offset = 0
        for name, (shape, _) in spec.items():
            size = int(np.prod(shape))
            self.offsets[name] = (offset, size, shape)
            offset += size
        self.size = offset
        self.initial = np.empty(offset, dtype=np.int32)
        for name, (_, fill) in spec.items():
            start, size, _ = self.offsets[name]
            self.initial[start : start + size] = fill


class State:
    """One flat int32 buffer viewed as named arrays (``state.hand``...), the game's generator included.

    A copy is one buffer copy, so no field can be forgotten; the observation is mostly a
    single gather from the buffer.
    """

    __slots__ = ("layout", "buffer", *FIELDS)

    def __init__(self, layout: Layout, buffer: np.ndarray):
        self.layout = layout
        self.buffer = buffer

    def __getattr__(self, name: str) -> np.ndarray:
        """A named view, made when first read: a copy made for a search (``Game.clone``) reads
        few of them, and making all of them cost more than copying the buffer."""
        if name not in FIELDS:
            raise AttributeError(f"a State has no array {name!r}")
        offset, size, shape = self.layout.offsets[name]
        view = self.buffer[offset : offset + size].reshape(shape)
        setattr(self, name, view)
        return view

    @property
    def arrays(self) -> dict:
        """Every named view, in buffer order."""
        return {name: getattr(self, name) for name in self.layout.offsets}

    @classmethod
    def empty(cls, layout: Layout) -> State:
        return cls(layout, layout.initial.copy())

    def clone(self) -> State:
        return State(self.layout, self.buffer.copy())

    def __reduce__(self):
        """Copies and pickles rebuild the named views on the copied buffer (a view copied on
        its own would no longer be one)."""
        return State, (self.layout, self.buffer)

    def equals(self, other: State) -> bool:
        return self.layout.offsets == other.layout.offsets and np.array_equal(self.buffer, other.buffer)

    def to_dict(self) -> dict:
        return {"arrays": {name: a.tolist() for name, a in self.arrays.items()}}

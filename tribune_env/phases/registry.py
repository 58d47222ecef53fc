"""Handler tables: one function per automatic task, a (mask, apply) pair per decision."""
import numpy as np

from ..data import NUM_CARD_TYPES, NUM_VALUES

AUTO = {}     # Task -> fn(game, a, b, c)
DECIDE = {}   # Task -> (mask(game, mask_array, a, b, c), apply(game, action, a, b, c))

CODES = np.arange(NUM_CARD_TYPES)
VALUE_OF = (CODES % NUM_VALUES).astype(np.int64)     # card code -> value
FACTION_OF = CODES // NUM_VALUES


def auto(kind):
    def register(fn):
        AUTO[int(kind)] = fn
        return fn
    return register


def decision(kind, mask):
    def register(fn):
        DECIDE[int(kind)] = (mask, fn)
        return fn
    return register


def faction_slice(f):
    return slice(f * NUM_VALUES, (f + 1) * NUM_VALUES)


def set_strength(values_counts):
    """(cards, sum of values) of a set given as counts by value."""
    return int(values_counts.sum()), int(values_counts @ VALUE_OF[:NUM_VALUES])


def beats(count, total, other):
    """A set beats another with more cards or a higher sum (rulebook, Phase 4)."""
    return count > other[0] or total > other[1]

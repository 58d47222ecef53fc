"""The saved game's format tag and version, and the loader's limits: how large a saved
game may be, and what amounts play can reach."""

from __future__ import annotations

from ..data import MAX_AMOUNT  # noqa: F401  (the bound below, kept with the game's numbers)
from ..errors import StateFormatError
from ..state import MAX_TASKS
from ..tasks import Task

FORMAT = "tribune-state"
FORMAT_VERSION = 2

# Text. A saved game with its log grows by about 3,000 characters a round (150,000 for a
# 50-round game), so even a game played to MAX_ROUND_LIMIT fits in MAX_TEXT. The format
# nests 4 deep (document / arrays / tasks / row). int32 needs 10 digits; literals up to
# MAX_DIGITS are parsed (instantly) so that the field's own check names the field, longer
# ones are refused before parsing (int() of 4,300+ digits fails, and takes quadratic time).
MAX_TEXT = 64 * 2**20
MAX_DEPTH = 8
MAX_DIGITS = 40
MAX_STRING = 10_000  # a log line or a victory card id (real ones are < 200)
MAX_ITEMS = 4 * MAX_TEXT // 10  # values in a document passed as Python data (a JSON value takes 2+ chars)

# Amounts. Play adds to money (with the Colosseum), laurels, legions, the Colosseum and the
# reshuffle count only a bounded amount a round: with the default numbers at most 174
# denarii, 17 laurels, 5 legions, 9 denarii to the Colosseum and 90 reshuffles
# (``consistency.task_gain``). ``check_growth`` accepts an amount only up to what the rounds played
# (and the part of this round already played) can have added to the start, and only game
# numbers with which a game played to its round limit stays within MAX_AMOUNT: with the
# default numbers 70 + 10,000 * 174 < 2 million denarii. So no state reachable from a
# loaded one holds more than MAX_AMOUNT = 10**8, a twentieth of 2**31 - 1: int32 sums of
# a few amounts cannot overflow and float32 observations stay finite. Real games come
# nowhere near it; victory thresholds are bounded by it too. The round limit is at most
# MAX_ROUND_LIMIT, for saved and new games alike (``Game(round_limit=...)``).
MAX_STACK = MAX_TASKS // 2  # a real game's task stack stays under 40 rows

ROOT = 0  # the parent of the setup tasks (not a task kind)
ANY = None  # in a task pattern: any value (its range is checked apart)

BUILDERS = (Task.SETUP_DISCARD, Task.CESURA_DISCARD, Task.MARS_PAIR, Task.TAKEOVER_SET)
BIDS = (Task.ATRIUM_BID, Task.CHARIOT_BID)
BASE_PHASE = {
    Task.ROUND_START: 0,
    Task.PHASE2: 1,
    Task.PLACE: 2,
    Task.PHASE3: 2,
    Task.PHASE4: 3,
    Task.PHASE5: 4,
    Task.PHASE6: 5,
    Task.ROUND_END: 6,
}  # bottom task -> phase


def fail(message: str):
    raise StateFormatError(message)

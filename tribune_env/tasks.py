"""Kinds of entry on the engine's task stack, and what their arguments mean.

The engine runs a stack of small tasks ``(kind, a, b, c)``. Automatic tasks change the
state and may push more tasks; a decision task waits for its player (always ``a``) to
act. ``ARGS`` names the arguments of each kind (compiled code reads them by position). A multi-card choice, a sealed bid or a cesura magna in the middle of a draw are
all just tasks on this stack, so any of them can interrupt any other.
"""

from enum import IntEnum


class Task(IntEnum):
    # automatic
    SETUP_FINISH = 1
    ROUND_START = 2
    DEAL = 3
    DEAL_CURIA = 4
    DEAL_CATACOMBS = 5
    PHASE2 = 6
    PHASE3 = 7
    THERMAE = 8
    FORUM = 9
    LATRINE = 10
    CURIA = 11
    ATRIUM = 12
    ATRIUM_RESOLVE = 13
    CATACOMBS = 14
    CATACOMBS_END = 15
    PANTHEON = 16
    PANTHEON_END = 17
    MARS = 18
    MARS_RESOLVE = 19
    PHASE4 = 20
    TAKEOVER = 21
    TAKEOVER_BENEFIT = 22
    MARKER_LAUREL = 23
    LEADER = 24
    PHASE5 = 25
    FACTION_BENEFIT = 26
    PHASE6 = 27
    CHARIOT_RESOLVE = 28
    ROUND_END = 29
    DRAW = 30
    CESURA_SETS = 31
    RETURN_FOLLOWERS = 32  # a region evaluated: its followers go back to their owners
    # decisions
    SETUP_DISCARD = 50
    CESURA_DISCARD = 51
    PLACE = 52
    ATRIUM_FLIP = 53
    LATRINE_CHOICE = 54
    CURIA_CHOICE = 55
    ATRIUM_BID = 56
    CATACOMBS_CHOICE = 57
    SACRIFICE = 58
    MARS_PAIR = 59
    TAKEOVER_SET = 60
    PENALTY = 61
    TIGELLINUS = 62
    ASSASSIN = 63
    AGRIPPA = 64
    CATO = 65
    BENEFIT_CHOICE = 66
    TEMP_FAVOR = 67
    BUY_LEGION = 68
    CHARIOT_BID = 69
    CHARIOT_PLACE = 70


FIRST_DECISION = Task.SETUP_DISCARD
DECISIONS = tuple(t for t in Task if t >= FIRST_DECISION)

# The names of (a, b, c) for each kind; a decision's ``a`` is always its player. "retry" marks
# a draw retried after a cesura magna; "role" is the faction field space, 2 or 1.
ARGS = (
    {kind: () for kind in Task}
    | {kind: ("player",) for kind in DECISIONS}
    | {
        Task.DEAL: ("slot", None, "retry"),
        Task.DEAL_CURIA: ("stack", None, "retry"),
        Task.DEAL_CATACOMBS: (None, None, "retry"),
        Task.DRAW: ("player", None, "retry"),
        Task.CURIA: ("stack",),
        Task.CATACOMBS: ("space",),
        Task.RETURN_FOLLOWERS: ("region",),
        Task.TAKEOVER: ("faction",),
        Task.TAKEOVER_BENEFIT: ("player", "faction"),
        Task.MARKER_LAUREL: ("player", "faction"),
        Task.LEADER: ("player", "faction"),
        Task.FACTION_BENEFIT: ("faction",),
        Task.CURIA_CHOICE: ("player", "stack"),
        Task.ATRIUM_BID: ("player", "digits_entered"),
        Task.CATACOMBS_CHOICE: ("player", "space"),
        Task.MARS_PAIR: ("player", "space"),
        Task.TAKEOVER_SET: ("player", "faction", "role"),
        Task.PENALTY: ("player", "faction"),
        Task.BENEFIT_CHOICE: ("player", "faction"),
        Task.CHARIOT_BID: ("player", "digits_entered"),
    }
)


def kinds_where(position: int, *names: str) -> tuple:
    """The decision kinds whose argument at `position` (0 a, 1 b, 2 c) is one of `names`; compiled code tests ``kind in`` them."""
    return tuple(kind for kind in DECISIONS if position < len(ARGS[kind]) and ARGS[kind][position] in names)


ON_FACTION = kinds_where(1, "faction")  # a take-over set, its penalty, a benefit: about faction b
ON_SPACE = kinds_where(1, "stack", "space")  # a Curia stack, a Catacombs or Mars space b
BIDS = kinds_where(1, "digits_entered")  # a sealed bid, b of its digits entered
WITH_ROLE = kinds_where(2, "role")  # a take-over set, from faction field space c


def named_args(kind, a: int, b: int, c: int) -> dict:
    """The arguments of task (kind, a, b, c) by name: {"player": 0, "faction": 3}."""
    return {name: value for name, value in zip(ARGS[Task(kind)], (a, b, c)) if name}

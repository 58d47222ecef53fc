"""Kinds of entry on the engine's task stack.

The engine runs a stack of small tasks ``(kind, a, b, c)``. Automatic tasks change the
state and may push more tasks; a decision task waits for its player (always ``a``) to
act. A multi-card choice, a sealed bid or a cesura magna in the middle of a draw are
all just tasks on this stack, so any of them can interrupt any other.
"""
from enum import IntEnum


class Task(IntEnum):
    # automatic
    SETUP_FINISH = 1
    ROUND_START = 2
    DEAL = 3              # (slot, -, retry)
    DEAL_CURIA = 4        # (stack, -, retry)
    DEAL_CATACOMBS = 5    # (-, -, retry)
    PHASE2 = 6
    PHASE3 = 7
    THERMAE = 8
    FORUM = 9
    LATRINE = 10
    CURIA = 11            # (stack)
    ATRIUM = 12
    ATRIUM_RESOLVE = 13
    CATACOMBS = 14        # (space index)
    CATACOMBS_END = 15
    PANTHEON = 16
    PANTHEON_END = 17
    MARS = 18
    MARS_RESOLVE = 19
    PHASE4 = 20
    TAKEOVER = 21         # (faction)
    TAKEOVER_BENEFIT = 22  # (player, faction)
    MARKER_LAUREL = 23    # (player, faction)
    LEADER = 24           # (player, faction)
    PHASE5 = 25
    FACTION_BENEFIT = 26  # (faction)
    PHASE6 = 27
    CHARIOT_RESOLVE = 28
    ROUND_END = 29
    DRAW = 30             # (player, -, retry)
    CESURA_SETS = 31
    # decisions: a is the acting player
    SETUP_DISCARD = 50
    CESURA_DISCARD = 51
    PLACE = 52
    ATRIUM_FLIP = 53
    LATRINE_CHOICE = 54
    CURIA_CHOICE = 55     # (player, stack)
    ATRIUM_BID = 56       # (player, digits entered)
    CATACOMBS_CHOICE = 57  # (player, space index)
    SACRIFICE = 58
    MARS_PAIR = 59        # (player, space index)
    TAKEOVER_SET = 60     # (player, faction, role: 2 or 1)
    PENALTY = 61          # (player, faction)
    TIGELLINUS = 62
    ASSASSIN = 63
    AGRIPPA = 64
    CATO = 65
    BENEFIT_CHOICE = 66   # (player, faction)
    TEMP_FAVOR = 67
    BUY_LEGION = 68
    CHARIOT_BID = 69      # (player, digits entered)
    CHARIOT_PLACE = 70


FIRST_DECISION = Task.SETUP_DISCARD
DECISIONS = tuple(t for t in Task if t >= FIRST_DECISION)

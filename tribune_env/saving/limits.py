"""The saved game's format tag and versions, and the limits checked on its text before it is parsed."""

from __future__ import annotations

from ..errors import StateFormatError

FORMAT = "tribune-record"
VERSION = 2  # what this engine writes: version 1 with outcome null for an unfinished game
READS = (1, 2)  # version 1 (the arena's records so far) is version 2 with every game finished

# A record grows by the text of its actions, 4 to 5 characters each: about 3,000 a round
# of 5 players, so a game played to MAX_ROUND_LIMIT fits in MAX_TEXT. The format nests 4
# deep (record / config / victory card / need). An action or a seed needs at most 19
# digits; literals up to MAX_DIGITS are parsed (instantly) so that the field's own check
# names the field, longer ones are refused before parsing (int() of 4,300+ digits fails,
# and takes quadratic time).
MAX_TEXT = 64 * 2**20
MAX_DEPTH = 8
MAX_DIGITS = 40
MAX_ITEMS = 4 * MAX_TEXT // 10  # values in a record passed as Python data (a JSON value takes 2+ chars)


def fail(message: str):
    raise StateFormatError(message)

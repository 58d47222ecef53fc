"""Exceptions the engine raises; each names the problem, and none leaves a game half-changed."""

import numpy as np


class TribuneError(Exception):
    """Base class of every error raised by tribune_env."""


class ConfigError(TribuneError, ValueError):
    """A wrong configuration: player count, victory card, custom deck or data."""


class IllegalActionError(TribuneError, ValueError):
    """An action that is out of range or not legal in the current decision."""


class AnswerError(IllegalActionError):
    """A text answer that names no legal move (:func:`tribune_env.text_seat.read_move`): the
    message says why, for whoever answered."""


class StateFormatError(TribuneError, ValueError):
    """A saved state that is malformed or inconsistent."""


def as_integer(value, what: str) -> int:
    """`value` as an int if it is one in any form an integer space accepts, else IllegalActionError.

    Python and numpy integers and 0-d integer arrays (what ``model.predict`` returns) are
    accepted; bools, floats, strings and arrays of other shapes are refused by name.
    """
    if isinstance(value, (bool, np.bool_)):
        raise IllegalActionError(f"{what} must be an integer, got the bool {value!r}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, np.ndarray) and value.shape == () and np.issubdtype(value.dtype, np.integer):
        return int(value)
    raise IllegalActionError(
        f"{what} must be an integer (an int, a numpy integer or a 0-d integer "
        f"array), got {type(value).__name__} {value!r:.80}"
    )


def brief(value) -> str:
    """A short description of a value from the file (never the value itself if large)."""
    if isinstance(value, (bool, float, np.floating)) or value is None:
        return repr(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value)) if abs(int(value)) < 10**12 else "a huge integer"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else f"a string of {len(value)} characters"
    return f"a {type(value).__name__}"


DISTRIBUTION = "tribune-rl"  # the package index's name for tribune (`tribune` there is another project)


def install_hint(extra: str) -> str:
    """How a wheel user installs an optional extra: what a message about a missing package ends with."""
    return f"the {extra} extra: pip install '{DISTRIBUTION}[{extra}]'"

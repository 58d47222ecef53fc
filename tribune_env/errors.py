"""Exceptions the engine raises; each names the problem, and none leaves a game half-changed."""


class TribuneError(Exception):
    """Base class of every error raised by tribune_env."""


class ConfigError(TribuneError, ValueError):
    """A wrong configuration: player count, victory card, custom deck or data."""


class IllegalActionError(TribuneError, ValueError):
    """An action that is out of range or not legal in the current decision."""


class StateFormatError(TribuneError, ValueError):
    """A saved state that is malformed or inconsistent."""

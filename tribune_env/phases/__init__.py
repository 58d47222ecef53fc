"""Phase handlers, registered by task kind. Importing the modules fills the tables."""
from . import chariot, factions, placement, regions, rounds  # noqa: F401  (registration)
from .registry import AUTO, DECIDE
from .rounds import setup, start_cesura

__all__ = ["AUTO", "DECIDE", "setup", "start_cesura"]

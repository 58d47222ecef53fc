"""The agents' compiled sources, and their decorators, caching in the agents' own directory.

The cache key covers these files and the engine's key, since the agents' compiled code
calls the engine's (see :mod:`tribune_env._compiler`).
"""

from pathlib import Path

from tribune_env._compiler import ENGINE_KEY, Compiler, source_key

SOURCES = ("compiled.py", "evaluation.py", "reading.py", "heuristic.py", "leaves.py", "sparse_input.py")
KEY = source_key(Path(__file__).resolve().parent, SOURCES, below=ENGINE_KEY)
_AGENTS = Compiler("agents", KEY)
compiled, entry = _AGENTS.compiled, _AGENTS.entry

__all__ = ["KEY", "SOURCES", "compiled", "entry"]

"""Numba options, and a compile cache that can never serve stale machine code.

Numba keys its cache on each function's own source file, not on the constants it
imports (state layout, task kinds, parameter indices) or the compiled functions it calls
in other modules, so editing one module could leave stale code in use. Each compiled
package therefore caches in a directory of its own, named by a hash of its compiled
sources and of the keys of the compiled packages it calls: the engine's own files here,
the agents' files and the engine's key in :mod:`agents.compiled` (the heuristic runs on
the engine's state inside a search's rollouts). Any change there compiles afresh, and a
change to an agent leaves the engine's cache as it is.

Numba reads ``numba.config.CACHE_DIR`` when a function is decorated (its cache locator
is made then), so the engine's directory is set here for the engine's modules, and
:func:`compiler` decorates another package's functions with its own.

Bounds checking is on, so that no state, however it was made, lets compiled code read
or write outside its arrays: an index out of range raises ``IndexError``. It costs the
engine about 7% of its speed (``benchmarks/engine_speed.py``, 70,400 against 65,500
decisions a second).
"""

import hashlib
import os
from pathlib import Path

import numba

JIT = dict(cache=True, nogil=True, boundscheck=True)  # an index outside its array raises, whatever a state holds
ENGINE_SOURCES = ("jit.py", "kernel.py", "data.py", "state.py", "actions.py", "observation.py", "tasks.py", "core/*.py")


def source_key(root: Path, patterns, below: str = "") -> str:
    """A hash of numba's version, `below` (the keys of the packages called) and the files of `patterns` in `root`."""
    digest = hashlib.sha1(numba.__version__.encode())
    digest.update(below.encode())
    for path in sorted(p for pattern in patterns for p in root.glob(pattern)):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir(package: str, key: str) -> str:
    """Where `package` compiled from the sources of `key` caches: under $NUMBA_CACHE_DIR or ~/.cache/tribune."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tribune"
    )
    return os.path.join(base, f"{package}-{key}")


def compiler(package: str, key: str):
    """Numba's ``njit(**options)`` for another compiled package, caching in that package's own directory."""
    directory = cache_dir(package, key)

    def njit(**options):
        def decorate(function):
            engine, numba.config.CACHE_DIR = numba.config.CACHE_DIR, directory
            try:
                return numba.njit(**options)(function)
            finally:
                numba.config.CACHE_DIR = engine

        return decorate

    return njit


ENGINE_KEY = source_key(Path(__file__).resolve().parent, ENGINE_SOURCES)
numba.config.CACHE_DIR = cache_dir("engine", ENGINE_KEY)

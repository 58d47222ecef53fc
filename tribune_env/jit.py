"""Numba options, and a compile cache that can never serve stale machine code.

Numba keys its cache on each function's own source file, not on the constants it
imports (state layout, task kinds, parameter indices) or the compiled functions it calls
in other modules, so editing one module could leave stale code in use. The cache
therefore lives in a directory named by a hash of every compiled source: the engine's
and the heuristic agent's (which runs on the engine's state inside a search's
rollouts). Any change there compiles afresh.

Bounds checking is on, so that no state, however it was made, lets compiled code read
or write outside its arrays: an index out of range raises ``IndexError``. It costs the
engine about 7% of its speed (``benchmarks/engine_speed.py``, 70,400 against 65,500
decisions a second).
"""
import hashlib
import os
from pathlib import Path

import numba

ROOT = Path(__file__).resolve().parent.parent      # the packages tribune_env and agents sit side by side
COMPILED_FROM = ("tribune_env/jit.py", "tribune_env/kernel.py", "tribune_env/data.py", "tribune_env/state.py",
                 "tribune_env/actions.py", "tribune_env/observation.py",
                 "tribune_env/tasks.py", "tribune_env/core/*.py", "agents/evaluation.py", "agents/reading.py",
                 "agents/heuristic.py")


def _source_hash() -> str:
    digest = hashlib.sha1(numba.__version__.encode())
    for path in sorted(p for pattern in COMPILED_FROM for p in ROOT.glob(pattern)):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_dir() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tribune")
    return os.path.join(base, _source_hash())


numba.config.CACHE_DIR = _cache_dir()
JIT = dict(cache=True, nogil=True, boundscheck=True)   # an index outside its array raises, whatever a state holds

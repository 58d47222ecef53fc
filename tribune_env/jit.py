"""Numba options, and a compile cache that can never serve stale machine code.

Numba keys its cache on each function's own source file, not on the constants it
imports (state layout, task kinds, parameter indices), so editing one module could
leave stale code in use. The cache therefore lives in a directory named by a hash of
every source the compiled code depends on: any change there compiles afresh.
"""
import hashlib
import os
from pathlib import Path

import numba

PACKAGE = Path(__file__).resolve().parent
COMPILED_FROM = ("jit.py", "kernel.py", "data.py", "state.py", "tasks.py", "core/*.py")


def _source_hash() -> str:
    digest = hashlib.sha1(numba.__version__.encode())
    for path in sorted(p for pattern in COMPILED_FROM for p in PACKAGE.glob(pattern)):
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_dir() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tribune")
    return os.path.join(base, _source_hash())


numba.config.CACHE_DIR = _cache_dir()
JIT = dict(cache=True, nogil=True)

"""Networks loaded once per file and shared by every agent that plays it.

An agent only reads its network, so five seats of a match, or sixty matches of a server,
playing the same file need one copy. A copy is kept while some agent holds it, and loaded
again if the file changes.
"""

from __future__ import annotations

import threading
import weakref
from pathlib import Path

_loaded: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_lock = threading.Lock()


def resolved(path) -> Path | None:
    """The file `path` names, its links followed; None if it names none (a symlink loop, a name
    too long, not a path), for its loader to say what is wrong."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError, TypeError, ValueError):  # RuntimeError: a symlink loop
        return None


def shared(load, path):
    """``load(path)``, or what an earlier call loaded from the same file, unchanged since."""
    file = resolved(path)
    try:
        stat = file.stat() if file is not None else None
    except (OSError, ValueError):
        stat = None
    if stat is None:
        return load(path)  # the loader names what is wrong with the path
    key = (load, str(file), stat.st_mtime_ns, stat.st_size)
    with _lock:
        found = _loaded.get(key)
        if found is None:
            found = load(path)
            _loaded[key] = found
        return found

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


def shared(load, path):
    """``load(path)``, or what an earlier call loaded from the same file, unchanged since."""
    try:
        file = Path(path).resolve()
        stat = file.stat()
    except (OSError, TypeError, ValueError):
        return load(path)  # the loader names what is wrong with the path
    key = (load, str(file), stat.st_mtime_ns, stat.st_size)
    with _lock:
        found = _loaded.get(key)
        if found is None:
            found = load(path)
            _loaded[key] = found
        return found

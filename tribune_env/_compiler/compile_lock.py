"""One process at a time compiles a package's cache; the others wait, then load what it wrote.

Processes started together on an empty cache (the shards of a training run, a ``SubprocVecEnv``'s
workers, the test workers) would each compile the whole engine, every one of them for as long as
one alone and in as much memory. Each compile or cache load of a compiled function holds an
exclusive ``flock`` on ``.compiling`` in its package's cache directory, so the first process
compiles and the others, once it is done, find the cache full. The lock is taken inside numba's
own compiler lock, so the threads of a process never wait on each other here, and a compile that
nests another package's (the heuristic's, which calls the engine) takes the locks downward only.
The operating system frees the lock of a process that dies. Where ``flock`` is missing (Windows)
or the directory cannot be written, each process compiles alone as before.
"""

import os

from ..console import say

try:
    import fcntl
except ImportError:  # not POSIX
    fcntl = None

_HELD: dict[str, tuple[int, int]] = {}  # directory -> (file descriptor, depth) in this process
_WAITED: set[str] = set()  # the directories this process has said it waits for (once each)


class CompileLock:
    """The lock of the cache directory `directory`, re-entrant within a process (hold numba's compiler lock)."""

    def __init__(self, directory: str):
        self.directory = directory

    def __enter__(self):
        fd, depth = _HELD.get(self.directory, (-1, 0))
        if depth == 0:
            fd = _acquire(self.directory)
        _HELD[self.directory] = (fd, depth + 1)
        return self

    def __exit__(self, *exc):
        fd, depth = _HELD.pop(self.directory)
        if depth > 1:
            _HELD[self.directory] = (fd, depth - 1)
        elif fd >= 0:
            os.close(fd)  # closing the last descriptor releases the flock


def _acquire(directory: str) -> int:
    """An open descriptor of `directory`'s lock file, locked; -1 where no lock can be had."""
    if fcntl is None:
        return -1
    try:
        os.makedirs(directory, exist_ok=True)
        fd = os.open(os.path.join(directory, ".compiling"), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return -1
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        if directory not in _WAITED:
            _WAITED.add(directory)
            say(f"tribune: waiting for another process compiling into {directory}")
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:  # a file system without locks
        os.close(fd)
        return -1
    return fd

"""The HTTP server of ``tribune serve``: uvicorn, kept answering while clients hold connections open and send nothing.

uvicorn waits for a request without a time limit and accepts connections until the process
runs out of file descriptors, after which every failed accept logs a traceback. So here the
open-files limit is raised to the hard limit, a connection that has not sent a whole request
(head and body) within :data:`REQUEST_TIMEOUT` seconds is closed, beyond the connection limit
the connection waiting longest for its client is closed to make room for a new one, and log
lines of one kind are let through at most once every :data:`LOG_EVERY` seconds.
"""

from __future__ import annotations

import logging
import resource
import threading
import time
from contextlib import contextmanager
from functools import partial

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_CONNECTIONS = 512  # a page opens a few; the rest of the descriptors stay for files and agents
# connections accepted in one go (asyncio accepts up to the listen backlog before any is
# handled): the limit plus these must stay under the descriptors the process may open
ACCEPT_BATCH = 128
REQUEST_TIMEOUT = 30.0  # seconds a connection may take to send a whole request, once it began or connected
RECEIVING = (h11.IDLE, h11.SEND_BODY)  # the client's states while its request is not all there
LOG_EVERY = 10.0  # seconds between two log lines of one kind
LOGGERS = ("asyncio", "uvicorn.error", "training.web")  # whose lines are throttled
log = logging.getLogger("training.web")


def raise_open_files_limit() -> int:
    """Raise the soft limit of open files to the hard one (often 1,024 against 4,096 or 524,288); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            return hard
        except (ValueError, OSError):
            pass
    return soft


def connection_limit(open_files: int) -> int:
    """Connections held at once: half the descriptors the process may open, less an accepting
    batch, at most MAX_CONNECTIONS."""
    return max(1, min(MAX_CONNECTIONS, open_files // 2 - ACCEPT_BATCH))


class GuardedProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 connection, closed if its client sends no whole request within
    `timeout` seconds, or when it is the one waiting longest for its client and there are more
    than `limit` connections. A request being answered is never cut short."""

    def __init__(self, *args, limit: int, timeout: float, **kwargs):
        super().__init__(*args, **kwargs)
        self.limit, self.timeout = limit, timeout
        self.timer = None
        self.waiting_since = 0.0

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._time_request()
        self._make_room()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._time_request()

    def connection_lost(self, exc) -> None:
        if self.timer is not None:
            self.timer.cancel()
        super().connection_lost(exc)

    def receiving(self) -> bool:
        """Whether the connection is open and waits for its client: between requests, or in the middle of one."""
        return self.conn.their_state in RECEIVING and not self.transport.is_closing()

    def _time_request(self) -> None:
        """Start the clock when a request is awaited, stop it once the whole request came."""
        if self.conn.their_state in RECEIVING:
            if self.timer is None:
                self.waiting_since = self.loop.time()
                self.timer = self.loop.call_later(self.timeout, self._too_late)
        elif self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _too_late(self) -> None:
        self.timer = None
        if self.receiving():
            log.warning("closed connections that sent no whole request within %s s", self.timeout)
            self.transport.close()

    def _make_room(self) -> None:
        """Over the limit, close the connection waiting longest for its client (this one if no other waits)."""
        open_ = [c for c in self.connections if not c.transport.is_closing()]
        if len(open_) > self.limit:
            oldest = min((c for c in open_ if c.receiving()), key=lambda c: c.waiting_since, default=self)
            log.warning("over %d connections: closed those waiting longest for a request", self.limit)
            oldest.transport.close()


def make_server(app, limit: int, timeout: float = REQUEST_TIMEOUT) -> uvicorn.Server:
    """A uvicorn server of `app` holding at most `limit` connections; its lines go to the process's logging."""
    protocol = partial(GuardedProtocol, limit=limit, timeout=timeout)
    config = uvicorn.Config(app, http=protocol, backlog=ACCEPT_BATCH, log_config=None, log_level="warning")
    return uvicorn.Server(config)


class Throttle(logging.Filter):
    """Let a log line through at most once every `every` seconds for each message (the text
    before its arguments), telling how many were held back since."""

    def __init__(self, every: float = LOG_EVERY):
        super().__init__()
        self.every = every
        self._seen: dict[tuple, tuple[float, int]] = {}  # (logger, message) -> (last let through, held back)
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key, now = (record.name, str(record.msg)), time.monotonic()
        with self._lock:
            last, held = self._seen.get(key, (-self.every, 0))
            if now - last < self.every:
                self._seen[key] = (last, held + 1)
                return False
            if len(self._seen) > 1000:  # messages that differ each time: forget the old ones
                self._seen.clear()
            self._seen[key] = (now, 0)
        if held:
            record.msg = f"{record.msg} ({held} more like this in the last {now - last:.0f} s)"
        return True


@contextmanager
def throttled_logs(every: float = LOG_EVERY):
    """The server's loggers (asyncio's, uvicorn's, the app's) throttled by one :class:`Throttle` while inside."""
    throttle = Throttle(every)
    loggers = [logging.getLogger(name) for name in LOGGERS]
    for logger in loggers:
        logger.addFilter(throttle)
    try:
        yield throttle
    finally:
        for logger in loggers:
            logger.removeFilter(throttle)

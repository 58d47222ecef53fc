"""Progress bars that speak wherever the output goes.

On a terminal a bar is redrawn twice a second. Into a file or a pipe (a log) it writes a
plain line every 30 seconds, so a long run written to a file says how far it is. Into a
buffer with no file behind it (click's test runner, a notebook's capture) it stays silent.
"""

from __future__ import annotations

import re
import sys

from tribune_env.console import speaks

LOG_INTERVAL = 30.0  # seconds between a log's progress lines
CURSOR = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # how tqdm moves between nested bars on a terminal


def progress(iterable=None, *, show: bool = True, **options):
    """A tqdm bar over `iterable` (or updated by hand) on standard error, as the module says."""
    from tqdm import tqdm

    stream = sys.stderr
    heard = speaks(stream)
    tty = heard and stream.isatty()
    return tqdm(
        iterable,
        file=stream if tty else _Lines(stream),
        disable=not (show and heard),
        mininterval=0.5 if tty else LOG_INTERVAL,
        maxinterval=10 if tty else LOG_INTERVAL,  # tqdm's monitor redraws a quiet bar this often
        ascii=not tty,
        dynamic_ncols=tty,
        **options,
    )


class _Lines:
    """A log's side of a bar: each redraw as a line of its own, without carriage returns or the
    cursor moves of nested bars."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> None:
        line = CURSOR.sub("", text.replace("\r", "")).rstrip()
        if line:
            self.stream.write(line + "\n")

    def flush(self) -> None:
        self.stream.flush()

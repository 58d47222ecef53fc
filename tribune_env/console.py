"""Messages to a person at the console: said on a terminal or into a log file, never into a
buffer with no file behind it (click's test runner, a notebook's capture), where they would
be mixed into what a program reads."""

from __future__ import annotations

import sys


def speaks(stream) -> bool:
    """Whether `stream` is a terminal, a file or a pipe (it has a file descriptor)."""
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


def say(text: str) -> None:
    """`text` as a line on standard error, where it speaks."""
    if speaks(sys.stderr):
        print(text, file=sys.stderr, flush=True)

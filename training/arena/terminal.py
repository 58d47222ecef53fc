"""Text from files (records, configs, error messages quoting them) made safe to print to a terminal."""

from __future__ import annotations


def printable(text: str) -> str:
    """`text` with every character that is not printable written as a Python repr writes it.

    Control characters (C0, C1, DEL) and line breaks could forge lines, clear the screen or
    set the window's title; bidirectional overrides and isolates (U+202A-202E,
    U+2066-2069) could reorder what follows; a lone surrogate cannot be encoded at all. So
    each is shown as its escape (``\\x1b``, ``\\n``, ``\\u202e``, ``\\ud800``). Backslashes are
    kept as they are, so text already escaped (a repr in a message) is shown unchanged.
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)

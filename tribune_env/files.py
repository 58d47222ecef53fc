"""Files that may come from anyone, read safely; output paths checked before the work.

A record, a config or a run's state is read with its size and encoding checked, and its
nesting counted, before it is parsed: a bad file is an error naming the problem, never a
``RecursionError``, a ``UnicodeDecodeError`` or a machine out of memory. An output path
is tried before a long job starts, so the job does not fail at its end and lose its work.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import numpy as np

from .errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from PyPI
    import tomli as tomllib

MAX_DEPTH = 32  # arrays and tables within each other; the project's files use at most 4

# What may hide brackets from the count: strings (and TOML's comments). Each pattern matches
# from its opening quote whether or not the string is closed (a parser stops there anyway),
# so the scan never starts again inside a string: it takes linear time on any text.
JSON_STRINGS = re.compile(r'"[^"\\]*(?:\\[\s\S]?[^"\\]*)*"?')
TOML_STRINGS = re.compile(
    r'"""(?:[^"\\]|\\[\s\S]?|"(?!""))*(?:"""|\Z)'  # multi-line basic
    r"|'''[\s\S]*?(?:'''|\Z)"  # multi-line literal
    r'|"[^"\\\n]*(?:\\[^\n]?[^"\\\n]*)*"?'  # basic
    r"|'[^'\n]*'?|#[^\n]*"
)  # literal, comment
OPENING = np.frombuffer(b"[{", np.uint8)


def check_size(size: int, limit: int, where: str, error=ConfigError) -> None:
    if size > limit:
        raise error(f"{where} is larger than {limit / 2**20:g} MB")


def decode(data: bytes, where: str, error=ConfigError) -> str:
    """UTF-8 text, or `error` naming the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{where} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def read_text(path, limit: int, error=ConfigError) -> str:
    """A whole file as UTF-8 text, at most `limit` bytes read (a device or a huge file is refused)."""
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    check_size(len(data), limit, str(path), error)
    return decode(data, str(path), error)


def depth(text: str, strings: re.Pattern) -> int:
    """How deeply arrays and tables nest in `text`, counted outside its strings and comments."""
    return bracket_depth(re.sub(r"[^\[\]{}]", "", strings.sub("", text)))


def bracket_depth(brackets: str) -> int:
    """How deeply the brackets of a string of brackets nest, counted without recursion.

    Counted up to the first bracket closed too many, where a parser stops with an error,
    a megabyte at a time so that a huge file needs no huge array.
    """
    level = deepest = 0
    for start in range(0, len(brackets), 2**20):
        chunk = np.frombuffer(brackets[start : start + 2**20].encode("ascii"), np.uint8)
        levels = level + np.cumsum(np.where(np.isin(chunk, OPENING), 1, -1))
        unbalanced = np.flatnonzero(levels < 0)
        if len(unbalanced):
            return max(deepest, int(levels[: unbalanced[0]].max(initial=0)))
        deepest, level = max(deepest, int(levels.max(initial=0))), int(levels[-1])
    return deepest


def check_depth(text: str, strings: re.Pattern, where: str, error) -> None:
    if depth(text, strings) > MAX_DEPTH:
        raise error(f"{where}: nested more than {MAX_DEPTH} levels deep")


def parse_json(text: str, where: str, error=ConfigError):
    """JSON, its nesting checked first; `error` names what is wrong."""
    check_depth(text, JSON_STRINGS, where, error)
    try:
        return json.loads(text)
    except ValueError as exc:  # JSONDecodeError, or an integer of too many digits
        raise error(f"{where}: not JSON ({exc})") from None


def parse_toml(text: str, where: str, error=ConfigError) -> dict:
    """TOML, its nesting checked first; `error` names what is wrong."""
    check_depth(text, TOML_STRINGS, where, error)
    try:
        return tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an integer of too many digits
        raise error(f"{where} is not valid TOML: {exc}") from None


def read_json(path, limit: int, error=ConfigError):
    return parse_json(read_text(path, limit, error), str(path), error)


def read_toml(path, limit: int, error=ConfigError) -> dict:
    return parse_toml(read_text(path, limit, error), str(path), error)


def check_output(path, directory: bool = False) -> None:
    """ConfigError now if `path` (a file, or a directory when `directory`) cannot be written.

    Nothing is left behind: an existing file is opened for appending and given zero bytes
    (which a full device refuses), a new one is tried as a temporary file in the nearest
    existing directory (missing directories are made by the writers).
    """
    path = Path(path)
    try:
        if path.exists() and not directory:
            _try_file(path)
        else:
            folder = path if directory else path.parent
            existing = next(p for p in (folder, *folder.parents) if p.exists())
            if not existing.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, f"{existing} is not a directory")
            with tempfile.TemporaryFile(dir=existing):
                pass
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc}") from None


def _try_file(path: Path) -> None:
    """Open an existing file for appending and write nothing (non-blocking: a pipe with no reader fails)."""
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "it is a directory")
    handle = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
    try:
        os.write(handle, b"")
    finally:
        os.close(handle)

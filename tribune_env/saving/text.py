"""The text of a saved game, checked before ``json.loads`` sees it: its size, nesting and numbers."""

from __future__ import annotations

import json
import re

from ..files import JSON_STRINGS, bracket_depth
from .limits import MAX_DEPTH, MAX_DIGITS, MAX_ITEMS, MAX_TEXT, fail

_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def parse(text) -> object:
    """JSON text (str or bytes) to plain data, checking its size and shape before json.loads."""
    if isinstance(text, (bytes, bytearray)):
        check_text_length(len(text))
        try:
            text = bytes(text).decode(json.detect_encoding(text), "surrogatepass")
        except (UnicodeDecodeError, LookupError):
            fail("saved game is not valid JSON: not UTF-8/16/32 text")
    check_text_length(len(text))
    bare = JSON_STRINGS.sub('""', text)
    if bracket_depth(_NOT_BRACKET.sub("", bare)) > MAX_DEPTH:
        fail(f"saved game nests arrays or objects more than {MAX_DEPTH} deep")
    check_number_literals(bare)
    constants = []
    try:
        doc = json.loads(text, object_pairs_hook=_object_without_duplicates, parse_constant=_Constant.noting(constants))
    except json.JSONDecodeError as exc:
        fail(f"saved game is not valid JSON: {exc.msg} at character {exc.pos}")
    if constants:
        fail(f"saved game holds {constants[0]} at {path_of(doc, constants[0])}, which is not a JSON number")
    return doc


def check_text_length(length: int):
    """Longer than any real save: refuse before spending time or memory on it."""
    if length > MAX_TEXT:
        fail(f"saved game is {length} characters long, more than the limit of {MAX_TEXT}")


def check_number_literals(bare: str):
    """No number literal longer than an int32 needs (a 5,000-digit one makes int() fail)."""
    if _LONG_NUMBER.search(bare):
        fail(f"saved game holds a number literal of more than {MAX_DIGITS} digits")


def _object_without_duplicates(pairs):
    """A JSON object; a key given twice would make the file say two things."""
    d = dict(pairs)
    if len(d) != len(pairs):
        seen = set()
        repeated = next(key for key, _ in pairs if key in seen or seen.add(key))
        fail(f"saved game repeats the key {repeated[:100]!r} in an object")
    return d


class _Constant(str):
    """NaN or Infinity where JSON has only numbers: kept as a marker, to be found and named by its place."""

    @classmethod
    def noting(cls, found: list):
        def constant(name):
            found.append(cls(name))
            return found[-1]

        return constant


def path_of(doc, target) -> str:
    """Where `target` (the object itself) sits in `doc`, as ``key.key[index]``; walked with a list."""
    todo = [(doc, "the top")]
    while todo:
        value, path = todo.pop()
        if value is target:
            return path
        if isinstance(value, dict):
            todo += [(v, f"{path}.{k}" if path != "the top" else k) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return "an unknown place"


def check_plain_data(doc):
    """Containers at most MAX_DEPTH deep and MAX_ITEMS values in all (a document passed as data).

    Walked with a list, not recursion; what each value must be is checked field by field.
    """
    todo, items = ([(doc, 1)] if isinstance(doc, (dict, list, tuple)) else []), 0
    while todo:
        value, depth = todo.pop()
        if depth > MAX_DEPTH:
            fail(f"saved game nests arrays or objects more than {MAX_DEPTH} deep")
        children = value.values() if isinstance(value, dict) else value
        items += len(children)
        if items > MAX_ITEMS:
            fail(f"saved game holds more than {MAX_ITEMS} values")
        todo.extend((v, depth + 1) for v in children if isinstance(v, (dict, list, tuple)))


def as_text(doc) -> str:
    """A saved game passed as Python data, written as the JSON it stands for, to be read as a file is."""
    check_plain_data(doc)
    try:
        return json.dumps(doc, allow_nan=False)
    except (TypeError, ValueError) as exc:  # an object JSON has no form for, NaN, a cycle
        fail(f"saved game is not plain JSON data: {exc}")

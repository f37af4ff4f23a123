"""Reading an archive's file into JSON values, or one line saying why it cannot be one.

Before any check of what the archive says, the file itself must be something the import
can walk without harm: at most `MAX_BYTES` long, JSON (no NaN or Infinity, no number too
large to hold), an object at the top, nested at most `MAX_DEPTH` deep (a file nested
200,000 deep would crash any recursive reader), and no text that PostgreSQL cannot
store (a NUL character, half of a surrogate pair). Each refusal is one `ArchiveError`
line, the value's place in the file when it has one; nothing has been written.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any

from archive.fields import ArchiveError, json_type, shown

# The largest file read: well above a big night's archive (3,000 teams, every donne and
# revision: some 150 MB), well below what would exhaust the server's memory.
MAX_BYTES = 256 * 2**20
# How deep values may nest: an archive's deepest (a revision's hand) sits some 10 levels down.
MAX_DEPTH = 32
TOO_DEEP = f"values nested more than {MAX_DEPTH} deep, where an archive's go about 10: not an Atout archive"
# What PostgreSQL cannot store in a text: NUL, and half of a UTF-16 surrogate pair.
_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")
# The JSON escapes that would make one (a surrogate escape may be half of a valid pair).
_UNSTORABLE_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")
_UNSTORABLE_ESCAPE_BYTES = re.compile(rb"\\u(?:0000|[dD][89a-fA-F])")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")


def _constant(name: str) -> Any:
    raise ArchiveError(f"the file holds {name}, which is no number JSON allows: not an Atout archive")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ArchiveError(f"the file holds the number {shown(text)}, too large to store: not an Atout archive")
    return number


def _parse(text: str | bytes) -> Any:
    """The file's JSON value, or one line saying why it is none (nothing written yet)."""
    if len(text) > MAX_BYTES:
        raise ArchiveError(
            f"the file is {len(text) / 2**20:.0f} MB, more than the {MAX_BYTES // 2**20} MB an archive may be: "
            "not an Atout archive"
        )
    try:
        return json.loads(text, parse_constant=_constant, parse_float=_finite)
    except ArchiveError:
        raise
    except UnicodeDecodeError:
        raise ArchiveError("the file is not UTF-8 text: not an Atout archive") from None
    except json.JSONDecodeError as exc:
        raise ArchiveError(
            f"the file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "it may be truncated or damaged"
        ) from None
    except RecursionError:
        raise ArchiveError(f"{_too_deep_at(text)}: {TOO_DEEP}") from None
    except ValueError as exc:
        # A number of thousands of digits (Python's int conversion limit), and the like.
        raise ArchiveError(f"the file holds a value that cannot be read ({exc}): not an Atout archive") from None


# A JSON string (skipped whole) or a bracket, for finding where a file nests too deep.
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep_at(text: str | bytes) -> str:
    """Where `text` first nests deeper than MAX_DEPTH, as "line L, column C" (a file too
    deep for the JSON reader itself, whose values cannot be named by their keys)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        bracket = match.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                column = match.start() - text.rfind("\n", 0, match.start())
                return f"line {line}, column {column}"
        elif bracket in ("]", "}"):
            depth -= 1
    return "the file"


def _nests_too_deep(value: Any) -> bool:
    """Does `value` nest deeper than MAX_DEPTH? (Containers only: the quick look.)"""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        for child in item.values() if type(item) is dict else item:
            if type(child) is dict or type(child) is list:
                if depth + 1 >= MAX_DEPTH:
                    return True
                stack.append((child, depth + 1))
    return False


def _may_hold_unstorable(text: str | bytes) -> bool:
    """Could the parsed file hold a NUL or half a surrogate pair? Only through escapes
    (\\u0000, \\ud800...) in a file read as bytes; a string may hold them as they are."""
    if isinstance(text, bytes):
        return _UNSTORABLE_ESCAPE_BYTES.search(text) is not None
    return _UNSTORABLE_ESCAPE.search(text) is not None or _UNSTORABLE.search(text) is not None


def _check_values(value: Any, text: str | bytes) -> None:
    """Refuse what no field can hold, before anything walks the value recursively: values
    nested deeper than an archive's, text with a NUL character or half a surrogate pair
    (neither can be stored in PostgreSQL), named by their place.

    A quick look first (a big night's archive holds millions of values); the walk that
    names the place only when it found something.
    """
    if not _nests_too_deep(value) and not _may_hold_unstorable(text):
        return
    stack: list[tuple[Any, int, tuple[Any, ...]]] = [(value, 0, ())]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, dict):
            children: Iterable[tuple[Any, Any]] = item.items()
        elif isinstance(item, list):
            children = enumerate(item)
        else:
            continue
        if depth >= MAX_DEPTH:
            raise ArchiveError(f"{_path(path)}: {TOO_DEEP}")
        for key, child in children:
            where = (path, key)
            for text_value in (key, child) if isinstance(key, str) else (child,):
                if isinstance(text_value, str) and _UNSTORABLE.search(text_value):
                    raise ArchiveError(f"{_path(where)}: text with a NUL character or a broken surrogate pair")
            if isinstance(child, dict | list):
                stack.append((child, depth + 1, where))


def _path(chain: tuple[Any, ...]) -> str:
    """A place in the file, from the (parent, key) chain the walk keeps: content.rounds[0].tables[2]."""
    keys: list[Any] = []
    while chain:
        chain, key = chain
        keys.append(key)
    text = "archive"
    for key in reversed(keys):
        text += f"[{key}]" if isinstance(key, int) else f".{shown(key, 40) if not _NAME.match(key) else key}"
    return text.removeprefix("archive.")


def parse(text: str | bytes) -> dict[str, Any]:
    """The archive's top-level object, every value in it checked as the module says."""
    parsed = _parse(text)
    if not isinstance(parsed, dict):
        raise ArchiveError(f"not an Atout tournament archive: the file holds {json_type(parsed)}, not an object")
    _check_values(parsed, text)
    return parsed

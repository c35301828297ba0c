"""One strict validation layer for everything that comes from outside: config and tag files,
`rules` action lines, `script` event lines.

Hand-written rather than a schema library (pydantic, msgspec): it adds no import time or memory
on the Pi Zero 2 W, it lets the config report every fault at once, and each rule below is one
line. Rules: text must be UTF-8; JSON is bounded in size and nesting and has no NaN/Infinity; a
bool or a float is never an integer (no seat 0.9, true or "0"); every number has bounds; every
problem is one message naming the file, the line or key, and what is wrong.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

MAX_LINE = 64 * 1024  # bytes in one JSON line (an action, a script event)
MAX_FILE = 4 * 1024 * 1024  # bytes in a config or tag file
MAX_DEPTH = 12  # nesting of JSON arrays and objects
MAX_STREAM = 64 * 1024 * 1024  # bytes read from a stream of lines (a whole script, a file of actions)
MAX_SKIP = 1024 * 1024  # bytes of a line too long skipped in search of its end (then: not text)


class InputError(ValueError):
    """A refused input: `where` names the file, line or key."""

    def __init__(self, where: str, problem: str):
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}" if where else problem)


# -- text -----------------------------------------------------------------------------------------
def utf8(data: bytes, where: str) -> str:
    """Decode UTF-8, naming the line and byte of the first bad sequence."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise InputError(where, f"not UTF-8 text (line {line}, byte {exc.start}: "
                                f"{data[exc.start:exc.start + 1].hex()})") from None


def read_file(path: str, what: str, limit: int = MAX_FILE) -> str:
    """A whole text file, UTF-8, at most `limit` bytes; OSError is left to the caller.

    Only a regular file: a FIFO would wait for a writer, a device (/dev/zero) never ends."""
    if "\0" in path:
        raise InputError(repr(path), "a path cannot hold a NUL character")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a FIFO: no wait for a writer
    with open(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(path, f"not a regular file (a FIFO, a device or a folder): give {what} file")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise InputError(path, f"{what} larger than {limit // 1024} KiB")
    return utf8(data, path)


def lines(stream: BinaryIO, name: str) -> Iterator[tuple[int, str | InputError]]:
    """(line number, text or the InputError of that line) for each line of a binary stream.

    A line too long or not UTF-8 is reported and skipped: it never stops the reading. What never
    ends (/dev/zero, a line of MAX_SKIP bytes, MAX_STREAM bytes in all) is reported once and read
    no further.
    """
    number = read = 0
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        where = f"{name}:{number}"
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            skipped = len(raw)
            while raw and not raw.endswith(b"\n") and skipped <= MAX_SKIP:  # skip the rest of the long line
                raw = stream.readline(MAX_LINE + 1)
                skipped += len(raw)
            read += skipped
            if skipped > MAX_SKIP:
                yield number, InputError(where, f"no end of line in {MAX_SKIP // 1024 // 1024} MiB: not lines of "
                                                "text, the rest is not read")
                return
            raw = b""  # refused below, after the stream's bound
        else:
            read += len(raw)
        if read > MAX_STREAM:
            yield number, InputError(where, f"more than {MAX_STREAM // 1024 // 1024} MiB of input: "
                                            "the rest is not read")
            return
        if not raw:
            yield number, InputError(where, f"line longer than {MAX_LINE // 1024} KiB")
            continue
        try:
            yield number, utf8(raw, where)
        except InputError as exc:
            yield number, exc


# -- JSON -----------------------------------------------------------------------------------------
def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range")
    return value


def depth(text: str) -> int:
    """Deepest nesting of arrays/objects in JSON text (strings skipped), without recursion."""
    deepest = level = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            level += 1
            deepest = max(deepest, level)
        elif ch in "]}":
            level -= 1
    return deepest


def json_text(text: str, where: str, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON: bounded nesting, no NaN/Infinity, no number too large for a float."""
    if len(text) > MAX_FILE:
        raise InputError(where, "JSON text too large")
    if depth(text) > max_depth:
        raise InputError(where, f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except (ValueError, RecursionError) as exc:
        raise InputError(where, f"not valid JSON: {exc}") from None


# -- values ---------------------------------------------------------------------------------------
def integer(value: Any, where: str, lo: int, hi: int) -> int:
    """An integer in [lo, hi]; a bool, a float (even 2.0) or a string is refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(where, f"expected an integer, got {_show(value)}")
    if not lo <= value <= hi:
        raise InputError(where, f"{value}: expected {lo} to {hi}")
    return value


def number(value: Any, where: str, lo: float, hi: float) -> float:
    """A finite number in [lo, hi] (an integer is fine, a bool is not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(where, f"expected a number, got {_show(value)}")
    if not math.isfinite(value) or not lo <= value <= hi:
        raise InputError(where, f"{_show(value)}: expected a number from {lo:g} to {hi:g}")
    return float(value)


def string(value: Any, where: str, max_len: int = 200) -> str:
    """A string of at most `max_len` characters."""
    if not isinstance(value, str):
        raise InputError(where, f"expected a string, got {_show(value)}")
    if len(value) > max_len:
        raise InputError(where, f"string longer than {max_len} characters")
    return value


def boolean(value: Any, where: str) -> bool:
    """true or false only (not 0, 1, "yes")."""
    if not isinstance(value, bool):
        raise InputError(where, f"expected true or false, got {_show(value)}")
    return value


def obj(value: Any, where: str, keys: Iterable[str] | None = None) -> dict[str, Any]:
    """A JSON object; with `keys`, any other key is refused."""
    if not isinstance(value, dict):
        raise InputError(where, f"expected an object, got {_show(value)}")
    if keys is not None:
        allowed = set(keys)
        extra = sorted(str(k) for k in value if k not in allowed)
        if extra:
            raise InputError(where, f"unknown key(s) {', '.join(extra)} (known: {', '.join(sorted(allowed))})")
    return value


def choice(value: Any, where: str, options: Iterable[str]) -> str:
    """One of the given strings."""
    options = tuple(options)
    if not isinstance(value, str) or value not in options:
        raise InputError(where, f"{_show(value)}: expected one of {', '.join(options)}")
    return value


def _show(value: Any) -> str:
    text = json.dumps(value) if isinstance(value, (bool, int, float, str, type(None))) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."

"""The venue's table keys: a TOML file mapping each table's name to the key its `[venue]` signs with.

    cafe-3 = "9f1c...64 hex digits"                  # the same text as key in cafe-3's [venue]
    cafe-4 = { key_file = "/etc/zebra-venue/cafe-4.key" }

Validated like the table config: every problem is named with the file and the key, types are
strict, sizes bounded (the file, each key), and only regular files are read.
"""

from __future__ import annotations

import tomllib
from typing import Any

from firmware_host.venue import signing
from firmware_host.venue.settings import TABLE_NAME

FILE_MAX = 1024 * 1024
MAX_TABLES = 10_000


def load(path: str) -> tuple[dict[str, bytes], list[str]]:
    """(table name -> key, problems): any problem means the file must not be used."""
    try:
        raw = tomllib.loads(signing.read_bounded(path, FILE_MAX))
    except OSError as exc:
        return {}, [f"{path}: {exc.strerror or exc}"]
    except ValueError as exc:  # tomllib.TOMLDecodeError is a ValueError, and so are read_bounded's
        return {}, [f"{path}: {exc}" if not str(exc).startswith(path) else str(exc)]
    problems: list[str] = []
    keys: dict[str, bytes] = {}
    if len(raw) > MAX_TABLES:
        return {}, [f"{path}: {len(raw)} tables, at most {MAX_TABLES}"]
    for table, value in raw.items():
        where = f"{path}: {table}"
        if not TABLE_NAME.fullmatch(table):
            problems.append(f"{where}: a table name is 1 to 23 letters, digits, - or _")
            continue
        text = _text(where, value, problems)
        if text is None:
            continue
        problem = signing.key_problem(text)
        if problem is not None:
            problems.append(f"{where}: {problem}")
            continue
        keys[table] = text.encode()
    return keys, problems


def _text(where: str, value: Any, problems: list[str]) -> str | None:
    """The key's text, given inline or as { key_file = "..." }."""
    if isinstance(value, str):
        return value
    if not isinstance(value, dict) or set(value) != {"key_file"} or not isinstance(value["key_file"], str):
        problems.append(f'{where}: expected "the key" or {{ key_file = "/path/to/key" }}, got {str(value)[:60]}')
        return None
    try:
        return signing.read_key_file(value["key_file"])
    except OSError as exc:
        problems.append(f"{where}: key_file {value['key_file']}: {exc.strerror or exc}")
    except ValueError as exc:
        problems.append(f"{where}: key_file {exc}")
    return None

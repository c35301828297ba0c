"""What can go wrong with the journal's file, told apart: a damaged file (`JournalCorrupt`: set it
aside), one locked by another process (`JournalBusy`: wait and retry), one that cannot be written
now (`JournalUnwritable`: disk full, read-only mount, failing disk: never move it).

`classify` turns any SQLite exception (sqlite3's or apsw's) into one of them; `disk_problem` says
which of full, read-only or failing a disk is, from the filesystem itself.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

# SQLite primary result codes (sqlite3.h) -> what they mean for the table
_KINDS = {5: "busy", 6: "busy", 8: "readonly", 10: "io", 13: "full", 14: "cantopen", 11: "corrupt",
          26: "corrupt"}

class JournalError(ValueError):
    """A journal that cannot be opened or read."""

    kind = "error"


class JournalCorrupt(JournalError):
    """The file is damaged (failed integrity check, malformed page or row): set it aside."""

    kind = "corrupt"


class JournalBusy(JournalError):
    """Another process holds a lock longer than the busy timeout: wait and retry, never move it."""

    kind = "busy"


class JournalUnwritable(JournalError):
    """The disk is full, read-only or failing: the file is fine, it just cannot be written now."""

    kind = "unwritable"

    def __init__(self, message: str, reason: str = "io"):
        super().__init__(message)
        self.reason = reason  # full | readonly | io | cantopen


FULL_BYTES = 64 * 1024  # free space under which a disk is full for SQLite (a WAL page, its -shm)


def disk_problem(path: str | os.PathLike[str] | None, reason: str) -> str:
    """What a journal that cannot be written means for its disk: "full", "readonly" or "io" (a
    failing disk). SQLite may report a full disk as an I/O error (its -shm cannot grow): the free
    space of the journal's filesystem decides."""
    disk = None
    if path is not None:
        where = Path(path).absolute()
        folder = next((p for p in (where, *where.parents) if p.exists()), Path("/"))
        try:
            disk = os.statvfs(folder)
        except OSError:
            disk = None
    if reason == "full" or (disk is not None and disk.f_bavail * disk.f_frsize < FULL_BYTES):
        return "full"
    if reason == "readonly" or (disk is not None and disk.f_flag & os.ST_RDONLY):
        return "readonly"
    if path is not None and Path(path).exists() and not os.access(path, os.W_OK):
        return "readonly"
    return "io"


def classify(exc: BaseException, where: str) -> JournalError | None:
    """The JournalError an SQLite exception (sqlite3 or apsw) stands for; None if not SQLite's."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        code = getattr(exc, "extendedresult", None) or getattr(exc, "result", None)
    if not isinstance(code, int):
        if isinstance(exc, sqlite3.Error):
            return JournalError(f"{where}: {exc}")
        return None
    kind = _KINDS.get(code & 0xFF)
    if kind == "corrupt":
        return JournalCorrupt(f"{where}: damaged journal: {exc}")
    if kind == "busy":
        return JournalBusy(f"{where}: journal locked by another process: {exc}")
    if kind in ("readonly", "io", "full", "cantopen"):
        return JournalUnwritable(f"{where}: {exc}", kind)
    return JournalError(f"{where}: {exc}")

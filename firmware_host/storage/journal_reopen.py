"""A journal opened read-only at start-up (a full or read-only disk) opened again for writing.

The loop only looks at the disk (one statvfs) every few seconds; once it has room and may be
written, the journal is opened for writing on a thread of its own (an open after an unclean stop
runs SQLite's integrity check, too long for the loop), and the loop takes the result when it is
there.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

from firmware_host.storage.journal import Journal
from firmware_host.storage.journal_errors import FULL_BYTES, JournalError

log = logging.getLogger(__name__)


def disk_writable(path: Path) -> bool:
    """True when the journal's filesystem has room and may be written (a cheap look, no write)."""
    folder = next((p for p in (path.absolute(), *path.absolute().parents) if p.is_dir()), Path("/"))
    try:
        disk = os.statvfs(folder)
    except OSError:
        return False
    if disk.f_flag & os.ST_RDONLY or disk.f_bavail * disk.f_frsize < FULL_BYTES:
        return False
    target = path if path.exists() else folder
    return os.access(target, os.W_OK)


class Reopen:
    """One attempt at opening `path` for writing, on its own thread; `result()` once it is done."""

    def __init__(self, open_for_writing: Callable[[], Journal]):
        self._open = open_for_writing
        self._journal: Journal | None = None
        self._error: JournalError | None = None
        self._thread = threading.Thread(target=self._run, name="journal-reopen", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._journal = self._open()
        except JournalError as exc:
            self._error = exc
        except Exception as exc:  # an OSError from the disk: the next attempt may do better
            self._error = JournalError(f"opening the journal for writing: {exc}")

    @property
    def done(self) -> bool:
        """True once the attempt has ended, well or not."""
        return not self._thread.is_alive()

    def result(self) -> Journal | JournalError:
        """The journal open for writing, or why not (only once `done`)."""
        if self._journal is not None:
            return self._journal
        return self._error or JournalError("opening the journal for writing gave nothing")

    def abandon(self) -> None:
        """The keeper stops (the table closes): a journal opened meanwhile is closed."""
        self._thread.join(timeout=5.0)
        if self._journal is not None:
            self._journal.close()
            self._journal = None

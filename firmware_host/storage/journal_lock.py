"""One table process per journal: an exclusive lock on `<journal>.lock`, which holds its PID.

Two table processes on one journal would each offer the other's live game and write moves into
it. The lock is `flock` on a file beside the journal, held for the life of the process: the
kernel releases it when the process ends, however it ends (kill -9, power cut), so a stale lock
never stops the next start. Readers (`zebra-table games`) take no lock.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import time
from pathlib import Path

log = logging.getLogger(__name__)

PID_BYTES = 32  # what is read of the lock file: a PID and a newline


class JournalInUse(Exception):
    """Another table process holds the journal's lock."""

    def __init__(self, journal: str, pid: int | None):
        who = f"PID {pid}" if pid is not None else "a process whose PID could not be read"
        super().__init__(f"{journal}: already used by another table process ({who}); stop it first "
                         f"(`zebra-table games` can read the journal meanwhile)")
        self.pid = pid


class JournalLock:
    """The lock of one journal, held until `release` (or the process ends)."""

    def __init__(self, fd: int | None, path: Path):
        self.fd = fd
        self.path = path

    def release(self) -> None:
        """Let another process take the journal (the file stays: removing it would race)."""
        fd, self.fd = self.fd, None
        if fd is not None:
            os.close(fd)


def lock_path(journal: str | os.PathLike[str]) -> Path:
    """The lock file of a journal: beside it, named after it."""
    path = Path(journal)
    return path.with_name(path.name + ".lock")


def lock_journal(journal: str | os.PathLike[str]) -> JournalLock:
    """Take the journal's lock for this process; JournalInUse naming the holder's PID if taken.

    Where no lock file can be made (a read-only mount, a full disk) the journal cannot be written
    by anyone either: the table goes on without the lock and the log says so."""
    path = lock_path(journal)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        try:  # an existing lock file on a read-only mount can still be locked
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            log.warning("%s: no lock file (%s): another table process could share the journal",
                        path, exc.strerror or exc)
            return JournalLock(None, path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            os.close(fd)
            log.warning("%s: cannot be locked (%s)", path, exc.strerror or exc)
            return JournalLock(None, path)
        pid = _holder(fd)
        os.close(fd)
        raise JournalInUse(str(journal), pid) from None
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError as exc:  # read-only or full: the lock holds, its PID is not written
        log.warning("%s: PID not written (%s)", path, exc.strerror or exc)
    return JournalLock(fd, path)


def _holder(fd: int) -> int | None:
    """The PID the holder wrote (it writes it just after locking: wait a moment for it)."""
    for _ in range(20):
        text = os.pread(fd, PID_BYTES, 0).decode("ascii", errors="replace").strip()
        if text.isdigit() and text.isascii() and 0 < int(text) < 2**22 + 1:
            return int(text)
        time.sleep(0.05)
    return None

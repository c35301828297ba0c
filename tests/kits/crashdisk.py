"""A disk that loses power: an SQLite VFS (apsw) keeping every write since the last sync volatile.

As SQLite's own crash tests do (test/crash*.test, src/test6.c): each file has what is on the
platter (`durable`, as of its last xSync) and what the process sees (`data`). At a chosen I/O
operation the power goes: `PowerCut` (a BaseException, so nothing in the table can catch it) is
raised from inside SQLite, and each write made since that file's last sync is kept whole, dropped,
or torn sector by sector (each 512-byte sector of it new, old, or garbage). The next "boot" sees
only what survived. File creation and deletion are durable at once (SQLite syncs the directory
when it creates a journal or WAL file, and a stale WAL left after a checkpoint is harmless).

The journal opens the same files through this VFS with `connect`/`exists`, so the production
journal code runs unchanged on top of it. There is no shared memory in this VFS: connections use
`locking_mode=EXCLUSIVE`, with which SQLite keeps the WAL index in heap memory.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import apsw

SECTOR = 512
POWERSAFE_OVERWRITE = 0x1000  # SQLITE_IOCAP_POWERSAFE_OVERWRITE: a write never harms bytes beside it
_names = itertools.count()


class PowerCut(BaseException):
    """The power went: raised from the storage, caught only by the test that cut it."""


@dataclass
class MemFile:
    """One file: what the process sees and what a power cut would leave."""

    data: bytearray = field(default_factory=bytearray)
    durable: bytes = b""
    pending: list[tuple[int, bytes]] = field(default_factory=list)  # writes since the last sync
    truncated: int | None = None  # a truncation since the last sync

    def sync(self) -> None:
        self.durable = bytes(self.data)
        self.pending.clear()
        self.truncated = None


class CrashDisk:
    """Files in memory, an I/O operation counter, and the power switch."""

    def __init__(self, rng: random.Random, torn: float = 0.3, garbage: float = 0.1):
        self.files: dict[str, MemFile] = {}
        self.rng = rng
        self.torn = torn  # chance that an unsynced write is torn into sectors
        self.garbage = garbage  # chance that a torn sector holds garbage rather than old data
        self.stats: Counter[str] = Counter()  # what the cuts did to the unsynced writes
        self.ops = 0  # writes and syncs so far
        self.syncs = 0
        self.cut_at: int | None = None  # the operation at which the power goes
        self.dead = False
        self.boots = 0  # a handle opened before the last cut belongs to a dead process
        self.open: dict[str, int] = {}  # path -> handles open since the last boot
        self.name = f"crashdisk{next(_names)}"
        self.vfs = _VFS(self)

    # -- the power ------------------------------------------------------------------------------
    def tick(self) -> None:
        """Count one write or sync; cut the power when the chosen operation comes."""
        self.ops += 1
        if self.cut_at is not None and self.ops >= self.cut_at:
            self.cut()

    def cut(self) -> None:
        """Lose, keep or tear every unsynced write of every file; then raise PowerCut."""
        for f in self.files.values():
            image = bytearray(f.durable)
            if f.truncated is not None and self.rng.random() < 0.5:
                del image[f.truncated:]
            for offset, chunk in f.pending:
                roll = self.rng.random()
                if roll < 0.35:
                    self.stats["writes_dropped"] += 1
                    continue  # never reached the platter
                if roll < 0.35 + self.torn:
                    self.stats["writes_torn"] += 1
                    for start in range(0, len(chunk), SECTOR):
                        part = chunk[start:start + SECTOR]
                        r = self.rng.random()
                        if r < 0.4:
                            continue
                        if r < 0.4 + self.garbage:
                            part = self.rng.randbytes(len(part))
                        _put(image, offset + start, part)
                else:
                    self.stats["writes_kept"] += 1
                    _put(image, offset, chunk)
            f.data = bytearray(image)
            f.durable = bytes(image)
            f.pending.clear()
            f.truncated = None
        self.dead = True
        raise PowerCut(f"power cut at I/O operation {self.ops}")

    def boot(self) -> None:
        """Power back on: the files are what survived; counting starts again."""
        self.dead = False
        self.cut_at = None
        self.boots += 1
        self.open.clear()

    def retire(self) -> None:
        """The test is over: connections closed late (garbage collection) touch nothing."""
        self.cut_at = None
        self.boots += 1

    # -- the journal's hooks --------------------------------------------------------------------
    def connect(self, path: str, read_only: bool | str) -> apsw.Connection:
        """An apsw connection on this disk (the journal's `connect`)."""
        flags = apsw.SQLITE_OPEN_READONLY if read_only else apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
        db = apsw.Connection(path, flags=flags, vfs=self.name)
        db.execute("PRAGMA locking_mode=EXCLUSIVE")  # no shared memory here: WAL index on the heap
        return db

    def exists(self, path: str) -> bool:
        """The journal's `exists`."""
        return path in self.files


def _put(image: bytearray, offset: int, chunk: bytes) -> None:
    if len(image) < offset:
        image.extend(bytes(offset - len(image)))
    image[offset:offset + len(chunk)] = chunk


class _VFS(apsw.VFS):
    def __init__(self, disk: CrashDisk):
        self.disk = disk
        super().__init__(disk.name, base="")

    def xOpen(self, name: Any, flags: list[int]) -> _File:
        path = name.filename() if isinstance(name, apsw.URIFilename) else name
        if path is None:
            path = f"/temp/{next(_names)}"
        if path not in self.disk.files:
            if not flags[0] & apsw.SQLITE_OPEN_CREATE:
                raise apsw.CantOpenError(path)
            self.disk.files[path] = MemFile()
        flags[1] = flags[0]
        self.disk.open[path] = self.disk.open.get(path, 0) + 1
        return _File(self.disk, path)

    def xDelete(self, name: str, syncdir: bool) -> None:
        # a dead process (a handle from before the cut, closed late) deletes nothing; neither does
        # anyone while the live process still has the file open
        if not self.disk.dead and not self.disk.open.get(name):
            self.disk.files.pop(name, None)

    def xAccess(self, name: str, flags: int) -> bool:
        return name in self.disk.files

    def xFullPathname(self, name: str) -> str:
        return name


class _File:
    """A file of the memory disk, with the VFSFile methods SQLite calls."""

    def __init__(self, disk: CrashDisk, path: str):
        self.disk = disk
        self.path = path
        self.boot = disk.boots

    @property
    def stale(self) -> bool:
        """Opened by the process the power cut killed: whatever it does reaches no disk."""
        return self.disk.dead or self.boot != self.disk.boots or self.path not in self.disk.files

    @property
    def f(self) -> MemFile:
        return self.disk.files[self.path]

    def xRead(self, amount: int, offset: int) -> bytes:
        if self.stale:
            return b""
        return bytes(self.f.data[offset:offset + amount])

    def xWrite(self, data: bytes, offset: int) -> None:
        if self.stale:
            return
        self.disk.tick()
        f = self.f
        _put(f.data, offset, bytes(data))
        f.pending.append((offset, bytes(data)))

    def xTruncate(self, size: int) -> None:
        if self.stale:
            return
        self.disk.tick()
        del self.f.data[size:]
        self.f.truncated = size

    def xSync(self, flags: int) -> None:
        if self.stale:
            return
        self.disk.tick()
        self.disk.syncs += 1
        self.f.sync()

    def xFileSize(self) -> int:
        return 0 if self.stale else len(self.f.data)

    def xLock(self, level: int) -> None:
        pass

    def xUnlock(self, level: int) -> None:
        pass

    def xCheckReservedLock(self) -> bool:
        return False

    def xFileControl(self, op: int, ptr: int) -> bool:
        return False

    def xSectorSize(self) -> int:
        return SECTOR

    def xDeviceCharacteristics(self) -> int:
        return POWERSAFE_OVERWRITE

    def xClose(self) -> None:
        if not self.stale and self.disk.open.get(self.path):
            self.disk.open[self.path] -= 1

"""A damaged journal is set aside (renamed, never deleted) and every game still readable in it is
copied into a new journal at the same path, under its own id."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.storage.journal import Journal, JournalCorrupt, JournalError, JournalUnwritable

log = logging.getLogger(__name__)

MAX_PROBES = 200_000  # game ids tried one by one when the id list itself cannot be read


@dataclass
class SetAside:
    """Where a damaged journal went, and what the new one kept of it."""

    journal: Journal
    aside: Path
    kept: int
    lost: int
    reason: str

    @property
    def message(self) -> str:
        """One line for the log and the operator."""
        return (f"{self.reason}; moved to {self.aside}; {self.kept} game(s) salvaged into a new journal, "
                f"{self.lost} unreadable")


def aside_path(path: Path) -> Path:
    """A free name beside the journal: journal.sqlite.corrupt-<time>[-n]."""
    base = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
    candidate, n = base, 1
    while any(Path(str(candidate) + s).exists() for s in ("", "-wal", "-shm")):
        candidate = base.with_name(f"{base.name}-{n}")
        n += 1
    return candidate


def set_aside(path: Path, reason: str, skip: Iterable[int] = (), **storage: Any) -> SetAside:
    """Rename the journal (and its -wal, -shm) aside, start a new one, salvage the readable games.

    `skip`: ids not to salvage (the game in play, which its caller writes again from memory).
    Raises JournalUnwritable if the files cannot be renamed (a read-only mount): nothing moves.
    """
    aside = aside_path(path)
    moved: list[tuple[Path, Path]] = []
    try:
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(path) + suffix)
            if src.exists():
                dst = Path(str(aside) + suffix)
                os.rename(src, dst)
                moved.append((src, dst))
    except OSError as exc:
        for src, dst in reversed(moved):  # all or nothing: a half-moved journal would lose its WAL
            try:
                os.rename(dst, src)
            except OSError:
                log.error("could not move %s back to %s", dst, src)
        raise JournalUnwritable(f"{path}: damaged, and cannot be moved aside: {exc.strerror or exc}",
                                "readonly") from None
    log.error("%s; moved to %s", reason, aside)
    journal = Journal(path, **storage)
    kept, lost = salvage(aside, journal, set(skip), **storage)
    result = SetAside(journal, aside, kept, lost, reason)
    log.error("journal: %s", result.message)
    return result


def salvage(source: Path, into: Journal, skip: set[int], **storage: Any) -> tuple[int, int]:
    """Copy every readable game of `source` into `into`; returns (kept, lost)."""
    try:
        old = Journal(source, read_only=True, **storage)
    except JournalError as exc:
        log.error("nothing salvaged from %s: %s", source, exc)
        return 0, 0
    kept = lost = 0
    try:
        for gid in _ids(old):
            if gid in skip:
                continue
            try:
                rec = old.record(gid)
            except JournalError as exc:
                log.error("game %s not salvaged: %s", gid, exc)
                lost += 1
                continue
            into.import_game(rec)
            kept += 1
    finally:
        old.close()
    return kept, lost


def _ids(old: Journal) -> list[int]:
    """The game ids; if the list cannot be read, every id up to the largest probed one by one."""
    try:
        return old.ids()
    except JournalError as exc:
        log.error("game list unreadable (%s): probing ids one by one", exc)
    try:
        top = old._one("SELECT max(id) FROM games")[0] or 0
    except JournalError:
        return []
    found = []
    for gid in range(1, min(int(top), MAX_PROBES) + 1):
        try:
            if old._one("SELECT 1 FROM games WHERE id=?", (gid,)):
                found.append(gid)
        except JournalError:
            continue
    return found


def open_or_set_aside(path: str | os.PathLike[str], **storage: Any) -> tuple[Journal, str | None]:
    """Open the journal; a corrupt one is set aside (games salvaged) and a new one started.

    Returns the journal and, if one was set aside, a message saying where it went and what was
    kept. A journal that is only locked, full or read-only raises (JournalBusy, JournalUnwritable)
    and is never moved.
    """
    try:
        return Journal(path, **storage), None
    except JournalCorrupt as exc:
        aside = set_aside(Path(path), str(exc), **storage)
        return aside.journal, aside.message

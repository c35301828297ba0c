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

from firmware_host.storage.journal import Connect, Journal, sqlite_connect
from firmware_host.storage.journal_errors import JournalCorrupt, JournalUnwritable
from firmware_host.storage.journal_rows_reader import Salvaged, read_damaged
from firmware_host.storage.journal_texts import set_aside_text
from games.core import Text

log = logging.getLogger(__name__)


@dataclass
class SetAside:
    """Where a damaged journal went, and what the new one kept of it."""

    journal: Journal
    aside: Path
    found: Salvaged
    reason: str

    @property
    def kept(self) -> int:
        """Games copied into the new journal."""
        return len(self.found.games)

    @property
    def lost(self) -> int:
        """Games known to be there that could not be read (more may be: `found.more_lost`)."""
        return len(self.found.lost)

    @property
    def moves_lost(self) -> int:
        """Moves past the readable prefix of the games kept."""
        return sum(self.found.moves_lost.values())

    @property
    def message(self) -> str:
        """One line for the log and the operator."""
        more = " or more (part of the game list is unreadable)" if self.found.more_lost else ""
        cut = (f", {self.moves_lost} move(s) lost at the end of {len(self.found.moves_lost)} game(s)"
               if self.moves_lost else "")
        if self.found.more_moves_lost:
            cut += ", some moves unreadable (the last moves of a game may be lost)"
        return (f"{self.reason}; moved to {self.aside}; {self.kept} game(s) salvaged into a new journal{cut}, "
                f"{self.lost}{more} unreadable")

    @property
    def text(self) -> Text:
        """What the screens say."""
        return set_aside_text(self.kept, self.lost, self.moves_lost, self.found.more_lost, self.found.more_moves_lost)


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
    result = SetAside(journal, aside, salvage(aside, journal, set(skip), **storage), reason)
    log.error("journal: %s", result.message)
    return result


def salvage(source: Path, into: Journal, skip: set[int], **storage: Any) -> Salvaged:
    """Copy every readable game of `source` into `into`, each with its longest readable prefix of
    moves; returns what was read (the games kept) and what was not."""
    connect: Connect = storage.get("connect", sqlite_connect)
    db = None
    for mode in (True, "immutable"):  # a WAL file without its -shm reads only as immutable
        try:
            db = connect(str(source), mode)
            # a damaged schema (a table's root past the end of a truncated file) still lists the
            # tables: each one then reads what it can (the connection is read-only: nothing is written)
            db.execute("PRAGMA writable_schema=ON")
            _first_row(db)
            break
        except Exception as exc:  # unreadable this way: the next, or nothing
            log.error("salvage: %s unreadable (%s): %s", source, mode, exc)
            if db is not None:
                _close(db)
            db = None
    if db is None:
        return Salvaged(readable=False)
    try:
        found = read_damaged(db)
    finally:
        _close(db)
    kept = []
    for rec in found.games:
        if rec.id in skip:
            continue
        into.import_game(rec)
        kept.append(rec)
    found.games = kept
    for gid in skip:
        found.moves_lost.pop(gid, None)
        found.lost.discard(gid)
    return found


def _first_row(db: Any) -> None:
    for _ in db.execute("SELECT 1 FROM sqlite_master LIMIT 1"):
        return


def _close(db: Any) -> None:
    try:
        db.close()
    except Exception as exc:  # closing a damaged file: nothing to save
        log.warning("salvage: closing: %s", exc)


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

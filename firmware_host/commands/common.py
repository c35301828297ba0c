"""What several commands share: where the table config is, the config's tag registry, the journal
opened, the signals that stop them."""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Callable
from pathlib import Path

from firmware_host.storage.config import TableConfig
from firmware_host.storage.journal import Journal
from firmware_host.storage.journal_errors import JournalBusy, JournalCorrupt, JournalError, disk_problem
from firmware_host.storage.tags import TagRegistry, all_game_pieces, sim_registry
from games.core import Text

log = logging.getLogger(__name__)

DEFAULT_PATH = "/etc/zebra-table/table.toml"
SQLITE_MAX_INT = 2**63 - 1  # a game id or a count SQLite can take


def whole_number(lo: int, hi: int = SQLITE_MAX_INT) -> Callable[[str], int]:
    """An argparse type: an integer in [lo, hi], else one line saying so (never an overflow later)."""
    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r}: expected a whole number") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{text[:40]}: expected {lo} to {hi}")
        return value
    return parse


def seconds(hi: float) -> Callable[[str], float]:
    """An argparse type: a duration from 0 to `hi` seconds (nan and inf are not durations)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r}: expected a number of seconds") from None
        if not 0 <= value <= hi:  # false for nan too
            raise argparse.ArgumentTypeError(f"{text[:40]}: expected 0 to {hi:g} seconds")
        return value
    return parse


def default_config_path() -> str | None:
    """$ZEBRA_TABLE_CONFIG, else /etc/zebra-table/table.toml if it exists, else None (simulated)."""
    env = os.environ.get("ZEBRA_TABLE_CONFIG")
    if env:
        return env
    return DEFAULT_PATH if os.path.exists(DEFAULT_PATH) else None


def load_registry(config: TableConfig) -> TagRegistry:
    """The config's tag registry; the simulated table gets one tag per piece of every game."""
    if config.simulated:
        return sim_registry(all_game_pieces())
    return TagRegistry.load(config.tags_file)


def open_journal_or_raise(path: str) -> Journal:
    """The journal for a later retry: damaged ones set aside; JournalError if still unusable."""
    from firmware_host.storage.journal_salvage import open_or_set_aside

    return open_or_set_aside(path)[0]


def open_journal(path: str) -> tuple[Journal | None, Text | None]:
    """The journal, and what the screens must say if it was set aside or cannot be used as it is.

    Damaged: set aside, readable games salvaged. Locked by another process: None (the runtime
    retries). Read-only, full or failing: opened read-only, so an unfinished game can still be
    resumed, the screens saying which.
    """
    from firmware_host.storage.journal_salvage import set_aside
    from firmware_host.storage.journal_texts import BUSY, UNUSABLE

    try:
        journal = Journal(path)
        if journal.wal_lost:  # the moves after the last game boundary may be missing
            log.error("journal %s: the last run did not stop cleanly and its -wal file is gone", path)
            return journal, _wal_lost_text(journal)
        return journal, None
    except JournalCorrupt as exc:
        try:
            result = set_aside(Path(path), str(exc))
        except JournalError as exc2:
            log.error("no journal, games will not be kept: %s", exc2)
            return None, UNUSABLE
        return result.journal, result.text
    except JournalBusy as exc:
        log.error("journal busy, retrying: %s", exc)
        return None, BUSY
    except (JournalError, OSError) as exc:
        log.error("journal cannot be written: %s", exc)
        why = _unwritable_text(Path(path), exc)
    try:
        return Journal(path, read_only=True), why
    except (JournalError, OSError) as exc:
        log.error("no journal, games will not be kept: %s", exc)
        return None, UNUSABLE


def _wal_lost_text(journal: Journal) -> Text:
    """A game left unfinished kept its first moves; none left: the last one may be lost whole."""
    from firmware_host.storage.journal_texts import WAL_LOST, WAL_LOST_GAME

    try:
        return WAL_LOST if journal.unfinished() is not None else WAL_LOST_GAME
    except JournalError:  # unreadable: the keeper finds the damage when the menu reads it
        return WAL_LOST


def _unwritable_text(path: Path, exc: Exception) -> Text:
    """Why the journal cannot be written, as it is: a full disk, a read-only one, a failing one."""
    from firmware_host.storage.journal_texts import DISK_ERROR, FULL_AT_START, READ_ONLY

    problem = disk_problem(path, str(getattr(exc, "reason", "io")))
    return {"full": FULL_AT_START, "readonly": READ_ONLY}.get(problem, DISK_ERROR)


def stop_on(names: tuple[str, ...], handler: Callable[..., object]) -> Callable[[], None]:
    """`handler` for each named signal the system has (SIGHUP: no such signal on every platform)
    whose disposition is still the default: a signal someone ignores (`nohup`) stays ignored.
    Returns what puts the handlers back. Main thread only, as Python's signal handlers are."""
    import signal  # only the commands that serve need it

    previous = {}
    for name in names:
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) is signal.SIG_DFL:
            previous[sig] = signal.signal(sig, handler)

    def restore() -> None:
        for sig, was in previous.items():
            signal.signal(sig, was)

    return restore

"""What several commands share: where the table config is, and the config's tag registry."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from firmware_host.storage.config import TableConfig
from firmware_host.storage.journal import Journal, JournalBusy, JournalCorrupt, JournalError
from firmware_host.storage.tags import TagRegistry, all_game_pieces, sim_registry
from games.core import Text

log = logging.getLogger(__name__)

DEFAULT_PATH = "/etc/zebra-table/table.toml"


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
    return Journal.open_or_set_aside(path)[0]


def open_journal(path: str) -> tuple[Journal | None, Text | None]:
    """The journal, and what the screens must say if it was set aside or cannot be used as it is.

    Damaged: set aside, readable games salvaged. Locked by another process: None (the runtime
    retries). Read-only or full: opened read-only, so an unfinished game can still be resumed.
    """
    from firmware_host.storage.journal_salvage import set_aside
    from firmware_host.storage.journal_texts import BUSY, READ_ONLY, UNUSABLE, WAL_LOST

    try:
        journal = Journal(path)
        if journal.wal_lost:  # the moves after the last game boundary may be missing
            log.error("journal %s: the last run did not stop cleanly and its -wal file is gone", path)
            return journal, WAL_LOST
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
    try:
        return Journal(path, read_only=True), READ_ONLY
    except (JournalError, OSError) as exc:
        log.error("no journal, games will not be kept: %s", exc)
        return None, UNUSABLE

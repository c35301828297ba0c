"""The table's outward face in a venue: its games published to an MQTT broker, and the venue side.

Off unless the config has a `[venue]` section: then `attach` starts a publisher thread that sends
the journal's games (public parts only) to the broker. Nothing here imports paho at import time:
a table at home never loads it. Topics and payloads: docs/venue.md.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from firmware_host.storage.config import TableConfig
    from firmware_host.storage.journal import Journal

log = logging.getLogger(__name__)

# the loop's journal connection waits this long for the publisher's short cursor write
JOURNAL_BUSY_MS = 2000


class VenueLink(Protocol):
    """What the service holds while the venue publisher runs."""

    def notify(self) -> None: ...
    def close(self) -> None: ...


def attach(config: TableConfig, journal: Journal | None) -> VenueLink | None:
    """Start publishing to the venue's broker if the config says so; None (nothing started) if not."""
    venue = config.venue
    if venue is None or not venue.enabled:
        return None
    from firmware_host.venue.publisher import Publisher  # paho is imported here, never before

    if journal is None:
        log.error("venue: no journal, so no game can be published (only the table's status)")
    publisher = Publisher(venue, journal.path if journal is not None else None)
    if journal is not None:
        # two connections now write the journal: the loop's must wait for the publisher's brief
        # cursor update instead of failing a move with "database is locked"
        journal.db.execute(f"PRAGMA busy_timeout = {JOURNAL_BUSY_MS}")
        journal.on_commit = publisher.notify
    publisher.start()
    return publisher

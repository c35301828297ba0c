"""The venue's subscriber: every table's messages into the results database.

A persistent MQTT session (clean_session off, QoS 1): what the tables publish while the venue is
away waits on the broker. Each message is acknowledged only after the batch holding it is
committed, so a venue killed mid-batch gets it again rather than losing it; the database drops
the copies by (table, game_id, seq).
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.venue import messages, mqtt
from firmware_host.venue.results import VenueDB
from firmware_host.venue.settings import VenueConfig

log = logging.getLogger(__name__)

BATCH = 500  # messages per database transaction, at most


@dataclass
class ListenerStats:
    """What the listener did (the terminal view's footer, the benchmark, the tests)."""

    received: int = 0
    stored: int = 0
    duplicates: int = 0
    bad: int = 0
    batches: int = 0


Change = Callable[[messages.Event, bool], None]  # (event, new) after each commit


class Listener:
    """Subscribes, stores in batches, acknowledges after each commit."""

    def __init__(self, settings: VenueConfig, db_path: str | Path, client_id: str, on_event: Change | None = None):
        self.settings = settings
        self.db = VenueDB(db_path)
        self.inbox: queue.Queue[tuple[str, bytes, int, int] | None] = queue.Queue()
        self.stats = ListenerStats()
        self.on_event = on_event
        self.connected = threading.Event()
        self._problem: str | None = None
        self.closing = False
        self.client = mqtt.make_client(settings, client_id, clean_session=False, manual_ack=True)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.writer = threading.Thread(target=self._write, name="venue-writer", daemon=True)

    def start(self) -> None:
        """Connect (paho's thread) and start writing."""
        self.writer.start()
        mqtt.start(self.client, self.settings)

    def close(self) -> None:
        """Store and acknowledge what arrived, then disconnect."""
        self.inbox.put(None)
        self.writer.join(30.0)
        self.closing = True
        self.client.disconnect()
        self.client.loop_stop()
        self.db.close()

    # -- paho's thread ---------------------------------------------------------------------------
    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            self._report(f"the broker {self.settings.where} refused the venue: {mqtt.refusal(reason_code)}")
            return
        client.subscribe([(topic, 1) for topic in messages.SUBSCRIPTIONS])
        self._problem = None
        log.info("venue: listening on %s", self.settings.where)
        self.connected.set()

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        self._report(mqtt.unreachable(self.settings, "--ca-file"))

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if self.connected.is_set():
            self.connected.clear()
            if not self.closing:
                self._report(f"lost the broker {self.settings.where} ({reason_code})")

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        self.inbox.put((msg.topic, bytes(msg.payload), msg.mid, msg.qos))

    def _report(self, problem: str) -> None:
        if problem != self._problem:
            self._problem = problem
            log.error("venue: %s", problem)

    # -- the writer thread -----------------------------------------------------------------------
    def _write(self) -> None:
        stop = False
        while not stop:
            item = self.inbox.get()
            batch: list[tuple[str, bytes, int, int]] = []
            while item is not None:
                batch.append(item)
                if len(batch) >= BATCH:
                    break
                try:
                    item = self.inbox.get_nowait()
                except queue.Empty:
                    break
            stop = item is None
            while batch:
                try:
                    self._store(batch)
                    batch = []
                except sqlite3.Error as exc:  # full or locked disk: keep them unacknowledged, retry
                    self._report(f"results database: {exc}")
                    time.sleep(1.0)

    def _store(self, batch: list[tuple[str, bytes, int, int]]) -> None:
        now = time.time()
        seen: list[tuple[messages.Event, bool]] = []
        bad = 0
        self.db.begin()
        try:
            for topic, payload, _, _ in batch:
                try:
                    ev = messages.parse(topic, payload)
                except messages.BadMessage as exc:
                    bad += 1
                    log.warning("venue: ignored: %s", exc)
                    continue
                seen.append((ev, self.db.store(ev, now)))
            self.db.commit()
        except BaseException:
            if self.db.db.in_transaction:
                self.db.db.execute("ROLLBACK")
            raise
        stored = sum(new for _, new in seen)
        self.stats.received += len(batch)
        self.stats.bad += bad
        self.stats.stored += stored
        self.stats.duplicates += len(seen) - stored
        self.stats.batches += 1
        for _, _, mid, qos in batch:  # durable now: the broker may forget them
            if qos > 0:
                self.client.ack(mid, qos)
        if self.on_event is not None:
            for ev, new in seen:
                self.on_event(ev, new)

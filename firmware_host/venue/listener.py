"""The venue's subscriber: every table's messages into the results database.

A persistent MQTT session (clean_session off, QoS 1): what the tables publish while the venue is
away waits on the broker. Each message is acknowledged only after the batch holding it is
committed, so a venue killed mid-batch gets it again rather than losing it; the database drops
the copies by (table, game_id, seq). A message is acknowledged only on the connection it came by:
message ids are the connection's, and one acknowledged on the next connection could be another
message's there, which the broker would then never send again. Sent again on the new connection
(the session is kept), it is stored as a copy and acknowledged there.

No message stops the writer: one that fails its checks (inbound.py), or that the database will
not take, is set aside in the `quarantine` table with its reason and acknowledged like the others
(a poison left unacknowledged would come back at every start). Only the database itself failing
(full, locked, read-only) keeps a batch unacknowledged and retried; after DB_PATIENCE seconds of
that, or on anything unforeseen, the writer stops and says why in `failure`: the command then
exits non-zero and the broker keeps what was not acknowledged.
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

from firmware_host.venue import inbound, messages, mqtt
from firmware_host.venue.results import VenueDB
from firmware_host.venue.settings import VenueConfig

log = logging.getLogger(__name__)

BATCH = 500  # messages per database transaction, at most
DB_PATIENCE = 120.0  # seconds a failing database is retried before the writer gives up
LOGGED = 100  # set-aside messages logged one by one; beyond, they are counted only


@dataclass
class ListenerStats:
    """What the listener did (the terminal view's footer, the benchmark, the tests)."""

    received: int = 0
    stored: int = 0
    duplicates: int = 0
    quarantined: int = 0
    batches: int = 0


Change = Callable[[inbound.Event, bool], None]  # (event, new) after each commit
Message = tuple[str, bytes, int, int, int]  # topic, payload, message id, QoS, the connection it came by


class Listener:
    """Subscribes, stores in batches, acknowledges after each commit."""

    def __init__(self, settings: VenueConfig, db_path: str | Path, client_id: str, on_event: Change | None = None,
                 keys: inbound.Keys = inbound.no_keys, signed_only: bool = False):
        self.settings = settings
        self.db = VenueDB(db_path)
        self.keys = keys
        self.signed_only = signed_only
        self.unsigned: set[str] = set()  # tables whose unsigned messages were taken (each said once)
        self._aside_logged = 0
        self.inbox: queue.Queue[Message | None] = queue.Queue()
        self.stats = ListenerStats()
        self.on_event = on_event
        self.connected = threading.Event()
        # which connection a message came by (see the module's docstring); the lock keeps a
        # connection from ending between an acknowledgement's check and its sending
        self._connection = 0
        self._acks = threading.Lock()
        self._problem: str | None = None
        self.closing = False
        self.client = mqtt.make_client(settings, client_id, clean_session=False, manual_ack=True)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.failure: str | None = None  # why the writer stopped, when it did on its own
        self.stopped = threading.Event()  # the writer thread has ended
        self._closing = threading.Event()
        self.writer = threading.Thread(target=self._write, name="venue-writer", daemon=True)

    def start(self) -> None:
        """Connect (paho's thread) and start writing."""
        self.writer.start()
        mqtt.start(self.client, self.settings)

    def close(self) -> None:
        """Store and acknowledge what arrived, then disconnect."""
        self._closing.set()
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
        with self._acks:
            self._connection += 1
        client.subscribe([(topic, 1) for topic in messages.SUBSCRIPTIONS])
        self._problem = None
        log.info("venue: listening on %s", self.settings.where)
        self.connected.set()

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        self._report(mqtt.unreachable(self.settings, "--ca-file"))

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        with self._acks:  # from now on, no acknowledgement of what came by the connection that ended
            self._connection += 1
        if self.connected.is_set():
            self.connected.clear()
            if not self.closing:
                self._report(f"lost the broker {self.settings.where} ({reason_code})")

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        self.inbox.put((msg.topic, bytes(msg.payload), msg.mid, msg.qos, self._connection))

    def _report(self, problem: str) -> None:
        if problem != self._problem:
            self._problem = problem
            log.error("venue: %s", problem)

    # -- the writer thread -----------------------------------------------------------------------
    def _write(self) -> None:
        try:
            self._write_batches()
        except BaseException as exc:
            self.failure = f"{type(exc).__name__}: {exc}"
            log.critical("venue: the writer stopped (%s): nothing more is stored", self.failure, exc_info=True)
        finally:
            self.stopped.set()

    def _write_batches(self) -> None:
        stop = False
        while not stop:
            batch, stop = self._next_batch()
            failing_since: float | None = None
            while batch:
                try:
                    self._store(batch)
                    batch = []
                except sqlite3.Error as exc:  # full, locked or read-only disk: keep them unacknowledged, retry
                    self._report(f"results database: {exc}; the broker keeps the messages, retrying")
                    now = time.monotonic()
                    failing_since = now if failing_since is None else failing_since
                    if now - failing_since >= DB_PATIENCE:
                        raise RuntimeError(f"results database: {exc} for {DB_PATIENCE:.0f} s") from None
                    if self._closing.wait(1.0):
                        raise RuntimeError(f"results database: {exc} when the venue stopped") from None

    def _next_batch(self) -> tuple[list[Message], bool]:
        """Up to BATCH messages (waits for the first); True once the stop was asked."""
        item = self.inbox.get()
        batch: list[Message] = []
        while item is not None:
            batch.append(item)
            if len(batch) >= BATCH:
                break
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
        return batch, item is None

    def _store(self, batch: list[Message]) -> None:
        now = time.time()
        seen: list[tuple[inbound.Event, bool]] = []
        set_aside = 0
        self.db.begin()
        try:
            for topic, payload, *_ in batch:
                stored = self._one(topic, payload, now)
                if stored is None:
                    set_aside += 1
                else:
                    seen.append(stored)
            self.db.commit()
        except BaseException:
            if self.db.db.in_transaction:
                self.db.db.execute("ROLLBACK")
            raise
        new = sum(n for _, n in seen)
        self.stats.received += len(batch)
        self.stats.quarantined += set_aside
        self.stats.stored += new
        self.stats.duplicates += len(seen) - new
        self.stats.batches += 1
        with self._acks:  # durable now, stored or set aside: the broker may forget them
            for _, _, mid, qos, connection in batch:
                if qos > 0 and connection == self._connection:
                    self.client.ack(mid, qos)
        if self.on_event is not None:
            for ev, is_new in seen:
                try:
                    self.on_event(ev, is_new)
                except Exception:  # a line not printed never stops the storing
                    log.exception("venue: cannot show %s of table %s", ev.kind, ev.table)

    def _one(self, topic: str, payload: bytes, now: float) -> tuple[inbound.Event, bool] | None:
        """Store one message; None when it was set aside (only a failing database raises)."""
        try:
            ev = inbound.parse(topic, payload, self.keys, self.signed_only)
        except inbound.BadMessage as exc:
            self._set_aside(topic, payload, str(exc), now)
            return None
        except Exception as exc:
            self._set_aside(topic, payload, f"unreadable ({type(exc).__name__}: {exc})", now, trace=True)
            return None
        if ev.table not in self.unsigned and self.keys(ev.table) is None:
            self.unsigned.add(ev.table)
            log.warning("venue: table %s has no key here: its messages are taken unsigned", ev.table)
        self.db.savepoint()
        try:
            new = self.db.store(ev, now)
        except sqlite3.OperationalError:
            raise  # the database itself fails: the whole batch waits
        except Exception as exc:
            self.db.undo()
            self._set_aside(topic, payload, f"cannot be stored ({type(exc).__name__}: {exc})", now, trace=True)
            return None
        self.db.release()
        return ev, new

    def _set_aside(self, topic: str, payload: bytes, reason: str, now: float, trace: bool = False) -> None:
        self.db.quarantine(topic, payload, reason, now)
        logged = self._aside_logged
        self._aside_logged += 1
        if logged < LOGGED:
            log.warning("venue: set aside: %s", reason[:300], exc_info=trace)
        elif logged == LOGGED:
            log.warning("venue: more messages set aside: counted in the quarantine table, not logged")

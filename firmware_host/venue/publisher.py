"""The table's venue publisher: a thread that sends the journal's games to the broker, QoS 1.

The event loop only calls `notify()` (sets a flag) when the journal commits; this thread then
builds the new messages from the journal and hands them to paho, whose own network thread sends
them, resends them after a reconnection and reports each PUBACK. The cursor moves on PUBACK only.
A broker that is down, refuses the table's credentials or vanishes mid-game costs the loop
nothing: messages wait in the journal (at most WINDOW of them in memory) and leave when it is back.

The venue gets each game's messages in order. New messages are handed only while connected, and
after a reconnection only once paho's resends of the ones handed before are acknowledged. A
message handed while paho was connecting again went out right after its CONNECT, ahead of those
resends. The `link` lock makes "connected?" and the handing one step against paho's connection
callbacks.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.venue import messages, mqtt, signing
from firmware_host.venue.outbox import Outbox
from firmware_host.venue.settings import VenueConfig

log = logging.getLogger(__name__)

WINDOW = 100  # messages handed to the client and not yet acknowledged, at most
POLL = 5.0  # seconds between two looks at the journal when nothing wakes the thread
FLUSH_EVERY = 0.5  # seconds between two cursor writes while acknowledgements arrive
DRAIN_SECONDS = 3.0  # at a clean stop, how long to wait for the broker to take what is left
RESEND_SECONDS = 10.0  # after a reconnection, how long new messages wait behind the ones paho resends


@dataclass
class PublisherStats:
    """Counters for the benchmark and the tests."""

    published: int = 0  # game messages handed to the client
    acked: int = 0  # game messages the broker acknowledged
    connects: int = 0  # successful connections
    refusals: int = 0  # connections the broker refused (credentials, client id)
    cpu: float = 0.0  # this thread's CPU seconds (reading the journal, building, handing out)


class Publisher:
    """Publishes one table's journal; start() then notify() after each commit, close() at the end."""

    def __init__(self, settings: VenueConfig, journal_path: str | Path | None):
        self.settings = settings
        self.journal_path = journal_path
        self.table = settings.table
        self.wake = threading.Event()
        self.acks: deque[int] = deque()  # PUBACKed message ids, from paho's thread
        self.pending: dict[int, tuple[int, int]] = {}  # message id -> (journal game id, seq)
        self.stats = PublisherStats()
        self.connected = False
        # held while messages are handed to paho and while its callbacks change `connected`: a
        # message is handed either before a loss is seen (paho resends it, in order, after the
        # reconnection) or after the reconnection's resends, never in between
        self.link = threading.Lock()
        self.refused = False  # the broker refused the last login: waiting at a stop changes nothing
        # reconnected (monotonic time) with messages handed before: paho resends those after its
        # on_connect, so new ones wait until they are acknowledged and the venue gets them in order
        self.resending: float | None = None
        self.stopping = False
        self.key = None if settings.key is None else settings.key.encode()
        self.outbox: Outbox | None = None
        if journal_path is not None:
            # opened now, before the loop can journal anything: the first opening decides which
            # games were over before the venue was configured (those stay at home)
            try:
                self.outbox = Outbox(journal_path, self.table, self.key)
            except (sqlite3.Error, OSError) as exc:
                log.error("venue: cannot read the journal %s: %s; publishing the status only", journal_path, exc)
        self._problem: str | None = None  # the connection problem last logged (each logged once)
        self.client = mqtt.make_client(settings, settings.table, clean_session=True)
        will = self._status("offline", None, "lost")
        self.client.will_set(messages.status_topic(self.table), will, qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.thread = threading.Thread(target=self._run, name="venue-publisher", daemon=True)

    # -- the loop's side (never blocks) ---------------------------------------------------------
    def start(self) -> None:
        """Start the thread (it opens the journal and connects)."""
        self.thread.start()

    def notify(self) -> None:
        """The journal committed something: look at it soon."""
        self.wake.set()

    def close(self) -> None:
        """Send what the broker can take within DRAIN_SECONDS, say "offline", disconnect."""
        self.stopping = True
        self.wake.set()
        self.thread.join(DRAIN_SECONDS + 5.0)

    # -- paho's network thread ------------------------------------------------------------------
    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            self.stats.refusals += 1
            self.refused = True
            self._report(f"the broker {self.settings.where} refused table {self.table!r}: "
                         f"{mqtt.refusal(reason_code)}; games wait in the journal")
            return
        with self.link:  # the resends first: nothing new is handed before they are acknowledged
            self.resending = time.monotonic()
            self.connected = True
        self.refused = False
        self.stats.connects += 1
        if self._problem is not None:
            log.warning("venue: connected to %s again; sending what waited", self.settings.where)
        else:
            log.info("venue: connected to %s as %s", self.settings.where, self.table)
        self._problem = None
        online = self._status("online", time.time())
        client.publish(messages.status_topic(self.table), online, qos=1, retain=True)
        self.wake.set()

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        self._report(f"{mqtt.unreachable(self.settings)}; games wait in the journal")

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        with self.link:
            was = self.connected
            self.connected = False
        if was:
            if not self.stopping:
                self._report(f"lost the broker {self.settings.where} ({reason_code}); games wait in the journal")

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason_code: Any, properties: Any) -> None:
        self.acks.append(mid)
        self.wake.set()

    def _status(self, state: str, t: float | None, reason: str | None = None) -> bytes:
        payload = messages.encode(messages.status(self.table, state, t, reason))
        return payload if self.key is None else signing.sign(self.key, messages.status_topic(self.table), payload)

    def _report(self, problem: str) -> None:
        if problem != self._problem:  # once per problem, not at every retry
            self._problem = problem
            log.error("venue: %s", problem)

    # -- the publisher's thread -----------------------------------------------------------------
    def _run(self) -> None:
        mqtt.start(self.client, self.settings)
        last_flush = time.monotonic()
        deadline: float | None = None
        while True:
            dirty = self.outbox is not None and bool(self.outbox.dirty)
            self.wake.wait(0.05 if self.stopping else FLUSH_EVERY if dirty else POLL)
            self.wake.clear()
            # read once: a step that looked at the journal before the stop was asked proves nothing
            stopping = self.stopping
            t0 = time.thread_time()
            more = False
            try:
                more = self._step(force_flush=stopping or time.monotonic() - last_flush >= FLUSH_EVERY)
                if self.outbox is not None and not self.outbox.dirty:
                    last_flush = time.monotonic()
            except sqlite3.Error as exc:  # a locked or failing journal: try again at the next wake
                self._report(f"journal: {exc}")
            except Exception:
                log.exception("venue: publisher error; trying again at the next commit")
                time.sleep(1.0)
            self.stats.cpu += time.thread_time() - t0
            if stopping:
                if deadline is None:  # a broker that is away may come back (or be connecting) meanwhile
                    deadline = time.monotonic() + DRAIN_SECONDS
                drained = self.outbox is None or (not more and self.outbox.in_flight() == 0)
                if drained or self.refused or time.monotonic() >= deadline:
                    break
        self._finish()

    def _step(self, force_flush: bool) -> bool:
        """Take acknowledgements, hand out new messages; True if more were handed out."""
        self._take_acks()
        outbox = self.outbox
        if outbox is None:
            return False
        handed = 0
        with self.link:
            if self.resending is not None and (not self.pending or time.monotonic() - self.resending >= RESEND_SECONDS):
                self.resending = None
            room = WINDOW - outbox.in_flight() if self.connected and self.resending is None else 0
            if room > 0:
                batch = outbox.take(room)
                for i, m in enumerate(batch):
                    info = self.client.publish(m.topic, m.payload, qos=1)
                    if not mqtt.success(info.rc):
                        self._report(f"the MQTT client refused a message ({info.rc}); it stays in the journal")
                        outbox.unhand(batch[i:])
                        break
                    self.pending[info.mid] = (m.game, m.seq)
                    handed += 1
        self.stats.published += handed
        if force_flush:  # at most every FLUSH_EVERY: a cursor write per move would cost more than the move
            outbox.flush()
        return handed > 0

    def _take_acks(self) -> None:
        while self.acks:
            entry = self.pending.pop(self.acks.popleft(), None)
            if entry is not None and self.outbox is not None:  # None: a status message
                self.outbox.ack(*entry)
                self.stats.acked += 1

    def _finish(self) -> None:
        if self.connected:
            offline = self._status("offline", time.time(), "stopped")
            info = self.client.publish(messages.status_topic(self.table), offline, qos=1, retain=True)
            try:
                info.wait_for_publish(1.0)
            except (RuntimeError, ValueError):
                pass  # not sent before the stop: the outbox sends it again at the next start
        self.client.disconnect()
        self.client.loop_stop()
        if self.outbox is not None:
            try:
                self._take_acks()  # the last acknowledgements
                self.outbox.close()
            except sqlite3.Error as exc:
                log.error("venue: journal: %s", exc)

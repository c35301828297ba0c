"""RemoteLink: one table's side of a remote game on the broker, in its own thread and paho's.

Reliable messages wait in an outbox until the other table acknowledges them (its `ack`), and are
sent again, QoS 1, at every (re)connection and every RESEND seconds until then: a broker that
restarts and forgets what it held loses nothing. Received ones are taken once, in order (a copy
or one past a gap is dropped; the sender sends again), and handed to the table's loop through
`take()`, with `wake()` called from paho's thread to say there is news. Presence: each side says
"online" (retained, with "offline" as its last will) and pings every PING seconds; the other side
is away when this table has no broker, the other said "offline", or was not heard for AWAY_AFTER.
A message too large for one MQTT message leaves in parts, each a reliable message of its own, and
is taken once whole (parts.py).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware_host.remote import code as codes
from firmware_host.remote import parts, wire
from firmware_host.remote.settings import client_settings
from firmware_host.venue.inbound import BadMessage
from firmware_host.venue.public import dumps
from firmware_host.venue.settings import Broker, VenueConfig

log = logging.getLogger(__name__)

RESEND = 1.0  # seconds between two sendings of what the other side has not acknowledged
PING = 1.0  # seconds between two pings
AWAY_AFTER = 4.0  # seconds without a word from the other side: it is away
TICK = 0.1  # the link thread's period
LINGER = 30.0  # seconds a table that left waits for the other to acknowledge that it did
MAX_OUTBOX = wire.MAX_SEQ  # reliable messages of one game, at most


@dataclass
class LinkStats:
    """Counters for the tests and the benchmark."""

    sent: int = 0  # reliable messages handed to paho (first sendings and resendings)
    resent: int = 0
    received: int = 0  # reliable messages taken
    duplicates: int = 0  # copies dropped by sequence number
    gaps: int = 0  # messages past a gap, dropped (sent again by the other side)
    bad: int = 0  # messages refused (signature, bounds, scheme)
    parts: int = 0  # parts taken (each counted in `received` too)
    wholes: int = 0  # messages put together from their parts
    bytes_sent: int = 0  # payload bytes of the reliable messages' first sendings
    connects: int = 0


class RemoteLink:
    """A side ("host" or "join") of the game opened by `code`, on `broker`."""

    def __init__(self, broker: Broker, code: str, side: str, wake: Callable[[], None] | None = None):
        if side not in wire.SIDES:
            raise ValueError(f"side {side!r}")
        self.broker = broker
        self.code = code
        self.side = side
        self.peer = wire.other(side)
        self.wake = wake
        self.stats = LinkStats()
        self.lock = threading.Lock()
        self.inbox: deque[wire.Message] = deque()
        self.outbox: deque[int] = deque()  # seqs the other side has not acknowledged, in order
        self.fields: dict[int, dict[str, Any]] = {}  # seq -> the message (its ack is added at each sending)
        self.next_seq = 1
        self.run = min(time.time_ns() // 1000, wire.MAX_RUN)  # a restarted table's link: a later run
        self.peer_run = 0  # the other side's run whose messages are taken (0: none yet)
        self.peer_restarts = 0  # times the other side came back with a new run
        self.received = 0  # the highest seq taken from the other side, with every lower one
        self.assembly = parts.Assembly()  # the parts of the other side's message being received
        self.connected = False
        self.peer_online = False
        self.peer_heard: float | None = None  # monotonic time of the other side's last valid message
        self.ever_present = False
        self.ready = threading.Event()  # the key is derived and the client made
        self.stopping = threading.Event()
        self.key = b""
        self.room = ""
        self.client: Any = None
        self.settings: VenueConfig | None = None  # the broker as the MQTT client takes it (made in the thread)
        self._last_resend = 0.0
        self._last_ping = 0.0
        self._present = False
        self.linger_until = 0.0  # a stop asked after a last message waits for its acknowledgement until then
        self.thread = threading.Thread(target=self._run, name=f"remote-{side}", daemon=True)

    # -- the loop's side (never blocks) ---------------------------------------------------------
    def start(self) -> None:
        """Derive the game's key and connect, in the link's thread."""
        self.thread.start()

    def send(self, kind: str, fields: dict[str, Any]) -> int:
        """Queue a reliable message (in parts if too large for one); it leaves now if connected, else
        at the connection. Its seq (its last part's; 0: too large to cross even in parts, not sent)."""
        if kind not in wire.RELIABLE:
            raise ValueError(f"kind {kind!r}")
        body = dumps({"v": wire.VERSION, "kind": kind, **fields})
        try:
            chunks = parts.cut(body) if len(body) > parts.PART_BYTES else []
        except OverflowError as exc:  # far beyond any game's (parts.MAX_WHOLE): said, never a crash of the loop
            log.error("remote: %s message not sent: %s", kind, exc)
            return 0
        with self.lock:
            if self.next_seq + max(len(chunks), 1) - 1 > MAX_OUTBOX:
                raise OverflowError("a remote game sends at most %d messages" % MAX_OUTBOX)
            first = self.next_seq
            if chunks:
                whole = {"kind": "part", "of": first, "n": len(chunks), "size": len(body), "digest": parts.digest(body),
                         "whole": kind}
                for i, chunk in enumerate(chunks):
                    self.fields[first + i] = {**whole, "seq": first + i, "i": i, "chunk": chunk}
            else:
                self.fields[first] = {"kind": kind, "seq": first, **fields}
            seqs = list(range(first, first + max(len(chunks), 1)))
            self.next_seq = seqs[-1] + 1
            self.outbox.extend(seqs)
        self._publish_pending(seqs)
        return seqs[-1]

    def take(self) -> list[wire.Message]:
        """The messages taken since the last call, in order."""
        with self.lock:
            out = list(self.inbox)
            self.inbox.clear()
        return out

    @property
    def present(self) -> bool:
        """True while the other side is heard through a broker this table is connected to."""
        heard = self.peer_heard
        return (self.connected and self.peer_online and heard is not None
                and time.monotonic() - heard < AWAY_AFTER)

    def unacknowledged(self) -> int:
        """Reliable messages the other side has not acknowledged yet."""
        with self.lock:
            return len(self.outbox)

    def untaken(self) -> int:
        """Messages received (and acknowledged: at their arrival) that the table's loop has not taken yet."""
        with self.lock:
            return len(self.inbox)

    def stop(self, after_sending: bool = False) -> None:
        """Stop soon, without waiting (the loop's side): `after_sending`, once the other side has
        acknowledged everything or LINGER seconds passed."""
        self.linger_until = time.monotonic() + (LINGER if after_sending else 0.0)
        self.stopping.set()

    def cut(self) -> None:
        """Leave the broker and stay away until `restore` (a script's lost Wi-Fi); never blocks."""
        if self.client is not None:
            self.client.disconnect()

    def restore(self) -> None:
        """Connect again after `cut` (in paho's thread, which goes on reconnecting after any loss)."""
        if self.client is not None and self.settings is not None and not self.connected:
            from firmware_host.venue import mqtt

            self.client.loop_stop()  # its network thread ended with the deliberate disconnection
            mqtt.start(self.client, self.settings)

    def close(self) -> None:
        """Say "offline", disconnect, stop the thread (waits for it)."""
        self.linger_until = 0.0
        self.stopping.set()
        if self.thread.is_alive():
            self.thread.join(10.0)

    # -- the link's thread ----------------------------------------------------------------------
    def _run(self) -> None:
        from firmware_host.venue import mqtt  # paho is imported here, never before

        opened = codes.derive(self.code)
        self.key, self.room = opened.key, opened.room
        settings = self.settings = client_settings(self.broker, f"zt-{self.room[:12]}-{self.side}")
        client = mqtt.make_client(settings, settings.table, clean_session=True)
        client.will_set(wire.status_topic(self.room, self.side), wire.status(self.key, self.room, self.side, "offline"),
                        qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client
        self.ready.set()
        mqtt.start(client, settings)
        while True:
            stop = self.stopping.wait(TICK)
            if stop and (not self.outbox or time.monotonic() >= self.linger_until):
                break
            if stop:
                time.sleep(TICK)  # lingering: the last message's acknowledgement may still come
            self._tick()
        if self.connected:
            info = client.publish(wire.status_topic(self.room, self.side),
                                  wire.status(self.key, self.room, self.side, "offline"), qos=1, retain=True)
            try:
                info.wait_for_publish(1.0)
            except (RuntimeError, ValueError):
                pass  # not sent: the broker's last will says it
        client.disconnect()
        client.loop_stop()

    def _tick(self) -> None:
        now = time.monotonic()
        if self.connected:
            if self.outbox and now - self._last_resend >= RESEND:
                self._resend()
            if now - self._last_ping >= PING:
                self._ping()
        present = self.present
        if present != self._present:
            self._present = present
            if present:
                self.ever_present = True
            self._wake()

    def _resend(self) -> None:
        with self.lock:
            seqs = list(self.outbox)
        self.stats.resent += len(seqs)
        self._publish_pending(seqs, again=True)
        self._last_resend = time.monotonic()

    def _publish_pending(self, seqs: list[int], again: bool = False) -> None:
        client = self.client
        if client is None or not self.connected:
            return
        where = wire.topic(self.room, self.side)
        for seq in seqs:
            with self.lock:
                fields = self.fields.get(seq)
                ack = self.received
                stamp = self._stamp()
            if fields is None:  # acknowledged meanwhile
                continue
            payload = wire.encode(self.key, where, {**fields, "ack": ack, **stamp})
            client.publish(where, payload, qos=1)
            self.stats.sent += 1
            if not again:
                self.stats.bytes_sent += len(payload)
        if not again:
            self._last_resend = time.monotonic()

    def _ping(self) -> None:
        where = wire.topic(self.room, self.side)
        with self.lock:
            fields = {"kind": "ping", "seq": 0, "ack": self.received, **self._stamp()}
        self.client.publish(where, wire.encode(self.key, where, fields), qos=1)
        self._last_ping = time.monotonic()

    def _stamp(self) -> dict[str, int]:
        """This side's run, the other's run its ack is about, and what it knows was taken (under the lock)."""
        base = self.outbox[0] - 1 if self.outbox else self.next_seq - 1
        return {"run": self.run, "seen": self.peer_run, "base": base}

    def _wake(self) -> None:
        if self.wake is not None:
            self.wake()

    # -- paho's network thread ------------------------------------------------------------------
    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            log.error("remote: the broker %s:%s refused the table: %s", self.broker.host, self.broker.port,
                      reason_code)
            return
        self.connected = True
        self.stats.connects += 1
        client.subscribe([(wire.topic(self.room, self.peer), 1), (wire.status_topic(self.room, self.peer), 1)])
        client.publish(wire.status_topic(self.room, self.side), wire.status(self.key, self.room, self.side, "online"),
                       qos=1, retain=True)
        self._ping()
        self._resend()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if self.connected:
            self.connected = False
            if not self.stopping.is_set():
                log.warning("remote: lost the broker %s:%s (%s); moves wait in the outbox", self.broker.host,
                            self.broker.port, reason_code)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        try:
            if msg.topic == wire.status_topic(self.room, self.peer):
                self.peer_online = wire.parse_status(msg.topic, msg.payload, self.key) == "online"
                self._wake()
                return
            message = wire.parse(msg.topic, msg.payload, self.key)
        except BadMessage as exc:
            self.stats.bad += 1
            log.warning("remote: message set aside: %s", exc)
            return
        with self.lock:
            if message.run < self.peer_run:  # an earlier run of the other side (a replay): never followed
                self.stats.duplicates += 1
                return
            news = message.run > self.peer_run
            if news:  # the other side's first message, or its first since it restarted
                self.peer_restarts += self.peer_run != 0
                self.peer_run = message.run
                self.received = message.base
                self.assembly.reset()  # a message of the earlier run is sent again whole, if at all
        self.peer_heard = time.monotonic()
        self.peer_online = True
        if message.seen == self.run:  # an ack about an earlier run of this side's is not about this outbox
            news = self._acknowledged(message.ack) or news
        if message.kind != "ping":
            with self.lock:
                if message.seq <= self.received:
                    self.stats.duplicates += 1
                elif message.seq > self.received + 1:
                    self.stats.gaps += 1
                else:
                    self.received = message.seq
                    self.stats.received += 1
                    taken = self._whole(msg.topic, message) if message.kind == "part" else message
                    if taken is not None:
                        self.inbox.append(taken)
                        news = True
            self._ping()  # the acknowledgement, at once: the other side stops sending it again
        if news or not self._present:
            self._wake()

    def _whole(self, topic: str, message: wire.Message) -> wire.Message | None:
        """The message a part completes (under the lock); None while parts are missing or when the
        message put together is wrong (said in the log; the message is set aside)."""
        self.stats.parts += 1
        try:
            body = self.assembly.add(parts.part(message.data, message.run), topic)
            if body is None:
                return None
            taken = wire.whole(topic, body, message)
            self.stats.wholes += 1
            return taken
        except BadMessage as exc:
            self.stats.bad += 1
            log.warning("remote: message set aside: %s", exc)
            return None

    def _acknowledged(self, ack: int) -> bool:
        """Drop what the other side acknowledged; True if anything was."""
        dropped = False
        with self.lock:
            while self.outbox and self.outbox[0] <= ack:
                seq = self.outbox.popleft()
                self.fields.pop(seq, None)
                dropped = True
        return dropped

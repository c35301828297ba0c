"""The reader link's conversation with the controller (docs/protocol.md), connection after connection.

Per connection: HELLO until the controller answers HI (handshake), then a full inventory (sync),
then tag events checked against the sequence (run); a gap, a stale frame, an event overflow or a
controller restart goes back to sync. LED commands wait for their ACK and are sent again, with the
latest colour, when it does not come. What it learnt stays across connections: the device, the
sensed state (antenna -> tag UIDs) and the sequence it includes.

The link (drivers/reader/link.py) owns the port, the thread and the lock: it hands over the bytes
it read and the clock's ticks, with its lock held; the conversation writes through the link's
`write` and tells the table through the link's report.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from drivers.reader import protocol as proto
from drivers.reader.events import (
    DeviceError,
    DeviceInfo,
    InventoryReplaced,
    LinkState,
    TagPresent,
    TagRemoved,
)
from drivers.reader.led_wishes import LedWishes
from drivers.reader.report import LinkReport

if TYPE_CHECKING:
    from drivers.reader.protocol import Message

log = logging.getLogger("drivers.reader.link")  # the link's one logger

Phase = Literal["handshake", "sync", "run"]
HANDSHAKE: Phase = "handshake"
SYNC: Phase = "sync"
RUN: Phase = "run"


# room for a LEDS frame's items: 96 bytes less "$", "LEDS 65535 ", "*", the CRC and "\n"
LEDS_ROOM = proto.MAX_FRAME - len("$LEDS 65535 *XXXX\n")


class LinkLost(Exception):
    """The connection must be dropped and re-established (carries the reason)."""


@dataclass(frozen=True, slots=True)
class Timing:
    """How long the link waits for the controller, and how often it asks again."""

    heartbeat_interval: float = 1.0
    heartbeat_timeout: float = 3.5
    handshake_timeout: float = 1.0
    handshake_attempts: int = 3
    inventory_timeout: float = 2.0
    inventory_attempts: int = 3
    ack_timeout: float = 0.5
    command_attempts: int = 3


class Conversation:
    """What the link says to the controller and makes of its answers (see module doc)."""

    def __init__(self, timing: Timing, write: Callable[[bytes], bool], leds: LedWishes, report: LinkReport,
                 clock: Callable[[], float]) -> None:
        self.timing = timing
        self._write = write
        self._leds = leds
        self._report = report
        self._clock = clock
        self.parser = proto.FrameParser()
        self.phase: Phase = HANDSHAKE
        self.device: DeviceInfo | None = None
        self.inventory: dict[int, frozenset[str]] = {}
        self.last_seq = 0
        # command id -> (its antennas, None for "all off then every lit one"; due; tries)
        self.pending: dict[int, tuple[tuple[int, ...] | None, float, int]] = {}
        self.version = proto.OLDEST_VERSION  # spoken on this connection: the controller's HI says
        self._items: list[tuple[int, str]] | None = None
        self._next_id = 0
        self._hello_id = 0
        self._tries = 0
        self._due = 0.0  # deadline of the handshake or inventory answer
        self._last_rx = 0.0
        self._next_ping = 0.0
        self._was_ready = False

    # ---- one connection ---------------------------------------------------------------------

    def begin(self, now: float) -> None:
        """A port was opened: greet the controller."""
        self.parser.reset()
        self._last_rx = now
        self._next_ping = now + self.timing.heartbeat_interval
        self._hello_id = self._new_id()
        self.phase = HANDSHAKE
        self.version = proto.OLDEST_VERSION  # until this controller's HI says more
        self._tries = 0
        self._send_hello(now)

    def end(self) -> None:
        """The port is gone: nothing waits for an answer any more."""
        self.phase = HANDSHAKE
        self.pending.clear()
        self._items = None

    def feed(self, data: bytes, now: float) -> None:
        """Bytes read from the port; raises LinkLost when the connection cannot go on."""
        for msg in self.parser.feed(data):
            if isinstance(msg, dict):  # always: errors are only counted (`errors` not asked)
                self._on_message(msg, now)

    def request_inventory(self, now: float) -> bool:
        """Ask for a full inventory when running; True while one is being fetched."""
        if self.phase == RUN:
            self._resync("requested", now)
        return self.phase == SYNC

    def next_due(self) -> float:
        """The earliest time (the clock's) at which `timers` has something to do: a PING to send,
        an answer or an ACK overdue, the controller silent for too long."""
        due = self._next_ping
        if self.phase != RUN:
            due = min(due, self._due)
        if self.phase != HANDSHAKE:
            due = min(due, self._last_rx + self.timing.heartbeat_timeout)
        for _, at, _ in self.pending.values():
            due = min(due, at)
        return due

    def timers(self, now: float) -> None:
        """Answers overdue, heartbeats, unacknowledged LED commands; raises LinkLost."""
        timing = self.timing
        if self.phase != RUN and now >= self._due:
            if self.phase == HANDSHAKE:
                if self._tries >= timing.handshake_attempts:
                    raise LinkLost("no answer to HELLO")
                self._send_hello(now)
            elif self._tries >= timing.inventory_attempts:
                raise LinkLost("no complete inventory answer")
            else:
                self._report.count("inventory_timeouts")
                self._send_invq(now)
        if self.phase != HANDSHAKE and now - self._last_rx > timing.heartbeat_timeout:
            raise LinkLost(f"heartbeat timeout: nothing heard for {now - self._last_rx:.1f} s")
        if now >= self._next_ping:
            self._next_ping = now + timing.heartbeat_interval
            self._send({"type": "PING"})
        for cid, (antennas, due, tries) in list(self.pending.items()):
            if now >= due and cid in self.pending:
                del self.pending[cid]
                if tries >= timing.command_attempts:
                    self._report.count("command_failures")
                    log.warning("reader: LED command unanswered after %d tries", tries)
                else:
                    self._report.count("command_retries")
                    self._send_led(antennas, tries + 1)

    # ---- writes -----------------------------------------------------------------------------

    def _send(self, msg: Message, prefix: bytes = b"") -> bool:
        return self._write(prefix + proto.encode(msg))

    def _new_id(self) -> int:
        self._next_id = self._next_id % 65535 + 1  # 0 is reserved for unsolicited frames
        return self._next_id

    def _send_hello(self, now: float) -> None:
        self._tries += 1
        self._due = now + self.timing.handshake_timeout
        # a blank line first flushes whatever partial line the controller holds
        self._send({"type": "HELLO", "id": self._hello_id, "ver": proto.PROTOCOL_VERSION}, b"\n")

    def _send_led(self, antennas: int | tuple[int, ...] | None, tries: int) -> bool:
        """Send the wanted state of some LEDs (None = all off then every lit one), tracked for ACK."""
        return self._write(b"".join(self.led_frames(antennas, tries)))

    def led_frames(self, antennas: int | tuple[int, ...] | None, tries: int) -> list[bytes]:
        """The frames stating some LEDs (None = all off then every lit one), each tracked for its
        ACK: one LEDS frame for as many as fit when the controller speaks version 2, else one LED
        frame per LED.

        Their bodies are built canonical (set_led checked antennas and colours; ids are 1-65535), so
        they are framed as they are: proto.encode's checks would only find them valid again."""
        if antennas is None:
            cid = self._track(None, tries)
            return [proto.frame_body(f"LEDOFF {cid}"), *self.led_frames(tuple(self._leds.lit_antennas()), tries)]
        if isinstance(antennas, int):
            antennas = (antennas,)
        frames: list[bytes] = []
        if self.version < proto.LEDS_VERSION:
            for ant in antennas:
                cid = self._track((ant,), tries)
                frames.append(proto.frame_body(f"LED {cid} {ant} {self._rgb(ant)}"))
            return frames
        items: list[str] = []
        group: list[int] = []
        for ant in antennas:
            item = f"{ant}:{self._rgb(ant)}"
            if group and len(items) * 11 + len(item) > LEDS_ROOM:  # each item is at most 10 bytes and a comma
                frames.append(self._leds_frame(group, items, tries))
                items, group = [], []
            items.append(item)
            group.append(ant)
        if group:
            frames.append(self._leds_frame(group, items, tries))
        return frames

    def _leds_frame(self, group: list[int], items: list[str], tries: int) -> bytes:
        cid = self._track(tuple(group), tries)
        return proto.frame_body(f"LEDS {cid} {','.join(items)}")

    def _track(self, antennas: tuple[int, ...] | None, tries: int) -> int:
        """A new command id, waiting for its ACK."""
        cid = self._new_id()
        self.pending[cid] = (antennas, self._clock() + self.timing.ack_timeout, tries)
        return cid

    def _rgb(self, antenna: int) -> str:
        r, g, b = self._leds.colour(antenna)
        return f"{r:02X}{g:02X}{b:02X}"

    def send_wished_leds(self) -> None:
        """Send the LED wishes made since the last look, in one write (kept during the handshake,
        which states every LED)."""
        if self.phase == HANDSHAKE:
            return
        todo = self._leds.take()
        if not todo:
            return
        frames: list[bytes] = []
        run: list[int] = []
        for antenna in todo:
            if antenna is not None:
                run.append(antenna)
                continue
            if run:
                frames += self.led_frames(tuple(run), 1)
                run = []
            frames += self.led_frames(None, 1)
        if run:
            frames += self.led_frames(tuple(run), 1)
        self._write(b"".join(frames))

    # ---- the controller's frames --------------------------------------------------------------

    def _on_message(self, msg: Message, now: float) -> None:
        kind = msg["type"]
        if kind not in proto.DEVICE_MESSAGES:
            self._report.reject("direction")  # e.g. our own frames echoed back by a tty
            return
        self._last_rx = now
        if kind == "ERR":
            self._report.count("device_errors")
            self._report.emit(DeviceError(msg["code"], msg["detail"]))
            if msg["code"] == "OVF" and self.phase == RUN:
                self._resync("controller event overflow", now)
        elif kind == "HI":
            self._on_hi(msg, now)
        elif self.phase == HANDSHAKE:
            pass  # leftovers from before our HELLO
        elif kind == "ACK":
            self.pending.pop(msg["id"], None)
        elif kind in ("ADD", "DEL"):
            self._on_tag(msg, now)
        elif kind == "HB":
            if self.phase == RUN and msg["seq"] != self.last_seq:
                self._seq_fault(msg["seq"], f"heartbeat at seq {msg['seq']}", now)
        elif kind == "INV":
            self._on_item(msg, now)
        elif kind == "END":
            self._on_end(msg)

    def _on_hi(self, msg: Message, now: float) -> None:
        if self.phase == HANDSHAKE:
            if msg["id"] != self._hello_id:
                return
        elif msg["id"] == self._hello_id:
            return  # a late answer to a repeated HELLO
        else:
            self._report.count("device_resets")  # unsolicited: the controller restarted
        if not proto.OLDEST_VERSION <= msg["ver"] <= proto.PROTOCOL_VERSION:
            raise LinkLost(f"controller speaks protocol {msg['ver']}, host speaks "
                           f"{proto.OLDEST_VERSION} to {proto.PROTOCOL_VERSION}")
        self.version = msg["ver"]
        self.device = DeviceInfo(msg["ver"], msg["fw"], msg["ants"])
        for ant in self._leds.restate(msg["ants"]):
            log.warning("reader: no antenna %d on this controller, its LED is dropped", ant)
        self.last_seq = msg["seq"]
        self.pending.clear()
        self._send_led(None, 1)  # the controller's LEDs are unknown: state them all again
        self._resync("handshake" if self.phase == HANDSHAKE else "controller restarted", now)

    def _resync(self, reason: str, now: float) -> None:
        log.info("reader: inventory resync (%s)", reason)
        self.phase = SYNC
        self._tries = 0
        self._send_invq(now)

    def _send_invq(self, now: float) -> None:
        self._tries += 1
        self._items = None
        self._due = now + self.timing.inventory_timeout
        self._send({"type": "INVQ", "id": self._new_id()})

    def _seq_fault(self, seq: int, what: str, now: float) -> None:
        ahead = proto.seq_after(self.last_seq, seq)
        self._report.count("gaps" if ahead < proto.SEQ_MOD // 2 else "stale")
        self._resync(f"{what} after {self.last_seq}", now)

    def _on_tag(self, msg: Message, now: float) -> None:
        if self.phase != RUN:
            return  # the inventory being fetched already includes it
        ahead = proto.seq_after(self.last_seq, msg["seq"])
        if ahead == 0:
            self._report.count("duplicates")
            return
        if ahead != 1:
            self._seq_fault(msg["seq"], f"event {msg['seq']}", now)
            return
        self.last_seq = msg["seq"]
        ant, uid = msg["ant"], msg["uid"]
        if ant not in self.inventory:  # beyond the antenna count
            self._report.reject("antenna")
            return
        tags = self.inventory[ant]
        if msg["type"] == "ADD" and uid not in tags:
            self.inventory[ant] = tags | {uid}
            self._report.emit(TagPresent(ant, uid))
        elif msg["type"] == "DEL" and uid in tags:
            self.inventory[ant] = tags - {uid}
            self._report.emit(TagRemoved(ant, uid))

    def _on_item(self, msg: Message, now: float) -> None:
        if self.phase != SYNC:
            return  # answer to a request already satisfied
        if msg["idx"] == 0:
            self._items = []
        assert self.device is not None  # SYNC only follows a HI
        if self._items is None or msg["idx"] != len(self._items) or msg["ant"] >= self.device.antennas:
            self._items = None  # a lost, repeated or bad item: the END will not match
            return
        self._items.append((msg["ant"], msg["uid"]))
        self._due = now + self.timing.inventory_timeout  # a long answer is progress, not a timeout

    def _on_end(self, msg: Message) -> None:
        if self.phase != SYNC:
            return
        items = self._items if self._items is not None else ([] if msg["count"] == 0 else None)
        self._items = None
        if items is None or len(items) != msg["count"]:
            self._report.count("inventory_incomplete")
            if self._tries >= self.timing.inventory_attempts:
                raise LinkLost("inventory answers keep arriving incomplete")
            self._send_invq(self._clock())
            return
        assert self.device is not None
        new: dict[int, set[str]] = {a: set() for a in range(self.device.antennas)}
        for ant, uid in items:
            new[ant].add(uid)
        old, none = self.inventory, frozenset[str]()
        added = tuple((a, u) for a in sorted(new) for u in sorted(new[a] - old.get(a, none)))
        removed = tuple((a, u) for a in sorted(set(old) | set(new))  # antennas may have gone
                        for u in sorted(old.get(a, none) - new.get(a, none)))
        self.inventory = {a: frozenset(t) for a, t in new.items()}
        self.last_seq = msg["seq"]
        self.phase = RUN
        self._report.count("resyncs")
        self._report.emit(InventoryReplaced(dict(self.inventory), added, removed))
        if self._report.state is not LinkState.READY:
            if self._was_ready:
                self._report.count("reconnects")
            self._was_ready = True
            self._report.set_state(LinkState.READY, "handshake and inventory done", self.device)

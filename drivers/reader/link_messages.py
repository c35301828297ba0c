"""What the reader link does with each frame the controller sends (docs/protocol.md): the answer to
its HELLO, tag events checked against the sequence, the inventory answer that replaces the sensed
state, errors. Mixed into ReaderLink (drivers/reader/link.py), which owns the port, the thread and
the timers; every method here runs on the link's thread with its lock held.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from drivers.reader import protocol as proto
from drivers.reader.events import (
    DeviceError,
    DeviceInfo,
    InventoryReplaced,
    LinkEvent,
    LinkState,
    LinkStateChanged,
    TagPresent,
    TagRemoved,
)

if TYPE_CHECKING:
    from drivers.reader.protocol import Message

log = logging.getLogger("drivers.reader.link")  # the link's one logger

_HANDSHAKE, _SYNC, _RUN = "handshake", "sync", "run"  # internal phases of one connection


class _Lost(Exception):
    """The connection must be dropped and re-established (carries the reason)."""


class ControllerMessages:
    """The link's handling of the controller's frames and its counters (state kept by ReaderLink)."""

    _clock: Callable[[], float]
    inventory_timeout: float
    inventory_attempts: int
    backoff_initial: float
    _state: LinkState
    _phase: str
    _device: DeviceInfo | None
    _inv: dict[int, frozenset[str]]
    _last_seq: int
    _items: list[tuple[int, str]] | None
    _leds: dict[int, tuple[int, int, int]]
    _ledlock: threading.Lock
    _led_todo: dict[int | None, None]
    _pending: dict[int, tuple[int | None, float, int]]
    _hello_id: int
    _tries: int
    _due: float
    _last_rx: float
    _backoff: float
    _was_ready: bool
    _outbox: list[LinkEvent]
    _counts: dict[str, int]
    _link_rejects: dict[str, int]

    if TYPE_CHECKING:  # ReaderLink's writes
        def _send(self, msg: Message, prefix: bytes = b"") -> bool: ...

        def _send_led(self, antenna: int | None, tries: int) -> bool: ...

        def _new_id(self) -> int: ...

    def _on_message(self, msg: Message, now: float) -> None:
        kind = msg["type"]
        if kind not in proto.DEVICE_MESSAGES:
            self._link_reject("direction")  # e.g. our own frames echoed back by a tty
            return
        self._last_rx = now
        if kind == "ERR":
            self._count("device_errors")
            self._outbox.append(DeviceError(msg["code"], msg["detail"]))
            if msg["code"] == "OVF" and self._phase == _RUN:
                self._resync("controller event overflow", now)
        elif kind == "HI":
            self._on_hi(msg, now)
        elif self._phase == _HANDSHAKE:
            pass  # leftovers from before our HELLO
        elif kind == "ACK":
            self._pending.pop(msg["id"], None)
        elif kind in ("ADD", "DEL"):
            self._on_tag(msg, now)
        elif kind == "HB":
            if self._phase == _RUN and msg["seq"] != self._last_seq:
                self._seq_fault(msg["seq"], f"heartbeat at seq {msg['seq']}", now)
        elif kind == "INV":
            self._on_item(msg, now)
        elif kind == "END":
            self._on_end(msg)

    def _on_hi(self, msg: Message, now: float) -> None:
        if self._phase == _HANDSHAKE:
            if msg["id"] != self._hello_id:
                return
        elif msg["id"] == self._hello_id:
            return  # a late answer to a repeated HELLO
        else:
            self._count("device_resets")  # unsolicited: the controller restarted
        if msg["ver"] != proto.PROTOCOL_VERSION:
            raise _Lost(f"controller speaks protocol {msg['ver']}, host speaks {proto.PROTOCOL_VERSION}")
        self._device = DeviceInfo(msg["ver"], msg["fw"], msg["ants"])
        with self._ledlock:
            for ant in [a for a in self._leds if a >= msg["ants"]]:
                log.warning("reader: no antenna %d on this controller, its LED is dropped", ant)
                del self._leds[ant]
            self._led_todo.clear()  # stated below, all of them
        self._last_seq = msg["seq"]
        self._pending.clear()
        self._send_led(None, 1)  # the controller's LEDs are unknown: state them all again
        self._resync("handshake" if self._phase == _HANDSHAKE else "controller restarted", now)

    def _resync(self, reason: str, now: float) -> None:
        log.info("reader: inventory resync (%s)", reason)
        self._phase = _SYNC
        self._tries = 0
        self._send_invq(now)

    def _send_invq(self, now: float) -> None:
        self._tries += 1
        self._items = None
        self._due = now + self.inventory_timeout
        self._send({"type": "INVQ", "id": self._new_id()})

    def _seq_fault(self, seq: int, what: str, now: float) -> None:
        ahead = proto.seq_after(self._last_seq, seq)
        self._count("gaps" if ahead < proto.SEQ_MOD // 2 else "stale")
        self._resync(f"{what} after {self._last_seq}", now)

    def _on_tag(self, msg: Message, now: float) -> None:
        if self._phase != _RUN:
            return  # the inventory being fetched already includes it
        ahead = proto.seq_after(self._last_seq, msg["seq"])
        if ahead == 0:
            self._count("duplicates")
            return
        if ahead != 1:
            self._seq_fault(msg["seq"], f"event {msg['seq']}", now)
            return
        self._last_seq = msg["seq"]
        ant, uid = msg["ant"], msg["uid"]
        if ant not in self._inv:  # beyond the antenna count
            self._link_reject("antenna")
            return
        tags = self._inv[ant]
        if msg["type"] == "ADD" and uid not in tags:
            self._inv[ant] = tags | {uid}
            self._outbox.append(TagPresent(ant, uid))
        elif msg["type"] == "DEL" and uid in tags:
            self._inv[ant] = tags - {uid}
            self._outbox.append(TagRemoved(ant, uid))

    def _on_item(self, msg: Message, now: float) -> None:
        if self._phase != _SYNC:
            return  # answer to a request already satisfied
        if msg["idx"] == 0:
            self._items = []
        assert self._device is not None  # SYNC only follows a HI
        if self._items is None or msg["idx"] != len(self._items) or msg["ant"] >= self._device.antennas:
            self._items = None  # a lost, repeated or bad item: the END will not match
            return
        self._items.append((msg["ant"], msg["uid"]))
        self._due = now + self.inventory_timeout  # a long answer is progress, not a timeout

    def _on_end(self, msg: Message) -> None:
        if self._phase != _SYNC:
            return
        items = self._items if self._items is not None else ([] if msg["count"] == 0 else None)
        self._items = None
        if items is None or len(items) != msg["count"]:
            self._count("inventory_incomplete")
            if self._tries >= self.inventory_attempts:
                raise _Lost("inventory answers keep arriving incomplete")
            self._send_invq(self._clock())
            return
        assert self._device is not None
        new: dict[int, set[str]] = {a: set() for a in range(self._device.antennas)}
        for ant, uid in items:
            new[ant].add(uid)
        old, none = self._inv, frozenset[str]()
        added = tuple((a, u) for a in sorted(new) for u in sorted(new[a] - old.get(a, none)))
        removed = tuple((a, u) for a in sorted(set(old) | set(new))  # antennas may have gone
                        for u in sorted(old.get(a, none) - new.get(a, none)))
        self._inv = {a: frozenset(t) for a, t in new.items()}
        self._last_seq = msg["seq"]
        self._phase = _RUN
        self._count("resyncs")
        self._outbox.append(InventoryReplaced(dict(self._inv), added, removed))
        if self._state is not LinkState.READY:
            if self._was_ready:
                self._count("reconnects")
            self._was_ready = True
            self._backoff = self.backoff_initial
            self._set_state(LinkState.READY, "handshake and inventory done")

    # ---- bookkeeping ------------------------------------------------------------------------

    def _count(self, name: str) -> None:
        self._counts[name] = self._counts.get(name, 0) + 1

    def _link_reject(self, reason: str) -> None:
        self._link_rejects[reason] = self._link_rejects.get(reason, 0) + 1

    def _set_state(self, state: LinkState, reason: str) -> None:
        if state is not self._state:
            self._state = state
            log.info("reader link %s: %s", state.value, reason)
            self._outbox.append(LinkStateChanged(state, reason, self._device))

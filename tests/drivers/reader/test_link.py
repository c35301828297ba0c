"""ReaderLink against the virtual controller over a real pseudo-terminal: handshake, events, LEDs."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest

from drivers.reader import protocol as proto
from drivers.reader.link import (
    DeviceError,
    InventoryReplaced,
    LinkCommandError,
    LinkEvent,
    LinkState,
    LinkStateChanged,
    ReaderLink,
    TagPresent,
    TagRemoved,
)
from drivers.reader.virtual import VirtualReader, wait_until

UIDS = ["04A1B2C3D4E5F6", "1A2B3C4D", "0102030405060708090A", "DEADBEEF", "04AABBCCDDEEFF"]
WAIT = 10.0  # generous: a loaded 2-core CI machine must not fail on time
FAST = dict(heartbeat_interval=0.1, heartbeat_timeout=1.0, handshake_timeout=0.3,
            inventory_timeout=0.5, ack_timeout=0.2, backoff_initial=0.02, backoff_max=0.2)


class Recorder:
    """The consumer: keeps every event and rebuilds the sensed state from them alone."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events: list[LinkEvent] = []
        self.view: dict[int, set[str]] = {}
        self.bad_diffs = 0

    def __call__(self, event: LinkEvent) -> None:
        with self.lock:
            self.events.append(event)
            if isinstance(event, TagPresent):
                self.view.setdefault(event.antenna, set()).add(event.uid)
            elif isinstance(event, TagRemoved):
                self.view.setdefault(event.antenna, set()).discard(event.uid)
            elif isinstance(event, InventoryReplaced):
                for ant, uid in event.removed:
                    self.view.setdefault(ant, set()).discard(uid)
                for ant, uid in event.added:
                    self.view.setdefault(ant, set()).add(uid)
                if nonempty(self.view) != nonempty(event.inventory):
                    self.bad_diffs += 1  # the diff did not take us to the snapshot

    def sensed(self) -> dict[int, frozenset[str]]:
        """What a consumer applying only the events believes is on the table."""
        with self.lock:
            return nonempty(self.view)

    def of(self, kind: type) -> list:
        """Events of one type, in order."""
        with self.lock:
            return [e for e in self.events if isinstance(e, kind)]

    def states(self) -> list[LinkState]:
        """Link states entered, in order."""
        return [e.state for e in self.of(LinkStateChanged)]


def nonempty(inv) -> dict[int, frozenset[str]]:
    """An inventory without its empty antennas."""
    return {a: frozenset(t) for a, t in inv.items() if t}


def in_sync(link: ReaderLink, sim: VirtualReader, rec: Recorder) -> bool:
    """Link, consumer and controller all agree, with nothing outstanding."""
    return (link.synced and link.last_seq == sim.seq and link.inventory == sim.inventory
            and rec.sensed() == nonempty(sim.inventory))


def wait_sync(link: ReaderLink, sim: VirtualReader, rec: Recorder) -> None:
    """Wait until in_sync, failing with the details otherwise."""
    assert wait_until(lambda: in_sync(link, sim, rec), WAIT), (
        link.state, link.synced, link.last_seq, sim.seq, link.inventory, sim.inventory, link.stats)
    assert rec.bad_diffs == 0
    assert "internal_errors" not in link.stats.extra


@pytest.fixture
def sim() -> Iterator[VirtualReader]:
    with VirtualReader(8, heartbeat_interval=0.1, seed=11) as reader:
        yield reader


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def link(sim, rec) -> Iterator[ReaderLink]:
    lk = ReaderLink(sim.path, 115200, rec, **FAST)
    yield lk
    lk.stop()


def test_handshake_then_initial_inventory_then_ready(sim, rec, link):
    sim.place(2, UIDS[0])
    sim.place(7, UIDS[1])
    assert link.state is LinkState.CONNECTING and not link.synced
    link.start()
    wait_sync(link, sim, rec)
    assert link.device is not None
    assert (link.device.protocol, link.device.firmware, link.device.antennas) == (2, "zt-sim-1", 8)
    assert rec.states() == [LinkState.READY]
    first = rec.of(InventoryReplaced)[0]
    assert first.added == ((2, UIDS[0]), (7, UIDS[1])) and first.removed == ()
    assert set(link.inventory) == set(range(8))
    assert rec.events.index(first) < rec.events.index(rec.of(LinkStateChanged)[0])


def test_place_and_remove_become_events_in_order(sim, rec, link):
    link.start()
    wait_sync(link, sim, rec)
    sim.place(3, UIDS[0])
    sim.place(3, UIDS[1])
    sim.remove(3, UIDS[0])
    sim.place(0, UIDS[2])
    wait_sync(link, sim, rec)
    tags = [e for e in rec.events if isinstance(e, (TagPresent, TagRemoved))]
    assert tags == [TagPresent(3, UIDS[0]), TagPresent(3, UIDS[1]), TagRemoved(3, UIDS[0]),
                    TagPresent(0, UIDS[2])]
    assert link.inventory[3] == {UIDS[1]} and link.last_seq == 4
    stats = link.stats
    assert stats.resyncs == 1 and stats.gaps == 0 and stats.rejected == {}
    assert stats.frames_ok >= 6


def test_led_commands_reach_the_controller(sim, rec, link):
    link.start()
    wait_sync(link, sim, rec)
    assert link.set_led(1, (255, 0, 0)) and link.set_led(5, (0, 16, 255))
    assert wait_until(lambda: sim.leds[1] == (255, 0, 0) and sim.leds[5] == (0, 16, 255), WAIT)
    assert link.set_led(1, (0, 0, 0))
    assert wait_until(lambda: sim.leds[1] == (0, 0, 0), WAIT)
    assert link.leds == {5: (0, 16, 255)}
    assert link.leds_off()
    assert wait_until(lambda: set(sim.leds.values()) == {(0, 0, 0)}, WAIT)
    assert link.leds == {}
    assert sim.host_rejected == {}


def test_led_frames_are_what_the_protocol_encodes():
    link = ReaderLink("/dev/null-nothing", 115200)
    link._leds.wish({0: (255, 0, 16), 7: (1, 2, 3)})
    talk = link._talk
    talk._next_id = 65534
    frames = talk.led_frames(7, 1) + talk.led_frames(None, 1)
    assert frames == [proto.encode({"type": "LED", "id": 65535, "ant": 7, "rgb": "010203"}),
                      proto.encode({"type": "LEDOFF", "id": 1}),
                      proto.encode({"type": "LED", "id": 2, "ant": 0, "rgb": "FF0010"}),
                      proto.encode({"type": "LED", "id": 3, "ant": 7, "rgb": "010203"})]
    assert set(talk.pending) == {65535, 1, 2, 3}
    link.stop()


def record_port_writes(link: ReaderLink, monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every write to the link's port, whichever way it goes (one write(2) on its descriptor, or
    pyserial's `write` for what that left)."""
    writes: list[bytes] = []
    with link._wlock:
        port = link._serial
        assert port is not None
        write, fd = port.write, port.fd
        port.write = lambda data: writes.append(data) or write(data)  # type: ignore[method-assign]
    real = os.write

    def os_write(to: int, data: bytes) -> int:
        n = real(to, data)
        if to == fd:
            writes.append(data[:n])
        return n

    monkeypatch.setattr(os, "write", os_write)
    return writes


def test_led_wishes_go_in_one_write_and_are_done_once_acknowledged(sim, rec, link, monkeypatch):
    link.start()
    wait_sync(link, sim, rec)
    assert link.leds_done() and link.cpu_seconds() > 0
    writes = record_port_writes(link, monkeypatch)
    link._leds.wish({2: (1, 0, 0), 3: (0, 1, 0), 4: (0, 0, 1)})  # made before the link's thread looks
    link._waker.wake()
    assert wait_until(link.leds_done, WAIT)
    assert [sim.leds[a] for a in (2, 3, 4)] == [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
    led_writes = [w for w in writes if w.startswith(b"$LED")]
    assert led_writes == [proto.encode({"type": "LEDS", "id": int(led_writes[0].split()[1]),
                                        "leds": "2:010000,3:000100,4:000001"})]  # one frame for the three
    assert link.stats.command_retries == 0 and sim.host_rejected == {}


def test_a_controller_speaking_version_1_gets_one_frame_per_led(rec, monkeypatch):
    with VirtualReader(8, heartbeat_interval=0.1, version=1) as sim:
        link = ReaderLink(sim.path, on_event=rec, **FAST).start()
        try:
            wait_sync(link, sim, rec)
            assert link.device is not None and link.device.protocol == 1
            writes = record_port_writes(link, monkeypatch)
            link.set_leds({2: (1, 0, 0), 3: (0, 1, 0), 4: (0, 0, 1)})
            assert wait_until(link.leds_done, WAIT)
            assert [sim.leds[a] for a in (2, 3, 4)] == [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
            led_writes = [w for w in writes if w.startswith(b"$LED")]
            assert len(led_writes) == 1 and led_writes[0].count(b"\n") == 3
            assert all(line.startswith(b"$LED ") for line in led_writes[0].splitlines())
            assert link.stats.command_retries == 0 and sim.host_rejected == {}
        finally:
            link.stop()


def test_many_leds_go_in_frames_that_fit(rec):
    link = ReaderLink("/dev/null-nothing", 115200)
    talk = link._talk
    talk.version = proto.LEDS_VERSION
    link._leds.wish({a: (200 + a % 50, a, 255) for a in range(100, 240, 7)})
    frames = talk.led_frames(tuple(range(100, 240, 7)), 1)
    assert len(frames) > 1 and all(len(f) <= proto.MAX_FRAME for f in frames)
    said = [proto.decode_line(f[:-1]) for f in frames]
    assert [a for m in said for a, _ in proto.led_items(m["leds"])] == list(range(100, 240, 7))
    assert {m["id"] for m in said} == set(talk.pending)
    link.stop()


def test_set_leds_wakes_the_link_once_and_a_bad_wish_changes_none(sim, rec, link, monkeypatch):
    link.start()
    wait_sync(link, sim, rec)
    wakes: list[bytes] = []
    writes = record_port_writes(link, monkeypatch)
    recording = os.write

    def counting_write(fd: int, data: bytes) -> int:
        if fd == link._waker.write_fd:
            wakes.append(data)
        return recording(fd, data)

    os.write = counting_write  # type: ignore[assignment]
    try:
        with pytest.raises(LinkCommandError):
            link.set_leds({2: (1, 0, 0), 9: (0, 0, 1)})  # antenna 9 is out of range
        assert link.leds == {} and wakes == []
        assert link.set_leds({2: (1, 0, 0), 3: (0, 1, 0), 4: (0, 0, 1), 5: (9, 9, 9)})
    finally:
        os.write = recording  # type: ignore[assignment]
    assert len(wakes) == 1
    assert wait_until(link.leds_done, WAIT)
    assert [sim.leds[a] for a in (2, 3, 4, 5)] == [(1, 0, 0), (0, 1, 0), (0, 0, 1), (9, 9, 9)]
    led_writes = [w for w in writes if w.startswith(b"$LEDS ")]
    assert len(led_writes) == 1 and led_writes[0].count(b"\n") == 1


@pytest.mark.parametrize("antenna, rgb", [
    (8, (1, 2, 3)), (-1, (1, 2, 3)), (True, (1, 2, 3)), ("3", (1, 2, 3)),
    (3, (256, 0, 0)), (3, (-1, 0, 0)), (3, (1, 2)), (3, [1, 2, 3]), (3, (1.0, 2, 3)),
])
def test_bad_led_commands_raise_and_change_nothing(sim, rec, link, antenna, rgb):
    link.start()
    wait_sync(link, sim, rec)
    link.set_led(2, (9, 9, 9))
    with pytest.raises(LinkCommandError) as info:
        link.set_led(antenna, rgb)
    assert isinstance(info.value, ValueError)
    assert link.leds == {2: (9, 9, 9)}


def test_leds_wanted_before_connecting_are_sent_at_handshake(sim, rec, link):
    assert link.set_led(4, (0, 255, 0)) is False  # no controller yet: kept for later
    link.start()
    assert wait_until(lambda: sim.leds[4] == (0, 255, 0), WAIT)


def test_request_inventory_replaces_with_an_empty_diff(sim, rec, link):
    assert link.request_inventory() is False
    link.start()
    sim.place(6, UIDS[3])
    wait_sync(link, sim, rec)
    before, seen = link.stats.resyncs, len(rec.of(InventoryReplaced))
    assert link.request_inventory() is True
    # the link counts the resync under its lock and hands the event to the consumer just after:
    # wait for the event itself, not only the counter, before reading it
    assert wait_until(lambda: len(rec.of(InventoryReplaced)) == seen + 1 and link.synced, WAIT)
    assert link.stats.resyncs == before + 1
    last = rec.of(InventoryReplaced)[-1]
    assert last.added == () and last.removed == () and nonempty(last.inventory) == {6: {UIDS[3]}}


def test_device_errors_are_reported_and_overflow_resyncs(sim, rec, link):
    link.start()
    wait_sync(link, sim, rec)
    before = link.stats.resyncs
    sim.inject(proto.encode({"type": "ERR", "code": "ANT", "detail": "7 no answer"}))
    sim.inject(proto.encode({"type": "ERR", "code": "OVF"}))
    assert wait_until(lambda: len(rec.of(DeviceError)) == 2 and link.stats.resyncs > before, WAIT)
    assert rec.of(DeviceError) == [DeviceError("ANT", "7 no answer"), DeviceError("OVF", "")]
    assert link.stats.device_errors == 2
    wait_sync(link, sim, rec)


def test_echoed_host_frames_are_rejected(sim, rec, link):
    link.start()
    wait_sync(link, sim, rec)
    sim.inject(proto.encode({"type": "LED", "id": 1, "ant": 1, "rgb": "FFFFFF"}))
    assert wait_until(lambda: link.stats.rejected.get("direction") == 1, WAIT)
    assert link.state is LinkState.READY


def test_callback_errors_do_not_stop_the_link(sim, link):
    seen: list[LinkEvent] = []

    def fragile(event: LinkEvent) -> None:
        seen.append(event)
        if isinstance(event, TagPresent):
            raise RuntimeError("consumer bug")

    lk = ReaderLink(sim.path, on_event=fragile, **FAST).start()
    try:
        assert wait_until(lambda: lk.synced, WAIT)
        sim.place(1, UIDS[0])
        sim.place(2, UIDS[1])
        assert wait_until(lambda: lk.stats.callback_errors == 2 and lk.inventory[2] == {UIDS[1]}, WAIT)
    finally:
        lk.stop()


def test_nonexistent_port_keeps_reconnecting_with_backoff(rec):
    link = ReaderLink("/nonexistent/zebra-table-reader", on_event=rec, **FAST)
    assert link.set_led(3, (1, 1, 1)) is False
    link.start()
    try:
        assert wait_until(lambda: link.stats.open_failures >= 4, WAIT)
        assert link.state is LinkState.RECONNECTING and not link.synced
        assert rec.states() == [LinkState.RECONNECTING]  # reported once, not at every attempt
        assert "no reader" in rec.of(LinkStateChanged)[0].reason
        assert link.request_inventory() is False and link.leds == {3: (1, 1, 1)}
    finally:
        link.stop()
    assert rec.states() == [LinkState.RECONNECTING, LinkState.STOPPED]


def test_reader_plugged_in_after_start(sim, rec, link):
    sim.disappear()
    link.start()
    assert wait_until(lambda: link.stats.open_failures >= 2, WAIT)
    sim.place(1, UIDS[4])
    sim.reappear()
    wait_sync(link, sim, rec)
    assert rec.states() == [LinkState.RECONNECTING, LinkState.READY]
    assert link.stats.reconnects == 0  # first time ready: not a reconnection


def test_the_back_off_starts_afresh_once_ready(sim, rec, link):
    sim.disappear()
    link.start()
    assert wait_until(lambda: link.stats.open_failures >= 4, WAIT)
    assert link._backoff > FAST["backoff_initial"]  # doubled at each failed open
    sim.reappear()
    wait_sync(link, sim, rec)
    assert wait_until(lambda: link._backoff == FAST["backoff_initial"], WAIT)


def test_incompatible_controller_is_refused():
    rec = Recorder()
    with VirtualReader(4, heartbeat_interval=0.1, announce=3) as sim:
        link = ReaderLink(sim.path, on_event=rec, **FAST).start()
        try:
            assert wait_until(lambda: rec.states() == [LinkState.RECONNECTING], WAIT)
            assert "protocol 3" in rec.of(LinkStateChanged)[0].reason
            assert wait_until(lambda: sim.host_frames >= 2, WAIT)  # it keeps trying
            assert link.state is LinkState.RECONNECTING
        finally:
            link.stop()


def test_stop_closes_and_joins(sim, rec, link):
    link.start()
    wait_sync(link, sim, rec)
    link.stop()
    assert link.state is LinkState.STOPPED and rec.states()[-1] is LinkState.STOPPED
    count = len(rec.events)
    sim.place(0, UIDS[0])
    assert not wait_until(lambda: len(rec.events) > count, 0.3)
    assert not any(t.name == "reader-link" and t.is_alive() for t in threading.enumerate())
    link.stop()  # twice is harmless


def test_led_wishes_never_wait_for_a_controller_that_stops_reading(sim, rec):
    """The loop lights LEDs through set_led: a hung controller (the port's write waiting for its
    timeout) must not hold it. The wishes are sent by the link's thread once it reads again."""
    link = ReaderLink(sim.path, 115200, rec, write_timeout=2.0, **FAST)
    try:
        link.start()
        wait_sync(link, sim, rec)
        sim.stall_reading()
        longest, start = 0.0, time.monotonic()
        for i in range(6000):  # far more bytes than the pseudo-terminal holds
            t = time.monotonic()
            link.set_led(i % 8, (i % 256, 0, 1))
            longest = max(longest, time.monotonic() - t)
        took = time.monotonic() - start
        assert longest < 0.2 and took < 3.0, (longest, took)
        sim.resume_reading()
        want = {a: ((5992 + a) % 256, 0, 1) for a in range(8)}  # the last wish for each LED
        assert link.leds == want
        assert wait_until(lambda: all(sim.leds.get(a) == rgb for a, rgb in want.items()), WAIT), sim.leds
    finally:
        link.stop()

"""The reference firmware's controller logic (deploy/firmware/zt_device.py) on CPython.

Fake readers and a fake clock stand for the hardware; everything the controller writes is read
back with the host's parser (drivers.reader.protocol), and the device frames of the shared test
vectors (tests/data/protocol_vectors.json) are reproduced byte for byte.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from drivers.reader import protocol as host

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "deploy" / "firmware"))

import zt_device  # noqa: E402
from zt_device import Controller  # noqa: E402

VECTORS = json.loads((ROOT / "tests" / "data" / "protocol_vectors.json").read_text())


class FakeReader:
    """An antenna: the tags on it, scans that miss them, a chip that fails."""

    def __init__(self):
        self.tags: list[str] = []
        self.skip = 0  # the next scans that miss every tag (a flickering reader)
        self.error: str | None = None
        self.scans = 0

    def scan(self) -> list[str]:
        self.scans += 1
        if self.error is not None:
            raise OSError(self.error)
        if self.skip:
            self.skip -= 1
            return []
        return list(self.tags)


class FakeLeds:
    def __init__(self):
        self.colour: dict[int, tuple[int, int, int]] = {}
        self.shown: dict[int, tuple[int, int, int]] = {}

    def set(self, ant, rgb):
        self.colour[ant] = rgb

    def off(self):
        self.colour = {}

    def show(self):
        self.shown = dict(self.colour)


class Clock:
    def __init__(self, start: int = 0):
        self.now = start

    def __call__(self) -> int:
        return self.now


class Rig:
    """A controller on fakes; `out()` returns and clears what it sent, parsed by the host."""

    def __init__(self, antennas: int = 43, **kw):
        self.readers = [FakeReader() for _ in range(antennas)]
        self.leds = FakeLeds()
        self.clock = Clock()
        self.wire = bytearray()
        self.parser = host.FrameParser()
        self.ctl = Controller(self.readers, self.leds, self.wire.extend, self.clock, **kw)

    def raw(self) -> bytes:
        data = bytes(self.wire)
        self.wire.clear()
        return data

    def out(self) -> list[dict]:
        msgs = self.parser.feed(self.raw())
        assert self.parser.rejected == {}, self.parser.rejected
        return msgs

    def send(self, msg: dict) -> list[dict]:
        self.ctl.receive(host.encode(msg))
        return self.out()

    def sweep(self, times: int = 1) -> None:
        for _ in range(times):
            for ant in range(len(self.readers)):
                self.ctl.scan(ant)


def frames_for(vector: str) -> bytes:
    """Drive a controller into writing the device frame `vector`; returns everything it wrote."""
    kind = vector[1:].split(" ")[0].split("*")[0]
    rig = Rig(255 if " 254 " in vector else 43, firmware="zt-pico-0.3")
    if kind == "HI":
        if vector.startswith("$HI 0"):
            rig.ctl.start()
        else:
            rig.ctl.receive(host.encode({"type": "HELLO", "id": 1, "ver": 1}))
    elif kind == "ACK":
        rig.ctl.receive(host.encode({"type": "LED", "id": 3, "ant": 1, "rgb": "FF0000"}))
    elif kind in ("ADD", "DEL"):
        seq, ant, uid = (int(x) if x.isdigit() else x for x in vector[1:vector.index("*")].split(" ")[1:])
        rig.ctl.seq = (seq - 1 - (kind == "DEL")) % 65536
        rig.readers[ant].tags = [uid]
        rig.sweep()
        if kind == "DEL":
            rig.readers[ant].tags = []
            rig.sweep(3)
    elif kind in ("INV", "END", "HB"):
        if "END 2 0 0" not in vector:
            rig.readers[3].tags = ["04A1B2C3D4E5F6"]
            rig.readers[30].tags = ["1A2B3C4D"]
            rig.sweep()
            rig.ctl.seq = 17
        if kind == "HB":
            rig.ctl.tick()
        else:
            rig.ctl.receive(host.encode({"type": "INVQ", "id": 2}))
    elif kind == "ERR" and "FRAME" in vector:
        rig.ctl.receive(b"$HB 17*0000\n")
    elif kind == "ERR" and "ANT 7" in vector:
        rig.readers[7].error = "reader chip not answering"
        rig.ctl.scan(7)
    return rig.raw()


DEVICE_VECTORS = [v for v in VECTORS["valid"] if v["direction"] == "device" and "OVF" not in v["frame"]]


@pytest.mark.parametrize("vec", DEVICE_VECTORS, ids=lambda v: v["frame"].strip())
def test_device_writes_the_shared_vector_frames(vec):
    written = frames_for(vec["frame"])
    lines = written.split(b"\n")
    assert vec["frame"].encode()[:-1] in lines
    parser = host.FrameParser()
    assert vec["message"] in parser.feed(written) and parser.rejected == {}


@pytest.mark.parametrize("vec", [v for v in VECTORS["valid"] if v["direction"] == "host"],
                         ids=lambda v: v["frame"].strip())
def test_every_host_vector_is_answered(vec):
    rig = Rig(255)
    rig.ctl.receive(vec["frame"].encode())
    answer = rig.out()
    want = {"HELLO": "HI", "INVQ": "END", "LED": "ACK", "LEDS": "ACK", "LEDOFF": "ACK"}.get(vec["message"]["type"])
    assert [m["type"] for m in answer] == ([want] if want else [])
    if want:
        assert answer[0]["id"] == vec["message"]["id"]


@pytest.mark.parametrize("vec", VECTORS["invalid"], ids=lambda v: v["line"][:40])
def test_invalid_vector_lines_get_err_frame_with_their_reason(vec):
    rig = Rig()
    rig.ctl.receive(vec["line"].encode("latin-1") + b"\n")
    assert rig.out() == [{"type": "ERR", "code": "FRAME", "detail": vec["reason"]}]
    assert rig.ctl.host_seen is None  # a dropped line is no sign of a host


def test_stream_vector_and_device_messages_sent_to_the_device():
    rig = Rig()
    vec = VECTORS["stream"]
    rig.ctl.receive(vec["bytes"].encode("latin-1"))
    answer = rig.out()
    reasons = sorted(m["detail"] for m in answer if m["detail"] in host.REASONS)
    want = sorted(r for r, n in vec["rejected"].items() for _ in range(n))
    assert reasons == want
    cmd = [m for m in answer if m["code"] == "CMD"]
    assert [m["detail"] for m in cmd] == ["HB is not a host command", "ADD is not a host command",
                                          "ADD is not a host command"]


def test_start_announces_itself_and_clears_the_leds():
    rig = Rig(5, firmware="zt-test")
    rig.leds.colour = {1: (9, 9, 9)}
    rig.ctl.start()
    assert rig.out() == [{"type": "HI", "id": 0, "ver": 2, "fw": "zt-test", "ants": 5, "seq": 0}]
    assert rig.leds.shown == {}


@pytest.mark.parametrize("misses", [1, 3, 5])
def test_a_tag_is_gone_only_after_consecutive_misses(misses):
    rig = Rig(4, misses=misses)
    rig.readers[2].tags = ["DEADBEEF"]
    rig.sweep()
    assert rig.out() == [{"type": "ADD", "seq": 1, "ant": 2, "uid": "DEADBEEF"}]
    rig.readers[2].skip = misses - 1  # flickers: one miss short of gone
    rig.sweep(misses + 2)
    assert rig.out() == []
    rig.readers[2].tags = []
    rig.sweep(misses - 1)
    assert rig.out() == []
    rig.sweep()
    assert rig.out() == [{"type": "DEL", "seq": 2, "ant": 2, "uid": "DEADBEEF"}]


def test_sequence_numbers_count_events_only_and_wrap():
    rig = Rig(3)
    rig.ctl.seq = 65534
    rig.readers[0].tags = ["DEADBEEF", "CAFEF00D"]
    rig.sweep()
    rig.ctl.receive(host.encode({"type": "HELLO", "id": 4, "ver": 1}))
    rig.ctl.tick()
    msgs = rig.out()
    assert [(m["type"], m.get("seq")) for m in msgs] == [("ADD", 65535), ("ADD", 0), ("HI", 0), ("HB", 0)]


def test_inventory_is_atomic_and_says_up_to_which_event():
    rig = Rig(40)
    rig.readers[30].tags = ["1A2B3C4D"]
    rig.readers[3].tags = ["04A1B2C3D4E5F7", "04A1B2C3D4E5F6"]
    rig.sweep()
    rig.out()
    rig.ctl.receive(host.encode({"type": "INVQ", "id": 9}))
    assert rig.out() == [
        {"type": "INV", "idx": 0, "ant": 3, "uid": "04A1B2C3D4E5F6"},
        {"type": "INV", "idx": 1, "ant": 3, "uid": "04A1B2C3D4E5F7"},
        {"type": "INV", "idx": 2, "ant": 30, "uid": "1A2B3C4D"},
        {"type": "END", "id": 9, "count": 3, "seq": 3},
    ]


def test_heartbeat_every_second_without_bursts():
    rig = Rig(2)
    beats = []
    for ms in range(0, 3500, 100):
        rig.clock.now = ms
        rig.ctl.step()
        beats += [ms for m in rig.out() if m["type"] == "HB"]
    assert beats == [0, 1000, 2000, 3000]
    rig.clock.now = 60000  # the loop stalled for a minute: one heartbeat, then every second
    rig.ctl.tick()
    rig.clock.now = 60500
    rig.ctl.tick()
    rig.clock.now = 61000
    rig.ctl.tick()
    assert [m["type"] for m in rig.out()] == ["HB", "HB"]


def test_heartbeat_across_a_ticks_wrap():
    period = 1 << 30  # MicroPython's ticks_ms wraps here on the RP2040

    def diff(a: int, b: int) -> int:
        return ((a - b + period // 2) % period) - period // 2

    rig = Rig(2, ticks_diff=diff, ticks_add=lambda a, b: (a + b) % period)
    rig.clock.now = period - 1500
    rig.ctl.next_heartbeat = rig.clock.now
    beats = 0
    for step in range(31):
        rig.clock.now = (period - 1500 + step * 100) % period
        rig.ctl.tick()
        beats += sum(m["type"] == "HB" for m in rig.out())
    assert beats == 4  # at -1500, -500, +500, +1500 around the wrap


def test_hello_changes_nothing_and_old_hosts_are_refused():
    rig = Rig(4)
    rig.readers[1].tags = ["DEADBEEF"]
    rig.sweep()
    rig.send({"type": "LED", "id": 1, "ant": 2, "rgb": "00FF00"})
    rig.out()
    assert rig.send({"type": "HELLO", "id": 2, "ver": 7}) == [  # a newer host: our highest version
        {"type": "HI", "id": 2, "ver": 2, "fw": zt_device.FIRMWARE, "ants": 4, "seq": 1}]
    assert rig.send({"type": "HELLO", "id": 4, "ver": 1}) == [  # a host speaking version 1 is answered in 1
        {"type": "HI", "id": 4, "ver": 1, "fw": zt_device.FIRMWARE, "ants": 4, "seq": 1}]
    assert rig.leds.shown == {2: (0, 255, 0)} and rig.ctl.seq == 1
    assert rig.send({"type": "HELLO", "id": 3, "ver": 0}) == [
        {"type": "ERR", "code": "VERSION", "detail": "host speaks 0"}]


def test_leds_follow_the_host_and_bad_antennas_are_refused():
    rig = Rig(4)
    assert rig.send({"type": "LED", "id": 5, "ant": 3, "rgb": "FF8000"}) == [{"type": "ACK", "id": 5}]
    assert rig.leds.shown == {3: (255, 128, 0)}
    assert rig.send({"type": "LED", "id": 6, "ant": 4, "rgb": "FFFFFF"}) == [
        {"type": "ERR", "code": "ARG", "detail": "LED 6 antenna 4 >= 4"}]
    assert rig.leds.shown == {3: (255, 128, 0)}
    rig.sweep(5)  # scanning never touches an LED
    assert rig.leds.shown == {3: (255, 128, 0)}
    assert rig.send({"type": "LEDOFF", "id": 7}) == [{"type": "ACK", "id": 7}]
    assert rig.leds.shown == {}
    assert rig.send({"type": "PING"}) == [] and rig.ctl.host_present


def test_host_presence_follows_valid_frames():
    rig = Rig(2)
    assert not rig.ctl.host_present
    rig.send({"type": "PING"})
    rig.clock.now = 2999
    assert rig.ctl.host_present
    rig.clock.now = 3000
    assert not rig.ctl.host_present


def test_a_failing_chip_is_reported_once_keeps_its_tags_and_is_retried():
    rig = Rig(8, retry_ms=5000)
    rig.readers[7].tags = ["DEADBEEF"]
    rig.sweep()
    rig.out()
    rig.readers[7].error = "no answer from reader chip"
    rig.sweep(10)
    assert rig.out() == [{"type": "ERR", "code": "ANT", "detail": "7 no answer from reader chip"}]
    assert rig.readers[7].scans == 2  # not hammered: retried after retry_ms only
    rig.clock.now = 5000
    rig.readers[7].error = None
    rig.readers[7].tags = []
    rig.sweep(3)
    assert rig.out() == [{"type": "DEL", "seq": 2, "ant": 7, "uid": "DEADBEEF"}]
    rig.readers[7].error = "bad $ir*\x01"
    rig.sweep()
    assert rig.out() == [{"type": "ERR", "code": "ANT", "detail": "7 bad ir"}]
    rig.readers[6].error = ""
    rig.ctl.scan(6)
    assert rig.out() == [{"type": "ERR", "code": "ANT", "detail": "6 reader chip failed"}]


def test_garbled_uids_from_a_reader_are_ignored():
    rig = Rig(2)
    rig.readers[0].tags = ["XYZ", "04a1b2c3", "DEADBEEF", b"\x01\x02\x03\x04"]
    rig.sweep()
    assert rig.out() == [{"type": "ADD", "seq": 1, "ant": 0, "uid": "DEADBEEF"}]


def test_bad_construction_is_refused():
    with pytest.raises(ValueError):
        Controller([], FakeLeds(), print, Clock())
    with pytest.raises(ValueError):
        Controller([FakeReader()] * 256, FakeLeds(), print, Clock())
    with pytest.raises(ValueError):
        Controller([FakeReader()], FakeLeds(), print, Clock(), misses=0)


def test_one_leds_frame_sets_several_leds_and_a_bad_antenna_sets_none():
    rig = Rig(4)
    assert rig.send({"type": "LEDS", "id": 5, "leds": "0:FF0000,3:0000FF"}) == [{"type": "ACK", "id": 5}]
    assert rig.leds.shown == {0: (255, 0, 0), 3: (0, 0, 255)}
    assert rig.send({"type": "LEDS", "id": 6, "leds": "1:FFFFFF,4:FFFFFF"}) == [
        {"type": "ERR", "code": "ARG", "detail": "LEDS 6 antenna 4 >= 4"}]
    assert rig.leds.shown == {0: (255, 0, 0), 3: (0, 0, 255)}
    assert rig.send({"type": "LEDS", "id": 7, "leds": "0:000000"}) == [{"type": "ACK", "id": 7}]
    assert rig.leds.shown == {0: (0, 0, 0), 3: (0, 0, 255)}

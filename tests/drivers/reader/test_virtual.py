"""The virtual reader controller, driven by a bare pyserial host over its real pseudo-terminal."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import serial

from drivers.reader import protocol as proto
from drivers.reader.virtual import SimInputError, VirtualReader, wait_until

ROOT = Path(__file__).resolve().parents[3]

UID1, UID2, UID3 = "04A1B2C3D4E5F6", "1A2B3C4D", "0102030405060708090A"


class RawHost:
    """A minimal host: pyserial on the sim's path, frames decoded with the shared codec."""

    def __init__(self, path: str) -> None:
        self.port = serial.Serial(path, 115200, timeout=0.05)
        self.parser = proto.FrameParser()
        self.raw = b""

    def send(self, msg: dict) -> None:
        self.port.write(proto.encode(msg))

    def read(self, count: int, timeout: float = 5.0, skip_hb: bool = True) -> list[dict]:
        """The next `count` messages (heartbeats skipped unless asked)."""
        out: list[dict] = []
        deadline = time.monotonic() + timeout
        while len(out) < count and time.monotonic() < deadline:
            data = self.port.read(4096)
            self.raw += data
            out += [m for m in self.parser.feed(data) if not (skip_hb and m["type"] == "HB")]
        assert len(out) >= count, f"only {out} within {timeout} s"
        return out

    def quiet(self, seconds: float) -> list[dict]:
        """Everything (heartbeats skipped) that arrives within `seconds`."""
        out: list[dict] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            data = self.port.read(4096)
            self.raw += data
            out += [m for m in self.parser.feed(data) if m["type"] != "HB"]
        return out

    def close(self) -> None:
        self.port.close()


@pytest.fixture
def sim():
    with VirtualReader(8, heartbeat_interval=10.0, seed=3) as reader:
        yield reader


@pytest.fixture
def host(sim):
    h = RawHost(sim.path)
    yield h
    h.close()


def test_path_is_a_stable_symlink_to_a_raw_pty(sim):
    assert os.path.islink(sim.path)
    assert os.readlink(sim.path).startswith("/dev/pts/")
    assert sim.present


def test_handshake_reports_version_firmware_antennas_seq(sim, host):
    sim.place(2, UID1)
    host.send({"type": "HELLO", "id": 7, "ver": 1})
    hi = [m for m in host.read(2) if m["type"] == "HI"]
    assert hi == [{"type": "HI", "id": 7, "ver": 1, "fw": "zt-sim-1", "ants": 8, "seq": 1}]


def test_events_inventory_and_leds(sim, host):
    assert sim.place(3, UID1) and sim.place(3, UID2) and sim.place(5, UID3.lower())
    assert not sim.place(3, UID1)  # already there: no event
    assert sim.remove(3, UID2) and not sim.remove(3, UID2)
    assert host.read(4) == [
        {"type": "ADD", "seq": 1, "ant": 3, "uid": UID1},
        {"type": "ADD", "seq": 2, "ant": 3, "uid": UID2},
        {"type": "ADD", "seq": 3, "ant": 5, "uid": UID3},
        {"type": "DEL", "seq": 4, "ant": 3, "uid": UID2},
    ]
    host.send({"type": "INVQ", "id": 9})
    assert host.read(3) == [
        {"type": "INV", "idx": 0, "ant": 3, "uid": UID1},
        {"type": "INV", "idx": 1, "ant": 5, "uid": UID3},
        {"type": "END", "id": 9, "count": 2, "seq": 4},
    ]
    host.send({"type": "LED", "id": 10, "ant": 4, "rgb": "FF8001"})
    assert host.read(1) == [{"type": "ACK", "id": 10}]
    assert sim.leds[4] == (255, 128, 1) and sim.leds[3] == (0, 0, 0)
    host.send({"type": "LEDOFF", "id": 11})
    assert host.read(1) == [{"type": "ACK", "id": 11}]
    assert set(sim.leds.values()) == {(0, 0, 0)}
    assert sim.inventory[3] == {UID1} and sim.seq == 4


def test_bad_host_input_gets_error_reports(sim, host):
    host.port.write(b"$LEDOFF 1*0000\n")
    host.send({"type": "HB", "seq": 1})
    host.send({"type": "LED", "id": 2, "ant": 200, "rgb": "FFFFFF"})
    errs = host.read(3)
    assert [(m["type"], m["code"]) for m in errs] == [("ERR", "FRAME"), ("ERR", "CMD"), ("ERR", "ARG")]
    assert errs[0]["detail"] == "checksum"
    assert sim.host_rejected == {"checksum": 1}


@pytest.mark.parametrize("bad", [(8, UID1), (-1, UID1), (True, UID1), (0, "XYZ"), (0, "04A1"),
                                 (0, 1234)])
def test_place_refuses_impossible_input(sim, bad):
    with pytest.raises(SimInputError):
        sim.place(*bad)
    assert sim.seq == 0


def test_drop_duplicate_reorder_faults(sim, host):
    sim.drop()
    sim.place(0, UID1)  # seq 1 lost
    sim.duplicate()
    sim.place(1, UID1)  # seq 2 twice
    sim.reorder()
    sim.place(2, UID1)  # seq 3 held back...
    sim.place(3, UID1)  # ...and sent after seq 4
    assert [m["seq"] for m in host.read(4)] == [2, 2, 4, 3]
    assert sim.faults_applied == {"drop": 1, "duplicate": 1, "reorder": 1}


def test_corrupt_truncate_and_garbage_are_rejected(sim, host):
    sim.corrupt()
    sim.place(0, UID1)
    sim.place(1, UID1)
    sim.truncate()
    sim.place(2, UID1)
    sim.inject(b"\x00\xffnoise")
    sim.place(3, UID1)
    sim.place(4, UID1)
    got = host.read(2)
    assert [m["seq"] for m in got] == [2, 5]  # 1 corrupted, 3 truncated into 4's line, 4 lost
    assert host.parser.accepted == 2 and sum(host.parser.rejected.values()) >= 2


def test_fault_kinds_and_skip_target_chosen_frames(sim, host):
    sim.drop(kinds=("ACK",), skip=1)
    for cid in (1, 2, 3):
        host.send({"type": "LEDOFF", "id": cid})
    assert host.read(2) == [{"type": "ACK", "id": 1}, {"type": "ACK", "id": 3}]


def test_heartbeats_stop_and_resume():
    with VirtualReader(2, heartbeat_interval=0.05) as sim:
        host = RawHost(sim.path)
        assert host.read(3, skip_hb=False)[:3] == [{"type": "HB", "seq": 0}] * 3
        sim.stop_heartbeats()
        sent = sim.frames_sent
        host.quiet(0.3)
        assert sim.frames_sent == sent
        sim.resume_heartbeats()
        assert host.read(1, skip_hb=False)[0] == {"type": "HB", "seq": 0}
        host.close()


def test_disappear_breaks_the_host_port_and_reappear_replaces_it(sim, host):
    sim.place(1, UID1)
    host.send({"type": "LED", "id": 1, "ant": 1, "rgb": "00FF00"})
    host.read(2)
    sim.disappear()
    assert not sim.present and not os.path.lexists(sim.path)
    with pytest.raises(serial.SerialException):
        host.port.write(b"x" * 10)
        host.port.read(10)
    with pytest.raises(serial.SerialException):
        serial.Serial(sim.path, 115200)
    sim.place(2, UID2)  # while unplugged: the tag is there, the frame is lost
    sim.reappear(reset=False)
    assert sim.present and os.path.islink(sim.path)
    host2 = RawHost(sim.path)
    host2.send({"type": "HELLO", "id": 2, "ver": 1})
    assert host2.read(1)[0]["seq"] == 2  # no reboot: sequence and LEDs kept
    assert sim.leds[1] == (0, 255, 0)
    host2.close()
    sim.disappear()
    sim.reappear()  # power cycled: seq and LEDs start again
    host3 = RawHost(sim.path)
    host3.send({"type": "HELLO", "id": 3, "ver": 1})
    assert host3.read(1)[0]["seq"] == 0
    assert sim.leds[1] == (0, 0, 0) and sim.inventory[2] == {UID2}
    host3.close()


def test_reset_announces_itself(sim, host):
    sim.place(1, UID1)
    host.read(1)
    sim.reset()
    assert host.read(1) == [{"type": "HI", "id": 0, "ver": 2, "fw": "zt-sim-1", "ants": 8, "seq": 0}]


def test_wait_until_times_out_and_succeeds():
    start = time.monotonic()
    assert not wait_until(lambda: False, timeout=0.05)
    assert time.monotonic() - start >= 0.05
    assert wait_until(lambda: True, timeout=0.0)


LEFT_OPEN = """
from drivers.reader.virtual import VirtualReader, wait_until
reader = VirtualReader(4, heartbeat_interval=0.01).start()
assert wait_until(lambda: reader.frames_sent > 0)  # its thread is running, its pty in use
print(reader.path)
"""


def test_a_readers_folder_goes_with_close_and_with_a_process_that_never_closed_it(tmp_path):
    """The pty's folder is the reader's own: `close` removes it, and so does the interpreter's exit
    when a program ends without closing its reader (`./dev sim` stopped, a test that left it)."""
    reader = VirtualReader(4, heartbeat_interval=10.0).start()
    folder = os.path.dirname(reader.path)
    assert os.path.islink(reader.path)
    reader.close()
    assert not os.path.exists(folder)
    out = subprocess.run([sys.executable, "-c", LEFT_OPEN], capture_output=True, text=True, timeout=60,
                         cwd=ROOT, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(str(tmp_path))  # the reader's folder was there
    assert list(tmp_path.iterdir()) == []

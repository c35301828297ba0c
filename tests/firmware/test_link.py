"""Both sides together: the reference firmware's controller on a pseudo-terminal, the host's
ReaderLink on the other end (handshake, inventory, events, LEDs, chip errors, device restart)."""

from __future__ import annotations

import os
import select
import sys
import threading
import time
import tty
from pathlib import Path

import pytest

from drivers.reader.link import DeviceError, LinkState, ReaderLink, TagPresent, TagRemoved
from drivers.reader.virtual import wait_until
from tests.firmware.test_device import FakeLeds, FakeReader

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "firmware"))

from zt_device import Controller


class PtyController:
    """The firmware's main loop on a pty: host bytes in, one antenna scanned per turn."""

    def __init__(self, antennas: int = 8):
        self.readers = [FakeReader() for _ in range(antennas)]
        self.leds = FakeLeds()
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # a byte pipe like a USB CDC port
        self.path = os.ttyname(self.slave)
        self.lock = threading.Lock()
        self.controller = self._new_controller()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _new_controller(self) -> Controller:
        return Controller(self.readers, self.leds, self._write, lambda: int(time.monotonic() * 1000))

    def _write(self, data: bytes) -> None:
        while data:
            data = data[os.write(self.master, data):]

    def restart(self) -> None:
        """The controller resets while the port stays open (a UART bridge): seq 0, HI 0."""
        with self.lock:
            self.controller = self._new_controller()
            self.controller.start()

    def _run(self) -> None:
        with self.lock:
            self.controller.start()
        while not self.stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.002)
            with self.lock:
                if ready:
                    self.controller.receive(os.read(self.master, 512))
                self.controller.step()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def device():
    dev = PtyController()
    dev.thread.start()
    yield dev
    dev.close()


def test_host_link_and_firmware_work_together(device: PtyController):
    events: list[object] = []
    device.readers[5].tags = ["04A1B2C3D4E5F6"]
    link = ReaderLink(device.path, on_event=events.append).start()
    try:
        assert wait_until(lambda: link.state is LinkState.READY, 5), link.state
        assert link.device.antennas == 8 and link.device.firmware == "zt-pico-1.1"
        assert wait_until(lambda: link.inventory.get(5) == frozenset({"04A1B2C3D4E5F6"}), 3)

        device.readers[2].tags = ["DEADBEEF"]
        assert wait_until(lambda: any(isinstance(e, TagPresent) and e.uid == "DEADBEEF" for e in events), 3)
        assert link.set_led(2, (0, 255, 0))
        assert wait_until(lambda: device.leds.shown.get(2) == (0, 255, 0), 3)

        device.readers[5].tags = []
        assert wait_until(lambda: any(isinstance(e, TagRemoved) and e.antenna == 5 for e in events), 3)
        assert wait_until(lambda: link.synced and link.last_seq == device.controller.seq == 3, 3)

        device.readers[7].error = "no answer from reader chip"
        assert wait_until(lambda: any(isinstance(e, DeviceError) and e.code == "ANT" for e in events), 3)

        device.restart()  # seq back to 0, LEDs off: the host re-handshakes and resends its LEDs
        assert wait_until(lambda: device.leds.shown.get(2) == (0, 255, 0), 5)
        assert wait_until(lambda: link.synced and link.last_seq == device.controller.seq, 5)
        device.readers[2].tags = []
        assert wait_until(lambda: link.inventory.get(2) == frozenset(), 3)
        assert link.stats.rejected == {}
    finally:
        link.stop()

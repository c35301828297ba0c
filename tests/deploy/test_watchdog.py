"""The systemd watchdog is fed by the event loop itself: pings stop when the loop stops or hangs.

zebra-table.service has WatchdogSec=: systemd kills and restarts the service when WATCHDOG=1
stops coming. These tests run the real Runtime.run with the Notifier pinging from the idle hook
`zebra-table run` uses (`watchdog_feeder`) against a fake NOTIFY_SOCKET.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

from drivers.buttons import ButtonEvent
from drivers.reader.virtual import wait_until
from firmware_host.apps.menu import MenuApp
from firmware_host.commands.run import watchdog_feeder
from firmware_host.loop.notify import Notifier
from firmware_host.loop.runtime import Runtime, Stop
from firmware_host.storage.config import parse_config, sim_config_text
from firmware_host.storage.tags import TagRegistry

INTERVAL = 0.02  # seconds between pings: WATCHDOG_USEC=40000, pinged at half the period


class Outputs:
    """Runtime outputs that can hang the loop inside a screen update, like a stuck I2C bus."""

    def __init__(self):
        self.hang = False
        self.hanging = threading.Event()
        self.release = threading.Event()

    def show(self, seat, frame):
        if self.hang:
            self.hanging.set()
            self.release.wait(10)

    def leds(self, zones):
        pass

    def cue(self, name):
        pass


class SystemdSocket:
    """The receiving end of $NOTIFY_SOCKET: counts what arrived."""

    def __init__(self, path: Path):
        self.path = str(path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.setblocking(False)
        self.messages: list[str] = []

    def pings(self) -> int:
        while True:
            try:
                self.messages.extend(self.sock.recv(4096).decode().split("\n"))
            except BlockingIOError:
                return self.messages.count("WATCHDOG=1")


@pytest.fixture
def loop(tmp_path, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", str(int(INTERVAL * 2e6)))
    systemd = SystemdSocket(tmp_path / "notify")
    notifier = Notifier(address=systemd.path)
    assert notifier.watchdog_interval == pytest.approx(INTERVAL)
    outputs = Outputs()
    runtime = Runtime(parse_config(sim_config_text()), TagRegistry(), outputs)
    thread = threading.Thread(target=runtime.run, kwargs={"on_idle": watchdog_feeder(runtime, notifier),
                                                         "max_wait": INTERVAL / 2},
                              daemon=True)
    thread.start()
    yield systemd, runtime, outputs, thread
    outputs.release.set()
    runtime.post(Stop())
    thread.join(5)
    systemd.sock.close()


def test_pings_come_while_the_loop_runs_and_stop_with_it(loop):
    systemd, runtime, outputs, thread = loop
    assert wait_until(lambda: systemd.pings() >= 5, 5)
    runtime.post(Stop())
    thread.join(5)
    assert not thread.is_alive()
    after_stop = systemd.pings()
    time.sleep(INTERVAL * 10)
    assert systemd.pings() == after_stop  # no WATCHDOG=1 once the loop has ended


def test_a_hung_loop_stops_pinging_so_systemd_restarts_it(loop):
    systemd, runtime, outputs, thread = loop
    assert wait_until(lambda: systemd.pings() >= 3, 5)
    outputs.hang = True
    runtime.post(ButtonEvent(1, "right", "press", 0.0))  # the menu's cursor moves: a screen update, which hangs
    assert outputs.hanging.wait(5)
    hung = systemd.pings()
    time.sleep(INTERVAL * 10)
    assert systemd.pings() == hung  # silence while the loop is stuck
    assert thread.is_alive()
    outputs.hang = False
    outputs.release.set()
    resumed = systemd.pings()
    assert wait_until(lambda: systemd.pings() >= resumed + 3, 5)  # the loop is back: pings again


def test_a_loop_that_only_fails_stops_pinging_and_pings_again_once_it_recovers(loop, monkeypatch):
    systemd, runtime, outputs, thread = loop
    assert wait_until(lambda: systemd.pings() >= 3, 5)
    frame = MenuApp.frame
    monkeypatch.setattr(MenuApp, "frame", lambda self, seat: 1 / 0)  # even the menu fails, every pass
    assert wait_until(lambda: not runtime.healthy, 5)
    failing = systemd.pings()
    time.sleep(INTERVAL * 10)
    assert systemd.pings() == failing and thread.is_alive()  # running, not progressing: no ping
    monkeypatch.setattr(MenuApp, "frame", frame)
    assert wait_until(lambda: runtime.healthy, 5)
    resumed = systemd.pings()
    assert wait_until(lambda: systemd.pings() >= resumed + 3, 5)

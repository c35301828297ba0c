"""Fixtures for the real-table suite: the table built from its config, and a person at it.

Run on the table, with the service stopped (it holds the hardware):
    sudo systemctl stop zebra-table
    sudo -u zebra-table zebra-table check --hw-tests      (or: pytest hw_tests -rs)
Every test skips, with its reason, when the hardware it needs is not there: no config at the
default path, a simulated config, no GPIO, no I2C buses, no reader port. Tests that need
someone to press buttons or lay tags skip with --unattended. --hw-simulated runs the suite on
the simulated table with a simulated person doing what is asked: the suite's own self-test.
"""

from __future__ import annotations

import glob
import os
import queue
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from firmware_host.commands.common import DEFAULT_PATH
from firmware_host.storage.config import TableConfig, load_config

ARROWS = {"left": "◀", "right": "▶", "ok": "OK"}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("zebra-table hardware")
    group.addoption("--hw-config", help=f"table config (default: $ZEBRA_TABLE_CONFIG or {DEFAULT_PATH})")
    group.addoption("--hw-timeout", type=float, default=20.0, help="seconds to wait for each press or tag")
    group.addoption("--unattended", action="store_true", help="skip the tests that need someone at the table")
    group.addoption("--hw-simulated", action="store_true",
                    help="test the simulated table (default config: the embedded one) with a simulated person")


def config_path(config: pytest.Config) -> str:
    """The config the suite tests: --hw-config, $ZEBRA_TABLE_CONFIG or the installed one."""
    return config.getoption("--hw-config") or os.environ.get("ZEBRA_TABLE_CONFIG") or DEFAULT_PATH


def service_running() -> bool:
    """True while the zebra-table service runs (and so owns the screens, pins and reader)."""
    if shutil.which("systemctl") is None:
        return False
    proc = subprocess.run(["systemctl", "is-active", "--quiet", "zebra-table.service"],
                          capture_output=True, timeout=10)
    return proc.returncode == 0


def why_no_table(path: str) -> str | None:
    """Why there is no real table to test here, or None when there is one."""
    if not os.path.exists(path):
        return f"no table config at {path}: not an installed table (deploy/install.sh, or --hw-config PATH)"
    if load_config(path).simulated:  # a broken config on a real table fails here, loudly
        return f"{path} uses the simulated reader (port = \"sim\"): not a real table"
    if not glob.glob("/dev/gpiochip*"):
        return "no GPIO (/dev/gpiochip*): not a Raspberry Pi"
    if service_running():
        return "the zebra-table service holds the hardware: sudo systemctl stop zebra-table"
    return None


@pytest.fixture(scope="session")
def simulated(pytestconfig: pytest.Config) -> bool:
    """True when the suite tests the simulated table (--hw-simulated)."""
    return bool(pytestconfig.getoption("--hw-simulated"))


@pytest.fixture(scope="session")
def table_config(pytestconfig: pytest.Config, simulated: bool) -> TableConfig:
    """The config of the table under test (skips when there is no real table)."""
    if simulated:
        return load_config(pytestconfig.getoption("--hw-config"))
    path = config_path(pytestconfig)
    reason = why_no_table(path)
    if reason:
        pytest.skip(reason)
    return load_config(path)


@pytest.fixture(scope="session")
def sim_table(table_config: TableConfig, simulated: bool) -> Iterator[Any]:
    """The simulated table behind --hw-simulated (None on a real table)."""
    if not simulated:
        yield None
        return
    from firmware_host.loop.simulator import SimTable

    sim = SimTable(table_config, threaded=True)
    try:
        assert sim.wait_ready(), "the simulated reader did not come up"
        yield sim
    finally:
        sim.close()


@pytest.fixture(scope="session")
def table(table_config: TableConfig, sim_table: Any) -> Iterator[Any]:
    """The real table, started (reader link running); closed after the suite."""
    if sim_table is not None:
        yield sim_table.table
        return
    from firmware_host.commands.common import load_registry
    from firmware_host.loop.table import open_table

    built = open_table(table_config, load_registry(table_config))  # TableSetupError = a failure
    built.start()
    try:
        yield built
    finally:
        built.close()


@pytest.fixture
def reader(table: Any) -> Any:
    """The table, for tests that need its reader controller plugged in."""
    port = table.link.port
    if not os.path.exists(port):
        pytest.skip(f"reader port {port} absent: is the controller plugged in? (udev rule, ls /dev/ttyACM*)")
    return table


@pytest.fixture
def screens(table: Any, simulated: bool) -> Any:
    """The table, for tests that need its I2C screens."""
    if not simulated and not glob.glob("/dev/i2c-*"):
        pytest.skip("no I2C bus (/dev/i2c-*): enable I2C (deploy/install.sh, then reboot)")
    if not table.screens.seats:
        pytest.skip("the config has no screens")
    return table


class Person:
    """Someone at the table, told what to do on the terminal and on the seat's screen."""

    def __init__(self, table: Any, say: Callable[[str], None], timeout: float):
        self.table = table
        self.say = say
        self.timeout = timeout

    def press(self, seat: int, button: str) -> None:
        """Ask for one button (the prompt of diagnostics.check_buttons)."""
        arrow = ARROWS.get(button, button)
        self.say(f"seat {seat}: press {arrow}")
        show_text(self.table, seat, ("Test des boutons", "Button test"), (f"Appuyez sur {arrow}", f"Press {arrow}"))

    def hold(self, seat: int, button: str) -> None:
        """Ask for one button held down (the prompt of diagnostics.check_long_press)."""
        from firmware_host.loop import diagnostics

        self.say(diagnostics.hold_instruction(self.table, seat, button))

    def ask(self, seat: int, question: str) -> str | None:
        """A yes/no question answered at `seat`: "ok" (yes), "left" (no) or None (no answer)."""
        self.say(f"{question} At seat {seat}: OK = yes, {ARROWS['left']} = no")
        return wait_press(self.table, seat, ("ok", "left"), self.timeout)

    def lay_tag(self, zone: str) -> None:
        """Ask for a tag on a zone (the prompt of diagnostics.check_antennas)."""
        self.say(f"lay the tag on {zone} (its LED is lit), then lift it")


class SimPerson(Person):
    """The simulated table's person: does at once what is asked, says yes to every question."""

    TAG = "5A7E57AB"

    def __init__(self, sim: Any, say: Callable[[str], None], timeout: float):
        super().__init__(sim.table, say, timeout)
        self.sim = sim
        self.laid: int | None = None

    def press(self, seat: int, button: str) -> None:
        super().press(seat, button)
        self.sim.buttons.click(seat, button)

    def hold(self, seat: int, button: str) -> None:
        super().hold(seat, button)
        self.sim.buttons.long_press(seat, button)

    def ask(self, seat: int, question: str) -> str | None:
        self.sim.buttons.click(seat, "ok")
        return super().ask(seat, question)

    def lay_tag(self, zone: str) -> None:
        super().lay_tag(zone)
        if self.laid is not None:
            self.sim.reader.remove(self.laid, self.TAG)
        self.laid = self.sim.antenna(zone)
        self.sim.reader.place(self.laid, self.TAG)


@pytest.fixture
def person(pytestconfig: pytest.Config, table: Any, sim_table: Any, say: Callable[[str], None],
           timeout: float) -> Person:
    """Someone at the table (skips with --unattended)."""
    if sim_table is not None:
        return SimPerson(sim_table, say, timeout)
    if pytestconfig.getoption("--unattended"):
        pytest.skip("needs someone at the table (--unattended)")
    return Person(table, say, timeout)


@pytest.fixture
def led_delay(simulated: bool) -> float:
    """Seconds each LED of the chase stays lit: long enough for an eye."""
    return 0.0 if simulated else 0.15


@pytest.fixture
def timeout(pytestconfig: pytest.Config) -> float:
    """Seconds to wait for each press or tag."""
    return float(pytestconfig.getoption("--hw-timeout"))


@pytest.fixture
def say(capsys: pytest.CaptureFixture[str]) -> Callable[[str], None]:
    """Print to the person at the table, past pytest's output capture."""
    def _say(text: str) -> None:
        with capsys.disabled():
            print(f"\n>>> {text}", file=sys.stdout, flush=True)
    return _say


def show_text(table: Any, seat: int, title: tuple[str, str], text: tuple[str, str]) -> None:
    """Put a short instruction on a seat's screen (French, English)."""
    from firmware_host.screens.frames import Frame
    from games.core import Screen, Text, tr

    if seat in table.screens.seats:
        table.outputs.show(seat, Frame(Screen(tr(*title), (Text(*text),))))


def wait_press(table: Any, seat: int, buttons: tuple[str, ...], timeout: float) -> str | None:
    """The first of `buttons` pressed on `seat` within `timeout` s (other presses ignored)."""
    from drivers.buttons import ButtonEvent

    deadline = time.monotonic() + timeout
    q = table.runtime.queue
    while time.monotonic() < deadline:
        try:
            ev = q.get(timeout=0.1)
        except queue.Empty:
            continue
        if isinstance(ev, ButtonEvent) and ev.kind == "press" and ev.seat == seat and ev.button in buttons:
            return ev.button
    return None


def drain(table: Any) -> None:
    """Forget queued events (presses and tags from before the test)."""
    while True:
        try:
            table.runtime.queue.get_nowait()
        except queue.Empty:
            return

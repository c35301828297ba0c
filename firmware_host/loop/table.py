"""The table's hardware wired to a runtime: reader link, seat buttons, screens, buzzer.

Real and simulated tables run the same code: the simulated one only swaps the pin factory
(gpiozero MockFactory), the screen opener (luma dummy devices) and the serial port (the virtual
reader controller's pseudo-terminal, opened by path like /dev/ttyACM0).
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drivers.buttons import ButtonPanel, SimButtonPanel
from drivers.buzzer import Buzzer
from drivers.i2c_sim import SimI2C, simulated_bank
from drivers.pins import make_pin_factory
from drivers.reader.events import (
    DeviceError,
    InventoryReplaced,
    LinkEvent,
    LinkStateChanged,
    TagPresent,
    TagRemoved,
)
from drivers.reader.link import ReaderLink
from drivers.screen_bank import ScreenBank
from drivers.screens import open_i2c
from firmware_host.loop.events import ReaderStatus, Snapshot, TagChange
from firmware_host.loop.runtime import Runtime
from firmware_host.screens.fonts import generation
from firmware_host.screens.frames import Frame
from firmware_host.screens.layout import Plan
from firmware_host.screens.render import frame_layout, frame_picture
from firmware_host.storage.config import TableConfig
from firmware_host.storage.journal import Journal
from firmware_host.storage.tags import TagRegistry
from games.core import Text

if TYPE_CHECKING:
    from PIL.Image import Image

log = logging.getLogger(__name__)

COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (255, 0, 0), "green": (0, 255, 0), "blue": (0, 0, 255), "yellow": (255, 180, 0),
    "white": (255, 255, 255), "orange": (255, 80, 0), "purple": (160, 0, 255), "cyan": (0, 200, 255),
}
OFF = (0, 0, 0)
GIL_SWITCH_INTERVAL = 0.0005  # seconds
MUX_PARENT_BUS = 1  # the simulated table's TCA9548A channels all hang off /dev/i2c-1, as on the Pi


class TableSetupError(RuntimeError):
    """The table's hardware could not be set up (no GPIO access, a bad pin, no serial support)."""


def open_table(config: TableConfig, registry: TagRegistry, **kwargs: Any) -> Table:
    """Build the table for a config, turning hardware set-up failures into one clear message."""
    try:
        return Table(config, registry, simulated=config.simulated, **kwargs)
    except (ValueError, OSError, RuntimeError) as exc:
        hint = ""
        if "pin factory" in str(exc):
            hint = (" — no GPIO access: run on a Raspberry Pi with python3-lgpio installed"
                    " (GPIOZERO_PIN_FACTORY=lgpio on a Pi 5), as a user in the gpio group")
        raise TableSetupError(f"cannot set up the table from {config.path}: {exc}{hint}") from exc


class TableOutputs:
    """Runtime outputs on the hardware: rendered frames to screens, zone LEDs, buzzer cues."""

    def __init__(self, config: TableConfig, screens: ScreenBank, link: ReaderLink, buzzer: Buzzer):
        self.config = config
        self.screens = screens
        self.link = link
        self.buzzer = buzzer
        self.antenna = config.zones
        self.lit: dict[str, str] = {}
        self.frames: dict[int, Frame] = {}
        self.language = config.language  # the runtime sets the players' choice
        # per seat, the layout its screen shows, the fonts' generation it was drawn with, and the
        # picture (anything else shown there since, a test pattern, is not this layout's)
        self.laid: dict[int, tuple[Plan, int, Image]] = {}

    def show(self, seat: int, frame: Frame) -> None:
        """Render and send a seat's frame; a frame whose layout is the one shown (a scroll step
        held at an end, a menu change past the visible entries, a message with no row to show
        it in) is neither drawn nor sent: its picture is the same."""
        self.frames[seat] = frame
        if seat not in self.screens.seats:
            return
        size = self.screens.size(seat)
        laid, k = None, None
        if frame.qr is None:  # a QR code's picture is not a layout's
            p, k = frame_layout(frame, self.language, size)
            laid = (p, generation())
            last = self.laid.get(seat)
            if last is not None and last[:2] == laid and self.screens.image(seat) is last[2]:
                return
        # a fresh image: the screens may keep it without copying
        image, rows = frame_picture(frame, self.language, size, k)
        self.screens.show(seat, image, owned=True, rows=rows)
        shown = self.screens.image(seat)  # this picture, or an identical one asked for before
        if laid is None or shown is None:
            self.laid.pop(seat, None)
        else:
            self.laid[seat] = (*laid, shown)

    def leds(self, zones: Mapping[str, str]) -> None:
        """Light the zones asked for, switch off the ones no longer asked for."""
        wishes = {self.antenna[zone]: OFF for zone in set(self.lit) - set(zones) if zone in self.antenna}
        for zone, colour in zones.items():
            if zone in self.antenna and self.lit.get(zone) != colour:
                wishes[self.antenna[zone]] = COLOURS.get(colour, COLOURS["white"])
        self.link.set_leds(wishes)  # one wake-up of the link's thread for the whole change
        self.lit = dict(zones)

    def sending(self) -> bool:
        """True while the screens' writers still send frames (the loop's idle work waits for them)."""
        return self.screens.sending()

    def cue(self, name: str) -> None:
        """Play a buzzer cue (silent without a buzzer)."""
        self.buzzer.play(name)


class Table:
    """Builds the hardware for a config and a runtime fed by it.

    `simulated=True` builds the virtual reader controller, mock pins and dummy screens; the
    simulator drives them through `sim_reader`, `sim_buttons` and `sim_screens`.
    """

    def __init__(self, config: TableConfig, registry: TagRegistry, *, simulated: bool,
                 clock: Callable[[], float] = time.monotonic, journal: Journal | None = None,
                 seed: int | None = None, hold_time: float | None = None,
                 startup_notice: Text | None = None, journal_opener: Callable[[], Journal] | None = None,
                 settings: Path | None = None):
        self.config = config
        self.simulated = simulated
        self.sim_reader: Any = None
        self.sim_buttons: SimButtonPanel | None = None
        self.sim_screens: Any = None
        port = config.reader.port
        if simulated:
            from drivers.reader.virtual import VirtualReader

            self.sim_reader = VirtualReader(antennas=max(config.antennas) + 1).start()
            port = self.sim_reader.path
        self.factory = make_pin_factory("mock" if simulated else "auto")
        specs = {s.id: s.screen for s in config.seats if s.screen is not None}
        # the loop waits for the GIL at most this long while a screen writer packs a frame (the
        # default 5 ms is a fifth of a frame's bus time on a Pi Zero)
        sys.setswitchinterval(GIL_SWITCH_INTERVAL)
        # screens are sent by one writer thread per I2C bus, never by the loop; the simulated table
        # runs the real ssd1306/sh1106 drivers on modelled controllers behind one multiplexer
        if simulated:
            mux = SimI2C(parents={spec.bus: MUX_PARENT_BUS for spec in specs.values()})
            self.screens, self.sim_screens = simulated_bank(specs, mux, drivers=True, background=True, clock=clock,
                                                            blank_at_exit=config.blank_screens_at_exit)
        else:
            self.screens = ScreenBank(specs, open_i2c, clock=clock, blank_at_exit=config.blank_screens_at_exit,
                                      background=True)
        self.sync_screens = False  # scripts and tests: wait for the writers at each poll
        self.link = ReaderLink(port, config.reader.baudrate, on_event=self._link_event)
        self.buzzer = Buzzer(config.buzzer_pin, pin_factory=self.factory)
        self.outputs = TableOutputs(config, self.screens, self.link, self.buzzer)
        self.runtime = Runtime(config, registry, self.outputs, clock=clock, auto_chance=simulated,
                               seed=seed, journal=journal, startup_notice=startup_notice,
                               journal_opener=journal_opener, settings=settings)
        self.buttons = ButtonPanel(config.seats, self.runtime.queue,
                                   pin_factory=self.factory,
                                   hold_time=hold_time if hold_time is not None else config.hold_time,
                                   bounce_time=None if simulated else config.bounce_time)
        if simulated:
            self.sim_buttons = SimButtonPanel(self.buttons)
        self.zone_of = dict(config.antennas)

    # -- reader events (on the link's thread: only translate and queue) -------------------------
    def _link_event(self, event: LinkEvent) -> None:
        post = self.runtime.post
        if isinstance(event, (TagPresent, TagRemoved)):
            zone = self.zone_of.get(event.antenna)
            if zone is None:
                log.warning("tag %s on antenna %d, which the config maps to no zone", event.uid, event.antenna)
                return
            post(TagChange(zone, event.uid, isinstance(event, TagPresent)))
        elif isinstance(event, InventoryReplaced):
            zones: dict[str, frozenset[str]] = {}
            for antenna, uids in event.inventory.items():
                zone = self.zone_of.get(antenna)
                if zone is not None and uids:
                    zones[zone] = frozenset(uids)
            post(Snapshot(zones))
        elif isinstance(event, LinkStateChanged):
            # no LED work here: the link states its wanted LEDs again after every handshake, and
            # the outputs (what is lit) belong to the loop's thread alone
            post(ReaderStatus(event.state.value, event.reason))
        elif isinstance(event, DeviceError):
            log.warning("reader controller error %s: %s", event.code, event.detail)

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> Runtime:
        """Start the reader link; returns the runtime (call its `run`, or drive it in tests)."""
        self.link.start()
        return self.runtime

    def poll(self) -> None:
        """Cheap periodic work outside events: retry failed screens (on their bus writers)."""
        if self.sync_screens:
            self.screens.flush()
        for status in self.screens.poll():
            log.warning("screen of seat %s: %s", status.seat, status.describe())
        if self.sync_screens:
            self.screens.flush()

    def run(self) -> None:
        """Run the service until a Stop event."""
        self.start()
        self.runtime.run(on_idle=self.poll)

    def close(self) -> None:
        """Stop the link, release pins, leave the screens showing their last frame."""
        self.link.stop()
        self.runtime.close()  # the computer players' worker, if any
        self.buttons.close()
        self.buzzer.close() if hasattr(self.buzzer, "close") else None
        self.screens.close()
        if self.sim_reader is not None:
            self.sim_reader.close()
        if self.factory is not None and self.simulated:
            self.factory.reset()

    def save_png(self, seat: int, path: str | Path, scale: int = 2) -> Path:
        """Save a seat's current screen image as PNG."""
        return self.screens.save_png(seat, path, scale=scale)

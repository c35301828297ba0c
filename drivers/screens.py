"""Seat screens (luma.oled): one 128x64 OLED per seat on I2C, each failing and recovering alone.

luma's ssd1306/sh1106 drivers always send whole frames (≈1 KB, 23 ms at 400 kHz): on those
devices a frame is packed with Pillow and only its changed pages and columns are sent
(drivers/oled_updates.py), the whole frame after the screen (re)opens. A frame is sent only when
its bytes differ from the last frame the screen accepted. A screen that is absent at start or
fails later is reported (log + ScreenStatus) and retried with back-off from `poll(now)`; the other
seats carry on. A SeatScreen is used by one thread; `ScreenBank(background=True)` gives each
physical I2C bus its writer thread (drivers/screen_writer.py) so the event loop never waits for one.

Backends differ only by the device opener, like gpiozero's pin factories:
- `open_i2c`: real luma devices on /dev/i2c-N (the table);
- `SimI2C.open_dummy`: luma's `dummy` device, which fails like an unplugged screen;
- `SimI2C.open_driver`: the real ssd1306/sh1106 drivers on a simulated smbus whose controllers'
  RAM is modelled (drivers/i2c_sim.py): the simulated table and byte-exact tests.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Literal, Protocol

from drivers import luma_internals
from drivers.luma_internals import LumaInternalsError
from drivers.oled_updates import PanelWriter, pack

if TYPE_CHECKING:  # luma and PIL load lazily: start-up time matters on a Pi Zero
    from PIL.Image import Image


__all__ = [  # the simulated backend (SimI2C, simulated_bank) is drivers.i2c_sim's: it imports this module
    "BACKOFF", "DRIVERS", "FRAME_BYTES", "HEIGHT", "WIDTH", "DeviceOpener", "ScreenError", "ScreenSpec",
    "ScreenSpecLike", "ScreenState", "ScreenStats", "ScreenStatus", "SeatScreen", "open_i2c",
]

log = logging.getLogger(__name__)

WIDTH, HEIGHT = 128, 64
DRIVERS = ("ssd1306", "sh1106")
# I2C payload of one full frame: ssd1306 = 6 command bytes + 1024 data; sh1106 = 8 pages of
# (3 command bytes + 128 data). Checked against the real drivers in tests/drivers/test_screens_driver.py.
FRAME_BYTES = {"ssd1306": 1030, "sh1106": 1048}
BACKOFF = (1.0, 30.0)  # first retry delay, longest delay (doubling in between)
PROBE_COMMAND = 0xAE  # DISPLAYOFF: the first command of both drivers' init sequences

ScreenState = Literal["ok", "absent", "failed", "closed"]


class ScreenError(ValueError):
    """A screen spec or an image that cannot be used (unknown driver, wrong size...)."""


class ScreenSpecLike(Protocol):
    """What a screen needs from the config (config's ScreenConfig fits)."""

    @property
    def driver(self) -> str: ...
    @property
    def bus(self) -> int: ...
    @property
    def address(self) -> int: ...
    @property
    def rotation(self) -> int: ...


@dataclass(frozen=True)
class ScreenSpec:
    """One OLED: driver, I2C bus number (/dev/i2c-N), 7-bit address, rotation 0-3 (quarter turns)."""

    driver: str = "ssd1306"
    bus: int = 1
    address: int = 0x3C
    rotation: int = 0

    def __post_init__(self) -> None:
        if self.driver not in DRIVERS:
            raise ScreenError(f"unknown screen driver {self.driver!r} (known: {', '.join(DRIVERS)})")
        if isinstance(self.bus, bool) or not isinstance(self.bus, int) or self.bus < 0:
            raise ScreenError(f"I2C bus must be a number >= 0, got {self.bus!r}")
        if isinstance(self.address, bool) or not isinstance(self.address, int) or not 0x03 <= self.address <= 0x77:
            raise ScreenError(f"I2C address must be 0x03-0x77, got {self.address!r}")
        if self.rotation not in (0, 1, 2, 3):
            raise ScreenError(f"rotation must be 0, 1, 2 or 3, got {self.rotation!r}")

    @classmethod
    def of(cls, spec: ScreenSpecLike) -> ScreenSpec:
        """A ScreenSpec from any object with driver, bus, address and rotation."""
        if isinstance(spec, ScreenSpec):
            return spec
        return cls(spec.driver, spec.bus, spec.address, spec.rotation)

    @property
    def size(self) -> tuple[int, int]:
        """The image size to render: 128x64, or 64x128 for a screen mounted a quarter-turn."""
        return (WIDTH, HEIGHT) if self.rotation % 2 == 0 else (HEIGHT, WIDTH)

    @property
    def where(self) -> str:
        """Where the screen is wired, for messages."""
        return f"{self.driver} on /dev/i2c-{self.bus} at {self.address:#04x}"


DeviceOpener = Callable[[ScreenSpec], Any]  # returns a luma device; raises luma Error / OSError


def _failures() -> tuple[type[BaseException], ...]:
    from luma.core.error import Error

    # luma turns a missing bus or a NACK on a command into DeviceNotFoundError (an Error); a
    # failed data write surfaces as a bare OSError from smbus.
    return (Error, OSError)


def _driver_class(driver: str) -> Any:
    from luma.oled.device import sh1106, ssd1306

    return {"ssd1306": ssd1306, "sh1106": sh1106}[driver]


def _share_tables(device: Any) -> Any:
    """Let every ssd1306 share one copy of luma's pixel-loop lookup tables (≈320 KB a screen,
    the same for every 128x64 panel): memory only, so a luma that keeps them elsewhere is let be."""
    try:
        luma_internals.share_pixel_tables(device)
    except LumaInternalsError as exc:
        log.debug("screen tables not shared: %s", exc)
    return device


def open_i2c(spec: ScreenSpec, bus: Any = None) -> Any:
    """A real luma ssd1306/sh1106 on /dev/i2c-<spec.bus> (or on an already open smbus `bus`)."""
    from luma.core.interface.serial import i2c

    serial = i2c(port=spec.bus, address=spec.address) if bus is None else i2c(bus=bus, address=spec.address)
    try:
        # Probe before building the device: luma registers an atexit hook per device, so
        # building one for every retry of an unplugged screen would pile them up.
        serial.command(PROBE_COMMAND)
        return _share_tables(_driver_class(spec.driver)(serial, width=WIDTH, height=HEIGHT, rotate=spec.rotation))
    except BaseException:
        serial.cleanup()
        raise


@dataclass
class ScreenStats:
    """Counters of one screen (or of all, summed)."""

    frames_sent: int = 0
    frames_skipped: int = 0  # unchanged image: nothing sent
    frames_partial: int = 0  # sent as changed pages/columns only
    bytes_sent: int = 0
    failures: int = 0  # failed opens and failed sends
    recoveries: int = 0

    def __add__(self, other: ScreenStats) -> ScreenStats:
        return ScreenStats(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def to_json(self) -> dict[str, int]:
        """The counters as a JSON object."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class ScreenStatus:
    """A seat screen's health, for the service to show or print."""

    seat: int
    state: ScreenState
    where: str
    error: str | None = None
    retry_at: float | None = None

    @property
    def ok(self) -> bool:
        """True when the screen works."""
        return self.state == "ok"

    def describe(self, now: float | None = None) -> str:
        """One line for logs and the terminal: what is wrong and when it is retried."""
        text = f"seat {self.seat} screen ({self.where}): {self.state}"
        if self.error:
            text += f": {self.error}"
        if self.retry_at is not None and now is not None:
            text += f"; retry in {max(0.0, self.retry_at - now):.0f} s"
        return text


class SeatScreen:
    """One seat's OLED: sends changed frames, survives the screen vanishing, retries with back-off."""

    def __init__(
        self,
        seat: int,
        spec: ScreenSpecLike,
        opener: DeviceOpener = open_i2c,
        *,
        clock: Callable[[], float] = time.monotonic,
        blank_at_exit: bool = False,
        backoff: tuple[float, float] = BACKOFF,
    ) -> None:
        self.seat = seat
        self.spec = ScreenSpec.of(spec)
        self.stats = ScreenStats()
        self.changed = False  # state changed since the bank last reported it
        self._opener = opener
        self._clock = clock
        self._blank_at_exit = blank_at_exit
        self._backoff = backoff
        self._delay = backoff[0]
        self._device: Any = None
        self._state: ScreenState = "absent"
        self._error: str | None = None
        self._retry_at: float | None = None
        self._ever_down = False
        self._image: Image | None = None
        self._frame: bytes | None = None  # the latest image packed for the panel
        self._last_sent: bytes | None = None
        self._panel: PanelWriter | None = None  # partial updates on a real ssd1306/sh1106 driver
        self._open(clock())
        self.changed = False  # the start-up state is read with status(), not reported as a change

    # -- state ----------------------------------------------------------------------------------
    @property
    def state(self) -> ScreenState:
        """ok, absent (never found), failed (lost after working) or closed."""
        return self._state

    @property
    def device(self) -> Any:
        """The luma device while the screen works, else None."""
        return self._device

    @property
    def image(self) -> Image | None:
        """The latest image asked for (shown, or waiting for the screen to come back)."""
        return self._image

    @property
    def frame_bytes(self) -> int:
        """I2C bytes one frame costs on this driver."""
        return FRAME_BYTES[self.spec.driver]

    def status(self) -> ScreenStatus:
        """The screen's health now."""
        return ScreenStatus(self.seat, self._state, self.spec.where, self._error, self._retry_at)

    def _set_state(self, state: ScreenState, error: str | None) -> None:
        if state != self._state:
            self.changed = True
        self._state, self._error = state, error

    # -- opening and failing --------------------------------------------------------------------
    def _open(self, now: float) -> bool:
        try:
            device = self._opener(self.spec)
        except _failures() as exc:
            self._fail(now, exc, "failed" if self._state == "failed" else "absent")
            return False
        device.persist = not self._blank_at_exit
        self._device = device
        # a luma driver of our panel gets partial updates through its own serial interface; any
        # other device (luma's dummy) is handed whole images
        self._panel = self._panel_writer(device)
        self._last_sent = None  # a (re)initialised controller holds a blank frame
        self._retry_at = None
        if self._ever_down:
            self.stats.recoveries += 1
            log.warning("seat %d screen back (%s)", self.seat, self.spec.where)
        self._set_state("ok", None)
        if self._frame is not None:
            self._send(now, self._frame)
        return self._state == "ok"

    def _panel_writer(self, device: Any) -> PanelWriter | None:
        """Partial updates for a luma driver of our panel; None for any other device (luma's
        dummy), or when luma keeps its interface elsewhere: whole frames through its `display`."""
        if not isinstance(device, _driver_class(self.spec.driver)):
            return None
        try:
            return PanelWriter.for_device(self.spec.driver, device)
        except LumaInternalsError as exc:
            log.warning("seat %d screen: whole frames only: %s", self.seat, exc)
            return None

    def _fail(self, now: float, exc: BaseException, state: ScreenState) -> None:
        self.stats.failures += 1
        message = str(exc) or type(exc).__name__
        # Only a change of state is worth a warning; repeated retries of a missing screen are not.
        level = logging.WARNING if state != self._state or self._error is None else logging.DEBUG
        log.log(level, "seat %d screen %s (%s): %s", self.seat, state, self.spec.where, message)
        self._drop_device()
        self._ever_down = True
        self._retry_at = now + self._delay
        self._delay = min(self._delay * 2, self._backoff[1])
        self._set_state(state, message)

    def _drop_device(self) -> None:
        device, self._device = self._device, None
        self._panel = None
        if device is None:
            return
        try:
            device.persist = True  # free the bus handle without talking to a failing screen
            device.cleanup()
        except Exception:  # the screen is already known broken
            log.debug("seat %d: cleanup of failed screen raised", self.seat, exc_info=True)

    def due(self, now: float) -> bool:
        """True if the screen is missing and its retry time has come."""
        return self._device is None and self._state != "closed" and (self._retry_at is None or now >= self._retry_at)

    def poll(self, now: float | None = None) -> bool:
        """Retry a missing screen when its back-off has elapsed (cheap otherwise). True if it came back."""
        if self._device is not None or self._state == "closed":
            return False
        now = self._clock() if now is None else now
        if self._retry_at is not None and now < self._retry_at:
            return False
        return self._open(now)

    # -- frames ---------------------------------------------------------------------------------
    def show(self, image: Image, now: float | None = None, *, data: bytes | None = None) -> bool:
        """Make `image` this seat's picture; send it if it changed and the screen works. True if sent.

        `data`: the image packed for the panel (`pack(image, rotation)`), from a caller (the bank)
        that already has it and hands over a mode "1" image it no longer touches: neither
        measured nor copied again."""
        if data is None:
            if image.size != self.spec.size:
                raise ScreenError(f"seat {self.seat}: image is {image.size}, the screen needs {self.spec.size}")
            image = image.convert("1") if image.mode != "1" else image.copy()  # the caller may reuse its image
            data = pack(image, self.spec.rotation)
        if self._state == "closed":
            return False
        if self._device is not None and data == self._last_sent:
            self.stats.frames_skipped += 1
            return False
        self._image, self._frame = image, data
        if self._device is None:
            return False  # kept, sent when the screen comes back
        return self._send(self._clock() if now is None else now, data)

    def _send(self, now: float, data: bytes) -> bool:
        try:
            if self._panel is not None:
                sent = self._panel.send(data)
            else:
                self._device.display(self._image)
                sent = self.frame_bytes
        except _failures() as exc:
            self._fail(now, exc, "failed")
            return False
        self._last_sent = data
        self._delay = self._backoff[0]  # reset only once a frame got through: a flapping screen backs off
        self.stats.frames_sent += 1
        self.stats.frames_partial += sent < self.frame_bytes
        self.stats.bytes_sent += sent
        return True

    def close(self, blank: bool | None = None) -> None:
        """Let the screen go; blank it if asked (default: as set by blank_at_exit)."""
        blank = self._blank_at_exit if blank is None else blank
        device, self._device = self._device, None
        self._panel = None
        if device is not None:
            try:
                device.persist = not blank
                device.cleanup()
            except _failures() as exc:
                log.info("seat %d screen: could not close cleanly: %s", self.seat, exc)
        self._retry_at = None
        self._set_state("closed", None)


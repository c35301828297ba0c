"""Simulated I2C hardware for the screens: buses behind a multiplexer, wire time, controller RAM.

- `SimBuses` holds which screens answer, the bytes and transactions each received, the wire time
  each physical bus spent at 400 kHz (TCA9548A channels share their parent bus), and optionally
  sleeps that time so a benchmark or a test sees a bus as slow as the real one.
- `OledRam` models an SSD1306 or SH1106 controller: it decodes the command stream (addressing mode,
  COLUMNADDR/PAGEADDR windows, page and column nibbles) and writes data bytes where the chip would.
  Its `image()` reads the RAM back pixel by pixel, independently of the host's packing code, so
  tests compare what a panel shows with what was asked.
- `SimSMBus` is the part of smbus2.SMBus that luma's i2c interface uses, on a `SimBuses`.
- `SimI2C` opens luma devices on those buses: the real ssd1306/sh1106 drivers on modelled
  controllers (the simulated table), or luma's `dummy` device taking whole images.
"""

from __future__ import annotations

import errno
import random
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from drivers.luma_internals import send_as_managed, serial_interface

if TYPE_CHECKING:
    from PIL.Image import Image

    from drivers.screen_bank import ScreenBank
    from drivers.screens import ScreenSpec, ScreenSpecLike

I2C_HZ = 400_000
COMMAND, DATA = 0x00, 0x40  # control bytes luma sends before commands and before data
# Two-byte commands of the SSD1306 (argument count); every other command byte stands alone.
_SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1,
                 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5}
_SH1106_ARGS = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


def wire_seconds(payload: int) -> float:
    """Time one write transaction of `payload` bytes takes at 400 kHz: start, address byte,
    payload, 9 clocks a byte (8 bits + ACK), stop."""
    return ((1 + payload) * 9 + 2) / I2C_HZ


_MUX_SWITCH = wire_seconds(1)  # the TCA9548A's channel byte, its own transaction
_thread_time = time.thread_time


class OledRam:
    """The display RAM of one SSD1306 (128 columns) or SH1106 (132 columns) and its address pointer."""

    def __init__(self, driver: str, column_offset: int = 2) -> None:
        if driver not in ("ssd1306", "sh1106"):
            raise ValueError(f"no RAM model for {driver!r}")
        self.driver = driver
        self.columns = 128 if driver == "ssd1306" else 132
        self.offset = 0 if driver == "ssd1306" else column_offset
        self.ram = [bytearray(self.columns) for _ in range(8)]
        self.mode = 2  # page addressing after reset (SSD1306); the SH1106 only has this one
        self.col_window, self.page_window = (0, 127), (0, 7)
        self.page, self.col = 0, 0
        self._pending: list[int] = []  # a command waiting for its arguments

    def noise(self, rng: random.Random) -> None:
        """Fill the RAM with garbage, as a controller that just powered up."""
        for page in self.ram:
            page[:] = rng.randbytes(self.columns)

    def command(self, data: bytes) -> None:
        """Feed command bytes (a command's arguments may come in a later transaction)."""
        args = _SSD1306_ARGS if self.driver == "ssd1306" else _SH1106_ARGS
        for byte in data:
            self._pending.append(byte)
            head = self._pending[0]
            if len(self._pending) <= args.get(head, 0):
                continue
            self._execute(self._pending)
            self._pending = []

    def _execute(self, cmd: list[int]) -> None:
        head = cmd[0]
        if self.driver == "ssd1306" and head == 0x20:
            self.mode = cmd[1] & 0x03
        elif self.driver == "ssd1306" and head == 0x21:
            self.col_window = (cmd[1] & 0x7F, cmd[2] & 0x7F)
            self.col = self.col_window[0]
        elif self.driver == "ssd1306" and head == 0x22:
            self.page_window = (cmd[1] & 0x07, cmd[2] & 0x07)
            self.page = self.page_window[0]
        elif 0xB0 <= head <= 0xB7:
            self.page = head - 0xB0
        elif head <= 0x0F:
            self.col = (self.col & 0xF0) | head
        elif 0x10 <= head <= 0x1F:
            self.col = ((head & 0x0F) << 4) | (self.col & 0x0F)

    def data(self, data: bytes) -> None:
        """Write data bytes at the address pointer, advancing it as the chip does."""
        # Runs along a page are copied a slice at a time (the simulated table sends every frame
        # through here); the byte loop below is the reference for what the pointer does.
        i, n = 0, len(data)
        horizontal = self.mode == 0 and self.driver == "ssd1306"
        while i < n:
            if horizontal and self.col_window[0] <= self.col <= self.col_window[1]:
                run = min(n - i, self.col_window[1] - self.col + 1)
                self.ram[self.page][self.col:self.col + run] = data[i:i + run]
                i += run
                if self.col + run > self.col_window[1]:  # the window's last column: next page
                    self.col = self.col_window[0]
                    self.page = self.page_window[0] if self.page >= self.page_window[1] else self.page + 1
                else:
                    self.col += run
            elif self.mode == 2 or self.driver == "sh1106":
                if self.col >= self.columns:  # off the RAM: the byte is lost, the pointer wraps
                    self._data_bytes(data[i:i + 1])
                    i += 1
                    continue
                run = min(n - i, self.columns - self.col)
                self.ram[self.page][self.col:self.col + run] = data[i:i + run]
                i += run
                self.col = self.col + run if self.col + run < self.columns else 0
            else:
                self._data_bytes(data[i:i + 1])
                i += 1

    def _data_bytes(self, data: bytes) -> None:
        """The chip's pointer, byte by byte (every addressing mode, every corner case)."""
        for byte in data:
            if self.col < self.columns:
                self.ram[self.page][self.col] = byte
            if self.mode == 0 and self.driver == "ssd1306":  # horizontal: row by row in the window
                if self.col >= self.col_window[1]:
                    self.col = self.col_window[0]
                    self.page = self.page_window[0] if self.page >= self.page_window[1] else self.page + 1
                else:
                    self.col += 1
            elif self.mode == 1 and self.driver == "ssd1306":  # vertical: column by column
                if self.page >= self.page_window[1]:
                    self.page = self.page_window[0]
                    self.col = self.col_window[0] if self.col >= self.col_window[1] else self.col + 1
                else:
                    self.page += 1
            else:  # page addressing: along the page, wrapping to its start
                self.col = self.col + 1 if self.col + 1 < self.columns else 0

    def image(self) -> Image:
        """What the panel shows (128x64, as the controller scans it), read bit by bit."""
        from PIL import Image as PILImage

        out = PILImage.new("1", (128, 64))
        pixels = out.load()
        assert pixels is not None  # a new in-memory image always loads
        for page in range(8):
            row = self.ram[page]
            for x in range(128):
                byte = row[x + self.offset]
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, page * 8 + bit] = 1
        return out


class SimBuses:
    """Simulated I2C buses: which screens answer, what each received, how long each bus was busy.

    `parents` maps a multiplexer channel's bus number to its physical bus (the i2c-mux overlay
    gives each TCA9548A channel its own /dev/i2c-N, but they all share the Pi's one pair of wires).
    `realtime` > 0 makes each write sleep its wire time times that factor (a slow bus).
    """

    def __init__(self, parents: Mapping[int, int] | None = None, realtime: float = 0.0) -> None:
        self.parents = dict(parents or {})
        self.realtime = realtime
        self._unplugged: set[tuple[int, int]] = set()
        self.bytes_written: Counter[tuple[int, int]] = Counter()  # payload bytes per screen
        self.transactions: Counter[int] = Counter()  # per physical bus
        self.bus_seconds: dict[int, float] = defaultdict(float)  # wire time per physical bus
        self.rams: dict[tuple[int, int], OledRam] = {}
        self._channel: dict[int, int] = {}  # physical bus -> the mux channel selected last
        self._held: dict[int, threading.Event] = {}  # physical buses a device holds (clock stretching)
        self.stalled: Counter[int] = Counter()  # writes waiting on a held bus, per physical bus
        self.model_seconds = 0.0  # CPU spent simulating (accounting, RAM model): not the host's work
        self._lock = threading.Lock()
        self._rng = random.Random(0)

    def root(self, bus: int) -> int:
        """The physical bus a bus number is on (itself, or the parent of a mux channel)."""
        return self.parents.get(bus, bus)

    def unplug(self, bus: int, address: int = 0x3C) -> None:
        """Disconnect a screen: opening fails, sending to it fails."""
        self._unplugged.add((bus, address))

    def plug(self, bus: int, address: int = 0x3C) -> None:
        """Connect a screen (again); a screen plugged back powers up with garbage in its RAM."""
        if (bus, address) in self._unplugged:
            self._unplugged.discard((bus, address))
            ram = self.rams.get((bus, address))
            if ram is not None:
                ram.noise(self._rng)

    def present(self, bus: int, address: int) -> bool:
        """True while a screen answers at (bus, address)."""
        return (bus, address) not in self._unplugged

    def hold(self, bus: int) -> None:
        """Stall a physical bus (a device stretching the clock): writes wait until `release`."""
        self._held.setdefault(self.root(bus), threading.Event())

    def release(self, bus: int) -> None:
        """Let a held bus go on."""
        event = self._held.pop(self.root(bus), None)
        if event is not None:
            event.set()

    def attach(self, bus: int, address: int, driver: str, column_offset: int = 2) -> OledRam:
        """Model the controller at (bus, address) from now on (kept across reconnects)."""
        key = (bus, address)
        ram = self.rams.get(key)
        if ram is None or ram.driver != driver:
            ram = self.rams[key] = OledRam(driver, column_offset)
            ram.noise(self._rng)
        return ram

    def pixels(self, bus: int, address: int = 0x3C) -> Image | None:
        """What the modelled panel at (bus, address) shows (None if no controller is modelled)."""
        ram = self.rams.get((bus, address))
        return ram.image() if ram is not None else None

    def write(self, bus: int, address: int, control: int, payload: bytes) -> None:
        """One write transaction: a NACK (OSError) if nobody answers, else account and deliver it."""
        cpu = _thread_time()
        root = self.parents.get(bus, bus)
        if self._held:
            held = self._held.get(root)
            if held is not None:
                self.stalled[root] += 1
                held.wait()
                self.stalled[root] -= 1
        # wire_seconds(1 + len(payload)): the control byte + the payload (inlined: every
        # transaction of the simulated table comes through here)
        seconds = ((2 + len(payload)) * 9 + 2) / I2C_HZ
        where = (bus, address)
        with self._lock:
            if root != bus and self._channel.get(root) != bus:  # the mux switches channel first
                self._channel[root] = bus
                seconds += _MUX_SWITCH
                self.transactions[root] += 1
            self.transactions[root] += 1
            self.bus_seconds[root] += seconds
            if where in self._unplugged:
                raise OSError(errno.EREMOTEIO, "Remote I/O error")  # what a NACK looks like from the kernel
            self.bytes_written[where] += len(payload)
            if self.rams:
                ram = self.rams.get(where)
                if ram is not None:
                    (ram.command if control == COMMAND else ram.data)(payload)
            self.model_seconds += _thread_time() - cpu
        if self.realtime > 0:
            time.sleep(seconds * self.realtime)  # releases the GIL, as a real bus transfer does

    def smbus(self, bus: int) -> SimSMBus:
        """An smbus2.SMBus look-alike on one bus number, for luma's i2c interface."""
        return SimSMBus(self, bus)


class SimSMBus:
    """The part of smbus2.SMBus that luma's i2c interface uses, on a simulated bus."""

    def __init__(self, buses: SimBuses, port: int) -> None:
        self._buses = buses
        self._port = port

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        """luma's command writes: `register` is the control byte (0x00 or 0x40)."""
        self._buses.write(self._port, address, register, bytes(data))

    def i2c_rdwr(self, *messages: Any) -> None:
        """Writes on smbus2's I2C_RDWR: smbus2.i2c_msg writes, each one transaction whose first
        byte is the control byte: luma's data (0x40), and the partial updates' commands (0x00)
        and data (drivers/oled_updates.py), decoded by the controller model alike."""
        write, port = self._buses.write, self._port
        for msg in messages:
            # the buffer read by slicing, not bytes(msg): smbus2's string_at is a libffi call, and
            # the instruction count's harness (bench/bench_instructions.py) marks its own with those
            payload = msg.buf[:msg.len]
            write(port, msg.addr, payload[0], payload[1:])

    def close(self) -> None:
        """luma calls it on cleanup: nothing to release."""


class SimI2C(SimBuses):
    """Simulated I2C buses and the luma devices opened on them (drivers.screens' openers)."""

    def __init__(self, parents: Mapping[int, int] | None = None, realtime: float = 0.0) -> None:
        super().__init__(parents, realtime)
        self.devices: dict[tuple[int, int], Any] = {}  # latest device opened per (bus, address)

    def open_dummy(self, spec: ScreenSpec) -> Any:
        """luma's dummy device (whole images, no bus), failing like I2C while unplugged."""
        from luma.core.error import DeviceNotFoundError

        if not self.present(spec.bus, spec.address):
            raise DeviceNotFoundError(f"I2C device not found on address: 0x{spec.address:02X}")
        device = _sim_display_class()(self, spec)
        self.devices[(spec.bus, spec.address)] = device
        return device

    def open_driver(self, spec: ScreenSpec) -> Any:
        """The real ssd1306/sh1106 driver on a simulated smbus whose controller RAM is modelled."""
        from drivers.screens import open_i2c

        self.attach(spec.bus, spec.address, spec.driver)
        device = open_i2c(spec, bus=self.smbus(spec.bus))
        # the path luma's i2c takes on the table's smbus2 bus (opened by port): each data write one
        # I2C_RDWR transaction, not 32-byte SMBus blocks; luma takes it only for a bus it opened
        send_as_managed(serial_interface(device))
        self.devices[(spec.bus, spec.address)] = device
        return device


@lru_cache(maxsize=1)
def _sim_display_class() -> type:
    """luma's dummy device plus an unplug switch (built on first use: luma loads lazily)."""
    from luma.core.device import dummy

    class SimDisplay(dummy):  # type: ignore[misc]
        """A dummy luma device that raises OSError while its simulated screen is unplugged."""

        def __init__(self, sim: SimI2C, spec: ScreenSpec) -> None:
            super().__init__(width=128, height=64, rotate=spec.rotation, mode="1")
            self._sim, self._where = sim, (spec.bus, spec.address)
            self.frames = 0

        def display(self, image: Image) -> None:
            if not self._sim.present(*self._where):
                raise OSError(errno.EREMOTEIO, "Remote I/O error")
            super().display(image)
            self.frames += 1

    return SimDisplay


def simulated_bank(
    specs: Mapping[int, ScreenSpecLike], sim: SimI2C | None = None, *, drivers: bool = False, **kwargs: Any
) -> tuple[ScreenBank, SimI2C]:
    """A ScreenBank on luma dummy devices (or, with `drivers`, the real drivers on modelled
    controllers), and the SimI2C that can unplug them. Background writers group by `sim.root`."""
    from drivers.screen_bank import ScreenBank

    sim = sim or SimI2C()
    kwargs.setdefault("bus_of", sim.root)
    return ScreenBank(specs, sim.open_driver if drivers else sim.open_dummy, **kwargs), sim

"""The one place that reads (and, for the simulated bus, sets) luma's private attributes.

luma documents no way to reach a device's serial interface, a panel's column offsets, its i2c
interface's bus and address, or the lookup tables of the ssd1306's pixel loop; the partial updates
(drivers/oled_updates.py), the shared tables (drivers/screens.py) and the simulated bus
(drivers/i2c_sim.py) need them. Every accessor checks the attribute exists with the type it had in
the luma releases named in CHECKED_WITH and raises LumaInternalsError otherwise, so a luma release
that moves one fails here, by name, never as a wrong picture on a panel.
tests/drivers/test_luma_internals.py checks them all on real luma objects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, TypeVar, runtime_checkable

CHECKED_WITH = {"luma.core": "2.6.0", "luma.oled": "3.16.0"}

T = TypeVar("T")


class LumaInternalsError(RuntimeError):
    """A luma object lacks a private attribute the table relies on, or holds another type there."""


@runtime_checkable
class SerialInterface(Protocol):
    """What a luma device's serial interface offers (luma's i2c, spi, noop...)."""

    def command(self, *cmd: int) -> None:
        """Send command bytes."""

    def data(self, data: bytes | list[int]) -> None:
        """Send data bytes."""


@dataclass(frozen=True, slots=True)
class RdwrPath:
    """How luma's i2c sends on smbus2's I2C_RDWR: the bus's `i2c_rdwr`, smbus2's
    `i2c_msg.write` and the 7-bit address."""

    rdwr: Callable[..., object]
    message: Callable[[int, bytes], object]
    address: int


def _installed() -> str:
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for name in CHECKED_WITH:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return ", ".join(found)


def _read(obj: object, name: str, kind: type[T]) -> T:
    """`obj.<name>`, checked to be a `kind` (a bool is not an int)."""
    value = getattr(obj, name, _MISSING)
    if value is _MISSING or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        what = "has no" if value is _MISSING else f"holds a {type(value).__name__} in"
        checked = ", ".join(f"{n} {v}" for n, v in CHECKED_WITH.items())
        raise LumaInternalsError(f"luma's {type(obj).__name__} {what} {name} (installed: {_installed()}; "
                                 f"drivers/luma_internals.py was checked with {checked})")
    return value


_MISSING = object()


def serial_interface(device: object) -> SerialInterface:
    """The serial interface a luma device sends its commands and data through."""
    serial: object = _read(device, "_serial_interface", object)
    if not isinstance(serial, SerialInterface):
        raise LumaInternalsError(f"luma's {type(device).__name__}._serial_interface has no command and data "
                                 f"(installed: {_installed()})")
    return serial


def ssd1306_column_start(device: object) -> int:
    """The first RAM column of an ssd1306's panel (0 on a 128-column panel)."""
    return _read(device, "_colstart", int)


def sh1106_column_offset(device: object) -> int:
    """The RAM column of an sh1106 panel's first visible column (its 132-column RAM)."""
    return _read(device, "_page_address_offset", int)


def rdwr_path(serial: object) -> RdwrPath | None:
    """How `serial` sends on smbus2's I2C_RDWR, when it is exactly luma's i2c in the mode luma
    takes on a bus it opened itself (each data write one I2C_RDWR transaction); None for any
    other interface (SPI, noop, mocks, a subclass) or an i2c on SMBus 32-byte blocks."""
    from luma.core.interface.serial import i2c

    if type(serial) is not i2c:  # exactly luma's: a subclass may send otherwise
        return None
    if not _read(serial, "_managed", bool):
        return None
    message: object = _read(serial, "_i2c_msg_write", object)
    rdwr = getattr(_read(serial, "_bus", object), "i2c_rdwr", None)
    if not callable(message) or not callable(rdwr):
        raise LumaInternalsError(f"luma's i2c in managed mode has no i2c_msg writer or bus with i2c_rdwr "
                                 f"(installed: {_installed()})")
    import smbus2

    if message == smbus2.i2c_msg.write:
        message = write_message  # the same message, its buffer from a few kept types
    return RdwrPath(rdwr, message, _read(serial, "_addr", int))


_BUFFERS: dict[int, Any] = {}  # buffer size -> its ctypes array type, kept


def write_message(address: int, payload: bytes) -> Any:
    """smbus2's `i2c_msg.write(address, payload)`, its buffer of one of a few kept sizes (powers
    of two, the message's length saying how much of it is sent): ctypes keeps the array type of a
    length only while one lives, so smbus2's buffer of a new length makes a new type (tens of
    microseconds), and partial updates come in every length."""
    n = len(payload)
    buf = _buffer_type(_buffer_size(n))()
    buf.raw = payload  # copies the payload's bytes; the rest stays zero, never sent
    return _message_class()(addr=address, flags=0, len=n, buf=buf)


def _buffer_size(n: int) -> int:
    """The kept buffer size that holds `n` bytes (a power of two, 16 at least)."""
    return 1 << max(4, (n - 1).bit_length())


def _buffer_type(size: int) -> Any:
    """The kept ctypes array type of `size` bytes."""
    kind = _BUFFERS.get(size)
    if kind is None:
        import ctypes

        kind = _BUFFERS[size] = ctypes.c_char * size
    return kind


class DataMessages:
    """`write_message` for one sender: one message a buffer size, written over at each call.

    The kernel copies a write message's buffer during the I2C_RDWR call, so a message can carry
    the next payload as soon as the call returns: a panel's data runs then cost no new ctypes
    objects. For the one thread that sends (a screen's), each message used before the next call."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Any, Any]] = {}  # buffer size -> (its buffer, its message)

    def __call__(self, address: int, payload: bytes) -> Any:
        n = len(payload)
        size = 1 << max(4, (n - 1).bit_length())  # _buffer_size(n), inlined: once per data run sent
        kept = self._kept.get(size)
        if kept is None:
            buf = _buffer_type(size)()
            kept = self._kept[size] = (buf, _message_class()(addr=address, flags=0, len=n, buf=buf))
        buf, message = kept
        buf.raw = payload  # the bytes past `n` are never sent
        message.addr, message.len = address, n
        return message


@lru_cache(maxsize=1)
def _message_class() -> Any:
    """smbus2's i2c_msg (imported once: an import statement costs a lookup at every message)."""
    import smbus2

    return smbus2.i2c_msg


def i2c_bus(serial: object) -> object:
    """The smbus object luma's i2c interface writes to."""
    return _read(serial, "_bus", object)


def send_as_managed(serial: object) -> None:
    """Put luma's i2c on a handed-in smbus2-like bus in the mode luma takes for a bus it opens
    itself: each data write one I2C_RDWR transaction built with smbus2's `i2c_msg.write`."""
    import smbus2

    _read(serial, "_managed", bool)
    _read(serial, "_i2c_msg_write", object)
    serial_any: Any = serial
    serial_any._managed, serial_any._i2c_msg_write = True, smbus2.i2c_msg.write


_PIXEL_TABLES: dict[tuple[int, int], tuple[list[int], list[int]]] = {}


def share_pixel_tables(device: object) -> bool:
    """Let every ssd1306 of one size share one copy of the lookup tables of luma's pixel loop;
    False for a device that has none (another driver).

    luma builds two 8192-entry lists per 128x64 screen (≈320 KB) for its own `display`, which the
    table only uses through its clear-on-exit; they are the same for every panel of a size.
    """
    from luma.oled.device import ssd1306

    if not isinstance(device, ssd1306):
        return False
    mask, offsets = _read(device, "_mask", list), _read(device, "_offsets", list)
    size = (_read(device, "_w", int), _read(device, "_h", int))
    device_any: Any = device
    device_any._mask, device_any._offsets = _PIXEL_TABLES.setdefault(size, (mask, offsets))
    return True

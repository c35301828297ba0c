"""The table's configuration file (TOML): seats, pins, screens, reader, antennas, language.

Validation reports every fault at once, each naming the file and the key, so an owner can fix a
config in one go: `zebra-table config check [PATH]`.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.remote.settings import parse_remote
from firmware_host.storage.inputs import InputError, number, read_file
from firmware_host.venue.settings import Broker, VenueConfig, parse_venue
from firmware_host.web.settings import WebConfig, parse_web
from games.core import SQUARES

SIM_PORT = "sim"
BUTTON_NAMES = ("left", "right", "ok")
SCREEN_DRIVERS = ("ssd1306", "sh1106")
# BCM pins the Pi's own buses use: 0/1 ID EEPROM, 2/3 I2C-1 (the screens), 14/15 the UART.
RESERVED_I2C = {0: "ID EEPROM (ID_SD)", 1: "ID EEPROM (ID_SC)", 2: "I2C SDA", 3: "I2C SCL"}
RESERVED_UART = {14: "UART TXD", 15: "UART RXD"}
MAX_BCM_PIN = 27
CENTRE_SLOTS = 8
MAX_TEXT = 4096  # characters of a text value: a path's limit on Linux
MAX_ANTENNA = 254  # the reader protocol numbers antennas in one byte; 255 is reserved


class ConfigError(ValueError):
    """A config file that cannot be used; `issues` lists every (key, message) found."""

    def __init__(self, path: str, issues: list[tuple[str, str]]):
        self.path = path
        self.issues = issues
        lines = "\n".join(f"  {path}: {key}: {msg}" for key, msg in issues)
        super().__init__(f"{len(issues)} problem(s) in the table config:\n{lines}")


@dataclass(frozen=True)
class ScreenConfig:
    """One seat's OLED: driver, I2C bus number (/dev/i2c-N), address, rotation (0-3)."""

    driver: str = "ssd1306"
    bus: int = 1
    address: int = 0x3C
    rotation: int = 0


@dataclass(frozen=True)
class EncoderConfig:
    """A rotary encoder used instead of the left/right buttons: pins a, b and optional push."""

    a: int
    b: int
    button: int | None = None


@dataclass(frozen=True)
class SeatConfig:
    """One seat: its number (1-8), buttons by name -> BCM pin, optional encoder and screen."""

    id: int
    buttons: dict[str, int] = field(default_factory=dict)
    encoder: EncoderConfig | None = None
    screen: ScreenConfig | None = None

    @property
    def pad(self) -> str:
        """This seat's card pad zone name."""
        return f"seat{self.id}.pad"


@dataclass(frozen=True)
class ReaderConfig:
    """The reader controller's serial port ("sim" = the virtual controller) and settle window."""

    port: str = "/dev/zebra-table-reader"
    baudrate: int = 115200
    settle: float = 0.25


@dataclass(frozen=True)
class TableConfig:
    """The whole validated table configuration."""

    path: str
    seats: tuple[SeatConfig, ...]
    antennas: dict[int, str]  # antenna number -> zone
    reader: ReaderConfig = ReaderConfig()
    language: str = "fr"
    uart: bool = False
    blank_screens_at_exit: bool = False  # default: the last frame stays (luma's persist)
    buzzer_pin: int | None = None
    hold_time: float = 1.0
    bounce_time: float = 0.02
    data_dir: str = ""
    tags_file: str = ""
    journal: str = ""
    venue: VenueConfig | None = None  # None: the table publishes nothing, connects nowhere
    remote: Broker | None = None  # the broker of games played with another table; None: none
    web: WebConfig = WebConfig()
    # a computer player's thinking time per move: its budget is sized for about 1 s on a Pi Zero 2 W
    # (10x slower than a desktop, games.ai.budget.PI_SLOWDOWN); this caps a slow moment
    think_seconds: float = 2.0
    pin_cpu: bool = True  # the table's threads on one core, computer players on the others

    @property
    def simulated(self) -> bool:
        """True when the reader is the virtual controller."""
        return self.reader.port == SIM_PORT

    def seat(self, seat_id: int) -> SeatConfig:
        """The seat with this number (KeyError if none)."""
        for s in self.seats:
            if s.id == seat_id:
                return s
        raise KeyError(seat_id)

    @property
    def zones(self) -> dict[str, int]:
        """Zone name -> antenna number."""
        return {zone: ant for ant, zone in self.antennas.items()}


def default_data_dir() -> str:
    """Where journals and the tag registry live: $XDG_DATA_HOME/zebra-table or ~/.local/share."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "zebra-table")


def sim_config_text() -> str:
    """The embedded config of the simulated 8-seat table."""
    return (Path(__file__).parents[1] / "data" / "sim_table.toml").read_text(encoding="utf-8")


def load_config(path: str | os.PathLike[str] | None = None) -> TableConfig:
    """Read and validate a config file; None = the embedded simulated table. Raises ConfigError."""
    if path is None:
        return parse_config(sim_config_text(), "<simulated table>")
    p = Path(path)
    try:
        text = read_file(str(p), "a table config")
    except OSError as exc:
        raise ConfigError(str(p), [("(file)", f"cannot read: {exc.strerror or exc}")]) from None
    except InputError as exc:
        raise ConfigError(str(p), [("(file)", exc.problem)]) from None
    return parse_config(text, str(p))


def parse_config(text: str, path: str = "<config>") -> TableConfig:
    """Parse and validate TOML text; raises ConfigError naming every bad key."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, [("(syntax)", str(exc))]) from None
    except RecursionError:
        raise ConfigError(path, [("(syntax)", "arrays or tables nested too deep")]) from None
    return _Validator(path, raw).build()


class _Validator:
    """Walks the raw TOML, collecting every problem before failing."""

    KNOWN_TOP = {"language", "uart", "blank_screens_at_exit", "pin_cpu", "reader", "buttons", "buzzer", "seats",
                 "antennas", "paths", "venue", "remote", "web", "computer"}

    def __init__(self, path: str, raw: dict[str, Any]):
        self.path = path
        self.raw = raw
        self.issues: list[tuple[str, str]] = []

    def bad(self, key: str, msg: str) -> None:
        self.issues.append((key, msg))

    def typed(self, table: dict[str, Any], key: str, prefix: str, kind: type | tuple[type, ...], default: Any) -> Any:
        if key not in table:
            return default
        value = table[key]
        # bool is an int in Python; a pin or bus given as true/false is a mistake
        if isinstance(value, bool) and kind is not bool:
            self.bad(f"{prefix}{key}", f"expected {_kind_name(kind)}, got {value!r}")
            return default
        if not isinstance(value, kind):
            self.bad(f"{prefix}{key}", f"expected {_kind_name(kind)}, got {_shown(value)}")
            return default
        if isinstance(value, str) and (len(value) > MAX_TEXT or "\0" in value):
            # a device, a path or a name: never a megabyte, never a NUL (no file can be named so)
            self.bad(f"{prefix}{key}", f"longer than {MAX_TEXT} characters" if len(value) > MAX_TEXT
                     else "a NUL character in a text (no file or device can be named so)")
            return default
        return value

    def bounded(self, table: dict[str, Any], key: str, prefix: str, lo: float, hi: float, default: float) -> float:
        """A finite number in [lo, hi] (nan, inf and 1e308 refused)."""
        if key not in table:
            return default
        try:
            return number(table[key], f"{prefix}{key}", lo, hi)
        except InputError as exc:
            self.bad(exc.where, exc.problem)
            return default

    def unknown_keys(self, table: dict[str, Any], known: set[str], prefix: str) -> None:
        for key in table:
            if key not in known:
                self.bad(f"{prefix}{key}", f"unknown key (known: {', '.join(sorted(known))})")

    def build(self) -> TableConfig:
        raw = self.raw
        self.unknown_keys(raw, self.KNOWN_TOP, "")
        language = self.typed(raw, "language", "", str, "fr")
        if language not in ("fr", "en"):
            self.bad("language", f"{language!r}: expected \"fr\" or \"en\"")
            language = "fr"
        uart = self.typed(raw, "uart", "", bool, False)
        blank = self.typed(raw, "blank_screens_at_exit", "", bool, False)
        pin_cpu = self.typed(raw, "pin_cpu", "", bool, True)
        reader = self._reader(raw.get("reader", {}))
        buttons = raw.get("buttons", {})
        if not isinstance(buttons, dict):
            self.bad("buttons", "expected a table")
            buttons = {}
        self.unknown_keys(buttons, {"hold_time", "bounce_time"}, "buttons.")
        hold = self.bounded(buttons, "hold_time", "buttons.", 0.1, 10.0, 1.0)
        bounce = self.bounded(buttons, "bounce_time", "buttons.", 0.0, 1.0, 0.02)
        buzzer = raw.get("buzzer", {})
        buzzer_pin = None
        if isinstance(buzzer, dict):
            self.unknown_keys(buzzer, {"pin"}, "buzzer.")
            buzzer_pin = self.typed(buzzer, "pin", "buzzer.", int, None)
        else:
            self.bad("buzzer", "expected a table")
        seats = self._seats(raw.get("seats", []))
        self._pins(seats, buzzer_pin, uart)
        self._screens(seats)
        if "antennas" not in raw:
            self.bad("antennas", "missing: the [antennas] table maps each zone to its antenna number")
        antennas = self._antennas(raw.get("antennas", {}), {s.id for s in seats})
        paths = raw.get("paths", {})
        if not isinstance(paths, dict):
            self.bad("paths", "expected a table")
            paths = {}
        self.unknown_keys(paths, {"data_dir", "tags_file", "journal"}, "paths.")
        data_dir = self.typed(paths, "data_dir", "paths.", str, "") or default_data_dir()
        tags_file = self.typed(paths, "tags_file", "paths.", str, "") or os.path.join(data_dir, "tags.json")
        journal = self.typed(paths, "journal", "paths.", str, "") or os.path.join(data_dir, "journal.sqlite")
        venue = parse_venue(raw.get("venue"), self.bad)
        remote = parse_remote(raw.get("remote"), self.bad)
        web = parse_web(raw.get("web"), self.bad)
        computer = raw.get("computer", {})
        if not isinstance(computer, dict):
            self.bad("computer", "expected a table")
            computer = {}
        self.unknown_keys(computer, {"think_seconds"}, "computer.")
        think = self.bounded(computer, "think_seconds", "computer.", 0.1, 60.0, 2.0)
        if self.issues:
            raise ConfigError(self.path, self.issues)
        return TableConfig(
            path=self.path, seats=tuple(seats), antennas=antennas, reader=reader, language=language,
            uart=uart, blank_screens_at_exit=blank, buzzer_pin=buzzer_pin, hold_time=hold, bounce_time=bounce,
            data_dir=data_dir, tags_file=tags_file, journal=journal, venue=venue, remote=remote, web=web,
            think_seconds=think, pin_cpu=pin_cpu,
        )

    def _reader(self, table: Any) -> ReaderConfig:
        if not isinstance(table, dict):
            self.bad("reader", "expected a table")
            return ReaderConfig()
        self.unknown_keys(table, {"port", "baudrate", "settle"}, "reader.")
        port = self.typed(table, "port", "reader.", str, ReaderConfig.port)
        baud = self.typed(table, "baudrate", "reader.", int, 115200)
        settle = self.bounded(table, "settle", "reader.", 0.0, 5.0, 0.25)
        if baud not in (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1000000):
            self.bad("reader.baudrate", f"{baud}: not a standard serial speed")
        return ReaderConfig(port=port, baudrate=baud, settle=settle)

    def _seats(self, items: Any) -> list[SeatConfig]:
        if not isinstance(items, list):
            self.bad("seats", "expected an array of [[seats]] tables")
            return []
        seats: list[SeatConfig] = []
        seen: set[int] = set()
        for i, item in enumerate(items):
            prefix = f"seats[{i}]."
            if not isinstance(item, dict):
                self.bad(f"seats[{i}]", "expected a table")
                continue
            self.unknown_keys(item, {"id", "buttons", "encoder", "screen"}, prefix)
            sid = self.typed(item, "id", prefix, int, i + 1)
            if not 1 <= sid <= 8:
                self.bad(f"{prefix}id", f"{sid}: seats are numbered 1 to 8")
            if sid in seen:
                self.bad(f"{prefix}id", f"seat {sid} defined twice")
            seen.add(sid)
            buttons = self._buttons(item.get("buttons", {}), prefix)
            encoder = self._encoder(item.get("encoder"), prefix)
            if not buttons and encoder is None:
                self.bad(f"{prefix}buttons", "a seat needs buttons or an encoder")
            screen = self._screen(item.get("screen"), prefix)
            seats.append(SeatConfig(id=sid, buttons=buttons, encoder=encoder, screen=screen))
        if not 2 <= len(seats) <= 8:
            self.bad("seats", f"{len(seats)} seat(s): a table has 2 to 8 seats")
        return seats

    def _buttons(self, table: Any, prefix: str) -> dict[str, int]:
        if not isinstance(table, dict):
            self.bad(f"{prefix}buttons", "expected a table like { left = 5, right = 6, ok = 13 }")
            return {}
        out = {}
        for name, pin in table.items():
            if name not in BUTTON_NAMES:
                self.bad(f"{prefix}buttons.{name}", f"unknown button (known: {', '.join(BUTTON_NAMES)})")
            elif isinstance(pin, bool) or not isinstance(pin, int):
                self.bad(f"{prefix}buttons.{name}", f"expected a BCM pin number, got {pin!r}")
            else:
                out[name] = pin
        return out

    def _encoder(self, table: Any, prefix: str) -> EncoderConfig | None:
        if table is None:
            return None
        if not isinstance(table, dict):
            self.bad(f"{prefix}encoder", "expected a table like { a = 17, b = 27, button = 22 }")
            return None
        p = f"{prefix}encoder."
        self.unknown_keys(table, {"a", "b", "button"}, p)
        a = self.typed(table, "a", p, int, None)
        b = self.typed(table, "b", p, int, None)
        if a is None or b is None:
            self.bad(f"{prefix}encoder", "needs both pins a and b")
            return None
        return EncoderConfig(a=a, b=b, button=self.typed(table, "button", p, int, None))

    def _screen(self, table: Any, prefix: str) -> ScreenConfig | None:
        if table is None:
            return None
        if not isinstance(table, dict):
            self.bad(f"{prefix}screen", "expected a table like { driver = \"ssd1306\", bus = 1 }")
            return None
        p = f"{prefix}screen."
        self.unknown_keys(table, {"driver", "bus", "address", "rotation"}, p)
        driver = self.typed(table, "driver", p, str, "ssd1306")
        if driver not in SCREEN_DRIVERS:
            self.bad(f"{p}driver", f"{driver!r}: expected one of {', '.join(SCREEN_DRIVERS)}")
        bus = self.typed(table, "bus", p, int, 1)
        address = self.typed(table, "address", p, int, 0x3C)
        rotation = self.typed(table, "rotation", p, int, 0)
        if not 0 <= bus <= 255:
            self.bad(f"{p}bus", f"{bus}: expected an I2C bus number 0-255 (/dev/i2c-N)")
        if not 0x03 <= address <= 0x77:
            self.bad(f"{p}address", f"{address:#x}: not a 7-bit I2C address")
        if rotation not in (0, 1, 2, 3):
            self.bad(f"{p}rotation", f"{rotation}: expected 0, 1, 2 or 3")
        return ScreenConfig(driver=driver, bus=bus, address=address, rotation=rotation)

    def _pins(self, seats: list[SeatConfig], buzzer_pin: int | None, uart: bool) -> None:
        users: dict[int, str] = {}
        reserved = dict(RESERVED_I2C)
        if uart:
            reserved.update(RESERVED_UART)

        def claim(pin: int, key: str) -> None:
            if not 0 <= pin <= MAX_BCM_PIN:
                self.bad(key, f"GPIO{pin}: not a BCM pin of the 40-pin header (0-{MAX_BCM_PIN})")
            elif pin in reserved:
                self.bad(key, f"GPIO{pin} is reserved for {reserved[pin]}")
            elif pin in users:
                self.bad(key, f"GPIO{pin} is already used by {users[pin]}")
            else:
                users[pin] = key

        for i, seat in enumerate(seats):
            for name, pin in seat.buttons.items():
                claim(pin, f"seats[{i}].buttons.{name}")
            if seat.encoder:
                claim(seat.encoder.a, f"seats[{i}].encoder.a")
                claim(seat.encoder.b, f"seats[{i}].encoder.b")
                if seat.encoder.button is not None:
                    claim(seat.encoder.button, f"seats[{i}].encoder.button")
        if buzzer_pin is not None:
            claim(buzzer_pin, "buzzer.pin")

    def _screens(self, seats: list[SeatConfig]) -> None:
        used: dict[tuple[int, int], str] = {}
        for i, seat in enumerate(seats):
            if seat.screen is None:
                continue
            where = (seat.screen.bus, seat.screen.address)
            key = f"seats[{i}].screen"
            if where in used:
                self.bad(key, f"bus {where[0]} address {where[1]:#x} is already used by {used[where]}")
            else:
                used[where] = key

    def _antennas(self, table: Any, seat_ids: set[int]) -> dict[int, str]:
        if not isinstance(table, dict):
            self.bad("antennas", "expected a table of zone = antenna number")
            return {}
        zones: dict[str, int] = {}
        for key, value in table.items():
            k = f"antennas.{key}"
            last = value + len(SQUARES) - 1 if key == "board" and isinstance(value, int) else value
            if isinstance(value, bool) or not isinstance(value, int) or value < 0 or last > MAX_ANTENNA:
                self.bad(k, f"expected an antenna number from 0 to {MAX_ANTENNA}"
                            f"{' (the board takes 30 from it)' if key == 'board' else ''}, got {value!r}")
                continue
            if key == "board":
                for i, square in enumerate(SQUARES):
                    zones[square] = value + i
            elif key in SQUARES or _is_centre(key):
                zones[key] = value
            elif key.startswith("seat") and key.endswith(".pad") and key[4:-4].isdigit():
                if int(key[4:-4]) not in seat_ids:
                    self.bad(k, f"no seat {key[4:-4]} in [[seats]]")
                    continue
                zones[key] = value
            else:
                self.bad(k, "unknown zone (expected board, A1..F5, seatN.pad or centre.1..centre.8)")
        antennas: dict[int, str] = {}
        for zone, ant in zones.items():
            if ant in antennas:
                self.bad(f"antennas.{zone}", f"antenna {ant} is already mapped to {antennas[ant]}")
            else:
                antennas[ant] = zone
        return antennas


def _is_centre(key: str) -> bool:
    prefix, _, n = key.partition(".")
    return prefix == "centre" and n.isdigit() and 1 <= int(n) <= CENTRE_SLOTS


def _shown(value: Any) -> str:
    """A value as a message quotes it: short (a wrong value may be a megabyte)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)

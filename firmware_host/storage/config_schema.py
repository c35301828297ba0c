"""Every key of the table config, with an example value and what it means: `config example`
prints a complete config generated from this list, and a test holds the list to what the config
reader accepts (it reads the reader's own "unknown key (known: …)" answers), so neither drifts."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Key:
    """One config key: its section ("" = top level, "seats[]" = each [[seats]] table, "x.y" for
    an inline table of a seat), name, example value as TOML, and a comment."""

    section: str
    name: str
    example: str
    comment: str


KEYS: tuple[Key, ...] = (
    Key("", "language", '"fr"', '"fr" or "en" (the seats can change it in the menu: Langue / Language)'),
    Key("", "uart", "false", "true if GPIO14/15 carry a serial console or UART: reserves those pins"),
    Key("", "blank_screens_at_exit", "false", "false: screens keep their last frame when the service stops"),
    Key("", "pin_cpu", "true",
        "true: the table's threads share one CPU core (less CPU per event), computer players think on the others"),
    Key("reader", "port", '"/dev/zebra-table-reader"', '"sim" = the virtual reader controller (no hardware)'),
    Key("reader", "baudrate", "115200", "the reader controller's serial speed"),
    Key("reader", "settle", "0.25", "seconds a sensed change must stay still before it is acted on"),
    Key("buttons", "hold_time", "1.0", "seconds for a long press (OK held: quit a game)"),
    Key("buttons", "bounce_time", "0.02", "seconds of contact bounce ignored"),
    Key("buzzer", "pin", "22", "BCM pin of a piezo buzzer (leave the section out for none)"),
    Key("seats[]", "id", "1", "seat number, 1 to 8, as written on the table"),
    Key("seats[]", "buttons", "{ left = 4, right = 5, ok = 6 }", "BCM pins of the seat's buttons"),
    Key("seats[].buttons", "left", "4", "◀"),
    Key("seats[].buttons", "right", "5", "▶"),
    Key("seats[].buttons", "ok", "6", "OK"),
    Key("seats[]", "encoder", "{ a = 25, b = 26, button = 27 }", "a rotary encoder instead of ◀ ▶ (button: its push)"),
    Key("seats[].encoder", "a", "25", "encoder pin A"),
    Key("seats[].encoder", "b", "26", "encoder pin B"),
    Key("seats[].encoder", "button", "27", "the encoder's push button (OK), optional"),
    Key("seats[]", "screen", '{ driver = "ssd1306", bus = 3, address = 0x3C, rotation = 0 }',
        "the seat's OLED; each TCA9548A channel is its own /dev/i2c-N"),
    Key("seats[].screen", "driver", '"ssd1306"', '"ssd1306" or "sh1106"'),
    Key("seats[].screen", "bus", "3", "I2C bus number (/dev/i2c-N)"),
    Key("seats[].screen", "address", "0x3C", "7-bit I2C address"),
    Key("seats[].screen", "rotation", "0", "quarter turns, 0 to 3 (1 or 3: a 64x128 portrait screen)"),
    Key("antennas", "board", "0", "first of the 30 antennas under A1..F5, row by row (A1 B1 .. F1, A2 ..)"),
    Key("antennas", '"seat1.pad"', "30", "one antenna per zone: seatN.pad, centre.N"),
    Key("computer", "think_seconds", "2.0",
        "most seconds a computer player thinks per move (0.1 to 60; sized for a Pi Zero 2 W)"),
    Key("paths", "data_dir", '"/var/lib/zebra-table"',
        "default: $XDG_DATA_HOME/zebra-table or ~/.local/share/zebra-table"),
    Key("paths", "tags_file", '"/var/lib/zebra-table/tags.json"', "the tag registry (default: <data_dir>/tags.json)"),
    Key("paths", "journal", '"/var/lib/zebra-table/journal.sqlite"',
        "the game journal (default: <data_dir>/journal.sqlite)"),
    Key("web", "enabled", "true", "the table's web pages (phones, the virtual table); off by default"),
    Key("web", "host", '"0.0.0.0"', 'the address to listen on (default "127.0.0.1": this machine only)'),
    Key("web", "port", "8080", "the TCP port of the web pages"),
    Key("web", "token", '"change-me-to-16-chars-or-more"', "the secret in the links (16 characters at least)"),
    Key("web", "url", '"http://table.local:8080"', "the address phones reach the table at (QR codes)"),
    Key("venue", "enabled", "true", "publish finished games to the venue's MQTT broker"),
    Key("venue", "table", '"table-1"', "the table's name on the broker (letters, digits, - and _)"),
    Key("venue", "host", '"broker.local"', "the broker's host name or address"),
    Key("venue", "port", "8883", "the broker's port (default 1883, 8883 with tls)"),
    Key("venue", "tls", "true", "connect with TLS"),
    Key("venue", "username", '"table-1"', "the broker account, if it has accounts"),
    Key("venue", "password", '"secret"', "its password"),
    Key("venue", "ca_file", '"/etc/zebra-table/venue-ca.pem"', "the broker's CA certificate (a readable file)"),
    Key("venue", "keepalive", "30", "seconds between MQTT keep-alives (5 to 3600)"),
    Key("venue", "reconnect_max", "10.0", "most seconds between reconnection attempts (0.5 to 600)"),
    Key("venue", "key_file", '"/etc/zebra-table/venue.key"',
        "signs every message; the venue holds the same key (or key = \"...\": 32-512 characters)"),
    Key("remote", "enabled", "true", "play with another table through this MQTT broker (docs/remote.md)"),
    Key("remote", "host", '"broker.example.org"', "the broker both tables reach"),
    Key("remote", "port", "8883", "its port (default 1883, 8883 with tls)"),
    Key("remote", "tls", "true", "connect with TLS (the moves cross the internet)"),
    Key("remote", "username", '"table-1"', "the broker account, if it has accounts"),
    Key("remote", "password", '"secret"', "its password"),
    Key("remote", "ca_file", '"/etc/zebra-table/remote-ca.pem"', "the broker's CA certificate (a readable file)"),
    Key("remote", "keepalive", "30", "seconds between MQTT keep-alives (5 to 3600)"),
    Key("remote", "reconnect_max", "10.0", "most seconds between reconnection attempts (0.5 to 600)"),
)

# shown commented out: a table serves no page, publishes nowhere and plays with no other table by default
OPTIONAL_SECTIONS = ("web", "venue", "remote")

SEAT_PINS = ((4, 5, 6), (7, 8, 9), (10, 11, 12), (13, 14, 15), (16, 17, 18))  # seats 1-5: buttons


def keys(section: str) -> set[str]:
    """The key names of a section."""
    return {k.name for k in KEYS if k.section == section}


def _line(key: Key, value: str | None = None) -> str:
    text = f"{key.name} = {value if value is not None else key.example}"
    return f"{text:<40} # {key.comment}"


def _section(section: str) -> list[Key]:
    return [k for k in KEYS if k.section == section]


def _key(section: str, name: str) -> Key:
    return next(k for k in KEYS if k.section == section and k.name == name)


def example_text() -> str:
    """A complete, valid config using every key: six seats (the sixth on an encoder), a buzzer."""
    out = ["# A complete table config: every key the table reads, generated from its schema",
           "# (firmware_host/storage/config_schema.py). Adjust the seats, pins and antennas to your table.", ""]
    out += [_line(k) for k in _section("")]
    for section in ("reader", "buttons", "buzzer", "computer"):
        out += ["", f"[{section}]"] + [_line(k) for k in _section(section)]
    for n, pins in enumerate(SEAT_PINS, start=1):
        out += _button_seat(n, pins, described=n > 1)
    out += _encoder_seat()
    out += _antennas()
    out += ["", "[paths]"] + [_line(k) for k in _section("paths")]
    for section in OPTIONAL_SECTIONS:
        out += ["", f"# [{section}]"] + [f"# {_line(k)}" for k in _section(section)]
    return "\n".join(out) + "\n"


def _button_seat(n: int, pins: tuple[int, int, int], described: bool) -> list[str]:
    """Seat `n` on buttons; the first one seen (not `described`) comments its keys and inline tables."""
    values = {"id": str(n), "buttons": f"{{ left = {pins[0]}, right = {pins[1]}, ok = {pins[2]} }}",
              "screen": f'{{ driver = "ssd1306", bus = {n + 2}, address = 0x3C, rotation = 0 }}'}
    out = ["", "[[seats]]"]
    out += [f"{k.name} = {values[k.name]}" if described else _line(k, values[k.name])
            for k in _section("seats[]") if k.name != "encoder"]
    if not described:  # the keys of the inline tables, once
        out += [f"#   {sub}.{k.name}: {k.example} — {k.comment}" for sub in ("buttons", "screen")
                for k in _section(f"seats[].{sub}")]
    return out


def _encoder_seat() -> list[str]:
    """The sixth seat, on a rotary encoder and an SH1106 screen turned upside down."""
    out = ["", "[[seats]]", "id = 6", _line(_key("seats[]", "encoder")),
           'screen = { driver = "sh1106", bus = 8, address = 0x3C, rotation = 2 }']
    return out + [f"#   encoder.{k.name}: {k.example} — {k.comment}" for k in _section("seats[].encoder")]


def _antennas() -> list[str]:
    """The board's first antenna, one pad per seat and five centre zones."""
    zone = next(k for k in _section("antennas") if k.name != "board")
    out = ["", "[antennas]", _line(_key("antennas", "board"))]
    out += [_line(zone) if n == 1 else f'"seat{n}.pad" = {29 + n}' for n in range(1, 7)]
    return out + [f'"centre.{n}" = {35 + n}' for n in range(1, 6)]

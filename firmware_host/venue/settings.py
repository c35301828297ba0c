"""The `[venue]` section of the table config: which MQTT broker the table publishes its games to.

Absent = off: the table connects nowhere. Validated like the rest of the config: every problem is
reported with its key (`venue.port`), types are strict (true is not a port, 1.5 is not a port,
inf is not a delay).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware_host.venue import signing

# the table's name is its MQTT client id and a topic level: MQTT 3.1.1 guarantees client ids of
# up to 23 characters; '/', '+' and '#' would break the topic scheme
TABLE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,22}")
HOST_NAME = re.compile(r"[A-Za-z0-9._:\[\]-]{1,253}")
BROKER_KEYS = ("enabled", "host", "port", "username", "password", "tls", "ca_file", "keepalive", "reconnect_max")
KEYS = ("table", *BROKER_KEYS, "key", "key_file")


@dataclass(frozen=True)
class Broker:
    """An MQTT broker and how to reach it: the part `[venue]` and `[remote]` share."""

    host: str
    port: int
    username: str | None
    password: str | None
    tls: bool
    ca_file: str | None
    keepalive: int
    reconnect_max: float
    enabled: bool


@dataclass(frozen=True)
class VenueConfig:
    """The broker a table (or the venue command) connects to, and the table's name there."""

    table: str
    host: str
    port: int = 1883
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: str | None = None  # with tls: the CA of the broker's certificate (None: system CAs)
    keepalive: int = 30
    reconnect_max: float = 10.0  # longest wait between two connection attempts, seconds
    enabled: bool = True
    key: str | None = field(default=None, repr=False)  # signs every message (HMAC-SHA256); None: unsigned

    @property
    def where(self) -> str:
        """host:port, for messages."""
        return f"{self.host}:{self.port}"


Bad = Callable[[str, str], None]


def parse_venue(raw: Any, bad: Bad, prefix: str = "venue.") -> VenueConfig | None:
    """Validate a raw `[venue]` table; None when absent. Problems go to `bad(key, message)`."""
    if raw is None:
        return None
    section = prefix.rstrip(".")
    if not isinstance(raw, dict):
        bad(section, "expected a table like [venue] with table = \"...\" and host = \"...\"")
        return None
    count = [0]

    def report(key: str, msg: str) -> None:
        count[0] += 1
        bad(f"{prefix}{key}", msg)

    for key in raw:
        if key not in KEYS:
            report(key, f"unknown key (known: {', '.join(sorted(KEYS))})")
    table = typed(raw, "table", str, None, report)
    if table is None:
        if "table" not in raw:
            report("table", "missing: the table's name on the broker (letters, digits, - and _)")
    elif not TABLE_NAME.fullmatch(table):
        report("table", f"{table!r}: 1 to 23 letters, digits, - or _ (it is the MQTT client id and a topic level)")
    broker = parse_broker(raw, report)
    key = _key(raw, report)
    if count[0] or table is None or broker is None:
        return None
    return VenueConfig(table=table, host=broker.host, port=broker.port, username=broker.username,
                       password=broker.password, tls=broker.tls, ca_file=broker.ca_file, keepalive=broker.keepalive,
                       reconnect_max=broker.reconnect_max, enabled=broker.enabled, key=key)


def parse_broker(raw: dict[str, Any], report: Bad) -> Broker | None:
    """The broker keys of a section (unknown keys are the caller's to report); None if any is wrong."""
    count = [0]

    def said(key: str, msg: str) -> None:
        count[0] += 1
        report(key, msg)

    enabled = typed(raw, "enabled", bool, True, said)
    host = typed(raw, "host", str, None, said)
    if host is None:
        if "host" not in raw:
            said("host", "missing: the broker's host name or address")
    elif not HOST_NAME.fullmatch(host):
        said("host", f"{host!r}: expected a host name or an IP address")
    tls = typed(raw, "tls", bool, False, said)
    port = typed(raw, "port", int, 8883 if tls else 1883, said)
    if not 1 <= port <= 65535:
        said("port", f"{port}: expected a TCP port from 1 to 65535")
    username = typed(raw, "username", str, None, said)
    password = typed(raw, "password", str, None, said)
    if password is not None and not username:
        said("password", "a password needs a username")
    if username == "":
        said("username", "empty: leave the key out for a broker without accounts")
    ca_file = typed(raw, "ca_file", str, None, said)
    if ca_file is not None:
        if not tls:
            said("ca_file", "given but tls = false: set tls = true to use it")
        elif not os.path.isfile(ca_file) or not os.access(ca_file, os.R_OK):
            said("ca_file", f"{ca_file}: no such readable file")
    keepalive = typed(raw, "keepalive", int, 30, said)
    if not 5 <= keepalive <= 3600:
        said("keepalive", f"{keepalive}: expected 5 to 3600 seconds")
    reconnect = typed(raw, "reconnect_max", (int, float), 10.0, said)
    if not math.isfinite(reconnect) or not 0.5 <= reconnect <= 600:
        said("reconnect_max", f"{reconnect}: expected 0.5 to 600 seconds")
    if count[0] or host is None:
        return None
    return Broker(host=host, port=port, username=username, password=password, tls=tls, ca_file=ca_file,
                  keepalive=keepalive, reconnect_max=float(reconnect), enabled=enabled)


def _key(raw: dict[str, Any], report: Bad) -> str | None:
    """The signing key, from `key` or from the file `key_file` (not both)."""
    text: str | None = typed(raw, "key", str, None, report)
    path: str | None = typed(raw, "key_file", str, None, report)
    if text is not None and path is not None:
        report("key_file", "give key or key_file, not both")
        return None
    if path is not None:
        try:
            text = signing.read_key_file(path)
        except OSError as exc:
            report("key_file", f"{path}: {exc.strerror or exc}")
            return None
        except ValueError as exc:
            report("key_file", str(exc))
            return None
    if text is None:
        return None
    problem = signing.key_problem(text)
    if problem is not None:
        report("key_file" if path is not None else "key", problem)
        return None
    return text


def typed(raw: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any, report: Bad) -> Any:
    """raw[key] if of `kind` (a bool is not an int), `default` if absent; a wrong type is reported."""
    if key not in raw:
        return default
    value = raw[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    # a bool is an int in Python: `port = true` is a mistake, not port 1
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        names = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}
        report(key, f"expected {' or '.join(names[k] for k in kinds)}, got {value!r}")
        return default
    return value

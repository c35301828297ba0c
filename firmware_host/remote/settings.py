"""The `[remote]` section of the table config: the broker through which tables play together.

Absent = off. The same broker keys as `[venue]` (host, port, TLS, credentials, delays), validated
by the same code with strict types and bounds; a table's name is not needed: each game makes its
own client ids from its room (firmware_host/remote/code.py).
"""

from __future__ import annotations

from typing import Any

from firmware_host.venue.settings import BROKER_KEYS, Bad, Broker, VenueConfig, parse_broker

KEYS = BROKER_KEYS


def parse_remote(raw: Any, bad: Bad) -> Broker | None:
    """Validate a raw `[remote]` table; None when absent or wrong. Problems go to `bad(key, message)`."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        bad("remote", "expected a table like [remote] with host = \"...\"")
        return None
    count = [0]

    def report(key: str, msg: str) -> None:
        count[0] += 1
        bad(f"remote.{key}", msg)

    for key in raw:
        if key not in KEYS:
            report(key, f"unknown key (known: {', '.join(sorted(KEYS))})")
    broker = parse_broker(raw, report)
    return None if count[0] else broker


def client_settings(broker: Broker, client_id: str) -> VenueConfig:
    """The broker as the MQTT client code takes it (firmware_host/venue/mqtt.py), under `client_id`."""
    return VenueConfig(table=client_id, host=broker.host, port=broker.port, username=broker.username,
                       password=broker.password, tls=broker.tls, ca_file=broker.ca_file, keepalive=broker.keepalive,
                       reconnect_max=broker.reconnect_max, enabled=broker.enabled)

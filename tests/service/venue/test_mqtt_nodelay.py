"""A table's MQTT connection sends each message at once: its socket has TCP_NODELAY, so a move or
an acknowledgement (a few hundred bytes) is not held by Nagle's algorithm until the previous
packet's ACK (a delayed ACK: up to 40 ms on Linux, a round trip of a remote game's move doubled)."""

from __future__ import annotations

import socket
import time

from firmware_host.venue import mqtt
from firmware_host.venue.settings import VenueConfig


def test_the_connection_to_the_broker_sends_without_delay(broker):
    settings = VenueConfig(table="nodelay", host="127.0.0.1", port=broker.port, reconnect_max=0.5)
    client = mqtt.make_client(settings, "nodelay", clean_session=True)
    try:
        mqtt.start(client, settings)
        deadline = time.monotonic() + 10
        while not client.is_connected() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert client.is_connected()
        sock = client.socket()
        assert sock is not None and sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        client.disconnect()
        client.loop_stop()

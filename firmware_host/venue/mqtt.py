"""The paho-mqtt client as both sides use it: MQTT 3.1.1, credentials, TLS, reconnect delays.

Imported only when a venue is configured (or by `zebra-table venue`): paho stays out of a home table.
"""

from __future__ import annotations

import ssl
from typing import Any

import paho.mqtt.client as mqtt

from firmware_host.venue.settings import VenueConfig

# what to tell the owner for each refusal (CONNACK codes of MQTT 3.1.1 as paho names them)
ADVICE = {
    "Bad user name or password": "check username and password in [venue]",
    "Not authorized": "check username and password in [venue], and the broker's access list",
    "Client identifier not valid": "check table in [venue] (the client id)",
    "Identifier rejected": "check table in [venue] (the client id)",
    "Server unavailable": "the broker is not accepting clients yet",
    "Unsupported protocol version": "the broker does not speak MQTT 3.1.1",
}


def make_client(settings: VenueConfig, client_id: str, clean_session: bool, manual_ack: bool = False) -> mqtt.Client:
    """A configured client, not yet connected (use `start`)."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean_session,
                         protocol=mqtt.MQTTv311, manual_ack=manual_ack)
    if settings.username:
        client.username_pw_set(settings.username, settings.password)
    if settings.tls:
        client.tls_set(ca_certs=settings.ca_file, cert_reqs=ssl.CERT_REQUIRED, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    # paho annotates the delays as int but computes with them as seconds: sub-second delays work
    client.reconnect_delay_set(min_delay=min(0.5, settings.reconnect_max),  # type: ignore[arg-type]
                               max_delay=settings.reconnect_max)  # type: ignore[arg-type]
    return client


def start(client: mqtt.Client, settings: VenueConfig) -> None:
    """Connect in paho's own network thread, which also reconnects after any loss."""
    client.connect_async(settings.host, settings.port, keepalive=settings.keepalive)
    client.loop_start()


def refusal(reason_code: Any) -> str:
    """A refused connection as one line for the admin log."""
    name = str(reason_code)
    advice = ADVICE.get(name)
    return f"{name} ({advice})" if advice else name


def success(rc: Any) -> bool:
    """True for a publish or ack call the client accepted (queued while disconnected included)."""
    return rc in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN)

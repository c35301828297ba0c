"""The paho-mqtt client as both sides use it: MQTT 3.1.1, credentials, TLS, reconnect delays.

Imported only when a venue is configured (or by `zebra-table venue`): paho stays out of a home table.
"""

from __future__ import annotations

import dataclasses
import secrets
import socket
import ssl
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

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
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean_session,
                         protocol=mqtt.MQTTv311, manual_ack=manual_ack)
    if settings.username:
        client.username_pw_set(settings.username, settings.password)
    if settings.tls:
        client.tls_set(ca_certs=settings.ca_file, cert_reqs=ssl.CERT_REQUIRED, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    # paho annotates the delays as int but computes with them as seconds: sub-second delays work
    client.reconnect_delay_set(min_delay=min(0.5, settings.reconnect_max),  # type: ignore[arg-type]
                               max_delay=settings.reconnect_max)  # type: ignore[arg-type]
    client.on_socket_open = no_delay
    return client


def no_delay(client: Any, userdata: Any, sock: Any) -> None:
    """Send each message at once: a move or its acknowledgement is a few hundred bytes, which Nagle's
    algorithm would hold until the previous packet's ACK (up to Linux's 40 ms delayed ACK)."""
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (OSError, AttributeError):  # not a TCP socket (a WebSocket wrapper): left as it is
        pass


def start(client: mqtt.Client, settings: VenueConfig) -> None:
    """Connect in paho's own network thread, which also reconnects after any loss."""
    client.connect_async(settings.host, settings.port, keepalive=settings.keepalive)
    client.loop_start()


def unreachable(settings: VenueConfig, ca_key: str = "ca_file in [venue]") -> str:
    """Why the broker could not be reached, as one line naming what to check (`ca_key`: where the CA is set).

    paho only says that the connection failed; with TLS the owner needs the handshake's own
    reason (an untrusted certificate, a host name it was not made for, a listener without TLS), so
    the handshake is tried again here, with the same checks as paho's (CA file or the system's
    CAs, host name verified). Runs in the MQTT network thread, never in the table's loop."""
    if settings.tls:
        why = tls_problem(settings, ca_key)
        if why is not None:
            return f"cannot connect to the broker {settings.where}: {why}"
    return f"cannot reach the broker {settings.where}"


def tls_problem(settings: VenueConfig, ca_key: str = "ca_file in [venue]") -> str | None:
    """The TLS handshake's failure with the broker as one line, or None (it succeeds or no TCP at all)."""
    context = ssl.create_default_context(cafile=settings.ca_file)
    try:
        with socket.create_connection((settings.host, settings.port), timeout=5.0) as raw, \
                context.wrap_socket(raw, server_hostname=settings.host):
            return None
    except ssl.SSLCertVerificationError as exc:
        return (f"TLS: the broker's certificate is not trusted ({exc.verify_message}); "
                f"check {ca_key} (the CA that signed the broker's certificate) and the host name")
    except ssl.SSLError as exc:
        return (f"TLS: handshake failed ({exc.reason or exc}); "
                f"check that port {settings.port} is the broker's TLS listener")
    except (ConnectionError, TimeoutError) as exc:
        if isinstance(exc, ConnectionResetError | BrokenPipeError):  # a listener without TLS hangs up
            return f"TLS: the broker closed the handshake; check that port {settings.port} is its TLS listener"
        return None
    except OSError:
        return None


def refusal(reason_code: Any) -> str:
    """A refused connection as one line for the admin log."""
    name = str(reason_code)
    advice = ADVICE.get(name)
    return f"{name} ({advice})" if advice else name


def success(rc: Any) -> bool:
    """True for a publish or ack call the client accepted (queued while disconnected included)."""
    return rc in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN)


def anonymous_accepted(settings: VenueConfig, timeout: float = 5.0) -> bool | None:
    """Whether the broker lets a client in without a username (same host, port and TLS):
    True or False from its CONNACK, None when it could not be asked (unreachable, no answer)."""
    anonymous = dataclasses.replace(settings, username=None, password=None)
    client = make_client(anonymous, f"zt-probe-{secrets.token_hex(4)}", clean_session=True)
    answer: list[bool] = []
    client.on_connect = lambda c, u, f, reason_code, p: answer.append(not reason_code.is_failure)
    try:
        client.connect(settings.host, settings.port, keepalive=settings.keepalive)
        deadline = time.monotonic() + timeout
        while not answer and time.monotonic() < deadline:
            client.loop(0.1)
        client.disconnect()
        client.loop(0.1)  # sends the DISCONNECT
    except (OSError, ValueError):  # unreachable, TLS refused: the listener reports it in its own words
        return None
    finally:
        sock = client.socket()
        if sock is not None:
            sock.close()
    return answer[0] if answer else None

"""The venue acknowledges a message only on the connection it came by: a message id is the
connection's, and the broker may give the same id to another message on the next connection. That
one, acknowledged by mistake, would never be sent again, and would be lost if the venue stopped
before storing it. (That acknowledged messages are not sent again by a real broker is
tests/service/venue/test_venue_poison.py's.)"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from paho.mqtt.client import MQTTMessage
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from firmware_host.venue import messages
from firmware_host.venue.listener import Listener
from firmware_host.venue.settings import VenueConfig
from tests.kits.venuekit import free_port


def arrival(table: str, mid: int) -> MQTTMessage:
    """A QoS 1 message as paho hands it to the venue: a table's status."""
    msg = MQTTMessage(mid=mid, topic=messages.status_topic(table).encode())
    msg.payload = messages.encode(messages.status(table, "online", time.time()))
    msg.qos = 1
    return msg


@pytest.fixture
def listener(tmp_path: Path):
    made = Listener(VenueConfig(table="venue", host="127.0.0.1", port=free_port()), tmp_path / "v.sqlite",
                    "venue-test")
    yield made
    made.db.close()


def test_a_message_is_acknowledged_only_on_the_connection_it_came_by(listener, monkeypatch):
    acked: list[int] = []
    monkeypatch.setattr(listener.client, "ack", lambda mid, qos: acked.append(mid))
    connack, lost = ReasonCode(PacketTypes.CONNACK, "Success"), ReasonCode(PacketTypes.DISCONNECT, "Unspecified error")
    client = listener.client
    listener._on_connect(client, None, None, connack, None)
    listener._on_message(client, None, arrival("t1", 5))
    listener._on_disconnect(client, None, None, lost, None)  # before t1's batch is stored
    listener._on_connect(client, None, None, connack, None)
    listener._on_message(client, None, arrival("t2", 5))  # the same id, another message
    listener._on_message(client, None, arrival("t1", 9))  # t1 sent again: the session is kept
    batch, stop = listener._next_batch()
    assert len(batch) == 3 and not stop
    listener._store(batch)
    assert acked == [5, 9]  # t2's 5 and t1's copy; the first 5 belonged to the connection that ended
    assert sorted(t.name for t in listener.db.tables()) == ["t1", "t2"]


def test_what_came_by_a_connection_that_ended_is_stored_but_not_acknowledged(listener, monkeypatch):
    acked: list[int] = []
    monkeypatch.setattr(listener.client, "ack", lambda mid, qos: acked.append(mid))
    client = listener.client
    listener._on_connect(client, None, None, ReasonCode(PacketTypes.CONNACK, "Success"), None)
    listener._on_message(client, None, arrival("t1", 1))
    listener._on_message(client, None, arrival("t2", 2))
    batch, _ = listener._next_batch()
    listener._store(batch)
    assert acked == [1, 2]
    listener._on_message(client, None, arrival("t3", 3))
    listener._on_disconnect(client, None, None, ReasonCode(PacketTypes.DISCONNECT, "Unspecified error"), None)
    batch, _ = listener._next_batch()
    listener._store(batch)  # no connection yet: the broker sends it again on the next one
    assert acked == [1, 2] and "t3" in {t.name for t in listener.db.tables()}

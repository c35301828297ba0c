"""The table's publisher against a real mosquitto on 127.0.0.1: the journal's games arrive in
order, QoS 1; the status is retained with an "offline" last will; the cursor follows PUBACKs, so a
restarted publisher sends only what the broker never acknowledged."""

from __future__ import annotations

import threading
import time

from firmware_host.storage.config import parse_config, sim_config_text
from firmware_host.storage.journal import Journal
from firmware_host.venue import attach
from firmware_host.venue.outbox import Outbox
from games.core import GameConfig
from games.playout import random_playout
from games.registry import get_game
from tests.kits.venuekit import Collector, journal_game, wait_for


def table_config(broker, name: str = "t1", **extra):
    return parse_config(sim_config_text() + broker.venue_toml(name, **extra))


def test_a_game_reaches_the_broker_in_order_and_the_cursor_follows(broker, tmp_path):
    collector = Collector(broker.port)
    journal = Journal(tmp_path / "j.sqlite")
    link = attach(table_config(broker), journal)
    assert link is not None
    try:
        assert wait_for(lambda: collector.statuses("t1"))[0]["state"] == "online"
        gid, p = journal_game(journal, "zop", 2, seed=3)  # every commit wakes the publisher
        n = len(p.moves)
        events = wait_for(lambda: (e := collector.game_events()) and len(e) >= n + 2 and e)
        assert [e["seq"] for e in events] == list(range(n + 2))
        assert [e["kind"] for e in events] == ["started"] + ["move"] * n + ["finished"]
        assert wait_for(lambda: journal.db.execute(
            "SELECT closed FROM venue_outbox WHERE game_id=?", (gid,)).fetchone() == (1,))
    finally:
        link.close()
        journal.close()
    statuses = wait_for(lambda: (s := collector.statuses("t1")) and s[-1]["state"] == "offline" and s)
    assert statuses[-1]["reason"] == "stopped"
    collector.close()
    late = Collector(broker.port, "late")  # a consumer arriving now reads the retained status
    assert wait_for(lambda: late.statuses("t1"))[-1]["state"] == "offline"
    late.close()


def test_a_restarted_publisher_sends_only_what_the_broker_lacks(broker, tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    config = table_config(broker)
    link = attach(config, journal)
    first, p1 = journal_game(journal, "spywhere", 3, seed=1)
    collector = Collector(broker.port)
    link.close()  # drains: the whole first game was acknowledged before it returns
    assert journal.db.execute("SELECT closed FROM venue_outbox WHERE game_id=?", (first,)).fetchone() == (1,)
    journal.on_commit = None
    second, p2 = journal_game(journal, "spywhere", 3, seed=2)  # played while the publisher is off
    before = len(collector.game_events())
    link = attach(config, journal)
    try:
        new = wait_for(lambda: (e := collector.game_events()[before:]) and e[-1]["kind"] == "finished" and e)
        box = Outbox(journal.path, "t1")
        assert {e["game_id"] for e in new} == {box.game_id(second)}
        assert [e["seq"] for e in new] == list(range(len(p2.moves) + 2))
    finally:
        link.close()
        journal.close()
        collector.close()


def test_payloads_are_the_outbox_messages_byte_for_byte(broker, tmp_path):
    """What leaves the table is exactly what the outbox built (so the hidden-information property
    on the outbox's messages covers the wire)."""
    import paho.mqtt.client as mqtt

    raw: list[tuple[str, bytes]] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="raw", protocol=mqtt.MQTTv311)
    client.on_connect = lambda c, u, f, rc, p: c.subscribe("zebra-table/t2/game/#", qos=1)
    client.on_message = lambda c, u, m: raw.append((m.topic, m.payload))
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    journal = Journal(tmp_path / "j.sqlite")
    link = attach(table_config(broker, "t2"), journal)
    try:
        _, p = journal_game(journal, "mata-hari", 3, seed=2)
        wait_for(lambda: len(raw) >= len(p.moves) + 2)
    finally:
        link.close()
        client.disconnect()
        client.loop_stop()
    journal.db.execute("DELETE FROM venue_outbox")  # rebuild everything, as a fresh outbox would
    expected = [(m.topic, m.payload) for m in Outbox(journal.path, "t2").take(100_000)]
    journal.close()
    assert raw == expected


def test_moves_made_as_the_broker_comes_back_wait_behind_those_it_never_acknowledged(broker, tmp_path):
    """paho resends what it was handed and never saw acknowledged only after the publisher's
    on_connect returns; a move journaled in between must not overtake them, or the venue gets the
    game out of order. paho's thread is held in on_connect, the window made wide on purpose."""
    collector = Collector(broker.port, "keeps", clean_session=False)
    broker.stop()  # saves the collector's session: the broker killed below starts again with it
    broker.start()
    journal = Journal(tmp_path / "j.sqlite")
    link = attach(table_config(broker), journal)
    assert link is not None
    # the first connection is waited for before the callback is replaced: paho's thread may
    # connect before this test's next line, and then no later connection would be seen
    assert wait_for(lambda: link.connected)
    came_back = threading.Event()
    original = link.client.on_connect

    def held(*args):  # the publisher's own callback, then paho's thread held before it resends
        original(*args)
        came_back.set()
        time.sleep(0.5)

    link.client.on_connect = held
    try:
        p = random_playout(get_game("zop"), GameConfig(2, {}, 3), 3)
        half = 30  # within the window of messages handed to paho unacknowledged
        assert len(p.moves) > 2 * half
        broker.pause()  # the connection stays up, no PUBACK comes back
        gid = journal.start_game("zop", p.config, (1, 2))
        for i, (seat, act) in enumerate(p.moves[:half]):  # handed to paho, never acknowledged
            journal.append(gid, i, seat, act)
        assert wait_for(lambda: len(link.pending) == half + 1)
        broker.kill()
        broker.start()
        assert wait_for(came_back.is_set)
        for i, (seat, act) in enumerate(p.moves[half:], half):  # journaled as it comes back
            journal.append(gid, i, seat, act)
        journal.finish(gid, p.outcome.to_json())
        n = len(p.moves)
        events = wait_for(lambda: (e := collector.game_events()) and len(e) >= n + 2 and e)
        assert [e["seq"] for e in events] == list(range(n + 2))
    finally:
        link.close()
        journal.close()
        collector.close()


def test_a_move_made_while_the_table_connects_again_waits_behind_those_made_while_away(broker, tmp_path):
    """Moves made while the broker is away wait in the journal; one made while paho is connecting
    again (its CONNECT sent, no CONNACK yet) must wait too: handed to paho then, it would leave
    right behind the CONNECT, ahead of everything that waited. The broker is held paused while
    paho connects, so the window is wide on purpose."""
    collector = Collector(broker.port, "keeps", clean_session=False)
    journal = Journal(tmp_path / "j.sqlite")
    link = attach(table_config(broker), journal)
    assert link is not None
    try:
        assert wait_for(lambda: link.connected)
        p = random_playout(get_game("zop"), GameConfig(2, {}, 3), 3)
        half = 30
        broker.stop()  # saves the collector's session
        assert wait_for(lambda: not link.connected)
        gid = journal.start_game("zop", p.config, (1, 2))
        for i, (seat, act) in enumerate(p.moves[:half]):  # made while the broker is away
            journal.append(gid, i, seat, act)
        for _ in range(5):  # paho may get through in the instant before the pause: again
            broker.start()
            broker.pause()
            if not link.connected:
                break
            broker.resume()
            broker.stop()
            assert wait_for(lambda: not link.connected)
        assert not link.connected
        # paho's socket is open (the kernel accepts for the paused broker), its CONNECT unanswered
        assert wait_for(lambda: link.client.socket() is not None)
        journal.append(gid, half, *p.moves[half])
        time.sleep(0.5)  # long enough for a publisher that hands it now to have done so
        broker.resume()
        for i, (seat, act) in enumerate(p.moves[half + 1:], half + 1):
            journal.append(gid, i, seat, act)
        journal.finish(gid, p.outcome.to_json())
        n = len(p.moves)
        events = wait_for(lambda: (e := collector.game_events()) and len(e) >= n + 2 and e, 20.0)
        assert [e["seq"] for e in events] == list(range(n + 2))
    finally:
        if broker.proc is not None:
            broker.resume()
        link.close()
        journal.close()
        collector.close()

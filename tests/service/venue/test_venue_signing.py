"""A table's own proof: it signs every message with its key (HMAC-SHA256), the venue knows the key
and sets aside what is unsigned or wrongly signed. On a real mosquitto that lets anyone publish, a
forged `finished` for a live game leaves the real game's end and result untouched."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_host.storage.config import ConfigError, parse_config, sim_config_text
from firmware_host.venue import keyring, messages, signing
from tests.kits.venuekit import (
    ROOT,
    Broker,
    Collector,
    TableProcess,
    VenueProcess,
    journal_games,
    recorded_games,
    sim_config,
    tear_down,
    wait_for,
)

KEY = "3f" * 32  # as `openssl rand -hex 32` makes one
GAME = [("spywhere", [1, 2, 3])]
SEED = 31


def venue_section(body: str) -> str:
    return sim_config_text() + '\n[venue]\ntable = "t1"\nhost = "127.0.0.1"\n' + body


def test_the_table_key_is_read_from_the_section_or_a_file(tmp_path):
    assert parse_config(venue_section(f'key = "{KEY}"\n')).venue.key == KEY
    key_file = tmp_path / "venue.key"
    key_file.write_text(KEY + "\n")
    assert parse_config(venue_section(f'key_file = "{key_file}"\n')).venue.key == KEY
    assert parse_config(venue_section("")).venue.key is None
    assert KEY not in repr(parse_config(venue_section(f'key = "{KEY}"\n')).venue)


@pytest.mark.parametrize("body, key, words", [
    ('key = "short"\n', "venue.key", "32 to 512 printable ASCII"),
    ('key = "' + "x" * 600 + '"\n', "venue.key", "32 to 512"),
    ('key = "has a space in it, thirty-two chars or more"\n', "venue.key", "without spaces"),
    ("key = 12345\n", "venue.key", "a string"),
    (f'key = "{KEY}"\nkey_file = "/etc/hostname"\n', "venue.key_file", "not both"),
    ('key_file = "/no/such/key"\n', "venue.key_file", "No such file"),
    ('key_file = "/dev/zero"\n', "venue.key_file", "not a regular file"),
])
def test_a_bad_key_names_its_key(body, key, words):
    with pytest.raises(ConfigError) as err:
        parse_config(venue_section(body), "t.toml")
    found = dict(err.value.issues)
    assert key in found and words in found[key], found


def test_a_fifo_as_key_file_does_not_hang(tmp_path):
    fifo = tmp_path / "key.fifo"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError) as err:
        parse_config(venue_section(f'key_file = "{fifo}"\n'))
    assert "not a regular file" in str(err.value)


def test_the_venue_key_file(tmp_path):
    cafe4 = tmp_path / "cafe-4.key"
    cafe4.write_text("b" * 64)
    path = tmp_path / "keys.toml"
    path.write_text(f'cafe-3 = "{KEY}"\ncafe-4 = {{ key_file = "{cafe4}" }}\n')
    assert keyring.load(str(path)) == ({"cafe-3": KEY.encode(), "cafe-4": b"b" * 64}, [])
    path.write_text('"a/b" = "' + "c" * 40 + '"\nt2 = "short"\nt3 = 5\nt4 = { key_file = "/dev/zero" }\n')
    keys, problems = keyring.load(str(path))
    assert keys == {}
    text = "\n".join(problems)
    for words in ("a/b: a table name is 1 to 23", "t2: a key is 32 to 512", "t3: expected", "t4: key_file",
                  "not a regular file"):
        assert words in text, text
    path.write_text("t1 = [")
    assert "keys.toml" in keyring.load(str(path))[1][0]
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (keyring.FILE_MAX + 1))
    assert "at most" in keyring.load(str(big))[1][0]


@pytest.mark.parametrize("flags, words", [
    (["--keys", "/no/such/keys.toml"], "--keys: /no/such/keys.toml: No such file"),
    (["--signed-only"], "--signed-only: needs --keys"),
])
def test_venue_key_flags_are_checked(tmp_path, flags, words):
    proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "venue", "--db",
                           str(tmp_path / "v.sqlite"), *flags], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_a_table_with_a_key_signs_every_message(tmp_path):
    broker = Broker(tmp_path / "broker").start()
    collector = Collector(broker.port)
    table = None
    try:
        config = sim_config(tmp_path / "t1.toml", broker.venue_toml("t1", key=KEY))
        table = TableProcess(config, tmp_path / "t1.sqlite", SEED, tmp_path / "t1.log", tmp_path / "tmp")
        table.play(recorded_games(GAME, SEED)[:10])
        assert table.close() == 0
        assert wait_for(lambda: any(p["state"] == "offline" for p in collector.statuses("t1")))
    finally:
        collector.close()
        tear_down([table] if table else [], None, broker)
    assert collector.messages
    # the collector decoded them: the signed bytes are the payload re-encoded as the table encodes it
    for topic, payload, _ in collector.messages:
        assert "sig" in payload, topic
        body = messages.encode({k: v for k, v in payload.items() if k != "sig"})
        assert signing.verify(KEY.encode(), topic, body, payload["sig"]), topic


def forged_finished(game_id: str, seq: int) -> bytes:
    """The end of the live game as a forger wants it: player 1 wins, 99 to 0."""
    return messages.encode(messages.finished(
        "t1", game_id, "spywhere", 3, [1, 2, 3], "finished", seq - 1, time.time() - 60, time.time(),
        {"view": {}, "screen": None, "outcome": {"scores": [99, 0, 0], "winners": [0]}}))


def test_a_forged_finished_for_a_live_game_is_set_aside(tmp_path):
    import paho.mqtt.client as mqtt

    broker = Broker(tmp_path / "broker").start()  # anonymous: anyone on the network may publish
    keys = tmp_path / "keys.toml"
    keys.write_text(f't1 = "{KEY}"\n')
    db_path = tmp_path / "venue.sqlite"
    venue = VenueProcess(broker.port, db_path, tmp_path / "venue.log", "--keys", str(keys))
    tables: list[TableProcess] = []
    forger = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="forger", protocol=mqtt.MQTTv311)
    try:
        assert "accepts anonymous clients" in venue.log.read_text()
        events = recorded_games(GAME, SEED)
        config = sim_config(tmp_path / "t1.toml", broker.venue_toml("t1", key=KEY))
        table = TableProcess(config, tmp_path / "t1.sqlite", SEED, tmp_path / "t1.log", tmp_path / "tmp")
        tables.append(table)
        table.play(events[: len(events) // 2])
        game_id = wait_for(lambda: _one(db_path, "SELECT game_id FROM games WHERE table_name='t1'"), 20.0)
        assert game_id, venue.log.read_text()[-2000:]
        # the forger ends the live game at every seq its real end may have, unsigned and signed with a guess
        forger.connect("127.0.0.1", broker.port)
        forger.loop_start()
        forged = 0
        for seq in range(1, 301):
            topic = messages.game_topic("t1", game_id, "finished")
            payload = forged_finished(game_id, seq)
            for data in (payload, signing.sign(b"guess" * 8, topic, payload)):
                forger.publish(topic, data, qos=1).wait_for_publish(10)
                forged += 1
        table.play(events[len(events) // 2:])
        expected = journal_games(tmp_path / "t1.sqlite")
        real = expected[game_id]
        assert real["status"] == "finished"
        assert wait_for(lambda: _one(db_path, "SELECT COUNT(*) FROM events WHERE table_name='t1'")
                        == real["moves"] + 2, 30.0)
        assert table.close() == 0
        venue.stop()
        db = sqlite3.connect(db_path)
        arrivals = [r[0] for r in db.execute("SELECT seq FROM events WHERE game_id=? ORDER BY arrival", (game_id,))]
        assert arrivals == list(range(real["moves"] + 2))  # the real end is stored, not dropped as a copy
        status, outcome = db.execute("SELECT status, outcome FROM games WHERE game_id=?", (game_id,)).fetchone()
        assert status == "finished"
        journaled = json.loads(real["outcome"])  # the table's result, not the forger's
        assert json.loads(outcome) == {"scores": journaled["scores"], "winners": journaled["winners"]}
        assert db.execute("SELECT duplicates FROM tables WHERE name='t1'").fetchone() == (0,)
        reasons = [r for (r,) in db.execute("SELECT reason FROM quarantine")]
        db.close()
        assert len(reasons) == forged
        assert sum("unsigned, and table t1 signs" in r for r in reasons) == forged // 2
        assert sum("wrong signature for table t1" in r for r in reasons) == forged // 2
    finally:
        forger.disconnect()
        forger.loop_stop()
        tear_down(tables, venue, broker)


def _one(db_path: Path, sql: str) -> object:
    db = sqlite3.connect(db_path)
    try:
        row = db.execute(sql).fetchone()
    except sqlite3.OperationalError:  # the venue has not made its tables yet
        return None
    finally:
        db.close()
    return None if row is None else row[0]

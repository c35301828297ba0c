"""No message stops the venue (a real mosquitto on 127.0.0.1): each poison is set aside in the
quarantine table with its reason, acknowledged (a restart does not get it again) and counted; the
writer goes on storing. If the writer stops all the same, the command says so and exits 1.
`venue --show` and the CSV read any stored data, a time of 1e308 included."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from firmware_host.venue import messages
from firmware_host.venue.results import VenueDB
from tests.kits.venue_poison import POISONS, Sender, online, query
from tests.kits.venuekit import ROOT, Broker, VenueProcess, free_port, wait_for


def test_each_poison_is_set_aside_acknowledged_and_the_venue_goes_on(tmp_path):
    broker = Broker(tmp_path / "broker").start()
    db_path = tmp_path / "venue.sqlite"
    venue = VenueProcess(broker.port, db_path, tmp_path / "venue.log")
    sender = Sender(broker.port)
    try:
        for topic, payload, _ in POISONS:
            sender.send(topic, payload)
        sender.send("zebra-table/t1/status", messages.encode(messages.status("t1", "online", time.time())))
        assert wait_for(lambda: online(db_path, "t1"), 20.0), venue.log.read_text()[-3000:]
        reasons = [r for (r,) in query(db_path, "SELECT reason FROM quarantine ORDER BY id")]
        assert len(reasons) == len(POISONS)
        for (_, _, words), reason in zip(POISONS, reasons, strict=True):
            assert words in reason, (words, reason)
        sizes = query(db_path, "SELECT MAX(size), MAX(LENGTH(payload)), MAX(LENGTH(topic)) FROM quarantine")[0]
        assert sizes[0] > 1_000_000 and sizes[1] <= 4096 and sizes[2] <= 300  # a poison is kept small
        assert query(db_path, "SELECT COUNT(*) FROM tables") == [(1,)]  # nothing of the poisons stored
        output = venue.stop()  # exit 0 (checked by stop)
        assert f"{len(POISONS)} set aside" in output and f"Messages set aside: {len(POISONS)}" in output
        # acknowledged: a venue started again on the same session gets none of them back
        again = VenueProcess(broker.port, db_path, tmp_path / "venue2.log")
        sender.send("zebra-table/t2/status", messages.encode(messages.status("t2", "online", time.time())))
        assert wait_for(lambda: online(db_path, "t2"), 20.0)
        assert query(db_path, "SELECT COUNT(*) FROM quarantine") == [(len(POISONS),)]
        assert "0 set aside" in again.stop()
        assert "Traceback" not in venue.log.read_text()
    finally:
        sender.close()
        for v in (venue, locals().get("again")):
            if v is not None and v.proc.poll() is None:
                v.proc.kill()
        broker.stop()


def venue_show(db_path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "venue", "--db", str(db_path),
                           *flags], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_show_reads_a_status_time_of_1e308(tmp_path):
    db_path = tmp_path / "old.sqlite"
    VenueDB(db_path).close()
    db = sqlite3.connect(db_path)
    db.execute("INSERT INTO tables VALUES ('t1', 'online', NULL, 1e308, 1e308, NULL, 0)")
    db.commit()
    db.close()
    proc = venue_show(db_path, "--show", "--lang", "en")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert "t1     online  ?" in proc.stdout


def test_show_and_csv_read_whatever_an_older_venue_stored(tmp_path):
    db_path = tmp_path / "old.sqlite"
    VenueDB(db_path).close()
    db = sqlite3.connect(db_path)
    db.execute("INSERT INTO tables VALUES ('t1', 'online', NULL, 1e308, 1e308, 'g-1', 0)")
    db.execute("INSERT INTO tables VALUES ('" + "T" * 60_000 + "', 'online', NULL, -1e308, 5, 'g-2', 0)")
    db.execute("INSERT INTO games VALUES ('t1', 'g-1', 'zop', 2, '[1, \"x\"]', '{}', 1e308, 1e308, 1e308,"
               " 'finished', 3, ?, ?)", (json.dumps({"title": "not a text", "lines": [3, None]}),
                                          json.dumps({"scores": "high", "winners": [True, "x", 7]})))
    db.execute("INSERT INTO games VALUES ('" + "T" * 60_000 + "', 'g-2', 'zop', 2, 'not json', NULL, NULL, NULL,"
               " 'long', 'finished', 1, ?, '[')", ("[" * 100_000 + "]" * 100_000,))
    db.execute("INSERT INTO results VALUES ('t1', 'g-1', 0, 'seat 1', 1e308, 1)")
    db.commit()
    db.close()
    for flags in (["--show"], ["--show", "--lang", "en"], ["--csv", "-"], ["--results-csv", "-"]):
        proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "venue", "--db", str(db_path),
                               *flags], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, (flags, proc.stderr[-2000:])
        assert "t1" in proc.stdout
    show = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "venue", "--db", str(db_path),
                           "--show", "--lang", "en"], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    assert max(len(line) for line in show.splitlines()) < 250  # a 60,000-character name is cut


PROBE = """
import sqlite3, sys
from firmware_host.venue import listener, results
listener.DB_PATIENCE = 2.0
def failing(self):  # the disk under the results database fails for good
    raise sqlite3.OperationalError("disk I/O error")
results.VenueDB.commit = failing
from firmware_host.commands.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_writer_that_stops_makes_the_command_say_so_and_exit_1(tmp_path):
    broker = Broker(tmp_path / "broker").start()
    log = tmp_path / "venue.log"
    proc = subprocess.Popen([sys.executable, "-c", PROBE, "venue", "--port", str(broker.port), "--db",
                             str(tmp_path / "v.sqlite"), "--for", "40", "--reconnect-max", "1"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=log.open("ab"))
    try:
        assert wait_for(lambda: "venue: listening" in log.read_text(), 20.0), log.read_text()
        sender = Sender(broker.port)
        sender.send("zebra-table/t1/status", messages.encode(messages.status("t1", "online", time.time())))
        sender.close()
        started = time.monotonic()
        proc.wait(60)
        assert proc.returncode == 1, log.read_text()[-2000:]
        assert time.monotonic() - started < 30  # it stopped when the writer did, not at the end of --for
        text = log.read_text()
        assert "venue: the writer stopped (RuntimeError: results database: disk I/O error for 2 s)" in text
        assert "nothing more was stored; the broker keeps what was not acknowledged" in text
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        if proc.stdout is not None:
            proc.stdout.close()
        broker.stop()


def test_the_venue_warns_of_an_anonymous_broker_and_of_unsigned_tables(tmp_path):
    open_broker = Broker(tmp_path / "open").start()
    try:
        venue = VenueProcess(open_broker.port, tmp_path / "v1.sqlite", tmp_path / "v1.log")
        venue.stop()
        text = venue.log.read_text()
        assert f"the broker 127.0.0.1:{open_broker.port} accepts anonymous clients" in text
        assert "no table keys (--keys): every table's messages are taken unsigned" in text
    finally:
        open_broker.stop()
    closed = Broker(tmp_path / "closed", users={"venue": "venue-pw"}).start()
    try:
        pw = tmp_path / "pw"
        pw.write_text("venue-pw\n")
        keys = tmp_path / "keys.toml"
        keys.write_text(f't1 = "{"a" * 64}"\n')
        venue = VenueProcess(closed.port, tmp_path / "v2.sqlite", tmp_path / "v2.log", "--username", "venue",
                             "--password-file", str(pw), "--keys", str(keys), "--signed-only")
        venue.stop()
        text = venue.log.read_text()
        assert "anonymous" not in text and "unsigned" not in text
    finally:
        closed.stop()


def test_an_unreachable_broker_delays_no_start(tmp_path):
    port = free_port()  # nothing listens there
    proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "venue", "--port", str(port),
                           "--db", str(tmp_path / "v.sqlite"), "--for", "1"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and "anonymous" not in proc.stderr and "Traceback" not in proc.stderr


def test_an_unforeseen_error_on_one_message_sets_it_aside_and_keeps_the_others(tmp_path, monkeypatch):
    from firmware_host.venue import inbound
    from firmware_host.venue.listener import Listener
    from firmware_host.venue.settings import VenueConfig

    listener = Listener(VenueConfig(table="venue", host="127.0.0.1", port=free_port()), tmp_path / "v.sqlite",
                        "venue-test")
    real_store, real_parse = VenueDB.store, inbound.parse

    def store(self: VenueDB, ev: inbound.Event, received: float | None = None) -> bool:
        if ev.table == "t2":  # half written, then a fault no check foresaw
            self.db.execute("INSERT INTO tables (name, state, seen) VALUES ('half-written', 'x', 0)")
            raise TypeError("a fault in the store")
        return real_store(self, ev, received)

    def parse(topic: str, payload: bytes, *args: Any) -> inbound.Event:
        if "/t4/" in topic:
            raise KeyError("a fault in the checks")
        return real_parse(topic, payload, *args)

    monkeypatch.setattr(VenueDB, "store", store)
    monkeypatch.setattr(inbound, "parse", parse)
    batch = [(messages.status_topic(t), messages.encode(messages.status(t, "online", 1.0)), i + 1, 1, 0)
             for i, t in enumerate(["t1", "t2", "t3", "t4"])]
    try:
        listener._store(batch)
        assert sorted(r.name for r in listener.db.tables()) == ["t1", "t3"]
        count, latest = listener.db.quarantined(5)
        assert count == 2 and listener.stats.quarantined == 2 and listener.stats.stored == 2
        reasons = sorted(reason for _, _, reason in latest)
        assert reasons[0] == "cannot be stored (TypeError: a fault in the store)"
        assert reasons[1] == "unreadable (KeyError: 'a fault in the checks')"
    finally:
        listener.db.close()

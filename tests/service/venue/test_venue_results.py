"""The venue's results database and view, fed with the messages a real journal's outbox builds:
copies dropped by (table, game id, seq), results per game, CSV, and bad messages refused."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.storage.journal import Journal
from firmware_host.venue import inbound, messages
from firmware_host.venue.outbox import Outbox
from firmware_host.venue.results import VenueDB
from firmware_host.venue.view import render
from tests.kits.venuekit import journal_game

ROOT = Path(__file__).resolve().parents[3]


def outbox_events(tmp_path: Path, table: str, games: list[tuple[str, int, int]]) -> list[messages.Event]:
    j = Journal(tmp_path / f"{table}.sqlite")
    box = Outbox(j.path, table)
    for game, players, seed in games:
        journal_game(j, game, players, seed)
    out = [inbound.parse(m.topic, m.payload) for m in box.take(100_000)]
    j.close()
    return out


def test_copies_are_dropped_and_results_follow_the_outcomes(tmp_path):
    events = outbox_events(tmp_path, "t1", [("spywhere", 3, 1), ("zop", 2, 2)])
    db = VenueDB(tmp_path / "venue.sqlite")
    db.begin()
    assert db.store(inbound.parse("zebra-table/t1/status", messages.encode(messages.status("t1", "online", 5.0))))
    stored = [db.store(e) for e in events]
    again = [db.store(e) for e in events[10:20]]  # a table resending after a power cut
    db.commit()
    assert all(stored) and not any(again)
    (row,) = db.tables()
    assert (row.name, row.state, row.duplicates) == ("t1", "online", 10)
    games = {e.game_id: e for e in events if e.kind == "finished"}
    for gid, fin in games.items():
        assert db.arrivals("t1", gid) == list(range(fin.data["moves"] + 2))
    results = db.results()
    assert {r.game for r in results} == {"spywhere", "zop"}
    for fin in games.values():
        outcome = fin.data["public"]["outcome"]
        for seat, score in enumerate(outcome["scores"]):
            r = next(r for r in results if r.game == fin.data["game"] and r.who == f"seat {seat + 1}")
            assert (r.played, r.wins, r.average) == (1, int(seat in outcome["winners"]), score)
    text = render(db, "en")
    assert "t1" in text and "online" in text and "ZOP" in text and "Spywhere" in text
    out = io.StringIO()
    assert db.export_games(out) == 2
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert {r["game"] for r in rows} == {"spywhere", "zop"} and all(r["status"] == "finished" for r in rows)
    db.close()


def test_a_venue_arriving_mid_game_still_records_the_end(tmp_path):
    events = outbox_events(tmp_path, "t2", [("spywhere", 3, 3)])
    db = VenueDB(tmp_path / "venue.sqlite")
    db.begin()
    for e in events[5:]:  # the start and the first moves were sent before the venue subscribed
        db.store(e)
    db.commit()
    (row,) = db.tables()
    assert row.game == "spywhere" and row.game_status == "finished" and row.state == "unknown"
    assert len(db.results()) == 3
    db.close()


@pytest.mark.parametrize("topic, payload, words", [
    ("zebra-table/t1/other", b"{}", "not in the zebra-table scheme"),
    ("zebra-table/t1/status", b"\xff", "not JSON"),
    ("zebra-table/t1/status", b"[1]", "not a JSON object"),
    ("zebra-table/t1/status", b'{"v": 2, "kind": "status", "table": "t1", "state": "online"}', "version 2"),
    ("zebra-table/t1/status", b'{"v": 1, "kind": "status", "table": "t9", "state": "online"}', "differ"),
    ("zebra-table/t1/status", b'{"v": 1, "kind": "status", "table": "t1", "state": "asleep"}', "asleep"),
    ("zebra-table/t1/game/a-1/move", b'{"v": 1, "kind": "move", "table": "t1", "game_id": "a-1", "seq": 2,'
     b' "move": 3, "t": 1, "public": {}}', "does not match"),
    ("zebra-table/t1/game/a-1/move", b'{"v": 1, "kind": "move", "table": "t1", "game_id": "a-1", "seq": true,'
     b' "move": 1, "t": 1, "public": {}}', "seq"),
    ("zebra-table/t1/game/a-1/move", b'{"v": 1, "kind": "move", "table": "t1", "game_id": "a-1", "seq": 1,'
     b' "move": 1, "t": NaN, "public": {}}', "not JSON"),
    ("zebra-table/t1/game/a-1/finished", b'{"v": 1, "kind": "finished", "table": "t1", "game_id": "a-1",'
     b' "seq": 3, "t": 1, "public": {"outcome": {"scores": [1, 2], "winners": [5]}}, "game": "zop",'
     b' "players": 2, "seats": [1, 2], "status": "finished", "moves": 2, "duration": 1}', "winners"),
    ("zebra-table/t1/game/a-1/finished", b'{"v": 1, "kind": "finished", "table": "t1", "game_id": "a-1",'
     b' "seq": 3, "t": 1, "public": {}, "game": "zop", "players": 2, "seats": [1], "status": "finished",'
     b' "moves": 2, "duration": 1}', "seats"),
])
def test_bad_messages_are_refused_with_a_reason(topic, payload, words):
    with pytest.raises(inbound.BadMessage) as err:
        inbound.parse(topic, payload)
    assert words in str(err.value)


def test_show_and_csv_without_a_database_say_so(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "venue", "--db", str(tmp_path / "none.sqlite"),
                           "--show"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2 and "no results database yet" in proc.stderr


@pytest.mark.parametrize("args, words", [
    (["--port", "0"], "--port: 0: expected a TCP port from 1 to 65535"),
    (["--client-id", "a/b"], "--client-id"),
    (["--ca-file", "/etc/hostname"], "--ca-file: given but tls = false"),
    (["--host", "bad host"], "--host"),
])
def test_venue_flags_are_checked(tmp_path, args, words):
    proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "venue", "--db", str(tmp_path / "v.sqlite"),
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and words in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr

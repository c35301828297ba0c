"""Two simulated tables and one venue on a real mosquitto (127.0.0.1 only): every public event of
every game arrives once, in order per game; the results, the live view and the CSV follow."""

from __future__ import annotations

import csv
import io
import threading
from pathlib import Path
from typing import Any

import pytest

from firmware_host.commands.main import main
from firmware_host.venue.results import VenueDB
from tests.kits.venuekit import Broker, TableProcess, VenueProcess, journal_games, recorded_games, sim_config, wait_for

pytestmark = pytest.mark.slow  # tables, a broker and the venue service playing whole games: tens of seconds

TABLES: dict[str, tuple[list[tuple[str, list[int]]], int]] = {
    "t1": ([("spywhere", [1, 2, 3]), ("spywhere", [2, 4, 6])], 11),
    "t2": ([("spywhere", [3, 5, 7])], 31),
}




def expect_complete(venue_db: Path, table: str, games: dict[str, dict[str, Any]]) -> None:
    """Every event of every game arrived once and in order (the venue keeps arrival order)."""
    db = VenueDB(venue_db)
    try:
        for game_id, g in games.items():
            assert db.arrivals(table, game_id) == list(range(g["moves"] + 2)), (table, game_id)
    finally:
        db.close()


def all_arrived(venue_db: Path, expected: dict[str, dict[str, dict[str, Any]]]) -> bool:
    db = VenueDB(venue_db)
    try:
        return all(len(db.arrivals(t, gid)) == g["moves"] + 2 for t, games in expected.items()
                   for gid, g in games.items())
    finally:
        db.close()


def _tables(db_path: Path) -> list[Any]:
    db = VenueDB(db_path)
    try:
        return db.tables()
    finally:
        db.close()


def test_two_tables_and_a_venue(tmp_path, capsys):
    broker = Broker(tmp_path / "broker").start()
    db_path = tmp_path / "venue.sqlite"
    venue = VenueProcess(broker.port, db_path, tmp_path / "venue.log")
    tables: dict[str, TableProcess] = {}
    try:
        scripts = {name: recorded_games(games, seed) for name, (games, seed) in TABLES.items()}
        for name, (_, seed) in TABLES.items():
            config = sim_config(tmp_path / f"{name}.toml", broker.venue_toml(name))
            tables[name] = TableProcess(config, tmp_path / f"{name}.sqlite", seed, tmp_path / f"{name}.log",
                                        tmp_path / f"tmp-{name}")
        # both tables play at once, as in a café
        threads = [threading.Thread(target=tables[n].play, args=(scripts[n],)) for n in tables]
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
        expected = {n: journal_games(tmp_path / f"{n}.sqlite") for n in tables}
        assert [len(expected[n]) for n in TABLES] == [2, 1]
        assert all(g["status"] == "finished" for games in expected.values() for g in games.values())
        assert wait_for(lambda: all_arrived(db_path, expected), 30.0)
        for t in tables.values():
            assert t.close() == 0, t.log.read_text()[-2000:]
        assert wait_for(lambda: all(r.state == "offline" for r in _tables(db_path)), 10.0)
        output = venue.stop()
    finally:
        for t in tables.values():
            if t.proc.poll() is None:
                t.kill()
        if venue.proc.poll() is None:
            venue.proc.kill()
        broker.stop()
    for name, games in expected.items():
        expect_complete(db_path, name, games)
    db = VenueDB(db_path)
    try:
        rows = {t.name: t for t in db.tables()}
        assert {n: (rows[n].state, rows[n].reason, rows[n].duplicates) for n in TABLES} == \
            {n: ("offline", "stopped", 0) for n in TABLES}
        played = {(r.game, r.table, r.who): (r.played, r.wins) for r in db.results()}
        assert {k[:2] for k in played} == {("spywhere", "t1"), ("spywhere", "t2")}
        assert played[("spywhere", "t2", "seat 5")][0] == 1 and played[("spywhere", "t1", "seat 2")][0] == 2
        assert sum(p for (_, t, _), (p, _) in played.items() if t == "t1") == 6  # 2 games x 3 seats
        assert sum(w for _, (_, w) in played.items()) >= 3  # at least one winner per game
    finally:
        db.close()
    # the live view's lines as a log, and the view printed at the end
    assert "t1 started Spywhere" in output and "t2 finished" in output
    assert "Results" in output and "seat 7" in output
    # CSV export
    capsys.readouterr()
    assert main(["venue", "--db", str(db_path), "--csv", "-"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert sorted((r["table"], r["game"], r["status"]) for r in rows) == [
        ("t1", "spywhere", "finished"), ("t1", "spywhere", "finished"), ("t2", "spywhere", "finished")]
    assert all(r["scores"] and r["winners"] and float(r["duration_s"]) >= 0 for r in rows)
    results_csv = tmp_path / "results.csv"
    assert main(["venue", "--db", str(db_path), "--results-csv", str(results_csv)]) == 0
    results = list(csv.DictReader(results_csv.open()))
    assert len(results) == 5 + 3 and {r["game"] for r in results} == {"spywhere"}

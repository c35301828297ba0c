"""Faults between the tables and the venue, on a real mosquitto (127.0.0.1 only):

- the broker stopped mid-game and restarted: the table keeps playing, every event reaches the
  venue after the restart, none lost, none stored twice, in order;
- a table killed with -9 while the broker answers nothing: its last will shows it offline (lost);
  restarted on its journal, its outbox sends what the broker never acknowledged;
- wrong credentials: one clear line on the admin log, the table plays on, its games wait in the
  journal and go once the password is right.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from firmware_host.venue.results import VenueDB
from tests.kits.venuekit import (
    Broker,
    TableProcess,
    VenueProcess,
    journal_games,
    recorded_games,
    sim_config,
    tear_down,
    wait_for,
)

pytestmark = pytest.mark.slow  # brokers stopped and paused under play: tens of seconds

GAME = [("spywhere", [1, 2, 3])]
SEED = 31  # one recording for every test (it is cached)


def arrivals(db_path: Path, table: str) -> dict[str, list[int]]:
    db = VenueDB(db_path)
    try:
        ids = [r[0] for r in db.db.execute("SELECT DISTINCT game_id FROM events WHERE table_name=?", (table,))]
        return {gid: db.arrivals(table, gid) for gid in ids}
    finally:
        db.close()


def table_state(db_path: Path, table: str) -> tuple[str, str | None] | None:
    db = VenueDB(db_path)
    try:
        row = next((t for t in db.tables() if t.name == table), None)
        return None if row is None else (row.state, row.reason)
    finally:
        db.close()


def complete(db_path: Path, table: str, expected: dict[str, dict]) -> bool:
    return not gaps(db_path, table, expected)


def gaps(db_path: Path, table: str, expected: dict[str, dict]) -> dict[str, str]:
    """What differs between each journal game and the venue's arrivals (none when complete, in order)."""
    got = arrivals(db_path, table)
    said = {}
    for gid, g in expected.items():
        want = list(range(g["moves"] + 2))
        have = got.get(gid, [])
        if have != want:
            early = next((seq for seq, i in zip(have, want) if seq != i), None)
            said[gid] = (f"missing {sorted(set(want) - set(have))}, extra {sorted(set(have) - set(want))} "
                         f"of 0..{want[-1]}; first out of place: {early}, arrival order {have}")
    return said


@pytest.fixture
def rig(tmp_path):
    """A broker, a venue listening to it, and what to clean up."""
    broker = Broker(tmp_path / "broker").start()
    venue = VenueProcess(broker.port, tmp_path / "venue.sqlite", tmp_path / "venue.log")
    procs: list[TableProcess] = []
    yield broker, venue, procs
    for t in procs:
        if t.proc.poll() is None:
            t.kill()
    if venue.proc.poll() is None:
        venue.proc.kill()
        venue.proc.wait(10)
    if broker.proc is not None:
        broker.resume()  # a paused broker would not hear SIGTERM
    broker.stop()


def test_broker_stopped_mid_game_and_restarted(tmp_path, rig):
    broker, venue, procs = rig
    events = recorded_games(GAME, seed=SEED)
    table = TableProcess(sim_config(tmp_path / "t1.toml", broker.venue_toml("t1")), tmp_path / "t1.sqlite", SEED,
                         tmp_path / "t1.log", tmp_path / "tmp")
    procs.append(table)
    third = len(events) // 3
    table.play(events[:third])
    assert wait_for(lambda: any(len(a) > 3 for a in arrivals(tmp_path / "venue.sqlite", "t1").values()))
    broker.stop()
    table.play(events[third:2 * third])  # the table plays on without its broker
    broker.start()
    table.play(events[2 * third:])
    expected = journal_games(tmp_path / "t1.sqlite")
    assert len(expected) == 1 and next(iter(expected.values()))["status"] == "finished"
    assert wait_for(lambda: complete(tmp_path / "venue.sqlite", "t1", expected), 30.0), \
        gaps(tmp_path / "venue.sqlite", "t1", expected)
    assert table.acked and table.close() == 0
    venue.stop()
    assert "lost the broker" in table.log.read_text()  # said once on the admin log
    assert table.log.read_text().count("lost the broker") == 1


def test_table_killed_then_restarted_resumes_its_outbox(tmp_path, rig):
    broker, venue, procs = rig
    db_path = tmp_path / "venue.sqlite"
    events = recorded_games(GAME, seed=SEED)
    config = sim_config(tmp_path / "t1.toml", broker.venue_toml("t1"))
    journal = tmp_path / "t1.sqlite"
    table = TableProcess(config, journal, SEED, tmp_path / "t1.log", tmp_path / "tmp")
    procs.append(table)
    half = len(events) // 2
    table.play(events[:half])
    assert wait_for(lambda: table_state(db_path, "t1") == ("online", None))
    broker.pause()  # no PUBACK can come back now
    table.play(events[half:half + 20])  # the table answers every event all the same
    table.kill()
    broker.resume()
    assert wait_for(lambda: table_state(db_path, "t1") == ("offline", "lost"), 15.0)  # its last will
    first = journal_games(journal)
    (gid1, g1), = first.items()
    assert g1["status"] == "playing" and g1["moves"] > 0
    cursor = sqlite3.connect(journal).execute("SELECT acked FROM venue_outbox WHERE game_id=?",
                                              (int(gid1.split("-")[1]),)).fetchone()
    assert cursor is None or cursor[0] < g1["moves"]  # moves the broker never acknowledged
    # the same table starts again on its journal: the players give the unfinished game up and
    # play a new one; meanwhile the outbox sends what the broker never acknowledged
    again = TableProcess(config, journal, SEED, tmp_path / "t1-again.log", tmp_path / "tmp2")
    procs.append(again)
    again.send({"resume": False})
    again.play(events)
    expected = journal_games(journal)
    assert expected[gid1]["status"] == "abandoned" and expected[gid1]["moves"] == g1["moves"]
    assert len(expected) == 2
    assert wait_for(lambda: complete(db_path, "t1", expected), 30.0), gaps(db_path, "t1", expected)
    assert again.close() == 0
    assert wait_for(lambda: table_state(db_path, "t1") == ("offline", "stopped"))
    venue.stop()
    db = VenueDB(db_path)
    try:
        status = dict(db.db.execute("SELECT game_id, status FROM games WHERE table_name='t1'").fetchall())
        assert sorted(status.values()) == ["abandoned", "finished"]
    finally:
        db.close()


def test_wrong_credentials_are_said_once_and_the_table_plays_on(tmp_path):
    broker = Broker(tmp_path / "broker", users={"venue": "venue-pw", "t1": "right"}).start()
    pwfile = tmp_path / "venue.pw"
    pwfile.write_text("venue-pw\n")
    venue = VenueProcess(broker.port, tmp_path / "venue.sqlite", tmp_path / "venue.log",
                         "--username", "venue", "--password-file", str(pwfile))
    procs: list[TableProcess] = []
    try:
        events = recorded_games(GAME, seed=SEED)
        journal = tmp_path / "t1.sqlite"
        wrong = sim_config(tmp_path / "wrong.toml", broker.venue_toml("t1", username="t1", password="wrong"))
        table = TableProcess(wrong, journal, SEED, tmp_path / "t1.log", tmp_path / "tmp")
        procs.append(table)
        table.play(events[:-1])
        last = table.send(events[-1])
        assert last["outcome"] is not None  # the whole game was played and kept
        assert wait_for(lambda: "refused table 't1'" in table.log.read_text(), 10.0)
        assert table.close() == 0
        log = table.log.read_text()
        assert "venue: the broker 127.0.0.1:" in log and "Not authorized" in log and "check username and password" in log
        assert log.count("refused table 't1'") == 1  # once, not at every retry
        assert arrivals(tmp_path / "venue.sqlite", "t1") == {}
        # the owner fixes the password: the game waiting in the journal goes
        right = sim_config(tmp_path / "right.toml", broker.venue_toml("t1", username="t1", password="right"))
        fixed = TableProcess(right, journal, SEED, tmp_path / "t1-fixed.log", tmp_path / "tmp2")
        procs.append(fixed)
        expected = journal_games(journal)
        assert wait_for(lambda: complete(tmp_path / "venue.sqlite", "t1", expected), 20.0)
        assert fixed.close() == 0
        venue.stop()
    finally:
        tear_down(procs, venue, broker)

"""The venue's results database (SQLite): tables, games, their events (deduplicated) and scores.

One row per (table, game_id, seq) in `events` is how a copy is recognised: QoS 1 may deliver an
event twice (a resend after a lost PUBACK, a table that published again after a power cut), the
second INSERT is ignored and counted in `tables.duplicates`. Move payloads are not kept (a public
view per move would grow the file quickly): a game keeps its start, its end, its move count and
its latest public screen.
"""

from __future__ import annotations

import csv
import json
import math
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from firmware_host.venue.inbound import Event

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    state TEXT NOT NULL,              -- online | offline | unknown (game events before any status)
    reason TEXT,                      -- offline: stopped | lost
    since REAL,                       -- when the state began (the table's clock)
    seen REAL NOT NULL,               -- last message received (the venue's clock)
    game_id TEXT,                     -- the game it played last
    duplicates INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS games (
    table_name TEXT NOT NULL,
    game_id TEXT NOT NULL,
    game TEXT,
    players INTEGER,
    seats TEXT,                       -- JSON: table seat of each player (null: seatless)
    options TEXT,                     -- JSON
    started REAL,
    ended REAL,
    duration REAL,
    status TEXT NOT NULL,             -- playing | finished | abandoned
    moves INTEGER NOT NULL DEFAULT 0,
    screen TEXT,                      -- JSON: the latest public screen
    outcome TEXT,                     -- JSON: scores and winners
    PRIMARY KEY (table_name, game_id)
);
CREATE TABLE IF NOT EXISTS events (
    arrival INTEGER PRIMARY KEY,      -- order of arrival at the venue
    table_name TEXT NOT NULL,
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    t REAL NOT NULL,
    received REAL NOT NULL,
    UNIQUE (table_name, game_id, seq)
);
CREATE TABLE IF NOT EXISTS results (
    table_name TEXT NOT NULL,
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,            -- game seat (0-based)
    who TEXT NOT NULL,                -- "seat 3" (table seat), or "player 10" for a seatless player
    score REAL NOT NULL,
    winner INTEGER NOT NULL,
    PRIMARY KEY (table_name, game_id, seat)
);
CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY,
    received REAL NOT NULL,           -- the venue's clock
    topic TEXT NOT NULL,              -- at most QUARANTINE_TOPIC characters
    size INTEGER NOT NULL,            -- the payload's length in bytes
    payload BLOB NOT NULL,            -- its first QUARANTINE_BYTES bytes
    reason TEXT NOT NULL              -- why it could not be stored
);
"""
QUARANTINE_TOPIC = 300
QUARANTINE_BYTES = 4096
QUARANTINE_REASON = 500


@dataclass(frozen=True)
class TableRow:
    """A table as the venue last heard of it."""

    name: str
    state: str
    reason: str | None
    since: float | None
    seen: float
    game_id: str | None
    game: str | None
    game_status: str | None
    moves: int
    screen: dict[str, Any] | None
    duplicates: int


@dataclass(frozen=True)
class ResultRow:
    """One player position's record in one game: games played, wins, average score."""

    game: str
    table: str
    who: str
    played: int
    wins: int
    average: float


@dataclass(frozen=True)
class GameSummary:
    """One game's totals over every table."""

    game: str
    finished: int
    abandoned: int
    average_duration: float | None
    average_moves: float | None


def default_path() -> str:
    """$XDG_DATA_HOME/zebra-table/venue.sqlite (or ~/.local/share/...)."""
    from firmware_host.storage.config import default_data_dir

    return os.path.join(default_data_dir(), "venue.sqlite")


class VenueDB:
    """One connection; `store` events, `commit` a batch, query results."""

    def __init__(self, path: str | os.PathLike[str]):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # results: an acknowledged event is on disk
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    # -- writing (the listener's thread) ---------------------------------------------------------
    def begin(self) -> None:
        """Start a batch."""
        self.db.execute("BEGIN IMMEDIATE")

    def commit(self) -> None:
        """Make the batch durable (then the broker may be told the events are ours)."""
        self.db.execute("COMMIT")

    def savepoint(self) -> None:
        """Mark where one message's writes begin (inside a batch)."""
        self.db.execute("SAVEPOINT message")

    def release(self) -> None:
        """Keep the message's writes."""
        self.db.execute("RELEASE message")

    def undo(self) -> None:
        """Drop the message's writes, keep the batch's others."""
        self.db.execute("ROLLBACK TO message")
        self.db.execute("RELEASE message")

    def quarantine(self, topic: str, payload: bytes, reason: str, received: float | None = None) -> None:
        """Set a message aside with the reason it could not be stored (bounded: a poison stays small)."""
        self.db.execute("INSERT INTO quarantine (received, topic, size, payload, reason) VALUES (?,?,?,?,?)",
                        (time.time() if received is None else received, topic[:QUARANTINE_TOPIC], len(payload),
                         payload[:QUARANTINE_BYTES], reason[:QUARANTINE_REASON]))

    def store(self, ev: Event, received: float | None = None) -> bool:
        """Record one parsed event; False if it is a copy of one already stored."""
        now = time.time() if received is None else received
        d = ev.data
        if ev.kind == "status":
            self.db.execute(
                "INSERT INTO tables (name, state, reason, since, seen) VALUES (?,?,?,?,?) ON CONFLICT(name) DO UPDATE"
                " SET state=excluded.state, reason=excluded.reason, since=excluded.since, seen=excluded.seen",
                (ev.table, d["state"], d.get("reason"), d.get("t", now), now))
            return True
        self.db.execute("INSERT INTO tables (name, state, seen) VALUES (?, 'unknown', ?) ON CONFLICT(name) DO UPDATE"
                        " SET seen=excluded.seen", (ev.table, now))
        cur = self.db.execute("INSERT OR IGNORE INTO events (table_name, game_id, seq, kind, t, received)"
                              " VALUES (?,?,?,?,?,?)", (ev.table, ev.game_id, ev.seq, ev.kind, d["t"], now))
        if cur.rowcount == 0:
            self.db.execute("UPDATE tables SET duplicates = duplicates + 1 WHERE name=?", (ev.table,))
            return False
        screen = json.dumps(d["public"].get("screen"), ensure_ascii=False)
        if ev.kind == "started":
            self.db.execute(
                "INSERT INTO games (table_name, game_id, game, players, seats, options, started, status, screen)"
                " VALUES (?,?,?,?,?,?,?, 'playing', ?)"
                " ON CONFLICT(table_name, game_id) DO UPDATE SET game=excluded.game,"
                " players=excluded.players, seats=excluded.seats, options=excluded.options, started=excluded.started",
                (ev.table, ev.game_id, d["game"], d["players"], json.dumps(d["seats"]),
                 json.dumps(d.get("options", {}), ensure_ascii=False), d["t"], screen))
        elif ev.kind == "move":
            # a move may arrive for a game whose start this venue never saw (subscribed mid-game)
            self.db.execute(
                "INSERT INTO games (table_name, game_id, status, moves, screen) VALUES (?,?, 'playing', ?, ?)"
                " ON CONFLICT(table_name, game_id) DO UPDATE SET moves=MAX(moves, excluded.moves),"
                " screen=CASE WHEN excluded.moves >= moves THEN excluded.screen ELSE screen END",
                (ev.table, ev.game_id, d["move"], screen))
        else:
            self._finished(ev, screen)
        self.db.execute("UPDATE tables SET game_id=? WHERE name=?", (ev.game_id, ev.table))
        return True

    def _finished(self, ev: Event, screen: str) -> None:
        d = ev.data
        outcome = d["public"].get("outcome")
        self.db.execute(
            "INSERT INTO games (table_name, game_id, game, players, seats, started, ended, duration, status, moves,"
            " screen, outcome) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT(table_name, game_id) DO UPDATE SET game=excluded.game,"
            " players=excluded.players, seats=excluded.seats, started=excluded.started, ended=excluded.ended,"
            " duration=excluded.duration, status=excluded.status, moves=excluded.moves, screen=excluded.screen,"
            " outcome=excluded.outcome",
            (ev.table, ev.game_id, d["game"], d["players"], json.dumps(d["seats"]), d.get("started"), d["t"],
             d["duration"], d["status"], d["moves"], screen, None if outcome is None else json.dumps(outcome)))
        if d["status"] != "finished" or outcome is None:
            return
        winners = set(outcome["winners"])
        rows = []
        for seat, score in enumerate(outcome["scores"]):
            table_seat = d["seats"][seat]
            who = f"seat {table_seat}" if table_seat is not None else f"player {seat + 1}"
            rows.append((ev.table, ev.game_id, seat, who, float(score), int(seat in winners)))
        self.db.executemany("INSERT OR REPLACE INTO results VALUES (?,?,?,?,?,?)", rows)

    # -- reading ---------------------------------------------------------------------------------
    def tables(self) -> list[TableRow]:
        """Every table heard of, by name, with its current (or last) game."""
        out = []
        for row in self.db.execute(
                "SELECT t.name, t.state, t.reason, t.since, t.seen, t.game_id, g.game, g.status, g.moves, g.screen,"
                " t.duplicates FROM tables t LEFT JOIN games g ON g.table_name = t.name AND g.game_id = t.game_id"
                " ORDER BY t.name").fetchall():
            screen = stored_json(row[9])
            out.append(TableRow(str(row[0]), str(row[1]), row[2], row[3], row[4], row[5], row[6], row[7],
                                row[8] if isinstance(row[8], int) else 0, screen if isinstance(screen, dict) else None,
                                row[10]))
        return out

    def results(self) -> list[ResultRow]:
        """Per game, per table and player position: games played, wins, average score."""
        return [ResultRow(*row) for row in self.db.execute(
            "SELECT g.game, r.table_name, r.who, COUNT(*), SUM(r.winner), AVG(r.score) FROM results r"
            " JOIN games g ON g.table_name = r.table_name AND g.game_id = r.game_id"
            " GROUP BY g.game, r.table_name, r.who ORDER BY g.game, r.table_name, r.who").fetchall()]

    def summaries(self) -> list[GameSummary]:
        """Per game: finished and abandoned counts, average duration and moves of finished ones."""
        return [GameSummary(*row) for row in self.db.execute(
            "SELECT game, SUM(status='finished'), SUM(status='abandoned'),"
            " AVG(CASE WHEN status='finished' THEN duration END), AVG(CASE WHEN status='finished' THEN moves END)"
            " FROM games WHERE game IS NOT NULL GROUP BY game ORDER BY game").fetchall()]

    def quarantined(self, latest: int = 0) -> tuple[int, list[tuple[float, str, str]]]:
        """How many messages were set aside, and the latest ones: (received, topic, reason)."""
        count = self.db.execute("SELECT COUNT(*) FROM quarantine").fetchone()[0]
        rows = self.db.execute("SELECT received, topic, reason FROM quarantine ORDER BY id DESC LIMIT ?",
                               (latest,)).fetchall()
        return int(count), [(r[0], r[1], r[2]) for r in rows]

    def arrivals(self, table: str, game_id: str) -> list[int]:
        """The seqs of a game's events in their order of arrival (copies excluded)."""
        return [r[0] for r in self.db.execute(
            "SELECT seq FROM events WHERE table_name=? AND game_id=? ORDER BY arrival", (table, game_id))]

    # -- CSV -------------------------------------------------------------------------------------
    def export_games(self, out: TextIO) -> int:
        """Every game, one CSV row each; returns the row count."""
        w = csv.writer(out)
        w.writerow(["table", "game_id", "game", "players", "seats", "status", "started", "ended", "duration_s",
                    "moves", "scores", "winners"])
        n = 0
        for row in self.db.execute(
                "SELECT table_name, game_id, game, players, seats, status, started, ended, duration, moves, outcome"
                " FROM games ORDER BY started, table_name, game_id").fetchall():
            seats = stored_json(row[4])
            seats = seats if isinstance(seats, list) else []
            scores, winners = _outcome_cells(stored_json(row[10]), seats)
            seat_list = " ".join("-" if s is None else str(s) for s in seats)
            w.writerow([row[0], row[1], row[2] or "", row[3] or "", seat_list,
                        row[5], _iso(row[6]), _iso(row[7]), _seconds(row[8]), row[9], scores, winners])
            n += 1
        return n

    def export_results(self, out: TextIO) -> int:
        """The results table as CSV; returns the row count."""
        w = csv.writer(out)
        w.writerow(["game", "table", "who", "played", "wins", "average_score"])
        rows = self.results()
        for r in rows:
            w.writerow([r.game, r.table, r.who, r.played, r.wins, f"{r.average:.2f}"])
        return len(rows)


def stored_json(text: Any) -> Any:
    """A JSON column as written by any version of the venue: None when absent or unreadable."""
    if not isinstance(text, str) or not text:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _outcome_cells(outcome: Any, seats: list[Any]) -> tuple[str, str]:
    """The scores and winners cells of a game's CSV row ("" for what a stored outcome lacks)."""
    if not isinstance(outcome, dict):
        return "", ""
    scores, winners = outcome.get("scores"), outcome.get("winners")
    score_cell = " ".join(_num(x) for x in scores) if isinstance(scores, list) else ""
    winner_cell = " ".join(_who(seats, w) for w in winners) if isinstance(winners, list) else ""
    return score_cell, winner_cell


def _who(seats: list[Any], seat: Any) -> str:
    if isinstance(seat, bool) or not isinstance(seat, int):
        return "?"
    table_seat = seats[seat] if 0 <= seat < len(seats) else None
    return f"seat{table_seat}" if table_seat is not None else f"player{seat + 1}"


def _iso(t: Any) -> str:
    """Local ISO time, or "" for a time that is absent or no date (a venue stored 1e308 once)."""
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        return ""
    try:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))
    except (OverflowError, OSError, ValueError):
        return ""


def _seconds(x: Any) -> str:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return ""
    return f"{x:.1f}"


def _num(x: Any) -> str:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return "?"
    if isinstance(x, int) or not math.isfinite(x):
        return str(x)
    return str(int(x)) if x.is_integer() else f"{x:g}"

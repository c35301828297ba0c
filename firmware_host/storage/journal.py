"""The game journal: every accepted action is committed to SQLite before its effects are shown.

WAL mode with synchronous=FULL (set on every connection: SQLite does not persist it), so a power
cut loses no acknowledged move. A game's state is never stored: it is the replay of its config
and its actions (chance outcomes included), which is exact because games are pure.

Every SQLite failure becomes one of four errors, so callers can tell a file that is damaged
(`JournalCorrupt`: set it aside) from one that is only locked (`JournalBusy`: wait and retry) or
cannot be written (`JournalUnwritable`: disk full, read-only mount, I/O error: never move it).
The connection factory is injectable: the power-cut tests run this very code over a storage layer
that drops what was not synced.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from firmware_host.storage.journal_errors import (
    JournalCorrupt,
    JournalError,
    JournalUnwritable,
    classify,
)
from firmware_host.storage.journal_rows import GameRecord as GameRecord  # what `Journal.game` returns
from firmware_host.storage.journal_rows import (
    GameSummary,
    RemoteRecord,
    decode,
    decode_move,
    decode_players,
    decode_remote,
    encode_players,
)
from games.core import CHANCE, Action, GameConfig, to_json

log = logging.getLogger(__name__)
T = TypeVar("T")

SCHEMA_VERSION = 1
# the computer seats of a game (added after version 1: created when missing, read as none if absent)
PLAYERS_TABLE = """CREATE TABLE IF NOT EXISTS computers (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    players TEXT NOT NULL
)"""
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL,
    status TEXT NOT NULL DEFAULT 'playing',  -- playing | finished | abandoned
    outcome TEXT
)""",
    """CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    t REAL NOT NULL,
    PRIMARY KEY (game_id, idx)
)""",
    PLAYERS_TABLE,
)
SYNCHRONOUS = "FULL"  # the power-cut tests set OFF/NORMAL on purpose to prove they catch it
BUSY_MS = 1500  # how long a statement waits for another process's lock before JournalBusy

# (path, read_only) -> a DB-API style connection; read_only "immutable": a file nobody can change
Connect = Callable[[str, bool | str], Any]


def sqlite_connect(path: str, read_only: bool | str) -> sqlite3.Connection:
    """The production connection: the stdlib sqlite3 module, autocommit (we issue BEGIN/COMMIT)."""
    mode = {False: "", True: "?mode=ro", "immutable": "?mode=ro&immutable=1"}[read_only]
    uri = Path(path).absolute().as_uri() + mode
    return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                           timeout=BUSY_MS / 1000)


class Journal:
    """An SQLite journal file; one connection, used from the event loop's thread.

    `read_only` opens it for reading only (the `games` command, a read-only mount): nothing is
    ever written, not even the open/clean marker.
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False,
                 connect: Connect = sqlite_connect, exists: Callable[[str], bool] = os.path.exists):
        self.path = Path(path)
        self.on_commit: Callable[[], None] | None = None  # after each write (wakes the venue publisher)
        self.read_only = read_only
        self.connect = connect
        self.exists = exists
        self.was_clean: bool | None = None  # the previous run closed the journal cleanly
        self.checked = False  # the integrity check ran at this open
        self.wal_lost = False  # the previous run did not stop cleanly and its -wal file is gone
        self.db: Any = None
        # "a run is under way" is recorded (and checkpointed into the main file) with the first
        # write, not at open: opening after a clean stop stays a few reads, no fsync
        self.marked = False
        self._open()

    # -- opening --------------------------------------------------------------------------------
    def _open(self) -> None:
        where = str(self.path)
        wal_there = self.exists(where + "-wal")
        if not self.read_only:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalUnwritable(f"{where}: cannot create its folder: {exc.strerror or exc}",
                                        "cantopen") from None
        try:
            self.db = self.connect(where, self.read_only)
        except Exception as exc:  # every SQLite error is classified, others re-raised
            raise self._wrap(exc) from None
        try:
            if self.read_only:
                try:
                    self._settings()
                    self._check_version()
                except JournalUnwritable:
                    # a WAL file on a read-only mount without its -shm: readable only as immutable
                    self._close_quietly()
                    self.db = self.connect(where, "immutable")
                    self._settings()
                    self._check_version()
                return
            self._settings()
            if str(self._one("PRAGMA journal_mode")[0]).lower() != "wal":
                mode = self._one("PRAGMA journal_mode=WAL")[0]
                if str(mode).lower() != "wal":
                    raise JournalUnwritable(f"{where}: cannot switch to WAL (journal_mode {mode})", "readonly")
            # as the last run left it: creating the schema of a new journal is this run's first
            # write, which records "a run is under way" (a new journal has no last run to judge)
            clean = self.meta("clean")
            self._ensure_schema()
            self.was_clean = clean == "1"
            # the main file says a run was under way, yet the WAL that run wrote is gone
            self.wal_lost = clean == "0" and not wal_there
            if not self.was_clean and self._one("SELECT count(*) FROM games")[0]:
                self.integrity_check()
        except BaseException:
            self._close_quietly()
            raise

    def _settings(self) -> None:
        # per connection: SQLite keeps neither in the file
        self._run(f"PRAGMA busy_timeout={BUSY_MS}")
        self._run(f"PRAGMA synchronous={SYNCHRONOUS}")

    def _ensure_schema(self) -> None:
        tables = {r[0] for r in self._all("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"meta", "games", "moves"} <= tables:
            def create() -> None:
                for statement in SCHEMA:
                    self._run(statement)
                self._run("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            self._write(create)
        elif "computers" not in tables and not self.read_only:
            self._write(lambda: self._run(PLAYERS_TABLE))
        self._check_version()

    def _check_version(self) -> None:
        version = self.meta("schema")
        if version is not None and version != str(SCHEMA_VERSION):
            raise JournalError(f"{self.path}: journal schema {version}, expected {SCHEMA_VERSION}")

    def integrity_check(self) -> None:
        """PRAGMA quick_check, its result read: anything but "ok" is JournalCorrupt."""
        rows = [str(r[0]) for r in self._all("PRAGMA quick_check(5)")]
        self.checked = True
        if rows != ["ok"]:
            raise JournalCorrupt(f"{self.path}: integrity check failed: {'; '.join(rows[:3])}")

    def meta(self, key: str) -> str | None:
        """A value of the meta table (None if absent or if the table does not exist yet)."""
        try:
            row = self._one("SELECT value FROM meta WHERE key=?", (key,))
        except JournalError as exc:
            if "no such table" in str(exc):
                return None
            raise
        return None if row is None else str(row[0])

    def checkpoint(self, *, wait: bool = True, passive: bool = False) -> None:
        """Copy the WAL into the main file (game boundaries): a lost -wal then costs moves, not games.

        `wait=False`: never wait for a reader (`games list`) to let go of the WAL, copy what it
        can (the table's loop: an event may come at any moment). `passive`: the WAL file is not
        truncated, only written again from its start (during a game: it stops growing)."""
        if self.read_only:
            return
        try:
            if not wait:
                self._run("PRAGMA busy_timeout=0")
            try:
                busy = self._one(f"PRAGMA wal_checkpoint({'PASSIVE' if passive else 'TRUNCATE'})")
            finally:
                if not wait:
                    self._run(f"PRAGMA busy_timeout={BUSY_MS}")
        except JournalCorrupt:
            raise
        except JournalError as exc:  # the commit is durable in the WAL already
            log.warning("checkpoint not done: %s", exc)
            return
        if busy and busy[0]:
            log.info("checkpoint incomplete: a reader holds the journal")

    def close(self) -> None:
        """Record a clean stop (the next open skips the integrity check), checkpoint, close."""
        if self.db is None:
            return
        if not self.read_only and (self.marked or self.was_clean is False):
            self.marked = True  # this write is the stop itself, not a run starting
            try:
                self._write(lambda: self._run("INSERT OR REPLACE INTO meta VALUES ('clean', '1')"))
                self.checkpoint()
            except JournalError as exc:
                log.warning("journal not closed cleanly: %s", exc)
        self._close_quietly()

    def _close_quietly(self) -> None:
        db, self.db = self.db, None
        if db is not None:
            try:
                db.close()
            except Exception as exc:  # closing a broken connection: nothing to save
                log.warning("closing %s: %s", self.path, exc)

    # -- statements -----------------------------------------------------------------------------
    def _wrap(self, exc: BaseException) -> BaseException:
        err = classify(exc, str(self.path))
        return exc if err is None else err

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        if self.db is None:
            raise JournalError(f"{self.path}: journal closed")
        try:
            return self.db.execute(sql, params)
        except Exception as exc:  # classified; a non-SQLite error is re-raised as is
            raise self._wrap(exc) from None

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        try:
            return self._run(sql, params).fetchone()
        except JournalError:
            raise
        except Exception as exc:
            raise self._wrap(exc) from None

    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return list(self._run(sql, params).fetchall())
        except JournalError:
            raise
        except Exception as exc:
            raise self._wrap(exc) from None

    def _write(self, body: Callable[[], T]) -> T:
        """Run `body` in one IMMEDIATE transaction; committed (durable) when this returns."""
        if self.read_only:
            raise JournalUnwritable(f"{self.path}: opened read-only", "readonly")
        first = not self.marked
        self._run("BEGIN IMMEDIATE")
        try:
            result = body()
            if first:
                self._run("INSERT OR REPLACE INTO meta VALUES ('clean', '0')")
            self._run("COMMIT")
        except Exception:
            try:  # a failed COMMIT may have rolled back already; then this one fails: fine
                self.db.execute("ROLLBACK")
            except Exception:
                pass  # the failed COMMIT rolled back already: nothing is left to undo
            raise
        if first:
            self.marked = True
            self.checkpoint()  # the main file itself records that a run is under way
        if self.on_commit is not None:
            self.on_commit()  # a listener only sets a flag: it must never block the loop that commits
        return result

    # -- writing --------------------------------------------------------------------------------
    def start_game(self, game_id: str, config: GameConfig, seats: tuple[int | None, ...],
                   computers: dict[int, str] | None = None, hints: bool = False, *,
                   checkpoint: bool = True, remote: RemoteRecord | None = None) -> int:
        """Record a new game; any other unfinished game is marked abandoned. Returns its id.
        `checkpoint=False`: the caller checkpoints later (the table does it when idle)."""
        now = time.time()

        def body() -> int:
            self._run("UPDATE games SET status='abandoned', ended=? WHERE status='playing'", (now,))
            self._run("INSERT INTO games (game, players, options, seed, seats, started) VALUES (?,?,?,?,?,?)",
                      (game_id, config.players, json.dumps(to_json(config.options), sort_keys=True),
                       config.seed, json.dumps(list(seats)), now))
            gid = int(self._one("SELECT last_insert_rowid()")[0])
            if computers or hints or remote:
                self._run("INSERT INTO computers VALUES (?,?)",
                          (gid, encode_players(dict(computers or {}), hints, remote)))
            return gid

        gid = self._write(body)
        if checkpoint:
            self.checkpoint()
        return gid

    def append(self, game: int, idx: int, seat: int, action: Action) -> None:
        """Commit one accepted action (durable when this returns)."""
        self.append_many(game, idx, [(seat, action)])

    def append_many(self, game: int, first: int, moves: list[tuple[int, Action]]) -> None:
        """Commit consecutive accepted actions, numbered from `first`, in one transaction (one
        fsync: a player's move and the chance draws that follow it)."""
        now = time.time()
        rows = [(game, first + i, seat, json.dumps(to_json(act), sort_keys=True), now)
                for i, (seat, act) in enumerate(moves)]

        def body() -> None:
            for row in rows:
                self._run("INSERT INTO moves VALUES (?,?,?,?,?)", row)

        self._write(body)

    def finish(self, game: int, outcome: dict[str, Any] | None, status: str = "finished", *,
               checkpoint: bool = True) -> None:
        """Mark a game finished (with its outcome) or abandoned (durable when this returns).
        `checkpoint=False`: the caller checkpoints later (the table does it when idle)."""
        row = (status, time.time(), None if outcome is None else json.dumps(outcome), game)
        self._write(lambda: self._run("UPDATE games SET status=?, ended=?, outcome=? WHERE id=?", row))
        if checkpoint:
            self.checkpoint()

    def import_game(self, rec: GameRecord) -> None:
        """Write a whole game read elsewhere (salvage), under its own id."""
        def body() -> None:
            self._run("INSERT INTO games (id, game, players, options, seed, seats, started, ended, status, outcome)"
                      " VALUES (?,?,?,?,?,?,?,?,?,?)",
                      (rec.id, rec.game, rec.config.players, json.dumps(to_json(rec.config.options), sort_keys=True),
                       rec.config.seed, json.dumps(list(rec.seats)), rec.started, rec.ended, rec.status,
                       None if rec.outcome is None else json.dumps(rec.outcome)))
            if rec.computers or rec.hints or rec.remote:
                self._run("INSERT INTO computers VALUES (?,?)",
                          (rec.id, encode_players(rec.computers, rec.hints, rec.remote)))
            for i, (seat, act) in enumerate(rec.moves):
                self._run("INSERT INTO moves VALUES (?,?,?,?,?)",
                          (rec.id, i, seat, json.dumps(to_json(act), sort_keys=True), rec.started))
        self._write(body)

    # -- reading --------------------------------------------------------------------------------
    def unfinished(self) -> GameRecord | None:
        """The game left playing (power cut, crash), if any."""
        row = self._one("SELECT id FROM games WHERE status='playing' ORDER BY id DESC LIMIT 1")
        return self.record(row[0]) if row else None

    def ids(self) -> list[int]:
        """Every game id, oldest first."""
        return [int(r[0]) for r in self._all("SELECT id FROM games ORDER BY id")]

    def games(self) -> list[GameRecord]:
        """Every journaled game with its moves, newest first (small journals: tests, salvage)."""
        return [self.record(i) for i in reversed(self.ids())]

    def summaries(self, limit: int | None = None, offset: int = 0) -> Iterator[GameSummary]:
        """Games newest first without their moves: one aggregate query, streamed in small batches.

        Moves are numbered 0..n-1 without gaps (checked when a game is read), so their number is
        max(idx) + 1: one index seek per game. The winners are taken out of the outcome by SQLite
        (JSON text, "?" for an outcome that is not JSON).
        """
        sql = ("SELECT g.id, g.game, g.players, g.started, g.status, "
               "CASE WHEN g.outcome IS NULL THEN NULL WHEN json_valid(g.outcome) "
               "THEN json_extract(g.outcome, '$.winners') ELSE '?' END, "
               "(SELECT max(idx) + 1 FROM moves m WHERE m.game_id = g.id) FROM games g ORDER BY g.id DESC "
               "LIMIT ? OFFSET ?")
        cursor = self._run(sql, (-1 if limit is None else limit, offset))
        while True:
            try:
                rows = list(itertools.islice(cursor, 256))
            except Exception as exc:
                raise self._wrap(exc) from None
            if not rows:
                return
            for gid, game, players, started, status, winners, moves in rows:
                yield GameSummary(int(gid), str(game), players if isinstance(players, int) else 0,
                                  float(started) if isinstance(started, (int, float)) else 0.0,
                                  str(status), int(moves or 0), winners)

    def record(self, game: int) -> GameRecord:
        """One game with its moves; JournalError if unknown, JournalCorrupt if a row is damaged."""
        row = self._one("SELECT id, game, players, options, seed, seats, started, ended, status, outcome "
                        "FROM games WHERE id=?", (game,))
        if row is None:
            raise JournalError(f"no game {game} in {self.path}")
        rows = self._all("SELECT idx, seat, action FROM moves WHERE game_id=? ORDER BY idx", (game,))
        players = self._players(game)
        try:
            rec = decode(row, rows)
            if players is not None:
                computers, hints = decode_players(players, rec.config.players)
                remote = decode_remote(players, rec.config.players)
                rec = dataclasses.replace(rec, computers=computers, hints=hints, remote=remote)
            return rec
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            raise JournalCorrupt(f"{self.path}: game {game}: damaged record: {exc}") from None


    def check_part(self, game: int, first: int, rows: int = 64) -> tuple[int, int]:
        """Read a few rows of the journal as `record` would (a game's row with its moves from
        `first`, `rows` at a time), so damage in old games is found in idle time; returns where the
        next part starts ((0, 0): past the last game). JournalCorrupt if a row is damaged."""
        if first == 0:
            row = self._one("SELECT id, game, players, options, seed, seats, started, ended, status, outcome "
                            "FROM games WHERE id > ? ORDER BY id LIMIT 1", (game,))
            if row is None:
                return 0, 0
            game = int(row[0])
            try:
                decode(row, [])
            except (ValueError, TypeError, KeyError, RecursionError) as exc:
                raise JournalCorrupt(f"{self.path}: game {game}: damaged record: {exc}") from None
        moves = self._all("SELECT idx, seat, action FROM moves WHERE game_id=? AND idx >= ? ORDER BY idx LIMIT ?",
                          (game, first, rows))
        try:
            for i, (idx, seat, action) in enumerate(moves, start=first):
                if idx != i:
                    raise ValueError(f"move {i} missing")
                decode_move(i, seat, action)
        except (ValueError, TypeError, RecursionError) as exc:
            raise JournalCorrupt(f"{self.path}: game {game}: damaged record: {exc}") from None
        return (game, first + len(moves)) if len(moves) == rows else (game, 0)

    def _players(self, game: int) -> Any:
        """The stored computer players of a game (None: none, or a journal from before them)."""
        try:
            row = self._one("SELECT players FROM computers WHERE game_id=?", (game,))
        except JournalError as exc:
            if "no such table" in str(exc):
                return None
            raise
        return row[0] if row else None


def seat_name(seat: int) -> str:
    """How a journal seat is printed: "chance" or the game seat number."""
    return "chance" if seat == CHANCE else str(seat)

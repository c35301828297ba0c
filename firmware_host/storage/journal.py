"""The game journal: every accepted action is committed to SQLite before its effects are shown.

WAL mode with synchronous=FULL (set on every connection: SQLite does not persist it), so a power
cut loses no acknowledged move. A game's state is never stored: it is the replay of its config
and its actions (chance outcomes included), which is exact because games are pure.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.core import CHANCE, Action, GameConfig, to_json

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
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
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    t REAL NOT NULL,
    PRIMARY KEY (game_id, idx)
);
"""


class JournalError(ValueError):
    """A journal that cannot be opened or read."""


@dataclass(frozen=True)
class GameRecord:
    """One journaled game: how it was started and every action in order."""

    id: int
    game: str
    config: GameConfig
    seats: tuple[int | None, ...]  # table seat of each game seat; None = a player without a seat
    started: float
    ended: float | None
    status: str
    outcome: dict[str, Any] | None
    moves: tuple[tuple[int, Action], ...]


class Journal:
    """An SQLite journal file; one connection, used from the event loop's thread."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.on_commit: Callable[[], None] | None = None  # after each write (wakes the venue publisher)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                raise JournalError(f"{self.path}: journal schema {row[0]}, expected {SCHEMA_VERSION}")
            self.db.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: unreadable journal: {exc}") from None

    @classmethod
    def open_or_set_aside(cls, path: str | os.PathLike[str]) -> tuple[Journal, str | None]:
        """Open the journal; a corrupt one is renamed aside and a fresh one started.

        Returns the journal and, if one was set aside, a message saying where it went.
        """
        try:
            return cls(path), None
        except JournalError as exc:
            p = Path(path)
            aside = p.with_name(f"{p.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
            for suffix in ("", "-wal", "-shm"):
                src = Path(str(p) + suffix)
                if src.exists():
                    src.rename(Path(str(aside) + suffix))
            log.error("%s; moved to %s", exc, aside)
            return cls(path), f"{exc}; moved to {aside}"

    def close(self) -> None:
        """Close the connection (the WAL is checkpointed by SQLite)."""
        self.db.close()

    # -- writing --------------------------------------------------------------------------------
    def start_game(self, game_id: str, config: GameConfig, seats: tuple[int | None, ...]) -> int:
        """Record a new game; any other unfinished game is marked abandoned. Returns its id."""
        now = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("UPDATE games SET status='abandoned', ended=? WHERE status='playing'", (now,))
            cur = self.db.execute(
                "INSERT INTO games (game, players, options, seed, seats, started) VALUES (?,?,?,?,?,?)",
                (game_id, config.players, json.dumps(to_json(config.options), sort_keys=True), config.seed,
                 json.dumps(list(seats)), now))
        self._committed()
        return int(cur.lastrowid or 0)

    def append(self, game: int, idx: int, seat: int, action: Action) -> None:
        """Commit one accepted action (durable when this returns)."""
        with self.db:
            self.db.execute("INSERT INTO moves VALUES (?,?,?,?,?)",
                            (game, idx, seat, json.dumps(to_json(action), sort_keys=True), time.time()))
        self._committed()

    def finish(self, game: int, outcome: dict[str, Any] | None, status: str = "finished") -> None:
        """Mark a game finished (with its outcome) or abandoned."""
        with self.db:
            self.db.execute("UPDATE games SET status=?, ended=?, outcome=? WHERE id=?",
                            (status, time.time(), None if outcome is None else json.dumps(outcome), game))
        self._committed()

    def _committed(self) -> None:
        # a listener only sets a flag: it must never block the loop that commits
        if self.on_commit is not None:
            self.on_commit()

    # -- reading --------------------------------------------------------------------------------
    def unfinished(self) -> GameRecord | None:
        """The game left playing (power cut, crash), if any."""
        row = self.db.execute("SELECT id FROM games WHERE status='playing' ORDER BY id DESC LIMIT 1").fetchone()
        return self.record(row[0]) if row else None

    def games(self) -> list[GameRecord]:
        """Every journaled game, newest first."""
        return [self.record(r[0]) for r in self.db.execute("SELECT id FROM games ORDER BY id DESC")]

    def record(self, game: int) -> GameRecord:
        """One game with its moves; JournalError if unknown."""
        row = self.db.execute("SELECT id, game, players, options, seed, seats, started, ended, status, outcome "
                              "FROM games WHERE id=?", (game,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game} in {self.path}")
        moves = tuple((int(seat), json.loads(act)) for seat, act in self.db.execute(
            "SELECT seat, action FROM moves WHERE game_id=? ORDER BY idx", (game,)))
        config = GameConfig(players=row[2], options=json.loads(row[3]), seed=row[4])
        return GameRecord(id=row[0], game=row[1], config=config, seats=tuple(json.loads(row[5])),
                          started=row[6], ended=row[7], status=row[8],
                          outcome=json.loads(row[9]) if row[9] else None, moves=moves)


def seat_name(seat: int) -> str:
    """How a journal seat is printed: "chance" or the game seat number."""
    return "chance" if seat == CHANCE else str(seat)

"""The venue outbox: the journal's games turned into messages, and how far the broker has them.

Messages are never stored: they are rebuilt from the journal (games + moves, replayed to get each
public part), so whatever the journal kept is sent, after a broker outage or a power cut alike.
The only state is the cursor, one row per game in the journal's `venue_outbox` table: the highest
event number the broker acknowledged (PUBACK) with every lower one. It is written after the
acknowledgement, so a cut between the two sends an event again: the venue recognises the copy by
(table, game id, seq).
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.apps.phones import FIRST_PHONE_SEAT
from firmware_host.venue import messages, signing
from firmware_host.venue.public import public_part
from games.core import CHANCE, Game, GameConfig
from games.registry import get_game

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS venue_outbox (
    game_id INTEGER PRIMARY KEY,        -- games.id
    acked INTEGER NOT NULL,             -- highest seq acknowledged with every lower one (-1: none)
    closed INTEGER NOT NULL DEFAULT 0   -- 1 once the game's last event is acknowledged
);
"""
TAG_KEY = "venue.journal"  # in the journal's meta table: this journal's id in game ids
FIRST_KEY = "venue.first_game"  # games before it were over when the venue was first configured


@dataclass(frozen=True)
class Outgoing:
    """One message to publish: journal game id, event number, whether it is the game's last."""

    game: int
    seq: int
    final: bool
    topic: str
    payload: bytes


class _Replay:
    """A game's state after its first `done` moves, advanced as messages are built."""

    def __init__(self, game: Game[Any, Any], config: GameConfig):
        self.game = game
        self.config = config
        self.state = game.initial_state(config)
        self.done = 0


class Outbox:
    """Reads the journal (its own connection, on the publisher's thread) and keeps the cursor."""

    def __init__(self, path: str | Path, table: str, key: bytes | None = None):
        self.table = table
        self.key = key  # signs every message (HMAC-SHA256), None: unsigned
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA busy_timeout = 5000")
        # a cursor lost in a power cut only means an event sent twice, which the venue drops: the
        # publisher's commits skip the fsync (the loop's own commits keep synchronous=FULL)
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute(SCHEMA)
            self.db.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (TAG_KEY, secrets.token_hex(4)))
            first = self.db.execute(
                "SELECT COALESCE((SELECT MIN(id) FROM games WHERE status='playing'),"
                " (SELECT MAX(id) + 1 FROM games), 1)").fetchone()[0]
            self.db.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (FIRST_KEY, str(first)))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        meta = dict(self.db.execute("SELECT key, value FROM meta WHERE key IN (?, ?)", (TAG_KEY, FIRST_KEY)))
        self.tag = meta[TAG_KEY]
        self.first = int(meta[FIRST_KEY])
        self.cursor: dict[int, int] = {gid: acked for gid, acked in self.db.execute(
            "SELECT game_id, acked FROM venue_outbox WHERE closed = 0")}
        self.handed: dict[int, int] = {}  # highest seq handed to the MQTT client, per game
        self.final: dict[int, int] = {}  # seq of a game's last event, once handed
        self.ahead: dict[int, set[int]] = {}  # acknowledged beyond the cursor (out of order)
        self.dirty: set[int] = set()
        self.replays: dict[int, _Replay] = {}

    def close(self) -> None:
        """Write the cursor and close the connection."""
        self.flush()
        self.db.close()

    def game_id(self, gid: int) -> str:
        """The game id other tables and journals cannot share: this journal's tag and the row id."""
        return f"{self.tag}-{gid}"

    # -- what to send ---------------------------------------------------------------------------
    def take(self, limit: int) -> list[Outgoing]:
        """Up to `limit` messages not yet handed out, in journal order."""
        out: list[Outgoing] = []
        rows = self.db.execute(
            "SELECT id, game, players, options, seed, seats, started, ended, status FROM games"
            " WHERE id >= ? AND id NOT IN (SELECT game_id FROM venue_outbox WHERE closed = 1) ORDER BY id",
            (self.first,)).fetchall()
        for row in rows:
            if len(out) >= limit:
                break
            if row[0] in self.final:
                continue
            try:
                self._take_game(row, out, limit)
            except sqlite3.Error:
                raise  # the journal is busy or failing: try again at the next wake
            except Exception as exc:
                # a game this version cannot replay must not hold back every later one
                log.error("venue: game %s of the journal cannot be published, skipped: %s", row[0], exc)
                out[:] = [m for m in out if m.game != row[0]]
                self._forget(row[0])
                self.db.execute("INSERT OR REPLACE INTO venue_outbox VALUES (?, -1, 1)", (row[0],))
        return out

    def _take_game(self, row: tuple[Any, ...], out: list[Outgoing], limit: int) -> None:
        gid, name, players, options, seed, seats_json, started, ended, status = row
        game = get_game(name)
        # a phone seat is no seat of the table: the venue knows its player as one without a seat
        seats = [s if type(s) is int and s < FIRST_PHONE_SEAT else None for s in json.loads(seats_json)]
        gkey = self.game_id(gid)
        last = self.handed.get(gid, self.cursor.get(gid, -1))
        replay = self.replays.get(gid)
        if replay is None:
            config = game.validate_config(GameConfig(players, json.loads(options), seed))
            replay = self.replays[gid] = _Replay(game, config)
        if last < 0:
            self._rewind(replay, gid, 0)
            payload = messages.started(self.table, gkey, name, players, seats, dict(replay.config.options),
                                       started, public_part(game, replay.state))
            self._add(out, gid, 0, False, "started", payload)
            last = 0
        room = limit - len(out)
        if room > 0:
            for idx, seat, action, t in self.db.execute(
                    "SELECT idx, seat, action, t FROM moves WHERE game_id = ? AND idx >= ? ORDER BY idx LIMIT ?",
                    (gid, last, room)).fetchall():
                if idx != last:
                    raise ValueError(f"move {last + 1} missing from the journal")
                self._rewind(replay, gid, idx)
                replay.state = game.apply(replay.state, seat, json.loads(action)).state
                replay.done += 1
                payload = messages.move(self.table, gkey, idx + 1, None if seat == CHANCE else seat, t,
                                        public_part(game, replay.state))
                self._add(out, gid, idx + 1, False, "move", payload)
                last = idx + 1
        if status != "playing" and len(out) < limit:
            total = self.db.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (gid,)).fetchone()[0]
            if last == total:
                self._rewind(replay, gid, total)
                payload = messages.finished(self.table, gkey, name, players, seats, status, total, started,
                                            ended if ended is not None else time.time(),
                                            public_part(game, replay.state))
                self._add(out, gid, total + 1, True, "finished", payload)

    def _add(self, out: list[Outgoing], gid: int, seq: int, final: bool, kind: str, payload: dict[str, Any]) -> None:
        topic = messages.game_topic(self.table, self.game_id(gid), kind)
        data = messages.encode(payload)
        out.append(Outgoing(gid, seq, final, topic, data if self.key is None else signing.sign(self.key, topic, data)))
        self.handed[gid] = seq
        if final:
            self.final[gid] = seq

    def _rewind(self, replay: _Replay, gid: int, moves: int) -> None:
        """Bring the replay to the state after `moves` moves (restart: from the journal)."""
        if replay.done == moves:
            return
        if replay.done > moves:
            replay.state, replay.done = replay.game.initial_state(replay.config), 0
        for seat, action in self.db.execute(
                "SELECT seat, action FROM moves WHERE game_id = ? AND idx >= ? AND idx < ? ORDER BY idx",
                (gid, replay.done, moves)).fetchall():
            replay.state = replay.game.apply(replay.state, seat, json.loads(action)).state
            replay.done += 1
        if replay.done != moves:
            raise ValueError(f"the journal has {replay.done} moves, not {moves}")

    def unhand(self, messages_: list[Outgoing]) -> None:
        """These messages did not reach the MQTT client: take them again next time."""
        for m in messages_:
            if self.handed.get(m.game, -1) >= m.seq:
                self.handed[m.game] = m.seq - 1
                if self.final.get(m.game) == m.seq:
                    del self.final[m.game]

    # -- acknowledgements -----------------------------------------------------------------------
    def ack(self, gid: int, seq: int) -> None:
        """The broker has (gid, seq); the cursor moves over every contiguous acknowledged event."""
        cur = self.cursor.get(gid, -1)
        if seq <= cur:
            return
        ahead = self.ahead.setdefault(gid, set())
        ahead.add(seq)
        while cur + 1 in ahead:
            ahead.remove(cur + 1)
            cur += 1
        self.cursor[gid] = cur
        self.dirty.add(gid)

    def in_flight(self) -> int:
        """Messages handed out and not yet acknowledged."""
        return sum(max(0, seq - self.cursor.get(gid, -1)) for gid, seq in self.handed.items())

    def flush(self) -> None:
        """Store the cursor of every game that moved (one short transaction)."""
        if not self.dirty:
            return
        rows = []
        for gid in self.dirty:
            rows.append((gid, self.cursor[gid], int(self.final.get(gid) == self.cursor[gid])))
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.executemany("INSERT INTO venue_outbox VALUES (?, ?, ?) ON CONFLICT(game_id) DO UPDATE"
                                " SET acked = excluded.acked, closed = excluded.closed", rows)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.dirty.clear()
        for gid, _, closed in rows:
            if closed:
                self._forget(gid)

    def _forget(self, gid: int) -> None:
        for d in (self.cursor, self.handed, self.final, self.ahead, self.replays):
            d.pop(gid, None)

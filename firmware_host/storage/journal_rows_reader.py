"""A damaged journal read row by row: every row SQLite can still read, around damaged pages.

A query over a damaged page stops with SQLITE_CORRUPT at that page, so the tables are read in
rowid order without their indexes (`NOT INDEXED`: a damaged index hides no row), and where a scan
stops, the next readable rowid is searched for (doubling steps, then halving them back), so one
damaged page costs only the rows it held. Nothing here needs the `meta` table, the indexes or
the `computers` table: each is read if it can be, and its loss costs what it held, no more.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from firmware_host.storage.journal_rows import GameRecord, decode, decode_move, decode_players, decode_remote

log = logging.getLogger(__name__)

TOP_ROWID = 2**62  # past any rowid the journal writes: where the search for readable rows ends
GAME_COLUMNS = "id, game, players, options, seed, seats, started, ended, status, outcome"


@dataclass
class Salvaged:
    """What a damaged journal still holds: the games that read, and what could not be read."""

    games: list[GameRecord] = field(default_factory=list)
    lost: set[int] = field(default_factory=set)  # game ids seen (a games row or a move) but unreadable
    moves_lost: dict[int, int] = field(default_factory=dict)  # kept game id -> moves past its readable prefix
    readable: bool = True  # False: not even the file's schema could be read (nothing known of its games)
    damaged_tables: set[str] = field(default_factory=set)  # tables some rows of which could not be read

    @property
    def more_lost(self) -> bool:
        """Games may be lost beyond those counted: part of the game list itself is unreadable."""
        return not self.readable or "games" in self.damaged_tables

    @property
    def more_moves_lost(self) -> bool:
        """Moves may be lost beyond those counted: part of the moves table is unreadable (a game's
        last moves leave no gap behind them to count)."""
        return "moves" in self.damaged_tables


def _first(db: Any, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
    cursor = db.execute(sql, params)
    for row in cursor:
        return tuple(row)
    return None


def _reads_from(db: Any, table: str, rowid: int) -> bool:
    """True if the scan of `table` from `rowid` on reads its first row (or finds none) without error."""
    try:
        _first(db, f"SELECT rowid FROM {table} NOT INDEXED WHERE rowid >= ? ORDER BY rowid LIMIT 1", (rowid,))
    except Exception:  # any SQLite error here is the damage being searched around
        return False
    return True


def _next_readable(db: Any, table: str, after: int) -> int | None:
    """The smallest rowid > `after` from which `table` reads again; None: nothing readable past it."""
    bad, step = after, 1
    while not _reads_from(db, table, bad + step):  # doubling steps out of the damaged stretch
        if bad + step >= TOP_ROWID:
            return None
        bad, step = bad + step, step * 2
    good = bad + step
    while good - bad > 1:  # back to the first rowid past the damage: readable rows are not skipped
        mid = (bad + good) // 2
        if _reads_from(db, table, mid):
            good = mid
        else:
            bad = mid
    return good


def scan(db: Any, table: str, columns: str, damaged: set[str]) -> Iterator[tuple[Any, ...]]:
    """Every readable row of `table` as (rowid, *columns), in rowid order, around damaged pages
    (`table` is added to `damaged` when some of it could not be read).

    Rows are read in one scan until it fails; then one at a time (a scan reads a row ahead, so its
    failure may hide a readable row), and past a failing row the next readable rowid is searched for.
    A row out of rowid order (a page cut short reads as cells of rowid 0, with no error) is skipped
    and the table counted as damaged: its last rows may be gone without a gap to show it.
    """
    # ">= after + 1", not "> after": SQLite seeks to the bound itself, which may lie on the damaged page
    select = f"SELECT rowid, {columns} FROM {table} NOT INDEXED WHERE rowid >= ? ORDER BY rowid"
    after = -TOP_ROWID
    bulk = True
    while True:
        if bulk:
            try:
                for row in db.execute(select, (after + 1,)):
                    if int(row[0]) <= after:  # cells of a page cut short or zeroed in part read as rowid 0
                        _out_of_order(table, after, damaged)
                        continue
                    after = int(row[0])
                    yield tuple(row)
                return
            except Exception as exc:  # a damaged page: read around it
                if "no such table" in str(exc):
                    raise
                damaged.add(table)
                log.error("salvage: %s unreadable past rowid %s: %s", table, after, exc)
                bulk = False
                continue
        try:
            one = _first(db, select + " LIMIT 1", (after + 1,))
        except Exception:  # the damage itself: jump past it, then scan again
            nxt = _next_readable(db, table, after)
            if nxt is None:
                return
            after, bulk = nxt - 1, True
            continue
        if one is None:
            return
        if int(one[0]) <= after:  # the seek itself lands in garbled cells: nothing past them can be trusted
            _out_of_order(table, after, damaged)
            return
        after = int(one[0])
        yield one


def _out_of_order(table: str, after: int, damaged: set[str]) -> None:
    """A row whose rowid does not follow the one before: a garbled cell, no error from SQLite."""
    if table not in damaged:
        log.error("salvage: %s has rows out of order past rowid %s (a garbled page)", table, after)
    damaged.add(table)


def _rows(db: Any, table: str, columns: str, out: Salvaged) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    try:
        for row in scan(db, table, columns, out.damaged_tables):
            rows.append(row)
    except Exception as exc:  # the table's root itself is unreadable (or missing)
        if "no such table" not in str(exc):
            log.error("salvage: table %s unreadable: %s", table, exc)
            out.damaged_tables.add(table)
    return rows


def _prefix(moves: list[tuple[Any, Any, Any]]) -> tuple[list[tuple[int, Any, Any]], int]:
    """The longest run of move rows numbered 0, 1, 2… that decode; and how many moves lie past it."""
    by_idx: dict[int, tuple[Any, Any]] = {}
    for idx, seat, action in moves:
        if isinstance(idx, int) and not isinstance(idx, bool) and idx >= 0:
            by_idx.setdefault(idx, (seat, action))
    kept: list[tuple[int, Any, Any]] = []
    for i in range(len(by_idx)):
        if i not in by_idx:
            break
        try:
            decode_move(i, *by_idx[i])
        except (ValueError, TypeError, RecursionError):
            break
        kept.append((i, *by_idx[i]))
    top = max(by_idx, default=-1)
    return kept, max(0, top + 1 - len(kept))


def read_damaged(db: Any) -> Salvaged:
    """Every game of a damaged journal that still reads, each with its longest readable prefix of moves."""
    out = Salvaged()
    try:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except Exception as exc:  # the schema itself is gone: nothing can be told of the games
        log.error("salvage: the journal's schema is unreadable: %s", exc)
        out.readable = False
        return out
    if "games" not in tables:  # every journal has one from its first open: its schema page is garbled
        log.error("salvage: the journal's schema reads without its games table (%s)", sorted(tables))
        out.readable = False
        return out
    games = _rows(db, "games", GAME_COLUMNS, out)
    moves: dict[int, list[tuple[Any, Any, Any]]] = {}
    for _, gid, idx, seat, action in _rows(db, "moves", "game_id, idx, seat, action", out):
        # game ids start at 1: a garbled cell (a page cut short) may read as game 0, no game of the journal
        if isinstance(gid, int) and not isinstance(gid, bool) and gid >= 1:
            moves.setdefault(gid, []).append((idx, seat, action))
    players = {row[1]: row[2] for row in _rows(db, "computers", "game_id, players", out)}
    seen: set[int] = set()
    for row in games:
        gid = row[1]
        if not isinstance(gid, int) or isinstance(gid, bool):
            continue
        seen.add(gid)
        kept, past = _prefix(moves.get(gid, []))
        try:
            rec = decode(row[1:], kept, outcome_optional=True)
            if gid in players:
                computers, hints = decode_players(players[gid], rec.config.players)
                remote = decode_remote(players[gid], rec.config.players)
                rec = dataclasses.replace(rec, computers=computers, hints=hints, remote=remote)
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            log.error("salvage: game %s unreadable: %s", gid, exc)
            out.lost.add(gid)
            continue
        out.games.append(rec)
        if past:
            out.moves_lost[gid] = past
            log.error("salvage: game %s kept with its first %d moves, %d after them unreadable", gid, len(kept), past)
    # moves of a game whose own row is gone: the game cannot be replayed (no seed, no players)
    out.lost |= set(moves) - seen
    return out

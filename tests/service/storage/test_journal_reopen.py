"""A journal opened read-only at start-up (a real full or read-only filesystem) is opened again for
writing once the disk allows it: the game in play is written whole, every screen is told."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

import firmware_host.storage.journal as journal_mod
import games.registry as registry
from firmware_host.apps.menu import MenuApp
from firmware_host.apps.session import GameSession
from firmware_host.commands.common import open_journal
from firmware_host.loop.runtime import Runtime
from firmware_host.storage.journal import Journal, sqlite_connect
from firmware_host.storage.journal_texts import BACK, BACK_IDLE, FULL, FULL_AT_START, READ_ONLY
from tests.kits.smalldisk import Disk
from tests.kits.toyboard import token
from tests.service.loop.test_runtime import Clock
from tests.service.loop.test_runtime import start_toy as _start_toy
from tests.service.storage.test_journal_faults import banners, place, press, read_alerts, runtime


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "GAMES", {"toyboard": "tests.kits.toyboard:GAME"})
    registry.get_game.cache_clear()
    monkeypatch.setattr(journal_mod, "BUSY_MS", 200)


def start_toy(rt: Runtime) -> GameSession:
    """The toy game started from the menu by seats 2 and 5."""
    _start_toy(rt)  # type: ignore[no-untyped-call]
    assert isinstance(rt.app, GameSession)
    return rt.app


def writable_again(rt: Runtime, clock: Clock) -> None:
    """The loop's ticks, a retry's time apart, until the journal is open for writing (at most 10 s)."""
    clock.t += 6
    until = time.monotonic() + 10
    while rt.keeper.journal is not None and rt.keeper.journal.read_only:
        assert time.monotonic() < until, "the journal was never opened for writing again"
        rt.tick()
        time.sleep(0.01)


def full_at_start(disk: Disk) -> tuple[Path, Journal]:
    """A journal whose disk is full when the table starts: it is opened read-only."""
    path = disk.where / "j.sqlite"
    Journal(path).close()
    disk.fill_up()
    journal, notice = open_journal(str(path))
    assert journal is not None and journal.read_only and notice == FULL_AT_START
    return path, journal


def test_a_game_started_on_a_full_disk_is_saved_whole_once_space_is_freed(small_disk: Disk) -> None:
    path, journal = full_at_start(small_disk)
    rt, out, clock = runtime(journal, FULL_AT_START)
    start_toy(rt)
    assert isinstance(rt.app, GameSession) and banners(out) == {FULL.fr}
    read_alerts(rt)
    place(rt, clock, "A1", token(0, 1))
    place(rt, clock, "C1", token(1, 1))
    clock.t += 6
    rt.tick()  # still full: nothing is tried, nothing said again
    assert rt.keeper.journal is not None and rt.keeper.journal.read_only and rt.keeper.reopening is None
    assert rt.keeper.problem == "full" and banners(out) == {None}
    small_disk.free()
    writable_again(rt, clock)
    assert rt.keeper.problem is None and banners(out) == {BACK.fr}
    rec = Journal(path, read_only=True).record(rt.journal_id)
    assert rec.moves == tuple(rt.app.moves) and len(rec.moves) == 2
    press(rt, 2)  # a ring: saved at once now
    assert Journal(path, read_only=True).record(rt.journal_id).moves == tuple(rt.app.moves)


def test_at_the_menu_the_notice_goes_and_the_next_game_is_saved(small_disk: Disk) -> None:
    path, journal = full_at_start(small_disk)
    rt, out, clock = runtime(journal, FULL_AT_START)
    assert banners(out) == {FULL_AT_START.fr}
    small_disk.free()
    writable_again(rt, clock)
    assert banners(out) == {BACK_IDLE.fr}
    assert isinstance(rt.app, MenuApp) and rt.app.notice is None  # "not saved" is no longer true
    read_alerts(rt)
    app = start_toy(rt)
    place(rt, clock, "A1", token(0, 1))
    assert banners(out) == {None} and rt.journal_id is not None
    assert Journal(path, read_only=True).record(rt.journal_id).moves == tuple(app.moves)


def test_a_read_only_mount_is_written_once_remounted_for_writing(small_disk: Disk) -> None:
    path = small_disk.where / "j.sqlite"
    Journal(path).close()
    small_disk.read_only()
    try:
        journal, notice = open_journal(str(path))
        assert journal is not None and journal.read_only and notice == READ_ONLY
        rt, out, clock = runtime(journal, notice)
        start_toy(rt)
        place(rt, clock, "A1", token(0, 1))
        assert rt.keeper.problem == "readonly" and banners(out) == {READ_ONLY.fr}
        clock.t += 6
        rt.tick()
        assert rt.keeper.reopening is None and rt.keeper.journal is not None and rt.keeper.journal.read_only
    finally:
        small_disk.read_only(False)
    writable_again(rt, clock)
    assert rt.keeper.problem is None and banners(out) == {BACK.fr}
    assert Journal(path, read_only=True).record(rt.journal_id).moves == tuple(rt.app.moves)
    rt.keeper.close()


def test_the_open_for_writing_never_runs_on_the_loop(small_disk: Disk) -> None:
    path = small_disk.where / "j.sqlite"
    Journal(path).close()
    opened: list[str] = []

    def slow_disk(where: str, read_only: bool | str) -> sqlite3.Connection:
        """The real connection, after a second's wait (a slow card), noting who waited."""
        if not read_only:
            opened.append(threading.current_thread().name)
            time.sleep(1.0)
        return sqlite_connect(where, read_only)

    small_disk.fill_up()
    rt, out, clock = runtime(Journal(path, read_only=True, connect=slow_disk), FULL_AT_START)
    small_disk.free()
    clock.t += 6
    started = time.monotonic()
    rt.tick()  # the disk has room: the open starts, elsewhere
    rt.tick()
    assert time.monotonic() - started < 0.5 and rt.keeper.reopening is not None
    writable_again(rt, clock)
    assert opened and threading.main_thread().name not in opened
    assert banners(out) == {BACK_IDLE.fr}

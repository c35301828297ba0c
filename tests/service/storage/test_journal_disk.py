"""A journal that cannot be written during a game: the screens name the real cause, a failing
disk is not called full."""

from __future__ import annotations

import sqlite3

import pytest

import games.registry as registry
from firmware_host.storage.journal import Journal, sqlite_connect
from firmware_host.storage.journal_texts import DISK_ERROR_PLAYING, FULL
from tests.service.loop.test_runtime import start_toy
from tests.service.storage.test_journal_faults import banners, press, runtime

SQLITE_IOERR = 10


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", {"toyboard": "tests.kits.toyboard:GAME"})
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


class FailingDisk:
    """The real connection, whose writes of moves fail with SQLite's I/O error while `failing`."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self.failing = False

    def execute(self, sql: str, params: tuple = ()):
        if self.failing and sql.startswith("INSERT INTO moves"):
            exc = sqlite3.OperationalError("disk I/O error")
            exc.sqlite_errorcode = SQLITE_IOERR
            raise exc
        return self.db.execute(sql, params)

    def close(self) -> None:
        self.db.close()


def test_a_failing_disk_during_a_game_is_a_disk_error_not_a_full_disk(tmp_path):
    disks: list[FailingDisk] = []

    def connect(path: str, read_only: bool | str) -> FailingDisk:
        disks.append(FailingDisk(sqlite_connect(path, read_only)))
        return disks[-1]

    rt, out, clock = runtime(Journal(tmp_path / "j.sqlite", connect=connect))
    start_toy(rt)
    disks[-1].failing = True
    press(rt, 2)  # a ring: its commit fails with an I/O error, the disk has room
    assert rt.keeper.problem == "io" and banners(out) == {DISK_ERROR_PLAYING.fr}
    assert FULL.fr not in banners(out)
    assert len(rt.app.moves) == 1  # played all the same

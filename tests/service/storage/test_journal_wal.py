"""A long game's WAL stays small: it is checkpointed in the loop's idle time during the game too,
without waiting for a reader."""

from __future__ import annotations

import sqlite3
import time

import pytest

import games.registry as registry
from firmware_host.storage.journal import Journal
from firmware_host.storage.journal_keeper import CHECKPOINT_COMMITS
from tests.service.loop.test_runtime import start_toy
from tests.service.storage.test_journal_faults import press, runtime

WAL_BOUND = (CHECKPOINT_COMMITS + 12) * 8300  # the commits between two checkpoints, and a margin


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", {"toyboard": "tests.kits.toyboard:GAME"})
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


def play_rings(rt, moves: int) -> tuple[int, float]:
    """Seat 2 rings `moves` times, the loop's idle work done after each; the WAL's largest size
    and the longest idle work (an event arriving then waits for it)."""
    wal = rt.keeper.journal.path.with_name(rt.keeper.journal.path.name + "-wal")
    largest, slowest = 0, 0.0
    for _ in range(moves):
        press(rt, 2)  # a ring: one move, one commit
        started = time.monotonic()
        while rt.prepare():  # what the loop does while no event waits
            pass
        slowest = max(slowest, time.monotonic() - started)
        largest = max(largest, wal.stat().st_size)
    return largest, slowest


def test_a_long_game_keeps_its_wal_bounded(tmp_path):
    path = tmp_path / "j.sqlite"
    rt, out, clock = runtime(Journal(path))
    start_toy(rt)
    largest, _ = play_rings(rt, 400)
    assert len(rt.app.moves) == 400
    assert largest < WAL_BOUND, largest  # without checkpoints: 400 commits, 3.3 MB
    rec = Journal(path, read_only=True).record(rt.journal_id)
    assert len(rec.moves) == 400


def test_a_reader_in_the_middle_of_a_listing_never_stalls_the_game(tmp_path):
    path = tmp_path / "j.sqlite"
    rt, out, clock = runtime(Journal(path))
    start_toy(rt)
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM moves").fetchone()  # a reader keeps its snapshot open
    _, slowest = play_rings(rt, 2 * CHECKPOINT_COMMITS)
    assert slowest < 0.5, slowest  # a checkpoint waiting for the reader: the busy timeout, 1.5 s
    assert rt.keeper.problem is None and len(rt.app.moves) == 2 * CHECKPOINT_COMMITS
    reader.execute("COMMIT")
    reader.close()
    wal = path.with_name(path.name + "-wal")
    grown = wal.stat().st_size  # the WAL could not be reused while the reader kept its snapshot
    largest, _ = play_rings(rt, 4 * CHECKPOINT_COMMITS)  # the reader gone: reused from its start
    assert largest < grown + WAL_BOUND, (largest, grown)  # without checkpoints: 128 commits more, 1 MB

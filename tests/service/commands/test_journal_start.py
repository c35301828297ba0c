"""What the screens say at start-up about a journal that cannot be used as it is, through the
simulator's command: a full disk is "plein" (not "lecture seule"), a lost -wal says whether the
moves of the unfinished game or the last game itself may be lost."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from firmware_host.commands import sim as cli_sim
from firmware_host.storage.journal import Journal
from games.core import GameConfig
from tests.kits.smalldisk import small_disk  # noqa: F401 - a fixture

GAME = "droles-de-zebres"


@pytest.fixture(autouse=True)
def _no_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


def sim_screens(journal: Path) -> str:
    """What the simulator prints when it starts on `journal` and is left at once."""
    out = io.StringIO()
    args = argparse.Namespace(config=None, seed=1, journal=str(journal), no_journal=False, no_web=True)
    assert cli_sim.run(args, io.StringIO("quit\n"), out) == 0
    return out.getvalue()


def test_a_full_disk_at_start_says_full_and_still_offers_the_unfinished_game(small_disk):  # noqa: F811
    path = small_disk.where / "j.sqlite"
    j = Journal(path)
    gid = j.start_game(GAME, GameConfig(2, {}, 1), (1, 2))
    j.append(gid, 0, 0, {"type": "x"})
    j.close()
    small_disk.fill_up()
    screens = sim_screens(path)
    assert "Disque plein" in screens and "lecture seule" not in screens, screens
    assert "Partie interrompue" in screens  # opened read-only: the game can still be resumed


def test_a_read_only_mount_at_start_still_says_read_only(small_disk):  # noqa: F811
    path = small_disk.where / "j.sqlite"
    Journal(path).close()
    (small_disk.where / "j.sqlite.lock").touch()
    small_disk.read_only()
    try:
        screens = sim_screens(path)
    finally:
        small_disk.read_only(False)
    assert "lecture seule" in screens and "Disque plein" not in screens, screens


def crash_without_wal(tmp_path: Path, *, lose_game_start: bool) -> Path:
    """A journal as a crash left it, then its -wal deleted: the copy of its main file alone."""
    live = tmp_path / "live" / "j.sqlite"
    j = Journal(live)
    g1 = j.start_game(GAME, GameConfig(2, {}, 1), (1, 2))  # the run's first write: checkpointed
    j.append(g1, 0, 0, {"type": "x"})
    if lose_game_start:
        j.finish(g1, {"winners": [0]})
        g2 = j.start_game(GAME, GameConfig(2, {}, 2), (1, 2), checkpoint=False)  # its checkpoint not yet done
        j.append(g2, 0, 0, {"type": "x"})
    crashed = tmp_path / "j.sqlite"
    crashed.write_bytes(live.read_bytes())
    return crashed


def test_a_lost_wal_that_took_the_whole_game_says_the_game_may_be_lost(tmp_path):
    screens = sim_screens(crash_without_wal(tmp_path, lose_game_start=True))
    assert "la dernière partie a pu être perdue" in screens, screens
    assert "derniers coups" not in screens and "Partie interrompue" not in screens


def test_a_lost_wal_that_took_moves_says_the_last_moves_are_to_check(tmp_path):
    screens = sim_screens(crash_without_wal(tmp_path, lose_game_start=False))
    assert "derniers coups à vérifier" in screens and "Partie interrompue" in screens, screens

"""A journal that is damaged, locked, full or read-only: the table keeps answering and says so.

Real SQLite files and real SQLite failures: a page of the file zeroed, a row of malformed JSON,
another connection holding the write lock, a database that may not grow (SQLITE_FULL, what a
full disk gives), a file opened read-only (SQLITE_READONLY, what a read-only mount gives).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import firmware_host.storage.journal as journal_mod
import games.registry as registry
from drivers.buttons import ButtonEvent
from firmware_host.apps.app import Unfinished
from firmware_host.apps.menu import MenuApp
from firmware_host.apps.session import GameSession
from firmware_host.commands.run import open_journal
from firmware_host.loop.runtime import INTERNAL_ERROR, ReaderStatus, Runtime, TagChange
from firmware_host.storage.config import load_config
from firmware_host.storage.journal import Journal, sqlite_connect
from firmware_host.storage.journal_errors import JournalBusy, JournalCorrupt, JournalUnwritable
from firmware_host.storage.journal_texts import BACK, BACK_IDLE, BUSY, FULL, READ_ONLY, UNUSABLE
from firmware_host.storage.tags import sim_registry, sim_uid
from games.core import GameConfig
from tests.kits.toyboard import GAME, token
from tests.service.loop.test_runtime import Clock, Recorder, start_toy


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", {"toyboard": "tests.kits.toyboard:GAME"})
    registry.get_game.cache_clear()
    monkeypatch.setattr(journal_mod, "BUSY_MS", 200)  # a lock is waited for 0.2 s, not 1.5 s
    yield
    registry.get_game.cache_clear()


def fill(path: Path, games: int = 60, moves: int = 80) -> None:
    """A journal with finished games, then one left playing; closed cleanly."""
    j = Journal(path)
    for g in range(games):
        gid = j.start_game("toyboard", GameConfig(2, {}, g), (2, 5))
        for i in range(moves):
            j.append(gid, i, 0, {"type": "ring"})
        if g < games - 1:
            j.finish(gid, {"scores": [0, 0], "winners": [0, 1]})
    j.close()


def runtime(journal: Journal | None, notice=None, opener=None) -> tuple[Runtime, Recorder, Clock]:
    out, clock = Recorder(), Clock()
    rt = Runtime(load_config(None), sim_registry(GAME.pieces()), out, clock, auto_chance=True, seed=1,
                 journal=journal, startup_notice=notice, journal_opener=opener)
    rt.handle(ReaderStatus("ready"))
    return rt, out, clock


def banners(out: Recorder) -> set[str | None]:
    return {f.banner.fr if f.banner else None for f in out.frames.values()}


def read_alerts(rt: Runtime) -> None:
    """Every seat presses once: the journal's message covering its screen is read."""
    for seat in rt.seat_ids:
        rt.handle(ButtonEvent(seat, "left", "press", 0.0))
    assert not rt.alerts


def place(rt: Runtime, clock: Clock, square: str, piece: str, present: bool = True) -> None:
    rt.handle(TagChange(square, sim_uid(piece), present))
    clock.t += 1
    rt.tick()


def press(rt: Runtime, seat: int, button: str = "ok") -> None:
    rt.handle(ButtonEvent(seat, button, "press", 0.0))
    rt.handle(ButtonEvent(seat, button, "release", 0.0))


def play_toy(rt: Runtime, clock: Clock) -> None:
    """The toy game to its end: four placements (one scares a token back) and a ring."""
    place(rt, clock, "A1", token(0, 1))
    place(rt, clock, "C1", token(1, 1))
    press(rt, 2)  # seat 2 rings: a button-only move
    place(rt, clock, "B1", token(0, 2))
    place(rt, clock, "A1", token(0, 1), present=False)  # the scared token goes back
    place(rt, clock, "A1", token(1, 2))


# -- damaged ------------------------------------------------------------------------------------
def zero_page(path: Path, page: int) -> None:
    data = bytearray(path.read_bytes())
    size = 4096
    assert len(data) > (page + 1) * size
    data[page * size:(page + 1) * size] = bytes(size)
    path.write_bytes(bytes(data))


def test_zeroed_page_after_a_crash_is_caught_by_the_check_and_the_readable_games_kept(tmp_path):
    path = tmp_path / "j.sqlite"
    fill(path)
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='0' WHERE key='clean'")  # the last run did not stop cleanly
    db.commit()
    db.close()
    pages = path.stat().st_size // 4096
    zero_page(path, pages // 2)
    with pytest.raises(JournalCorrupt, match="integrity check|malformed"):
        Journal(path)
    journal, notice = open_journal(str(path))
    assert journal is not None and "mis de côté" in notice.fr
    kept = len(journal.ids())
    assert 0 < kept <= 60 and f"{kept} partie(s) gardée(s)" in notice.fr
    assert [p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    counts = [len(journal.record(gid).moves) for gid in journal.ids()]  # each game's readable prefix
    assert sum(counts) < 60 * 80 and counts.count(80) >= kept - 2  # one page holds the moves of 1-2 games
    rt, out, _ = runtime(journal, notice)
    assert banners(out) == {notice.fr}


def test_zeroed_page_found_by_a_query_sets_the_journal_aside_with_every_screen_told(tmp_path):
    path = tmp_path / "j.sqlite"
    fill(path, games=40)
    # the damage hits the moves of the unfinished game (the newest rows: the end of the table)
    j = Journal(path)
    last = j.ids()[-1]
    page = j._one("SELECT max(rootpage) FROM sqlite_master")[0]
    j.close()
    pages = path.stat().st_size // 4096
    zero_page(path, pages - 2)
    journal = Journal(path)  # clean stop: no check at open, the damage is found by the first query
    assert not journal.checked and page
    rt, out, clock = runtime(journal)
    rt.tick()
    assert isinstance(rt.app, MenuApp)
    texts = banners(out)
    assert len(texts) == 1 and "Journal abîmé mis de côté" in texts.pop()
    # the unfinished game is kept with the moves before the damage (all of them when the page
    # held none of its moves): it resumes from there
    assert rt.keeper.set_asides == 1 and last in rt.keeper.journal.ids()
    read_alerts(rt)
    start_toy(rt)  # the new journal works
    play_toy(rt, clock)
    assert rt.keeper.journal.record(rt.keeper.journal.ids()[-1]).status == "finished"


def test_malformed_row_in_the_unfinished_game(tmp_path, capsys):
    from firmware_host.commands.main import main

    path = tmp_path / "j.sqlite"
    fill(path, games=5, moves=3)
    db = sqlite3.connect(path)
    db.execute("UPDATE moves SET action='{not json' WHERE game_id=5 AND idx=1")
    db.execute("UPDATE games SET outcome='{not json' WHERE id=1")
    db.commit()
    db.close()
    assert main(["games", "--journal", str(path), "list"]) == 0  # no move decoded: no traceback
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].startswith("    5  ") and " 3 moves" in listing[0] and "winners" not in listing[0]
    assert listing[3].endswith("winners [0,1]") and listing[4].endswith("winners ?")  # games 2 and 1
    assert main(["games", "--journal", str(path), "show", "5"]) == 1
    assert "damaged record" in capsys.readouterr().err
    rt, out, clock = runtime(Journal(path))
    # reading the unfinished game found the damage: set aside, and the game is offered from its
    # readable prefix (its first move)
    assert isinstance(rt.app, MenuApp) and rt.app.unfinished == Unfinished(5, "toyboard", (2, 5))
    rt.tick()
    assert {b for b in banners(out)} == {
        "Journal abîmé mis de côté : 5 partie(s) gardée(s) (2 coup(s) perdu(s) en fin de partie), 0 perdue(s)"}
    j = rt.keeper.journal
    assert j.ids() == [1, 2, 3, 4, 5] and len(j.record(5).moves) == 1
    assert j.record(1).outcome is None and len(j.record(1).moves) == 3  # a damaged outcome costs only itself


def test_garbage_from_the_first_byte_and_games_list(tmp_path, capsys):
    from firmware_host.commands.main import main

    path = tmp_path / "j.sqlite"
    path.write_bytes(b"\x00garbage" * 1000)
    assert main(["games", "--journal", str(path), "list"]) == 1
    assert "damaged journal" in capsys.readouterr().err


def test_a_lost_wal_keeps_the_newest_game_and_the_abandoned_one_abandoned(tmp_path):
    """A crash, then someone deletes journal.sqlite-wal: game boundaries are in the main file."""
    from firmware_host.storage.journal_texts import WAL_LOST

    live = tmp_path / "live" / "j.sqlite"
    j = Journal(live)
    g1 = j.start_game("toyboard", GameConfig(2, {}, 1), (2, 5))
    j.append(g1, 0, 0, {"type": "ring"})
    g2 = j.start_game("toyboard", GameConfig(2, {}, 2), (2, 5))  # g1 abandoned
    j.append(g2, 0, 0, {"type": "ring"})
    j.append(g2, 1, 0, {"type": "ring"})
    crashed = tmp_path / "j.sqlite"  # the disk as the crash left it, without its -wal
    crashed.write_bytes(live.read_bytes())
    assert (tmp_path / "live" / "j.sqlite-wal").stat().st_size > 0
    journal, notice = open_journal(str(crashed))
    assert journal.wal_lost and notice == WAL_LOST
    assert journal.unfinished().id == g2 and journal.record(g1).status == "abandoned"
    assert len(journal.record(g2).moves) <= 2
    journal.close()
    assert not Journal(crashed).wal_lost  # a clean stop: nothing lost next time


def test_a_new_journal_reports_no_lost_wal(tmp_path):
    """Creating the schema is the new journal's first write: it has no last run to judge."""
    path = tmp_path / "new" / "j.sqlite"
    journal, notice = open_journal(str(path))
    assert journal is not None and notice is None and not journal.wal_lost and not journal.was_clean
    journal.close()
    again, notice = open_journal(str(path))
    assert notice is None and again.was_clean and not again.wal_lost
    again.close()


def test_clean_stop_skips_the_check_and_an_unclean_one_runs_it(tmp_path):
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    j.start_game("toyboard", GameConfig(2, {}, 1), (2, 5))
    j.close()
    again = Journal(path)
    assert again.was_clean and not again.checked
    again.start_game("toyboard", GameConfig(2, {}, 2), (2, 5))  # the run's first write marks it under way
    crashed = tmp_path / "c.sqlite"  # copied while open: what a power cut leaves
    crashed.write_bytes(path.read_bytes())
    (tmp_path / "c.sqlite-wal").write_bytes((tmp_path / "j.sqlite-wal").read_bytes())
    after = Journal(crashed)
    assert not after.was_clean and after.checked and not after.wal_lost


# -- locked -------------------------------------------------------------------------------------
class Lock:
    """Another process's connection holding the write lock (a backup, a hand-run tool); `whole`:
    in exclusive locking mode, which keeps even readers out."""

    def __init__(self, path: Path, whole: bool = False):
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        if whole:
            self.db.execute("PRAGMA locking_mode=EXCLUSIVE")
        self.db.execute("BEGIN EXCLUSIVE")
        if whole:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('backup', '1')")

    def release(self) -> None:
        self.db.execute("COMMIT")
        self.db.close()


def test_a_locked_journal_is_never_moved_and_is_retried(tmp_path):
    path = tmp_path / "j.sqlite"
    fill(path, games=3, moves=2)
    lock = Lock(path, whole=True)
    with pytest.raises(JournalBusy):
        Journal(path)
    journal, notice = open_journal(str(path))
    assert journal is None and notice == BUSY
    assert not list(tmp_path.glob("*.corrupt-*")) and path.exists()
    rt, out, clock = runtime(None, notice, opener=lambda: Journal(path))
    assert banners(out) == {BUSY.fr}
    clock.t += 6
    rt.tick()  # still locked: still told, nothing moved
    assert rt.keeper.journal is None and not list(tmp_path.glob("*.corrupt-*"))
    lock.release()
    clock.t += 6
    rt.tick()
    assert rt.keeper.journal is not None and rt.keeper.problem is None
    assert banners(out) == {BACK_IDLE.fr}  # at the menu: games will be saved
    assert rt.app.unfinished is not None and rt.app.unfinished.jid == 3  # now offered on the menu
    read_alerts(rt)
    assert out.frames[1].screen.title.fr == "Partie interrompue"


def test_a_lock_during_a_game_delays_the_moves_never_refuses_them(tmp_path):
    path = tmp_path / "j.sqlite"
    rt, out, clock = runtime(Journal(path))
    start_toy(rt)
    place(rt, clock, "A1", token(0, 1))
    lock = Lock(path)
    place(rt, clock, "C1", token(1, 1))
    assert len(rt.app.moves) == 2 and banners(out) == {BUSY.fr}  # played, and everyone is told
    lock.release()
    read_alerts(rt)
    clock.t += 6  # the next retry is due
    press(rt, 2)  # seat 2 rings: written with the move the lock held back
    assert len(rt.app.moves) == 3
    rec = Journal(path, read_only=True).record(rt.journal_id)
    assert [a["type"] for _, a in rec.moves] == ["place", "place", "ring"]


def test_games_list_during_a_game_takes_no_lock(tmp_path, capsys):
    from firmware_host.commands.main import main

    path = tmp_path / "j.sqlite"
    rt, out, clock = runtime(Journal(path))
    start_toy(rt)
    reader = Journal(path, read_only=True)
    cursor = reader.summaries()
    next(cursor)  # a reader in the middle of its listing
    place(rt, clock, "A1", token(0, 1))
    assert rt.keeper.problem is None and banners(out) == {None}
    assert main(["games", "--journal", str(path), "list"]) == 0
    assert "1 moves" in capsys.readouterr().out


# -- full, read-only ----------------------------------------------------------------------------
def test_a_full_disk_lets_the_game_go_on_told_on_every_screen_and_back_to_the_menu(small_disk):
    path = small_disk.where / "j.sqlite"
    rt, out, clock = runtime(Journal(path))
    small_disk.fill_up()
    start_toy(rt)  # its start cannot be written: the game starts anyway
    assert isinstance(rt.app, GameSession) and banners(out) == {FULL.fr}
    read_alerts(rt)
    play_toy(rt, clock)  # every legal move is played
    assert rt.app.over and len(rt.app.moves) == 5
    # the last messages sit above the menu: a press acts on the menu, it is not eaten by them
    assert [t.fr for t in out.frames[2].menu] == ["Retour au menu"]
    press(rt, 2)
    assert isinstance(rt.app, MenuApp)
    small_disk.free()
    clock.t += 6
    rt.tick()
    assert rt.keeper.problem is None


def test_a_disk_that_fills_during_a_game_catches_up_once_freed(small_disk):
    path = small_disk.where / "j.sqlite"
    rt, out, clock = runtime(Journal(path))
    start_toy(rt)
    place(rt, clock, "A1", token(0, 1))
    small_disk.fill_up()
    place(rt, clock, "C1", token(1, 1))
    assert rt.keeper.problem == "full" and len(rt.app.moves) == 2 and banners(out) == {FULL.fr}
    read_alerts(rt)
    press(rt, 2)  # a ring, not saved either
    assert len(rt.app.moves) == 3
    small_disk.free()
    clock.t += 5
    place(rt, clock, "B1", token(0, 2))
    assert rt.keeper.problem is None and banners(out) == {BACK.fr}
    rec = Journal(path, read_only=True).record(rt.journal_id)
    assert rec.moves == tuple(rt.app.moves)


def test_a_journal_on_a_read_only_mount_offers_its_unfinished_game(small_disk):
    path = small_disk.where / "j.sqlite"
    fill(path, games=2, moves=2)
    small_disk.read_only()
    journal, notice = open_journal(str(path))
    assert journal is not None and journal.read_only and notice == READ_ONLY
    rt, out, clock = runtime(journal, notice)
    assert rt.app.unfinished is not None
    small_disk.read_only(False)


def test_a_read_only_journal_is_never_moved_and_still_offers_the_unfinished_game(tmp_path):
    path = tmp_path / "j.sqlite"
    fill(path, games=2, moves=2)
    before = path.read_bytes()
    ro = lambda p, _read_only: sqlite_connect(p, True)  # noqa: E731 - the file of a read-only mount
    rt, out, clock = runtime(Journal(path, connect=ro))  # opening writes nothing: it opens
    assert rt.app.unfinished is not None
    press(rt, 2)
    press(rt, 2)  # "Reprendre"
    assert isinstance(rt.app, GameSession)
    press(rt, 2)  # a ring: the first write finds the journal read-only
    assert len(rt.app.moves) == 3 and rt.keeper.problem == "readonly" and banners(out) == {READ_ONLY.fr}
    assert path.read_bytes() == before and not list(tmp_path.glob("*.corrupt-*"))
    with pytest.raises(JournalUnwritable):
        Journal(path, connect=ro).start_game("toyboard", GameConfig(2, {}, 1), (2, 5))


def test_a_damaged_journal_on_a_read_only_mount_is_left_where_it_is(small_disk):
    path = small_disk.where / "j.sqlite"
    path.write_bytes(b"\x00garbage" * 1000)
    small_disk.read_only()
    journal, notice = open_journal(str(path))
    assert journal is None and notice == UNUSABLE  # the table runs without one, and says so
    assert sorted(p.name for p in small_disk.where.iterdir()) == ["j.sqlite"]
    small_disk.read_only(False)


# -- the loop -----------------------------------------------------------------------------------
def test_an_app_that_raises_sends_the_table_back_to_the_menu_and_the_game_can_be_resumed(tmp_path, monkeypatch):
    path = tmp_path / "j.sqlite"
    rt, out, clock = runtime(Journal(path))
    start_toy(rt)
    place(rt, clock, "A1", token(0, 1))
    original = GAME.screen
    monkeypatch.setattr(GAME, "screen", lambda view, seat: 1 / 0)
    place(rt, clock, "C1", token(1, 1))
    assert isinstance(rt.app, MenuApp) and banners(out) == {INTERNAL_ERROR.fr}
    assert rt.errors == 1 and rt.healthy
    monkeypatch.setattr(GAME, "screen", original)
    press(rt, 2)  # clears the notice, takes the menu
    press(rt, 2)  # "Reprendre"
    # the move was journaled before the screens were drawn (journal first), so the resumed game
    # has it, and the token lying on C1 matches the game: nothing to redo
    assert isinstance(rt.app, GameSession) and len(rt.app.moves) == 2
    assert rt.app.instruction is None


def test_a_loop_that_only_fails_stops_being_healthy(tmp_path, monkeypatch):
    rt, out, clock = runtime(None)
    monkeypatch.setattr(MenuApp, "frame", lambda self, seat: 1 / 0)
    for _ in range(6):
        rt.tick()
    assert not rt.healthy and rt.errors >= 5
    monkeypatch.undo()
    rt.tick()
    assert rt.healthy

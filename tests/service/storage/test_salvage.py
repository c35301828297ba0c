"""Salvage of a damaged journal keeps every readable move: real SQLite files with one page zeroed
(found with SQLite's own dbstat table) or cut short, opened through the table's boot path."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from firmware_host.commands.common import open_journal
from firmware_host.storage.journal import Journal
from firmware_host.storage.journal_errors import JournalCorrupt
from games.core import GameConfig

PAGE = 4096


def fill(path: Path, games: int = 2, moves: int = 58, computers: bool = False) -> list[int]:
    """Finished games with `moves` moves each (the last one left playing); a crash, not a clean stop."""
    j = Journal(path)
    ids = []
    for g in range(games):
        gid = j.start_game("toyboard", GameConfig(2, {}, g), (2, 5), {1: "strong"} if computers else None)
        j.append_many(gid, 0, [(i % 2, {"type": "ring", "n": i, "pad": "x" * 40}) for i in range(moves)])
        if g < games - 1:
            j.finish(gid, {"scores": [0, 0], "winners": [0]})
        ids.append(gid)
    j.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='0' WHERE key='clean'")  # the next open checks the file
    db.commit()
    db.close()
    return ids


def pages_of(path: Path, name: str) -> list[int]:
    db = sqlite3.connect(path)
    try:
        return [r[0] for r in db.execute("SELECT pageno FROM dbstat WHERE name=? ORDER BY pageno", (name,))]
    finally:
        db.close()


def zero(path: Path, page: int) -> None:
    """Zero SQLite page `page` (numbered from 1, as dbstat does)."""
    data = bytearray(path.read_bytes())
    data[(page - 1) * PAGE:page * PAGE] = bytes(PAGE)
    path.write_bytes(bytes(data))


def boot(path: Path) -> tuple[Journal, str]:
    with pytest.raises(JournalCorrupt):
        Journal(path).close()
    journal, notice = open_journal(str(path))
    assert journal is not None and notice is not None
    return journal, notice.fr


def moves_of(journal: Journal) -> dict[int, int]:
    return {gid: len(journal.record(gid).moves) for gid in journal.ids()}


def test_a_zeroed_page_of_the_empty_computers_table_loses_nothing(tmp_path):
    path = tmp_path / "j.sqlite"
    ids = fill(path)
    [page] = pages_of(path, "computers")
    zero(path, page)
    journal, notice = boot(path)
    assert moves_of(journal) == {ids[0]: 58, ids[1]: 58}
    assert notice == "Journal abîmé mis de côté : 2 partie(s) gardée(s), 0 perdue(s)"
    assert journal.unfinished() is not None and journal.unfinished().id == ids[1]


def test_a_zeroed_page_of_the_moves_index_loses_nothing(tmp_path):
    path = tmp_path / "j.sqlite"
    ids = fill(path, computers=True)
    index = pages_of(path, "sqlite_autoindex_moves_1")
    zero(path, index[0])
    journal, notice = boot(path)
    assert moves_of(journal) == {ids[0]: 58, ids[1]: 58}
    assert journal.record(ids[1]).computers == {1: "strong"}  # the computers table read as it was
    assert "2 partie(s) gardée(s), 0 perdue(s)" in notice


def test_a_zeroed_meta_page_loses_no_game(tmp_path):
    path = tmp_path / "j.sqlite"
    ids = fill(path)
    [page] = pages_of(path, "meta")
    zero(path, page)
    journal, notice = boot(path)
    assert moves_of(journal) == {ids[0]: 58, ids[1]: 58}
    assert "2 partie(s) gardée(s), 0 perdue(s)" in notice


def test_a_zeroed_last_page_of_a_game_keeps_its_readable_prefix_and_says_so(tmp_path):
    path = tmp_path / "j.sqlite"
    ids = fill(path, games=1, moves=300)
    leaves = pages_of(path, "moves")
    zero(path, leaves[-1])  # the moves table's last page: the game's newest moves
    journal, notice = boot(path)
    [(gid, kept)] = moves_of(journal).items()
    assert gid == ids[0] and 200 < kept < 300
    rec = journal.unfinished()
    assert rec is not None and rec.id == gid and [a["n"] for _, a in rec.moves] == list(range(kept))
    # the zeroed page held the game's last moves: nothing is left to count them by
    assert "1 partie(s) gardée(s) (derniers coups peut-être perdus), 0 perdue(s)" in notice


def test_a_zeroed_page_in_the_middle_of_a_game_keeps_the_moves_before_it(tmp_path):
    path = tmp_path / "j.sqlite"
    ids = fill(path, games=3, moves=200)
    leaves = [p for p in pages_of(path, "moves")]
    zero(path, leaves[len(leaves) // 2])
    journal, notice = boot(path)
    counts = moves_of(journal)
    assert set(counts) == set(ids)  # every game kept: the damage cut one of them short
    cut = [gid for gid, n in counts.items() if n < 200]
    assert len(cut) == 1 and 0 < counts[cut[0]] < 200
    assert f"3 partie(s) gardée(s) ({200 - counts[cut[0]]} ou plus coup(s) perdu(s) en fin de partie), 0 perdue(s)" \
        in notice


def test_a_zeroed_page_of_the_game_list_counts_the_games_it_held_as_lost(tmp_path):
    path = tmp_path / "j.sqlite"
    fill(path, games=120, moves=2)
    leaves = pages_of(path, "games")
    assert len(leaves) > 2
    zero(path, leaves[1])
    journal, notice = boot(path)
    kept = len(journal.ids())
    assert 0 < kept < 120
    lost = 120 - kept
    assert f"{kept} partie(s) gardée(s), {lost} ou plus perdue(s)" in notice  # their moves name them


def test_a_truncated_file_keeps_what_lies_before_the_cut(tmp_path):
    path = tmp_path / "j.sqlite"
    fill(path, games=40, moves=60)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) * 2 // 3 // PAGE * PAGE])
    journal, notice = boot(path)
    assert journal.ids() == list(range(1, 41))  # the game list lies before the cut
    counts = moves_of(journal)
    assert counts[1] == 60 and 0 < sum(counts.values()) < 40 * 60
    assert notice.endswith("40 partie(s) gardée(s) (derniers coups peut-être perdus), 0 perdue(s)")


def test_a_file_whose_schema_is_gone_says_the_games_are_lost_not_zero(tmp_path):
    path = tmp_path / "j.sqlite"
    fill(path)
    zero(path, 1)
    journal, notice = boot(path)
    assert journal.ids() == []
    assert notice == "Journal abîmé mis de côté : 0 partie(s) gardée(s), 0 ou plus perdue(s)"


# -- damage in old games, found in the loop's idle time -------------------------------------------
def clean_journal_with_a_damaged_old_game(path: Path) -> Journal:
    """A journal stopped cleanly (no check at the next open) whose oldest game lost a page."""
    ids = fill(path, games=30, moves=80)
    Journal(path).close()  # a clean stop: the next open skips the integrity check
    db = sqlite3.connect(path)
    first_leaf = db.execute("SELECT min(pageno) FROM dbstat WHERE name='moves' AND pagetype='leaf'").fetchone()[0]
    db.close()
    zero(path, first_leaf)  # the first moves of the oldest game, finished long ago
    journal = Journal(path)
    assert not journal.checked and journal.record(ids[-1]).id == ids[-1]  # opens, the game in play reads
    return journal


def test_damage_in_an_old_game_is_found_in_idle_time_and_set_aside_as_at_boot(tmp_path, monkeypatch):
    import games.registry as registry
    from tests.service.storage.test_journal_faults import banners, runtime

    monkeypatch.setattr(registry, "GAMES", {"toyboard": "tests.kits.toyboard:GAME"})
    registry.get_game.cache_clear()
    rt, out, clock = runtime(clean_journal_with_a_damaged_old_game(tmp_path / "j.sqlite"))
    assert rt.keeper.set_asides == 0
    for _ in range(400):  # idle passes, as the loop makes them while nobody plays
        clock.t += 1
        rt.prepare()
        if rt.keeper.set_asides:
            break
    assert rt.keeper.set_asides == 1
    rt.tick()
    [text] = banners(out)
    assert text is not None and text.startswith("Journal abîmé mis de côté : 30 partie(s) gardée(s) (")
    journal = rt.keeper.journal
    assert len(journal.record(1).moves) < 80 and len(journal.record(30).moves) == 80
    registry.get_game.cache_clear()


def test_the_idle_check_reads_a_few_rows_at_a_time_and_only_when_due(tmp_path):
    from firmware_host.storage.journal_keeper import CHECK_SECONDS, JournalKeeper

    path = tmp_path / "j.sqlite"
    fill(path, games=3, moves=200)
    Journal(path).close()
    now = [0.0]
    keeper = JournalKeeper(Journal(path), lambda: now[0])
    parts = []
    for _ in range(20):
        assert keeper.tidy()
        parts.append(keeper.checked_to)
        assert not keeper.tidy()  # not due again before CHECK_SECONDS
        now[0] += CHECK_SECONDS
    # a game's row and 64 moves a part: 4 parts a game of 200 moves, then round again
    assert parts[:13] == [(1, 64), (1, 128), (1, 192), (1, 0), (2, 64), (2, 128), (2, 192), (2, 0),
                          (3, 64), (3, 128), (3, 192), (3, 0), (0, 0)]
    assert parts[13] == (1, 64) and keeper.set_asides == 0


def test_a_file_cut_inside_the_last_page_of_moves_says_the_last_moves_may_be_lost(tmp_path):
    path = tmp_path / "j.sqlite"
    fill(path, games=2, moves=300)
    data = path.read_bytes()
    assert pages_of(path, "moves")[-1] == len(data) // PAGE  # the moves' newest page ends the file
    # cut inside that page: its cells, written from the page's end, read back as zeros (rowid 0)
    # and SQLite's scan goes through them without an error
    path.write_bytes(data[:len(data) - PAGE // 3])
    journal, notice = boot(path)
    counts = moves_of(journal)
    assert counts[1] == 300 and counts[2] < 300  # game 2 resumes from its readable prefix
    # no game is lost (a garbled cell names no game), and the moves lost are counted as at least
    # those past the prefix: the scan went through garbled cells, more may be gone
    assert notice == (f"Journal abîmé mis de côté : 2 partie(s) gardée(s) ({300 - counts[2]} ou plus coup(s) "
                      "perdu(s) en fin de partie), 0 perdue(s)")


def test_a_file_cut_inside_its_first_page_never_says_no_game_was_lost(tmp_path):
    path = tmp_path / "j.sqlite"
    fill(path, games=20, moves=10)
    path.write_bytes(path.read_bytes()[:1105])  # the schema's cells, at the page's end, are gone
    journal, notice = boot(path)
    assert journal.ids() == []
    assert notice == "Journal abîmé mis de côté : 0 partie(s) gardée(s), 0 ou plus perdue(s)"

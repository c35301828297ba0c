"""A table that restarts in the middle of a remote game (a power cut) rejoins it from its journal:
the other table sees it go and come back, a move laid meanwhile at either table is not lost, and
both play on to the same end. The restarted table never lets a local hand play the other's seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.apps import reconcile
from firmware_host.storage.journal import Journal
from tests.kits.remotekit import TwoTables, screen_words
from tests.service.apps.solo_table import human_move

GAME = "droles-de-zebres"


def play_until(t: TwoTables, moves: int) -> None:
    while len(t.host_session.moves) < moves:
        assert t.wait(t.in_step), t.describe()
        assert t.act(), t.describe()
    assert t.wait(t.in_step), t.describe()


def play_to_the_end(t: TwoTables) -> None:
    for _ in range(2000):
        if t.host_session.over and t.wait(t.in_step):
            break
        assert t.wait(lambda: t.act() or t.host_session.over), t.describe()
    assert t.host_session.over and t.join_session.over, t.describe()
    assert t.host_session.moves == t.join_session.moves
    assert t.host_session.state == t.join_session.state


def until_turn(t: TwoTables, seat: int) -> None:
    """Play on until game seat `seat` is to lay a move and both tables are in order."""
    for _ in range(400):
        assert t.wait(t.in_step), t.describe()
        at = t.host_session if seat == 0 else t.join_session
        if seat in at.humans_to_act() and t.host_session.instruction is None and t.join_session.instruction is None:
            return
        assert t.act(), t.describe()
    raise AssertionError(f"seat {seat} never had a move to make")


def journaled_remote(path: Path) -> tuple[str, str, tuple[int, ...]]:
    rec = Journal(path).unfinished()
    assert rec is not None and rec.remote is not None
    return rec.remote.side, rec.remote.code, rec.remote.seats


def test_the_host_restarts_and_both_tables_play_on(broker, tmp_path):
    paths = (tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    t = TwoTables(broker, GAME, {"first_player": "seat0"}, seed=21, journals=paths)
    try:
        t.join(t.code)
        play_until(t, 6)
        assert journaled_remote(paths[0]) == ("host", t.code, (1,))
        assert journaled_remote(paths[1]) == ("join", t.code, (0,))
        until_turn(t, 1)  # the joining player lays a move while the host is dark
        t.power_cut("a")
        assert t.wait(lambda: "J1 (à distance) absent" in screen_words(t.b, 3)), screen_words(t.b, 3)
        before = len(t.join_session.moves)
        assert human_move(t.b, t.rng)
        assert len(t.join_session.moves) == before + 1 and t.joined.link.unacknowledged() >= 1
        game = t.restart("a")
        assert t.resume_entry == "Reprendre : Drôles de Zèbres (à distance)"
        # the resumed game is the remote one: the other table's seat is played there, never here
        assert game.code == t.code and game.seats.seats == frozenset({1}) and t.host_session.seats[1] is None
        assert t.host_session.remote is game.seats
        assert t.wait(lambda: t.joined.seats.link.peer_restarts == 1 and t.in_step()), t.describe()
        assert len(t.host_session.moves) == before + 1  # the move laid meanwhile came through
        assert t.wait(lambda: "J2 (à distance) absent" not in screen_words(t.a, 1))
        play_to_the_end(t)
        assert t.hosted.seats.mismatches == t.joined.seats.mismatches == 0
    finally:
        t.close()


def test_the_joining_table_restarts_with_a_move_the_host_never_had(broker, tmp_path):
    paths = (tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    t = TwoTables(broker, GAME, {"first_player": "seat0"}, seed=22, journals=paths)
    try:
        t.join(t.code)
        play_until(t, 6)
        until_turn(t, 1)
        # the joining table's move is journaled there but its link is down: then the power goes
        t.joined.link.cut()
        before = len(t.join_session.moves)
        assert human_move(t.b, t.rng)
        assert len(t.join_session.moves) == before + 1 and len(t.host_session.moves) == before
        t.power_cut("b")
        assert t.wait(lambda: "J2 (à distance) absent" in screen_words(t.a, 1)), screen_words(t.a, 1)
        game = t.restart("b")
        assert game.code == t.code and game.seats.seats == frozenset({0}) and t.join_session.seats[0] is None
        # the host sees it come back, sends its whole game, and takes the move its outbox had lost
        assert t.wait(lambda: t.hosted.link.peer_restarts == 1 and t.in_step()), t.describe()
        assert len(t.host_session.moves) == before + 1
        assert t.wait(lambda: "absent" not in screen_words(t.a, 1))
        play_to_the_end(t)
        assert t.hosted.seats.mismatches == t.joined.seats.mismatches == 0
    finally:
        t.close()


def test_a_hand_at_the_restarted_host_never_makes_the_other_tables_move(broker, tmp_path):
    paths = (tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    t = TwoTables(broker, GAME, {"first_player": "seat0"}, seed=23, journals=paths)
    try:
        t.join(t.code)
        play_until(t, 4)
        until_turn(t, 0)
        assert t.act()  # the host's player moves: the joining player is to act
        assert t.wait(t.in_step), t.describe()
        t.power_cut("a")
        t.restart("a")
        assert t.wait(t.in_step), t.describe()
        while t.act_instruction():  # the pieces go back on the restarted table
            assert t.wait(t.in_step), t.describe()
        s = t.host_session
        assert 1 in s.to_act() and 1 not in s.humans_to_act()
        zones = s.logical_zones()
        now = reconcile.restrict(s.layout(), zones)
        placing = [a for a in s.game.legal_actions(s.state, 1)
                   if reconcile.restrict(s.game.footprint(s.state, 1, a), zones) != now]
        assert placing
        before = list(s.moves)
        for fix in reconcile.fixes(reconcile.restrict(s.game.footprint(s.state, 1, placing[0]), zones), now):
            (t.a.remove if fix.kind == "remove" else t.a.place)(s.to_physical(fix.zone), fix.piece)
        t.a.settle()
        assert s.moves == before  # not taken: the move is the other table's to make
        assert s.instruction is not None  # the table says to put it back
        t.wait(lambda: False, 0.5)
        assert t.join_session.moves == before
    finally:
        t.close()


def test_a_remote_game_is_not_resumed_by_a_table_without_its_broker(broker, tmp_path):
    from firmware_host.apps.menu import MenuApp
    from firmware_host.commands.script import ScriptRunner
    from firmware_host.loop.simulator import SimError
    from tests.service.apps.solo_table import open_table

    paths = (tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    t = TwoTables(broker, GAME, {"first_player": "seat0"}, seed=24, journals=paths)
    try:
        t.join(t.code)
        play_until(t, 3)
        t.power_cut("a")
    finally:
        t.close()
    sim = open_table(journal=Journal(paths[0]))  # its config lost its [remote] section
    try:
        with pytest.raises(SimError, match="did not start"):
            ScriptRunner(sim, sim.clock)._resume(True, 1)
        menu = sim.runtime.app
        assert isinstance(menu, MenuApp) and sim.runtime.remote_game is None
        assert menu.message is not None and "pas de [remote]" in menu.message.fr
        assert menu.unfinished is not None  # kept: it is played again once the config has it
    finally:
        sim.close()


def test_a_damaged_remote_row_of_the_journal_is_named(tmp_path):
    import sqlite3

    from firmware_host.storage.journal_errors import JournalCorrupt
    from firmware_host.storage.journal_rows import RemoteRecord
    from games.core import GameConfig

    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    gid = journal.start_game(GAME, GameConfig(2, {}, 1), (1, None), remote=RemoteRecord("host", "ABCDEFGH", (1,)))
    assert journal.record(gid).remote == RemoteRecord("host", "ABCDEFGH", (1,))
    journal.close()
    for bad in ('{"side": "host", "code": "ABCDEFGH", "seats": [2]}', '{"side": "both", "code": "A", "seats": [1]}',
                '{"side": "host", "code": "AB/", "seats": [1]}', '{"side": "host", "code": "A", "seats": [true]}',
                '{"side": "host", "code": "A", "seats": [0, 1]}', '[1]'):
        db = sqlite3.connect(path)
        db.execute("UPDATE computers SET players=? WHERE game_id=?",
                   ('{"computers": {}, "hints": false, "remote": %s}' % bad, gid))
        db.commit()
        db.close()
        with pytest.raises(JournalCorrupt, match=f"game {gid}: damaged record: remote"):
            Journal(path).record(gid)


def test_a_message_of_a_tables_run_before_its_restart_is_never_taken_again(broker, tmp_path):
    from firmware_host.remote import code as codes
    from firmware_host.remote import wire
    from tests.service.remote.test_remote_faults import Sniffer

    paths = (tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    t = TwoTables(broker, GAME, {"first_player": "seat1"}, seed=25, journals=paths)
    sniffer = Sniffer(broker.port)
    try:
        t.join(t.code)
        play_until(t, 8)
        old_run = t.joined.link.run
        t.power_cut("b")
        t.restart("b")
        assert t.wait(lambda: t.hosted.link.peer_restarts == 1 and t.in_step()), t.describe()
        link = t.hosted.link
        assert link.peer_run == t.joined.link.run > old_run
        opened = codes.derive(t.code)
        join_topic = wire.topic(opened.room, "join")
        with sniffer.lock:
            sent = [p for topic, p in sniffer.seen if topic == join_topic]
        # a third party replays the joining table's earlier run's message whose seq is the next one
        # this run's would take: it is never taken (taken, it would make the real one a "copy");
        # the test opens the sealed messages with the key to find it, the third party would try them all
        olds = {m.seq: p for m, p in ((wire.parse(join_topic, p, opened.key), p) for p in sent) if m.run == old_run}
        received, duplicates = link.received, link.stats.duplicates
        assert received + 1 in olds, (received, sorted(olds))
        sniffer.publish(join_topic, olds[received + 1])
        assert t.wait(lambda: link.stats.duplicates > duplicates), link.stats
        assert link.received == received
        play_until(t, len(t.host_session.moves) + 4)  # the game goes on
    finally:
        sniffer.close()
        t.close()


def test_a_link_takes_a_later_run_from_its_base_and_no_ack_about_its_own_earlier_run(broker):
    from types import SimpleNamespace

    from firmware_host.remote import code as codes
    from firmware_host.remote import wire
    from firmware_host.remote.link import RemoteLink
    from tests.kits.remotekit import broker_settings

    link = RemoteLink(broker_settings(broker), "ABCDEFGH", "host")  # never started: fed by hand
    opened = codes.derive(link.code)
    link.key, link.room = opened.key, opened.room
    where = wire.topic(link.room, "join")

    def hear(run: int, seen: int, ack: int, base: int = 0) -> None:
        fields = {"kind": "ping", "seq": 0, "ack": ack, "run": run, "seen": seen, "base": base}
        link._on_message(None, None, SimpleNamespace(topic=where, payload=wire.encode(link.key, where, fields)))

    link.send("game", {"game": "x"})
    link.send("left", {})
    hear(run=10, seen=link.run - 1, ack=2)  # about this table's run before a restart: not this outbox
    assert link.unacknowledged() == 2 and link.peer_run == 10 and link.peer_restarts == 0
    hear(run=10, seen=link.run, ack=1)
    assert link.unacknowledged() == 1
    hear(run=12, seen=0, ack=0, base=7)  # the other table restarted; it knows 7 were taken
    assert link.peer_run == 12 and link.received == 7 and link.peer_restarts == 1
    duplicates = link.stats.duplicates
    hear(run=10, seen=link.run, ack=2)  # its earlier run, replayed: nothing of it is followed
    assert link.stats.duplicates == duplicates + 1 and link.peer_run == 12 and link.unacknowledged() == 1

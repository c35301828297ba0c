"""SQLite journal: durable settings, records, corrupt file set aside, resume in the runtime."""

import pytest

import games.registry as registry
from drivers.buttons import ButtonEvent
from firmware_host.apps.app import LeaveGame
from firmware_host.apps.session import GameSession
from firmware_host.loop.runtime import ReaderStatus, Runtime, TagChange
from firmware_host.storage.config import load_config
from firmware_host.storage.journal import Journal
from firmware_host.storage.journal_errors import JournalError
from firmware_host.storage.journal_salvage import open_or_set_aside
from firmware_host.storage.tags import sim_registry, sim_uid
from games.core import GameConfig
from tests.kits.toyboard import GAME, token
from tests.service.loop.test_runtime import Clock, Recorder, start_toy


@pytest.fixture
def toy_only(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", {"toyboard": "tests.kits.toyboard:GAME"})
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


def test_settings_on_every_connection(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    assert j.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_record_roundtrip_and_abandon_on_new_game(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    gid = j.start_game("zop", GameConfig(2, {"deck": "tracked"}, 7), (1, 3))
    j.append(gid, 0, -1, {"type": "deal", "card": 3})
    j.append(gid, 1, 0, {"type": "play", "card": "x"})
    rec = Journal(tmp_path / "j.sqlite").unfinished()  # a second connection sees it: committed
    assert rec.id == gid and rec.seats == (1, 3) and rec.config.seed == 7
    assert rec.moves == ((-1, {"type": "deal", "card": 3}), (0, {"type": "play", "card": "x"}))
    gid2 = j.start_game("zop", GameConfig(2), (1, 2))
    assert j.record(gid).status == "abandoned" and j.unfinished().id == gid2
    j.finish(gid2, {"scores": [1, 2], "winners": [1]})
    assert j.unfinished() is None and j.record(gid2).outcome["winners"] == [1]
    with pytest.raises(JournalError):
        j.record(999)


def test_corrupt_journal_is_set_aside(tmp_path):
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    journal, message = open_or_set_aside(path)
    assert "moved to" in message and journal.unfinished() is None
    assert [p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name]


def test_resume_after_restart_gives_same_state(tmp_path, toy_only):
    table = load_config(None)
    reg = sim_registry(GAME.pieces())
    clock = Clock()
    rt = Runtime(table, reg, Recorder(), clock, auto_chance=True, seed=3, journal=Journal(tmp_path / "j.sqlite"))
    rt.handle(ReaderStatus("ready"))
    start_toy(rt)
    rt.handle(TagChange("A1", sim_uid(token(0, 1)), True))
    clock.t += 1
    rt.tick()
    rt.handle(ButtonEvent(5, "ok", "press", 0.0))  # seat 5 rings with its button
    rt.handle(ButtonEvent(5, "ok", "release", 0.0))
    before = rt.app.state
    assert len(rt.app.moves) == 2
    # the power goes: a new process opens the same journal, the board still holds A1
    out = Recorder()
    rt2 = Runtime(table, reg, out, clock, auto_chance=True, seed=9, journal=Journal(tmp_path / "j.sqlite"))
    rt2.handle(TagChange("A1", sim_uid(token(0, 1)), True))
    rt2.handle(ReaderStatus("ready"))
    clock.t += 1
    rt2.tick()
    assert out.frames[1].screen.title.fr == "Partie interrompue"
    rt2.handle(ButtonEvent(1, "ok", "press", 0.0))
    rt2.handle(ButtonEvent(1, "ok", "release", 0.0))
    assert [t.fr for t in out.frames[1].menu][:2] == ["Reprendre : Plateau jouet", "Abandonner : Plateau jouet"]
    rt2.handle(ButtonEvent(1, "ok", "press", 0.0))
    rt2.handle(ButtonEvent(1, "ok", "release", 0.0))
    assert isinstance(rt2.app, GameSession) and rt2.app.state == before
    assert rt2.app.instruction is None  # the board matches the resumed game
    rt2.handle(TagChange("C1", sim_uid(token(1, 1)), True))
    clock.t += 1
    rt2.tick()
    assert len(rt2.app.moves) == 3
    assert len(Journal(tmp_path / "j.sqlite").unfinished().moves) == 3


def test_games_commands_list_show_and_seat_filter(tmp_path, toy_only, capsys):
    from firmware_host.commands.main import main

    path = tmp_path / "j.sqlite"
    j = Journal(path)
    gid = j.start_game("toyboard", GameConfig(2, {}, 5), (2, 5))
    j.append(gid, 0, 0, {"type": "place", "piece": token(0, 1), "square": "A1"})
    j.append(gid, 1, 1, {"type": "ring"})
    assert main(["games", "--journal", str(path), "list"]) == 0
    assert "toyboard" in capsys.readouterr().out
    import json
    assert main(["games", "--journal", str(path), "show", str(gid)]) == 0
    full = json.loads(capsys.readouterr().out)
    assert full["moves"][1] == {"seat": "1", "player": "J2", "action": {"type": "ring"}} and full["seed"] == 5
    assert main(["games", "--journal", str(path), "show", str(gid), "--seat", "1"]) == 0  # J1, as on screens
    mine = json.loads(capsys.readouterr().out)
    assert "seed" not in mine and "moves" not in mine
    assert "action" in mine["steps"][1] and "action" not in mine["steps"][2]
    assert mine["steps"][2]["effects"] == [{"kind": "ring", "text": "Ding"}]  # the ring was for seat 0
    assert main(["games", "--journal", str(path), "show", str(gid), "--seat", "2"]) == 0
    theirs = json.loads(capsys.readouterr().out)
    assert theirs["steps"][2]["effects"] == [] and "action" in theirs["steps"][2]
    assert main(["games", "--journal", str(path), "replay", str(gid), "--seat", "2"]) == 0
    assert "step 2/2: J2 " in capsys.readouterr().out
    assert main(["games", "--journal", str(path), "show", "42"]) == 1


def test_resume_restarts_a_running_countdown_and_draws_as_before(tmp_path):
    """Opération Zèbre: the power goes during an interception window; after resume the window
    runs again in full and expires by itself; chance draws after a resume are the same."""
    import random

    from games.core import CHANCE, Countdown
    from games.playout import sample_chance
    from games.registry import get_game

    registry.get_game.cache_clear()
    game = get_game("operation-zebre")
    config = game.validate_config(GameConfig(6, {"mode": "competitive"}, 7))
    rng = random.Random(2)
    for _attempt in range(200):
        state, moves = game.initial_state(config), []
        for _ in range(400):
            seats = sorted(game.to_act(state))
            seat = rng.choice(seats)
            if seat == CHANCE:
                act = sample_chance(game, state, random.Random(f"{config.seed}/{len(moves)}"))
            else:
                act = rng.choice(game.legal_actions(state, seat))
            step = game.apply(state, seat, act)
            state = step.state
            moves.append((seat, act))
            countdowns = [e for e in step.effects if isinstance(e, Countdown)]
            if countdowns or game.outcome(state) is not None:
                break
        if countdowns:
            break
    assert countdowns, "no interception window reached"
    cd = countdowns[0]
    j = Journal(tmp_path / "j.sqlite")
    gid = j.start_game(game.id, config, (1, 2, 3, 4, 5, 6))
    for i, (seat, act) in enumerate(moves):
        j.append(gid, i, seat, act)
    clock = Clock()
    from firmware_host.storage.tags import all_game_pieces
    rt = Runtime(load_config(None), sim_registry(all_game_pieces()), Recorder(), clock, auto_chance=True,
                 journal=Journal(tmp_path / "j.sqlite"))
    rt.handle(ReaderStatus("ready"))
    for kind in ("press", "release", "press", "release"):  # take the menu, choose "Reprendre"
        rt.handle(ButtonEvent(1, "ok", kind, 0.0))
    session = rt.app
    assert isinstance(session, GameSession) and session.state == state
    assert [t.countdown.on_expire for t in session.timers] == [cd.on_expire]
    watcher = min(cd.audience) if cd.audience else 0
    assert session.seat_frame(watcher).screen.bar == 1.0  # the window starts again in full
    clock.t += cd.seconds + 0.5
    rt.tick()
    assert session.moves[len(moves)] == (cd.seat, dict(cd.on_expire))


def test_a_bad_journal_never_stops_the_table_and_every_screen_says_so(tmp_path, toy_only):
    from firmware_host.commands.run import open_journal

    bad = tmp_path / "j.sqlite"
    bad.write_bytes(b"garbage" * 500)
    journal, notice = open_journal(str(bad))
    assert journal is not None and "mis de côté" in notice.fr
    none, notice2 = open_journal("/proc/zebra-table/j.sqlite")  # cannot be created at all
    assert none is None and notice2.en == "No journal: games are not kept"
    out = Recorder()
    rt = Runtime(load_config(None), sim_registry(GAME.pieces()), out, Clock(), journal=journal, startup_notice=notice)
    rt.refresh()
    assert all(f.banner == notice for f in out.frames.values())
    rt.handle(ButtonEvent(4, "ok", "press", 0.0))
    rt.handle(ButtonEvent(4, "ok", "release", 0.0))
    assert all(f.banner is None for f in out.frames.values())


def test_the_record_keeps_the_computer_seats_and_hints(tmp_path):
    from firmware_host.storage.journal import Journal
    from games.core import GameConfig

    j = Journal(tmp_path / "j.sqlite")
    gid = j.start_game("zop", GameConfig(2, {"deck": "tracked"}, 3), (1, 2), {1: "strong"}, True)
    other = j.start_game("zop", GameConfig(2, {}, 3), (1, 2))
    assert j.record(gid).computers == {1: "strong"} and j.record(gid).hints
    assert j.record(other).computers == {} and not j.record(other).hints
    j.close()
    again = Journal(tmp_path / "j.sqlite", read_only=True)
    assert again.record(gid).computers == {1: "strong"}
    again.close()


def test_a_game_boundarys_checkpoint_waits_for_the_loops_idle_time(tmp_path, toy_only):
    """Starting or leaving a game commits at once; copying the WAL into the file is idle work."""
    path = tmp_path / "j.sqlite"
    wal = tmp_path / "j.sqlite-wal"
    table = load_config(None)
    clock = Clock()
    rt = Runtime(table, sim_registry(GAME.pieces()), Recorder(), clock, auto_chance=True, seed=3,
                 journal=Journal(path))
    rt.handle(ReaderStatus("ready"))
    while rt.prepare():
        pass
    start_toy(rt)
    assert wal.stat().st_size > 0 and rt.keeper.checkpoint_due  # the game is committed, not copied yet
    assert Journal(path, read_only=True).unfinished() is not None  # durable: readable from the WAL
    assert rt.prepare() and wal.stat().st_size == 0 and not rt.keeper.checkpoint_due
    rt.handle(TagChange("A1", sim_uid(token(0, 1)), True))
    clock.t += 1
    rt.tick()
    assert wal.stat().st_size > 0 and not rt.keeper.checkpoint_due  # a move: no checkpoint due
    rt.pending.append(LeaveGame(rt.app.game.id, len(rt.app.moves)))
    rt.tick()  # the game is left: abandoned in the journal, durable now
    assert rt.keeper.checkpoint_due and wal.stat().st_size > 0
    assert rt.prepare() and wal.stat().st_size == 0
    assert Journal(path, read_only=True).record(Journal(path, read_only=True).ids()[-1]).status == "abandoned"

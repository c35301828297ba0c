"""Whole-table scenarios through `zebra-table script`: the virtual reader on a real pty, mock pins,
dummy screens; menu → game → moves → screens, LEDs, reconciliation, faults."""

import io
import json

import pytest

import games.registry as registry
from firmware_host.commands.main import build_parser
from firmware_host.commands.script import run


@pytest.fixture
def toy_registered(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", {**registry.GAMES, "toyboard": "tests.kits.toyboard:GAME"})
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


def transcript(tmp_path, events, *extra):
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    out = io.StringIO()
    code = run(build_parser().parse_args(["script", str(path), *extra]), out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_menu_start_moves_and_reconciliation(tmp_path, toy_registered):
    n_games = len(registry.available_ids()) - 1  # toyboard is last before the test app
    events = [{"press": 3}] + [{"press": 3, "button": "right"}] * n_games + [
        {"press": 3}, {"press": 6}, {"press": 3},                     # toyboard, seat 6 joins, start
        {"place": "A1", "piece": "toyboard/white/token/1"},           # seat 3 (white) plays A1
        {"place": "D1", "piece": "toyboard/green/token/1"},           # seat 6: off the row
        {"remove": "D1", "piece": "toyboard/green/token/1"},
        {"place": "B1", "piece": "toyboard/green/token/1"},           # scares the white token on A1
        {"remove": "A1", "piece": "toyboard/white/token/1"},          # following the instruction
        {"place": "E5", "tag": "DEADBEEF"},                           # a stranger
        {"advance": 3.1},                                             # the earlier banner ends
    ]
    code, lines = transcript(tmp_path, events)
    assert code == 0
    start = lines[len(events) - 7 - 1]
    assert start["app"] == "game" and start["seats"] == [3, 6] and start["to_act"] == [3]
    assert start["screens"]["1"]["lines"] == ["Partie en cours :", "Plateau jouet"]
    a1, d1, lift, b1, fixed, stranger, later = lines[-7:]
    assert a1["moves"] == 1 and a1["to_act"] == [6] and a1["leds"] == {"B1": "green", "C1": "green"}
    assert d1["moves"] == 1 and d1["leds"] == {"D1": "red"}
    assert d1["screens"]["6"]["banner"] == "Retirez le jeton vert de D1. Seulement A1, B1 ou C1"  # the mover's why
    assert lift["leds"] == {"B1": "green", "C1": "green"}
    assert b1["moves"] == 2 and b1["leds"] == {"A1": "red"}
    assert b1["screens"]["3"]["banner"] == "Retirez le jeton blanc de A1"
    assert fixed["moves"] == 2 and fixed["leds"] == {"A1": "green", "C1": "green"}
    assert "banner" not in fixed["screens"]["3"] or "Retirez" not in fixed["screens"]["3"]["banner"]
    assert stranger["moves"] == 2 and stranger["leds"] == {**fixed["leds"], "E5": "red"}  # ignored, lit: not free
    def shown(line):  # a message above a menu is a status, else a banner
        return line["screens"]["3"].get("banner") or line["screens"]["3"].get("status")

    assert shown(fixed) == "toyboard/white/token/1 retourne"  # the scared token's news, once the fix is made
    # at once, ahead of the older message not read yet (both one notice, shown in turn: no backlog)
    assert shown(stranger).startswith("Étiquette inconnue sur E5 : ignorée · ")
    assert shown(later).endswith("/1 retourne")  # the notice's next part, in turn: the older message's end


def test_bad_lines_are_reported_and_the_table_goes_on(tmp_path, toy_registered):
    code, lines = transcript(tmp_path, [{"place": "Z9", "piece": "toyboard/white/token/1"},
                                        {"press": 12}, {"dance": 1}, {"press": 1}])
    assert code == 1
    assert "no zone 'Z9'" in lines[0]["error"] and "no seat 12" in lines[1]["error"]
    assert "unknown event" in lines[2]["error"] and "error" not in lines[3]
    assert lines[3]["screens"]["1"]["title"] == "Choix du jeu"


def test_reader_disappears_and_returns_with_the_board_resynced(tmp_path, toy_registered):
    events = [{"start": {"game": "toyboard", "seats": [1, 2]}},
              {"place": "A1", "piece": "toyboard/white/token/1"},
              {"reader": "disappear"},
              {"reader": "reappear"},
              {"place": "B1", "piece": "toyboard/green/token/2"}]
    code, lines = transcript(tmp_path, events)
    assert code == 0
    assert lines[2]["reader"] != "ready" and "Lecteur absent" in lines[2]["screens"]["1"]["banner"]
    assert lines[3]["reader"] == "ready" and lines[3]["moves"] == 1
    assert lines[4]["moves"] == 2


def test_screen_failure_does_not_stop_the_table(tmp_path, toy_registered):
    events = [{"start": {"game": "toyboard", "seats": [1, 2]}}, {"screen": 2, "fail": True},
              {"place": "C1", "piece": "toyboard/white/token/1"}, {"screen": 2, "fail": False},
              {"advance": 3}]
    code, lines = transcript(tmp_path, events)
    assert code == 0 and lines[2]["moves"] == 1


def test_drôles_de_zebres_from_the_menu_in_english(tmp_path):
    from firmware_host.storage.config import sim_config_text

    cfg = tmp_path / "table.toml"
    cfg.write_text(sim_config_text().replace('language = "fr"', 'language = "en"'))
    events = [{"press": 1}, {"press": 1}, {"press": 2}, {"press": 1},   # menu: game 1, seat 2 joins, start
              {"press": 1},                                              # seat 1 places the guardian
              {"place": "A2", "piece": "green/zebra/1"}]                 # seat 2 plays on the guarded line
    code, lines = transcript(tmp_path, events, "--config", str(cfg))
    assert code == 0
    assert lines[0]["screens"]["1"]["title"] == "Choose a game"
    started, guardian, placed = lines[3], lines[4], lines[5]
    assert started["game"] == "droles-de-zebres" and started["to_act"] == [1, 2]
    assert guardian["moves"] == 1 and guardian["to_act"] == [2]
    assert placed["moves"] == 2 and placed["public"]["squares"]
    assert started["screens"]["2"]["lines"][0] == "Who starts?"
    assert guardian["screens"]["2"]["title"] == "Green · your turn"
    assert guardian["screens"]["2"]["banner"] == "Guardian faces col A. Green to play."
    assert placed["screens"]["2"]["menu"] == ["+1: col B", "+2: col C", "+3: col D", "Undo last move"]

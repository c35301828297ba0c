"""The registry finds the games by their folders' info.toml: a new folder is listed in the menu
without being imported, and a wrong info.toml leaves its game out with one message naming the
file and the key, never a traceback."""

from __future__ import annotations

import dataclasses
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

import games.registry as registry
from firmware_host.apps.menu import MenuApp, Pick
from games.core import GameConfig, UnknownGame
from tests.kits.extra_games import games_found_in

TEMPLATE = Path(__file__).with_name("template") / "games" / "shell_game"
GOOD = """id = "toy-game"
name = { fr = "Jouet", en = "Toy" }
players = { min = 2, max = 4 }
menu_order = 5
"""


def folder(tmp_path: Path, text: str, name: str = "toy_game") -> Path:
    path = tmp_path / name
    path.mkdir(parents=True)
    (path / "info.toml").write_text(text, encoding="utf-8")
    return path


def test_a_folder_with_its_info_is_found_in_menu_order(tmp_path: Path) -> None:
    folder(tmp_path, GOOD)
    found, problems = registry.discover([str(tmp_path), str(tmp_path / "missing")])
    assert problems == {} and list(found) == ["toy-game"]
    info = found["toy-game"]
    assert (info.name.fr, info.min_players, info.max_players, info.menu_order) == ("Jouet", 2, 4, 5)
    assert info.folder == tmp_path / "toy_game"


BAD = [
    ("id = 'toy-game'\nname = { fr = 'J', en = 'T' }\nplayers = { min = 2, max = 4 }\n", "missing key 'menu_order'"),
    (GOOD + "colour = 'red'\n", "unknown key 'colour'"),
    (GOOD.replace('"toy-game"', '"other"'), "id 'other' must be the folder's name"),
    (GOOD.replace('en = "Toy"', 'en = ""'), "name: expected"),
    (GOOD.replace('{ fr = "Jouet", en = "Toy" }', '"Jouet"'), "name: expected"),
    (GOOD.replace("min = 2", "min = true"), "players.min: expected an integer"),
    (GOOD.replace("max = 4", "max = 4.0"), "players.max: expected an integer"),
    (GOOD.replace("max = 4", "max = 1000"), "players.max: expected an integer 1..64"),
    (GOOD.replace("min = 2", "min = 5"), "min 5 is above max 4"),
    (GOOD.replace("players = { min = 2, max = 4 }", "players = [2, 4]"), "players: expected"),
    (GOOD.replace("menu_order = 5", "menu_order = -1"), "menu_order: expected an integer"),
    (GOOD.replace("menu_order = 5", "menu_order = inf"), "menu_order: expected an integer"),
    (GOOD + "tests = 3\n", "tests: expected a table"),
    ("id = \n", "info.toml: "),
    ("\xff", "info.toml: "),
]


@pytest.mark.parametrize("text,message", BAD, ids=[m for _, m in BAD])
def test_a_wrong_info_leaves_the_game_out_and_names_the_file_and_key(tmp_path: Path, text: str,
                                                                      message: str) -> None:
    path = folder(tmp_path, "")
    (path / "info.toml").write_bytes(text.encode("latin-1") if text == "\xff" else text.encode())
    found, problems = registry.discover([str(tmp_path)])
    assert found == {}
    assert list(problems) == [str(path)]
    assert str(path / "info.toml") in problems[str(path)] and message in problems[str(path)]
    assert "Traceback" not in problems[str(path)]


def test_a_folder_that_is_no_package_name_and_a_taken_id_are_left_out(tmp_path: Path) -> None:
    folder(tmp_path / "a", GOOD)
    folder(tmp_path / "b", GOOD)
    folder(tmp_path / "a", GOOD.replace("toy-game", "toy-ga-me"), name="toy-ga-me")
    found, problems = registry.discover([str(tmp_path / "a"), str(tmp_path / "b")])
    assert list(found) == ["toy-game"]
    assert "is already taken" in problems[str(tmp_path / "b" / "toy_game")]
    assert "not a Python package name" in problems[str(tmp_path / "a" / "toy-ga-me")]


def test_a_new_folder_is_in_the_menu_unimported_and_loads_when_chosen(tmp_path: Path) -> None:
    shutil.copytree(TEMPLATE, tmp_path / "shell_game", ignore=shutil.ignore_patterns("__pycache__"))
    with games_found_in(tmp_path):
        assert registry.game_ids()[-1] == "shell-game"
        menu = MenuApp((1, 2))
        menu.on_button(1, "ok", "press")
        keys = [key for _, key in menu.entries()]
        assert Pick("shell-game") in keys
        assert "games.shell_game" not in sys.modules
        menu.cursor = keys.index(Pick("shell-game"))
        menu.on_button(1, "ok", "press")
        assert menu.game_id == "shell-game" and "games.shell_game.rules" in sys.modules
    assert "shell-game" not in registry.game_ids() and "games.shell_game" not in sys.modules


def test_a_game_left_out_says_why_when_asked_for(tmp_path: Path) -> None:
    folder(tmp_path, GOOD.replace("max = 4", "max = 0"))
    with games_found_in(tmp_path):
        assert "toy-game" not in registry.game_ids()
        with pytest.raises(UnknownGame, match=r"toy_game/info.toml: players.max: expected an integer"):
            registry.get_game("toy-game")
        assert registry.problems()
    assert not registry.problems()


def test_the_rules_command_names_every_registered_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.commands.main import main

    shutil.copytree(TEMPLATE, tmp_path / "shell_game", ignore=shutil.ignore_patterns("__pycache__"))
    with games_found_in(tmp_path), pytest.raises(SystemExit):
        main(["rules", "--help"])
    listed = " ".join(capsys.readouterr().out.split()).replace("- ", "-")  # argparse wraps at hyphens
    assert all(gid in listed for gid in [*registry.game_ids(), "shell-game"])


@pytest.mark.parametrize("gid", registry.game_ids())
def test_the_test_settings_of_every_game_are_set_ups_it_accepts(gid: str) -> None:
    from tests.kits.every_game import screen_configs, table_runs

    game = registry.get_game(gid)
    for config in screen_configs(gid):
        game.validate_config(config)
    for run in table_runs(gid):
        assert len(set(run.seats)) == len(run.seats) and all(1 <= s <= 8 for s in run.seats), run
        game.validate_config(GameConfig(len(run.seats), run.options))


def test_wrong_test_settings_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.kits import every_game

    info = registry.INFO["zop"]
    cases: list[tuple[dict[str, Any], str]] = [
        ({"colour": 1}, "unknown key 'colour'"),
        ({"screen_configs": [{"players": True}]}, "screen_configs[0]: expected"),
        ({"table_runs": [{"seats": [1, 2], "seed": 1.5}]}, "table_runs[0]: expected"),
        ({"table_runs": []}, "table_runs: expected a non-empty list")]
    for tests, message in cases:
        monkeypatch.setitem(registry.INFO, "zop", dataclasses.replace(info, tests=tests))
        with pytest.raises(ValueError, match=re.escape(message)):
            every_game.screen_configs("zop") if "screen" in message else every_game.table_runs("zop")


def test_the_service_logs_a_game_left_out(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from firmware_host.commands.run import log_games_left_out

    assert log_games_left_out() == 0
    folder(tmp_path, GOOD.replace("menu_order = 5", "menu_order = 'first'"))
    with games_found_in(tmp_path):
        assert log_games_left_out() == 1
    assert "a game is left out of the menu: " in caplog.text and "menu_order: expected an integer" in caplog.text

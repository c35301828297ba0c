"""Lazy game loading: the table starts and shows its menu without importing any game; choosing one
imports that one only. The menu's names and player counts come from the registry's metadata."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import games.registry as registry
from firmware_host.apps.menu import MenuApp, Pick
from games.registry import game_ids, game_info, get_game

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys, tempfile
from pathlib import Path
from firmware_host.storage.config import load_config
from firmware_host.storage.journal import Journal
from drivers.buttons import ButtonEvent
from firmware_host.apps.menu import Pick
from firmware_host.storage.tags import TagRegistry
from firmware_host.loop.table import Table
from drivers.reader.virtual import wait_until

def games():
    return sorted({m.split(".")[1] for m in sys.modules if m.startswith("games.")} - {"core", "shown", "frozen", "registry", "playout", "howto", "texts", "ai"})

table = Table(load_config(None), TagRegistry(), simulated=True,
              journal=Journal(Path(tempfile.mkdtemp()) / "journal.sqlite"))
runtime = table.start()
out = {}
try:
    wait_until(lambda: table.link.state.value == "ready", 10)
    runtime.drain()
    runtime.refresh()
    out["started"] = games()
    for kind in ("press", "release"):  # seat 1 takes the menu: the game list is on its screen
        runtime.handle(ButtonEvent(1, "ok", kind, 0.0))
    out["menu"] = [t.en for t in runtime.shown[1].menu]
    out["listed"] = games()
    while runtime.app.entries()[runtime.app.cursor][1] != Pick(sys.argv[1]):
        runtime.handle(ButtonEvent(1, "right", "press", 0.0))
    for kind in ("press", "release"):
        runtime.handle(ButtonEvent(1, "ok", kind, 0.0))
    out["setup"] = runtime.shown[1].screen.title.en
    out["chosen"] = games()
finally:
    table.close()
print(json.dumps(out))
"""


@pytest.mark.parametrize("game", ["spywhere", "zop"])
def test_the_menu_imports_no_game_until_one_is_chosen(game, tmp_path):
    run = subprocess.run([sys.executable, "-c", SCRIPT, game], capture_output=True, text=True, cwd=ROOT,
                         timeout=120, env={**os.environ, "TMPDIR": str(tmp_path)})  # its journal: in the test's folder
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["started"] == [] and out["listed"] == []
    names = [game_info(g).name.en for g in game_ids()]
    assert out["menu"][:len(names)] == names and "Table test" in out["menu"][len(names):]
    assert out["setup"] == game_info(game).name.en
    assert out["chosen"] == [game.replace("-", "_")]


@pytest.mark.parametrize("gid", game_ids())
def test_registry_metadata_matches_the_game(gid):
    game = get_game(gid)
    assert registry.INFO[gid] == registry.GameInfo(game.id, game.name, game.min_players, game.max_players)
    assert set(registry.INFO) == set(registry.GAMES) and not registry.problems()
    assert registry.game_folder(gid).name == gid.replace("-", "_")


def test_a_game_that_fails_to_import_is_refused_in_the_menu(monkeypatch, tmp_path):
    (tmp_path / "broken_game.py").write_text("raise ImportError('a game still being written')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "GAMES", {**registry.GAMES, "broken": "broken_game:GAME"})
    monkeypatch.setattr(registry, "INFO", {**registry.INFO, "broken": registry.GameInfo(
        "broken", registry.Text("Cassé", "Broken"), 2, 4)})
    menu = MenuApp((1, 2))
    menu.on_button(1, "ok", "press")
    keys = [key for _, key in menu.entries()]
    assert Pick("broken") in keys  # listed without importing it
    menu.cursor = keys.index(Pick("broken"))
    menu.on_button(1, "ok", "press")
    assert menu.step == "home" and menu.game_id is None
    assert "a game still being written" in menu.frame(1).banner.en


def test_the_service_command_imports_no_other_command_nor_libcrypto():
    code = ("import sys\n"
            "from firmware_host.commands.main import build_parser\n"
            "build_parser('run').parse_args(['run'])\n"
            "import firmware_host.loop.table, firmware_host.storage.journal\n"
            "print(sorted(m for m in sys.modules if m.startswith('firmware_host.commands.') or m == 'hashlib'))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    loaded = set(eval(run.stdout.split("\n")[0]))
    assert "firmware_host.commands.run" in loaded and "hashlib" not in loaded
    assert not loaded & {f"firmware_host.commands.{c}" for c in ("sim", "script", "rules", "tags", "check", "games")}

"""The commands as a new user meets them: the simulator keeps a journal (or none when asked), the
language is chosen at the table and kept, `check` says when it checked the simulator, read-only
`games` commands create nothing and end quietly in a pipe, replays name the moves and the players
as the screens do, `rules` names a missing key and lists first moves, `config example` has every key."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.apps.menu import Do, MenuApp
from firmware_host.commands import check as cli_check
from firmware_host.commands import sim as cli_sim
from firmware_host.commands.main import main
from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.storage.config import ConfigError, parse_config
from firmware_host.storage.config_schema import KEYS, example_text, keys
from firmware_host.storage.journal import Journal
from firmware_host.storage.settings import settings_path
from games.core import GameConfig
from games.playout import random_playout
from games.registry import get_game


def sim_args(**kw) -> argparse.Namespace:
    return argparse.Namespace(**{"config": None, "seed": 1, "journal": None, "no_journal": False, **kw})


START = "1 ok\n1 ok\n2 ok\n1 ok\n"  # take the menu, choose the first game, seat 2 joins, start


def test_sim_keeps_a_journal_under_the_data_dir_and_offers_the_game_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    out = io.StringIO()
    assert cli_sim.run(sim_args(), io.StringIO(START + "quit\n"), out) == 0
    journal = tmp_path / "xdg" / "zebra-table" / "journal.sqlite"
    assert f"journal: {journal}" in out.getvalue()
    rec = Journal(journal).unfinished()
    assert rec is not None and rec.game == "droles-de-zebres"
    again = io.StringIO()
    assert cli_sim.run(sim_args(), io.StringIO("quit\n"), again) == 0
    assert "Partie interrompue" in again.getvalue()  # the killed game is offered again


def test_sim_no_journal_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    out = io.StringIO()
    assert cli_sim.run(sim_args(no_journal=True), io.StringIO(START + "quit\n"), out) == 0
    assert "journal:" not in out.getvalue() and not (tmp_path / "xdg").exists()


def test_the_language_is_chosen_in_the_menu_and_kept(tmp_path):
    clock = FakeClock()
    settings = settings_path(tmp_path)
    sim = SimTable(clock=clock, settings=settings)
    try:
        assert sim.wait_ready()
        sim.press(1, "ok")  # takes the menu
        menu = sim.runtime.app
        assert isinstance(menu, MenuApp)
        keys_ = [key for _, key in menu.entries()]
        menu.cursor = keys_.index(Do("language"))
        assert sim.frames()[1].menu[menu.cursor].fr.startswith("Langue : Français")
        sim.press(1, "ok")
        sim.settle()
        assert sim.runtime.language == "en" and sim.screens_text()["1"]["title"] == "Choose a game"
        assert sim.table.outputs.language == "en"  # the OLEDs are drawn in English too
        assert 'language = "en"' in settings.read_text()
    finally:
        sim.close()
    again = SimTable(clock=FakeClock(), settings=settings)
    try:
        assert again.runtime.language == "en"
    finally:
        again.close()


def test_check_on_the_simulator_presses_every_button_and_lays_every_tag_itself():
    """Nobody sits at the simulated table: the check drives its mock pins and virtual reader."""
    args = argparse.Namespace(config=None, no_buttons=False, antennas=True, timeout=5.0, hw_tests=False,
                              hardware=False)
    out = io.StringIO()
    code = cli_check.run(args, out)
    text = out.getvalue()
    assert code == 0, text
    rows = dict(re.findall(r"^(\S.*?)\s+(PASS|FAIL)\s", text, re.M))
    buttons = [r for r in rows if re.fullmatch(r"seat \d+ (left|right|ok)", r)]
    antennas = [r for r in rows if r.startswith("antenna ")]
    assert len(buttons) == 24 and len(antennas) > 30 and all(v == "PASS" for v in rows.values())
    assert "presses the buttons and lays the tags itself" in text


def test_check_on_the_simulator_says_so_on_every_line_and_hardware_mode_fails(capsys):
    args = argparse.Namespace(config=None, no_buttons=True, antennas=False, timeout=1.0, hw_tests=False,
                              hardware=False)
    out = io.StringIO()
    assert cli_check.run(args, out) == 0
    rows = out.getvalue().splitlines()
    assert any(re.search(r"\sPASS\s", r) for r in rows) and all("simulated" in r for r in rows)
    args.hardware = True
    assert cli_check.run(args, io.StringIO()) == 2
    assert "no real table to check" in capsys.readouterr().err


def test_read_only_games_commands_create_nothing_and_name_the_missing_path(tmp_path, capsys):
    typo = tmp_path / "typo" / "x.sqlite"
    assert main(["games", "--journal", str(typo), "list"]) == 1
    assert str(typo) in capsys.readouterr().err and not typo.parent.exists()
    empty = tmp_path / "j.sqlite"
    Journal(empty).close()
    assert main(["games", "--journal", str(empty), "list"]) == 0
    assert "no game" in capsys.readouterr().out


def journal_with_a_game(path: Path, game_id: str = "spywhere", players: int = 4) -> int:
    game = get_game(game_id)
    config = game.validate_config(GameConfig(players, {}, 3))
    played = random_playout(game, config, 3)
    j = Journal(path)
    gid = j.start_game(game_id, config, tuple(range(1, players + 1)))
    for i, (seat, act) in enumerate(played.moves):
        j.append(gid, i, seat, act)
    j.close()
    return gid


def test_replay_names_each_move_and_numbers_players_as_the_screens(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    gid = journal_with_a_game(path, "droles-de-zebres", 2)
    assert main(["games", "--journal", str(path), "replay", str(gid), "--all-seats"]) == 0
    out = capsys.readouterr().out
    steps = [line for line in out.splitlines() if line.startswith("--- step ") and not line.startswith("--- step 0/")]
    assert steps and all(re.match(r"--- step \d+/\d+: (J[12]|chance) \S", s) for s in steps)
    assert "  [J1] " in out and "  [J2] " in out and "  [0] " not in out
    with pytest.raises(SystemExit) as exited:  # J1 is --seat 1
        main(["games", "--journal", str(path), "replay", str(gid), "--seat", "0"])
    assert exited.value.code == 2
    assert "numbered from 1" in capsys.readouterr().err


def test_games_output_into_a_closed_pipe_ends_quietly(tmp_path):
    path = tmp_path / "j.sqlite"
    gid = journal_with_a_game(path)
    code = "import sys; from firmware_host.commands.main import main; sys.exit(main(sys.argv[1:]))"
    for command in (["replay", str(gid)], ["show", str(gid)]):
        proc = subprocess.Popen([sys.executable, "-c", code, "games", "--journal", str(path), *command],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()  # like `| head -1`
        err = proc.stderr.read().decode()
        assert proc.wait(60) == 0 and "Traceback" not in err and "BrokenPipe" not in err, err


def test_rules_names_the_missing_key_and_legal_alone_lists_the_first_moves(tmp_path, capsys):
    actions = tmp_path / "a.jsonl"
    actions.write_text('{"action": {"type": "x"}}\n')
    assert main(["rules", "zop", "--players", "2", "--actions", str(actions)]) == 2
    err = json.loads(capsys.readouterr().out)["error"]
    assert "line 1: missing key 'seat'" in err["message"]
    assert main(["rules", "droles-de-zebres", "--players", "2", "--legal"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["moves"] == 0 and doc["legal"] and all(doc["legal"].values())
    assert main(["rules", "zop", "--players", "2"]) == 2  # nothing to do: says what to give
    assert "--legal" in json.loads(capsys.readouterr().out)["error"]["message"]


def test_config_example_has_every_key_the_reader_knows(capsys):
    assert main(["config", "example"]) == 0
    text = capsys.readouterr().out
    assert text == example_text()
    config = parse_config(text, "example")
    assert config.buzzer_pin is not None and config.journal.endswith("journal.sqlite")
    for section in ("paths", "buzzer", "reader", "buttons", "antennas"):
        assert f"[{section}]" in text
    for key in KEYS:
        assert key.name in text, key

    def known(toml: str, bad_key: str) -> set[str]:
        """What the config reader says it knows when given an unknown key."""
        with pytest.raises(ConfigError) as info:
            parse_config(toml, "probe")
        issue = next(msg for key, msg in info.value.issues if key.endswith(bad_key))
        return set(re.search(r"known: ([^)]*)", issue).group(1).split(", "))

    sections = {"seats", "antennas", "reader", "buttons", "buzzer", "paths", "venue", "remote", "web", "computer"}
    assert known("zzz = 1\n" + text, "zzz") - sections == keys("")
    for section in ("reader", "buttons", "buzzer", "paths", "computer"):
        probe = text.replace(f"[{section}]\n", f"[{section}]\nzzz = 1\n")
        assert known(probe, f"{section}.zzz") == keys(section), section
    probe = text.replace("[[seats]]\nid = 1", "[[seats]]\nzzz = 1\nid = 1", 1)
    assert known(probe, "seats[0].zzz") == keys("seats[]")
    for sub in ("buttons", "screen"):
        probe = re.sub(rf"^{sub} = {{ ", f"{sub} = {{ zzz = 1, ", text, count=1, flags=re.M)
        assert known(probe, f"{sub}.zzz") == keys(f"seats[].{sub}"), sub
    probe = text.replace("encoder = { ", "encoder = { zzz = 1, ")
    assert known(probe, "encoder.zzz") == keys("seats[].encoder")


def test_sim_in_a_terminal_prints_the_computers_move_without_a_keystroke(tmp_path, monkeypatch):
    """At a terminal, what changes by itself (the computer's move) is printed while nobody types."""
    import os
    import pty
    import threading
    import time

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    master, slave = pty.openpty()
    inp = os.fdopen(slave, "r", encoding="utf-8")
    assert inp.isatty()

    class Out(io.StringIO):
        lock = threading.Lock()

        def write(self, s: str) -> int:
            with self.lock:
                return super().write(s)

    out = Out()
    result: list[int] = []
    runner = threading.Thread(target=lambda: result.append(cli_sim.run(sim_args(no_journal=True), inp, out)))
    runner.start()
    try:
        # Drôles de Zèbres, a strong computer added, seat 1 first (with "either", the computer may
        # take the guardian before seat 1's press arrives), start; seat 1 places it: the computer plays
        for cmd in ["1 ok", "1 ok", "1 >", "1 ok", "1 >", "1 >", "1 ok", "1 <", "1 <", "1 <", "1 ok", "1 ok"]:
            os.write(master, (cmd + "\n").encode())
            time.sleep(0.3)
        deadline = time.monotonic() + 30
        while "Posez" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "Posez" in out.getvalue(), out.getvalue()[-1500:]  # the table asks for the computer's piece
    finally:
        os.write(master, b"quit\n")
        runner.join(20)
        os.close(master)
        inp.close()
    assert result == [0]

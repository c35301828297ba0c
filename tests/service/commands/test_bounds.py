"""Absurd inputs given to the commands: one clear line naming the argument, file or key, never a
traceback, never a hang (a FIFO, /dev/zero), never accepted (a megabyte of text, a NUL)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.commands.main import main
from firmware_host.storage.config import sim_config_text
from firmware_host.storage.journal import Journal
from games.core import GameConfig

HUGE = "99999999999999999999999999"


def zebra(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The command in its own process: a hang is a timeout, not a stuck test run."""
    return subprocess.run([sys.executable, "-m", "firmware_host.commands.main", *args], capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    j.start_game("droles-de-zebres", GameConfig(2, {}, 1), (1, 2))
    j.close()
    return path


@pytest.mark.parametrize("words", [["show", HUGE], ["replay", HUGE], ["list", "--limit", str(10**30)],
                                   ["replay", "1", "--delay", "inf"], ["replay", "1", "--delay", "nan"]])
def test_games_numbers_out_of_range_are_one_line(journal, capsys, words):
    with pytest.raises(SystemExit) as exit_:
        main(["games", "--journal", str(journal), *words])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "expected" in err and "Traceback" not in err, err


@pytest.mark.parametrize("where", ["missing/out.jsonl", "script.jsonl/out.jsonl"])
def test_script_output_into_a_missing_or_unusable_folder_is_one_line(tmp_path, capsys, where):
    script = tmp_path / "script.jsonl"
    script.write_text('{"press": 1}\n')
    assert main(["script", str(script), "-o", str(tmp_path / where)]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / where) in err and len(err.strip().splitlines()) == 1, err


def test_venue_on_a_file_that_is_not_a_database_is_one_line(tmp_path, capsys):
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(bytes(range(256)) * 20)
    assert main(["venue", "--db", str(garbage), "--show"]) == 2
    err = capsys.readouterr().err
    assert "--db" in err and str(garbage) in err and len(err.strip().splitlines()) == 1, err
    assert garbage.read_bytes() == bytes(range(256)) * 20  # left as it was


def test_config_check_on_a_fifo_or_a_device_is_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        proc = zebra("config", "check", str(path), timeout=30)
        assert proc.returncode == 1 and "not a regular file" in proc.stderr and str(path) in proc.stderr, proc.stderr


def test_rules_and_script_on_an_endless_stream_stop_with_one_line():
    proc = zebra("rules", "droles-de-zebres", "--players", "2", "--actions", "/dev/zero", timeout=60)
    assert proc.returncode == 2 and "/dev/zero:1: no end of line" in proc.stdout and "Traceback" not in proc.stderr
    proc = zebra("script", "/dev/zero", timeout=60)
    assert proc.returncode == 1 and "/dev/zero:1: no end of line" in proc.stdout and "Traceback" not in proc.stderr
    assert len(proc.stdout.splitlines()) == 1


def config_with(tmp_path: Path, text: str) -> Path:
    cfg = tmp_path / "table.toml"
    cfg.write_text(text)
    return cfg


@pytest.mark.parametrize(("key", "edit"), [
    ("reader.port", lambda t: t.replace('port = "sim"', 'port = "' + "x" * 1_000_000 + '"')),
    ("web.token", lambda t: t.replace('token = ""', 'token = "' + "a" * 1_000_000 + '"')),
    ("paths.journal", lambda t: t + '\n[paths]\njournal = "/tmp/j\\u0000.sqlite"\n'),
    ("paths.data_dir", lambda t: t + '\n[paths]\ndata_dir = "/tmp/\\u0000"\n'),
])
def test_absurd_config_texts_are_refused_naming_the_key(tmp_path, capsys, key, edit):
    cfg = config_with(tmp_path, edit(sim_config_text()))
    assert main(["config", "check", str(cfg)]) == 1
    err = capsys.readouterr().err
    assert key in err and len(err) < 2000, err[:2000]


@pytest.mark.parametrize("version", ["true", "1.0", '"1"'])
def test_a_tag_registry_version_must_be_the_integer_1(tmp_path, capsys, version):
    tags = tmp_path / "tags.json"
    tags.write_text('{"version": %s, "tags": {}}' % version)
    # a real table's config: the simulated one lists its own generated tags, never the file
    text = sim_config_text().replace('port = "sim"', 'port = "/dev/ttyACM0"')
    cfg = config_with(tmp_path, text + f'\n[paths]\ntags_file = "{tags}"\n')
    assert main(["tags", "--config", str(cfg), "list"]) == 1
    err = capsys.readouterr().err
    assert "version" in err and str(tags) in err, err
    tags.write_text(json.dumps({"version": 1, "tags": {}}))
    assert main(["tags", "--config", str(cfg), "list"]) == 0


def test_a_web_port_out_of_range_is_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["sim", "--web-port", "99999999999"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "--web-port" in err and "65535" in err, err

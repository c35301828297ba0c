"""One table process per journal: a second `sim`, `run` or `script --journal` refuses naming the
first one's PID, `games` still reads meanwhile, a kill -9 leaves no lock behind; `sim` retries a
journal that another program keeps locked, as `run` does."""

from __future__ import annotations

import argparse
import io
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import firmware_host.storage.journal as journal_mod
import firmware_host.storage.journal_keeper as keeper_mod
from firmware_host.commands import sim as cli_sim
from firmware_host.commands.main import main
from firmware_host.storage.config import sim_config_text
from firmware_host.storage.journal import Journal
from firmware_host.storage.journal_lock import lock_path
from tests.service.storage.test_journal_faults import Lock

START = "1 ok\n1 ok\n2 ok\n1 ok\n"  # take the menu, choose the first game, seat 2 joins, start


def sim_args(journal: Path) -> argparse.Namespace:
    return argparse.Namespace(config=None, seed=1, journal=str(journal), no_journal=False, no_web=True)


def start_sim(config: Path) -> subprocess.Popen[str]:
    """A simulator in its own process, a game started in it, still running; its temporary files
    (the virtual reader's pty folder, left by a kill -9) in the `tmp` folder beside its config."""
    scratch = config.parent / "tmp"
    scratch.mkdir(exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host.commands.main", "sim", "--no-web", "--seed", "1",
                             "--config", str(config)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "TMPDIR": str(scratch)})
    assert proc.stdin is not None and proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        assert line, proc.stderr.read() if proc.stderr else ""
        if line.startswith("zebra-table simulator"):
            break
    proc.stdin.write(START)
    proc.stdin.flush()
    return proc


def table_config(tmp_path: Path) -> tuple[Path, Path]:
    cfg = tmp_path / "table.toml"
    cfg.write_text(sim_config_text() + f'\n[paths]\ndata_dir = "{tmp_path / "data"}"\n')
    return cfg, tmp_path / "data" / "journal.sqlite"


def wait_for_game(journal: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if journal.exists() and Journal(journal, read_only=True).unfinished() is not None:
            return
        time.sleep(0.1)
    raise AssertionError("the first simulator started no game")


def test_a_second_table_process_refuses_naming_the_first_and_a_kill_9_leaves_no_lock(tmp_path, capsys):
    cfg, journal = table_config(tmp_path)
    first = start_sim(cfg)
    try:
        wait_for_game(journal)
        # the first table may write its journal at any time (a WAL checkpoint in idle time): stopped,
        # it holds its lock and writes nothing, so any change of the bytes is the second process's
        first.send_signal(signal.SIGSTOP)
        before = journal.read_bytes()
        for command in (["sim", "--no-web", "--config", str(cfg)], ["sim", "--no-web", "--journal", str(journal)]):
            assert main(command) == 4, command
            err = capsys.readouterr().err
            assert f"PID {first.pid}" in err and str(journal) in err, err
        script = tmp_path / "script.jsonl"
        script.write_text('{"press": 1}\n')
        assert main(["script", str(script), "--journal", str(journal)]) == 2  # a script may not share it either
        assert f"PID {first.pid}" in capsys.readouterr().err
        service = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "run", "--config", str(cfg)],
                                 capture_output=True, text=True, timeout=60)
        assert service.returncode == 4 and f"PID {first.pid}" in service.stderr, service.stderr
        assert "Traceback" not in service.stderr
        assert journal.read_bytes() == before  # the second process never opened it for writing
        assert not list(journal.parent.glob("*.corrupt-*"))
        first.send_signal(signal.SIGCONT)
        # reading needs no lock: `games` works while the table runs
        assert main(["games", "--journal", str(journal), "list"]) == 0
        assert "playing" in capsys.readouterr().out
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        assert lock_path(journal).exists()  # left behind, yet no longer locked by anyone
        out = io.StringIO()
        assert cli_sim.run(sim_args(journal), io.StringIO("quit\n"), out) == 0
        assert "Partie interrompue" in out.getvalue()  # the killed game is offered to the next process
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(10)


def test_the_lock_file_holds_the_pid_and_is_free_again_after_a_clean_stop(tmp_path):
    journal = tmp_path / "j.sqlite"
    assert cli_sim.run(sim_args(journal), io.StringIO("quit\n"), io.StringIO()) == 0
    assert lock_path(journal).read_text().strip() == str(os.getpid())
    assert cli_sim.run(sim_args(journal), io.StringIO("quit\n"), io.StringIO()) == 0  # released


def test_sim_retries_a_journal_locked_by_another_program_and_then_offers_its_game(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_mod, "BUSY_MS", 200)
    monkeypatch.setattr(keeper_mod, "RETRY_SECONDS", 0.3)
    journal = tmp_path / "j.sqlite"
    j = Journal(journal)
    from games.core import GameConfig

    j.start_game("droles-de-zebres", GameConfig(2, {}, 1), (1, 2))
    j.close()
    lock = Lock(journal, whole=True)  # a backup tool holding the file
    read, write = os.pipe()
    inp, out = os.fdopen(read, "r"), io.StringIO()
    result: list[int] = []
    runner = threading.Thread(target=lambda: result.append(cli_sim.run(sim_args(journal), inp, out)))
    runner.start()
    try:
        deadline = time.monotonic() + 30
        while "nouvel essai" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "nouvel essai" in out.getvalue()
        lock.release()
        time.sleep(1.5)  # a few retries
        os.write(write, b"1 left\n2 left\nshow 1\n")
        deadline = time.monotonic() + 30
        while "Partie interrompue" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "Partie interrompue" in out.getvalue(), out.getvalue()[-2000:]
    finally:
        os.write(write, b"quit\n")
        os.close(write)
        runner.join(30)
    assert result == [0]


@pytest.fixture(autouse=True)
def _no_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_kill_or_a_closed_terminal_stops_the_simulator_cleanly(tmp_path, sig):
    """SIGTERM (`kill`) and SIGHUP (the terminal closed) stop `sim` as Ctrl-C does: status 0, the
    virtual reader's folder removed, the game in progress kept and offered again."""
    cfg, journal = table_config(tmp_path)
    proc = start_sim(cfg)
    scratch = tmp_path / "tmp"
    try:
        wait_for_game(journal)
        assert [p.name for p in scratch.iterdir()][0].startswith("zt-reader-")  # the reader's pty is there
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert list(scratch.iterdir()) == []
        assert Journal(journal, read_only=True).unfinished() is not None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)

"""`zebra-table run` as a real process: sd_notify READY/WATCHDOG/STATUS, clean stop on SIGTERM
(systemd's stop) and on SIGHUP (`run` started in a terminal that closes)."""

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from firmware_host.storage.config import sim_config_text


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_service_notifies_systemd_and_stops_cleanly_on_a_stop_signal(tmp_path, stop):
    cfg = tmp_path / "table.toml"
    cfg.write_text(sim_config_text() + f'\n[paths]\ndata_dir = "{tmp_path / "data"}"\n')
    sock_path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    sock.settimeout(20)
    env = {**os.environ, "NOTIFY_SOCKET": sock_path, "WATCHDOG_USEC": "400000"}
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host.commands.main", "run", "--config", str(cfg)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        seen = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not ("READY=1" in seen and seen.count("WATCHDOG=1") >= 3):
            seen.extend(sock.recv(4096).decode().split("\n"))
        assert "READY=1" in seen, seen
        assert any(m.startswith("STATUS=menu; reader ready") for m in seen), seen
        assert seen.count("WATCHDOG=1") >= 3
        proc.send_signal(stop)
        assert proc.wait(timeout=20) == 0, proc.stderr.read().decode()
        rest = []
        sock.settimeout(2)
        try:
            while True:
                rest.extend(sock.recv(4096).decode().split("\n"))
        except TimeoutError:
            pass
        assert "STOPPING=1" in rest
        assert (tmp_path / "data" / "journal.sqlite").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()


def test_bad_config_exits_2_naming_the_key(tmp_path):
    cfg = tmp_path / "table.toml"
    cfg.write_text(sim_config_text().replace("settle = 0.25", "settle = -1"))
    proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "run", "--config", str(cfg)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "reader.settle" in proc.stderr and str(cfg) in proc.stderr


def test_no_gpio_access_is_one_clear_message(tmp_path):
    cfg = tmp_path / "table.toml"
    cfg.write_text(sim_config_text().replace('port = "sim"', f'port = "{tmp_path}/ttyACM0"')
                   + f'\n[paths]\ndata_dir = "{tmp_path / "data"}"\n')
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "run", "--config", str(cfg)],
                          capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 5, proc.stderr  # no GPIO library: the unit's RestartPreventExitStatus=
    assert "cannot set up the table" in proc.stderr and "Traceback" not in proc.stderr

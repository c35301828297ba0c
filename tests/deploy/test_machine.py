"""The install tests' safety net (tests/kits/pi_machine.py): a stand-in refuses any target outside
the throwaway root, and works inside it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.kits.pi_machine import Machine


@pytest.mark.parametrize("argv", [
    ["mkdir", "-p", "/tmp/zebra-table-outside"],
    ["rm", "-rf", "/etc/zebra-table"],
    ["install", "-m", "0644", "/dev/null", "/etc/zebra-table/table.toml"],
    ["ln", "-sfn", "/opt/x", "/usr/local/bin/zebra-table"],
    ["sed", "-i", "s/a/b/", "/boot/firmware/cmdline.txt"],
    ["systemctl", "enable", "zebra-table.service"],
    ["useradd", "--system", "zebra-table"],
    ["udevadm", "control", "--reload-rules"],
    ["python3", "-m", "venv", "--system-site-packages", "/opt/zebra-table/venv"],
    ["chroot", "/", "systemctl", "daemon-reload"],
    ["groupdel", "gpio"],
])
def test_stand_ins_refuse_to_touch_the_host(tmp_path: Path, argv: list[str]) -> None:
    pi = Machine(tmp_path)
    proc = subprocess.run(argv, env=pi.env, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 99 and "stand-in" in proc.stderr
    assert not Path("/tmp/zebra-table-outside").exists()


def test_stand_ins_work_inside_the_root(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    target = pi.path("/etc/zebra-table")
    proc = subprocess.run(["mkdir", "-p", str(target)], env=pi.env, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0 and target.is_dir()
    assert pi.calls() == [["mkdir", "-p", str(target)]]

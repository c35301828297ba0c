"""deploy/install.sh remembers the table's options (--uart, --i2c-mux, --reader-serial): a rerun
and the package's upgrade (which runs it with no options) keep them, an option on the command line
wins, a bad record stops the run naming its line, --uninstall --purge removes it (tests/kits/pi_machine.py:
the stand-ins and the throwaway root)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kits.pi_machine import CMDLINE, Machine

pytestmark = pytest.mark.slow  # install.sh run many times: tens of seconds in all

RECORD = "/var/lib/zebra-table-install/options"
UART_DROPIN = "/etc/systemd/system/zebra-table.service.d/uart.conf"


def boot_block(pi: Machine) -> list[str]:
    """The installer's lines in config.txt, without the markers."""
    lines = pi.path("/boot/firmware/config.txt").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# >>> zebra-table"))
    return lines[start + 1:lines.index("# <<< zebra-table")]


def record(pi: Machine) -> list[str]:
    return [line for line in pi.path(RECORD).read_text().splitlines() if not line.startswith("#")]


def test_a_rerun_without_options_keeps_the_owners_options(tmp_path: Path) -> None:
    pi = Machine(tmp_path, model="Raspberry Pi 4 Model B Rev 1.5")
    pi.run("--uart", "--i2c-mux", "0x71", "--reader-serial", "E6614103E7")
    assert record(pi) == ["uart=yes", "i2c-mux=0x71", "reader-serial=E6614103E7"]
    before = pi.snapshot()
    again = pi.run()  # as the package's upgrade runs it: no options
    assert "--uart --i2c-mux 0x71 --reader-serial E6614103E7 (remembered from the last install)" in again.stdout
    assert again.stdout.strip().endswith("Nothing to change: zebra-table is installed as wanted.")
    assert pi.snapshot() == before and pi.changing_calls() == []
    assert "enable_uart=1" in boot_block(pi) and "dtoverlay=i2c-mux,pca9548,addr=0x71" in boot_block(pi)
    assert pi.path(UART_DROPIN).exists()
    assert 'ATTRS{serial}=="E6614103E7"' in pi.path("/etc/udev/rules.d/99-zebra-table-reader.rules").read_text()


def test_an_option_on_the_command_line_wins_and_is_remembered(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    pi.run("--uart", "--i2c-mux", "0x71")
    out = pi.run("--i2c-mux", "none").stdout
    assert "--uart (remembered from the last install)" in out  # only what the command line left out
    assert "enable_uart=1" in boot_block(pi) and not any("i2c-mux" in line for line in boot_block(pi))
    assert record(pi) == ["uart=yes", "i2c-mux=none", "reader-serial=*"]
    pi.run("--no-uart", "--reader-serial", "any")
    assert record(pi) == ["uart=no", "i2c-mux=none", "reader-serial=*"]
    assert not pi.path(UART_DROPIN).exists() and "enable_uart=1" not in boot_block(pi)
    assert pi.run().stdout.strip().endswith("Nothing to change: zebra-table is installed as wanted.")


def test_the_defaults_are_recorded_too_and_a_dry_run_records_nothing(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    out = pi.run("--dry-run", "--uart").stdout
    assert f"would    installer options {RECORD}" in out and not pi.path(RECORD).exists()
    pi.run()
    assert record(pi) == ["uart=no", "i2c-mux=0x70", "reader-serial=*"]
    assert "remembered" not in pi.run().stdout  # nothing but the defaults to remember


@pytest.mark.parametrize("text, line, message", [
    ("uart=maybe\n", 1, "uart: yes or no, not 'maybe'"),
    ("uart=1\n", 1, "uart: yes or no, not '1'"),
    ("uart=yes\r\n", 1, "uart: yes or no"),
    ("# mine\n\ni2c-mux=0x20\n", 3, "i2c-mux: a TCA9548A answers at 0x70 to 0x77 (or none), not '0x20'"),
    ("reader-serial=E66 14\n", 1, "reader-serial: 1 to 64 letters, digits"),
    ("reader-serial=" + "A" * 65 + "\n", 1, "reader-serial: 1 to 64"),
    ("reader-serial=\n", 1, "reader-serial: 1 to 64"),
    ("uart=no\nuart=yes\n", 2, "uart given twice"),
    ("force=yes\n", 1, "unknown option 'force' (uart, i2c-mux, reader-serial)"),
    ("uart yes\n", 1, "not KEY=VALUE: 'uart yes'"),
    ("=yes\n", 1, "not KEY=VALUE"),
    ("#" * 5000 + "\n", 1, "over 4096 bytes"),
])
def test_a_bad_record_stops_the_run_naming_its_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    pi = Machine(tmp_path)
    pi.path(RECORD).parent.mkdir(parents=True)
    pi.path(RECORD).write_text(text)
    before = pi.snapshot()
    proc = pi.run(ok=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert f"{pi.path(RECORD)}, line {line}: {message}" in proc.stderr, proc.stderr
    assert "correct it, or delete it and rerun with your options" in proc.stderr
    assert pi.snapshot() == before and pi.changing_calls() == []
    # an option on the command line does not hide a bad record; uninstalling does not need it
    assert pi.run("--uart", ok=False).returncode == 1
    assert pi.run("--uninstall").returncode == 0


def test_uninstall_keeps_the_record_and_purge_removes_it(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    pi.run("--uart")
    pi.run("--uninstall")
    assert pi.path("/boot/firmware/cmdline.txt").read_text() == CMDLINE  # the console put back
    assert record(pi)[0] == "uart=yes"
    out = pi.run().stdout  # installed again, as after `apt remove` then `apt install`
    assert "--uart (remembered from the last install)" in out and pi.path(UART_DROPIN).exists()
    pi.run("--uninstall", "--purge")
    assert not pi.path(RECORD).exists()
    pi.run()
    assert record(pi)[0] == "uart=no" and not pi.path(UART_DROPIN).exists()

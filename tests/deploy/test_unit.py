"""deploy/: the systemd unit, the udev rule and the example config, each checked against the
others and against the code that uses them (install.sh paths, config defaults, firmware)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.storage.config import ReaderConfig, load_config

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "firmware"))
import zt_board

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNIT = DEPLOY / "zebra-table.service"
RULE = DEPLOY / "99-zebra-table-reader.rules"
EXAMPLE = DEPLOY / "table.example.toml"


def unit_entries() -> dict[str, dict[str, list[str]]]:
    """Section -> key -> every value (systemd keys may repeat)."""
    out: dict[str, dict[str, list[str]]] = {}
    section = ""
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            out[section] = {}
            continue
        key, _, value = line.partition("=")
        out[section].setdefault(key, []).append(value)
    return out


def install_constant(name: str) -> str:
    match = re.search(rf"^readonly {name}=(\S+)$", (DEPLOY / "install.sh").read_text(), re.M)
    assert match, name
    value = match.group(1)
    return value.replace("$OPT", install_constant("OPT")) if "$OPT" in value else value


def test_unit_is_a_notify_service_with_a_watchdog_and_restarts():
    s = unit_entries()["Service"]
    assert s["Type"] == ["notify"] and s["NotifyAccess"] == ["main"]
    assert s["WatchdogSec"] == ["30s"] and s["Restart"] == ["on-failure"]
    assert s["RestartPreventExitStatus"] == ["2 5"]  # a bad config, no GPIO library: a restart cannot fix them
    assert unit_entries()["Install"]["WantedBy"] == ["multi-user.target"]
    assert unit_entries()["Unit"]["StartLimitIntervalSec"] == ["0"]  # a table never gives up


def test_unit_runs_what_install_sh_installs():
    s = unit_entries()["Service"]
    venv, etc, data = install_constant("VENV"), install_constant("ETC"), install_constant("DATA")
    assert s["ExecStart"] == [f"{venv}/bin/zebra-table run --config {etc}/table.toml"]
    assert s["ReadWritePaths"] == [data] and s["WorkingDirectory"] == [data]
    assert s["StateDirectory"] == [Path(data).name]
    assert s["EnvironmentFile"] == [f"-{install_constant('ENVFILE')}"]
    assert s["User"] == s["Group"] == ["zebra-table"]
    groups = re.search(r"^readonly GROUPS_NEEDED=\((.*)\)$", (DEPLOY / "install.sh").read_text(), re.M).group(1)
    assert s["SupplementaryGroups"] == [groups]
    assert load_config(EXAMPLE).data_dir == data  # the service may write only there


def test_unit_is_hardened_and_opens_only_its_devices():
    s = unit_entries()["Service"]
    assert s["MemoryDenyWriteExecute"] == ["yes"]
    assert s["PrivateUsers"] == ["no"]  # supplementary groups gpio/i2c/dialout must stay mapped
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
                       "PrivateTmp": "yes", "DevicePolicy": "closed", "PrivateNetwork": "yes",
                       "RestrictAddressFamilies": "AF_UNIX", "CapabilityBoundingSet": ""}.items():
        assert s[key] == [value], key
    assert sorted(s["DeviceAllow"]) == ["char-gpiochip rw", "char-i2c rw", "char-ttyACM rw", "char-ttyUSB rw"]


@pytest.fixture
def verifiable_unit(tmp_path: Path) -> Path:
    """The unit with ExecStart pointing at an executable that exists here (verify checks it)."""
    stub = tmp_path / "zebra-table"
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    text = UNIT.read_text()
    assert text.count("/opt/zebra-table/venv/bin/zebra-table") == 1
    unit = tmp_path / "zebra-table.service"
    unit.write_text(text.replace("/opt/zebra-table/venv/bin/zebra-table", str(stub)))
    return unit


def test_systemd_analyze_verify(verifiable_unit: Path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (CI's Debian image has systemd)")
    proc = subprocess.run(["systemd-analyze", "verify", str(verifiable_unit)], capture_output=True, text=True,
                          timeout=60)
    # verify exits 0 even for unknown keys: any word about the unit is a failure
    assert proc.returncode == 0 and "zebra-table" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_systemd_analyze_security_rates_it_safe(verifiable_unit: Path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (CI's Debian image has systemd)")
    proc = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--threshold=30",  # tenths
                           str(verifiable_unit)], capture_output=True, text=True, timeout=60)
    if "--offline" in proc.stderr and "unrecognized" in proc.stderr:
        pytest.skip("this systemd-analyze has no --offline (systemd < 250)")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    assert re.search(r"Overall exposure level for .*: [0-2]\.\d", proc.stdout)


def udev_rules(text: str) -> list[dict[str, str]]:
    rules = []
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            pairs = re.findall(r'([A-Z_]+(?:\{[^}]+\})?)\s*(==|\+=|=)\s*"([^"]*)"', line)
            assert ", ".join(f'{k}{op}"{v}"' for k, op, v in pairs) == line.strip(), line
            rules.append({f"{k}{op}": v for k, op, v in pairs})
    return rules


def test_udev_rule_names_the_pico_reader_as_the_config_expects():
    (rule,) = udev_rules(RULE.read_text())
    assert rule["SUBSYSTEM=="] == "tty"
    assert (rule["ATTRS{idVendor}=="], rule["ATTRS{idProduct}=="]) == ("2e8a", "0005")  # MicroPython on a Pico
    assert rule["ATTRS{serial}=="] == "@READER_SERIAL@"  # filled in by install.sh
    # not any Pico: the product string the reader's firmware announces
    assert rule["ATTRS{product}=="] == zt_board.USB_PRODUCT
    link = "/dev/" + rule["SYMLINK+="]
    assert link == ReaderConfig.port == load_config(EXAMPLE).reader.port
    assert rule["GROUP="] == "dialout" and rule["MODE="] == "0660"
    assert rule["ENV{ID_MM_DEVICE_IGNORE}="] == "1"


def test_example_config_passes_zebra_table_config_check():
    proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "config", "check", str(EXAMPLE)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{EXAMPLE}: OK")
    assert "6 seat" not in proc.stderr and proc.stdout.count("  seat ") == 6


def test_example_config_matches_the_reference_firmware():
    cfg = load_config(EXAMPLE)
    sys.path.insert(0, str(DEPLOY / "firmware"))
    try:
        import zt_config
    finally:
        sys.path.remove(str(DEPLOY / "firmware"))
    assert sorted(cfg.antennas) == list(range(zt_config.ANTENNAS))  # every reader mapped, none missing
    assert zt_config.LED_COUNT >= zt_config.ANTENNAS
    assert not cfg.simulated and cfg.uart  # a real table; GPIO14/15 left to the serial console
    pins = [p for s in cfg.seats for p in s.buttons.values()] + [cfg.buzzer_pin]
    assert len(pins) == len(set(pins)) and not set(pins) & {0, 1, 2, 3, 14, 15}
    assert all(s.screen is not None for s in cfg.seats)


def test_every_setting_of_the_example_is_explained():
    lines = EXAMPLE.read_text().splitlines()
    table = ""
    for i, line in enumerate(lines):
        if line.startswith("["):
            table = line
            if table != "[[seats]]" or "[[seats]]" not in lines[:i]:  # the first seat explains all
                assert any("#" in x for x in lines[max(0, i - 8):i + 4]), line
        elif "=" in line and not line.startswith("#") and table in ("", "[reader]", "[buttons]", "[buzzer]"):
            assert " # " in line or lines[i - 1].startswith("#"), f"no comment for {line!r}"
    assert {"[reader]", "[buttons]", "[buzzer]", "[paths]", "[[seats]]", "[antennas]"} <= set(lines)

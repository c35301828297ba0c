"""The service's network drop-in follows the config: no network unless [web] or [venue] is on,
then IPv4/IPv6 and, where every address is known, only those addresses; written by install.sh on
every run and accepted by systemd."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware_host.storage.config import parse_config
from firmware_host.storage.sandbox import dropin_text, main
from tests.kits.pi_machine import Machine

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "deploy" / "table.example.toml").read_text()
TOKEN = "k3y-0f-the-0wner-abcdefgh"
WEB_OFF = 'enabled = false          # true: the service serves the pages'
LOOPBACK = '\nhost = "127.0.0.1"       #'


def config_text(web: str | None = None, venue: str | None = None) -> str:
    """The example config with [web] on at `web` (an address) and a [venue] at `venue`."""
    text = EXAMPLE
    if web is not None:
        assert WEB_OFF in text and LOOPBACK in text
        text = text.replace(WEB_OFF, "enabled = true").replace(LOOPBACK, f'\nhost = "{web}" #')
        text = text.replace('token = ""', f'token = "{TOKEN}"')
    if venue is not None:
        text += f'\n[venue]\ntable = "t1"\n{venue}\n'
    return text


def settings(text: str) -> dict[str, list[str]]:
    """The drop-in's keys and their values, in order (comments left out)."""
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert lines[0] == "[Service]"
    out: dict[str, list[str]] = {}
    for line in lines[1:]:
        key, _, value = line.partition("=")
        out.setdefault(key, []).append(value)
    return out


NO_NETWORK = {"PrivateNetwork": ["yes"], "RestrictAddressFamilies": ["AF_UNIX"]}
OPEN = {"PrivateNetwork": ["no"], "RestrictAddressFamilies": ["", "AF_UNIX AF_INET AF_INET6"]}


@pytest.mark.parametrize("web, venue, want", [
    (None, None, NO_NETWORK),
    (None, 'host = "192.168.1.5"\nenabled = false', NO_NETWORK),  # a venue switched off
    ("127.0.0.1", None, {**OPEN, "IPAddressDeny": ["any"], "IPAddressAllow": ["localhost"]}),
    ("0.0.0.0", None, OPEN),  # phones on the network: any address
    (None, 'host = "192.168.1.5"', {**OPEN, "IPAddressDeny": ["any"], "IPAddressAllow": ["192.168.1.5"]}),
    (None, 'host = "fd00::5"', {**OPEN, "IPAddressDeny": ["any"], "IPAddressAllow": ["fd00::5"]}),
    (None, 'host = "localhost"', {**OPEN, "IPAddressDeny": ["any"], "IPAddressAllow": ["localhost"]}),
    (None, 'host = "broker.example.org"', OPEN),  # a name: looked up when the service runs
    ("::1", 'host = "10.1.2.3"', {**OPEN, "IPAddressDeny": ["any"], "IPAddressAllow": ["10.1.2.3 localhost"]}),
    ("0.0.0.0", 'host = "10.1.2.3"', OPEN),
])
def test_dropin_for_each_config(web: str | None, venue: str | None, want: dict[str, list[str]]) -> None:
    text = dropin_text(parse_config(config_text(web, venue)))
    assert settings(text) == want, text
    if "IPAddressDeny" not in want and want is OPEN:
        assert "# no IPAddressAllow=:" in text  # says why the addresses are not limited


def test_a_config_that_does_not_load_gets_no_network(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "table.toml"
    bad.write_text("[web]\nenabled = 1\n")
    assert main([str(bad)]) == 1
    assert "web.enabled" in capsys.readouterr().err
    assert main(["--none"]) == 0
    assert settings(capsys.readouterr().out) == NO_NETWORK


@pytest.mark.parametrize("web, venue", [(None, None), ("127.0.0.1", 'host = "10.1.2.3"'), ("0.0.0.0", None)])
def test_systemd_accepts_the_unit_with_its_dropin(tmp_path: Path, web: str | None, venue: str | None) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (CI's Debian image has systemd)")
    stub = tmp_path / "zebra-table"
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    unit = tmp_path / "zebra-table.service"
    unit.write_text((ROOT / "deploy/zebra-table.service").read_text()
                    .replace("/opt/zebra-table/venv/bin/zebra-table", str(stub)))
    (tmp_path / "zebra-table.service.d").mkdir()
    (tmp_path / "zebra-table.service.d/network.conf").write_text(
        dropin_text(parse_config(config_text(web, venue))) + "Bogus=1\n")  # proves the drop-in is read
    env = {**os.environ, "SYSTEMD_UNIT_PATH": f"{tmp_path}:"}
    proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60,
                          env=env)
    words = [line for line in (proc.stdout + proc.stderr).splitlines() if "zebra-table" in line]
    assert proc.returncode == 0 and len(words) >= 1 and all("'Bogus'" in w for w in words), words


def test_install_writes_the_dropin_from_the_config_on_every_run(tmp_path: Path) -> None:
    pi = Machine(tmp_path, booted=True)
    config = pi.path("/etc/zebra-table/table.toml")
    config.parent.mkdir(parents=True)
    config.write_text(config_text("0.0.0.0", 'host = "10.1.2.3"'))
    pi.run()
    dropin = pi.path("/etc/systemd/system/zebra-table.service.d/network.conf")
    assert settings(dropin.read_text()) == OPEN
    assert TOKEN not in dropin.read_text()
    config.write_text(config_text())  # the pages and the venue switched off
    out = pi.run().stdout
    assert "changed  unit drop-in /etc/systemd/system/zebra-table.service.d/network.conf" in out
    assert settings(dropin.read_text()) == NO_NETWORK
    inner = [c[2:] for c in pi.calls() if c[0] == "chroot"]
    assert inner == [["systemctl", "daemon-reload"], ["systemctl", "restart", "zebra-table.service"]]
    assert "Nothing to change" in pi.run().stdout

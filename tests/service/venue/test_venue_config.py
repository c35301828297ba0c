"""The [venue] config section: off when absent, strictly validated, and a home table (no [venue])
never imports paho nor opens a network connection."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.storage.config import ConfigError, parse_config, sim_config_text

ROOT = Path(__file__).resolve().parents[3]


def venue(body: str) -> str:
    return sim_config_text() + "\n[venue]\n" + body


def issues(text: str) -> dict[str, str]:
    with pytest.raises(ConfigError) as err:
        parse_config(text, "t.toml")
    return dict(err.value.issues)


def test_absent_section_means_off():
    assert parse_config(sim_config_text()).venue is None


def test_full_section(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("not checked here")
    cfg = parse_config(venue(f'table = "cafe-3"\nhost = "broker.lan"\nusername = "t3"\npassword = "s3cret"\n'
                             f'tls = true\nca_file = "{ca}"\nkeepalive = 20\nreconnect_max = 2.5\n')).venue
    assert cfg is not None and cfg.enabled
    assert (cfg.table, cfg.host, cfg.port, cfg.username, cfg.password) == ("cafe-3", "broker.lan", 8883, "t3", "s3cret")
    assert cfg.tls and cfg.ca_file == str(ca) and cfg.keepalive == 20 and cfg.reconnect_max == 2.5


def test_defaults_and_disabled():
    cfg = parse_config(venue('table = "t1"\nhost = "127.0.0.1"\n')).venue
    assert cfg is not None and cfg.port == 1883 and not cfg.tls and cfg.username is None
    off = parse_config(venue('enabled = false\ntable = "t1"\nhost = "127.0.0.1"\n')).venue
    assert off is not None and not off.enabled


@pytest.mark.parametrize("body, key, words", [
    ('host = "h"\n', "venue.table", "missing"),
    ('table = "t"\n', "venue.host", "missing"),
    ('table = "a/b"\nhost = "h"\n', "venue.table", "letters"),
    ('table = "t+"\nhost = "h"\n', "venue.table", "letters"),
    ('table = "' + "x" * 24 + '"\nhost = "h"\n', "venue.table", "23"),
    ('table = 3\nhost = "h"\n', "venue.table", "a string"),
    ('table = "t"\nhost = "my broker"\n', "venue.host", "host name"),
    ('table = "t"\nhost = "h"\nport = true\n', "venue.port", "an integer"),
    ('table = "t"\nhost = "h"\nport = 1883.0\n', "venue.port", "an integer"),
    ('table = "t"\nhost = "h"\nport = 0\n', "venue.port", "1 to 65535"),
    ('table = "t"\nhost = "h"\nport = 70000\n', "venue.port", "1 to 65535"),
    ('table = "t"\nhost = "h"\npassword = "p"\n', "venue.password", "username"),
    ('table = "t"\nhost = "h"\nusername = ""\n', "venue.username", "empty"),
    ('table = "t"\nhost = "h"\ntls = "yes"\n', "venue.tls", "true or false"),
    ('table = "t"\nhost = "h"\nca_file = "/etc/hostname"\n', "venue.ca_file", "tls = false"),
    ('table = "t"\nhost = "h"\ntls = true\nca_file = "/no/such/ca.pem"\n', "venue.ca_file", "no such"),
    ('table = "t"\nhost = "h"\nkeepalive = 1\n', "venue.keepalive", "5 to 3600"),
    ('table = "t"\nhost = "h"\nkeepalive = 30.5\n', "venue.keepalive", "an integer"),
    ('table = "t"\nhost = "h"\nreconnect_max = inf\n', "venue.reconnect_max", "0.5 to 600"),
    ('table = "t"\nhost = "h"\nreconnect_max = nan\n', "venue.reconnect_max", "0.5 to 600"),
    ('table = "t"\nhost = "h"\nreconnect_max = false\n', "venue.reconnect_max", "a number"),
    ('table = "t"\nhost = "h"\nenabled = 1\n', "venue.enabled", "true or false"),
    ('table = "t"\nhost = "h"\nbroker = "x"\n', "venue.broker", "unknown key"),
])
def test_each_fault_names_its_key(body, key, words):
    found = issues(venue(body))
    assert key in found, found
    assert words in found[key]


def test_every_fault_at_once_and_in_the_message():
    text = venue('table = "a b"\nhost = "h"\nport = -1\nkeepalive = 0\n')
    with pytest.raises(ConfigError) as err:
        parse_config(text, "cafe.toml")
    keys = {k for k, _ in err.value.issues}
    assert {"venue.table", "venue.port", "venue.keepalive"} <= keys
    assert "cafe.toml: venue.port" in str(err.value)


def test_section_must_be_a_table():
    assert "venue" in issues('venue = "127.0.0.1"\n' + sim_config_text())


PROBE = """
import json, sys
events = []
def hook(name, args):
    if name == "socket.connect":
        events.append(repr(args[1]))
sys.addaudithook(hook)
from firmware_host.commands.main import main
code = main(sys.argv[1:])
json.dump({"code": code, "connects": events,
           "paho": sorted(m for m in sys.modules if m.split(".")[0] == "paho")}, open(OUT, "w"))
"""


@pytest.mark.parametrize("section", ["", '\n[venue]\nenabled = false\ntable = "t1"\nhost = "127.0.0.1"\n'])
def test_home_table_never_imports_paho_nor_connects(tmp_path, section):
    config = tmp_path / "table.toml"
    config.write_text(sim_config_text() + section)
    script = tmp_path / "s.jsonl"
    script.write_text('{"start": {"game": "spywhere", "seats": [1, 2, 3]}}\n{"press": 1}\n')
    out = tmp_path / "probe.json"
    probe = PROBE.replace("OUT", repr(str(out)))
    subprocess.run([sys.executable, "-c", probe, "script", str(script), "--config", str(config),
                    "--journal", str(tmp_path / "j.sqlite"), "-o", str(tmp_path / "t.jsonl")],
                   cwd=ROOT, check=True, timeout=60, env={"PATH": "/usr/bin:/bin", "TMPDIR": str(tmp_path)})
    result = json.loads(out.read_text())
    assert result == {"code": 0, "connects": [], "paho": []}


def test_config_check_names_the_venue():
    from firmware_host.commands.config import summary

    cfg = parse_config(venue('table = "t1"\nhost = "127.0.0.1"\ntls = true\nport = 8884\n'))
    assert "  venue: publishes as t1 to 127.0.0.1:8884 (TLS)" in summary(cfg)
    assert not any("venue" in line for line in summary(parse_config(sim_config_text())))

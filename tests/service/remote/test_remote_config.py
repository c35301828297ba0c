"""The [remote] config section: off when absent, validated key by key with strict types and bounds
(the same broker rules as [venue]), in `config example`, and opening the service's network to its
broker only."""

from __future__ import annotations

import pytest

from firmware_host.storage.config import ConfigError, parse_config, sim_config_text
from firmware_host.storage.config_schema import example_text, keys
from firmware_host.storage.sandbox import dropin_text


def remote(body: str) -> str:
    return sim_config_text() + "\n[remote]\n" + body


def issues(text: str) -> dict[str, str]:
    with pytest.raises(ConfigError) as err:
        parse_config(text, "t.toml")
    return dict(err.value.issues)


def test_absent_means_off_and_a_full_section_is_read(tmp_path):
    assert parse_config(sim_config_text()).remote is None
    ca = tmp_path / "ca.pem"
    ca.write_text("a CA")
    cfg = parse_config(remote(f'host = "broker.example.org"\ntls = true\nca_file = "{ca}"\nusername = "t1"\n'
                              'password = "pw"\nkeepalive = 20\nreconnect_max = 3\n')).remote
    assert cfg is not None and cfg.enabled and cfg.tls and cfg.port == 8883 and cfg.ca_file == str(ca)
    assert (cfg.host, cfg.username, cfg.password, cfg.keepalive, cfg.reconnect_max) == \
        ("broker.example.org", "t1", "pw", 20, 3.0)
    plain = parse_config(remote('host = "127.0.0.1"\n')).remote
    assert plain is not None and plain.port == 1883 and not plain.tls


@pytest.mark.parametrize("body, key, words", [
    ("port = 1883\n", "remote.host", "missing"),
    ('host = "my broker"\n', "remote.host", "host name"),
    ('host = "h"\nport = true\n', "remote.port", "an integer"),
    ('host = "h"\nport = 1883.0\n', "remote.port", "an integer"),
    ('host = "h"\nport = 0\n', "remote.port", "1 to 65535"),
    ('host = "h"\ntls = 1\n', "remote.tls", "true or false"),
    ('host = "h"\nca_file = "/etc/hostname"\n', "remote.ca_file", "tls = false"),
    ('host = "h"\ntls = true\nca_file = "/no/such/ca.pem"\n', "remote.ca_file", "no such readable file"),
    ('host = "h"\npassword = "p"\n', "remote.password", "needs a username"),
    ('host = "h"\nusername = ""\n', "remote.username", "empty"),
    ('host = "h"\nkeepalive = 4\n', "remote.keepalive", "5 to 3600"),
    ('host = "h"\nreconnect_max = inf\n', "remote.reconnect_max", "0.5 to 600"),
    ('host = "h"\nreconnect_max = nan\n', "remote.reconnect_max", "0.5 to 600"),
    ('host = "h"\nreconnect_max = "1"\n', "remote.reconnect_max", "a number"),
    ('host = "h"\nenabled = "yes"\n', "remote.enabled", "true or false"),
    ('host = "h"\ntable = "t1"\n', "remote.table", "unknown key"),
])
def test_every_wrong_key_is_named(body, key, words):
    found = issues(remote(body))
    assert key in found and words in found[key], found


def test_a_section_that_is_not_a_table():
    assert "remote" in issues('remote = "broker"\n' + sim_config_text())


def test_config_example_shows_every_remote_key_and_it_is_valid():
    text = example_text()
    section = text[text.index("# [remote]"):]
    for name in keys("remote"):
        assert f"# {name} = " in section, name
    uncommented = "\n".join(line[2:] if line.startswith("# ") and "=" in line or line == "# [remote]" else line
                            for line in section.splitlines())
    cfg = parse_config(sim_config_text() + "\n" + uncommented.replace(
        'ca_file = "/etc/zebra-table/remote-ca.pem"', ""))
    assert cfg.remote is not None and cfg.remote.host == "broker.example.org"
    assert issues(remote('host = "h"\nzzz = 1\n'))["remote.zzz"].endswith(f"(known: {', '.join(sorted(keys('remote')))})")


def test_the_service_may_reach_the_remote_broker_only():
    on = parse_config(remote('host = "192.0.2.7"\nport = 8883\ntls = true\n'))
    text = dropin_text(on)
    assert "remote play broker 192.0.2.7:8883" in text and "IPAddressAllow=192.0.2.7" in text
    off = parse_config(remote('host = "192.0.2.7"\nenabled = false\n'))
    assert "PrivateNetwork=yes" in dropin_text(off)

"""TLS between the tables, the venue and a real mosquitto whose certificate a venue CA signed.

The broker listens with TLS only on a loopback port, with a certificate made by `openssl` as an
owner would make one (tests/kits/venuekit.make_certificates). A table given the CA in
[venue] ca_file plays and every event reaches the venue, which connects with --tls --ca-file; a
table given another CA (or none, trusting only the system's CAs) says once, on its admin log,
that the broker's certificate is not trusted and which key to check, and plays on: its games
wait in the journal and go as soon as the right CA is configured.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kits.venuekit import (
    Broker,
    TableProcess,
    VenueProcess,
    journal_games,
    make_certificates,
    recorded_games,
    sim_config,
    tear_down,
    wait_for,
)
from tests.service.venue.test_venue_faults import arrivals, complete

pytestmark = pytest.mark.slow  # TLS certificates made with openssl, brokers started: tens of seconds

GAME = [("zop", [1, 2])]
SEED = 41


def test_a_table_and_the_venue_over_tls(tmp_path: Path) -> None:
    ca, cert, key = make_certificates(tmp_path / "certs")
    broker = Broker(tmp_path / "broker", tls=(ca, cert, key)).start()
    venue = VenueProcess(broker.port, tmp_path / "venue.sqlite", tmp_path / "venue.log", "--tls", "--ca-file", str(ca))
    table = None
    try:
        config = sim_config(tmp_path / "t1.toml", broker.venue_toml("t1", tls=True, ca_file=str(ca)))
        table = TableProcess(config, tmp_path / "t1.sqlite", SEED, tmp_path / "t1.log", tmp_path / "tmp")
        table.play(recorded_games(GAME, seed=SEED))
        expected = journal_games(tmp_path / "t1.sqlite")
        assert len(expected) == 1 and all(g["status"] == "finished" for g in expected.values())
        assert wait_for(lambda: complete(tmp_path / "venue.sqlite", "t1", expected), 20.0), \
            (table.log.read_text()[-2000:], venue.log.read_text()[-2000:])
        assert table.close() == 0
        assert "venue:" not in table.log.read_text()  # no problem said: warnings and errors only reach the log
        venue.stop()
    finally:
        tear_down([table] if table is not None else [], venue, broker)


def test_an_untrusted_certificate_is_said_once_and_the_table_plays_on(tmp_path: Path) -> None:
    ca, cert, key = make_certificates(tmp_path / "certs")
    other_ca, _, _ = make_certificates(tmp_path / "other", name="other")
    broker = Broker(tmp_path / "broker", tls=(ca, cert, key)).start()
    venue = VenueProcess(broker.port, tmp_path / "venue.sqlite", tmp_path / "venue.log", "--tls", "--ca-file", str(ca))
    procs: list[TableProcess] = []
    try:
        journal = tmp_path / "t1.sqlite"
        wrong = sim_config(tmp_path / "wrong.toml", broker.venue_toml("t1", tls=True, ca_file=str(other_ca)))
        table = TableProcess(wrong, journal, SEED, tmp_path / "t1.log", tmp_path / "tmp")
        procs.append(table)
        events = recorded_games(GAME, seed=SEED)
        table.play(events[:-1])
        assert table.send(events[-1])["outcome"] is not None  # the whole game was played and kept
        assert wait_for(lambda: "not trusted" in table.log.read_text(), 10.0), table.log.read_text()[-2000:]
        assert table.close() == 0
        log = table.log.read_text()
        line = next(ln for ln in log.splitlines() if "not trusted" in ln)
        assert f"127.0.0.1:{broker.port}" in line and "check ca_file in [venue]" in line
        assert "certificate verify failed" in line or "self-signed" in line or "unable to get" in line, line
        assert log.count("not trusted") == 1  # once, not at every retry
        assert "Traceback" not in log
        assert arrivals(tmp_path / "venue.sqlite", "t1") == {}
        # the owner gives the venue's CA: the game waiting in the journal goes, over TLS
        right = sim_config(tmp_path / "right.toml", broker.venue_toml("t1", tls=True, ca_file=str(ca)))
        fixed = TableProcess(right, journal, SEED, tmp_path / "t1-fixed.log", tmp_path / "tmp2")
        procs.append(fixed)
        expected = journal_games(journal)
        assert wait_for(lambda: complete(tmp_path / "venue.sqlite", "t1", expected), 20.0)
        assert fixed.close() == 0
        venue.stop()
    finally:
        tear_down(procs, venue, broker)


def test_the_venue_says_why_it_cannot_connect_with_tls(tmp_path: Path) -> None:
    ca, cert, key = make_certificates(tmp_path / "certs")
    other_ca, _, _ = make_certificates(tmp_path / "other", name="other")
    broker = Broker(tmp_path / "broker", tls=(ca, cert, key)).start()
    plain = Broker(tmp_path / "plain").start()  # a listener without TLS
    try:
        from firmware_host.venue.mqtt import tls_problem, unreachable
        from firmware_host.venue.settings import VenueConfig

        good = VenueConfig(table="v", host="127.0.0.1", port=broker.port, tls=True, ca_file=str(ca))
        assert tls_problem(good) is None
        untrusted = VenueConfig(table="v", host="127.0.0.1", port=broker.port, tls=True, ca_file=str(other_ca))
        assert "not trusted" in unreachable(untrusted, "--ca-file") and "check --ca-file" in unreachable(
            untrusted, "--ca-file")
        no_tls = VenueConfig(table="v", host="127.0.0.1", port=plain.port, tls=True, ca_file=str(ca))
        why = unreachable(no_tls)
        assert f"port {plain.port}" in why and "TLS" in why, why
        closed = VenueConfig(table="v", host="127.0.0.1", port=broker.port, tls=False)
        assert unreachable(closed) == f"cannot reach the broker 127.0.0.1:{broker.port}"
    finally:
        plain.stop()
        broker.stop()

"""Helpers of the venue tests: a real mosquitto on a free loopback port, an MQTT collector,
simulated tables as `zebra-table script` processes publishing to it.

mosquitto is Debian's package (installed by .ci/run and deploy/install.sh when missing); the tests
that need it skip, saying so, only where it is not installed. The broker is started from a
generated config that listens on 127.0.0.1 only; no system service is involved.
"""

from __future__ import annotations

import functools
import json
import os
import pwd
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_host.storage.journal import Journal
from games.core import GameConfig
from games.playout import random_playout
from games.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
SEARCH = ("/usr/sbin", "/usr/local/sbin", "/usr/bin")


def mosquitto_bin(name: str = "mosquitto") -> str | None:
    """The path of a mosquitto program, or None."""
    return shutil.which(name) or shutil.which(name, path=os.pathsep.join(SEARCH))


def need_mosquitto() -> str:
    """The broker's path; skips the test, naming the package, if it is not installed."""
    path = mosquitto_bin()
    if path is None:
        pytest.skip("mosquitto is not installed (Debian package `mosquitto`: .ci/run installs it as root)")
    return path


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(cond: Callable[[], Any], timeout: float = 10.0, step: float = 0.02) -> Any:
    """Poll `cond` until it returns something true; that value, or None after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)


def make_certificates(root: Path, name: str = "venue") -> tuple[Path, Path, Path]:
    """A self-signed CA and a broker certificate it signed for 127.0.0.1/localhost: (ca, cert, key).

    Made with the `openssl` program (Debian's package, installed by .ci/run when missing), as an
    owner would make them for a venue's broker."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed (Debian package `openssl`: .ci/run installs it as root)")
    root.mkdir(parents=True, exist_ok=True)
    ca_key, ca, key, csr, cert = (root / f"{name}-{n}" for n in ("ca.key", "ca.pem", "broker.key", "broker.csr",
                                                                   "broker.pem"))
    ext = root / f"{name}-san.cnf"
    ext.write_text("subjectAltName = IP:127.0.0.1, DNS:localhost\n")

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name} test CA",
        "-keyout", str(ca_key), "-out", str(ca))
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(csr))
    run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial", "-days", "2",
        "-extfile", str(ext), "-out", str(cert))
    return ca, cert, key


class Broker:
    """A mosquitto process on 127.0.0.1:<free port>, with persistence so a restart keeps sessions.

    With `tls` = (ca, cert, key) the listener speaks TLS only (as a venue's broker on 8883 would)."""

    def __init__(self, root: Path, users: dict[str, str] | None = None,
                 tls: tuple[Path, Path, Path] | None = None):
        self.bin = need_mosquitto()
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        (root / "data").mkdir(exist_ok=True)
        self.port = free_port()
        lines = [f"listener {self.port} 127.0.0.1", f"user {pwd.getpwuid(os.getuid()).pw_name}",
                 "persistence true", f"persistence_location {root / 'data'}/", "autosave_interval 60",
                 "max_inflight_messages 100", "max_queued_messages 100000", "set_tcp_nodelay true",
                 f"log_dest file {root / 'mosquitto.log'}", "log_type error", "log_type warning",
                 "log_type notice"]
        if tls is not None:
            ca, cert, key = tls
            lines += [f"cafile {ca}", f"certfile {cert}", f"keyfile {key}"]
        if users:
            passwd = mosquitto_bin("mosquitto_passwd")
            if passwd is None:
                pytest.skip("mosquitto_passwd is not installed (Debian package `mosquitto`)")
            pwfile = root / "passwd"
            for i, (user, password) in enumerate(users.items()):
                flags = ["-c"] if i == 0 else []
                subprocess.run([passwd, "-b", *flags, str(pwfile), user, password], check=True,
                               capture_output=True)
            lines += ["allow_anonymous false", f"password_file {pwfile}"]
        else:
            lines.append("allow_anonymous true")
        self.conf = root / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Broker:
        """Start it and wait until it accepts connections."""
        self.proc = subprocess.Popen([self.bin, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=open(self.root / "stderr.log", "ab"))  # noqa: SIM115 - the process owns the file
        if not wait_for(self._listening, 10.0):
            self.stop()
            raise AssertionError(f"mosquitto did not listen on port {self.port}: "
                                 f"{(self.root / 'stderr.log').read_text()[-500:]}")
        return self

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        """SIGTERM (mosquitto saves its sessions) and wait."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def kill(self) -> None:
        """SIGKILL (works on a paused broker too): its connections drop, nothing is saved."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def pause(self) -> None:
        """SIGSTOP: the broker holds every connection open and answers nothing."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def venue_toml(self, table: str, **extra: Any) -> str:
        """A [venue] section pointing at this broker."""
        fields = {"table": table, "host": "127.0.0.1", "port": self.port, "reconnect_max": 1.0, **extra}
        body = "".join(f"{k} = {json.dumps(v) if not isinstance(v, bool) else str(v).lower()}\n"
                       for k, v in fields.items())
        return "\n[venue]\n" + body


@pytest.fixture
def broker(tmp_path: Path) -> Any:
    """A fresh broker for one test."""
    b = Broker(tmp_path / "broker").start()
    yield b
    b.stop()


class Collector:
    """A plain MQTT subscriber recording every message on zebra-table/# (as a consumer would)."""

    def __init__(self, port: int, client_id: str = "collector", clean_session: bool = True):
        """clean_session False: the broker keeps what arrives while the collector is away."""
        import paho.mqtt.client as mqtt

        self.messages: list[tuple[str, dict[str, Any], bool]] = []
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                                  clean_session=clean_session, protocol=mqtt.MQTTv311)
        self.subscribed = threading.Event()
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe("zebra-table/#", qos=1)
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.subscribed.wait(5), "collector could not subscribe"

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self.lock:
            self.messages.append((msg.topic, json.loads(msg.payload), bool(msg.retain)))

    def game_events(self) -> list[dict[str, Any]]:
        """Every game message's payload, in arrival order."""
        with self.lock:
            return [p for t, p, _ in self.messages if "/game/" in t]

    def statuses(self, table: str) -> list[dict[str, Any]]:
        """Every status message of a table, in arrival order."""
        with self.lock:
            return [p for t, p, _ in self.messages if t == f"zebra-table/{table}/status"]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def sim_config(path: Path, venue_section: str) -> Path:
    """The simulated 8-seat table's config with a [venue] section, written to `path`."""
    from firmware_host.storage.config import sim_config_text

    path.write_text(sim_config_text() + venue_section)
    return path


class TableProcess:
    """`zebra-table script -` in a fresh interpreter: a simulated table fed JSON events on a pipe."""

    def __init__(self, config: Path, journal: Path, seed: int, log: Path, tmp: Path):
        tmp.mkdir(parents=True, exist_ok=True)
        self.log = log
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.commands.main", "script", "-", "--config", str(config),
             "--journal", str(journal), "--seed", str(seed), "--acks"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(log, "ab"), cwd=ROOT,  # noqa: SIM115 - the process owns the file
            env={**os.environ, "TMPDIR": str(tmp), "PYTHONUNBUFFERED": "1"})
        self.acked: list[list[Any]] = []

    def send(self, event: dict[str, Any]) -> dict[str, Any]:
        """One event; returns its transcript line (the table has handled it)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((json.dumps(event) + "\n").encode())
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, f"table process ended: {self.log.read_text()[-2000:]}"
        entry = json.loads(line)
        assert "error" not in entry, entry
        self.acked.extend(entry.get("acked", []))
        return entry

    def play(self, events: list[dict[str, Any]]) -> None:
        """Send every event."""
        for ev in events:
            self.send(ev)

    def close(self, timeout: float = 20.0) -> int:
        """End of input: the table stops cleanly (its publisher drains); the exit code."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        return code

    def kill(self) -> None:
        """SIGKILL: no clean stop, no offline status but the broker's last will."""
        self.proc.kill()
        self.proc.wait(10)
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None:
                f.close()


GameSpec = tuple[str, list[int]]  # game id, table seats


@functools.cache
def _recorded(games: tuple[tuple[str, tuple[int, ...]], ...], seed: int) -> tuple[str, ...]:
    from tests.kits.tabledriver import Driver

    d = Driver(seed=seed)
    try:
        for game, seats in games:
            d.start(game, list(seats))
            d.play()
            for zone, uids in sorted(d.sim.runtime.raw.items()):  # clear the table for the next one
                for uid in sorted(uids):
                    d.send({"remove": zone, "tag": uid})
        return tuple(json.dumps(e) for e in d.events)
    finally:
        d.close()


def recorded_games(games: list[GameSpec], seed: int) -> list[dict[str, Any]]:
    """The events of whole games played one after the other on an in-process simulated table
    (tests/tabledriver.py), to replay on a table process started with the same seed."""
    return [json.loads(e) for e in _recorded(tuple((g, tuple(s)) for g, s in games), seed)]


class VenueProcess:
    """`zebra-table venue` in a fresh interpreter, listening to a broker until stopped."""

    def __init__(self, port: int, db: Path, log: Path, *extra: str):
        self.log = log
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.commands.main", "venue", "--port", str(port), "--db", str(db),
             "--lang", "en", "--reconnect-max", "1", *extra], stdout=subprocess.PIPE, stderr=open(log, "ab"), cwd=ROOT,  # noqa: SIM115 - the process owns the file
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        if not wait_for(lambda: "venue: listening" in log.read_text(), 20.0):
            self.proc.kill()
            raise AssertionError(f"the venue did not subscribe: {log.read_text()[-2000:]}")

    def stop(self) -> str:
        """SIGTERM: it stores and acknowledges what arrived, prints its view; returns stdout."""
        self.proc.terminate()
        out, _ = self.proc.communicate(timeout=30)
        assert self.proc.returncode == 0, self.log.read_text()[-2000:]
        return out.decode()


def tear_down(tables: list[TableProcess], venue: VenueProcess | None, *brokers: Broker) -> None:
    """After a test, pass or fail: kill what still runs, stop the brokers."""
    for t in tables:
        if t.proc.poll() is None:
            t.kill()
    if venue is not None and venue.proc.poll() is None:
        venue.proc.kill()
    for b in brokers:
        b.stop()


def journal_game(j: Journal, game: str, players: int, seed: int, finish: bool = True) -> tuple[int, object]:
    g = get_game(game)
    p = random_playout(g, GameConfig(players, {}, seed), seed)
    gid = j.start_game(game, p.config, tuple(range(1, players + 1)))
    for i, (seat, act) in enumerate(p.moves):
        j.append(gid, i, seat, act)
    if finish:
        j.finish(gid, p.outcome.to_json())
    return gid, p


def journal_games(journal: Path) -> dict[str, dict[str, Any]]:
    """game_id -> moves, status, outcome, as the table journaled them (what the venue must get)."""
    db = sqlite3.connect(journal)
    tag = db.execute("SELECT value FROM meta WHERE key='venue.journal'").fetchone()[0]
    out = {}
    for gid, status, outcome, seats in db.execute("SELECT id, status, outcome, seats FROM games ORDER BY id"):
        moves = db.execute("SELECT COUNT(*) FROM moves WHERE game_id=?", (gid,)).fetchone()[0]
        out[f"{tag}-{gid}"] = {"moves": moves, "status": status, "outcome": outcome, "seats": seats}
    db.close()
    return out

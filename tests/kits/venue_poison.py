"""Poison messages for the venue (each one stopped the venue's writer once), a plain MQTT sender,
and a run that publishes them with seeded random variants of real messages and counts what the
venue did: set aside, stored, the writer still storing afterwards, a traceback in its log."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections import Counter
from pathlib import Path
from typing import Any

from firmware_host.venue import messages
from tests.kits.fuzzlines import mutate
from tests.kits.venuekit import Broker, VenueProcess, mosquitto_bin, wait_for

GAME = "zebra-table/t1/game/ab12cd34-1/"


def finished(**changes: Any) -> dict[str, Any]:
    payload = messages.finished("t1", "ab12cd34-1", "zop", 2, [1, 2], "finished", 0, 1000.0, 1060.0,
                                {"view": {}, "screen": None, "outcome": {"scores": [3, 1], "winners": [0]}})
    payload.update(changes)
    return payload


def raw(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload).encode()


POISONS: list[tuple[str, bytes, str]] = [  # topic, payload, words of the reason
    (GAME + "finished", raw(finished(public={"outcome": "I won"})), "outcome 'I won' is not an object"),
    (GAME + "finished", raw(finished(public={"outcome": [0, 1]})), "outcome [0, 1] is not an object"),
    (GAME + "finished", b"[" * 200_000 + b"]" * 200_000, "400000 bytes"),
    (GAME + "finished", b"[" * 30_000 + b"]" * 30_000, "nested more than 32 deep"),
    (GAME + "finished", raw(finished(seq=2**70)), "seq = 1180591620717411303424"),
    (GAME + "finished", raw(finished(t=10**30)), "t = 1000000000000000000000000000000"),
    ("zebra-table/t1/status", raw(messages.status("t1", "online", 1e308)), "t = 1e+308"),
    (GAME + "move", raw({"v": 1, "kind": "move", "table": "t1", "game_id": "ab12cd34-1", "seq": 1, "move": 1,
                         "seat": 0, "t": 1.0, "public": {"screen": {"title": {"fr": "x" * 1_000_000}}}}),
     "at most 65536 accepted"),
    ("zebra-table/" + "T" * 60_000 + "/status", raw(messages.status("T" * 60_000, "online", 1.0)),
     "a table name is 1 to 23"),
]


class Sender:
    """A plain MQTT client publishing QoS 1 on the broker (anyone on an anonymous broker)."""

    def __init__(self, port: int):
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"sender-{time.time_ns()}",
                                  protocol=mqtt.MQTTv311)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def send(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def query(db_path: Path, sql: str) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(db_path)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def online(db_path: Path, table: str) -> bool:
    return bool(query(db_path, f"SELECT 1 FROM tables WHERE name='{table}' AND state='online'"))


def poison_run(work: Path, randoms: int, seed: int) -> tuple[Counter[str], list[str]]:
    """Publish every known poison and `randoms` random variants of real messages on a broker with
    a venue listening, then a status of a table "alive": (figures, problems)."""
    figures: Counter[str] = Counter()
    if mosquitto_bin() is None:
        return figures, ["venue poison: mosquitto is not installed (Debian package `mosquitto`)"]
    problems: list[str] = []
    rng = random.Random(seed)
    broker = Broker(work / "broker").start()
    db_path = work / "venue.sqlite"
    venue = VenueProcess(broker.port, db_path, work / "venue.log")
    sender = Sender(broker.port)
    try:
        for topic, payload, _ in POISONS:
            sender.send(topic, payload)
            figures["known_poisons"] += 1
        for i in range(randoms):
            gid = f"ab12cd34-{i + 2}"
            kind = rng.choice(["finished", "move", "status"])
            if kind == "status":
                topic, good = "zebra-table/t1/status", messages.status("t1", "online", 1000.0 + i)
            elif kind == "move":
                topic, good = f"zebra-table/t1/game/{gid}/move", {
                    "v": 1, "kind": "move", "table": "t1", "game_id": gid, "seq": 1, "move": 0, "seat": 0,
                    "t": 1000.0, "public": {"screen": None}}
            else:
                topic, good = f"zebra-table/t1/game/{gid}/finished", finished(game_id=gid)
            sender.send(topic, json.dumps(mutate(good, rng)).encode())
            figures["random_messages"] += 1
        sender.send("zebra-table/alive/status", messages.encode(messages.status("alive", "online",
                                                                                 time.time())))
        figures["writer_alive"] = int(bool(wait_for(lambda: online(db_path, "alive"), 30.0)))
        if not figures["writer_alive"]:
            problems.append("venue: the writer stored nothing after the poisons")
        reasons = [r for (r,) in query(db_path, "SELECT reason FROM quarantine ORDER BY id")]
        figures["quarantined"] = len(reasons)
        missed = [words for (_, _, words) in POISONS if not any(words in r for r in reasons[:len(POISONS)])]
        figures["known_poisons_quarantined"] = len(POISONS) - len(missed)
        problems += [f"venue: a known poison was not set aside ({words})" for words in missed]
        figures["games_stored"] = query(db_path, "SELECT COUNT(*) FROM games")[0][0]
        try:
            venue.stop()  # SIGTERM: stores what arrived, exit 0 (else AssertionError)
            figures["exit_0"] = 1
        except AssertionError as exc:
            problems.append(f"venue: did not stop with exit 0: {str(exc)[-300:]}")
        log = (work / "venue.log").read_text(errors="replace")
        figures["tracebacks"] = log.count("Traceback")
        if figures["tracebacks"]:
            problems.append(f"venue: {figures['tracebacks']} traceback(s) in {work / 'venue.log'}")
    finally:
        sender.close()
        if venue.proc.poll() is None:
            venue.proc.kill()
            venue.proc.wait(10)
        broker.stop()
    return figures, problems

"""Every message the venue reads is checked with bounds before any use: numbers, sizes, nesting,
types and, for a table with a key, its signature. Each refusal names the topic and the field."""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.venue import inbound, messages, signing
from firmware_host.venue.results import VenueDB
from firmware_host.venue.view import render

TOPIC = "zebra-table/t1/game/ab12cd34-1/finished"
KEY = b"k" * 40


def finished(**changes: Any) -> dict[str, Any]:
    """A well-formed `finished` of a 2-player game of 3 moves, with `changes` applied."""
    payload = messages.finished("t1", "ab12cd34-1", "zop", 2, [1, 2], "finished", 3, 1000.0, 1060.0,
                                {"view": {}, "screen": {"title": {"fr": "ZOP", "en": "ZOP"}, "lines": []},
                                 "outcome": {"scores": [3, 1], "winners": [0]}})
    payload.update(changes)
    return payload


def status(**changes: Any) -> dict[str, Any]:
    payload = messages.status("t1", "online", time.time())
    payload.update(changes)
    return payload


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload).encode()


def test_a_well_formed_message_is_read():
    ev = inbound.parse(TOPIC, messages.encode(finished()))
    assert (ev.kind, ev.table, ev.game_id, ev.seq) == ("finished", "t1", "ab12cd34-1", 4)


@pytest.mark.parametrize("topic, payload, words", [
    # numbers: finite, within sane ranges
    (TOPIC, encode(finished(seq=2**70)), "seq = 1180591620717411303424, expected 0 to 100000"),
    (TOPIC, encode(finished(t=10**30)), "t = 1000000000000000000000000000000, expected a number"),
    (TOPIC, encode(finished()).replace(b'"t": 1060.0', b'"t": 1e400'), "t = inf, expected a number"),
    ("zebra-table/t1/status", encode(status(t=1e308)), "t = 1e+308, expected a number from 0"),
    ("zebra-table/t1/status", encode(status(t=-5)), "t = -5"),
    (TOPIC, encode(finished(duration=1e308)), "duration"),
    (TOPIC, encode(finished(players=10**6, seats=[])), "players"),
    (TOPIC, encode(finished(seats=[1, 99])), "table seats 1 to 8"),
    (TOPIC, encode(finished(public={"outcome": {"scores": [float("inf"), 1], "winners": [0]}})), "not JSON"),
    (TOPIC, encode(finished(public={"outcome": {"scores": [10**12, 1], "winners": [0]}})), "outcome scores"),
    # types: a bool is not an int, an outcome is an object
    (TOPIC, encode(finished(public={"outcome": "I won"})), "outcome 'I won' is not an object"),
    (TOPIC, encode(finished(public={"outcome": [1, 2]})), "outcome [1, 2] is not an object"),
    (TOPIC, encode(finished(public={"outcome": {"scores": [True, 1], "winners": [0]}})), "outcome scores"),
    (TOPIC, encode(finished(public={"outcome": {"scores": [1, 1], "winners": [False]}})), "outcome winners"),
    (TOPIC, encode(finished(players=True)), "players = True"),
    (TOPIC, encode(finished(seq=True)), "seq = True"),
    (TOPIC, encode(finished(status=["finished"])), "status = ['finished']"),
    (TOPIC, encode(finished(game="zop" * 40)), "game: 120 characters, at most 64"),
    # sizes
    (TOPIC, encode(finished(public={"screen": {"title": {"fr": "x" * 1_000_000}}})), "at most 65536 accepted"),
    (TOPIC, encode(finished(public={"screen": {"title": {"fr": "x" * 500, "en": ""}}})), "at most 200 characters"),
    (TOPIC, encode(finished(public={"screen": {"lines": [{"fr": "a"}] * 50}})), "at most 16"),
    (TOPIC, encode(finished(public={"screen": "big"})), "public screen 'big' is not an object"),
    ("zebra-table/" + "T" * 60_000 + "/status", encode(status(table="T" * 60_000)), "a table name is 1 to 23"),
    ("zebra-table/t1/game/" + "g" * 65 + "/move", b"{}", "a game id is 1 to 64"),
    # nesting, bounded from the bytes before json.loads
    (TOPIC, b"[" * 200_000 + b"]" * 200_000, "400000 bytes, at most 65536"),
    (TOPIC, b"[" * 30_000 + b"]" * 30_000, "nested more than 32 deep"),
    (TOPIC, b'{"a": ' * 40 + b"1" + b"}" * 40, "nested more than 32 deep"),
])
def test_each_bad_message_is_refused_with_its_reason(topic, payload, words):
    with pytest.raises(inbound.BadMessage) as err:
        inbound.parse(topic, payload)
    assert words in str(err.value)
    assert len(str(err.value)) < 400  # a reason, not the payload


def test_brackets_inside_strings_do_not_count_as_nesting():
    deep_text = "[" * 1000 + "{" * 1000
    ev = inbound.parse(TOPIC, messages.encode(finished(options={"note": deep_text})))
    assert ev.data["options"]["note"] == deep_text


def test_a_signed_message_is_read_and_a_forged_one_refused():
    body = messages.encode(finished())
    signed = signing.sign(KEY, TOPIC, body)
    assert json.loads(signed)["sig"]  # a plain consumer still reads a JSON object
    keys = {"t1": KEY}.get
    ev = inbound.parse(TOPIC, signed, keys)
    assert ev.seq == 4 and "sig" not in ev.data
    with pytest.raises(inbound.BadMessage, match="unsigned, and table t1 signs"):
        inbound.parse(TOPIC, body, keys)
    with pytest.raises(inbound.BadMessage, match="wrong signature"):
        inbound.parse(TOPIC, signing.sign(b"x" * 40, TOPIC, body), keys)
    tampered = signed.replace(b'"scores":[3,1]', b'"scores":[1,3]')
    with pytest.raises(inbound.BadMessage, match="wrong signature"):
        inbound.parse(TOPIC, tampered, keys)
    elsewhere = TOPIC.replace("ab12cd34-1", "ab12cd34-2")  # a signed message replayed on another game
    with pytest.raises(inbound.BadMessage, match="wrong signature"):
        inbound.parse(elsewhere, signed.replace(b"ab12cd34-1", b"ab12cd34-2"), keys)


def test_without_a_key_a_table_is_taken_unsigned_unless_signed_only():
    body = messages.encode(finished())
    assert inbound.parse(TOPIC, body, {"t9": KEY}.get).seq == 4
    with pytest.raises(inbound.BadMessage, match="no key at this venue"):
        inbound.parse(TOPIC, body, {"t9": KEY}.get, signed_only=True)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
FIELDS = ["seq", "t", "players", "seats", "status", "moves", "duration", "started", "game", "public", "move",
          "seat", "state", "reason", "options"]


def base_messages() -> list[tuple[str, dict[str, Any]]]:
    public = {"view": {}, "screen": {"title": {"fr": "T", "en": "T"}, "lines": [{"fr": "a", "en": "a"}]},
              "outcome": None}
    return [
        ("zebra-table/t1/status", messages.status("t1", "offline", 5.0, "stopped")),
        ("zebra-table/t1/game/ab-1/started", messages.started("t1", "ab-1", "zop", 2, [1, None], {}, 5.0, public)),
        ("zebra-table/t1/game/ab-1/move", messages.move("t1", "ab-1", 1, 0, 6.0, public)),
        (TOPIC, finished()),
    ]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, 3), changes=st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=3),
       outcome=st.none() | JSON_VALUES)
def test_whatever_passes_the_checks_is_stored_and_shown(tmp_path, which, changes, outcome):
    topic, payload = base_messages()[which]
    payload = {**payload, **changes}
    if outcome is not None and isinstance(payload.get("public"), dict):
        payload["public"] = {**payload["public"], "outcome": outcome}
    try:
        body = json.dumps(payload).encode()
    except ValueError:
        return
    try:
        ev = inbound.parse(topic, body)
    except inbound.BadMessage:
        return
    db = VenueDB(tmp_path / f"v{time.monotonic_ns()}.sqlite")
    try:
        db.begin()
        db.store(ev)  # no exception: what the checks let through, the database takes
        db.commit()
        render(db, "en")
        db.export_games(io.StringIO())
    finally:
        db.close()

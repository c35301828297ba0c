"""The remote game's messages: signed with the key of the game code, every field checked with
bounds before use; a message from anyone without the key, or malformed in any way, is refused with
one line naming the topic and the field, never an exception of another kind."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.remote import code as codes
from firmware_host.remote import wire
from firmware_host.venue import signing
from firmware_host.venue.inbound import BadMessage

KEY = codes.derive("ABCDEFGH")
TOPIC = wire.topic(KEY.room, "join")


def signed(fields: dict, key: bytes = KEY.key, topic: str = TOPIC) -> bytes:
    return wire.encode(key, topic, fields)


MOVE = {"kind": "move", "seq": 3, "ack": 2, "run": 7, "seen": 5, "base": 2, "n": 4, "seat": 1,
        "action": {"type": "place", "piece": "droles-de-zebres/green/lion/1", "square": "C3"}}
GAME = {"kind": "game", "seq": 1, "ack": 0, "run": 7, "seen": 0, "base": 0, "game": "droles-de-zebres", "players": 2, "options": {"board": "A"},
        "seed": 12, "remote": [1], "moves": [[-1, {"type": "first_player", "seat": 0}]], "views": {"1": "ab" * 32}}


def test_codes_are_typed_loosely_and_open_one_room_and_key():
    code = codes.new_code()
    assert len(code) == 8 and set(code) <= set(codes.ALPHABET)
    assert codes.normalise(codes.shown(code).lower()) == code
    assert codes.normalise(" abcd efgh ") == "ABCDEFGH"
    for bad in ("ABCDEFG", "ABCDEFGHJ", "ABCDEFG0", "ABCDEFGI", "", "A" * 1000, 12345678, None):
        assert codes.normalise(bad) is None, bad  # type: ignore[arg-type]
    again = codes.derive("ABCDEFGH")
    assert again == KEY and again.key == KEY.key
    other = codes.derive("ABCDEFGJ")
    assert other.room != KEY.room and other.key != KEY.key
    assert "ABCDEFGH" not in KEY.room and KEY.key.hex()[:20] != KEY.room


def test_a_signed_message_reads_back():
    m = wire.parse(TOPIC, signed(MOVE), KEY.key)
    assert (m.kind, m.seq, m.ack, m.data["n"], m.data["action"]["square"]) == ("move", 3, 2, 4, "C3")
    g = wire.parse(TOPIC, signed(GAME), KEY.key)
    assert g.data["remote"] == [1] and g.data["moves"][0][0] == -1
    status = wire.status(KEY.key, KEY.room, "host", "online")
    assert wire.parse_status(wire.status_topic(KEY.room, "host"), status, KEY.key) == "online"


def test_without_the_key_nothing_is_taken():
    wrong = codes.derive("ABCDEFGJ").key
    with pytest.raises(BadMessage, match="wrong signature"):
        wire.parse(TOPIC, signed(MOVE, key=wrong), KEY.key)
    body = json.dumps({"v": wire.VERSION, **MOVE}).encode()
    with pytest.raises(BadMessage, match="unsigned"):
        wire.parse(TOPIC, body, KEY.key)
    # the host's message replayed as the joining table's: the topic is signed too
    host_topic = wire.topic(KEY.room, "host")
    with pytest.raises(BadMessage, match="wrong signature"):
        wire.parse(TOPIC, signed(MOVE, topic=host_topic), KEY.key)
    # one character of the sealed message changed, its signature kept
    sent = signed(MOVE)
    at = sent.index(b'"box":"') + 30
    forged = sent[:at] + (b"A" if sent[at:at + 1] != b"A" else b"B") + sent[at + 1:]
    with pytest.raises(BadMessage, match="wrong signature"):
        wire.parse(TOPIC, forged, KEY.key)
    with pytest.raises(BadMessage, match="presence"):
        wire.parse_status(TOPIC, signed({"kind": "status", "state": "maybe"}), KEY.key)


def test_a_third_party_on_the_broker_reads_nothing_of_a_message():
    sent = signed(MOVE)
    # (as JSON strings: a bare "C3" turns up by chance in about one sealed message in twenty)
    assert b'"C3"' not in sent and b'"place"' not in sent and b"droles-de-zebres" not in sent
    assert signed(MOVE) != sent  # a fresh nonce: the same move twice looks different
    # signed with the key but not sealed (an older table, a bug): refused
    clear = signing.sign(KEY.key, TOPIC, json.dumps({"v": wire.VERSION, **MOVE}).encode())
    with pytest.raises(BadMessage, match="not a sealed message"):
        wire.parse(TOPIC, clear, KEY.key)
    for box in ("", "!!!", "QUJD", 7):
        with pytest.raises(BadMessage, match="not a sealed message"):
            wire.parse(TOPIC, signing.sign(KEY.key, TOPIC, json.dumps({"v": wire.VERSION, "box": box}).encode()), KEY.key)
    # sealed under another game's key, signed with this one's: what comes out is no message
    other = codes.derive("ABCDEFGJ").key
    from firmware_host.remote import seal
    wrong = signing.sign(KEY.key, TOPIC, json.dumps({"v": wire.VERSION, "box": seal.seal(other, b'{"v":1}')}).encode())
    with pytest.raises(BadMessage):
        wire.parse(TOPIC, wrong, KEY.key)


@pytest.mark.parametrize("change, words", [
    ({"v": 1}, "version"),
    ({"kind": "teleport"}, "kind"),
    ({"seq": True}, "seq"),
    ({"seq": 1.0}, "seq"),
    ({"seq": -1}, "seq"),
    ({"seq": 10**30}, "seq"),
    ({"seq": 0}, "a move has seq 0"),
    ({"ack": "3"}, "ack"),
    ({"run": 0}, "run"),
    ({"run": 2**53 + 1}, "run"),
    ({"run": True}, "run"),
    ({"seen": -1}, "seen"),
    ({"seen": 1.5}, "seen"),
    ({"base": 3}, "not past its base"),
    ({"base": -1}, "base"),
    ({"n": -1}, "n ="),
    ({"seat": 32}, "seat"),
    ({"seat": -2}, "seat"),
    ({"seat": False}, "seat"),
    ({"action": ["place"]}, "action"),
    ({"action": {"square": "C3"}}, "action"),
    ({"views": {"one": {}}}, "views"),
    ({"views": {"1": 3}}, "views"),
    ({"views": {"1": {"board": "A"}}}, "views"),  # a view itself: only its digest crosses
    ({"views": {"1": "AB" * 32}}, "views"),
    ({"views": {"1": "ab" * 33}}, "views"),
])
def test_every_wrong_field_of_a_move_is_named(change, words):
    with pytest.raises(BadMessage, match=words):
        wire.parse(TOPIC, signed({**MOVE, **change}), KEY.key)


@pytest.mark.parametrize("change, words", [
    ({"players": 0}, "players"),
    ({"players": 33}, "players"),
    ({"game": ""}, "game"),
    ({"game": 7}, "game"),
    ({"seed": -1}, "seed"),
    ({"seed": 2**64}, "seed"),
    ({"options": {"board": {"deep": 1}}}, "options"),
    ({"options": [1]}, "options"),
    ({"remote": []}, "remote seats"),
    ({"remote": [2]}, "remote seats"),
    ({"remote": [1, 1]}, "remote seats"),
    ({"remote": [True]}, "remote seats"),
    ({"moves": [[5, {"type": "x"}]]}, "moves"),
    ({"moves": [[0]]}, "moves"),
    ({"moves": {"0": 1}}, "moves"),
    ({"views": None}, "views"),
])
def test_every_wrong_field_of_a_game_is_named(change, words):
    with pytest.raises(BadMessage, match=words):
        wire.parse(TOPIC, signed({**GAME, **change}), KEY.key)


REWRITE = {"kind": "rewrite", "seq": 4, "ack": 2, "run": 7, "seen": 5, "base": 3, "from": 2,
           "moves": [[0, {"type": "commit", "card": "zop/light/attack/1"}]], "views": {"1": "ab" * 32}}


def test_a_rewrite_and_a_stand_in_read_back():
    m = wire.parse(TOPIC, signed(REWRITE), KEY.key)
    assert (m.kind, m.data["from"], m.data["moves"][0][0]) == ("rewrite", 2, 0)
    assert wire.parse(TOPIC, signed({**REWRITE, "fresh": 3}), KEY.key).data["fresh"] == 3
    assert wire.parse(TOPIC, signed({**MOVE, "hidden": True}), KEY.key).data["hidden"] is True


@pytest.mark.parametrize("change, words", [
    ({"from": -1}, "from"),
    ({"from": True}, "from"),
    ({"from": 2.0}, "from"),
    ({"moves": [[32, {"type": "commit"}]]}, "moves"),
    ({"moves": [[0, {"card": "x"}]]}, "moves"),
    ({"moves": "all"}, "moves"),
    ({"views": []}, "views"),
    ({"fresh": -1}, "fresh"),
    ({"fresh": False}, "fresh"),
    ({"fresh": "3"}, "fresh"),
    ({"fresh": 10**6}, "fresh"),
])
def test_every_wrong_field_of_a_rewrite_is_named(change, words):
    with pytest.raises(BadMessage, match=words):
        wire.parse(TOPIC, signed({**REWRITE, **change}), KEY.key)


@pytest.mark.parametrize("fields, words", [
    ({"kind": "leave", "by": 32}, "by"),
    ({"kind": "leave", "by": True}, "by"),
    ({"kind": "leave"}, "by"),
    ({"kind": "stay", "by": 1}, "seat"),
    ({"kind": "stay", "by": 1, "seat": -1}, "seat"),
])
def test_every_wrong_field_of_a_request_to_quit_is_named(fields, words):
    with pytest.raises(BadMessage, match=words):
        wire.parse(TOPIC, signed({"seq": 2, "ack": 0, "run": 1, "seen": 0, "base": 1, **fields}), KEY.key)
    ok = {"kind": "stay", "by": 1, "seat": 0} if fields["kind"] == "stay" else {"kind": "leave", "by": 1}
    assert wire.parse(TOPIC, signed({"seq": 2, "ack": 0, "run": 1, "seen": 0, "base": 1, **ok}), KEY.key).kind


def test_a_stand_in_flag_is_true_or_false():
    with pytest.raises(BadMessage, match="hidden"):
        wire.parse(TOPIC, signed({**MOVE, "hidden": 1}), KEY.key)


@pytest.mark.parametrize("seen", [True, -1, "2", 2.0, 100_001])
def test_the_refusals_a_joining_move_counts_are_a_bounded_integer(seen):
    with pytest.raises(BadMessage, match="r = "):
        wire.parse(TOPIC, signed({**MOVE, "r": seen}), KEY.key)
    assert wire.parse(TOPIC, signed({**MOVE, "r": 3}), KEY.key).data["r"] == 3


@pytest.mark.parametrize("run", [True, -1, "2", 2.0, wire.MAX_RUN + 1])
def test_the_host_run_a_joining_moves_count_starts_at_is_a_bounded_integer(run):
    with pytest.raises(BadMessage, match="g = "):
        wire.parse(TOPIC, signed({**MOVE, "r": 0, "g": run}), KEY.key)
    assert wire.parse(TOPIC, signed({**MOVE, "r": 0, "g": wire.MAX_RUN}), KEY.key).data["g"] == wire.MAX_RUN


def test_a_ping_has_seq_0_and_oversized_or_deep_messages_are_refused_before_json():
    with pytest.raises(BadMessage, match="a ping has seq 1"):
        wire.parse(TOPIC, signed({"kind": "ping", "seq": 1, "ack": 0, "run": 1, "seen": 0, "base": 0}), KEY.key)
    huge = signed({**MOVE, "action": {"type": "place", "pad": "x" * 70_000}})
    with pytest.raises(BadMessage, match="bytes"):
        wire.parse(TOPIC, huge, KEY.key)
    nested = b'{"v":1,"kind":"move","x":' + b"[" * 5000 + b"]" * 5000 + b"}"
    deep = signing.sign(KEY.key, TOPIC, nested)
    with pytest.raises(BadMessage, match="nested"):
        wire.parse(TOPIC, deep, KEY.key)
    from firmware_host.remote import seal
    sealed = signing.sign(KEY.key, TOPIC, json.dumps({"v": wire.VERSION, "box": seal.seal(KEY.key, nested)}).encode())
    with pytest.raises(BadMessage, match="nested"):  # inside the box too, before its JSON is read
        wire.parse(TOPIC, sealed, KEY.key)


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                    max_leaves=20),
       st.sampled_from(["game", "move", "rewrite", "refused", "leave", "stay", "left", "ping", "x"]))
def test_any_signed_json_is_taken_or_refused_with_a_reason(value, kind):
    fields = {"kind": kind, "seq": 1, "ack": 0, "run": 1, "seen": 0, "base": 0}
    if isinstance(value, dict):
        fields.update(value)
    else:
        fields["action"] = value
    try:
        payload = signed(fields)
    except ValueError:  # NaN or infinity: not JSON, never sent
        return
    try:
        wire.parse(TOPIC, payload, KEY.key)
    except BadMessage as exc:
        assert TOPIC in str(exc)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_refused_with_a_reason(data):
    with pytest.raises(BadMessage):
        wire.parse(TOPIC, signing.sign(KEY.key, TOPIC, data + b"}") if data.startswith(b"{") else data, KEY.key)

"""Reader protocol codec against the shared test vectors and the examples in docs/protocol.md."""

import binascii
import json
import pathlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.reader import protocol as proto

ROOT = pathlib.Path(__file__).resolve().parents[3]
VECTORS = json.loads((ROOT / "tests" / "data" / "protocol_vectors.json").read_text())


def raw(text: str) -> bytes:
    """Vector strings hold bytes as latin-1 code points."""
    return text.encode("latin-1")


def test_vectors_speak_this_version():
    assert VECTORS["protocol"] == proto.PROTOCOL_VERSION
    assert VECTORS["max_frame"] == proto.MAX_FRAME


@pytest.mark.parametrize("check", VECTORS["crc"]["checks"], ids=lambda c: repr(c["data"]))
def test_crc_check_values(check):
    data = raw(check["data"])
    want = int(check["crc"], 16)
    assert proto.crc16(data) == want
    assert proto.crc16_py(data) == want
    assert binascii.crc_hqx(data, 0xFFFF) == want  # independent reference implementation


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=120))
def test_plain_python_crc_matches_reference(data):
    assert proto.crc16_py(data) == binascii.crc_hqx(data, 0xFFFF)


@pytest.mark.parametrize("vec", VECTORS["valid"], ids=lambda v: v["frame"].strip())
def test_valid_vector_encodes_and_decodes(vec):
    frame = raw(vec["frame"])
    assert proto.encode(vec["message"]) == frame
    assert proto.decode_line(frame[:-1]) == vec["message"]
    direction = proto.HOST_MESSAGES if vec["direction"] == "host" else proto.DEVICE_MESSAGES
    assert vec["message"]["type"] in direction
    body = frame[1:frame.index(b"*")]
    assert frame[-5:-1] == b"%04X" % binascii.crc_hqx(body, 0xFFFF)


@pytest.mark.parametrize("vec", VECTORS["decode_only"], ids=lambda v: v["line"].strip())
def test_decode_only_vectors(vec):
    assert proto.decode_line(raw(vec["line"])) == vec["message"]


@pytest.mark.parametrize("vec", VECTORS["invalid"], ids=lambda v: v["line"][:40])
def test_invalid_vector_rejected_with_reason(vec):
    with pytest.raises(proto.FrameError) as info:
        proto.decode_line(raw(vec["line"]))
    assert info.value.reason == vec["reason"]
    assert isinstance(info.value, ValueError)
    parser = proto.FrameParser()
    assert parser.feed(raw(vec["line"]) + b"\n") == []
    assert parser.rejected == {vec["reason"]: 1}


def test_stream_vector():
    vec = VECTORS["stream"]
    parser = proto.FrameParser()
    assert parser.feed(raw(vec["bytes"])) == vec["messages"]
    assert parser.rejected == vec["rejected"]
    assert parser.accepted == len(vec["messages"])


def test_every_message_type_has_a_vector():
    kinds = {v["message"]["type"] for v in VECTORS["valid"]}
    assert kinds == set(proto.MESSAGES)
    assert {v["reason"] for v in VECTORS["invalid"]} == set(proto.REASONS)


def test_doc_examples_are_valid_frames():
    doc = (ROOT / "docs" / "protocol.md").read_text()
    frames = re.findall(r"^[<>] (\$[^\n]*)$", doc, flags=re.MULTILINE)
    assert len(frames) >= 15
    for text in frames:
        msg = proto.decode_line(text.encode("ascii"))
        assert proto.encode(msg) == text.encode("ascii") + b"\n"


@pytest.mark.parametrize("msg, reason", [
    ({"type": "ADD", "seq": 1, "ant": 3, "uid": "04a1b2c3"}, "field"),  # lowercase UID
    ({"type": "ADD", "seq": 1, "ant": 3}, "field"),
    ({"type": "ADD", "seq": -1, "ant": 3, "uid": "04A1B2C3"}, "field"),
    ({"type": "ADD", "seq": 70000, "ant": 3, "uid": "04A1B2C3"}, "field"),
    ({"type": "ADD", "seq": "1", "ant": 3, "uid": "04A1B2C3"}, "field"),
    ({"type": "ADD", "seq": True, "ant": 3, "uid": "04A1B2C3"}, "field"),
    ({"type": "LED", "id": 1, "ant": 3, "rgb": "FF 000"}, "field"),
    ({"type": "ERR", "code": "X", "detail": "has a * star"}, "char"),
    ({"type": "ERR", "code": "X", "detail": "é"}, "char"),
    ({"type": "ERR", "code": "X", "detail": "x" * 100}, "oversize"),
    ({"type": "BOGUS"}, "type"),
    ({}, "type"),
])
def test_encode_refuses_bad_messages(msg, reason):
    with pytest.raises(proto.FrameError) as info:
        proto.encode(msg)
    assert info.value.reason == reason


def test_seq_after_wraps():
    assert proto.seq_after(65535, 0) == 1
    assert proto.seq_after(7, 7) == 0
    assert proto.seq_after(7, 9) == 2
    assert proto.seq_after(7, 6) > 32767


def test_parser_resyncs_after_oversize_without_newline():
    parser = proto.FrameParser()
    good = proto.encode({"type": "HB", "seq": 3})
    assert parser.feed(b"Z" * 500) == []
    assert parser.buffered == 0
    assert parser.feed(b"Z" * 500 + b"tail\n" + good) == [{"type": "HB", "seq": 3}]
    assert parser.rejected == {"oversize": 1}


def test_parser_accepts_crlf_and_blank_lines():
    parser = proto.FrameParser()
    good = proto.encode({"type": "HB", "seq": 3})
    assert parser.feed(b"\r\n\n" + good[:-1] + b"\r\n") == [{"type": "HB", "seq": 3}]
    assert parser.rejected == {}


def test_parser_can_report_rejections_in_stream_order():
    parser = proto.FrameParser()
    hb = proto.encode({"type": "HB", "seq": 1})
    items = parser.feed(b"junk\n" + hb + b"$HB 1*0000\n" + b"Q" * 200, errors=True)
    assert [i.reason if isinstance(i, proto.FrameError) else i for i in items] == [
        "start", {"type": "HB", "seq": 1}, "checksum", "oversize"]

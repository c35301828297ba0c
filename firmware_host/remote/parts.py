"""A remote game's message too large for one MQTT message, in parts: cut at the sender, put
together again and checked at the receiver.

A message whose JSON is over PART_BYTES (a long game sent again whole, a long rewrite) crosses as
`part` messages, each a reliable message of its own (its own seq, sealed, signed, acknowledged and
sent again like the others): part `i` of `n`, its seq `of + i`, the whole's size, its SHA-256 and
kind, and a slice of the whole's JSON in base64 (PART_BYTES bytes: a part's sealed payload is
about 43 KB, against a message's 64 KB). The receiver collects the parts of one message at a time
(`Assembly`): any order, a copy dropped (of the message just taken too), a part of another message
or of the sender's other run drops the parts collected (the message they began is set aside, said in
the log); the whole is taken once every part is in and its size and digest match, then checked as
any message is.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass
from typing import Any

from firmware_host.venue.inbound import BadMessage

PART_BYTES = 24_000  # bytes of a message's JSON per part; a message no longer crosses whole
MAX_PARTS = 64  # parts of one message, at most
MAX_WHOLE = MAX_PARTS * PART_BYTES  # bytes of a message put together, at most (1.5 MB)
MAX_CHUNK = (PART_BYTES + 2) // 3 * 4  # base64 characters of one part's slice


def cut(body: bytes) -> list[str]:
    """`body` in slices of PART_BYTES, each as base64 text; OverflowError past MAX_PARTS."""
    size = PART_BYTES
    chunks = [base64.b64encode(body[i:i + size]).decode() for i in range(0, len(body), size)]
    if len(chunks) > MAX_PARTS:
        raise OverflowError(f"a message of {len(body)} bytes needs {len(chunks)} parts, at most {MAX_PARTS}")
    return chunks


def digest(body: bytes) -> str:
    """The SHA-256 of a whole message's JSON, in hex (every part carries it)."""
    return hashlib.sha256(body).hexdigest()


@dataclass(frozen=True)
class Part:
    """A checked part (wire.parse made it): which message it belongs to, and its slice."""

    run: int  # the sender's run
    of: int  # the seq of the message's first part
    i: int
    n: int
    size: int
    digest: str
    whole: str  # the kind of the whole message
    chunk: str

    @property
    def message(self) -> tuple[int, int, int, int, str, str]:
        """What every part of one message shares."""
        return self.run, self.of, self.n, self.size, self.digest, self.whole


def part(data: dict[str, Any], run: int) -> Part:
    """A part from a message's checked fields (wire.parse checked their types and bounds)."""
    return Part(run, int(data["of"]), int(data["i"]), int(data["n"]), int(data["size"]), str(data["digest"]),
                str(data["whole"]), str(data["chunk"]))


class Assembly:
    """The parts of the message being received, until it is whole."""

    def __init__(self) -> None:
        self.key: tuple[int, int, int, int, str, str] | None = None
        self.slices: dict[int, bytes] = {}
        self.done: tuple[int, int, int, int, str, str] | None = None  # the message last put together
        self.dropped = 0  # messages set aside before they were whole

    def reset(self) -> None:
        """Drop the parts collected (the sender restarted: its message is sent again whole)."""
        if self.slices:
            self.dropped += 1
        self.key, self.slices = None, {}

    def add(self, p: Part, where: str) -> bytes | None:
        """Take a part: the whole message's JSON once every part is in, None while parts are missing.

        BadMessage when the part or the whole is wrong (its parts are dropped)."""
        try:
            raw = base64.b64decode(p.chunk.encode("ascii"), validate=True)
        except (UnicodeEncodeError, binascii.Error, ValueError):
            raise BadMessage(f"{where}: part {p.i} of the message at seq {p.of}: its slice is not base64") from None
        if not 1 <= len(raw) <= PART_BYTES:
            raise BadMessage(f"{where}: part {p.i} of the message at seq {p.of}: {len(raw)} bytes, "
                             f"1 to {PART_BYTES} expected")
        if p.message == self.done:
            return None  # a copy of a part of the message already taken
        if p.message != self.key:
            self.reset()  # a message left unfinished: the sender starts another, never ends this one
            self.key = p.message
        if p.i in self.slices:
            if self.slices[p.i] != raw:
                self.reset()
                raise BadMessage(f"{where}: part {p.i} of the message at seq {p.of} came twice, different")
            return None
        self.slices[p.i] = raw
        if sum(map(len, self.slices.values())) > p.size:
            self.reset()
            raise BadMessage(f"{where}: the parts of the message at seq {p.of} are over its {p.size} bytes")
        if len(self.slices) < p.n:
            return None
        body = b"".join(self.slices[i] for i in range(p.n))
        self.key, self.slices, self.done = None, {}, p.message
        if len(body) != p.size or digest(body) != p.digest:
            self.dropped += 1
            raise BadMessage(f"{where}: the message at seq {p.of} put together from {p.n} parts is not the one sent "
                             f"({len(body)} bytes, {p.size} said, or its digest differs)")
        return body

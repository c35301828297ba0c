"""Reader controller wire protocol (versions 1 and 2): frame codec and stream parser (pure, no I/O).

A frame is one ASCII line:  ``$<body>*<CRC>\\n``  where body = ``TYPE field field ...`` (single
spaces), CRC = CRC-16/CCITT-FALSE of the body bytes as 4 uppercase hex digits. ``\\r\\n`` is
accepted on input. docs/protocol.md is the specification; tests/data/protocol_vectors.json holds
the shared test vectors for the reference firmware.

Deliberately written in plain Python (dicts, str, bytes, no dataclasses, typing imported for the
type checker only) so the same module ports to MicroPython on the reader controller. A decoded
message is a dict with a "type" key, e.g. {"type": "ADD", "seq": 12, "ant": 3, "uid": "04A1B2C3D4E5F6"}.
"""

MYPY = False  # true for the type checker only: MicroPython has no typing module
if MYPY:
    from collections.abc import Callable, Sequence
    from typing import Any

    Message = dict[str, Any]  # a decoded message: "type", then its fields (int or str)
    FieldParser = Callable[[str], int | str]
    Fields = Sequence[str | None]  # a body's field texts (None: free text left out)

PROTOCOL_VERSION = 2  # the highest version spoken here (2 adds LEDS: several LEDs in one frame)
OLDEST_VERSION = 1  # the lowest: a peer speaking it is still served (one LED frame per LED)
LEDS_VERSION = 2  # the first version with LEDS
MAX_FRAME = 96  # bytes of a whole frame including its line terminator
SEQ_MOD = 65536  # sequence numbers and command ids wrap at 16 bits

_START = 0x24  # "$"
_SEP = 0x2A  # "*"
_LF = 0x0A
_CR = 0x0D
_HEX = b"0123456789ABCDEF"
_HEX_VALUE = {byte: value for value, byte in enumerate(_HEX)}

# Every reason a line can be rejected for; the parser counts rejections under these names.
REASONS = ("oversize", "start", "char", "checksum_field", "checksum", "type", "field")

# Message type -> ordered fields (name, kind). One table for both directions: type words are
# unique so a decoder needs no context.
HOST_MESSAGES = {
    "HELLO": (("id", "u16"), ("ver", "u8")),
    "INVQ": (("id", "u16"),),
    "LED": (("id", "u16"), ("ant", "ant"), ("rgb", "rgb")),
    "LEDOFF": (("id", "u16"),),
    "LEDS": (("id", "u16"), ("leds", "leds")),
    "PING": (),
}
DEVICE_MESSAGES = {
    "HI": (("id", "u16"), ("ver", "u8"), ("fw", "token"), ("ants", "count8"), ("seq", "u16")),
    "ACK": (("id", "u16"),),
    "ADD": (("seq", "u16"), ("ant", "ant"), ("uid", "uid")),
    "DEL": (("seq", "u16"), ("ant", "ant"), ("uid", "uid")),
    "INV": (("idx", "u16"), ("ant", "ant"), ("uid", "uid")),
    "END": (("id", "u16"), ("count", "u16"), ("seq", "u16")),
    "HB": (("seq", "u16"),),
    "ERR": (("code", "code"), ("detail", "text")),
}
MESSAGES = dict(HOST_MESSAGES)
MESSAGES.update(DEVICE_MESSAGES)


class FrameError(ValueError):
    """A line or message that is not a valid protocol frame; `reason` is one of REASONS."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(reason + ": " + message)
        self.reason = reason


def _make_table() -> "list[int]":
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()


def crc16_py(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xor-out) in plain Python."""
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


try:  # CPython has the same CRC in C (XMODEM with a 0xFFFF start = CCITT-FALSE); MicroPython not.
    from binascii import crc_hqx as _crc_hqx

    def crc16(data: bytes) -> int:
        """CRC-16/CCITT-FALSE of `data` (check value: b"123456789" -> 0x29B1)."""
        return _crc_hqx(data, 0xFFFF)

except ImportError:  # pragma: no cover - MicroPython path
    crc16 = crc16_py


_ALLOWED = bytes(b for b in range(0x20, 0x7F) if b != _START and b != _SEP)  # in a frame's body


def _bad_bytes_py(body: bytes) -> bytes:
    """The bytes of `body` not allowed in a frame, in order (plain Python)."""
    return bytes(b for b in body if b < 0x20 or b > 0x7E or b == _START or b == _SEP)


try:  # CPython deletes the allowed bytes in C; MicroPython's bytes have no translate.
    b"".translate(None, _ALLOWED)

    def _bad_bytes(body: bytes) -> bytes:
        """The bytes of `body` not allowed in a frame, in order."""
        return body.translate(None, _ALLOWED)

except (AttributeError, TypeError):  # pragma: no cover - MicroPython path
    _bad_bytes = _bad_bytes_py


# ---- fields ---------------------------------------------------------------------------------

def _is_hex(text: str) -> bool:
    return not text.strip("0123456789ABCDEF")  # stripping hex digits leaves nothing: all hex


def _parse_uint(raw: str, limit: int) -> int:
    if not raw or len(raw) > 5 or not raw.isdigit() or (len(raw) > 1 and raw[0] == "0"):
        raise FrameError("field", "not a canonical decimal number: " + repr(raw))
    value = int(raw)
    if value > limit:
        raise FrameError("field", str(value) + " is above " + str(limit))
    return value


TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-"
CODE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"


def _u16(raw: str) -> int:
    return _parse_uint(raw, 65535)


def _u8(raw: str) -> int:
    return _parse_uint(raw, 255)


def _ant(raw: str) -> int:
    return _parse_uint(raw, 254)


def _count8(raw: str) -> int:
    value = _parse_uint(raw, 255)
    if value == 0:
        raise FrameError("field", "antenna count must be at least 1")
    return value


def _uid(raw: str) -> str:
    n = len(raw)
    if n < 8 or n > 20 or n % 2 or raw.strip("0123456789ABCDEF"):
        raise FrameError("field", "UID must be 4 to 10 bytes in uppercase hex: " + repr(raw))
    return raw


def _rgb(raw: str) -> str:
    if len(raw) != 6 or not _is_hex(raw):
        raise FrameError("field", "colour must be RRGGBB in uppercase hex: " + repr(raw))
    return raw


def _leds(raw: str) -> str:
    seen = set()
    for item in raw.split(","):
        ant, sep, rgb = item.partition(":")
        if not sep:
            raise FrameError("field", "LED item must be ANT:RRGGBB: " + repr(item))
        number = _ant(ant)
        _rgb(rgb)
        if number in seen:
            raise FrameError("field", "antenna " + ant + " twice in one LEDS")
        seen.add(number)
    return raw


def led_items(raw: str) -> "list[tuple[int, str]]":
    """The (antenna, RRGGBB) pairs of a checked "leds" field, in order."""
    out = []
    for item in raw.split(","):
        ant, _, rgb = item.partition(":")
        out.append((int(ant), rgb))
    return out


def leds_field(items: "Sequence[tuple[int, str]]") -> str:
    """The "leds" field of (antenna, RRGGBB) pairs (canonical when they are)."""
    return ",".join(str(ant) + ":" + rgb for ant, rgb in items)


def _chars(raw: str, kind: str, chars: str, longest: int) -> str:
    if not raw or len(raw) > longest:
        raise FrameError("field", "bad length for " + kind + ": " + repr(raw))
    for ch in raw:
        if ch not in chars:
            raise FrameError("field", "bad character in " + kind + ": " + repr(raw))
    return raw


def _token(raw: str) -> str:
    return _chars(raw, "token", TOKEN_CHARS, 24)


def _code(raw: str) -> str:
    return _chars(raw, "code", CODE_CHARS, 16)


def _text(raw: str) -> str:
    return raw


# field kind -> its parser: one dict lookup per field on the hot path (a tag event has three)
_FIELDS = {"u16": _u16, "u8": _u8, "ant": _ant, "count8": _count8, "uid": _uid, "rgb": _rgb,
           "leds": _leds, "token": _token, "code": _code, "text": _text}  # type: dict[str, FieldParser]


def parse_field(kind: str, raw: str) -> int | str:
    """One field's value from its text; raises FrameError("field") when malformed."""
    parse = _FIELDS.get(kind)
    if parse is None:
        raise FrameError("type", "unknown field kind " + kind)
    return parse(raw)


# ---- messages -------------------------------------------------------------------------------

def decode_body(body: str) -> "Message":
    """The message dict of a frame body ("ADD 12 3 04A1B2C3"); raises FrameError."""
    kind, _, rest = body.partition(" ")
    spec = MESSAGES.get(kind)
    if spec is None:
        raise FrameError("type", "unknown message type " + repr(kind))
    if spec and spec[-1][1] == "text":  # free text takes the rest of the line, may be absent
        texts = rest.split(" ", len(spec) - 1) if rest else []
        parts = texts + [None] if len(texts) == len(spec) - 1 else texts  # type: Fields
    else:
        parts = rest.split(" ") if rest else []
    if len(parts) != len(spec) or (not rest and body != kind):
        raise FrameError("field", kind + " takes " + str(len(spec)) + " fields, got " + repr(rest))
    msg = {"type": kind}  # type: Message
    for (name, kind_), raw in zip(spec, parts):
        if raw is None:
            msg[name] = ""
        elif raw == "":
            raise FrameError("field", "empty field " + name + " in " + kind)
        else:
            msg[name] = _FIELDS[kind_](raw)
    return msg


def encode_body(msg: "Message") -> str:
    """The body text of a message dict; raises FrameError if a field is missing or invalid."""
    kind = msg.get("type", "")
    spec = MESSAGES.get(kind)
    if spec is None:
        raise FrameError("type", "unknown message type " + repr(kind))
    parts = [kind]
    for name, kind_ in spec:
        if kind_ == "text":
            text = msg.get(name, "")
            if text:
                parts.append(str(text))
            continue
        if name not in msg:
            raise FrameError("field", kind + " needs field " + name)
        value = msg[name]
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise FrameError("field", name + " must be an int or str, got " + repr(value))
        parts.append(str(value))
    body = " ".join(parts)
    for ch in body:
        if ch < " " or ch > "~" or ch == "$" or ch == "*":
            raise FrameError("char", "character " + repr(ch) + " cannot be sent in a frame")
    if decode_body(body) != _normalised(msg, spec):  # rejects non-canonical values
        raise FrameError("field", "message does not encode canonically: " + repr(msg))
    return body


def _normalised(msg: "Message", spec: "tuple[tuple[str, str], ...]") -> "Message":
    out = {"type": msg["type"]}
    for name, kind in spec:
        out[name] = msg.get(name, "") if kind == "text" else msg[name]
    return out


def frame_body(body: str) -> bytes:
    """A whole frame (terminated by "\\n") around an already valid body."""
    raw = body.encode("ascii")
    crc = crc16(raw)
    frame = b"$" + raw + b"*" + bytes((_HEX[crc >> 12], _HEX[(crc >> 8) & 15],
                                       _HEX[(crc >> 4) & 15], _HEX[crc & 15])) + b"\n"
    if len(frame) > MAX_FRAME:
        raise FrameError("oversize", str(len(frame)) + " bytes, the limit is " + str(MAX_FRAME))
    return frame


def encode(msg: "Message") -> bytes:
    """The frame bytes of a message dict, e.g. b"$HB 7*9C1E\\n"; raises FrameError."""
    return frame_body(encode_body(msg))


def decode_line(line: bytes) -> "Message":
    """The message of one line (without its "\\n"; a trailing "\\r" is allowed); raises FrameError."""
    if len(line) + 1 > MAX_FRAME:
        raise FrameError("oversize", str(len(line) + 1) + " bytes, the limit is " + str(MAX_FRAME))
    if line and line[-1] == _CR:
        line = line[:-1]
    n = len(line)
    if n == 0 or line[0] != _START:
        raise FrameError("start", "a frame starts with '$'")
    if n < 6 or line[n - 5] != _SEP:
        raise FrameError("checksum_field", "a frame ends with '*' and 4 hex digits")
    body = line[1:n - 5]
    bad = _bad_bytes(body)
    if bad:
        raise FrameError("char", "byte " + hex(bad[0]) + " is not allowed in a frame")
    want = 0
    for byte in line[n - 4:]:
        digit = _HEX_VALUE.get(byte)
        if digit is None:
            raise FrameError("checksum_field", "checksum must be 4 uppercase hex digits")
        want = (want << 4) | digit
    got = crc16(body)
    if want != got:
        raise FrameError("checksum", "frame says %04X, body gives %04X" % (want, got))
    return decode_body(body.decode("ascii"))


class FrameParser:
    """Byte stream -> messages. Never raises on input; counts rejected lines by reason.

    The buffer never holds more than one maximal frame: a longer line is rejected as
    "oversize" and skipped up to the next line terminator, where parsing resynchronises.
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self.accepted = 0
        self.rejected = {}  # type: dict[str, int]
        self._buf = b""
        self._skipping = False

    def reset(self) -> None:
        """Forget any partial line (after a reconnect); counters are kept."""
        self._buf = b""
        self._skipping = False

    def _reject(self, out: "list[Message | FrameError]", errors: bool, exc: FrameError) -> None:
        self.rejected[exc.reason] = self.rejected.get(exc.reason, 0) + 1
        if errors:
            out.append(exc)

    def feed(self, data: bytes, errors: bool = False) -> "list[Message | FrameError]":
        """The messages completed by `data`, in order; bad lines are counted and dropped.

        With `errors`, each dropped line appears in the list as its FrameError, in stream order
        (a controller answers those with ERR FRAME).
        """
        buf = self._buf + bytes(data) if self._buf else bytes(data)
        out = []  # type: list[Message | FrameError]
        start = 0
        while True:
            end = buf.find(b"\n", start)
            if end < 0:
                break
            line = buf[start:end]
            start = end + 1
            if self._skipping:  # tail of an oversize line, already counted
                self._skipping = False
                continue
            if not line or line == b"\r":  # blank lines flush a peer's parser: allowed
                continue
            try:
                msg = decode_line(line)
            except FrameError as exc:
                self._reject(out, errors, exc)
                continue
            self.accepted += 1
            out.append(msg)
        rest = buf[start:]
        if len(rest) >= self.max_frame:
            if not self._skipping:
                self._reject(out, errors, FrameError("oversize", "line longer than "
                                                     + str(self.max_frame) + " bytes"))
                self._skipping = True
            rest = b""
        self._buf = rest
        return out

    @property
    def buffered(self) -> int:
        """Bytes of the current partial line held (always below max_frame)."""
        return len(self._buf)


def seq_after(last: int, seq: int) -> int:
    """How far `seq` is ahead of `last` modulo 2**16: 1 = next, 0 = same, > 32767 = behind."""
    return (seq - last) % SEQ_MOD

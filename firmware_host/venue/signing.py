"""A table's proof that a message is its own: HMAC-SHA256 with a key only it and the venue know.

The signature is the payload's last member, `,"sig":"<64 hex digits>"}`, computed over the topic,
a newline and the payload without that member, byte for byte: the venue checks it on the raw
bytes, before parsing any JSON, and a plain consumer still reads an ordinary JSON object. Keys
are text (the same string in the table's `[venue]` and the venue's key file), bounded and read
from regular files only (a FIFO or a device never hangs the reader).
"""

from __future__ import annotations

import os
import re
import stat

SUFFIX = re.compile(rb',"sig":"([0-9a-f]{64})"\}\Z')
KEY_TEXT = re.compile(r"[!-~]{32,512}")  # printable ASCII without spaces: `openssl rand -hex 32` fits
KEY_FILE_MAX = 4096  # bytes read from a key file, at most
KEY_RULE = "32 to 512 printable ASCII characters without spaces (e.g. `openssl rand -hex 32`)"


def mac(key: bytes, topic: str, body: bytes) -> str:
    """The hex HMAC-SHA256 of topic + newline + body."""
    # imported here: the config reads this module's key rules, and a table without a venue never
    # loads libcrypto (a Pi Zero's start-up time and memory)
    import hashlib
    import hmac

    return hmac.new(key, topic.encode() + b"\n" + body, hashlib.sha256).hexdigest()


def sign(key: bytes, topic: str, payload: bytes) -> bytes:
    """The payload (a compact JSON object) with its signature as its last member."""
    if not payload.endswith(b"}"):
        raise ValueError("only a JSON object can be signed")
    return payload[:-1] + b',"sig":"' + mac(key, topic, payload).encode() + b'"}'


def split(payload: bytes) -> tuple[bytes, str | None]:
    """(payload without its signature, the signature) or (payload, None) when unsigned."""
    found = SUFFIX.search(payload)
    if found is None:
        return payload, None
    return payload[:found.start()] + b"}", found.group(1).decode()


def verify(key: bytes, topic: str, body: bytes, signature: str) -> bool:
    """True when `signature` is the key's HMAC of topic and body (compared in constant time)."""
    import hmac

    return hmac.compare_digest(mac(key, topic, body), signature)


def key_problem(text: str) -> str | None:
    """What is wrong with a key's text, or None."""
    if not KEY_TEXT.fullmatch(text):
        return f"a key is {KEY_RULE}, got {len(text)} character(s)"
    return None


def read_key_file(path: str, limit: int = KEY_FILE_MAX) -> str:
    """A regular file's text, stripped; OSError or ValueError (said in one line) otherwise."""
    return read_bounded(path, limit).strip()


def read_bounded(path: str, limit: int) -> str:
    """A regular file's UTF-8 text of at most `limit` bytes; ValueError names what is wrong."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{path}: not a regular file")
        if info.st_size > limit:
            raise ValueError(f"{path}: {info.st_size} bytes, at most {limit} expected")
        data = os.read(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ValueError(f"{path}: more than {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text") from None

"""Sealing a remote game's messages: what a table sends is read by the other table only.

The JSON of a message is enciphered with a key of its own derived from the game's (HMAC-SHA256 of
the game key and "seal"): XOR with a keystream of HMAC-SHA256 blocks over a fresh random 16-byte
nonce and a counter (HMAC as a pseudo-random function in counter mode), then signed as every
message is (encrypt, then MAC: the signature covers the sealed text, checked first). A third party
on the broker sees the sizes and the timing of the messages, never a card laid face down at the
joining table nor the views the host sends it. Standard library only: a Pi imports nothing more.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os

NONCE = 16
BLOCK = 32  # bytes of one HMAC-SHA256 block


def seal_key(key: bytes) -> bytes:
    """The enciphering key of a game's key (never the signing key itself)."""
    return hmac.new(key, b"seal", hashlib.sha256).digest()


def _stream(key: bytes, nonce: bytes, size: int) -> bytes:
    blocks = (size + BLOCK - 1) // BLOCK
    return b"".join(hmac.new(key, nonce + i.to_bytes(4, "big"), hashlib.sha256).digest()
                    for i in range(blocks))[:size]


def _xor(data: bytes, stream: bytes) -> bytes:
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def seal(key: bytes, body: bytes) -> str:
    """`body` enciphered under the game's `key`, as base64 text (nonce first)."""
    nonce = os.urandom(NONCE)
    return base64.b64encode(nonce + _xor(body, _stream(seal_key(key), nonce, len(body)))).decode()


def unseal(key: bytes, text: str) -> bytes | None:
    """The body sealed in `text` under `key`; None when `text` is not a sealed body."""
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error, ValueError):
        return None
    if len(raw) <= NONCE:
        return None
    nonce, sealed = raw[:NONCE], raw[NONCE:]
    return _xor(sealed, _stream(seal_key(key), nonce, len(sealed)))

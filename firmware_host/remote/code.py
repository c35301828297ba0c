"""The game code: what the host's screens show and the joining table is given, and what it opens.

A code is 8 characters of a 32-letter alphabet without look-alikes (40 bits), shown "ABCD-EFGH".
From it both tables derive, with PBKDF2 (slow on purpose: a guess costs as much as a Pi's join),
the game's signing key and its room (the topic level), so the topic a third party sees on the
broker names neither the code nor the key.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
LENGTH = 8
ITERATIONS = 100_000  # about 0.06 s on a desktop, 0.6 s on a Pi Zero 2 W: once per game, off the loop
SALT = b"zebra-table remote game v1"
ROOM_LENGTH = 20  # hex digits of the room: 80 bits, a topic level


@dataclass(frozen=True)
class GameKey:
    """What a code opens: the room (topic level) and the key signing every message of the game."""

    room: str
    key: bytes = field(repr=False)


def new_code() -> str:
    """A fresh random code (8 characters, no separator)."""
    import secrets  # here: the menu reads this module, and a table that never plays remotely never loads libcrypto

    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(text: str) -> str | None:
    """A code as typed ("abcd-efgh", "ABCD EFGH") in its canonical form, or None if it is not one."""
    if not isinstance(text, str) or len(text) > 4 * LENGTH:
        return None
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def shown(code: str) -> str:
    """"ABCD-EFGH": a code as the screens show it."""
    return f"{code[:4]}-{code[4:]}"


def derive(code: str) -> GameKey:
    """The room and the key of a game code (slow: call it off the loop)."""
    import hashlib
    import hmac

    key = hashlib.pbkdf2_hmac("sha256", code.encode(), SALT, ITERATIONS)
    room = hmac.new(key, b"room", hashlib.sha256).hexdigest()[:ROOM_LENGTH]
    return GameKey(room, key)

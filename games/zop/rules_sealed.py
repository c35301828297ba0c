"""Cards laid face down at the other table of a game across tables: known by a commitment only.

The table that lays the card sends "a card laid" with a commitment to it (`placeholder`: "#" and
the SHA-256 of a 16-byte salt and the card's id); the table holding the engine lays that
placeholder in its place. At the reveal the card is opened (`open`: the card and its salt): it is
taken only if it gives the same commitment, so the card cannot change after it was laid, and its
name never crosses before the rules show it.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, TypeGuard

PREFIX = "#"
SALT_BYTES = 16
_PLACEHOLDER = re.compile(r"#[0-9a-f]{64}")
_SALT = re.compile(r"[0-9a-f]{32}")


def digest(card: str, salt: bytes) -> str:
    """The commitment to `card` under `salt`, as 64 hexadecimal digits."""
    return hashlib.sha256(b"zop-card\0" + salt + card.encode()).hexdigest()


def placeholder(card: str, salt: bytes) -> str:
    """The piece laid in the card's place until it is opened."""
    return PREFIX + digest(card, salt)


def is_sealed(piece: Any) -> TypeGuard[str]:
    """True for a well-formed placeholder."""
    return isinstance(piece, str) and _PLACEHOLDER.fullmatch(piece) is not None


def opens(piece: str, card: Any, salt: Any) -> bool:
    """True when `card` with `salt` (32 hexadecimal digits) is the card committed to by `piece`."""
    if not isinstance(card, str) or not isinstance(salt, str) or _SALT.fullmatch(salt) is None:
        return False
    return piece == placeholder(card, bytes.fromhex(salt))

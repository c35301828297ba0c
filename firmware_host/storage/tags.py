"""The tag registry: NFC tag UID -> piece id ("<game>/<set>/<kind>/<n>"), kept in a JSON file.

Writes are atomic (temp file, fsync, rename, fsync of the folder) so a power cut during enrolment
leaves either the old or the new registry, never half of one.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from firmware_host.storage.inputs import InputError, json_text, read_file

FORMAT_VERSION = 1
UID_RE = re.compile(r"^[0-9A-F]{8}([0-9A-F]{6})?([0-9A-F]{6})?$")  # 4, 7 or 10-byte UIDs
PIECE_RE = re.compile(r"^[a-z0-9-]+/[a-z0-9-]+/[a-z0-9-]+/[a-z0-9-]+$")


class TagError(ValueError):
    """A bad UID or piece id, a UID enrolled twice, or an unreadable registry file."""


def normalise_uid(uid: str) -> str:
    """Upper-case hex without separators; raises TagError for anything else."""
    cleaned = uid.strip().replace(":", "").replace(" ", "").replace("-", "").upper()
    if not UID_RE.match(cleaned):
        raise TagError(f"bad tag UID {uid!r}: expected 4, 7 or 10 bytes in hex")
    return cleaned


def check_piece(piece: str) -> str:
    """The piece id if well-formed ("game/set/kind/n"), else TagError."""
    if not PIECE_RE.match(piece):
        raise TagError(f"bad piece id {piece!r}: expected <game>/<set>/<kind>/<n>")
    return piece


def piece_game(piece: str) -> str:
    """The game id a piece id belongs to."""
    return piece.split("/", 1)[0]


def sim_uid(piece: str) -> str:
    """The simulator's stable 7-byte UID for a piece id."""
    import hashlib  # here: OpenSSL's libcrypto costs the table service 3-4 MB of memory otherwise

    digest = hashlib.sha1(piece.encode()).hexdigest().upper()
    return "04" + digest[:12]  # 0x04 = NXP, as on NTAG21x stickers


class TagRegistry:
    """UID <-> piece id, both directions; optionally backed by a file."""

    def __init__(self, entries: dict[str, str] | None = None, path: str | os.PathLike[str] | None = None):
        self.path = Path(path) if path is not None else None
        self._by_uid: dict[str, str] = {}
        self._by_piece: dict[str, str] = {}
        self.changes = 0  # tags enrolled so far: what a reading of the table was made with
        for uid, piece in (entries or {}).items():
            self.add(uid, piece)

    # -- lookups ------------------------------------------------------------------------------
    def piece(self, uid: str) -> str | None:
        """The piece a UID is enrolled to, or None for an unknown tag."""
        piece = self._by_uid.get(uid)  # the reader link already sends UIDs in their normal form
        if piece is not None:
            return piece
        try:
            return self._by_uid.get(normalise_uid(uid))
        except TagError:
            return None

    def uid(self, piece: str) -> str | None:
        """The UID enrolled to a piece, or None."""
        return self._by_piece.get(piece)

    def __len__(self) -> int:
        return len(self._by_uid)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(sorted(self._by_uid.items(), key=lambda kv: kv[1]))

    def pieces(self) -> set[str]:
        """Every enrolled piece id."""
        return set(self._by_piece)

    # -- changes ------------------------------------------------------------------------------
    def add(self, uid: str, piece: str) -> None:
        """Enrol a tag; refuses a UID already enrolled to another piece (TagError).

        Re-enrolling a piece with a new tag replaces its old tag (a lost token's replacement).
        """
        uid = normalise_uid(uid)
        check_piece(piece)
        owner = self._by_uid.get(uid)
        if owner is not None and owner != piece:
            raise TagError(f"tag {uid} is already enrolled to {owner}")
        old = self._by_piece.get(piece)
        if old is not None and old != uid:
            del self._by_uid[old]
        self._by_uid[uid] = piece
        self._by_piece[piece] = uid
        self.changes += 1

    # -- file ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, object]:
        """The file content."""
        return {"version": FORMAT_VERSION, "tags": dict(sorted(self._by_uid.items()))}

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Write the registry atomically; returns the path written."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise TagError("no file to save the tag registry to")
        target.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps(self.to_json(), indent=1, sort_keys=True).encode()
        fd, tmp = tempfile.mkstemp(prefix=".tags-", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        dir_fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        return target

    @classmethod
    def load(cls, path: str | os.PathLike[str], missing_ok: bool = True) -> TagRegistry:
        """Read a registry file; a missing file gives an empty registry when `missing_ok`."""
        p = Path(path)
        try:
            raw = json_text(read_file(str(p), "a tag registry"), str(p))
        except FileNotFoundError:
            if missing_ok:
                return cls(path=p)
            raise TagError(f"{p}: no such tag registry") from None
        except OSError as exc:
            raise TagError(f"{p}: unreadable tag registry: {exc.strerror or exc}") from None
        except InputError as exc:
            raise TagError(f"unreadable tag registry: {exc}") from None
        if not isinstance(raw, dict) or not isinstance(raw.get("tags"), dict):
            raise TagError(f"{p}: not a version {FORMAT_VERSION} tag registry")
        version = raw.get("version")
        if type(version) is not int or version != FORMAT_VERSION:  # true and 1.0 equal 1 in Python
            raise TagError(f"{p}: version: expected the integer {FORMAT_VERSION}, got {json.dumps(version)[:40]}")
        reg = cls(path=p)
        for uid, piece in raw["tags"].items():
            where = f"{p}: tags.{uid}"
            if not isinstance(piece, str):
                raise TagError(f"{where}: expected a piece id string, got {json.dumps(piece)[:40]}")
            try:
                uid_n = normalise_uid(uid)
                other = reg.uid(piece)
                if other is not None and other != uid_n:
                    raise TagError(f"piece {piece} is given two tags, {other} and {uid_n}")
                reg.add(uid_n, piece)
            except TagError as exc:
                raise TagError(f"{where}: {exc}") from None
        return reg


def sim_registry(pieces: Iterable[str]) -> TagRegistry:
    """A registry with one simulated tag per piece id (the simulator's generated registry)."""
    reg = TagRegistry()
    for piece in pieces:
        reg.add(sim_uid(piece), piece)
    return reg


def all_game_pieces() -> list[str]:
    """Every tagged piece of every game that imports (for the simulator's registry)."""
    from games.registry import available_ids, get_game

    out: list[str] = []
    for gid in available_ids():
        try:
            out.extend(get_game(gid).pieces())
        except ImportError:  # a game still being written
            continue
    return out

"""The venue's reading of a received message: signature, bounds, nesting and types, before any use.

Checked in order of cost, so a hostile message costs little: the topic (a table name as the table
config allows it), the size, the signature (on the raw bytes), the nesting depth (a byte scan:
`json.loads` would recurse into a million brackets), then the JSON and every field the venue
stores, with strict types (a bool is not an int) and sane ranges. `parse` raises BadMessage with
one line naming the topic and the field.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from firmware_host.venue import messages, signing
from firmware_host.venue.settings import TABLE_NAME

# the largest legitimate message is about 6.5 KB (a Mata Hari move, seven players), nested 7 deep
MAX_PAYLOAD = 64 * 1024
MAX_DEPTH = 32
MAX_SEQ = 100_000  # a game's events (the longest random playouts: about 450 moves)
MAX_PLAYERS = 32
MAX_TABLE_SEAT = 8  # the table config numbers its seats 1 to 8
MAX_TIME = 4_102_444_800.0  # 2100-01-01: a table's clock may be late (no RTC) but never that far ahead
MAX_DURATION = 366 * 86400.0
MAX_SCORE = 1e9
MAX_TEXT = 200  # characters of one screen line or title
MAX_LINES = 16
MAX_SHORT = 64  # a game name, a status reason, a screen's icon
GAME_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class BadMessage(ValueError):
    """A message on our topics that does not follow the scheme (set aside with this reason)."""


@dataclass(frozen=True)
class Event:
    """A parsed, checked message: kind is "status" or one of GAME_KINDS."""

    kind: str
    table: str
    game_id: str | None
    seq: int | None
    data: dict[str, Any]


Keys = Callable[[str], bytes | None]  # a table's signing key, None when the venue has none for it


def no_keys(table: str) -> bytes | None:
    """No table has a key: every message is taken unsigned."""
    return None


def parse(topic: str, payload: bytes, keys: Keys = no_keys, signed_only: bool = False) -> Event:
    """Check a received message against the scheme; BadMessage says what is wrong.

    A table with a key must sign; one without is taken unsigned unless `signed_only`."""
    kind, table, game_id = _topic(topic)
    key = keys(table)
    if key is None and signed_only:
        raise BadMessage(f"{topic}: table {table} has no key at this venue, which takes signed messages only")
    body = checked_body(topic, table, payload, key)
    data = decode(topic, body)
    if data.get("v") != messages.VERSION:
        raise BadMessage(f"{topic}: version {_short(data.get('v'))}, this venue reads {messages.VERSION}")
    if data.get("kind") != kind or data.get("table") != table:
        raise BadMessage(f"{topic}: kind/table in the payload differ from the topic")
    if kind == "status":
        _status(topic, data)
        return Event(kind, table, None, None, data)
    if data.get("game_id") != game_id:
        raise BadMessage(f"{topic}: game_id in the payload differs from the topic")
    seq = _game_common(topic, data)
    {"started": _started, "move": _move, "finished": _finished}[kind](topic, data, seq)
    return Event(kind, table, game_id, seq, data)


# -- before the JSON -----------------------------------------------------------------------------
def _topic(topic: str) -> tuple[str, str, str | None]:
    parts = topic.split("/", 5)
    if len(parts) < 3 or parts[0] != messages.ROOT:
        raise BadMessage(f"topic {_short(topic)} is not in the zebra-table scheme")
    if not TABLE_NAME.fullmatch(parts[1]):
        raise BadMessage(f"topic {_short(topic)}: a table name is 1 to 23 letters, digits, - or _")
    if len(parts) == 3 and parts[2] == "status":
        kind, game_id = "status", None
    elif len(parts) == 5 and parts[2] == "game" and parts[4] in messages.GAME_KINDS:
        kind, game_id = parts[4], parts[3]
        if not 1 <= len(game_id) <= 64 or not set(game_id) <= GAME_ID_CHARS:
            raise BadMessage(f"topic {_short(topic)}: a game id is 1 to 64 letters, digits, - or _")
    else:
        raise BadMessage(f"topic {_short(topic)} is not in the zebra-table scheme")
    return kind, parts[1], game_id


def checked_body(topic: str, table: str, payload: bytes, key: bytes | None) -> bytes:
    """The payload without its signature, once size, signature and nesting are right (`table`: whose
    key, for the reason); BadMessage otherwise."""
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"{topic}: {len(payload)} bytes, at most {MAX_PAYLOAD} accepted")
    body, signature = signing.split(payload)
    if key is not None:
        if signature is None:
            raise BadMessage(f"{topic}: unsigned, and table {table} signs its messages (its key is known)")
        if not signing.verify(key, topic, body, signature):
            raise BadMessage(f"{topic}: wrong signature for table {table} (forged, or the keys differ)")
    check_depth(topic, body)
    return body


def check_depth(topic: str, body: bytes) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH, from the bytes, strings skipped.

    Escapes go first, then whole strings (each regex pass is linear: a string can no longer
    hold a quote); of the brackets left, each pass removes the innermost pairs (in C): at most
    MAX_DEPTH passes empty a message nested no deeper."""
    bare = _STRINGS.sub(b"", _ESCAPES.sub(b"", body))
    if b'"' in bare:
        raise BadMessage(f"{topic}: payload is not JSON: a string is never closed")
    brackets = bare.translate(_SQUARE, _NOT_BRACKETS)
    for _ in range(MAX_DEPTH):
        if not brackets:
            return
        brackets = brackets.replace(b"[]", b"")
    if brackets:
        raise BadMessage(f"{topic}: JSON nested more than {MAX_DEPTH} deep, or its brackets do not pair")


_ESCAPES = re.compile(rb"\\.", re.DOTALL)
_STRINGS = re.compile(rb'"[^"]*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_SQUARE = bytes.maketrans(b"{}", b"[]")  # a brace nests like a bracket


def decode(topic: str, body: bytes) -> dict[str, Any]:
    """The JSON object of a checked body (no NaN or Infinity); BadMessage otherwise."""
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise BadMessage(f"{topic}: payload is not JSON: {_short(str(exc))}") from None
    if not isinstance(data, dict):
        raise BadMessage(f"{topic}: payload is not a JSON object")
    data.pop("sig", None)
    return data


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


# -- the fields ----------------------------------------------------------------------------------
def _status(topic: str, data: dict[str, Any]) -> None:
    if _string(topic, data, "state") not in ("online", "offline"):
        raise BadMessage(f"{topic}: state {_short(data['state'])}")
    if "t" in data:
        _time(topic, data, "t")
    if data.get("reason") is not None:
        _string(topic, data, "reason")


def _game_common(topic: str, data: dict[str, Any]) -> int:
    seq = _integer(topic, data, "seq", 0, MAX_SEQ)
    _time(topic, data, "t")
    public = _want(topic, data, "public", dict)
    if public.get("screen") is not None:
        _screen(topic, public["screen"])
    return seq


def _started(topic: str, data: dict[str, Any], seq: int) -> None:
    if seq != 0:
        raise BadMessage(f"{topic}: a start has seq 0, not {seq}")
    _players(topic, data)
    if "options" in data:
        _want(topic, data, "options", dict)


def _move(topic: str, data: dict[str, Any], seq: int) -> None:
    if seq < 1 or _integer(topic, data, "move", 1, MAX_SEQ) != seq:
        raise BadMessage(f"{topic}: move number {_short(data['move'])} does not match seq {seq}")
    if data.get("seat") is not None:
        _integer(topic, data, "seat", 0, MAX_PLAYERS - 1)


def _finished(topic: str, data: dict[str, Any], seq: int) -> None:
    players = _players(topic, data)
    if _string(topic, data, "status") not in messages.END_STATUSES:
        raise BadMessage(f"{topic}: status {_short(data['status'])}")
    if _integer(topic, data, "moves", 0, MAX_SEQ - 1) + 1 != seq:
        raise BadMessage(f"{topic}: {data['moves']} moves but seq {seq}")
    _number(topic, data, "duration", 0.0, MAX_DURATION)
    if data.get("started") is not None:
        _time(topic, data, "started")
    outcome = data["public"].get("outcome")
    if data["status"] == "finished" and outcome is not None:
        _outcome(topic, outcome, players)


def _players(topic: str, data: dict[str, Any]) -> int:
    game = _string(topic, data, "game")
    if not game or not set(game) <= GAME_ID_CHARS:
        raise BadMessage(f"{topic}: game {_short(game)}: letters, digits, - or _")
    players = _integer(topic, data, "players", 1, MAX_PLAYERS)
    seats = _want(topic, data, "seats", list)
    if len(seats) != players or not all(s is None or _is_int(s, 1, MAX_TABLE_SEAT) for s in seats):
        raise BadMessage(f"{topic}: seats {_short(seats)} for {players} players (table seats 1 to {MAX_TABLE_SEAT})")
    return players


def _outcome(topic: str, outcome: Any, players: int) -> None:
    if not isinstance(outcome, dict):
        raise BadMessage(f"{topic}: outcome {_short(outcome)} is not an object")
    scores, winners = outcome.get("scores"), outcome.get("winners")
    if not isinstance(scores, list) or len(scores) != players or not all(
            _is_number(s, -MAX_SCORE, MAX_SCORE) for s in scores):
        raise BadMessage(f"{topic}: outcome scores {_short(scores)}")
    if not isinstance(winners, list) or len(winners) > players or not all(
            _is_int(w, 0, players - 1) for w in winners):
        raise BadMessage(f"{topic}: outcome winners {_short(winners)}")


def _screen(topic: str, screen: Any) -> None:
    """The public screen the venue shows: texts in both languages, bounded."""
    if not isinstance(screen, dict):
        raise BadMessage(f"{topic}: public screen {_short(screen)} is not an object")
    lines = screen.get("lines", [])
    if not isinstance(lines, list) or len(lines) > MAX_LINES:
        raise BadMessage(f"{topic}: public screen: lines must be a list of at most {MAX_LINES}")
    for text in [screen.get("title", {}), *lines]:
        if not _is_text(text):
            raise BadMessage(f"{topic}: public screen text {_short(text)}: "
                             f"{{\"fr\": ..., \"en\": ...}} of at most {MAX_TEXT} characters each")
    icon = screen.get("icon")
    if icon is not None and not (isinstance(icon, str) and len(icon) <= MAX_SHORT):
        raise BadMessage(f"{topic}: public screen icon {_short(icon)}")


# -- typed, bounded values -----------------------------------------------------------------------
def _want(topic: str, data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, kind):
        raise BadMessage(f"{topic}: {key} = {_short(value)}")
    return value


def _integer(topic: str, data: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = _want(topic, data, key, int)
    if not low <= value <= high:
        raise BadMessage(f"{topic}: {key} = {_short(value)}, expected {low} to {high}")
    return int(value)


def _number(topic: str, data: Mapping[str, Any], key: str, low: float, high: float) -> float:
    value: Any = data.get(key)
    if not _is_number(value, low, high):
        raise BadMessage(f"{topic}: {key} = {_short(value)}, expected a number from {low:g} to {high:g}")
    return float(value)


def _time(topic: str, data: Mapping[str, Any], key: str) -> float:
    return _number(topic, data, key, 0.0, MAX_TIME)


def _string(topic: str, data: Mapping[str, Any], key: str) -> str:
    value = _want(topic, data, key, str)
    if len(value) > MAX_SHORT:
        raise BadMessage(f"{topic}: {key}: {len(value)} characters, at most {MAX_SHORT}")
    return str(value)


def _is_int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _is_number(value: Any, low: float, high: float) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if isinstance(value, int):  # an int too large for a float must not raise OverflowError
        return low <= value <= high
    return math.isfinite(value) and low <= value <= high


def _is_text(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(value.get(lang, ""), str) and len(value.get(lang, "")) <= MAX_TEXT for lang in ("fr", "en"))


def _short(value: Any) -> str:
    """A value as it goes into a reason: its repr, at most 80 characters."""
    try:
        text = repr(value)
    except ValueError:  # an integer of more digits than Python converts to text
        return "a huge integer"
    return text if len(text) <= 80 else text[:77] + "..."

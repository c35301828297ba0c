"""The venue topic scheme and its JSON payloads (version 1), written by tables, read by the venue.

    zebra-table/<table>/status                  retained: online, or offline (last will / stop)
    zebra-table/<table>/game/<game_id>/started  seq 0: game, players, seats, options
    zebra-table/<table>/game/<game_id>/move     seq n: move n's public part
    zebra-table/<table>/game/<game_id>/finished seq moves+1: finished or abandoned, outcome, duration

Every game event carries (table, game_id, seq): a consumer drops a second copy by that key (QoS 1
delivers at least once). docs/venue.md describes each field.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from games.core import JSON

from firmware_host.venue.public import dumps

VERSION = 1
ROOT = "zebra-table"
GAME_KINDS = ("started", "move", "finished")
END_STATUSES = ("finished", "abandoned")


class BadMessage(ValueError):
    """A message on our topics that does not follow the scheme (named in the venue's log)."""


def status_topic(table: str) -> str:
    """The retained status topic of a table."""
    return f"{ROOT}/{table}/status"


def game_topic(table: str, game_id: str, kind: str) -> str:
    """The topic of one kind of event of one game."""
    return f"{ROOT}/{table}/game/{game_id}/{kind}"


SUBSCRIPTIONS = (f"{ROOT}/+/status", f"{ROOT}/+/game/+/+")


def encode(payload: dict[str, Any]) -> bytes:
    """Compact UTF-8 JSON (a public part's view encoded as `games.core.to_json` would)."""
    return dumps(payload)


# -- building (the table) ------------------------------------------------------------------------
def status(table: str, state: str, t: float | None, reason: str | None = None) -> dict[str, JSON]:
    """A table's status: "online", or "offline" with a reason ("lost": the broker's last will)."""
    out: dict[str, JSON] = {"v": VERSION, "kind": "status", "table": table, "state": state}
    if t is not None:
        out["t"] = round(t, 3)
    if reason is not None:
        out["reason"] = reason
    return out


def started(table: str, game_id: str, game: str, players: int, seats: list[int | None],
            options: dict[str, JSON], t: float, public: dict[str, Any]) -> dict[str, JSON]:
    """A game began: which game, how many players, at which table seats (None: a seatless player)."""
    return {"v": VERSION, "kind": "started", "table": table, "game_id": game_id, "seq": 0, "game": game,
            "players": players, "seats": seats, "options": options, "t": round(t, 3), "public": public}


def move(table: str, game_id: str, number: int, seat: int | None, t: float,
         public: dict[str, Any]) -> dict[str, JSON]:
    """Move `number` (1-based) was accepted: who acted (game seat; None = a chance draw) and the
    game's public part after it."""
    return {"v": VERSION, "kind": "move", "table": table, "game_id": game_id, "seq": number, "move": number,
            "seat": seat, "t": round(t, 3), "public": public}


def finished(table: str, game_id: str, game: str, players: int, seats: list[int | None], status_: str,
             moves: int, started_t: float, ended_t: float, public: dict[str, Any]) -> dict[str, JSON]:
    """The game ended ("finished": `public.outcome` holds scores and winners) or was abandoned."""
    return {"v": VERSION, "kind": "finished", "table": table, "game_id": game_id, "seq": moves + 1,
            "game": game, "players": players, "seats": seats, "status": status_, "moves": moves,
            "started": round(started_t, 3), "t": round(ended_t, 3),
            "duration": round(max(0.0, ended_t - started_t), 3), "public": public}


# -- reading (the venue) -------------------------------------------------------------------------
@dataclass(frozen=True)
class Event:
    """A parsed, checked message: kind is "status" or one of GAME_KINDS."""

    kind: str
    table: str
    game_id: str | None
    seq: int | None
    data: dict[str, Any]


def parse(topic: str, payload: bytes) -> Event:
    """Check a received message against the scheme; BadMessage says what is wrong."""
    parts = topic.split("/")
    if len(parts) == 3 and parts[0] == ROOT and parts[2] == "status":
        kind, table, game_id = "status", parts[1], None
    elif len(parts) == 5 and parts[0] == ROOT and parts[2] == "game" and parts[4] in GAME_KINDS:
        kind, table, game_id = parts[4], parts[1], parts[3]
    else:
        raise BadMessage(f"topic {topic!r} is not in the zebra-table scheme")
    try:
        data = json.loads(payload.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadMessage(f"{topic}: payload is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadMessage(f"{topic}: payload is not a JSON object")
    if data.get("v") != VERSION:
        raise BadMessage(f"{topic}: version {data.get('v')!r}, this venue reads {VERSION}")
    if data.get("kind") != kind or data.get("table") != table:
        raise BadMessage(f"{topic}: kind/table in the payload differ from the topic")
    if kind == "status":
        _want(topic, data, "state", str)
        if data["state"] not in ("online", "offline"):
            raise BadMessage(f"{topic}: state {data['state']!r}")
        return Event(kind, table, None, None, data)
    if data.get("game_id") != game_id:
        raise BadMessage(f"{topic}: game_id in the payload differs from the topic")
    seq = _want(topic, data, "seq", int)
    if seq < 0:
        raise BadMessage(f"{topic}: seq {seq} < 0")
    _want(topic, data, "t", (int, float))
    _want(topic, data, "public", dict)
    if kind == "move":
        if _want(topic, data, "move", int) != seq or seq < 1:
            raise BadMessage(f"{topic}: move number {data['move']} does not match seq {seq}")
        if data.get("seat") is not None:
            _want(topic, data, "seat", int)
    else:
        _want(topic, data, "game", str)
        players = _want(topic, data, "players", int)
        seats = _want(topic, data, "seats", list)
        if len(seats) != players or not all(s is None or (isinstance(s, int) and not isinstance(s, bool))
                                            for s in seats):
            raise BadMessage(f"{topic}: seats {seats!r} for {players} players")
    if kind == "started" and seq != 0:
        raise BadMessage(f"{topic}: a start has seq 0, not {seq}")
    if kind == "finished":
        if _want(topic, data, "status", str) not in END_STATUSES:
            raise BadMessage(f"{topic}: status {data['status']!r}")
        if _want(topic, data, "moves", int) + 1 != seq:
            raise BadMessage(f"{topic}: {data['moves']} moves but seq {seq}")
        _want(topic, data, "duration", (int, float))
        outcome = data["public"].get("outcome")
        if data["status"] == "finished" and outcome is not None:
            scores, winners = outcome.get("scores"), outcome.get("winners")
            if not isinstance(scores, list) or len(scores) != data["players"] or not all(
                    isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores):
                raise BadMessage(f"{topic}: outcome scores {scores!r}")
            if not isinstance(winners, list) or not all(
                    isinstance(w, int) and not isinstance(w, bool) and 0 <= w < data["players"] for w in winners):
                raise BadMessage(f"{topic}: outcome winners {winners!r}")
    return Event(kind, table, game_id, seq, data)


def _want(topic: str, data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, kind):
        raise BadMessage(f"{topic}: {key} = {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise BadMessage(f"{topic}: {key} = {value!r}")
    return value


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")

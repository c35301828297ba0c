"""The venue topic scheme and its JSON payloads (version 1), written by tables, read by the venue.

    zebra-table/<table>/status                  retained: online, or offline (last will / stop)
    zebra-table/<table>/game/<game_id>/started  seq 0: game, players, seats, options
    zebra-table/<table>/game/<game_id>/move     seq n: move n's public part
    zebra-table/<table>/game/<game_id>/finished seq moves+1: finished or abandoned, outcome, duration

Every game event carries (table, game_id, seq): a consumer drops a second copy by that key (QoS 1
delivers at least once). docs/venue.md describes each field; inbound.py is how the venue reads them.
"""

from __future__ import annotations

from typing import Any

from firmware_host.venue.public import dumps
from games.core import JSON

VERSION = 1
ROOT = "zebra-table"
GAME_KINDS = ("started", "move", "finished")
END_STATUSES = ("finished", "abandoned")


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

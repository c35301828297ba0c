"""The journal's records, and its rows read back into them with every field checked: a damaged
row raises ValueError (the journal reports it as JournalCorrupt), never a TypeError in a game."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from games.core import Action, GameConfig

STATUSES = ("playing", "finished", "abandoned")
SECRET = re.compile(r"[0-9a-f]{64}")
MAX_ROW_JSON = 1_000_000  # bytes: a bigger field is damage, not a move


@dataclass(frozen=True)
class GameRecord:
    """One journaled game: how it was started and every action in order."""

    id: int
    game: str
    config: GameConfig
    seats: tuple[int | None, ...]  # table seat of each game seat; None = a player without a seat
    started: float
    ended: float | None
    status: str
    outcome: dict[str, Any] | None
    moves: tuple[tuple[int, Action], ...]
    computers: dict[int, str] = field(default_factory=dict)  # game seat -> level of the computer playing it
    hints: bool = False  # human seats could ask the computer for hints
    remote: RemoteRecord | None = None  # a game played with another table: how to rejoin it


@dataclass(frozen=True)
class RemoteRecord:
    """A remote game as a table's journal keeps it: this table's side, the game code, the other table's seats."""

    side: str  # "host" or "join"
    code: str  # the game code (its key and room are derived from it)
    seats: tuple[int, ...]  # the game seats played at the other table
    # the joining table's secret, from which the salts of its cards laid face down are drawn
    # (firmware_host/remote/sealing.py): 64 hexadecimal digits, "" for none
    secret: str = ""

    def to_json(self) -> dict[str, Any]:
        """The JSON object `decode_remote` reads."""
        out: dict[str, Any] = {"side": self.side, "code": self.code, "seats": list(self.seats)}
        if self.secret:
            out["secret"] = self.secret
        return out


@dataclass(frozen=True)
class GameSummary:
    """One line of `games list`: a game without its moves (their number only)."""

    id: int
    game: str
    players: int
    started: float
    status: str
    moves: int
    winners: str | None  # the outcome's winners as JSON text, None while playing; "?" if unreadable


def _json(text: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if not isinstance(text, str) or len(text) > MAX_ROW_JSON:
        raise ValueError(f"{what} is not JSON text")
    value = json.loads(text)
    if not isinstance(value, kind):
        raise ValueError(f"{what} is {type(value).__name__}")
    return value


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} is {value!r}")
    return value


def decode_players(text: Any, players: int) -> tuple[dict[int, str], bool]:
    """The computer seats and hints option of a game, as the journal stores them (JSON)."""
    value = _json(text, dict, "computer players")
    seats = value.get("computers", {})
    hints = value.get("hints", False)
    if not isinstance(seats, dict) or not isinstance(hints, bool):
        raise ValueError(f"computer players {value!r}")
    out: dict[int, str] = {}
    for key, level in seats.items():
        if not isinstance(key, str) or not key.isdigit() or int(key) >= players or not isinstance(level, str):
            raise ValueError(f"computer seat {key!r}: {level!r}")
        out[int(key)] = level
    return out, hints


def encode_players(computers: dict[int, str], hints: bool, remote: RemoteRecord | None = None) -> str:
    """The JSON text `decode_players` (and `decode_remote`) read."""
    value: dict[str, Any] = {"computers": {str(k): v for k, v in sorted(computers.items())}, "hints": hints}
    if remote is not None:
        value["remote"] = remote.to_json()
    return json.dumps(value, sort_keys=True)


def decode_remote(text: Any, players: int) -> RemoteRecord | None:
    """The remote game of a game's players row (None: a game of this table alone)."""
    value = _json(text, dict, "computer players").get("remote")
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"secret"} != {"side", "code", "seats"}:
        raise ValueError(f"remote game {value!r}")
    side, code, seats, secret = value["side"], value["code"], value["seats"], value.get("secret", "")
    if not isinstance(secret, str) or (secret and SECRET.fullmatch(secret) is None):
        raise ValueError("remote game secret: not 64 hexadecimal digits")
    if side not in ("host", "join") or not isinstance(code, str) or not 1 <= len(code) <= 16 \
            or not code.isascii() or not code.isalnum():
        raise ValueError(f"remote game side {side!r}, code {code!r}")
    if not isinstance(seats, list) or not 1 <= len(seats) < players or len(set(map(repr, seats))) != len(seats):
        raise ValueError(f"remote seats {seats!r}")
    return RemoteRecord(side, code, tuple(_seat(s, players) for s in seats), secret)


def _seat(value: Any, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise ValueError(f"remote seat {value!r}")
    return value


def decode_move(i: int, seat: Any, action: Any) -> tuple[int, Action]:
    """Move `i`'s seat and action, checked."""
    return _int(seat, f"seat of move {i}"), _json(action, dict, f"move {i}")


def _outcome(text: Any, optional: bool) -> dict[str, Any] | None:
    if not text:
        return None
    try:
        value: dict[str, Any] = _json(text, dict, "outcome")
    except (ValueError, RecursionError):
        if optional:  # salvage: the moves say who won, replayed; a damaged outcome costs only itself
            return None
        raise
    return value


def decode(row: tuple[Any, ...], rows: list[tuple[Any, ...]], *, outcome_optional: bool = False) -> GameRecord:
    """A game row and its move rows, every field checked (`outcome_optional`: an unreadable
    outcome is dropped instead of failing the whole game)."""
    gid, game, players, options, seed, seats_text, started, ended, status, outcome = row
    players = _int(players, "players")
    seats = tuple(_json(seats_text, list, "seats"))
    if len(seats) != players or any(s is not None and (isinstance(s, bool) or not isinstance(s, int))
                                     for s in seats):
        raise ValueError(f"seats {seats!r} for {players} players")
    if not isinstance(game, str) or status not in STATUSES:
        raise ValueError(f"game {game!r} status {status!r}")
    if not isinstance(started, (int, float)) or (ended is not None and not isinstance(ended, (int, float))):
        raise ValueError("bad times")
    moves = []
    for i, (idx, seat, action) in enumerate(rows):
        if idx != i:
            raise ValueError(f"move {i} missing")
        moves.append(decode_move(i, seat, action))
    config = GameConfig(players=players, options=_json(options, dict, "options"), seed=_int(seed, "seed"))
    return GameRecord(id=_int(gid, "id"), game=game, config=config, seats=seats, started=float(started),
                      ended=None if ended is None else float(ended), status=status,
                      outcome=_outcome(outcome, outcome_optional), moves=tuple(moves))

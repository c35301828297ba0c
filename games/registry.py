"""The games the table knows, imported lazily so starting the table does not load every game.

The menu needs each game's name and player counts before any game is chosen: they are written
here (`INFO`), so listing the games imports none of them. A test checks they match the games.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.core import Game, Text, UnknownGame

# game id -> "module:attribute" of its Game instance
GAMES: dict[str, str] = {
    "droles-de-zebres": "games.droles_de_zebres:GAME",
    "zop": "games.zop:GAME",
    "operation-zebre": "games.operation_zebre:GAME",
    "mata-hari": "games.mata_hari:GAME",
    "spywhere": "games.spywhere:GAME",
}


@dataclass(frozen=True)
class GameInfo:
    """What the menu shows of a game before it is loaded."""

    id: str
    name: Text
    min_players: int
    max_players: int


INFO: dict[str, GameInfo] = {info.id: info for info in (
    GameInfo("droles-de-zebres", Text("Drôles de Zèbres", "Drôles de Zèbres"), 2, 2),
    GameInfo("zop", Text("ZOP", "ZOP"), 2, 2),
    GameInfo("operation-zebre", Text("Opération Zèbre", "Operation Zebra"), 2, 12),
    GameInfo("mata-hari", Text("Opération Mata Hari", "Operation: Mata Hari"), 3, 7),
    GameInfo("spywhere", Text("Spywhere", "Spywhere"), 2, 6),
)}


def game_ids() -> list[str]:
    """Every registered game id, in menu order."""
    return list(GAMES)


def available_ids() -> list[str]:
    """Registered game ids whose module is installed (found without importing it)."""
    out = []
    for gid in GAMES:
        try:
            found = importlib.util.find_spec(GAMES[gid].split(":")[0]) is not None
        except (ImportError, ValueError):
            found = False
        if found:
            out.append(gid)
    return out


def game_info(game_id: str) -> GameInfo:
    """A game's name and player counts: from `INFO` without importing it (a game registered
    without an entry there, a test game, is imported to learn them). Raises UnknownGame."""
    if game_id not in GAMES:
        raise UnknownGame(f"unknown game {game_id!r}; known: {', '.join(GAMES)}")
    info = INFO.get(game_id)
    if info is not None:
        return info
    game = get_game(game_id)
    return GameInfo(game.id, game.name, game.min_players, game.max_players)


@cache
def get_game(game_id: str) -> Game[Any, Any]:
    """The Game for `game_id`; raises UnknownGame."""
    try:
        target = GAMES[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r}; known: {', '.join(GAMES)}") from None
    module_name, attr = target.split(":")
    game = getattr(importlib.import_module(module_name), attr)
    if not isinstance(game, Game):
        raise TypeError(f"{target} is not a Game")
    return game

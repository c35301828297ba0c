"""The games the table knows, imported lazily so starting the table does not load every game."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from games.core import Game, UnknownGame

# game id -> "module:attribute" of its Game instance
GAMES: dict[str, str] = {
    "droles-de-zebres": "games.droles_de_zebres:GAME",
    "zop": "games.zop:GAME",
    "operation-zebre": "games.operation_zebre:GAME",
    "mata-hari": "games.mata_hari:GAME",
    "spywhere": "games.spywhere:GAME",
}


def game_ids() -> list[str]:
    """Every registered game id, in menu order."""
    return list(GAMES)


def available_ids() -> list[str]:
    """Registered game ids whose module imports (a game still being written is left out)."""
    out = []
    for gid in GAMES:
        try:
            get_game(gid)
        except ImportError:
            continue
        out.append(gid)
    return out


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

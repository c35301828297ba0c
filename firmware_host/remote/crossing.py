"""What crosses to the joining table: built from the joining seats' views, never from the state.

The host's engine holds the game; the joining table is sent, for each move, the views of the game
seats played there (`game.view(state, seat)`) and the action itself only when it is theirs or
nothing of the game is hidden from them (Drôles de Zèbres).
A message built here is the same under every hidden variant of what the joining seats may not
know (tests/service/remote/test_remote_hidden.py checks it on whole games).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.core import JSON, Action, Game, GameConfig, to_json

# games in which every seat may know every move and every draw: their seed and moves may cross
PUBLIC_GAMES = frozenset({"droles-de-zebres"})


def views(game: Game[Any, Any], state: Any, seats: Iterable[int]) -> dict[str, JSON]:
    """Each joining seat's view, as JSON ("1": {...})."""
    return {str(s): to_json(game.view(state, s)) for s in sorted(seats)}


def public_to(game: Game[Any, Any], state: Any, seat: int, action: Action, seats: Iterable[int]) -> bool:
    """True when `action` may cross to `seats`: one of them made it, or nothing of `state` is hidden
    from them (a game without secrets, or a moment without any).

    Telling the move from the others its author had is not enough: which others it had may itself
    be the secret (a single card left in a hand), so any hidden fact keeps the action at home and
    the joining seats get their views only."""
    audience = sorted(seats)
    if seat in audience:
        return True
    return all(next(iter(game.hidden_variants(state, h)), None) is None for h in audience)


def move_fields(game: Game[Any, Any], before: Any, seat: int, action: Action, after: Any, number: int,
                seats: Iterable[int]) -> dict[str, JSON]:
    """The host's move `number` as the joining seats may know it."""
    audience = sorted(seats)
    shown = to_json(dict(action)) if public_to(game, before, seat, action, audience) else None
    return {"n": number, "seat": seat, "action": shown, "views": views(game, after, audience)}


def game_fields(game: Game[Any, Any], config: GameConfig, moves: list[tuple[int, Action]], state: Any,
                seats: Iterable[int]) -> dict[str, JSON]:
    """The game as the joining table starts it: options, seed, its seats, the moves so far, its views.

    The seed (every draw to come) and the moves would hold a game's secrets: ValueError for a game
    outside PUBLIC_GAMES."""
    if game.id not in PUBLIC_GAMES:
        raise ValueError(f"{game.id}: its seed and moves would carry secrets to the other table")
    audience = sorted(seats)
    return {"game": game.id, "players": config.players, "options": to_json(dict(config.options)),
            "seed": config.seed, "remote": audience, "moves": [[s, to_json(dict(a))] for s, a in moves],
            "views": views(game, state, audience)}

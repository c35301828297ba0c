"""What crosses to the joining table: built from the joining seats' views, never from the state.

The host's engine holds the game; the joining table is sent, for each move, the views of the game
seats played there (`game.view(state, seat)`) and the action itself only when those seats can
tell it from every other move its author had (it shows on the board, or nothing of it is hidden).
A message built here is the same under every hidden variant of what the joining seats may not
know (tests/service/remote/test_remote_hidden.py checks it on whole games).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.core import CHANCE, JSON, Action, Game, GameConfig, IllegalAction, to_json


def views(game: Game[Any, Any], state: Any, seats: Iterable[int]) -> dict[str, JSON]:
    """Each joining seat's view, as JSON ("1": {...})."""
    return {str(s): to_json(game.view(state, s)) for s in sorted(seats)}


def public_to(game: Game[Any, Any], state: Any, seat: int, action: Action, seats: Iterable[int]) -> bool:
    """True when every seat of `seats` can tell `action` from every other move `seat` had in `state`."""
    audience = sorted(seats)
    if seat in audience:
        return True
    seen = [game.view(game.apply(state, seat, action).state, h) for h in audience]
    others = [a for a, _ in game.chance_outcomes(state)] if seat == CHANCE else game.legal_actions(state, seat)
    for other in others:
        if other == action:
            continue
        try:
            after = game.apply(state, seat, other).state
        except IllegalAction:
            continue
        if any(game.view(after, h) == v for h, v in zip(audience, seen, strict=True)):
            return False
    return True


def move_fields(game: Game[Any, Any], before: Any, seat: int, action: Action, after: Any, number: int,
                seats: Iterable[int]) -> dict[str, JSON]:
    """The host's move `number` as the joining seats may know it."""
    audience = sorted(seats)
    shown = to_json(dict(action)) if public_to(game, before, seat, action, audience) else None
    return {"n": number, "seat": seat, "action": shown, "views": views(game, after, audience)}


def game_fields(game: Game[Any, Any], config: GameConfig, moves: list[tuple[int, Action]], state: Any,
                seats: Iterable[int]) -> dict[str, JSON]:
    """The game as the joining table starts it: options, seed, its seats, the moves so far, its views."""
    audience = sorted(seats)
    return {"game": game.id, "players": config.players, "options": to_json(dict(config.options)),
            "seed": config.seed, "remote": audience, "moves": [[s, to_json(dict(a))] for s, a in moves],
            "views": views(game, state, audience)}

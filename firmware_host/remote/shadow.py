"""The host's record of the game as the joining table holds it (its "shadow"), and the messages
that keep the joining table's engine on it.

The joining table plays with a full engine on a state its seats cannot tell from the host's: every
move it may know crosses as it is; a move that hides something from it (ZOP: a card laid face
down) crosses as a stand-in, the first move its author had in the shadow that leaves the joining
seats the same views and the same seats to act, chosen from what they know only. When nothing is
hidden any more (the reveal) and the shadow is not the host's state, the moves since the last
point where both were the same are sent again as the rules have made them known (`settle`): the
stand-ins kept on the pad are replaced by the cards revealed, the others stay stand-ins.

A message built here is the same under every hidden variant of what the joining seats may not know
(tests/service/remote/test_remote_hidden.py checks it on whole games, and on games differing only
in cards laid and taken back).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.core import JSON, Action, Game, GameConfig, IllegalAction, to_json

Moves = list[tuple[int, Action]]
# the game's settling: (game, the shadow's state at the last common point, the shadow's moves since,
# with the host's last move, the host's state) -> the moves that lead there, or None
Settle = Callable[[Game[Any, Any], Any, Moves, Any, frozenset[int]], Moves | None]
# the game's order of stand-ins: (game, state, seat, action) -> 0 for the stand-ins tried first
Prefer = Callable[[Game[Any, Any], Any, int, Action], int]


@dataclass(frozen=True)
class Secrets:
    """How a game with secrets is told to the joining table: its settling, its stand-ins, its options."""

    settle: Settle
    prefer: Prefer
    options: Mapping[str, str] = field(default_factory=dict)  # options it is played with across tables


class CannotFollow(ValueError):
    """The host's move has no counterpart the joining table may be sent."""


def views(game: Game[Any, Any], state: Any, seats: Iterable[int]) -> dict[str, JSON]:
    """Each joining seat's view, as JSON ("1": {...})."""
    return {str(s): to_json(game.view(state, s)) for s in sorted(seats)}


def view_digests(game: Game[Any, Any], state: Any, seats: Iterable[int]) -> dict[str, str]:
    """Each joining seat's view as its SHA-256 ("1": "9f…"): what a message carries for the joining
    table to check its own views against. A digest, not the view: a message's size does not grow
    with the players at the joining table (a Spywhere view is up to about 11 KB)."""
    import hashlib  # OpenSSL's library: loaded when a game is played across tables, not at the service's start

    return {str(s): hashlib.sha256(json.dumps(to_json(game.view(state, s)), sort_keys=True, separators=(",", ":"))
                                   .encode()).hexdigest() for s in sorted(seats)}


def hides(game: Game[Any, Any], state: Any, seats: Iterable[int]) -> bool:
    """True when something of `state` is hidden from one of `seats`."""
    return any(next(iter(game.hidden_variants(state, s)), None) is not None for s in seats)


def _key(action: Action) -> str:
    return json.dumps(to_json(dict(action)), sort_keys=True)


class Shadow:
    """The joining table's game as the host knows it: its moves (`log`) and their state."""

    def __init__(self, game: Game[Any, Any], config: GameConfig, seats: Iterable[int], secrets: Secrets | None):
        self.game = game
        self.seats = frozenset(seats)
        self.secrets = secrets
        self.log: Moves = []
        self.state: Any = game.initial_state(config)
        self.common = 0  # log[:common] is final: the shadow was the host's state there
        self.common_state: Any = self.state

    def _same(self, shadow: Any, real: Any) -> bool:
        """The joining seats cannot tell `shadow` from `real` (and they are one when nothing is hidden)."""
        g = self.game
        if views(g, shadow, self.seats) != views(g, real, self.seats) or g.to_act(shadow) != g.to_act(real):
            return False
        return shadow == real or hides(g, real, self.seats)

    def _try(self, seat: int, action: Action, real: Any) -> Any | None:
        try:
            after = self.game.apply(self.state, seat, action).state
        except IllegalAction:
            return None
        return after if self._same(after, real) else None

    def stand_in(self, seat: int, real: Any) -> tuple[Action, Any] | None:
        """The first move of `seat` in the shadow that the joining seats cannot tell from the host's."""
        prefer = self.secrets.prefer if self.secrets is not None else None
        state = self.state
        legal = self.game.legal_actions(state, seat)
        for action in sorted(legal, key=lambda a: (prefer(self.game, state, seat, a) if prefer else 0, _key(a))):
            after = self._try(seat, action, real)
            if after is not None:
                return action, after
        return None

    def step(self, before: Any, seat: int, action: Action, real: Any) -> tuple[str, dict[str, JSON]]:
        """The message for the host's move from `before` to `real`: ("move", ...) or ("rewrite", ...)."""
        g = self.game
        public = seat in self.seats or not (hides(g, before, self.seats) or hides(g, real, self.seats))
        found: tuple[Action, Any] | None = None
        if public:
            after = self._try(seat, action, real)
            found = None if after is None else (action, after)
        else:
            found = self.stand_in(seat, real)
        if found is not None:
            shown, after = found
            fields: dict[str, JSON] = {"n": len(self.log), "seat": seat, "action": to_json(dict(shown)),
                                       "views": view_digests(g, real, self.seats)}
            if not public:
                fields["hidden"] = True
            self.log.append((seat, shown))
            self.state = after
            if after == real:
                self.common, self.common_state = len(self.log), after
            return "move", fields
        return "rewrite", self._settled(seat, action, real)

    def _settled(self, seat: int, action: Action, real: Any) -> dict[str, JSON]:
        """The moves since the last common point as the rules now show them."""
        if self.secrets is None or hides(self.game, real, self.seats):
            raise CannotFollow(f"{self.game.id}: the host's move has no public counterpart yet")
        moves = self.secrets.settle(self.game, self.common_state, [*self.log[self.common:], (seat, action)], real,
                            self.seats)
        if moves is None or replay_from(self.game, self.common_state, moves) != real:
            raise CannotFollow(f"{self.game.id}: the moves since {self.common} cannot be told as the rules show them")
        start = self.common
        self.log[start:] = moves
        self.state = self.common_state = real
        self.common = len(self.log)
        return {"from": start, "moves": [[s, to_json(dict(a))] for s, a in moves],
                "views": view_digests(self.game, real, self.seats)}


def replay_from(game: Game[Any, Any], state: Any, moves: Moves) -> Any:
    """The state after `moves` from `state` (None if one is illegal)."""
    for seat, action in moves:
        try:
            state = game.apply(state, seat, action).state
        except IllegalAction:
            return None
    return state

"""What a game starts from: a request's new config and seats, or a journaled game's moves replayed
(the exact state: games are pure), with what attaches the other table of a remote game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from firmware_host.apps.app import StartRequest
from firmware_host.apps.computer_seats import REQUIRED_OPTIONS
from firmware_host.apps.undo import effective_moves
from firmware_host.storage.journal_rows import GameRecord
from firmware_host.venue.settings import Broker
from games.core import Action, Effect, Game, GameConfig

if TYPE_CHECKING:  # the remote modules are imported only for a remote game
    from firmware_host.remote.play import Hosting, Joining, Rejoining


@dataclass
class Opening:
    """A game about to start: its config and seats, its computer players, and for a resumed game
    the moves that stand, every journaled entry, the state they give and the effects they left."""

    config: GameConfig
    seats: tuple[int | None, ...]
    computers: dict[int, str]
    hints: bool
    state: Any = None  # None: the game's initial state
    moves: list[tuple[int, Action]] | None = None
    history: list[tuple[int, Action]] | None = None
    effects: list[Effect] = field(default_factory=list)
    remote: Hosting | Joining | Rejoining | None = None


def resumed(game: Game[Any, Any], rec: GameRecord, broker: Broker | None) -> Opening:
    """A journaled game taken up again. ValueError: it was played with another table and this
    table has no broker for it any more (it is never played here alone)."""
    history = list(rec.moves)
    moves = effective_moves(history)  # undone moves stay in the journal, not in the game
    state = game.initial_state(game.validate_config(rec.config))
    effects: list[Effect] = []
    for seat, act in moves:
        step = game.apply(state, seat, act)
        state = step.state
        effects.extend(step.effects)
    remote = None
    if rec.remote is not None:
        from firmware_host.remote.play import rejoining

        remote = rejoining(rec.remote, broker)
    return Opening(rec.config, rec.seats, dict(rec.computers), rec.hints, state, moves, history, effects, remote)


def fresh(game: Game[Any, Any], request: StartRequest, seed: int, broker: Broker | None) -> Opening:
    """A new game as the request asks (with the options a computer player needs). ValueError: its
    other table cannot be reached."""
    seats = (*request.seats, *([None] * request.extra))
    options = dict(request.options)
    if request.computers:
        options.update(REQUIRED_OPTIONS.get(game.id, {}))
    config = game.validate_config(GameConfig(len(seats), options, seed))
    remote = None
    if request.remote is not None:
        from firmware_host.remote.play import prepared

        remote = prepared(request.remote, broker)
    return Opening(config, seats, dict(request.computers), request.hints, remote=remote)

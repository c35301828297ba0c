"""Hosting and joining a remote game on a table's runtime.

The host starts the game on its runtime with a table seat for each local player and None for each
player of the joining table, makes a game code (its screens show it until the other table comes)
and sends the game. The joining table is given the code, waits for the game (`Joining.game`,
never blocking the loop) and starts it on its own seats with the host's options and seed.
Only games without secrets are played this way so far (REMOTE_GAMES): there, the joining table
follows every move with its own engine and checks it against the views the host sends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firmware_host.apps.app import StartRequest
from firmware_host.apps.session import GameSession
from firmware_host.loop.events import RemoteNews
from firmware_host.loop.runtime import Runtime
from firmware_host.remote import code as codes
from firmware_host.remote import crossing, wire
from firmware_host.remote.link import RemoteLink
from firmware_host.remote.seats import RemoteSeats
from firmware_host.venue.settings import Broker
from games.core import BadConfig, GameConfig, UnknownGame
from games.registry import get_game

# games whose every move and draw every seat may know: the joining table follows them with its own engine
REMOTE_GAMES = crossing.PUBLIC_GAMES


@dataclass
class RemoteGame:
    """A remote game on this table: its code, its link, its remote seats."""

    code: str
    link: RemoteLink
    seats: RemoteSeats

    def close(self) -> None:
        """Leave the broker (the other table sees this one away)."""
        self.link.close()


def host(runtime: Runtime, broker: Broker, game_id: str, seats: tuple[int | None, ...],
         options: Mapping[str, object] | None = None) -> RemoteGame:
    """Start `game_id` here; each None in `seats` is a player of the joining table. ValueError if it cannot."""
    if game_id not in REMOTE_GAMES:
        raise ValueError(f"{game_id}: not playable between tables yet (only {', '.join(sorted(REMOTE_GAMES))})")
    remote = frozenset(i for i, t in enumerate(seats) if t is None)
    if not remote or len(remote) == len(seats):
        raise ValueError("a remote game needs players at both tables")
    code = codes.new_code()
    link = RemoteLink(broker, code, "host", wake=lambda: runtime.post(RemoteNews()))
    runtime.start(StartRequest(game_id, seats, dict(options or {})))
    session = runtime.app
    if not isinstance(session, GameSession):
        raise ValueError(f"{game_id} could not start")
    joined = RemoteSeats(session, link, remote)
    link.send("game", crossing.game_fields(session.game, session.config, session.moves, session.state, remote))
    link.start()
    runtime.refresh()
    return RemoteGame(code, link, joined)


class Joining:
    """A table joining the game of `code`: connects at once, starts the game once it has it."""

    def __init__(self, runtime: Runtime, broker: Broker, code: str):
        canonical = codes.normalise(code)
        if canonical is None:
            raise ValueError(f"{code!r} is not a game code ({codes.LENGTH} letters and digits, like ABCD-EFGH)")
        self.runtime = runtime
        self.code = canonical
        self.link = RemoteLink(broker, canonical, "join", wake=lambda: runtime.post(RemoteNews()))
        self.taken: list[wire.Message] = []
        self.link.start()

    def game(self) -> dict[str, Any] | None:
        """The host's game message once it arrived (None: not yet)."""
        self.taken.extend(self.link.take())
        return next((m.data for m in self.taken if m.kind == "game"), None)

    def begin(self, table_seats: tuple[int, ...]) -> RemoteGame:
        """Start the host's game here, its joining players at `table_seats` in order. ValueError if it cannot."""
        data = self.game()
        if data is None:
            raise ValueError("the host's game has not arrived yet")
        here = list(data["remote"])
        if len(table_seats) != len(here) or len(set(table_seats)) != len(table_seats):
            raise ValueError(f"the game has {len(here)} player(s) at this table: give as many table seats")
        try:
            game = get_game(data["game"])
        except UnknownGame:
            raise ValueError(f"the host plays {data['game']!r}, a game this table does not have") from None
        if game.id not in REMOTE_GAMES:
            raise ValueError(f"{game.id}: not playable between tables yet")
        seats: list[int | None] = [None] * int(data["players"])
        for gseat, tseat in zip(here, table_seats):
            seats[gseat] = tseat
        try:
            game.validate_config(_config(data))
        except BadConfig as exc:
            raise ValueError(f"the host's game: {exc}") from None
        self.runtime.start(StartRequest(game.id, tuple(seats), dict(data["options"]), seed=int(data["seed"])))
        session = self.runtime.app
        if not isinstance(session, GameSession):
            raise ValueError(f"{game.id} could not start")
        joined = RemoteSeats(session, self.link, frozenset(i for i, t in enumerate(seats) if t is None))
        joined.log = [(int(s), a) for s, a in data["moves"]]
        joined.follow()
        rest = [m for m in self.taken if m.kind != "game"]
        self.taken = []
        for message in rest:
            joined.take(message)
        self.runtime.refresh()
        return RemoteGame(self.code, self.link, joined)


def _config(data: dict[str, Any]) -> GameConfig:
    return GameConfig(int(data["players"]), dict(data["options"]), int(data["seed"]))

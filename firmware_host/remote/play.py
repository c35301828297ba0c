"""Hosting and joining a remote game on a table's runtime.

The host starts the game with a table seat for each local player and None for each player of the
joining table (`StartRequest.remote`: "host", or a `Hosting` naming the broker); the runtime then
calls `attach`, which makes the game code (its screens show it until the other table comes) and
sends the game. The joining table is given the code (the menu's "Rejoindre une partie à distance",
or `Joining` directly): `JoiningApp` shows that it is connecting, and once the game has arrived
starts it on its own seats with the host's options and seed. Drôles de Zèbres, ZOP and Spywhere
are played this way (crossing.REMOTE_GAMES): the joining table follows every move with its own
engine and checks it against the views the host sends; in ZOP a card laid face down at the host
crosses as a stand-in until the reveal (shadow.py), in Spywhere the host seats' passports, cards
and identifications do until the rules show them (shadow_spywhere.py).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from firmware_host.apps.app import (
    BackToMenu,
    Button,
    PressKind,
    QuietApp,
    Sensed,
    StartGame,
    StartRequest,
    Transition,
)
from firmware_host.apps.session import GameSession
from firmware_host.apps.undo import player
from firmware_host.loop.events import RemoteNews
from firmware_host.remote import code as codes
from firmware_host.remote import crossing, wire
from firmware_host.remote.link import RemoteLink
from firmware_host.remote.seats import RemoteSeats
from firmware_host.screens.frames import Frame
from firmware_host.storage.journal_rows import RemoteRecord
from firmware_host.venue.settings import Broker
from games.core import BadConfig, GameConfig, Screen, Text, UnknownGame, tr
from games.registry import get_game

REMOTE_GAMES = crossing.REMOTE_GAMES


class Table(Protocol):
    """What remote play needs of a table's runtime."""

    @property
    def app(self) -> Any: ...
    @property
    def remote_game(self) -> RemoteGame | None: ...
    @property
    def seat_ids(self) -> tuple[int, ...]: ...
    def post(self, event: object) -> None: ...
    def start(self, request: StartRequest) -> None: ...
    def refresh(self) -> None: ...


@dataclass
class RemoteGame:
    """A remote game on this table: its code, its link, its remote seats."""

    code: str
    link: RemoteLink
    seats: RemoteSeats

    def close(self) -> None:
        """Leave the broker (the other table sees this one away)."""
        self.link.close()


def _elsewhere(seats: tuple[int | None, ...]) -> tuple[int, ...]:
    """The game seats without a table seat here: played at the other table."""
    return tuple(i for i, t in enumerate(seats) if t is None)


@dataclass(frozen=True)
class Hosting:
    """A StartRequest's `remote` for a hosted game: the broker to host it on, and its code."""

    broker: Broker
    code: str = field(default_factory=codes.new_code)

    def journaled(self, seats: tuple[int | None, ...]) -> RemoteRecord:
        """What the journal keeps so that this table hosts the game again after a restart."""
        return RemoteRecord("host", self.code, _elsewhere(seats))

    def attach(self, table: Table, session: GameSession) -> RemoteGame:
        """Send the game, start the link: the session's None seats play at the other table."""
        link = RemoteLink(self.broker, self.code, "host", wake=lambda: table.post(RemoteNews()))
        joined = RemoteSeats(session, link, frozenset(_elsewhere(session.seats)))
        joined.send_game()
        link.start()
        return RemoteGame(self.code, link, joined)


@dataclass(frozen=True)
class Rejoining:
    """A remote game resumed from this table's journal: its side again, on the same code and seats."""

    broker: Broker
    record: RemoteRecord

    def journaled(self, seats: tuple[int | None, ...]) -> RemoteRecord:
        """The journal already keeps it."""
        return self.record

    def attach(self, table: Table, session: GameSession) -> RemoteGame:
        """Connect again: the host sends its whole game, the joining table waits for it (seats.py)."""
        if frozenset(self.record.seats) != frozenset(_elsewhere(session.seats)):
            raise ValueError("the journal's remote seats are not the game's seatless players")
        link = RemoteLink(self.broker, self.record.code, self.record.side, wake=lambda: table.post(RemoteNews()))
        joined = RemoteSeats(session, link, frozenset(self.record.seats), resumed=True, secret=self.record.secret)
        if self.record.side == "host":
            joined.send_game()
        link.start()
        return RemoteGame(self.record.code, link, joined)


def prepared(remote: object, broker: Broker | None) -> Hosting | Joining | Rejoining:
    """A StartRequest's `remote` as the runtime journals and attaches it: ValueError if it cannot be played."""
    if remote == "host":
        if broker is None:
            raise ValueError("a remote game needs a [remote] section in the config (its broker)")
        remote = Hosting(broker)
    if not isinstance(remote, Hosting | Joining | Rejoining):
        raise ValueError(f"remote: {remote!r}")
    return remote


def rejoining(record: RemoteRecord, broker: Broker | None) -> Rejoining:
    """A journaled remote game taken up again: ValueError if this table has no broker for it any more."""
    if broker is None:
        raise ValueError("this game is played with another table: it needs the config's [remote] section")
    return Rejoining(broker, record)


def attach(table: Table, session: GameSession, remote: object, broker: Broker | None) -> RemoteGame:
    """The runtime's hook for a StartRequest with `remote`: ValueError if it cannot be played."""
    return prepared(remote, broker).attach(table, session)


def host(table: Table, broker: Broker, game_id: str, seats: tuple[int | None, ...],
         options: Mapping[str, object] | None = None) -> RemoteGame:
    """Start `game_id` here; each None in `seats` is a player of the joining table. ValueError if it cannot."""
    reason = crossing.refusal(game_id, options or {})
    if reason is not None:
        raise ValueError(reason)
    if all(t is not None for t in seats) or all(t is None for t in seats):
        raise ValueError("a remote game needs players at both tables")
    forced = {**(options or {}), **crossing.REMOTE_OPTIONS.get(game_id, {})}
    table.start(StartRequest(game_id, seats, forced, remote=Hosting(broker)))
    game = table.remote_game
    if not isinstance(table.app, GameSession) or game is None:
        raise ValueError(f"{game_id} could not start")
    table.refresh()
    return game


class Joining:
    """A table joining the game of `code`: connects at once, starts the game once it has it."""

    def __init__(self, table: Table, broker: Broker, code: str):
        canonical = codes.normalise(code)
        if canonical is None:
            raise ValueError(f"{code!r} is not a game code ({codes.LENGTH} letters and digits, like ABCD-EFGH)")
        self.table = table
        self.code = canonical
        self.link = RemoteLink(broker, canonical, "join", wake=lambda: table.post(RemoteNews()))
        self.taken: list[wire.Message] = []
        self.secret = os.urandom(32).hex()  # the salts of this table's cards laid face down (sealing.py)
        self.link.start()

    def journaled(self, seats: tuple[int | None, ...]) -> RemoteRecord:
        """What the journal keeps so that this table joins the game again after a restart."""
        return RemoteRecord("join", self.code, _elsewhere(seats), self.secret)

    def game(self) -> dict[str, Any] | None:
        """The host's game message once it arrived (None: not yet)."""
        self.taken.extend(self.link.take())
        return next((m.data for m in self.taken if m.kind == "game"), None)

    def request(self, table_seats: tuple[int, ...]) -> StartRequest:
        """The host's game as this table starts it, its joining players at `table_seats` in order."""
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
        reason = crossing.refusal(game.id, data["options"])
        if reason is not None:
            raise ValueError(reason)
        seats: list[int | None] = [None] * int(data["players"])
        for gseat, tseat in zip(here, table_seats):
            seats[gseat] = tseat
        try:
            game.validate_config(GameConfig(int(data["players"]), dict(data["options"]), int(data["seed"])))
        except BadConfig as exc:
            raise ValueError(f"the host's game: {exc}") from None
        return StartRequest(game.id, tuple(seats), dict(data["options"]), seed=int(data["seed"]), remote=self)

    def attach(self, table: Table, session: GameSession) -> RemoteGame:
        """The runtime started the host's game here: follow the host's moves so far, then the link's."""
        data = self.game()
        assert data is not None
        joined = RemoteSeats(session, self.link, frozenset(i for i, t in enumerate(session.seats) if t is None),
                             secret=self.secret)
        joined.count_from(next(m.run for m in self.taken if m.kind == "game"))
        joined.log = [(int(s), a) for s, a in data["moves"]]
        joined.follow()
        rest = [m for m in self.taken if m.kind != "game"]
        self.taken = []
        for message in rest:
            joined.take(message)
        return RemoteGame(self.code, self.link, joined)

    def begin(self, table_seats: tuple[int, ...]) -> RemoteGame:
        """Start the host's game here (ValueError if it cannot)."""
        self.table.start(self.request(table_seats))
        game = self.table.remote_game
        if not isinstance(self.table.app, GameSession) or game is None:
            raise ValueError("the host's game could not start")
        self.table.refresh()
        return game


class JoiningApp(QuietApp):
    """What the joining table shows while it connects: the code, then the host's game starts.

    The host's game says how many of its players sit at this table: the seat that typed the code
    is one; while more are needed, each other player presses OK at their own seat to take a place
    (OK again gives it back), and the game starts once there are as many. The table seats take the
    joining table's game seats in seat order, and each screen says which player it is. A long
    press on OK gives up (back to the menu)."""

    needs_reader: ClassVar[bool] = False

    def __init__(self, table: Table, broker: Broker, code: str, seats: tuple[int, ...]):
        self.typist = seats[0] if seats else None
        self.seats = sorted(set(seats))
        self.seat_ids = tuple(table.seat_ids)  # the table's own seats (a phone seat takes no place)
        self.joining = Joining(table, broker, code)
        self.problem: Text | None = None

    def begin(self, sensed: Sensed) -> Transition | None:
        """Nothing of the table is needed yet."""
        return None

    def here(self) -> list[int] | None:
        """The game seats played at this table, once the host's game arrived (None: not yet)."""
        data = self.joining.game()
        return None if data is None else [int(x) for x in data["remote"]]

    def on_button(self, seat: int, button: Button, kind: PressKind) -> Transition | None:
        """A long press on OK gives up; OK at another seat takes a place, or gives it back."""
        if kind == "long" and button == "ok":
            self.joining.link.stop()
            return BackToMenu()
        if kind != "press" or button != "ok" or seat == self.typist or self.problem is not None \
                or (self.seat_ids and seat not in self.seat_ids):
            return None
        here = self.here()
        if seat in self.seats:
            self.seats.remove(seat)
        elif here is not None and len(self.seats) < len(here):
            self.seats = sorted([*self.seats, seat])
        return None

    def on_sensed(self, sensed: Sensed) -> Transition | None:
        """Nothing of the table is needed yet."""
        return None

    def on_time(self) -> Transition | None:
        """The host's game, once it arrived and this table's players took their places: start it here."""
        here = self.here()
        if self.problem is not None or here is None:
            return None
        if self.seat_ids and len(here) > len(self.seat_ids):
            n, m = len(here), len(self.seat_ids)
            self.problem = tr(f"{n} joueurs ici, la table a {m} sièges", f"{n} players here, the table has {m} seats")
            self.joining.link.stop()
            return None
        if len(self.seats) < len(here):
            return None
        try:
            return StartGame(self.joining.request(tuple(self.seats)))
        except ValueError as exc:
            self.problem = Text(str(exc), str(exc))
            self.joining.link.stop()
            return None

    def frame(self, seat: int) -> Frame:
        """Every seat: the code, whether the host's game is coming, and who plays here."""
        shown = codes.shown(self.joining.code)
        here = self.here()
        lines: tuple[Text, ...]
        if self.problem is not None:
            lines = (tr("Impossible :", "Cannot join:"), self.problem,
                     tr("OK long : menu", "Hold OK: menu"))
        elif here is not None and len(here) > len(self.seats):
            lines = self._places(seat, here)
        elif self.joining.link.connected:
            lines = (tr("En attente de la", "Waiting for the"), tr("table hôte…", "host table…"),
                     tr("OK long : abandonner", "Hold OK: give up"))
        else:
            lines = (tr("Connexion…", "Connecting…"), tr("OK long : abandonner", "Hold OK: give up"))
        return Frame(Screen(tr(f"Partie {shown}", f"Game {shown}"), lines, icon="turn"))

    def _places(self, seat: int, here: list[int]) -> tuple[Text, ...]:
        """While players of this table still take their places: how many, and this seat's."""
        names = [player(g) for g in here]
        n, ready = len(here), len(self.seats)
        taken = tr(f"{n} joueurs ici : {ready} prêts", f"{n} players here: {ready} ready")
        who = tr(" ".join(n.fr for n in names), " ".join(n.en for n in names))
        if seat in self.seats:
            mine = player(here[self.seats.index(seat)])
            me = tr(f"Vous : {mine.fr}", f"You: {mine.en}") if seat == self.typist else \
                tr(f"Vous : {mine.fr} (OK : quitter)", f"You: {mine.en} (OK: leave)")
        else:
            me = tr("OK : jouer ici", "OK: play here")
        return (taken, who, me)

    def leds(self) -> dict[str, str]:
        """Nothing lit."""
        return {}

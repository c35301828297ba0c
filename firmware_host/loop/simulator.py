"""Hands on the simulated table: lay and lift tags, press seat buttons, read every screen.

Everything goes through the production path: tags are placed in the virtual reader controller
(bytes on a pseudo-terminal → our parser → the link → the runtime's queue), buttons are mock
gpiozero pins, screens are luma dummy devices.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from drivers.buttons import SimButtonPanel
from drivers.reader.virtual import wait_until
from firmware_host.apps.session import GameSession
from firmware_host.loop.runtime import Runtime
from firmware_host.loop.table import Table
from firmware_host.screens.frames import Frame
from firmware_host.storage.config import TableConfig, load_config
from firmware_host.storage.journal import Journal
from firmware_host.storage.tags import TagRegistry, all_game_pieces, normalise_uid, sim_registry

SYNC_TIMEOUT = 10.0
# the buttons' hold watch reads real time, whatever the table's clock: a short press of the
# simulator (press then release at once) must not read as a long one if the machine stalls the
# pressing thread, and a long press waits for the hold to be reported (never a fixed sleep)
SIM_HOLD_TIME = 0.5


class SimError(ValueError):
    """A simulator command that cannot be done: unknown zone, piece, seat or button."""


class FakeClock:
    """A clock that moves only when told (scripts and tests)."""

    def __init__(self, start: float = 1000.0):
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        """Move time forward."""
        if seconds < 0:
            raise SimError("time only moves forward")
        self.t += seconds


class SimTable:
    """A simulated table; `threaded=False` processes events synchronously (scripts, tests)."""

    def __init__(self, config: TableConfig | None = None, registry: TagRegistry | None = None, *,
                 clock: Callable[[], float] | None = None, seed: int = 0, journal: Journal | None = None,
                 hold_time: float = SIM_HOLD_TIME, threaded: bool = False, startup_notice: Any = None,
                 settings: Any = None):
        self.config = config or load_config(None)
        self.registry = registry or sim_registry(all_game_pieces())
        self.clock = clock or time.monotonic
        self.table = Table(self.config, self.registry, simulated=True, clock=self.clock, journal=journal,
                           seed=seed, hold_time=hold_time, startup_notice=startup_notice, settings=settings)
        self.runtime: Runtime = self.table.start()
        self.reader = self.table.sim_reader
        self.buttons = self.table.sim_buttons
        self.zones = self.config.zones
        self.threaded = threaded  # the runtime's own thread consumes the queue: only watch
        self.table.sync_screens = not threaded  # synchronous steps also wait for the screen writers

    def close(self) -> None:
        """Stop the link and the virtual controller."""
        self.table.close()

    # -- synchronisation (threaded=False) -------------------------------------------------------
    def pump(self, until: Callable[[], bool] | None = None, timeout: float = SYNC_TIMEOUT) -> bool:
        """Handle queued events until `until()` holds (or just once if None)."""
        def step() -> bool:
            if not self.threaded:
                self.runtime.drain()
                self.table.screens.flush()
            return until() if until is not None else True
        return wait_until(step, timeout)

    def wait_ready(self) -> bool:
        """Wait until the reader link is up and its inventory synced."""
        if self.threaded:  # the loop (or an enrolment) reads the queue: watch the link itself
            return wait_until(lambda: self.table.link.state.value == "ready", SYNC_TIMEOUT)
        return self.pump(lambda: self.runtime.reader_state == "ready")

    def settle(self) -> None:
        """Let the settle window pass (fake clock) and act on the sensed table."""
        if isinstance(self.clock, FakeClock):
            self.clock.advance(self.config.reader.settle + 0.01)
        else:
            time.sleep(self.config.reader.settle + 0.05)
        if not self.threaded:
            self.runtime.tick()
            self.table.screens.flush()

    # -- hands ----------------------------------------------------------------------------------
    def resolve_piece(self, name: str) -> str:
        """A UID for a piece id, a unique suffix of one ("white/lion/1") or a raw UID."""
        uid = self.registry.uid(name)
        if uid is not None:
            return uid
        game = self.runtime.app.game.id if isinstance(self.runtime.app, GameSession) else None
        matches = [p for _, p in self.registry if p.endswith("/" + name) or p == name]
        if len(matches) > 1 and game is not None:
            matches = [p for p in matches if p.startswith(game + "/")]
        if len(matches) == 1:
            return self.registry.uid(matches[0]) or ""
        if len(matches) > 1:
            raise SimError(f"{name!r} matches {len(matches)} pieces: {', '.join(matches[:4])}…")
        try:
            return normalise_uid(name)
        except ValueError:
            raise SimError(f"no piece {name!r} in the tag registry (and not a tag UID)") from None

    def antenna(self, zone: str) -> int:
        """The antenna of a zone name; SimError if the table has no such zone."""
        try:
            return self.zones[zone]
        except KeyError:
            raise SimError(f"no zone {zone!r} on this table (A1..F5, seatN.pad, centre.N)") from None

    def place(self, zone: str, piece: str, wait: bool = True) -> str:
        """Lay a tag on a zone; with `wait`, until the runtime has it. Returns the UID."""
        uid, ant = self.resolve_piece(piece), self.antenna(zone)
        self.reader.place(ant, uid)
        if wait and not self.pump(lambda: uid in self.runtime.raw.get(zone, ())):
            raise SimError(f"the table did not see {piece} on {zone} (reader {self.runtime.reader_state})")
        return uid

    def remove(self, zone: str, piece: str, wait: bool = True) -> str:
        """Lift a tag from a zone; with `wait`, until the runtime knows."""
        uid, ant = self.resolve_piece(piece), self.antenna(zone)
        self.reader.remove(ant, uid)
        if wait and not self.pump(lambda: uid not in self.runtime.raw.get(zone, ())):
            raise SimError(f"the table still sees {piece} on {zone}")
        return uid

    def press(self, seat: int, button: str = "ok") -> None:
        """A short press and release on a seat's button."""
        self._panel(seat, button).click(seat, button)
        self.pump()

    def long_press(self, seat: int, button: str = "ok") -> None:
        """Hold a seat's button past the long-press time, then release."""
        self._panel(seat, button).long_press(seat, button)
        self.pump()

    def _panel(self, seat: int, button: str) -> SimButtonPanel:
        """The simulated buttons, once `seat` and `button` are known to exist."""
        if seat not in self.runtime.seat_ids:
            raise SimError(f"no seat {seat} (seats {', '.join(map(str, self.runtime.seat_ids))})")
        if button not in ("left", "right", "ok"):
            raise SimError(f"no button {button!r} (left, right, ok)")
        if self.buttons is None:
            raise SimError("this table has no simulated buttons")
        return self.buttons

    # -- eyes -----------------------------------------------------------------------------------
    def frames(self) -> dict[int, Frame]:
        """Every seat's current frame, and those of the phone seats the game in play has."""
        app = self.runtime.app
        playing = set(app.seats) if isinstance(app, GameSession) else set()
        return {s: f for s, f in self.runtime.frames().items() if s in self.runtime.seat_ids or s in playing}

    def screens_text(self) -> dict[str, Any]:
        """Every seat's frame as text, in the table's language."""
        lang = self.runtime.language
        return {str(s): f.text(lang) for s, f in self.frames().items()}

    def status(self) -> dict[str, Any]:
        """App, game, seats to act, moves, outcome, public view and LEDs: a transcript entry."""
        from games.core import CHANCE, to_json

        app = self.runtime.app
        out: dict[str, Any] = {"app": type(app).__name__.replace("App", "").replace("GameSession", "game").lower(),
                               "reader": self.runtime.reader_state, "leds": dict(sorted(self.runtime.lit.items()))}
        if isinstance(app, GameSession):
            outcome = app.game.outcome(app.state)
            out.update({
                "game": app.game.id, "seats": list(app.seats),
                "to_act": sorted(t for s in app.game.to_act(app.state) if s != CHANCE
                                 and (t := app.seats[s]) is not None),
                "moves": len(app.moves), "outcome": None if outcome is None else outcome.to_json(),
                "public": to_json(app.game.view(app.state, None)),
            })
        return out

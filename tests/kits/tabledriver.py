"""Plays a whole game on the simulated table the way people would, and records it as a script.

Moves made by moving pieces are laid and lifted on the virtual reader controller (their footprint);
moves made with buttons are pressed on the seat's menu; when the table shows an instruction the
driver follows it. The recorded events can then be replayed through `zebra-table script`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from firmware_host.apps import reconcile
from firmware_host.apps.session import GameSession
from firmware_host.commands.script import ScriptRunner
from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.storage.journal import Journal
from games.core import CHANCE, Action, Game
from tests.kits import menus

Pick = Callable[[Game, Any, int, list[Action], random.Random], Action]


def uniform(game: Game, state: Any, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Any legal action."""
    return rng.choice(legal)


class Driver:
    """Drives a SimTable through a ScriptRunner, recording every event it sends."""

    def __init__(self, seed: int = 0, journal: Journal | None = None):
        self.clock = FakeClock()
        self.sim = SimTable(clock=self.clock, seed=seed, journal=journal)
        assert self.sim.wait_ready()
        self.sim.settle()
        self.runner = ScriptRunner(self.sim, self.clock)
        self.events: list[dict[str, Any]] = []
        self.rng = random.Random(seed)
        self.wrong_banner: Any = None
        self.expired = 0

    def close(self) -> None:
        self.sim.close()

    def send(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.runner.apply(event)

    @property
    def session(self) -> GameSession:
        app = self.sim.runtime.app
        assert isinstance(app, GameSession)
        return app

    def start(self, game: str, seats: list[int], options: dict[str, Any] | None = None, extra: int = 0) -> None:
        self.send({"start": {"game": game, "seats": seats, "options": options or {}, "extra": extra}})

    def follow_instruction(self) -> bool:
        """Do what the banner says (one fix); False if there is no instruction."""
        inst = self.session.instruction
        if inst is None:
            return False
        fix = inst.fix
        zone = self.session.to_physical(fix.zone)
        self.send({"remove" if fix.kind == "remove" else "place": zone, "piece": fix.piece})
        return True

    def do(self, seat: int, action: Action) -> None:
        """Make one action on the table: with the seat's buttons, or by moving pieces."""
        s = self.session
        table_seat = s.seats[seat]
        menu = menus.entries(s, seat)
        moves_before = len(s.moves)
        timer = next((t for t in s.timers if t.countdown.seat == seat and t.countdown.on_expire == action), None)
        if timer is not None:  # let the countdown run out rather than pressing
            self.expired += 1
            self.send({"advance": round(timer.deadline - self.clock() + 0.3, 2)})
        elif action in menu:
            # a message shows above the menu: the presses act (and dismiss it) as they come
            for _ in range(menu.index(action)):
                self.send({"press": table_seat, "button": "right"})
            self.send({"press": table_seat, "button": "ok"})
            if self.session.ui[seat].confirming is not None:  # an irrevocable choice: "Oui"
                self.send({"press": table_seat, "button": "right"})
                self.send({"press": table_seat, "button": "ok"})
        else:
            foot = reconcile.restrict(s.game.footprint(s.state, seat, action), s.logical_zones())
            todo = reconcile.fixes(foot, s.layout())
            assert todo, f"{action} changes nothing on the table and is not in seat {seat}'s menu"
            for i, fix in enumerate(todo):
                last = i == len(todo) - 1
                self.send({"remove" if fix.kind == "remove" else "place": s.to_physical(fix.zone),
                           "piece": fix.piece, "settle": last})
        assert len(self.session.moves) > moves_before, f"the table did not take {action}"

    def misplace(self, seat: int, action: Action, wrong_zone: str) -> bool:
        """Lay the action's piece on a wrong zone first, then follow the screen to fix it.

        `wrong_zone="auto"`: an empty zone where no legal action of the seat puts that piece.
        Returns False if there was no such zone.
        """
        s = self.session
        zones = s.logical_zones()
        foot = reconcile.restrict(s.game.footprint(s.state, seat, action), zones)
        places = [f for f in reconcile.fixes(foot, s.layout()) if f.kind == "place"]
        if not places:
            return False
        piece = places[0].piece
        if wrong_zone == "auto":
            legal_zones = set()
            for act in s.game.legal_actions(s.state, seat):
                for zone, pieces in reconcile.restrict(s.game.footprint(s.state, seat, act), zones).items():
                    if piece in pieces:
                        legal_zones.add(zone)
            layout = s.layout()
            free = sorted(z for z in zones if z not in legal_zones and not layout.get(z) and not z.startswith("pad."))
            if not free:
                return False
            wrong_zone = s.to_physical(free[0])
        moves = len(s.moves)
        self.send({"place": wrong_zone, "piece": piece})
        assert len(self.session.moves) == moves, "a misplaced piece was taken as a move"
        assert self.session.instruction is not None
        self.wrong_banner = self.sim.frames()[s.seats[seat]].banner
        while self.follow_instruction():
            pass
        return True

    def reachable(self, seat: int) -> list[Action]:
        """Legal actions a player can make on the table: in the seat's menu, or by moving pieces."""
        s = self.session
        menu = menus.entries(s, seat)
        zones = s.logical_zones()
        now = reconcile.restrict(s.layout(), zones)
        out = []
        for act in s.game.legal_actions(s.state, seat):
            if act in menu or reconcile.restrict(s.game.footprint(s.state, seat, act), zones) != now:
                out.append(act)
        assert out, f"seat {seat} has legal actions but none can be made on the table"
        return out

    def play(self, pick: Pick = uniform, max_steps: int = 2000,
             misplace_at: int | None = None, wrong_zone: str | None = None,
             each: Callable[[], None] | None = None) -> None:
        """Play until the outcome; optionally misplace one piece at step `misplace_at`.

        `each` runs before every step (e.g. to let observers catch up with every move)."""
        for step in range(max_steps):
            s = self.session
            if s.over:
                return
            if each is not None:
                each()
            if self.follow_instruction():
                continue
            if s.timers and self.rng.random() < 0.5:  # nobody answers in time
                self.expired += 1
                self.send({"advance": round(min(t.deadline for t in s.timers) - self.clock() + 0.3, 2)})
                continue
            seats = sorted(x for x in s.game.to_act(s.state) if x != CHANCE and s.seats[x] is not None)
            assert seats, "no seated player to act and no outcome"
            seat = self.rng.choice(seats)
            action = pick(s.game, s.state, seat, self.reachable(seat), self.rng)
            if misplace_at is not None and step >= misplace_at and wrong_zone is not None \
                    and action not in menus.entries(s, seat):
                if self.misplace(seat, action, wrong_zone):
                    misplace_at = None
            self.do(seat, action)
        raise AssertionError("no outcome")

    def script_text(self) -> str:
        return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in self.events)

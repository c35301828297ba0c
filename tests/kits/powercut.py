"""Power cuts during whole games: the real runtime, session and journal over a disk that loses
what was not synced (tests/crashdisk.py). Shared by tests/test_powercut.py and bench/bench_powercut.py.

A game is played on the runtime (its journal keeper, the real `Journal` on an apsw connection to
the crash disk) through the table's own entry points: every move is made as people make it,
button events (`ButtonEvent`) and sensed tags (`TagChange`) handed to `Runtime.handle`, the end of
each settle window to `Runtime.tick` (what the loop calls when nothing arrives). So the journal
keeper holds an event's moves and commits them before anything is shown, as on the table. The
screens are a recorder that notes, at each frame sent, how many moves the game shows: a move is
acknowledged once a screen showed it. At a random I/O operation the power
goes; the disk keeps what was synced and a random part of the rest (torn sectors included). Then
the table "boots" on what survived: it opens the journal, resumes the unfinished game, and the
checks are:
- every acknowledged move is in the journal (none lost);
- the journal's moves are exactly the first moves played (nothing garbled, nothing invented);
- the resumed state equals the independent replay of the journaled moves;
then the game goes on from there until its end, with more cuts on the way.
"""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import firmware_host.storage.journal as journal_mod
from drivers.buttons import ButtonEvent
from firmware_host.apps import reconcile
from firmware_host.apps.app import StartRequest
from firmware_host.apps.session import GameSession
from firmware_host.commands.script import state_digest
from firmware_host.loop.events import TagChange
from firmware_host.loop.runtime import Runtime
from firmware_host.storage.config import load_config
from firmware_host.storage.journal import Journal
from firmware_host.storage.journal_errors import JournalError
from firmware_host.storage.journal_keeper import JournalKeeper
from firmware_host.storage.tags import all_game_pieces, sim_registry, sim_uid
from games.core import CHANCE, replay
from games.registry import get_game
from tests.kits import menus
from tests.kits.crashdisk import CrashDisk, PowerCut
from tests.kits.faultkit import CASES, GameCase, purposeful

PATH = "/table/journal.sqlite"
BROKEN = ("sync-off", "sync-normal", "state-before-commit")


class Screens:
    """The runtime's outputs: notes how many moves were on the screens when a frame was sent."""

    def __init__(self) -> None:
        self.runtime: Runtime | None = None
        self.shown_moves = 0

    def show(self, seat: int, frame: Any) -> None:
        app = self.runtime.app if self.runtime is not None else None
        if isinstance(app, GameSession):
            self.shown_moves = max(self.shown_moves, len(app.moves))

    def leds(self, zones: Any) -> None:
        pass

    def cue(self, name: str) -> None:
        pass


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


@dataclass
class Report:
    """What a series of cut games found."""

    figures: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def add(self, other: Report) -> None:
        self.figures.update(other.figures)
        self.problems.extend(other.problems)


@contextmanager
def broken(kind: str | None) -> Iterator[None]:
    """A deliberately wrong journal: commits not synced, or an event's moves shown before they are
    committed (the keeper commits what it holds only when the next event begins: after the
    frames of this one were sent)."""
    saved = journal_mod.SYNCHRONOUS, JournalKeeper.hold, JournalKeeper.release
    try:
        if kind == "sync-off":
            journal_mod.SYNCHRONOUS = "OFF"
        elif kind == "sync-normal":
            journal_mod.SYNCHRONOUS = "NORMAL"
        elif kind == "state-before-commit":
            hold, release = JournalKeeper.hold, JournalKeeper.release

            def hold_late(self: JournalKeeper) -> None:
                if self.__dict__.pop("late", False):
                    release(self)  # the last event's moves, committed only now
                hold(self)

            def release_late(self: JournalKeeper) -> None:
                self.__dict__["late"] = True

            JournalKeeper.hold = hold_late  # type: ignore[method-assign]
            JournalKeeper.release = release_late  # type: ignore[method-assign]
        elif kind is not None:
            raise ValueError(kind)
        yield
    finally:
        journal_mod.SYNCHRONOUS, JournalKeeper.hold, JournalKeeper.release = saved


class CutGame:
    """One game played to its end through power cuts."""

    def __init__(self, case: GameCase, seed: int, span: int, stop_on_problem: bool = False):
        self.stop_on_problem = stop_on_problem
        self.case = case
        self.rng = random.Random(seed)
        self.disk = CrashDisk(random.Random(seed + 1))
        self.span = span  # a cut comes within this many I/O operations
        self.game = get_game(case.game)
        self.registry = sim_registry(all_game_pieces())
        self.config = load_config(None)
        self.report = Report()
        # every move handed to the journal, in order (the one being committed when the power goes
        # may or may not survive: the journal must hold a prefix of these)
        self.played: list[tuple[int, Any]] = []
        self.acked = 0  # moves a screen showed
        self.started = False  # the game's start was shown
        self.jid: int | None = None

    def problem(self, text: str) -> None:
        self.report.problems.append(f"{self.case.game} cut {self.report.figures['cuts']}: {text}")

    def boot(self) -> tuple[Runtime, Screens] | None:
        """Open the journal on what survived and resume (None if the power went again meanwhile)."""
        self.disk.boot()
        self.disk.cut_at = self.disk.ops + self.rng.randint(1, self.span)
        screens = Screens()
        try:
            journal = Journal(PATH, connect=self.disk.connect, exists=self.disk.exists)
            self.alive()
            runtime = Runtime(self.config, self.registry, screens, Clock(), auto_chance=True,
                              seed=self.case.seed, journal=journal)
            screens.runtime = runtime
            keeper_move = runtime.keeper.move

            def move(seat: int, action: Any) -> None:
                self.played.append((seat, action))
                keeper_move(seat, action)

            runtime.keeper.move = move  # type: ignore[method-assign]
            rec = journal.unfinished()
            if rec is None and self.started:
                if self.jid is not None and journal.record(self.jid).status == "finished":
                    return runtime, screens
                self.problem("the game whose start was shown is gone")
                return None
            if rec is None:
                runtime.start(StartRequest(self.case.game, self.case.seats, dict(self.case.options)))
                runtime.refresh()
                self.alive()
                self.started = True
                self.jid = runtime.journal_id
                return runtime, screens
            self.check(rec)
            runtime.start(StartRequest(rec.game, tuple(rec.seats), resume=rec.id))  # type: ignore[arg-type]
            runtime.refresh()
            self.alive()
            session = runtime.app
            assert isinstance(session, GameSession)
            # resuming may draw chance events at once: the journaled moves come first
            if session.moves[:len(rec.moves)] != [(x, y) for x, y in rec.moves] or \
                    state_digest(session.state) != state_digest(replay(self.game, rec.config, session.moves)):
                self.problem("the resumed state differs from the replay of the journal")
            self.report.figures["resumes"] += 1
            return runtime, screens
        except PowerCut:
            self.report.figures["cuts"] += 1
            self.report.figures["cuts_while_booting"] += 1
            gc.collect()
            return None
        except JournalError as exc:
            self.report.figures["journal_damaged"] += 1
            self.problem(f"journal unusable after the cut: {exc}")
            return None

    def alive(self) -> None:
        """A cut that SQLite reported as an I/O error (apsw could not pass PowerCut up) is a cut too."""
        if self.disk.dead:
            raise PowerCut("the power went during the last step")

    def check(self, rec: Any) -> None:
        """The journal after a cut against what the screens acknowledged and what was played."""
        self.started = True  # its start survived, whether or not a screen showed it before the cut
        if self.jid is not None and rec.id != self.jid:
            self.problem(f"game {rec.id} is offered, not the game in play ({self.jid})")
        self.jid = rec.id
        moves = [(s, a) for s, a in rec.moves]
        if len(moves) < self.acked:
            self.report.figures["acked_moves_lost"] += self.acked - len(moves)
            self.problem(f"{self.acked - len(moves)} acknowledged move(s) lost ({len(moves)}/{self.acked})")
        if moves != self.played[:len(moves)]:
            self.report.figures["garbled"] += 1
            self.problem("the journal's moves are not the moves played")
        self.played = moves  # the table goes on from what survived
        self.acked = len(moves)

    def play(self) -> None:
        """Play to the end, cutting the power on the way; each boot checks the journal."""
        try:
            self._play()
        finally:
            self.report.figures.update(self.disk.stats)
            self.disk.retire()

    def _play(self) -> None:
        for _ in range(10_000):
            booted = self.boot()
            if booted is None:
                if self.report.problems:
                    return
                continue
            if self.stop_on_problem and self.report.problems:
                return
            runtime, screens = booted
            try:
                if self._until_the_end(runtime, screens):
                    self.report.figures["games"] += 1
                    return
            except PowerCut:
                self.report.figures["cuts"] += 1
                self.acked = max(self.acked, screens.shown_moves)
                if runtime.keeper.journal is not None:  # the dead process's handle: reaches nothing
                    runtime.keeper.journal._close_quietly()
                del runtime, screens
                gc.collect()  # every connection of the dead process is gone before the next boot
        self.problem("the game never ended")

    def _until_the_end(self, runtime: Runtime, screens: Screens) -> bool:
        session = runtime.app
        if not isinstance(session, GameSession):
            return True  # finished before the cut
        for _ in range(5000):
            self.acked = max(self.acked, screens.shown_moves)
            if session.over:
                runtime.tick()  # the end is written
                self.disk.cut_at = None
                runtime.keeper.close()
                final = Journal(PATH, connect=self.disk.connect, exists=self.disk.exists).record(self.jid)
                if [(s, a) for s, a in final.moves] != session.moves or final.status != "finished":
                    self.problem("the finished game is not journaled whole")
                return True
            if session.instruction is not None:  # a player does what the screens say
                fix = session.instruction.fix
                self._sense(runtime, session, [fix])
                continue
            seats = sorted(s for s in self.game.to_act(session.state) if s != CHANCE)
            seat = self.rng.choice(seats)
            legal = reachable(session, seat)
            if not legal and session.timers:  # only a countdown can move the game: let it run out
                clock = runtime.clock
                assert isinstance(clock, Clock)
                clock.t = max(clock.t, min(t.deadline for t in session.timers)) + 0.01
                runtime.tick()
                self.alive()
                continue
            if not legal:
                self.problem(f"seat {seat} has legal actions but none can be made at the table")
                return False
            before = len(session.moves)
            self._make(runtime, session, seat, purposeful(self.game, session.state, seat, legal, self.rng))
            self.alive()
            if len(session.moves) == before:
                self.problem(f"the table did not take seat {seat}'s move")
                return False
            self.report.figures["moves"] += 1
        return False

    def _make(self, runtime: Runtime, session: GameSession, seat: int, action: Any) -> None:
        """One move as people make it: on the seat's menu with its buttons, or with pieces."""
        table_seat = session.seats[seat]
        assert table_seat is not None
        menu = menus.entries(session, seat)
        if action in menu:
            for _ in range(menu.index(action)):
                self._press(runtime, table_seat, "right")
            self._press(runtime, table_seat, "ok")
            if session.ui[seat].confirming is not None:  # an irrevocable choice: "Oui"
                self._press(runtime, table_seat, "right")
                self._press(runtime, table_seat, "ok")
            return
        foot = reconcile.restrict(session.game.footprint(session.state, seat, action), session.logical_zones())
        self._sense(runtime, session, reconcile.fixes(foot, session.layout()))

    def _press(self, runtime: Runtime, table_seat: int, button: str) -> None:
        """A click: press and release (OK acts on release), each one event of the loop."""
        clock = runtime.clock
        assert isinstance(clock, Clock)
        for kind in ("press", "release"):
            clock.t += 0.05
            runtime.handle(ButtonEvent(table_seat, button, kind, clock.t))
            self.alive()

    def _sense(self, runtime: Runtime, session: GameSession, fixes: list[Any]) -> None:
        """Pieces laid and lifted on the reader, then the settle window's end (the loop's tick)."""
        clock = runtime.clock
        assert isinstance(clock, Clock)
        for fix in fixes:
            zone = session.to_physical(fix.zone)
            assert zone is not None
            runtime.handle(TagChange(zone, sim_uid(fix.piece), fix.kind == "place"))
        clock.t += runtime.table.reader.settle + 0.01
        runtime.tick()
        self.alive()


def reachable(session: GameSession, seat: int) -> list[Any]:
    """The seat's legal actions a player can make at the table: in its menu, or with pieces."""
    menu = menus.entries(session, seat)
    zones = session.logical_zones()
    now = reconcile.restrict(session.layout(), zones)
    return [a for a in session.game.legal_actions(session.state, seat)
            if a in menu or reconcile.restrict(session.game.footprint(session.state, seat, a), zones) != now]


def run(cases: tuple[GameCase, ...] = CASES, games_per_case: int = 1, span: int = 60, seed: int = 0,
        kind: str | None = None, min_cuts: int = 0) -> Report:
    """Play each case `games_per_case` times through power cuts (and more until `min_cuts`)."""
    report = Report()
    with broken(kind):
        n = 0
        while n < games_per_case or report.figures["cuts"] < min_cuts:
            for i, case in enumerate(cases):
                game = CutGame(case, seed * 1000 + n * 10 + i, span, stop_on_problem=kind is not None)
                game.play()
                report.add(game.report)
            n += 1
            if n > 1000:
                break
    return report

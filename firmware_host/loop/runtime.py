"""The table's one event loop: hardware events in, frames, LEDs and sounds out.

Every hardware callback (gpiozero threads, the reader link thread) only puts an event on
`Runtime.queue`; everything else happens on the loop's thread, so apps need no locks.
Time comes from an injectable clock: tests and `zebra-table script` drive a fake one.
"""

from __future__ import annotations

import logging
import queue
import random
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from drivers.buttons import ButtonEvent, MenuExpectation
from firmware_host.apps.app import (
    BUTTONS,
    TEST_APP,
    AbandonUnfinished,
    App,
    BackToMenu,
    GameOver,
    JoinRemote,
    LeaveGame,
    SetLanguage,
    StartGame,
    StartRequest,
    Transition,
    Unfinished,
)
from firmware_host.apps.computer import ProcessThinker, Thinker
from firmware_host.apps.menu import MenuApp
from firmware_host.apps.phones import phone_seat_ids
from firmware_host.apps.session import GameSession
from firmware_host.apps.testapp import TestApp
from firmware_host.loop.collector import idle_collect
from firmware_host.loop.events import Outputs, ReaderStatus, Snapshot, Stop, TagChange, Thought
from firmware_host.loop.opening import fresh, resumed
from firmware_host.loop.output import Output
from firmware_host.loop.presses import Presses
from firmware_host.screens import layout
from firmware_host.screens.frames import Frame
from firmware_host.storage.config import TableConfig
from firmware_host.storage.journal import Journal
from firmware_host.storage.journal_keeper import JournalKeeper
from firmware_host.storage.settings import load_language, save_language
from firmware_host.storage.tags import TagRegistry
from games.core import Text, tr
from games.registry import get_game

log = logging.getLogger(__name__)
IDLE_INTERVAL = 0.1  # seconds between on_idle calls while events keep coming
SENDING_POLL = 0.002  # seconds between looks at the screens' sends before the idle work starts

ALERT_SECONDS = 5.0  # a journal message covers every screen this long (a press clears it)
UNHEALTHY_FAILURES = 5  # consecutive failed loop passes: the loop is no longer making progress
INTERNAL_ERROR = tr("Erreur interne : retour au menu", "Internal error: back to the menu")


class Runtime:
    """Feeds events to the current app (menu, table test or game) and refreshes outputs."""

    def __init__(self, table: TableConfig, registry: TagRegistry, outputs: Outputs,
                 clock: Callable[[], float] = time.monotonic, auto_chance: bool = False,
                 seed: int | None = None, journal: Journal | None = None,
                 startup_notice: Text | None = None, journal_opener: Callable[[], Journal] | None = None,
                 settings: Path | None = None):
        self.table = table
        self.registry = registry
        self.clock = clock
        self.auto_chance = auto_chance
        self.rng = random.Random(seed)
        self.journal = journal
        self.keeper = JournalKeeper(journal, clock, journal_opener)
        self.alerts: dict[int, tuple[Text, float]] = {}  # table seat -> journal message, until
        self.failures = 0  # consecutive loop passes that raised
        self.errors = 0  # every loop pass that raised
        self.queue: queue.SimpleQueue[object] = queue.SimpleQueue()  # C-implemented: the hot path of every event
        self.seat_ids = tuple(s.id for s in table.seats)
        # a quarter-turned screen's image size, per table seat (asked for every scrolling seat at every pass)
        self._turned = {s.id: (layout.SIZE[1], layout.SIZE[0]) for s in table.seats
                        if s.screen is not None and s.screen.rotation % 2}
        self.phone_ids = phone_seat_ids(self.seat_ids)  # seats played on a phone (web pages on)
        self.output = Output(outputs, self.seat_ids, clock, self.screen_size)
        self.raw: dict[str, set[str]] = {}
        self.settled: dict[str, frozenset[str]] = {}
        self.settle_deadline: float | None = None
        self._settling: dict[str, frozenset[str]] | None = None  # the raw layout, made once per change
        self.reader_state = "connecting"
        self.presses = Presses(clock)
        self.strangers: set[tuple[str, str]] = set()  # named on the screens: (zone, uid)
        self.events = 0
        self.started_game: str | None = None
        # the web pages: told after each refresh (must never block), and the seats' phone links
        self.observer: Callable[[Runtime], None] | None = None
        self.phone_link: Callable[[int], str] | None = None
        # the seats' language: the players' last choice in the menu, else the config's
        self.settings = settings
        self.language = load_language(settings) or table.language
        # the web pages' language, once they are on (the config's): a game's frames are read in it too
        self.page_language: str | None = None
        menu = self._menu()
        if startup_notice is not None:
            menu.notice = startup_notice
        self.app: App = menu
        self.pending: list[Transition] = []  # what the app asked, carried out at the end of the pass
        if hasattr(outputs, "language"):
            outputs.language = self.language
        # the computer players' thinking: a worker process started with the first computer game
        # (tests and scripts set an InlineThinker: reproducible, and the script waits for it)
        self.thinker: Thinker | None = None
        self.remote_game: Any = None  # the game with another table, if any (firmware_host/remote/play.py)

    @property
    def outputs(self) -> Outputs:
        """Where frames, LEDs and sounds go (the web pages put themselves in between)."""
        return self.output.outputs

    @outputs.setter
    def outputs(self, outputs: Outputs) -> None:
        self.output.outputs = outputs

    @property
    def shown(self) -> dict[int, Frame]:
        """The frame each screen was last sent."""
        return self.output.shown

    @property
    def refused(self) -> Mapping[int, int]:
        """Per seat, the OKs its page sent that chose nothing (the menu had changed under it)."""
        return self.presses.refused

    @property
    def lit(self) -> dict[str, str]:
        """The LEDs as last sent."""
        return self.output.lit

    def screen_size(self, seat_id: int) -> tuple[int, int]:
        """The image size of a table seat's screen (64x128 when mounted a quarter-turn)."""
        return self._turned.get(seat_id, layout.SIZE)

    # -- input ---------------------------------------------------------------------------------
    def post(self, event: object) -> None:
        """Thread-safe: queue an event for the loop."""
        self.queue.put(event)

    @property
    def journal_id(self) -> int | None:
        """The journal id of the game in play (None: none, or not written yet)."""
        return self.keeper.game.jid if self.keeper.game is not None else None

    @property
    def healthy(self) -> bool:
        """False once several loop passes in a row failed: the watchdog must stop being pinged."""
        return self.failures < UNHEALTHY_FAILURES

    def handle(self, event: object) -> None:
        """Process one event on the loop thread (also used directly by scripts and tests).

        Never raises: an app that fails is logged, the table returns to the menu and says so.
        """
        self.events += 1
        if type(event) is TagChange:  # the most frequent event by far: a burst of tags
            zone = self.raw.setdefault(event.zone, set())
            (zone.add if event.present else zone.discard)(event.uid)
            self._unsettled()
            return
        self.keeper.hold()  # the event's moves are committed together, before refresh shows them
        try:
            self._handle(event)
        except Exception:  # the table must keep answering
            self._recover(f"event {type(event).__name__}")
            return
        finally:
            self.keeper.release()
        self.failures = 0

    def _handle(self, event: object) -> None:
        if isinstance(event, ButtonEvent):
            self._press(event)
        elif isinstance(event, TagChange):
            zone = self.raw.setdefault(event.zone, set())
            (zone.add if event.present else zone.discard)(event.uid)
            self._unsettled()
            return
        elif isinstance(event, Snapshot):
            self.raw = {z: set(u) for z, u in event.zones.items()}
            self._unsettled()
            return
        elif isinstance(event, MenuExpectation):
            self.presses.expect(event.seat, event.label)
            return
        elif isinstance(event, ReaderStatus):
            if event.state != self.reader_state:
                log.info("reader %s %s", event.state, event.reason)
            self.reader_state = event.state
        self._tick()

    def _recover(self, where: str) -> None:
        """An app raised: log it, go back to a fresh menu saying so (a game stays resumable)."""
        self.failures += 1
        self.errors += 1
        app = self.app
        log.exception("%s failed in %s: back to the menu", where, type(app).__name__)
        self.keeper.release()  # the moves taken before the failure stand: the game resumes with them
        self.keeper.detach()  # a game stays "playing" in the journal: the menu offers to resume it
        self.pending.clear()  # the failed app's requests go with it
        try:
            menu = self._menu()
        except Exception:
            log.exception("the menu itself failed")
            menu = MenuApp(self.seat_ids)
        menu.notice = INTERNAL_ERROR
        self.app = menu
        try:
            self.refresh()
        except Exception:
            log.exception("refresh after recovery failed")

    def _unsettled(self) -> None:
        """A raw sensed change: (re)start the settle window. Nothing the players see can change
        before it ends, so no frame is computed unless other work (a countdown, a banner) is due."""
        now = self.clock()
        self.settle_deadline = now + self.table.reader.settle
        self._settling = None
        due = self.app.next_deadline()
        if due is not None and due <= now:
            self.tick()

    def _press(self, ev: ButtonEvent) -> None:
        if ev.seat not in self.seat_ids and ev.seat not in self.output.phone_ids:
            log.warning("button event from unknown seat %s", ev.seat)
            return
        button = BUTTONS.get(ev.button)
        if button is None:
            log.warning("unknown button %r on seat %s", ev.button, ev.seat)
            return
        if ev.seat in self.alerts and ev.kind == "press":
            del self.alerts[ev.seat]  # a journal message covers the screen: a press only clears it
            self.presses.forget(ev.seat)
            return
        refused = self.presses.refused
        kind = self.presses.read(ev.seat, button, ev.kind, self.app.frame)
        if self.presses.refused is not refused:  # a page's OK that chose nothing: its count shows
            self.refresh()
        if kind is None:
            return
        self._asked(self.app.on_button(ev.seat, button, kind))
        for cue in self.app.take_cues():  # a press sounds at once (its tick, before what follows)
            self.outputs.cue(cue)

    def _asked(self, transition: Transition | None) -> None:
        if transition is not None:
            self.pending.append(transition)

    def tick(self) -> None:
        """Time-driven work: settle windows, countdowns, banners, app switches; then refresh."""
        self.keeper.hold()
        try:
            self._tick()
        except Exception:  # the table must keep answering
            self._recover("tick")
            return
        finally:
            self.keeper.release()
        self.failures = 0

    def _tick(self) -> None:
        now = self.clock()
        recoveries = self.keeper.recoveries
        self.keeper.tick()
        if self.keeper.recoveries != recoveries:  # the journal is back: an unfinished game can be offered
            self.app.on_journal_back(self._unfinished)
        if self.settle_deadline is not None and now >= self.settle_deadline:
            self.settle_deadline = None
            self.settled = {z: frozenset(u) for z, u in self.raw.items() if u}
            self._asked(self.app.on_sensed(self.settled))
        self._asked(self.app.on_time())
        self._switch()
        self.keeper.release()  # before the alerts: a journal that failed to commit says so now
        self._take_alerts()
        self.refresh()

    def _take_alerts(self) -> None:
        if self.keeper.alerts:
            until = self.clock() + ALERT_SECONDS
            for text in self.keeper.alerts:
                log.warning("journal: %s", text.en)
            for sid in (*self.seat_ids, *self.output.phone_ids):
                self.alerts[sid] = (self.keeper.alerts[-1], until)
            self.keeper.alerts.clear()
        now = self.clock()
        for sid in [s for s, (_, until) in self.alerts.items() if until <= now]:
            del self.alerts[sid]

    def set_language(self, language: str) -> None:
        """Show every screen in `language` from now on, and keep the choice (if there is a file)."""
        if language == self.language:
            return
        self.language = language
        if hasattr(self.outputs, "language"):
            self.outputs.language = language
        self.shown.clear()  # every screen is drawn again in the new language
        save_language(self.settings, language)

    def _switch(self) -> None:
        """Carry out what the app asked during this pass, in order."""
        asked, self.pending = self.pending, []
        for transition in asked:
            match transition:
                case SetLanguage(language):
                    self.set_language(language)
                case StartGame(request):
                    self.start(request)
                case AbandonUnfinished(jid):
                    self.keeper.abandon(jid)
                case GameOver(outcome):
                    self.keeper.end(outcome)
                case LeaveGame(game_id, moves):
                    log.info("game %s left after %d moves", game_id, moves)
                    self.keeper.end(None, "abandoned")
                    self.app = self._menu()
                case BackToMenu():
                    self.app = self._menu()
                case JoinRemote(code, seats):
                    self._join_remote(code, seats)

    def _join_remote(self, code: str, seats: tuple[int, ...]) -> None:
        """Connect to the remote game of `code`; the host's game starts here once it arrives."""
        if self.table.remote is None:
            menu = self._menu()
            menu.message = tr("Pas de [remote] dans la configuration", "No [remote] in the config")
            self.app = menu
            return
        from firmware_host.remote.play import JoiningApp

        self.app = JoiningApp(self, self.table.remote, code, seats)

    def _unfinished(self) -> Unfinished | None:
        """The journal's unfinished game, if any."""
        rec = self.keeper.unfinished()
        return None if rec is None else Unfinished(rec.id, rec.game, rec.seats, rec.remote is not None)

    def _menu(self) -> MenuApp:
        menu = MenuApp(self.seat_ids, language=self.language, phone_ids=self.phone_ids)
        menu.phone_link = self.phone_link
        menu.unfinished = self._unfinished()
        menu.remote_ready = self.table.remote is not None and self.table.remote.enabled
        return menu

    def start(self, request: StartRequest) -> None:
        """Start the test app or a game on the requested seats."""
        if self.pending:
            # what the leaving app asked comes first (a script's or a remote host's start does not
            # wait for the end of the pass): a game it saw end is written as that game's end, not
            # as the end of the game started here
            self._switch()
        if request.game_id == TEST_APP:
            self.app = TestApp(self.seat_ids, self.registry)
            self._asked(self.app.begin(self.settled))
            return
        if self.remote_game is not None:  # the last remote game's link leaves the broker
            self.remote_game.link.stop()
            self.remote_game = None
        game = get_game(request.game_id)
        if request.resume is not None:
            rec = self.keeper.record(request.resume)
            if rec is None:
                raise RuntimeError(f"game {request.resume} cannot be read from the journal")
            try:
                opening = resumed(game, rec, self.table.remote)
            except ValueError as exc:  # never played here alone: the menu says why and keeps it
                log.warning("game %s not resumed: %s", rec.id, exc)
                menu = self._menu()
                menu.message = tr("Partie à distance : pas de [remote] dans la configuration",
                                  "Remote game: no [remote] in the config")
                self.app = menu
                return
            self.keeper.resume(rec)
        else:
            seed = self.rng.randrange(2**31) if request.seed is None else request.seed
            opening = fresh(game, request, seed, self.table.remote)
            self.keeper.start(game.id, opening.config, opening.seats, opening.computers, opening.hints,
                              remote=None if opening.remote is None else opening.remote.journaled(opening.seats))
        session = GameSession(game, opening.config, opening.seats, self.registry, set(self.table.zones),
                              self.clock, self.auto_chance, state=opening.state, moves=opening.moves,
                              history=opening.history)
        session.restore_countdowns(opening.effects)
        session.recorder = self.keeper.move  # journal first: a power cut never loses a shown move
        session.lang = self.language
        session.also_lang = self.page_language
        session.sizes = {sid: self.screen_size(sid) for sid in self.seat_ids}
        session.named = self.strangers
        if opening.computers:
            session.set_computers(opening.computers, opening.hints)
            if self.thinker is None:
                self.thinker = ProcessThinker(self.table.think_seconds)
            session.computers.thinker = self.thinker
            session.computers.wake = lambda: self.post(Thought())
        if opening.remote is not None:  # before the game is shown: its remote seats are never played here
            self.remote_game = opening.remote.attach(self, session)
        self.app = session
        self.started_game = game.id
        self._asked(session.begin(self.settled))

    def next_deadline(self) -> float | None:
        """When the loop must wake up even without events."""
        due = self.settle_deadline
        for _, until in self.alerts.values():
            if due is None or until < due:
                due = until
        if self.keeper.problem is not None and (due is None or self.keeper.next_retry < due):
            due = self.keeper.next_retry
        step = self.output.next_scroll()  # the next sideways step of a highlighted entry
        if step is not None and (due is None or step < due):
            due = step
        d = self.app.next_deadline()
        if d is not None and (due is None or d < due):
            due = d
        return due

    # -- output --------------------------------------------------------------------------------
    def frames(self) -> dict[int, Frame]:
        """Every table seat's current frame."""
        return self.output.frames(self.app, self.reader_state == "ready", self.alerts, self.language)

    def leds(self) -> dict[str, str]:
        """Physical zone -> colour for the current app."""
        return self.app.leds()

    def refresh(self) -> None:
        """Send only the frames and LEDs that changed; play the cues the app asked for."""
        self.keeper.release()  # journal first: nothing is shown that a power cut could take back
        self.output.refresh(self.app, self.frames)
        if self.observer is not None:
            self.observer(self)

    # -- the loop ------------------------------------------------------------------------------
    def run(self, on_idle: Callable[[], None] | None = None, max_wait: float = 0.5) -> None:
        """Process events until a Stop event arrives; `on_idle` (screen retries, the watchdog) runs at
        least every `max_wait` s, and not more than every IDLE_INTERVAL s during a burst of events."""
        self.refresh()
        idle_at = time.monotonic()
        while True:
            deadline = self.next_deadline()
            wait = max_wait if deadline is None else min(max_wait, max(0.0, deadline - self.clock()))
            # the frames first: the game's idle work would hold the interpreter their sends need
            sending = self.output.sending()
            polled = sending and wait > SENDING_POLL  # the wait cut short only to look at the sends again
            if sending:
                wait = min(wait, SENDING_POLL)
            if (deadline is None or wait > 0) and self.queue.empty() and self.prepare(app=not sending):
                continue  # idle: the game worked out its next matching; now wait for events
            try:
                event = self.queue.get(timeout=wait)
            except queue.Empty:
                event = None
            if isinstance(event, Stop):
                return
            if event is None:
                if not polled:
                    self.tick()  # never raises: a failing app is replaced by the menu
            else:
                self.handle(event)
            if on_idle is not None and time.monotonic() - idle_at >= min(IDLE_INTERVAL, max_wait):
                on_idle()
                idle_at = time.monotonic()

    def prepare(self, app: bool = True) -> bool:
        """Idle work that makes the next event cheaper (the game's matching of the next move; not
        with `app` False). True if there was some; the loop calls it only with an empty queue and
        nothing due. The journal's checkpoint after a game boundary and Python's garbage
        collections are done here too, off the events' path (firmware_host.loop.collector)."""
        return self.keeper.tidy() or (app and self._prepare_app()) or idle_collect()

    def _prepare_app(self) -> bool:
        settling = None
        if self.settle_deadline is not None:  # the layout about to settle: the move it shows, worked out now
            if self._settling is None:
                self._settling = {z: frozenset(u) for z, u in self.raw.items() if u}
            settling = self._settling
        try:
            return self.app.prepare(settling)
        except Exception:  # only a head start: the next event does it again, or says what failed
            log.exception("preparing the next move")
            return False

    def close(self) -> None:
        """Stop the computer players' worker, if one was started."""
        if self.thinker is not None:
            self.thinker.close()

    def drain(self) -> int:
        """Handle every queued event now (scripts, tests); returns how many."""
        n = 0
        while True:
            try:
                event = self.queue.get_nowait()
            except queue.Empty:
                return n
            if not isinstance(event, Stop):
                self.handle(event)
                n += 1

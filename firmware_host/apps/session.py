"""A game in progress on the table: the engine's state, the moves applied to it and what they show,
countdowns, and table seats mapped to game seats. Knows table seats, never raw hardware.

It owns its parts: the sensed table read against the game (TableReading), the seats' menus
(SessionMenu), their frames and the LEDs (SeatFrames), each seat's SeatUI, the computer players
(ComputerSeats) and the undo conversation (Undo); each part reaches back through a protocol of
its own."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from firmware_host.apps import reconcile
from firmware_host.apps.app import Button, GameOver, PressKind, Sensed, Transition, Unfinished
from firmware_host.apps.computer_seats import ComputerSeats
from firmware_host.apps.entries import MenuEntry
from firmware_host.apps.foresight import Foresight
from firmware_host.apps.reconcile import Instruction, Refusal, Stranger
from firmware_host.apps.seat_frames import AWAITING_REVEAL, SeatFrames
from firmware_host.apps.seat_ui import SeatUI
from firmware_host.apps.session_menu import SessionMenu
from firmware_host.apps.state_answers import now
from firmware_host.apps.state_memo import StateMemo
from firmware_host.apps.table_draws import table_draw
from firmware_host.apps.table_reading import TableReading
from firmware_host.apps.undo import Undo, UndoRequest, player, undo_entry
from firmware_host.screens import layout
from firmware_host.screens.frames import Frame
from firmware_host.storage.tags import TagRegistry
from games.core import CHANCE, Action, Countdown, Effect, Game, GameConfig, IllegalAction, Outcome, Text, tr

log = logging.getLogger(__name__)

Recorder = Callable[[int, Action], None]  # called BEFORE an action's effects are shown
T = TypeVar("T")
_OUTCOME, _EXPECTED, _WAITING, _TO_ACT = ("outcome",), ("expected",), ("waiting_for",), ("to_act",)  # memo keys


@dataclass
class Timer:
    """A countdown running: its expiry action is applied at `deadline` if still legal."""

    deadline: float
    countdown: Countdown


class GameSession:
    """One game on chosen table seats. Game seat i plays at table seat `seats[i]`.

    A `None` entry is a player without a seat (Opération Zèbre with 9-12 players on an 8-seat
    table): the game counts them, the table shows them nothing and senses nothing of theirs.
    """

    needs_reader: ClassVar[bool] = True

    def __init__(self, game: Game[Any, Any], config: GameConfig, seats: tuple[int | None, ...], registry: TagRegistry,
                 zones: set[str], clock: Callable[[], float], auto_chance: bool,
                 recorder: Recorder | None = None,
                 state: Any = None, moves: list[tuple[int, Action]] | None = None,
                 history: list[tuple[int, Action]] | None = None):
        self.game = game
        self.config = game.validate_config(config)
        self.seats = seats
        self.registry = registry
        self.zones = zones  # physical zones the table has
        self.clock = clock
        self.auto_chance = auto_chance
        self.recorder = recorder
        self.state = state if state is not None else game.initial_state(self.config)
        self.moves: list[tuple[int, Action]] = list(moves or [])
        # every journaled entry, undos included (the journal's numbering); `moves` is what stands
        self.history: list[tuple[int, Action]] = list(history if history is not None else self.moves)
        # the moves are the game's from its start (not a state handed in without them)
        self.whole_history = state is None or bool(self.history)
        self.computers = ComputerSeats(self)
        self.remote: Any = None  # the seats played at another table (firmware_host/remote/seats.py)
        self.undo = Undo()
        self.ui = [SeatUI() for _ in seats]  # per game seat
        self.lang = "fr"  # the table's language: pages depend on the text's length
        self.also_lang: str | None = None  # the web pages' language, once they are on (read beside `lang`)
        self.sizes: dict[int, tuple[int, int]] = {}  # table seat -> screen size (quarter-turned: 64x128)
        self.timers: list[Timer] = []
        # strangers already named (zone, uid): the runtime's, shared by the games of a table
        self.named: set[tuple[str, str]] = set()
        self.cues: list[str] = []  # buzzer cues for the runtime to play
        self._memo = StateMemo()
        self._logical_zones: set[str] | None = None
        self._over_told = False
        self._warmed = False  # Game.warm called
        self.table = TableReading(self)
        self.menus = SessionMenu(self)
        self.frames = SeatFrames(self)
        self.foresight = Foresight(self)  # the move under a cursor, worked out while it is read
        self._memo.ahead = self.foresight.answers  # a new state's answers worked out while its move was read

    def set_computers(self, levels: Mapping[int, str], hints: bool) -> None:
        """Which game seats the computer plays, at which level, and whether hints are allowed."""
        self.computers.set(levels, hints)
        self._logical_zones = None  # a computer's pad is never sensed
        self.table.forget()

    def humans(self) -> list[int]:
        """The seated human game seats."""
        return [x for x, t in enumerate(self.seats) if t is not None and x not in self.computers.seats]

    def of_state(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        """`compute()` for the current state, computed once per state (states are immutable)."""
        memo = self._memo  # a known answer read without StateMemo.get's call: several a frame
        known = memo.values.get(key, memo) if memo.state is self.state else memo
        return memo.get(self.state, key, compute) if known is memo else known  # type: ignore[return-value]

    def known(self, key: tuple[Any, ...]) -> bool:
        """True when `key` was computed for the current state."""
        return self._memo.has(self.state, key)

    # -- the App protocol (table seats) ----------------------------------------------------------
    def begin(self, sensed: Sensed) -> Transition | None:
        """The game is on the table: read it, and let a computer play first (or again, after a resume)."""
        self.sense(sensed)
        self.computers.step()
        if self.remote is not None:
            return self.remote.step() or self._told()  # the other table agreed to leave: the game ends
        return self._told()

    def on_button(self, seat: int, button: Button, kind: PressKind) -> Transition | None:
        """A table seat's button: its game seat's (a seat not in the game is ignored); a tick sounds."""
        gseat = self.game_seat(seat)
        if gseat is None:
            return None
        mark = len(self.cues)
        done = self.press(gseat, button, kind)
        if kind == "press":
            self.cues.insert(mark, "tick")  # before what the press itself sounds
        return done or self._told()

    def on_sensed(self, sensed: Sensed) -> Transition | None:
        """A settled layout: match an action or guide; a stranger is named when it arrives."""
        strangers = self.sense(sensed)
        # named when it arrives, not again at every settled change while it lies there
        new = [s for s in strangers if (s.zone, s.uid) not in self.named]
        self.named.clear()
        self.named.update((s.zone, s.uid) for s in strangers)
        # all of them in one notice per seat concerned, at once (over an instruction); what lies on
        # the table is for every eye
        for gseat, text in reconcile.stranger_notices(new, self.seats, self.humans()).items():
            self.notify(frozenset({gseat}), text, first=True, public=True, urgent=True)
        for s in new:
            log.warning("stranger tag %s (%s) on %s", s.uid, s.piece or "unknown", s.zone)
        return self._told()

    def on_time(self) -> Transition | None:
        """Banners and countdowns whose time has come; the computer players' decisions."""
        self.expire()
        self.computers.step()
        if self.remote is not None:
            return self.remote.step() or self._told()  # the other table agreed to leave: the game ends
        return self._told()

    def on_journal_back(self, unfinished: Callable[[], Unfinished | None]) -> None:
        """A game in play offers no other."""

    def frame(self, seat: int) -> Frame:
        """Table seat `seat`'s screen: its game seat's, or the game's name for a seat not in it."""
        seats = self.seats  # game_seat, inlined: asked of every table seat at every refresh
        return self.seat_frame(seats.index(seat)) if seat in seats else self.frames.idle_frame()

    def take_cues(self) -> list[str]:
        """The sounds asked since the last call, in order."""
        cues, self.cues = self.cues, []
        return cues

    def prepare(self, settling: Sensed | None = None) -> bool:
        """Idle time: work out now what the next piece moved will be matched against (the table is
        waiting for a player, often for seconds), and the move about to be made (`settling`: the
        layout a settle window will give), so the table answers sooner. True if there was
        something to do. A computer's move still being put in words goes on first."""
        return self.computers.work() or self.table.prepare() or self._warm() or self.foresight.prepare(
            None if settling is None else self.table.laid(settling))

    def _warm(self) -> bool:
        """The game's reads once per process (`Game.warm`), once the table is idle with nothing
        more urgent to work out."""
        if self._warmed:
            return False
        self._warmed = True
        self.game.warm()
        return True

    def _told(self) -> Transition | None:
        """GameOver, the first time the game is seen over."""
        if self._over_told or not self.over or self.stand_ins(self.state):
            return None
        self._over_told = True
        outcome = self.game.outcome(self.state)
        return GameOver(None if outcome is None else outcome.to_json())

    # -- zone mapping --------------------------------------------------------------------------
    def to_physical(self, zone: str) -> str | None:
        """Logical game zone -> physical table zone ("pad.1" -> "seat3.pad"); None: no such pad."""
        if zone.startswith("pad."):
            table_seat = self.seats[int(zone[4:])]
            # a computer's pad is not sensed, even at a table seat: its cards exist only in the table
            physical = f"seat{table_seat}.pad"  # a phone seat has none
            return None if table_seat is None or int(zone[4:]) in self.computers.seats \
                or physical not in self.zones else physical
        return zone

    def to_logical(self, zone: str) -> str | None:
        """Physical zone -> logical game zone, None for the pad of a seat not playing."""
        if zone.startswith("seat") and zone.endswith(".pad"):
            seat_id = int(zone[4:-4])
            if seat_id not in self.seats or self.seats.index(seat_id) in self.computers.seats:
                return None
            return f"pad.{self.seats.index(seat_id)}"
        return zone

    def logical_zones(self) -> set[str]:
        """The game zones this table can sense."""
        if self._logical_zones is None:  # seats and zones never change during a game
            self._logical_zones = {z for z in (self.to_logical(p) for p in self.zones) if z is not None}
        return self._logical_zones

    def expected(self) -> dict[str, Any]:
        """The game's expected layout, restricted to the zones this table senses."""
        return self.of_state(_EXPECTED, lambda: now(self, _EXPECTED))

    def game_seat(self, table_seat: int) -> int | None:
        """The game seat playing at a table seat, or None."""
        return self.seats.index(table_seat) if table_seat in self.seats else None

    # -- engine --------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the game has an outcome."""
        return self.of_state(_OUTCOME, self._outcome) is not None  # no new lambda: asked several times a frame

    def _outcome(self) -> Outcome | None:
        return now(self, _OUTCOME)  # type: ignore[no-any-return]

    def apply(self, seat: int, action: Action, quiet: bool = False) -> bool:
        """Check, record, apply one action and show its effects; False (with a notice) if refused.
        `quiet`: a move the seats were already shown, laid again (a remote game's moves told again):
        its messages and cues are not given again."""
        try:
            step = self.foresight.step(self.state, seat, action)
        except IllegalAction as exc:
            if seat != CHANCE:
                self.notify(frozenset({seat}), exc.rejection.message)
                self.cues.append("error")
            # the action's type only: its fields may hold a secret (the card a seat laid)
            log.info("refused %s for seat %s: %s", action.get("type"), seat, exc.code)
            return False
        gesture = None
        if seat in self.computers.seats:  # what a human must lay for it: its own gesture, not its effects
            try:
                gesture = (seat, reconcile.restrict(self.game.footprint(self.state, seat, action),
                                                    self.logical_zones()))
            except Exception:  # a rules bug must not freeze the table: the move is laid without its name
                log.error("%s: footprint of a %r action failed", self.game.id, action.get("type"), exc_info=True)
        if self.recorder is not None:
            self.recorder(seat, action)  # journal first: a power cut never loses a shown move
        # a reveal made here on the stand-ins of another table's cards is not said: the real one comes
        quiet = quiet or self.stand_ins(step.state)
        waiting = self.humans_waited_for()
        self.state = step.state
        self.moves.append((seat, action))
        self.history.append((seat, action))
        self.table.moved(gesture)
        self.undo.void(self.notify)  # the game moved on: the undo asked is void
        for ui in self.ui:
            ui.moved_on()  # the state moved on: a pending question is stale
        for effect in step.effects:
            self._effect(effect, quiet)
        if quiet:
            return True
        if self.over:
            self.cues.append("win")
        elif self.humans_waited_for() - waiting:  # someone's turn begins: the "your turn" cue
            self.cues.append("turn")
        return True

    def humans_waited_for(self) -> frozenset[int]:
        """Seated human players the game waits for, as the whole table may hear it (the cue)."""
        return self._humans(self.of_state(_WAITING, lambda: now(self, _WAITING)))

    def humans_to_act(self) -> frozenset[int]:
        """Seated human players the game waits for now."""
        return self._humans(self.to_act())  # once per state: to_act can be costly

    def _humans(self, seats: frozenset[int]) -> frozenset[int]:
        return frozenset(s for s in seats if s != CHANCE and s not in self.computers.seats
                         and 0 <= s < len(self.seats) and self.seats[s] is not None)

    def _effect(self, effect: Effect, quiet: bool = False) -> None:
        if isinstance(effect, Countdown):
            self.timers.append(Timer(self.clock() + effect.seconds, effect))
        if (effect.text.fr or effect.text.en) and not quiet:
            self.notify(effect.audience, effect.text)

    def notify(self, audience: frozenset[int] | None, text: Text, first: bool = False,
               public: bool = False, urgent: bool = False) -> None:
        """Queue a transient message for game seats (None = every player); `first`: before the
        messages already waiting (it is about what the player just did); `public`: every seat may
        read it, whatever its audience; `urgent`: shown even over an instruction."""
        targets = range(len(self.seats)) if audience is None else [s for s in audience if 0 <= s < len(self.seats)]
        # a computer's table seat has a screen everyone reads: it shows only what every seat is
        # told, never a message for its eyes only (its deal, its draws, its guesses)
        public = public or audience is None or audience >= frozenset(range(len(self.seats)))
        if self.computers.words.hold(audience, text, first, public, urgent):
            return  # it waits behind a computer's move still being put in words: the seats read them in order
        for s in targets:
            if s in self.computers.seats and not public or self.seats[s] is None:  # no screen reads it
                continue
            self.ui[s].notify(text, self.clock(), first, urgent)

    def run_chance(self) -> None:
        """Apply the chance outcomes the table draws itself (table_draws.py: those no piece shows;
        all of them in the simulator), until the game waits for something else."""
        for _ in range(10_000):
            draw = table_draw(self)
            if draw is None:
                return
            self.apply(CHANCE, draw)

    # -- table events --------------------------------------------------------------------------
    def sense(self, sensed: Sensed) -> list[Stranger]:
        """A settled layout (physical zone -> UIDs): match an action or guide. Returns strangers."""
        return self.table.sense(sensed)

    def layout(self) -> dict[str, frozenset[str]]:
        """This game's pieces as sensed, in logical zones."""
        return self.table.layout()

    def footprints(self) -> list[tuple[int, Action, dict[str, frozenset[str]]]]:
        """Every legal action of the seats to act with its footprint on the sensed zones."""
        return self.table.footprints()

    def reconcile(self) -> None:
        """Apply the one action the table shows, or set the next instruction."""
        self.table.reconcile()

    @property
    def sensed(self) -> dict[str, frozenset[str]]:
        """Physical zone -> UIDs, last settled."""
        return self.table.sensed

    @property
    def strangers(self) -> list[Stranger]:
        """Tags of no piece of this game, last settled."""
        return self.table.strangers

    @property
    def instruction(self) -> Instruction | None:
        """The one fix the table asks for now."""
        return self.table.instruction

    @property
    def reason(self) -> Refusal | None:
        """Why the gesture behind the instruction was refused."""
        return self.table.reason

    @property
    def synced(self) -> bool:
        """True once the table matched the game since the last action."""
        return self.table.synced

    def to_act(self) -> frozenset[int]:
        """The seats to act in the current state (CHANCE included)."""
        return self.of_state(_TO_ACT, lambda: now(self, _TO_ACT))

    # -- a game seat's buttons and menu ----------------------------------------------------------
    def press(self, seat: int, button: Button, kind: PressKind) -> Transition | None:
        """A game seat's button event: move the cursor, choose, or quit (long press on OK)."""
        return self.menus.press(seat, button, kind)

    def menu(self, seat: int) -> list[MenuEntry]:
        """The seat's current button menu."""
        return self.menus.entries(seat)

    # -- undo ------------------------------------------------------------------------------------
    def take_back(self, req: UndoRequest, tell: bool = True) -> None:
        """Take the moves from the request's cut on back: journal it, recompute, guide the pieces;
        `tell`: say so on the screens (not when the moves are laid again at once, in another order)."""
        entry = undo_entry(req.cut)
        if self.recorder is not None:
            self.recorder(req.by, entry)  # journal first, like every move
        self.history.append((req.by, entry))
        del self.moves[req.cut:]
        state = self.game.initial_state(self.config)
        effects: list[Any] = []
        for who, act in self.moves:
            step = self.game.apply(state, who, act)
            state, effects = step.state, [*effects, *step.effects]
        self.state = state
        self.timers = []
        self.restore_countdowns(effects)
        self.computers.words.taken_back()  # a move taken back is never said; what waited behind it is
        self.table.moved()  # the pieces must be put back before a sensed change is a move again
        for ui in self.ui:
            ui.moved_on()
        if not tell:
            self.reconcile()
            return
        # the move is named to its author only: to the others it may be a secret (a card laid face down)
        self.notify(frozenset({req.by}), tr(f"Coup annulé : {req.what.fr}", f"Move taken back: {req.what.en}"))
        name = player(req.by)
        others = frozenset(x for x in range(len(self.seats)) if x != req.by)
        self.notify(others, tr(f"Dernier coup de {name.fr} annulé", f"{name.en}'s last move taken back"))
        self.reconcile()

    # -- time ------------------------------------------------------------------------------------
    def restore_countdowns(self, effects: list[Effect]) -> None:
        """After a resume: restart, in full, each countdown whose expiry action is still pending."""
        latest: dict[tuple[int, str], Countdown] = {}
        for effect in effects:
            if isinstance(effect, Countdown):
                latest[(effect.seat, json.dumps(dict(effect.on_expire), sort_keys=True))] = effect
        for cd in latest.values():
            if self.game.check(self.state, cd.seat, cd.on_expire) is None:
                self.timers.append(Timer(self.clock() + cd.seconds, cd))

    def next_deadline(self) -> float | None:
        """The next moment something changes by itself (a countdown, a banner ending)."""
        # asked twice per event, a burst of tags included: no lists
        best: float | None = None
        for t in self.timers:
            if best is None or t.deadline < best:
                best = t.deadline
        for ui in self.ui:
            change = ui.notices[0].next_change(self.clock()) if ui.notices else None
            if change is not None and (best is None or change < best):
                best = change
        if self.timers:
            bar = self.clock() + 0.25  # countdown bars move
            best = bar if best is None or bar < best else best
        return best

    def expire(self) -> None:
        """Expire banners and countdowns whose time has come."""
        now = self.clock()
        instruction = self.table.instruction
        covered = instruction.audience if instruction is not None else frozenset()
        for seat, ui in enumerate(self.ui):
            ui.expire(now, seat in covered)  # an instruction hides the messages: they wait to be read
        due = [t for t in self.timers if t.deadline <= now]
        self.timers = [t for t in self.timers if t.deadline > now]
        for t in due:
            cd = t.countdown
            self.cues.append("countdown_end")
            if self.game.check(self.state, cd.seat, cd.on_expire) is None:
                self.apply(cd.seat, cd.on_expire)
                self.reconcile()

    # -- a game seat's screen, the LEDs ----------------------------------------------------------
    def size(self, seat: int) -> tuple[int, int]:
        """The screen size of a game seat (128x64 unless its screen is mounted a quarter-turn)."""
        table_seat = self.seats[seat]
        return self.sizes.get(table_seat, layout.SIZE) if table_seat is not None else layout.SIZE

    def seat_frame(self, seat: int) -> Frame:
        """Game seat `seat`'s screen: the game's under banners, questions and menu (or a reveal awaited)."""
        if self.stand_ins(self.state):
            return AWAITING_REVEAL
        return self.frames.seat_frame(seat)

    def stand_ins(self, state: Any) -> bool:
        """True when `state` reveals a turn on the stand-ins of the other table's cards (remote/seats_sealed.py)."""
        return self.remote is not None and bool(self.remote.ahead(state))

    def idle_frame(self) -> Frame:
        """What a seat not in this game shows."""
        return self.frames.idle_frame()

    def leds(self) -> dict[str, str]:
        """Physical zone -> colour: the zone to fix, else the game's hints (while a reveal is
        awaited, only the pieces of other games: the rest would be the stand-ins' turn)."""
        return self.frames.strangers() if self.stand_ins(self.state) else self.frames.leds()

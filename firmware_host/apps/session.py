"""A game in progress on the table: feeds sensed layouts and button choices to the engine and
turns its state into per-seat frames and LEDs. Knows table seats, never raw hardware.

Each game seat's screen and buttons are a SeatUI; the computer players are a ComputerSeats and
the undo conversation an Undo, all owned here."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from firmware_host.apps import reconcile
from firmware_host.apps.app import Button, GameOver, LeaveGame, PressKind, Sensed, Transition, Unfinished
from firmware_host.apps.computer_seats import HINT, ComputerSeats, computer_name
from firmware_host.apps.copies import Copies
from firmware_host.apps.reconcile import Fix, Instruction, Refusal
from firmware_host.apps.seat_ui import SeatUI, shown_status
from firmware_host.apps.undo import Undo, UndoRequest, player, undo_entry
from firmware_host.screens import layout
from firmware_host.screens.frames import Frame, blank_frame, zone_label
from firmware_host.storage.tags import TagRegistry
from games import howto
from games.core import (
    CHANCE,
    Action,
    Choice,
    Countdown,
    Effect,
    Game,
    GameConfig,
    IllegalAction,
    Screen,
    Text,
    essential,
    tr,
)
from games.playout import sample_chance

log = logging.getLogger(__name__)

Recorder = Callable[[int, Action], None]  # called BEFORE an action's effects are shown
UNDO_CHOICES = ("_undo_yes", "_undo_no", "_undo_cancel")
LEAVE_CHOICES = ("_leave_yes", "_leave_no", "_leave_cancel")
T = TypeVar("T")
Layout = dict[str, frozenset[str]]
Read = tuple[Layout, Layout, list[reconcile.Stranger]]  # (layout, on the zones sensed, strangers)


@dataclass
class Timer:
    """A countdown running: its expiry action is applied at `deadline` if still legal."""

    deadline: float
    countdown: Countdown


class StateMemo:
    """What the game's pure functions answered for one state (states are immutable): frames are
    recomputed at every event, the engine only when the state changed."""

    def __init__(self) -> None:
        self.state: Any = None
        self.values: dict[tuple[Any, ...], Any] = {}

    def get(self, state: Any, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        """`compute()` for `state`, computed once."""
        if self.state is not state:
            self.state, self.values = state, {}
        try:
            known: T = self.values[key]
            return known
        except KeyError:
            value = self.values[key] = compute()
            return value

    def has(self, state: Any, key: tuple[Any, ...]) -> bool:
        """True when `key` was computed for `state`."""
        return self.state is state and key in self.values


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
        self.undo = Undo()
        # a request to quit (asker, the other human players still to agree): one press never ends
        # a game for the others
        self.leaving: tuple[int, set[int]] | None = None
        self.ui = [SeatUI() for _ in seats]  # per game seat
        self.lang = "fr"  # the table's language: pages depend on the text's length
        self.sizes: dict[int, tuple[int, int]] = {}  # table seat -> screen size (quarter-turned: 64x128)
        self.timers: list[Timer] = []
        self.sensed: dict[str, frozenset[str]] = {}  # physical zone -> UIDs, last settled
        self.strangers: list[reconcile.Stranger] = []  # tags of no piece of this game, last settled
        # strangers already named (zone, uid): the runtime's, shared by the games of a table
        self.named: set[tuple[str, str]] = set()
        self.instruction: Instruction | None = None
        self.copies = Copies()  # identical cards laid for one another
        # why the game refused the gesture behind the current instruction, shown with that
        # instruction on that seat's screen only, and gone with it
        self.reason: Refusal | None = None
        # a sensed change is read as a move only once the table matched the game since the last
        # action: otherwise a piece that must leave (a scared gazelle) could count as a new move
        self.synced = False
        # the sensed layout when the table last matched the game: a zone sensed as it was then has
        # seen no gesture (what the game wants there is a move still to be laid, a computer's)
        self.matched: dict[str, frozenset[str]] | None = None
        self.cues: list[str] = []  # buzzer cues for the runtime to play
        self._memo = StateMemo()
        self._logical_zones: set[str] | None = None
        self._layout: tuple[Layout, Read] | None = None  # (sensed it was read from, _read())
        self._idle: Frame | None = None
        self._leds: tuple[tuple[Any, ...], dict[str, str]] | None = None  # (what they were made of, LEDs)
        self._prepared: tuple[Any, bool] | None = None  # (state, synced) last prepared for
        self._over_told = False

    def set_computers(self, levels: Mapping[int, str], hints: bool) -> None:
        """Which game seats the computer plays, at which level, and whether hints are allowed."""
        self.computers.set(levels, hints)
        self._logical_zones = None  # a computer's pad is never sensed
        self._layout = None

    def humans(self) -> list[int]:
        """The seated human game seats."""
        return [x for x, t in enumerate(self.seats) if t is not None and x not in self.computers.seats]

    def _of_state(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        """`compute()` for the current state, computed once per state (states are immutable)."""
        return self._memo.get(self.state, key, compute)

    # -- the App protocol (table seats) ----------------------------------------------------------
    def begin(self, sensed: Sensed) -> Transition | None:
        """The game is on the table: read it, and let a computer play first (or again, after a resume)."""
        self.sense(sensed)
        self.computers.step()
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
        return self._told()

    def on_journal_back(self, unfinished: Callable[[], Unfinished | None]) -> None:
        """A game in play offers no other."""

    def frame(self, seat: int) -> Frame:
        """Table seat `seat`'s screen: its game seat's, or the game's name for a seat not in it."""
        gseat = self.game_seat(seat)
        return self.seat_frame(gseat) if gseat is not None else self.idle_frame()

    def take_cues(self) -> list[str]:
        """The sounds asked since the last call, in order."""
        cues, self.cues = self.cues, []
        return cues

    def prepare(self) -> bool:
        """Idle time: work out now what the next piece moved will be matched against (the table is
        waiting for a player, often for seconds), so the table answers that move sooner. True if
        there was something to do."""
        done = self._prepared
        if done is not None and done[0] is self.state and done[1] == self.synced:
            return False  # nothing new since the last time (a burst of raw tags changes neither)
        self._prepared = (self.state, self.synced)
        if not self.synced or self.over:
            return False
        if self._memo.has(self.state, ("footprints", CHANCE in self.to_act() and not self.auto_chance)):
            return False
        self.footprints()
        return True

    def _told(self) -> Transition | None:
        """GameOver, the first time the game is seen over."""
        if self._over_told or not self.over:
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
            return None if table_seat is None or int(zone[4:]) in self.computers.seats else f"seat{table_seat}.pad"
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
        return self._of_state(("expected",), lambda: reconcile.restrict(self.game.expected_layout(self.state),
                                                                         self.logical_zones()))

    def game_seat(self, table_seat: int) -> int | None:
        """The game seat playing at a table seat, or None."""
        return self.seats.index(table_seat) if table_seat in self.seats else None

    # -- engine --------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the game has an outcome."""
        return self._of_state(("outcome",), lambda: self.game.outcome(self.state)) is not None

    def apply(self, seat: int, action: Action) -> bool:
        """Check, record, apply one action and show its effects; False (with a notice) if refused."""
        try:
            step = self.game.apply(self.state, seat, action)
        except IllegalAction as exc:
            if seat != CHANCE:
                self.notify(frozenset({seat}), exc.rejection.message)
                self.cues.append("error")
            # the action's type only: its fields may hold a secret (the card a seat laid)
            log.info("refused %s for seat %s: %s", action.get("type"), seat, exc.code)
            return False
        if self.recorder is not None:
            self.recorder(seat, action)  # journal first: a power cut never loses a shown move
        waiting = self.humans_waited_for()
        self.state = step.state
        self.moves.append((seat, action))
        self.history.append((seat, action))
        self.synced = False
        self.undo.void(self.notify)  # the game moved on: the undo asked is void
        for ui in self.ui:
            ui.moved_on()  # the state moved on: a pending question is stale
        for effect in step.effects:
            self._effect(effect)
        if self.over:
            self.cues.append("win")
        elif self.humans_waited_for() - waiting:  # someone's turn begins: the "your turn" cue
            self.cues.append("turn")
        return True

    def humans_waited_for(self) -> frozenset[int]:
        """Seated human players the game waits for, as the whole table may hear it (the cue)."""
        return frozenset(s for s in self._of_state(("waiting_for",), lambda: self.game.waiting_for(self.state))
                         if s != CHANCE and s not in self.computers.seats and 0 <= s < len(self.seats)
                         and self.seats[s] is not None)

    def humans_to_act(self) -> frozenset[int]:
        """Seated human players the game waits for now."""
        return frozenset(s for s in self.to_act()  # once per state: to_act can be costly
                         if s != CHANCE and s not in self.computers.seats and 0 <= s < len(self.seats)
                         and self.seats[s] is not None)

    def _effect(self, effect: Effect) -> None:
        if isinstance(effect, Countdown):
            self.timers.append(Timer(self.clock() + effect.seconds, effect))
        if effect.text.fr or effect.text.en:
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
        for s in targets:
            if s in self.computers.seats and not public or self.seats[s] is None:  # no screen reads it
                continue
            self.ui[s].notify(text, self.clock(), first, urgent)

    def run_chance(self) -> None:
        """Sample chance events the table cannot sense (all of them in the simulator).

        On a real table a chance event whose outcomes differ by the pieces they put on the table
        (a card dealt onto a pad) is left for the table to sense; one that no piece shows (an
        ÉCHEC card, a shuffle) is drawn by the table itself.
        """
        for _ in range(10_000):
            if CHANCE not in self.to_act() or self.over:
                return
            if not self.auto_chance and self.chance_visible():
                return
            # each draw depends on (seed, move number) only: a resumed game draws as it would have
            rng = random.Random(f"{self.config.seed}/{len(self.moves)}")
            self.apply(CHANCE, sample_chance(self.game, self.state, rng))

    def chance_visible(self) -> bool:
        """True if the pending chance outcomes can be told apart by what the table senses."""
        zones = self.logical_zones()
        now = self.expected()
        for act, _ in self.game.chance_outcomes(self.state):
            if reconcile.restrict(self.game.footprint(self.state, CHANCE, act), zones) != now:
                return True
        return False

    # -- table events --------------------------------------------------------------------------
    def sense(self, sensed: Sensed) -> list[reconcile.Stranger]:
        """A settled layout (physical zone -> UIDs): match an action or guide. Returns strangers."""
        self.sensed = dict(sensed)
        self.strangers = self._read()[2]
        self.reconcile()
        return self.strangers

    def layout(self) -> dict[str, frozenset[str]]:
        """This game's pieces as sensed, in logical zones."""
        return self._read()[0]

    def _read(self) -> Read:
        """The sensed tags read once per settled change: (layout, layout on the zones the game
        senses, strangers)."""
        if self._layout is not None and self._layout[0] is self.sensed:
            return self._layout[1]
        pieces, strangers = reconcile.classify(self.sensed, self.registry, self.game.id)
        out: dict[str, frozenset[str]] = {}
        for zone, ps in self.copies.read(pieces).items():
            logical = self.to_logical(zone)
            if logical is not None:
                out[logical] = ps
        read = (out, reconcile.restrict(out, self.logical_zones()), strangers)
        self._layout = (self.sensed, read)
        return read

    def footprints(self) -> list[tuple[int, Action, dict[str, frozenset[str]]]]:
        """Every legal action of the seats to act (sensed chance outcomes included) with its
        footprint on the sensed zones: what a settled change is matched against."""
        chance_sensed = CHANCE in self.to_act() and not self.auto_chance
        return self._of_state(("footprints", chance_sensed), lambda: reconcile.footprints(
            self.game, self.state, self.logical_zones(), chance_sensed))

    def to_act(self) -> frozenset[int]:
        """The seats to act in the current state (CHANCE included)."""
        return self._of_state(("to_act",), lambda: self.game.to_act(self.state))

    def reconcile(self) -> None:
        """Apply the one action the table shows, or set the next instruction."""
        for _ in range(100):  # each round applies one action; a game never chains 100
            self.run_chance()
            if self.over:  # an ended game asks nothing more of the table
                self.instruction = self.reason = None
                return
            target = self._read()[1]
            if target == self.expected():
                self.instruction = None
                self.reason = None
                self.synced = True
                self.matched = target
                return
            if not self.synced:
                break
            found = [(seat, act) for seat, act, foot in self.footprints() if foot == target]
            if len(found) == 1:
                if not self.apply(*found[0]):
                    break
                self.matched = target  # the table as that move left it: a gesture, not a mistake
                continue
            break
        self._set_instruction()

    def _set_instruction(self) -> None:
        if self.copies.take(self.game, self.state, self.expected(), self._read()[1]):
            self._layout = None  # a copy laid for the other: read the table again
            self.reconcile()
            return
        todo = reconcile.fixes(self.expected(), self._read()[1])
        if not todo:
            self.instruction = None
            self.reason = None
            return
        fix = todo[0]
        physical = self.to_physical(fix.zone)
        if physical is None:  # a seatless player's pad cannot hold anything: nothing to guide
            self.instruction = None
            self.reason = None
            return
        audience = self._audience(physical)
        # a pad instruction is read by its owner only: "votre plateau"
        owner = self.seats[next(iter(audience))] if len(audience) == 1 else None
        text = reconcile.instruction(self.game, fix, zone_label(physical, owner))
        if self.instruction is None or self.instruction.fix != fix:  # a new mistake: its own reason
            self.reason = self._refusal(fix)
            if self.reason is not None:
                self.cues.append("error")
        self.instruction = Instruction(fix, audience, text)

    def _refusal(self, fix: Fix) -> Refusal | None:
        """Why the gesture behind `fix` is refused, and the seat it concerns (None: no reason)."""
        why = reconcile.refusal(self.game, self.state, fix)
        # a computer's reason (and whether it has one) comes from its secret cards: while only
        # computers are to act, any gesture is answered alike, by whose turn it is (`_why`)
        if why is not None and why.seat not in self.computers.seats:
            return why
        waiting = sorted(s for s in self.to_act() if s in self.computers.seats)
        if waiting and not self.humans_to_act():
            now = self._read()[1].get(fix.zone, frozenset())
            if self.matched is not None and now == self.matched.get(fix.zone, frozenset()):
                return None  # nothing moved there since the table matched: a move still to be laid
            name = computer_name(waiting[0])
            turn = tr(f"C'est à {name.fr} de jouer.", f"It is {name.en}'s turn.")
            return Refusal(waiting[0], turn, "computer_to_play")
        return None

    def _audience(self, physical_zone: str) -> frozenset[int]:
        """Who sees an instruction about a zone: the pad's owner, else every player."""
        logical = self.to_logical(physical_zone)
        if logical is not None and logical.startswith("pad."):
            return frozenset({int(logical[4:])})
        return frozenset(s for s, t in enumerate(self.seats) if t is not None)


    # -- a game seat's buttons -------------------------------------------------------------------
    def press(self, seat: int, button: Button, kind: PressKind) -> Transition | None:
        """A game seat's button event: move the cursor, choose, or quit (long press on OK)."""
        ui = self.ui[seat]
        if seat in self.computers.seats and not (kind == "long" and button == "ok"):
            return None  # a computer's seat: its buttons only quit the game (a long press), like any seat's
        if kind == "long" and button == "ok":
            ui.toggle_quit()
            return None
        if kind != "press":
            return None
        if ui.howto is not None:  # reading how to play: ◀ ▶ turn the pages, OK goes back
            ui.turn_howto(button, len(howto.pages(self.game)))
            return None
        if ui.dismiss(self.clock()):  # a message on screen: its next part, or gone
            # with a menu the message sits above it (Frame.status): the menu was in view, so the
            # press also acts; without one (or under an instruction) the press only clears it
            covered = self.instruction is not None and seat in self.instruction.audience
            if covered or not self.menu(seat):
                return None
        if button in ("left", "right"):
            # ◀ ▶ walk the menu entries, then the pages the lines overflow onto
            frame = self.seat_frame(seat)
            p = layout.plan(frame.screen, self.lang, frame.menu, frame.cursor, None, self.size(seat), frame.page, 0,
                            frame.status)
            ui.cursor, ui.page = layout.navigate(p, ui.cursor, -1 if button == "left" else 1)
            return None
        entries = self.menu(seat)
        if button == "ok" and ui.page:
            ui.page = 0  # OK on an extra page goes back to the menu: it never chooses unseen
            return None
        if entries and button == "ok":
            return self._choose(seat, entries[min(ui.cursor, len(entries) - 1)])
        return None

    def _choose(self, seat: int, choice: Choice) -> Transition | None:
        """A seat chose a menu entry: act on it (a table entry, a question, or the game's action)."""
        ui = self.ui[seat]
        kind = choice.action.get("type")
        if kind == "_undo_ask":
            self._ask_undo(seat)
        elif kind in UNDO_CHOICES:
            agreed = self.undo.answer(seat, kind, self.notify)
            if agreed is not None:
                self._take_back(agreed)
        elif kind == HINT:
            self.computers.ask_hint(seat)
        elif kind in ("_cancel", "_confirm"):
            asked, ui.confirming = ui.confirming, None
            if kind == "_confirm" and asked is not None and self.apply(seat, asked.action):
                self.reconcile()
        elif choice.confirm is not None:
            ui.confirming = choice
            ui.home()  # "Non" first: a slip of the finger changes nothing
        elif kind == "_resume":
            ui.quit_prompt = False
        elif kind == "_howto":
            ui.quit_prompt = False
            ui.howto = 0
        elif kind == "_quit":
            return self._ask_leave(seat)
        elif kind in LEAVE_CHOICES:
            return self._answer_leave(seat, kind)
        elif self.apply(seat, choice.action):
            self.reconcile()
        return None

    def menu(self, seat: int) -> list[Choice]:
        """The seat's current button menu."""
        ui, req = self.ui[seat], self.undo.request
        if self.leaving is not None and seat in self.leaving[1]:
            return [Choice(tr("Non", "No"), {"type": "_leave_no"}),
                    Choice(tr("Oui, quitter", "Yes, quit"), {"type": "_leave_yes"})]
        if self.leaving is not None and seat == self.leaving[0]:
            return [Choice(tr("Retirer la demande", "Withdraw the request"), {"type": "_leave_cancel"})]
        if req is not None and seat in req.waiting and ui.confirming is None:
            return [Choice(tr("Non", "No"), {"type": "_undo_no"}), Choice(tr("Oui", "Yes"), {"type": "_undo_yes"})]
        if req is not None and seat == req.by and not ui.quit_prompt:
            return [Choice(tr("Retirer la demande", "Withdraw the request"), {"type": "_undo_cancel"})]
        if ui.confirming is not None:
            return [Choice(tr("Non", "No"), {"type": "_cancel"}), Choice(tr("Oui", "Yes"), {"type": "_confirm"})]
        if ui.quit_prompt:
            out = [Choice(tr("Continuer la partie", "Keep playing"), {"type": "_resume"}),
                   Choice(tr("Quitter la partie", "Quit the game"), {"type": "_quit"})]
            if howto.pages(self.game):
                out.append(Choice(tr("Comment jouer", "How to play"), {"type": "_howto"}))
            return out
        if seat in self.computers.seats:  # its choices would name its secret cards: nothing to press
            return []
        if self.over:
            return [Choice(tr("Retour au menu", "Back to menu"), {"type": "_quit"})]
        choices: list[Choice] = self._of_state(("choices", seat), lambda: self.game.choices(self.state, seat))
        if self.undo.may_ask(seat, self.seats[seat] is not None, self.moves, self.computers.seats):
            choices = [*choices, Choice(tr("Annuler le dernier coup", "Undo last move"), {"type": "_undo_ask"})]
        hint = self.computers.hint_choice(seat)
        if hint is not None:
            choices = [*choices, hint]
        return choices

    # -- leaving the game -------------------------------------------------------------------------
    def _ask_leave(self, seat: int) -> Transition | None:
        """Leave at once alone (or once over); with other human players, they are asked first."""
        others = {x for x, t in enumerate(self.seats) if t is not None and x != seat and x not in self.computers.seats}
        if self.over or not others:
            self.computers.cancel()
            return LeaveGame(self.game.id, len(self.moves))
        self.ui[seat].quit_prompt = False
        self.leaving = (seat, others)
        for x in others:
            self.ui[x].home()  # "Non" first: a slip of the finger keeps the game
        return None

    def _answer_leave(self, seat: int, kind: str) -> Transition | None:
        """A seat's answer to a request to quit: one "Non" keeps the game, every "Oui" ends it."""
        if self.leaving is None:
            return None
        by, waiting = self.leaving
        if kind == "_leave_cancel" and seat == by:
            self.leaving = None
        elif kind == "_leave_no" and seat in waiting:
            self.leaving = None
            name = player(seat)
            self.notify(frozenset({by}), tr(f"{name.fr} veut continuer la partie.",
                                            f"{name.en} wants to keep playing."))
        elif kind == "_leave_yes" and seat in waiting:
            waiting.discard(seat)
            if not waiting:
                self.leaving = None
                self.computers.cancel()
                return LeaveGame(self.game.id, len(self.moves))
        return None

    # -- undo ------------------------------------------------------------------------------------
    def _ask_undo(self, seat: int) -> None:
        """`seat` asks: refused with the reason on its screen, or put to the other human players."""
        others = {x for x, t in enumerate(self.seats) if t is not None and x != seat and x not in self.computers.seats}
        why = self.undo.ask(seat, self.game, self.config, self.moves, self.computers.seats, others)
        if why is not None:
            self.notify(frozenset({seat}), why)
            self.cues.append("error")
            return
        for x in others:
            self.ui[x].home()  # "Non" first
        if not others:  # alone against the computer: nobody to ask
            self._take_back(self.undo.agreed())

    def _take_back(self, req: UndoRequest) -> None:
        """Take the moves from the request's cut on back: journal it, recompute, guide the pieces."""
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
        self.synced = False  # the pieces must be put back before a sensed change is a move again
        for ui in self.ui:
            ui.moved_on()
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
        covered = self.instruction.audience if self.instruction is not None else frozenset()
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
        """Game seat `seat`'s whole screen: the game's, under banners, questions and its menu."""
        ui = self.ui[seat]
        screen = self._screen(seat)
        banner = status = None
        reason = self._why(seat)
        notice = ui.notices[0] if ui.notices and not self.over else None  # an ended game's final screen says all
        shown = False  # the notice: below the menu is known; not shown, its reading starts again
        if notice is not None and notice.urgent and (reason is not None or self.instruction is not None
                                                     and seat in self.instruction.audience):
            # what lies on the table now, at once (in turn when long): the instruction comes back after
            banner, shown = shown_status(ui, screen, (), self.size(seat), self.lang, self.clock())[0], True
        elif self.instruction is not None and seat in self.instruction.audience:
            banner = self.instruction.text
            if reason is not None:  # the why, for this mistake only
                banner = tr(f"{banner.fr}. {reason.fr}", f"{banner.en}. {reason.en}")
        elif reason is not None:  # its mistake, on another's pad
            banner = reason
        elif (hint := self.computers.hint_text(seat)) is not None:  # what this seat just asked
            status = hint
        elif notice is not None:
            status, shown = notice.text, True  # the part of it that shows: once the menu is known
        else:  # what the computer is doing
            status = self.computers.thinking_text()
        # a question is the screen itself, so its Yes/No menu stays visible under it
        question = ui.question()
        if ui.howto is not None and howto.pages(self.game):
            pages = howto.pages(self.game)
            ui.hidden()
            return Frame(pages[min(ui.howto, len(pages) - 1)], (), 0, banner)  # an instruction still shows over it
        if question is not None:
            screen, banner = Screen(question, (), icon="warn"), None
        elif self.leaving is not None and seat in {self.leaving[0], *self.leaving[1]}:
            name = player(self.leaving[0])
            screen = Screen(tr(f"{name.fr} veut quitter", f"{name.en} wants to quit"),
                            (essential(tr("la partie. Accepter ?", "the game. Accept?")),), icon="warn")
        elif self.undo.involves(seat):
            screen = self.undo.screen(seat)
        labels = tuple(c.label for c in self.menu(seat))
        page = ui.page if question is None else 0
        if status is not None and shown and banner is None:
            status, cover = shown_status(ui, screen, labels, self.size(seat), self.lang, self.clock())
            banner, status = (status, None) if cover else (None, status)
        elif not shown:
            ui.hidden()
        if status is not None and not labels:  # nothing to press under it: the message covers
            banner, status = status, None
        return Frame(screen, labels, min(ui.cursor, max(0, len(labels) - 1)), banner, page=page, status=status)

    def _screen(self, seat: int) -> Screen:
        """The game's screen for a seat, its countdown bar included."""
        screen: Screen
        if seat in self.computers.seats:  # the public screen: its own view names its secret cards
            screen = self._of_state(("computer-screen", seat), lambda: self.computers.screen(seat))
        else:
            screen = self._of_state(("screen", seat), lambda: self.game.screen(self.game.view(self.state, seat), seat))
        for t in self.timers:
            cd = t.countdown
            if cd.audience is None or seat in cd.audience:
                left = max(0.0, t.deadline - self.clock()) / max(cd.seconds, 1e-9)
                screen = Screen(screen.title, screen.lines, screen.big, left, screen.icon)
        return screen

    def _why(self, seat: int) -> Text | None:
        """Why the last gesture was refused, for `seat` (None: not its business).

        The game explains a refusal to the seat to act; when that seat is a computer player, the
        hands that made the gesture were a human's: they read whose turn it is."""
        if self.reason is None or seat in self.computers.seats:
            return None  # a computer seat's screen shows the instruction alone: its reason is secret
        if self.reason.seat == seat:
            return self.reason.text
        if self.reason.seat in self.computers.seats and seat not in self.computers.seats:
            name = computer_name(self.reason.seat)
            return tr(f"C'est à {name.fr} de jouer.", f"It is {name.en}'s turn.")
        return None

    def idle_frame(self) -> Frame:
        """What a seat not in this game shows (the game's name only: the same all game long)."""
        if self._idle is None:
            self._idle = blank_frame(tr("zebra-table", "zebra-table"), tr("Partie en cours :", "Game in progress:"),
                                     self.game.name)
        return self._idle

    def leds(self) -> dict[str, str]:
        """Physical zone -> colour: the zone to fix, else the game's hints."""
        # asked at every refresh: worked out again only when what they show changed
        key = (self.state, self.instruction, self.strangers, self.computers.seats)
        last = self._leds
        if last is None or any(a is not b for a, b in zip(last[0], key)):
            last = self._leds = (key, self._lit())
        return dict(last[1])

    def _lit(self) -> dict[str, str]:
        # a zone holding another game's piece (or an unknown tag) is not free: red, take it away
        odd = {s.zone: "red" for s in self.strangers}
        if self.instruction is not None:
            fix = self.instruction.fix
            return {**odd, self.to_physical(fix.zone) or "": "red" if fix.kind == "remove" else "green"}
        lit = {self.to_physical(z): c for z, c in self._of_state(("highlights",), lambda: self.game.highlights(
            self.state)).items()}
        return {**{z: c for z, c in lit.items() if z is not None}, **odd}

"""A game in progress on the table: feeds sensed layouts and button choices to the engine and
turns its state into per-seat frames and LEDs. Knows table seats, never raw hardware."""

from __future__ import annotations

import json
import logging
import random
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.core import (
    CHANCE, Action, Choice, Countdown, Effect, Game, GameConfig, IllegalAction, Text, tr,
)
from games.playout import sample_chance

from firmware_host.apps import computer_seats, reconcile, seat_ui, undo
from firmware_host.apps.computer import Thinker
from firmware_host.apps.reconcile import Fix
from firmware_host.screens import layout
from firmware_host.screens.frames import Frame, zone_label
from firmware_host.storage.tags import TagRegistry

log = logging.getLogger(__name__)

NOTICE_SECONDS = 3.0
Recorder = Callable[[int, Action], None]  # called BEFORE an action's effects are shown


@dataclass
class _Notice:
    text: Text
    until: float


@dataclass
class _Timer:
    deadline: float
    countdown: Countdown


class GameSession:
    """One game on chosen table seats. Game seat i plays at table seat `seats[i]`.

    A `None` entry is a player without a seat (Opération Zèbre with 9-12 players on an 8-seat
    table): the game counts them, the table shows them nothing and senses nothing of theirs.
    """

    def __init__(self, game: Game, config: GameConfig, seats: tuple[int | None, ...], registry: TagRegistry,
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
        self.computer: frozenset[int] = frozenset()  # game seats the computer plays (= set(levels))
        self.levels: dict[int, str] = {}  # computer seat -> level (set_computers)
        self.hints = False  # human seats may ask the computer for a hint
        self.thinker: Thinker | None = None  # runs the computer's thinking off the loop
        self.thinking: computer_seats.Thinking | None = None  # the decision or hint under way
        self.wake: Callable[[], None] | None = None  # called (from any thread) when a job finished
        self.stuck: set[int] = set()  # computer seats that could not decide (said on the screens)
        self.hint_shown: dict[int, tuple[Any, Text]] = {}  # seat -> (the state it is about, the hint)
        self.undo: undo.UndoRequest | None = None  # an undo waiting for the others' agreement
        self.howto: list[int | None] = [None] * len(seats)  # the "Comment jouer" page a seat reads
        self.cursor = [0] * len(seats)
        self.page = [0] * len(seats)  # 0: the first page (with the menu); others: ◀ ▶ past the menu
        self.lang = "fr"  # the table's language: pages depend on the text's length
        self.sizes: dict[int, tuple[int, int]] = {}  # table seat -> screen size (quarter-turned: 64x128)
        self.quit_prompt = [False] * len(seats)
        self.confirming: list[Choice | None] = [None] * len(seats)  # an irrevocable choice asked
        self.notices: list[deque[_Notice]] = [deque() for _ in seats]
        self.timers: list[_Timer] = []
        self.sensed: dict[str, frozenset[str]] = {}  # physical zone -> UIDs, last settled
        self.strangers: list[reconcile.Stranger] = []  # tags of no piece of this game, last settled
        self.instruction: tuple[reconcile.Fix, frozenset[int], Text] | None = None
        # why the game refused the gesture behind the current instruction: (seat, reason), shown
        # with that instruction on that seat's screen only, and gone with it
        self.reason: tuple[int, Text] | None = None
        self.wants_quit = False
        # a sensed change is read as a move only once the table matched the game since the last
        # action: otherwise a piece that must leave (a scared gazelle) could count as a new move
        self.synced = False
        self.cues: list[str] = []  # buzzer cues for the runtime to play
        self.errors = 0
        # what the game's pure functions answered for the current state (screens, menus, layout):
        # frames are recomputed at every event, the engine only when the state changed
        self._memo_state: Any = None
        self._memo: dict[tuple[Any, ...], Any] = {}
        self._logical_zones: set[str] | None = None
        self._layout: tuple[Any, Any] | None = None  # (sensed it was read from, _read())
        self._idle: Frame | None = None
        self._leds: tuple[tuple[Any, ...], dict[str, str]] | None = None  # (what they were made of, LEDs)

    def set_computers(self, levels: Mapping[int, str], hints: bool) -> None:
        """Which game seats the computer plays, at which level, and whether hints are allowed."""
        self.levels = dict(levels)
        self.computer = frozenset(self.levels)
        self.hints = hints
        self._logical_zones = None  # a computer's pad is never sensed
        self._layout = None

    def humans(self) -> list[int]:
        """The seated human game seats."""
        return [x for x, t in enumerate(self.seats) if t is not None and x not in self.computer]

    def _of_state(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """`compute()` for the current state, computed once per state (states are immutable)."""
        if self._memo_state is not self.state:
            self._memo_state, self._memo = self.state, {}
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = compute()
            return value

    # -- zone mapping --------------------------------------------------------------------------
    def to_physical(self, zone: str) -> str | None:
        """Logical game zone -> physical table zone ("pad.1" -> "seat3.pad"); None: no such pad."""
        if zone.startswith("pad."):
            table_seat = self.seats[int(zone[4:])]
            # a computer's pad is not sensed, even at a table seat: its cards exist only in the table
            return None if table_seat is None or int(zone[4:]) in self.computer else f"seat{table_seat}.pad"
        return zone

    def to_logical(self, zone: str) -> str | None:
        """Physical zone -> logical game zone, None for the pad of a seat not playing."""
        if zone.startswith("seat") and zone.endswith(".pad"):
            seat_id = int(zone[4:-4])
            if seat_id not in self.seats or self.seats.index(seat_id) in self.computer:
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
        if self.undo is not None:  # the game moved on: the undo asked is void
            self.notify(frozenset({self.undo.by}), tr("Annulation abandonnée : la partie a continué.",
                                                      "Undo dropped: the game went on."))
            self.undo = None
        for s in range(len(self.seats)):
            self.cursor[s] = 0
            self.page[s] = 0
            self.confirming[s] = None  # the state moved on: a pending question is stale
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
                         if s != CHANCE and s not in self.computer and 0 <= s < len(self.seats)
                         and self.seats[s] is not None)

    def humans_to_act(self) -> frozenset[int]:
        """Seated human players the game waits for now."""
        return frozenset(s for s in self.to_act()  # once per state: to_act can be costly
                         if s != CHANCE and s not in self.computer and 0 <= s < len(self.seats)
                         and self.seats[s] is not None)

    def _effect(self, effect: Effect) -> None:
        if isinstance(effect, Countdown):
            self.timers.append(_Timer(self.clock() + effect.seconds, effect))
        if effect.text.fr or effect.text.en:
            self.notify(effect.audience, effect.text)

    def notify(self, audience: frozenset[int] | None, text: Text, first: bool = False,
               public: bool = False) -> None:
        """Queue a transient message for game seats (None = every player); `first`: before the
        messages already waiting (it is about what the player just did); `public`: every seat may
        read it, whatever its audience."""
        targets = range(len(self.seats)) if audience is None else [s for s in audience if 0 <= s < len(self.seats)]
        # a computer's table seat has a screen everyone reads: it shows only what every seat is
        # told, never a message for its eyes only (its deal, its draws, its guesses)
        public = public or audience is None or audience >= frozenset(range(len(self.seats)))
        for s in targets:
            if s in self.computer and not public:
                continue
            q = self.notices[s]
            if first:
                for notice in q:
                    notice.until += NOTICE_SECONDS
                q.appendleft(_Notice(text, self.clock() + NOTICE_SECONDS))
            else:
                start = max(self.clock(), q[-1].until) if q else self.clock()
                q.append(_Notice(text, start + NOTICE_SECONDS))
            while len(q) > 4:  # a burst of effects must not queue minutes of banners
                q.popleft()

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
    def on_sensed(self, sensed: Mapping[str, frozenset[str]]) -> list[reconcile.Stranger]:
        """A settled layout (physical zone -> UIDs): match an action or guide. Returns strangers."""
        self.sensed = dict(sensed)
        self.strangers = self._read()[2]
        self.reconcile()
        return self.strangers

    def layout(self) -> dict[str, frozenset[str]]:
        """This game's pieces as sensed, in logical zones."""
        return self._read()[0]

    def _read(self) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]], list[reconcile.Stranger]]:
        """The sensed tags read once per settled change: (layout, layout on the zones the game
        senses, strangers)."""
        if self._layout is not None and self._layout[0] is self.sensed:
            return self._layout[1]
        pieces, strangers = reconcile.classify(self.sensed, self.registry, self.game.id)
        out: dict[str, frozenset[str]] = {}
        for zone, ps in pieces.items():
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

    def prepare(self) -> bool:
        """Idle time: work out now what the next piece moved will be matched against (the table is
        waiting for a player, often for seconds), so the table answers that move sooner. True if
        there was something to do."""
        if not self.synced or self.over:
            return False
        key = ("footprints", CHANCE in self.to_act() and not self.auto_chance)
        if self._memo_state is self.state and key in self._memo:
            return False
        self.footprints()
        return True

    def to_act(self) -> set[Any]:
        """The seats to act in the current state (CHANCE included)."""
        return self._of_state(("to_act",), lambda: self.game.to_act(self.state))

    def reconcile(self) -> None:
        """Apply the one action the table shows, or set the next instruction."""
        for _ in range(100):  # each round applies one action; a game never chains 100
            self.run_chance()
            if self.over:
                break
            target = self._read()[1]
            if target == self.expected():
                self.instruction = None
                self.reason = None
                self.synced = True
                return
            if not self.synced:
                break
            found = [(seat, act) for seat, act, foot in self.footprints() if foot == target]
            if len(found) == 1:
                if not self.apply(*found[0]):
                    break
                continue
            break
        self._set_instruction()

    def _set_instruction(self) -> None:
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
        if self.instruction is None or self.instruction[0] != fix:  # a new mistake: its own reason
            self.reason = self._refusal(fix)
            if self.reason is not None:
                self.cues.append("error")
        self.instruction = (fix, audience, text)

    def _refusal(self, fix: Fix) -> tuple[int, Text] | None:
        """Why the gesture behind `fix` is refused, and the seat it concerns (None: no reason)."""
        why = reconcile.refusal(self.game, self.state, fix)
        # a computer's reason (and whether it has one) comes from its secret cards: while only
        # computers are to act, any gesture is answered alike, by whose turn it is (seat_ui.why)
        if why is not None and why[0] not in self.computer:
            return why[0], why[1].message
        waiting = sorted(s for s in self.to_act() if s in self.computer)
        if waiting and not self.humans_to_act():
            name = computer_seats.computer_name(waiting[0])
            return waiting[0], tr(f"C'est à {name.fr} de jouer.", f"It is {name.en}'s turn.")
        return None

    def _audience(self, physical_zone: str) -> frozenset[int]:
        """Who sees an instruction about a zone: the pad's owner, else every player."""
        logical = self.to_logical(physical_zone)
        if logical is not None and logical.startswith("pad."):
            return frozenset({int(logical[4:])})
        return frozenset(s for s, t in enumerate(self.seats) if t is not None)

    def on_button(self, seat: int, button: str, kind: str) -> None:
        """A game seat's button event: move the cursor, choose, or quit (long press on OK)."""
        seat_ui.on_button(self, seat, button, kind)

    def size(self, seat: int) -> tuple[int, int]:
        """The screen size of a game seat (128x64 unless its screen is mounted a quarter-turn)."""
        table_seat = self.seats[seat]
        return self.sizes.get(table_seat, layout.SIZE) if table_seat is not None else layout.SIZE

    def _layout_args(self, seat: int) -> tuple[Any, ...]:
        frame = self.frame(seat)
        return (frame.screen, self.lang, frame.menu, frame.cursor, None, self.size(seat), frame.page, 0, frame.status)

    def menu(self, seat: int) -> list[Choice]:
        """The seat's current button menu."""
        return seat_ui.menu(self, seat)

    def _choose(self, seat: int, choice: Choice) -> None:
        seat_ui.choose(self, seat, choice)

    # -- time ----------------------------------------------------------------------------------
    def restore_countdowns(self, effects: list[Effect]) -> None:
        """After a resume: restart, in full, each countdown whose expiry action is still pending."""
        latest: dict[tuple[int, str], Countdown] = {}
        for effect in effects:
            if isinstance(effect, Countdown):
                latest[(effect.seat, json.dumps(dict(effect.on_expire), sort_keys=True))] = effect
        for cd in latest.values():
            if self.game.check(self.state, cd.seat, cd.on_expire) is None:
                self.timers.append(_Timer(self.clock() + cd.seconds, cd))

    def next_deadline(self) -> float | None:
        """The next moment something changes by itself (a countdown, a banner ending)."""
        # asked twice per event, a burst of tags included: no lists
        best: float | None = None
        for t in self.timers:
            if best is None or t.deadline < best:
                best = t.deadline
        for q in self.notices:
            if q and (best is None or q[0].until < best):
                best = q[0].until
        if self.timers:
            bar = self.clock() + 0.25  # countdown bars move
            best = bar if best is None or bar < best else best
        return best

    def on_time(self) -> None:
        """Expire banners and countdowns whose time has come."""
        now = self.clock()
        covered = self.instruction[1] if self.instruction is not None else frozenset()
        for seat, q in enumerate(self.notices):
            if seat in covered:  # an instruction hides the messages: they wait to be read
                for i, notice in enumerate(q):
                    notice.until = max(notice.until, now + NOTICE_SECONDS * (i + 1))
                continue
            while q and q[0].until <= now:
                q.popleft()
        due = [t for t in self.timers if t.deadline <= now]
        self.timers = [t for t in self.timers if t.deadline > now]
        for t in due:
            cd = t.countdown
            self.cues.append("countdown_end")
            if self.game.check(self.state, cd.seat, cd.on_expire) is None:
                self.apply(cd.seat, cd.on_expire)
                self.reconcile()

    # -- output --------------------------------------------------------------------------------
    def frame(self, seat: int) -> Frame:
        """Game seat `seat`'s whole screen."""
        return seat_ui.frame(self, seat)

    def _why(self, seat: int) -> Text | None:
        """Why the last gesture was refused, for `seat` (None: not its business)."""
        return seat_ui.why(self, seat)

    def idle_frame(self) -> Frame:
        """What a seat not in this game shows."""
        if self._idle is None:  # the game's name only: the same all game long
            self._idle = seat_ui.idle_frame(self)
        return self._idle

    def leds(self) -> dict[str, str]:
        """Physical zone -> colour: the zone to fix, else the game's hints."""
        # asked at every refresh: worked out again only when what they show changed
        key = (self.state, self.instruction, self.strangers, self.computer)
        last = self._leds
        if last is None or any(a is not b for a, b in zip(last[0], key)):
            last = self._leds = (key, seat_ui.leds(self))
        return dict(last[1])

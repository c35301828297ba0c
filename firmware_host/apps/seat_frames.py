"""What a game in progress shows: each game seat's screen (the game's, under the instruction, the
reason of a mistake, messages, questions and the menu), the screen of a seat not in the game, and
the zones' LEDs."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from operator import is_
from typing import Any, Protocol, TypeVar

from firmware_host.apps.computer_seats import ComputerSeats
from firmware_host.apps.entries import MenuEntry
from firmware_host.apps.foresight import Foresight
from firmware_host.apps.reconcile import Instruction, Refusal, Stranger
from firmware_host.apps.seat_ui import SeatUI, shown_status
from firmware_host.apps.session_menu import SessionMenu
from firmware_host.apps.state_answers import now
from firmware_host.apps.table_reading import TableReading
from firmware_host.apps.undo import Undo
from firmware_host.screens.frames import Frame, blank_frame
from games import howto
from games.core import Action, Countdown, Game, Screen, Text, tr
from games.texts import seat_label

T = TypeVar("T")
_HIGHLIGHTS = ("highlights",)  # the memo key of the game's LED hints
# a seat's screen while its table's engine reveals on stand-ins of another table's cards (play across tables)
AWAITING_REVEAL = Frame(Screen(tr("Révélation", "Reveal"), (tr("En attente de", "Waiting for"),
                                                           tr("l'autre table…", "the other table…")), icon="turn"))


class Running(Protocol):
    """A countdown under way (the session's Timer)."""

    @property
    def deadline(self) -> float: ...
    @property
    def countdown(self) -> Countdown: ...


class Play(Protocol):
    """What the screens need of the game in progress (the session)."""

    game: Game[Any, Any]
    state: Any
    moves: list[tuple[int, Action]]
    ui: list[SeatUI]
    undo: Undo
    computers: ComputerSeats
    remote: Any  # the seats played at another table, or None
    menus: SessionMenu
    table: TableReading
    foresight: Foresight
    clock: Callable[[], float]
    lang: str
    also_lang: str | None  # another language the frames are read in (the web pages'), if any

    @property
    def over(self) -> bool: ...
    @property
    def instruction(self) -> Instruction | None: ...
    @property
    def reason(self) -> Refusal | None: ...
    @property
    def strangers(self) -> list[Stranger]: ...
    @property
    def timers(self) -> Sequence[Running]: ...
    def logical_zones(self) -> set[str]: ...
    def of_state(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T: ...
    def to_physical(self, zone: str) -> str | None: ...
    def size(self, seat: int) -> tuple[int, int]: ...


class Inputs:
    """What a seat's frame was built of: objects compared by identity, values by equality."""

    __slots__ = ("ids", "objects", "values")

    def __init__(self, objects: tuple[object, ...], values: tuple[object, ...]) -> None:
        self.objects = objects  # held: no other object takes one of their ids while these are kept
        self.ids = tuple(map(id, objects))
        self.values = values

    def same(self, other: Inputs) -> bool:
        """True when a build from these would read what `other`'s read."""
        return self.ids == other.ids and self.values == other.values


class SeatFrames:
    """The frames and LEDs of a game, with what they are cached from."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self._idle: Frame | None = None
        self._leds: tuple[tuple[Any, ...], dict[str, str]] | None = None  # (what they were made of, LEDs)
        # per game seat, the frame last built and what it was built of (as the build left it)
        self._made: dict[int, tuple[Inputs, Frame]] = {}
        # per game seat, the game's screen last made and the game's key of what it read (Game.screen_key)
        self._screens: dict[int, tuple[Hashable, Screen]] = {}

    def seat_frame(self, seat: int) -> Frame:
        """Game seat `seat`'s whole screen, built again only when something it shows changed."""
        made = self._made.get(seat)
        now = None
        # another state (a move, a draw): built again whatever else it reads, its inputs read once,
        # after the build (the state is the first thing a frame is made of)
        if made is not None and made[0].objects[0] is self.play.state:
            now = self.inputs(seat)
            if now is not None and now.same(made[0]):
                return made[1]
        frame = self.build(seat)
        # what the build left (a message's reading begun): the next pass is compared with that; a
        # build changes nothing it reads but the seat's notice
        after = self.inputs(seat) if now is None or self.play.ui[seat].notices else now
        if after is None:
            self._made.pop(seat, None)
        else:
            self._made[seat] = (after, frame)
        return frame

    def inputs(self, seat: int) -> Inputs | None:
        """Everything `build(seat)` reads, None when its frame moves with the clock or another
        table (a countdown for this seat, a remote game): built at every pass then."""
        s = self.play
        if s.remote is not None:
            return None
        for t in s.timers:
            if t.countdown.audience is None or seat in t.countdown.audience:
                return None
        ui = s.ui[seat]
        notice = ui.notices[0] if ui.notices else None
        read = None if notice is None else (notice.parts, notice.urgent, notice.shown_at, notice.windows,
                                            notice.window(s.clock()))
        c = s.computers
        thinking = c.thinking
        req = s.undo.request
        leaving = s.menus.leaving
        table = s.table  # its instruction and reason are the session's
        # the states and the game's answers are immutable: the same object, the same screen; an
        # instruction and its reason only where this seat reads them
        instruction = table.instruction
        if instruction is not None and seat not in instruction.audience:
            instruction = None
        reason = table.reason
        if reason is not None and (seat in c.seats or seat not in reason.seats):  # not its business (why)
            reason = None
        hint = c.hint_shown.get(seat)  # hint_text, without forgetting a stale one (build does)
        mine = seat in c.seats
        objects = (s.state, instruction, reason, ui.confirming, notice, req,
                   None if hint is None or hint[0] is not s.state else hint[1])
        values = (len(s.moves), s.lang, s.also_lang, s.size(seat), ui.cursor, ui.page, ui.quit_prompt, ui.howto, read,
                  None if thinking is None else (thinking.kind, thinking.seat),
                  None if req is None else frozenset(req.waiting),
                  None if leaving is None else (leaving[0], frozenset(leaving[1])),
                  c.seats, c.levels.get(seat), c.hints, c.thinker is not None,
                  None if mine else table.computers_to_lay())
        return Inputs(objects, values)

    def build(self, seat: int) -> Frame:
        """Game seat `seat`'s whole screen: the game's, under banners, questions and its menu."""
        s = self.play
        ui = s.ui[seat]
        screen = self.screen(seat)
        banner = status = None
        reason = self.why(seat)
        notice = ui.notices[0] if ui.notices and not s.over else None  # an ended game's final screen says all
        shown = False  # the notice: below the menu is known; not shown, its reading starts again
        if notice is not None and notice.urgent and (reason is not None or s.instruction is not None
                                                     and seat in s.instruction.audience):
            # what lies on the table now, at once (in turn when long): the instruction comes back after
            banner, shown = shown_status(ui, screen, (), s.size(seat), s.lang, s.clock(), s.also_lang)[0], True
        elif s.instruction is not None and seat in s.instruction.audience:
            banner = s.instruction.text
            if reason is not None:  # the why, for this mistake only
                banner = tr(f"{banner.fr}. {reason.fr}", f"{banner.en}. {reason.en}")
        elif reason is not None:  # its mistake, on another's pad
            banner = reason
        elif (hint := s.computers.hint_text(seat)) is not None:  # what this seat just asked
            status = hint
        elif s.remote is not None and (away := s.remote.status_text()) is not None:
            # the other table is not there (or not yet): nobody here can play on until it is, so
            # this stays in view; a notice waits, its reading time not started
            status = away
        elif notice is not None:
            status, shown = notice.text, True  # the part of it that shows: once the menu is known
        else:  # what the computer is doing
            status = s.computers.thinking_text()
        # a question is the screen itself, so its Yes/No menu stays visible under it
        question = ui.question()
        if ui.howto is not None and howto.pages(s.game):
            pages = howto.pages(s.game)
            ui.hidden()
            return Frame(pages[min(ui.howto, len(pages) - 1)], (), 0, banner)  # an instruction still shows over it
        leaving = s.menus.leave_screen(seat)
        if question is not None:
            screen, banner = Screen(question, (), icon="warn"), None
        elif leaving is not None:
            screen = leaving
        elif s.undo.involves(seat):
            screen = s.undo.screen(seat)
        entries: list[MenuEntry] = s.menus.entries(seat)
        labels = tuple([c.label for c in entries])  # a list made at once: no generator resumed per entry
        page = ui.page if question is None else 0
        if status is not None and shown and banner is None:
            status, cover = shown_status(ui, screen, labels, s.size(seat), s.lang, s.clock(), s.also_lang)
            banner, status = (status, None) if cover else (None, status)
        elif not shown:
            ui.hidden()
        if status is not None and not labels:  # nothing to press under it: the message covers
            banner, status = status, None
        return Frame(screen, labels, min(ui.cursor, max(0, len(labels) - 1)), banner, page=page, status=status)

    def screen(self, seat: int) -> Screen:
        """The game's screen for a seat, its countdown bar included."""
        s = self.play
        screen: Screen
        if seat in s.computers.seats:  # the public screen: its own view names its secret cards
            screen = s.of_state(("computer-screen", seat), lambda: s.computers.screen(seat))
        else:
            # a seat whose pad the table cannot sense (a phone) chooses its cards in its menu: its screen says so
            sensed = f"pad.{seat}" in s.logical_zones()
            screen = s.of_state(("screen", seat), lambda: self.game_screen(seat, sensed))
            laying = s.table.computers_to_lay()
            if laying:  # the game moved on, the table not yet: nobody's turn before that move is laid
                name = seat_label(min(laying))
                screen = Screen(tr(f"Coup de {name.fr} à poser", f"Lay {name.en}'s move"), screen.lines, screen.big,
                                screen.bar, "wait")
        for t in s.timers:
            cd = t.countdown
            if cd.audience is None or seat in cd.audience:
                left = max(0.0, t.deadline - s.clock()) / max(cd.seconds, 1e-9)
                screen = Screen(screen.title, screen.lines, screen.big, left, screen.icon)
        return screen

    def game_screen(self, seat: int, sensed: bool) -> Screen:
        """The game's screen of a seat for the current state: the one it was last given when the
        game's key of what that screen reads is the same (neither view nor screen made again)."""
        s = self.play
        ahead = s.foresight.screen(s.state, seat, sensed)  # worked out while the move was read
        key = s.game.screen_key(s.state, seat, pad_sensed=sensed) if ahead is None else ahead[0]
        if key is not None:
            kept = self._screens.get(seat)
            if kept is not None and kept[0] == key:
                return kept[1]
        screen = s.game.screen(s.game.view(s.state, seat), seat, pad_sensed=sensed) if ahead is None else ahead[1]
        if key is None:
            self._screens.pop(seat, None)
        else:
            self._screens[seat] = (key, screen)
        return screen

    def why(self, seat: int) -> Text | None:
        """Why the last gesture was refused, for `seat` (None: not its business): the seats that
        made the mistake read it, and the owner of the pad it is on."""
        s = self.play
        reason = s.reason
        if reason is None or seat in s.computers.seats or seat not in reason.seats:
            return None  # a computer seat's screen shows the instruction alone
        return reason.text

    def idle_frame(self) -> Frame:
        """What a seat not in this game shows (the game's name only: the same all game long)."""
        if self._idle is None:
            self._idle = blank_frame(tr("zebra-table", "zebra-table"), tr("Partie en cours :", "Game in progress:"),
                                     self.play.game.name)
        return self._idle

    def leds(self) -> dict[str, str]:
        """Physical zone -> colour: the zone to fix, else the game's hints."""
        s = self.play
        # asked at every refresh: worked out again only when what they show changed
        key = (s.state, s.instruction, s.strangers, s.computers.seats)
        last = self._leds
        if last is None or not all(map(is_, last[0], key)):  # by identity, without a generator to close
            last = self._leds = (key, self._lit())
        return dict(last[1])

    def strangers(self) -> dict[str, str]:
        """The zones holding another game's piece (or an unknown tag): not free, red, take it away."""
        return {x.zone: "red" for x in self.play.strangers}

    def _lit(self) -> dict[str, str]:
        s = self.play
        odd = self.strangers()
        if s.instruction is not None:
            fix = s.instruction.fix
            return {**odd, s.to_physical(fix.zone) or "": "red" if fix.kind == "remove" else "green"}
        lit = {s.to_physical(z): c for z, c in s.of_state(_HIGHLIGHTS, lambda: now(s, _HIGHLIGHTS)).items()}
        return {**{z: c for z, c in lit.items() if z is not None}, **odd}

"""Inputs from the pages, handed to the table exactly as its hardware would hand them over.

In the simulator a click becomes a mock pin edge (gpiozero's MockFactory: gpiozero's own Button
code runs, its callbacks queue the event) or a tag laid on the virtual reader controller (bytes on
its pseudo-terminal, read by the reader link). On a real table a phone's button becomes the
ButtonEvent a gpiozero callback would have queued, with the long press timed the same way; so does
a phone seat's (no pin anywhere) on either.
The pages never reach the engine, the apps or the runtime's state.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from drivers.buttons import LONG, PRESS, RELEASE, ButtonEvent, MenuExpectation

if TYPE_CHECKING:
    from firmware_host.storage.config import TableConfig
    from firmware_host.storage.tags import TagRegistry

MAX_FIELD = 200  # longest zone or piece id a page may send


class InputError(ValueError):
    """A page asked for something it may not do or that does not exist; said back to the page."""


@dataclass(frozen=True)
class Permit:
    """What a page may do: press one seat's buttons (None: every seat), lay pieces on some zones."""

    seat: int | None
    zones: frozenset[str] | None  # None: every zone; empty: none
    buttons: bool = True


def button_names(config: TableConfig, phones: tuple[int, ...] = ()) -> dict[int, tuple[str, ...]]:
    """Each seat's button names (an encoder gives left and right, its push gives ok); a phone
    seat's page has all three."""
    out = {}
    for seat in config.seats:
        names = list(seat.buttons)
        if seat.encoder is not None:
            names += ["left", "right"] + (["ok"] if seat.encoder.button is not None else [])
        out[seat.id] = tuple(dict.fromkeys(names))
    for phone in phones:
        out[phone] = ("left", "right", "ok")
    return out


def _int(value: Any, what: str) -> int:
    if type(value) is not int:  # a bool or a float is not a seat
        raise InputError(f"{what} must be a whole number, got {value!r}")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_FIELD:
        raise InputError(f"{what} must be a short text, got {str(value)[:40]!r}")
    return value


class Inputs(ABC):
    """Checks a page's request against its permit and the table, then hands it to the hardware."""

    def __init__(self, config: TableConfig, registry: TagRegistry, phones: tuple[int, ...] = ()):
        self.config = config
        self.registry = registry
        self.phones = phones
        self.buttons = button_names(config, phones)
        self.zones = config.zones

    def handle(self, msg: Mapping[str, Any], permit: Permit) -> None:
        """One request from a page: {"do": "button"|"place"|"remove", ...}; an OK's release may say
        the entry it means ("expect": its label) or that it only leaves an extra page ("back": true).
        Raises InputError."""
        what = msg.get("do")
        if what == "button":
            if not permit.buttons:
                raise InputError("this page has no buttons")
            seat = _int(msg.get("seat"), "seat")
            if seat not in self.buttons:
                raise InputError(f"no seat {seat} (seats {', '.join(map(str, self.buttons))})")
            if permit.seat is not None and seat != permit.seat:
                raise InputError(f"this page holds seat {permit.seat}'s buttons, not seat {seat}'s")
            button = _text(msg.get("button"), "button")
            if button not in self.buttons[seat]:
                raise InputError(f"seat {seat} has no button {button!r} ({', '.join(self.buttons[seat])})")
            tap = msg.get("tap", False)
            if type(tap) is not bool:
                raise InputError(f"tap must be true or false, got {tap!r}")
            down = msg.get("down")
            if tap and down is not None:
                raise InputError("a tap is a press and its release: it has no down")
            if not tap and type(down) is not bool:
                raise InputError(f"down must be true or false, got {down!r}")
            expect, back = msg.get("expect"), msg.get("back", False)
            if type(back) is not bool:
                raise InputError(f"back must be true or false, got {back!r}")
            if (expect is not None or back) and (button != "ok" or down):
                raise InputError("expect and back go with the release of OK only")
            if expect is not None and back:
                raise InputError("an OK means an entry (expect) or the way back to the menu (back), not both")
            if expect is not None or back:
                self.expect(seat, None if back else _text(expect, "expect"))
            if tap:
                self.tap(seat, button)
            else:
                self.button(seat, button, bool(down))
        elif what in ("place", "remove"):
            zone = _text(msg.get("zone"), "zone")
            if zone not in self.zones:
                raise InputError(f"no zone {zone!r} on this table")
            if permit.zones is not None and zone not in permit.zones:
                raise InputError(f"this page may not touch {zone}")
            piece = _text(msg.get("piece"), "piece")
            uid = self.registry.uid(piece)
            if uid is None:
                raise InputError(f"no piece {piece!r} in the tag registry")
            self.tag(zone, uid, what == "place")
        else:
            raise InputError(f"unknown request {str(what)[:40]!r} (button, place, remove)")

    @abstractmethod
    def button(self, seat: int, button: str, down: bool) -> None:
        """A seat's button went down or up."""

    def tap(self, seat: int, button: str) -> None:
        """A press and its release together (a page's menu choice): never a long press. Both are
        handed over within one message's handling, so no long-press check (armed at the press,
        run by the web loop) can come between them, however busy that loop is."""
        self.button(seat, button, True)
        self.button(seat, button, False)

    @abstractmethod
    def expect(self, seat: int, label: str | None) -> None:
        """The next OK of `seat` chooses the entry reading `label`, or nothing (None: it only
        leaves an extra page for the menu)."""

    def tag(self, zone: str, uid: str, present: bool) -> None:
        """A tag laid on or lifted from a zone."""
        raise InputError("the table senses its pieces itself: lay them on the table")


class PostedButtons:
    """Buttons with no pin: each press the ButtonEvent gpiozero would queue, held past hold_time a
    long press too."""

    def __init__(self, hold_time: float, post: Callable[[object], None],
                 later: Callable[[float, Callable[[], None]], Any], clock: Callable[[], float] = time.monotonic):
        self.hold_time = hold_time
        self.post = post
        self.later = later  # schedules the long-press check (the web loop's call_later)
        self.clock = clock
        self.down: dict[tuple[int, str], int] = {}
        self.presses = 0

    def button(self, seat: int, button: str, down: bool) -> None:
        """Press (and, held past hold_time, long) or release, as gpiozero reports them."""
        key = (seat, button)
        if down:
            if key in self.down:
                return  # a repeated "down" (key auto-repeat) is one press
            self.presses += 1
            self.down[key] = press = self.presses
            self.post(ButtonEvent(seat, button, PRESS, self.clock()))
            self.later(self.hold_time, lambda: self._held(key, press))
        elif self.down.pop(key, None) is not None:
            self.post(ButtonEvent(seat, button, RELEASE, self.clock()))

    def _held(self, key: tuple[int, str], press: int) -> None:
        if self.down.get(key) == press:
            self.post(ButtonEvent(key[0], key[1], LONG, self.clock()))


class SimInputs(Inputs):
    """The simulator's hands: gpiozero mock pins and the virtual reader controller; a phone
    seat's buttons (no pin) as posted events."""

    def __init__(self, config: TableConfig, registry: TagRegistry, table: Any, phones: tuple[int, ...] = (),
                 posted: PostedButtons | None = None):
        super().__init__(config, registry, phones if posted is not None else ())
        self.table = table
        self.posted = posted

    def button(self, seat: int, button: str, down: bool) -> None:
        """Drive the button's mock pin (pull-up wiring: down = low); gpiozero does the rest."""
        if seat in self.phones and self.posted is not None:
            self.posted.button(seat, button, down)
            return
        panel = self.table.sim_buttons
        (panel.press if down else panel.release)(seat, button)

    def expect(self, seat: int, label: str | None) -> None:
        """Handed to the table's loop ahead of the pin's edge (the same queue keeps the order);
        a simulator with no loop behind its pages (posted None) has no menu to check."""
        if self.posted is not None:
            self.posted.post(MenuExpectation(seat, label))

    def tag(self, zone: str, uid: str, present: bool) -> None:
        """Lay or lift a tag on the zone's antenna of the virtual reader controller."""
        reader = self.table.sim_reader
        (reader.place if present else reader.remove)(self.zones[zone], uid)


class TableInputs(Inputs):
    """A real table: a phone's button is the ButtonEvent its gpiozero callback would queue."""

    def __init__(self, config: TableConfig, registry: TagRegistry, post: Callable[[object], None],
                 later: Callable[[float, Callable[[], None]], Any], clock: Callable[[], float] = time.monotonic,
                 phones: tuple[int, ...] = ()):
        super().__init__(config, registry, phones)
        self.posted = PostedButtons(config.hold_time, post, later, clock)

    def button(self, seat: int, button: str, down: bool) -> None:
        """Press (and, held past hold_time, long) or release, as gpiozero reports them."""
        self.posted.button(seat, button, down)

    def expect(self, seat: int, label: str | None) -> None:
        """Handed to the table's loop ahead of the release it goes with."""
        self.posted.post(MenuExpectation(seat, label))

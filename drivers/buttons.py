"""Seat buttons and rotary encoders (gpiozero): every press becomes a ButtonEvent on ONE queue.

On a Pi, gpiozero calls us back on its pin backend's thread, and long presses come from one
HoldWatch thread for the whole panel (drivers/hold_watch.py: gpiozero's Button would start a
thread per button, each waking ten times a second); the queue given by the service is the only
hand-off, so nothing else is shared. The simulator drives gpiozero's MockFactory pins (`press`,
`release`, `SimButtonPanel`), so gpiozero's own DigitalInputDevice and RotaryEncoder code runs in
simulation and in tests exactly as on the table.

Event order per button is press → (long) → release: a long press is reported only while the
same press is still down, under the same lock as press and release, so a release racing the
hold watch never lands before its own "long".
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeGuard, get_args

from drivers.hold_watch import HoldWatch

if TYPE_CHECKING:
    from gpiozero import Factory
    from gpiozero.pins.mock import MockFactory

Button = Literal["left", "ok", "right"]
PressKind = Literal["press", "release", "long"]
BUTTONS: tuple[Button, ...] = get_args(Button)
PRESS_KINDS: tuple[PressKind, ...] = get_args(PressKind)
PRESS: PressKind = "press"
RELEASE: PressKind = "release"
LONG: PressKind = "long"
MAX_BCM_PIN = 27
_MAX_PIN_HISTORY = 256  # mock pins log every change; trimmed so a long simulation stays small


def is_button(name: object) -> TypeGuard[Button]:
    """True for "left", "ok" and "right"."""
    return name in BUTTONS


def is_press_kind(kind: object) -> TypeGuard[PressKind]:
    """True for "press", "release" and "long"."""
    return kind in PRESS_KINDS


@dataclass(frozen=True, slots=True, init=False)
class ButtonEvent:
    """A seat's button changed: kind is "press", "release" or "long"; t from the service clock.

    Built from any text (a phone's request, a test), checked here: a name that is not a button
    or a kind raises ValueError, so a ButtonEvent always holds a Button and a PressKind."""

    seat: int
    button: Button
    kind: PressKind
    t: float

    def __init__(self, seat: int, button: str, kind: str, t: float) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ValueError(f"a button event's seat is a number, got {seat!r}")
        if not is_button(button):
            raise ValueError(f"no button {button!r} (buttons: {', '.join(BUTTONS)})")
        if not is_press_kind(kind):
            raise ValueError(f"no press kind {kind!r} (kinds: {', '.join(PRESS_KINDS)})")
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
            raise ValueError(f"a button event's time is a finite number, got {t!r}")
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "button", button)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "t", float(t))

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object (journal, transcripts)."""
        return {"seat": self.seat, "button": self.button, "kind": self.kind, "t": self.t}


@dataclass(frozen=True, slots=True)
class MenuExpectation:
    """The menu entry a page's next OK on a seat means to choose, as that page last saw it: the
    table takes the OK only while the entry under the seat's cursor still reads so (a phone's
    picture of the menu can be a frame late). No label: the OK means to leave an extra page for
    the menu, and chooses nothing if the seat already shows its menu."""

    seat: int
    label: str | None


class EventSink(Protocol):
    """Where button events go: any queue that takes them (the service's takes every event)."""

    def put(self, item: ButtonEvent, /) -> None:
        """Hand one event over (never blocks)."""


class ButtonConfigError(ValueError):
    """A button or encoder layout that cannot be built (bad pin, name used twice, pin busy)."""


class EncoderPins(Protocol):
    """Pins of a rotary encoder: a, b and the optional push button (config's EncoderConfig)."""

    @property
    def a(self) -> int:
        """Pin A."""

    @property
    def b(self) -> int:
        """Pin B."""

    @property
    def button(self) -> int | None:
        """The push button's pin, if any."""


@dataclass(frozen=True)
class Encoder:
    """A rotary encoder's BCM pins; its push button (if wired) is the seat's "ok"."""

    a: int
    b: int
    button: int | None = None


class SeatLike(Protocol):
    """What ButtonPanel needs from a seat's config (config's SeatConfig fits)."""

    @property
    def id(self) -> int:
        """The seat's number."""

    @property
    def buttons(self) -> Mapping[str, int]:
        """Button name -> BCM pin."""

    @property
    def encoder(self) -> EncoderPins | None:
        """The seat's rotary encoder, if any."""


def _check_pin(seat: int, what: str, pin: object) -> int:
    if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= MAX_BCM_PIN:
        raise ButtonConfigError(f"seat {seat}: {what}: {pin!r} is not a BCM pin (0-{MAX_BCM_PIN})")
    return pin


class SeatButtons:
    """One seat's buttons (and optional encoder) feeding ButtonEvents to the service's queue."""

    def __init__(
        self,
        seat: int,
        pins: Mapping[str, int],
        queue: EventSink,
        *,
        pin_factory: Factory | None = None,
        encoder: EncoderPins | None = None,
        hold_time: float = 1.0,
        bounce_time: float | None = 0.02,
        clock: Callable[[], float] = time.monotonic,
        hold_watch: HoldWatch | None = None,
    ) -> None:
        if hold_time <= 0:
            raise ButtonConfigError(f"seat {seat}: hold_time must be > 0, got {hold_time}")
        if bounce_time is not None and bounce_time < 0:
            raise ButtonConfigError(f"seat {seat}: bounce_time must be >= 0, got {bounce_time}")
        self.seat = seat
        self.queue = queue
        self.hold_time = float(hold_time)
        self._bounce = bounce_time or None  # gpiozero wants None, not 0, for "no debounce"
        self._factory = pin_factory
        self._clock = clock
        self._lock = threading.Lock()
        self.longs = 0  # long presses reported so far
        self._long_seen = threading.Condition(self._lock)
        self._down: set[Button] = set()
        self._presses: dict[Button, int] = {}  # presses so far per button: a long press is its own press's
        # a panel's seats share one watch; a seat made alone has its own, closed with it
        self._own_watch = hold_watch is None
        self.hold_watch = HoldWatch() if hold_watch is None else hold_watch
        self._closed = False
        self._devices: list[Any] = []
        self.pins: dict[Button, int] = {}  # button -> BCM pin (encoder push included)
        self.encoder: Encoder | None = None
        layout = self._validate(pins, encoder)
        try:
            for name, pin in layout.items():
                self._add_button(name, pin)
            if encoder is not None:
                self._add_encoder(encoder)
        except Exception as exc:
            self.close()  # never leave half the seat's pins reserved
            from gpiozero import GPIOZeroError

            if isinstance(exc, GPIOZeroError):
                raise ButtonConfigError(f"seat {seat}: cannot set up buttons: {exc}") from exc
            raise

    def _validate(self, pins: Mapping[str, int], encoder: EncoderPins | None) -> dict[Button, int]:
        layout: dict[Button, int] = {}
        used: dict[int, str] = {}

        def claim(pin: object, what: str) -> int:
            p = _check_pin(self.seat, what, pin)
            if p in used:
                raise ButtonConfigError(f"seat {self.seat}: GPIO{p} used by both {used[p]} and {what}")
            used[p] = what
            return p

        for name, pin in pins.items():
            if not is_button(name):
                raise ButtonConfigError(f"seat {self.seat}: unknown button {name!r} (buttons: {', '.join(BUTTONS)})")
            layout[name] = claim(pin, f"button {name!r}")
        if encoder is not None:
            turned: tuple[Button, ...] = ("left", "right")
            for name in turned + (("ok",) if encoder.button is not None else ()):
                if name in layout:
                    raise ButtonConfigError(f"seat {self.seat}: {name!r} is both a button and part of the encoder")
            claim(encoder.a, "encoder pin a")
            claim(encoder.b, "encoder pin b")
            if encoder.button is not None:
                layout["ok"] = claim(encoder.button, "encoder button")
        return layout

    def _add_button(self, name: Button, pin: int) -> None:
        # gpiozero's Button is this device plus a hold thread polling at 10 Hz: the hold is timed
        # by the panel's HoldWatch instead
        from gpiozero import DigitalInputDevice

        button = DigitalInputDevice(pin, pull_up=True, bounce_time=self._bounce, pin_factory=self._factory)
        self._devices.append(button)
        button.when_activated = partial(self._on_press, name)
        button.when_deactivated = partial(self._on_release, name)
        self.pins[name] = pin

    def _add_encoder(self, encoder: EncoderPins) -> None:
        from gpiozero import RotaryEncoder

        # max_steps=0: an unbounded step count; we only use the direction of each detent
        rotary = RotaryEncoder(
            encoder.a, encoder.b, bounce_time=self._bounce, max_steps=0, pin_factory=self._factory
        )
        self._devices.append(rotary)
        rotary.when_rotated_clockwise = partial(self._on_turn, "right")
        rotary.when_rotated_counter_clockwise = partial(self._on_turn, "left")
        self.encoder = Encoder(encoder.a, encoder.b, encoder.button)

    # -- callbacks: run on gpiozero threads on a Pi, synchronously with mock pins ----------------
    def _put(self, name: Button, kind: PressKind) -> None:
        self.queue.put(ButtonEvent(self.seat, name, kind, self._clock()))

    def _on_press(self, name: Button) -> None:
        with self._lock:
            if self._closed:
                return
            self._down.add(name)
            count = self._presses[name] = self._presses.get(name, 0) + 1
            self._put(name, PRESS)
            self.hold_watch.arm((self, name), self.hold_time, partial(self._on_long, name, count))

    def _on_release(self, name: Button) -> None:
        with self._lock:
            if self._closed:
                return
            self._down.discard(name)
            self.hold_watch.disarm((self, name))
            self._put(name, RELEASE)

    def _on_long(self, name: Button, count: int) -> None:
        with self._lock:
            # still down, and down since the press that armed it (not released and pressed again)
            if not self._closed and name in self._down and self._presses.get(name) == count:
                self._put(name, LONG)
                self.longs += 1
                self._long_seen.notify_all()

    def wait_long(self, after: int, timeout: float) -> bool:
        """Wait until more than `after` long presses were reported (the hold watch runs
        on real time); False if none came within `timeout` seconds."""
        with self._long_seen:
            return self._long_seen.wait_for(lambda: self.longs > after, timeout)

    def _on_turn(self, name: Button) -> None:
        # one detent = one click of the matching button, so menus treat both inputs alike
        with self._lock:
            if not self._closed:
                self._put(name, PRESS)
                self._put(name, RELEASE)

    @property
    def names(self) -> tuple[Button, ...]:
        """Every button name this seat can report (encoder directions included)."""
        extra = ("left", "right") if self.encoder is not None else ()
        return tuple(dict.fromkeys((*self.pins, *extra)))

    def close(self) -> None:
        """Release the pins; callbacks arriving afterwards are ignored."""
        with self._lock:
            self._closed = True
            for name in self._down:
                self.hold_watch.disarm((self, name))
        devices, self._devices = self._devices, []
        for device in devices:
            device.close()
        if self._own_watch:
            self.hold_watch.close()

    def __enter__(self) -> SeatButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ButtonPanel:
    """Every seat's buttons on one queue; built from the table config's seats."""

    def __init__(
        self,
        seats: Iterable[SeatLike],
        queue: EventSink,
        *,
        pin_factory: Factory | None = None,
        hold_time: float = 1.0,
        bounce_time: float | None = 0.02,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.queue = queue
        self.pin_factory = pin_factory
        self.seats: dict[int, SeatButtons] = {}
        self.hold_watch = HoldWatch()  # every seat's long presses, on one thread
        try:
            for seat in seats:
                if seat.id in self.seats:
                    raise ButtonConfigError(f"seat {seat.id} listed twice")
                self.seats[seat.id] = SeatButtons(
                    seat.id, seat.buttons, queue, pin_factory=pin_factory, encoder=seat.encoder,
                    hold_time=hold_time, bounce_time=bounce_time, clock=clock, hold_watch=self.hold_watch,
                )
        except Exception:
            self.close()
            raise

    def __getitem__(self, seat: int) -> SeatButtons:
        return self.seats[seat]

    def close(self) -> None:
        """Release every seat's pins."""
        for seat in self.seats.values():
            seat.close()
        self.seats = {}
        self.hold_watch.close()


# ---------------------------------------------------------------------------------------------
# Simulated side: the simulator and tests push the mock pins, gpiozero does the rest.


class SimButtonError(ValueError):
    """A simulated press on a pin, seat or button that has no button behind it."""


def _input_pin(factory: MockFactory, pin: int) -> Any:
    try:
        mock = factory.pin(pin)
    except ValueError as exc:  # gpiozero's PinInvalidPin is a ValueError
        raise SimButtonError(f"GPIO{pin}: {exc}") from exc
    if mock.function != "input" or mock.when_changed is None:
        raise SimButtonError(f"GPIO{pin}: no button is listening on this pin")
    return mock


def _drive(factory: MockFactory, pin: int, level: bool) -> None:
    mock = _input_pin(factory, pin)
    if level:
        mock.drive_high()
    else:
        mock.drive_low()
    if len(mock.states) > _MAX_PIN_HISTORY:
        mock.clear_states()


def press(factory: MockFactory, pin: int) -> None:
    """Push the button wired to BCM `pin` (pull-up wiring: the pin goes low)."""
    _drive(factory, pin, False)


def release(factory: MockFactory, pin: int) -> None:
    """Let go of the button wired to BCM `pin` (the pin goes back high)."""
    _drive(factory, pin, True)


def turn(factory: MockFactory, a: int, b: int, steps: int) -> None:
    """Turn an encoder on pins a, b by `steps` detents (positive = clockwise)."""
    first, second = (a, b) if steps > 0 else (b, a)
    for _ in range(abs(steps)):
        # quadrature: the leading pin falls, the other follows, then both rise in the same order
        _drive(factory, first, False)
        _drive(factory, second, False)
        _drive(factory, first, True)
        _drive(factory, second, True)


class SimButtonPanel:
    """The simulator's hands on a ButtonPanel built on a MockFactory: press seat buttons by name."""

    def __init__(self, panel: ButtonPanel) -> None:
        from .pins import is_mock

        if not is_mock(panel.pin_factory):
            raise SimButtonError("a simulated button panel needs a panel built on gpiozero's MockFactory")
        self.panel = panel
        self.factory: MockFactory = panel.pin_factory

    def _seat(self, seat: int) -> SeatButtons:
        try:
            return self.panel.seats[seat]
        except KeyError:
            raise SimButtonError(f"no seat {seat} (seats: {sorted(self.panel.seats)})") from None

    def _pin(self, seat: int, button: str) -> int:
        buttons = self._seat(seat)
        if button not in buttons.pins:
            raise SimButtonError(f"seat {seat} has no button {button!r} (buttons: {', '.join(buttons.names)})")
        return buttons.pins[button]

    def _is_turn(self, seat: int, button: str) -> bool:
        buttons = self._seat(seat)
        return buttons.encoder is not None and button in ("left", "right") and button not in buttons.pins

    def press(self, seat: int, button: str) -> None:
        """Push a seat's button down (an encoder direction turns one detent instead)."""
        if self._is_turn(seat, button):
            self.turn(seat, 1 if button == "right" else -1)
        else:
            press(self.factory, self._pin(seat, button))

    def release(self, seat: int, button: str) -> None:
        """Let a seat's button go (nothing to do for an encoder direction)."""
        if not self._is_turn(seat, button):
            release(self.factory, self._pin(seat, button))

    def click(self, seat: int, button: str) -> None:
        """Press and release at once."""
        self.press(seat, button)
        self.release(seat, button)

    def long_press(self, seat: int, button: str, margin: float = 0.0, timeout: float = 30.0) -> None:
        """Hold a button until its long press is reported (the panel's hold watch, on real time:
        about hold_time), `margin` s more, then release. Raises if no long press comes in `timeout` s."""
        if self._is_turn(seat, button):
            raise SimButtonError(f"seat {seat}: an encoder direction cannot be held")
        pin = self._pin(seat, button)
        buttons = self._seat(seat)
        before = buttons.longs
        press(self.factory, pin)
        try:
            # waiting for the report itself, not a fixed time: a loaded machine only makes it later
            if not buttons.wait_long(before, buttons.hold_time + timeout):
                raise SimButtonError(f"seat {seat}: no long press of {button!r} reported")
            if margin > 0:
                time.sleep(margin)
        finally:
            release(self.factory, pin)

    def turn(self, seat: int, steps: int) -> None:
        """Turn a seat's encoder by `steps` detents (positive = clockwise = "right")."""
        encoder = self._seat(seat).encoder
        if encoder is None:
            raise SimButtonError(f"seat {seat} has no rotary encoder")
        turn(self.factory, encoder.a, encoder.b, steps)

"""Long presses timed by one HoldWatch for every button: on time, once, never for a released or
pressed-again button, and no thread waking up while no button is down."""

from __future__ import annotations

import threading
import time
from queue import Queue

from gpiozero.threads import GPIOThread
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.buttons import ButtonEvent, ButtonPanel, SeatButtons, SimButtonPanel, press, release
from drivers.hold_watch import HoldWatch
from tests.kits.buttonkit import PINS, drain


class Seat:
    """A seat as ButtonPanel reads it from the config."""

    def __init__(self, seat: int) -> None:
        self.id = seat
        self.buttons = {"left": 2 + 3 * seat, "right": 3 + 3 * seat, "ok": 4 + 3 * seat}  # GPIO2-25
        self.encoder = None


def test_a_table_of_buttons_starts_no_thread_until_a_press_and_one_for_all(factory):
    polling = sum(isinstance(t, GPIOThread) for t in threading.enumerate())
    q: Queue[ButtonEvent] = Queue()
    panel = ButtonPanel([Seat(s) for s in range(8)], q, pin_factory=factory, hold_time=0.2)
    try:
        # gpiozero's Button would have started 24 hold threads, each waking ten times a second
        assert sum(isinstance(t, GPIOThread) for t in threading.enumerate()) == polling
        assert not any(t.name == "buttons-hold" for t in threading.enumerate())
        sims = SimButtonPanel(panel)
        sims.long_press(3, "ok", timeout=10)
        sims.long_press(5, "left", timeout=10)
        assert sum(t.name == "buttons-hold" for t in threading.enumerate()) == 1
        assert drain(q) == [(3, "ok", "press"), (3, "ok", "long"), (3, "ok", "release"),
                             (5, "left", "press"), (5, "left", "long"), (5, "left", "release")]
    finally:
        panel.close()
    assert not any(t.name == "buttons-hold" for t in threading.enumerate())


def test_the_watch_sleeps_while_no_button_is_down(factory):
    q: Queue[ButtonEvent] = Queue()
    with SeatButtons(1, PINS, q, pin_factory=factory, hold_time=0.2) as seat:
        press(factory, 13)
        release(factory, 13)
        time.sleep(0.5)  # past the released press's hold time: at most one wake-up, to find it gone
        woke = seat.hold_watch.wakeups
        assert woke <= 2
        time.sleep(0.5)  # a watch polling at gpiozero's 10 Hz would wake five times more
        assert seat.hold_watch.wakeups == woke
        assert seat.hold_watch.armed() == 0
    assert drain(q) == [(1, "ok", "press"), (1, "ok", "release")]


def test_a_button_pressed_again_is_held_from_its_new_press(factory):
    q: Queue[ButtonEvent] = Queue()
    hold = 0.6
    with SeatButtons(1, PINS, q, pin_factory=factory, hold_time=hold) as seat:
        press(factory, 6)
        time.sleep(hold / 2)
        release(factory, 6)
        again = time.monotonic()
        press(factory, 6)
        assert seat.wait_long(0, 10)
        held_for = time.monotonic() - again
        release(factory, 6)
    # the first press's time (hold / 2 after this one) is not this press's
    assert held_for >= hold - 0.05
    assert drain(q) == [(1, "right", "press"), (1, "right", "release"), (1, "right", "press"),
                         (1, "right", "long"), (1, "right", "release")]


def test_no_long_press_after_the_seat_is_closed(factory):
    q: Queue[ButtonEvent] = Queue()
    seat = SeatButtons(1, PINS, q, pin_factory=factory, hold_time=0.1)
    press(factory, 5)
    seat.close()
    time.sleep(0.3)
    assert drain(q) == [(1, "left", "press")]
    assert seat.hold_watch.armed() == 0


# (key, seconds until its callback; None: disarm the key), each after a pause (s)
OPS = st.lists(st.tuples(st.integers(0, 3), st.one_of(st.none(), st.floats(0.0, 0.03)), st.floats(0.0, 0.01)),
               min_size=1, max_size=12)


@settings(max_examples=15, deadline=None)
@given(OPS)
def test_each_wish_is_called_once_never_early_never_once_withdrawn(ops):
    watch = HoldWatch()
    fired: list[tuple[int, float]] = []  # (wish number, when)
    wishes: list[tuple[int, float]] = []  # wish number -> (key, deadline)
    withdrawn: dict[int, float] = {}  # wish number -> when it was disarmed or replaced
    latest: dict[int, int] = {}  # key -> its wish in force
    lock = threading.Lock()
    try:
        for key, seconds, pause in ops:
            now = time.monotonic()
            if key in latest:
                withdrawn.setdefault(latest.pop(key), now)
            if seconds is None:
                watch.disarm(key)
            else:
                number = len(wishes)
                wishes.append((key, now + seconds))
                latest[key] = number

                def fire(number: int = number) -> None:
                    with lock:
                        fired.append((number, time.monotonic()))

                watch.arm(key, seconds, fire)
            time.sleep(pause)
        until = time.monotonic() + 10  # a loaded machine runs the watch late, never early
        while watch.armed() and time.monotonic() < until:
            time.sleep(0.005)
        # a wish disarmed still wakes the thread once at its old time, to find it gone: past the
        # last of those (late on a loaded machine), the thread must sleep without waking
        time.sleep(max(0.0, max(at for _, at in wishes or [(0, 0.0)]) - time.monotonic()) + 0.02)
        woke = watch.wakeups
        while time.monotonic() < until:
            time.sleep(0.05)
            if watch.wakeups == woke:
                break
            woke = watch.wakeups
        time.sleep(0.25)
        assert watch.wakeups == woke  # nothing armed: asleep
    finally:
        watch.close()
    numbers = [n for n, _ in fired]
    assert len(numbers) == len(set(numbers))  # once each
    for number, when in fired:
        assert when >= wishes[number][1] - 0.002  # never before its time (clock reads apart)
        if number in withdrawn:  # called only if its time came before it was withdrawn
            assert withdrawn[number] >= wishes[number][1] - 0.002
    for number in latest.values():  # every wish still in force was called
        assert number in numbers

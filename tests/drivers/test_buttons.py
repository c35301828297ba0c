"""Seat buttons: mock pins → gpiozero DigitalInputDevice/RotaryEncoder, the hold watch → our layer →
the service's queue."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from queue import Queue

import pytest

from drivers.buttons import (
    BUTTONS,
    PRESS_KINDS,
    ButtonConfigError,
    ButtonEvent,
    ButtonPanel,
    Encoder,
    SeatButtons,
    SimButtonError,
    SimButtonPanel,
    press,
    release,
    turn,
)
from drivers.pins import PinFactoryError, is_mock, make_pin_factory
from tests.kits.buttonkit import PINS, drain


def test_press_and_release_become_events(factory):
    q: Queue[ButtonEvent] = Queue()
    ticks = iter(range(100))
    with SeatButtons(3, PINS, q, pin_factory=factory, clock=lambda: float(next(ticks))) as seat:
        assert seat.pins == PINS
        press(factory, 13)
        release(factory, 13)
        press(factory, 5)
        release(factory, 5)
        events = [q.get_nowait() for _ in range(4)]
    assert [(e.seat, e.button, e.kind) for e in events] == [
        (3, "ok", "press"), (3, "ok", "release"), (3, "left", "press"), (3, "left", "release")]
    assert [e.t for e in events] == [0.0, 1.0, 2.0, 3.0]
    assert events[0].to_json() == {"seat": 3, "button": "ok", "kind": "press", "t": 0.0}
    assert q.empty()


def test_long_press_is_reported_while_held_and_before_release(factory):
    q: Queue[ButtonEvent] = Queue()
    with SeatButtons(1, PINS, q, pin_factory=factory, hold_time=0.05):
        press(factory, 6)
        first = q.get(timeout=2)
        held = q.get(timeout=2)  # arrives from the hold watch's thread
        release(factory, 6)
        last = q.get(timeout=2)
    assert [(e.button, e.kind) for e in (first, held, last)] == [
        ("right", "press"), ("right", "long"), ("right", "release")]
    assert first.t <= held.t <= last.t


def test_short_press_gives_no_long_event(factory):
    q: Queue[ButtonEvent] = Queue()
    # a hold time far above what a busy machine can stall between two lines: a click stays a click
    with SeatButtons(1, PINS, q, pin_factory=factory, hold_time=1.0):
        press(factory, 13)
        release(factory, 13)
        time.sleep(1.1)  # past the hold time: a long event wrongly started would have fired
    assert drain(q) == [(1, "ok", "press"), (1, "ok", "release")]


def test_press_storm_keeps_every_event_in_order(factory):
    q: Queue[ButtonEvent] = Queue()
    names = ["left", "right", "ok"]
    with SeatButtons(2, PINS, q, pin_factory=factory):
        expected = []
        for i in range(600):
            name = names[i % 3]
            press(factory, PINS[name])
            release(factory, PINS[name])
            expected += [(2, name, "press"), (2, name, "release")]
    assert drain(q) == expected


def test_concurrent_storm_from_several_threads(factory):
    """On a Pi, each seat's callbacks come from backend threads at once: nothing lost or mixed."""
    q: Queue[ButtonEvent] = Queue()
    seats = {s: {"left": 4 + 3 * s, "right": 5 + 3 * s, "ok": 6 + 3 * s} for s in range(1, 5)}
    panel = ButtonPanel([Seat(s, p) for s, p in seats.items()], q, pin_factory=factory)

    def hammer(pins: dict[str, int]) -> None:
        for _ in range(150):
            for pin in pins.values():
                press(factory, pin)
                release(factory, pin)

    threads = [threading.Thread(target=hammer, args=(p,)) for p in seats.values()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    panel.close()
    events = drain(q)
    assert len(events) == 4 * 150 * 3 * 2
    for seat in seats:
        for name in PINS:
            kinds = [k for s, n, k in events if s == seat and n == name]
            assert kinds == ["press", "release"] * 150


@dataclass
class Seat:
    id: int
    buttons: dict[str, int]
    encoder: Encoder | None = None


def test_encoder_turns_are_left_right_and_its_push_is_ok(factory):
    q: Queue[ButtonEvent] = Queue()
    with SeatButtons(4, {}, q, pin_factory=factory, encoder=Encoder(a=20, b=21, button=16)) as seat:
        assert seat.names == ("ok", "left", "right")
        turn(factory, 20, 21, 2)
        turn(factory, 20, 21, -1)
        press(factory, 16)
        release(factory, 16)
    assert drain(q) == [
        (4, "right", "press"), (4, "right", "release"), (4, "right", "press"), (4, "right", "release"),
        (4, "left", "press"), (4, "left", "release"), (4, "ok", "press"), (4, "ok", "release")]


def test_encoder_jiggle_without_full_detent_gives_nothing(factory):
    q: Queue[ButtonEvent] = Queue()
    with SeatButtons(1, {"ok": 13}, q, pin_factory=factory, encoder=Encoder(20, 21)):
        press(factory, 20)  # pin a falls then rises back: a bounce, not a step
        release(factory, 20)
    assert drain(q) == []


def test_sim_panel_drives_seats_by_name(factory):
    q: Queue[ButtonEvent] = Queue()
    seats = [Seat(1, {"left": 5, "right": 6, "ok": 13}), Seat(2, {"ok": 19}, Encoder(20, 21))]
    panel = ButtonPanel(seats, q, pin_factory=factory, hold_time=0.05)
    sim = SimButtonPanel(panel)
    sim.click(1, "ok")
    sim.press(2, "right")  # an encoder direction: one detent
    sim.release(2, "right")
    sim.turn(2, -1)
    sim.long_press(1, "left", margin=0.05)
    assert drain(q) == [
        (1, "ok", "press"), (1, "ok", "release"), (2, "right", "press"), (2, "right", "release"),
        (2, "left", "press"), (2, "left", "release"), (1, "left", "press"), (1, "left", "long"),
        (1, "left", "release")]
    with pytest.raises(SimButtonError, match="no seat 9"):
        sim.click(9, "ok")
    with pytest.raises(SimButtonError, match="no button 'up'"):
        sim.click(1, "up")
    with pytest.raises(SimButtonError, match="no rotary encoder"):
        sim.turn(1, 1)
    panel.close()


def test_driving_a_pin_without_a_button_is_refused(factory):
    with pytest.raises(SimButtonError, match="no button"):
        press(factory, 22)
    with pytest.raises(SimButtonError, match="GPIO99"):
        press(factory, 99)


def test_events_after_close_are_ignored_and_pins_are_freed(factory):
    q: Queue[ButtonEvent] = Queue()
    seat = SeatButtons(1, PINS, q, pin_factory=factory)
    seat.close()
    again = SeatButtons(1, PINS, q, pin_factory=factory)  # pins reusable once released
    press(factory, 5)
    again.close()
    assert drain(q) == [(1, "left", "press")]


@pytest.mark.parametrize(
    "pins, encoder, message",
    [
        ({"left": 5, "right": 5}, None, "GPIO5 used by both"),
        ({"left": 28}, None, "not a BCM pin"),
        ({"left": True}, None, "not a BCM pin"),
        ({"": 5}, None, "unknown button ''"),
        ({"up": 5}, None, "unknown button 'up' \\(buttons: left, ok, right\\)"),
        ({1: 5}, None, "unknown button 1"),
        ({"left": 5}, Encoder(20, 21), "'left' is both a button and part of the encoder"),
        ({"ok": 5}, Encoder(20, 21, 22), "'ok' is both"),
        ({"ok": 20}, Encoder(20, 21), "GPIO20 used by both"),
    ],
)
def test_bad_layouts_are_refused_with_a_clear_message(factory, pins, encoder, message):
    with pytest.raises(ButtonConfigError, match=message):
        SeatButtons(1, pins, Queue(), pin_factory=factory, encoder=encoder)
    assert not factory.pins or all(p.when_changed is None for p in factory.pins.values())


def test_pin_clash_between_seats_leaves_no_pin_reserved(factory):
    q: Queue[ButtonEvent] = Queue()
    with pytest.raises(ButtonConfigError, match="seat 2: cannot set up buttons"):
        ButtonPanel([Seat(1, {"ok": 5}), Seat(2, {"left": 6, "ok": 5})], q, pin_factory=factory)
    # everything released: the same pins can be taken again
    ButtonPanel([Seat(1, {"ok": 5}), Seat(2, {"left": 6})], q, pin_factory=factory).close()


def test_bad_timings_are_refused(factory):
    with pytest.raises(ButtonConfigError, match="hold_time"):
        SeatButtons(1, PINS, Queue(), pin_factory=factory, hold_time=0)
    with pytest.raises(ButtonConfigError, match="bounce_time"):
        SeatButtons(1, PINS, Queue(), pin_factory=factory, bounce_time=-1)


def test_bounce_time_reaches_the_pin(factory):
    with SeatButtons(1, {"ok": 13}, Queue(), pin_factory=factory, bounce_time=0.05):
        assert factory.pin(13).bounce == pytest.approx(0.05)


def test_pin_factory_choice():
    assert make_pin_factory("auto") is None
    assert make_pin_factory(None) is None
    assert is_mock(make_pin_factory("mock"))
    assert not is_mock(None)
    with pytest.raises(PinFactoryError, match="unknown pin factory 'gpio9'"):
        make_pin_factory("gpio9")


def test_sim_panel_needs_mock_pins():
    panel = ButtonPanel([], Queue())
    with pytest.raises(SimButtonError, match="MockFactory"):
        SimButtonPanel(panel)


def test_a_button_event_holds_a_button_and_a_press_kind():
    event = ButtonEvent(2, "ok", "long", 3)
    assert (event.seat, event.button, event.kind, event.t) == (2, "ok", "long", 3.0)
    assert isinstance(event.t, float) and event == ButtonEvent(2, "ok", "long", 3.0)
    assert BUTTONS == ("left", "ok", "right") and PRESS_KINDS == ("press", "release", "long")
    with pytest.raises(AttributeError):
        event.kind = "press"  # frozen
    assert not hasattr(event, "__dict__")  # slots: one small object per press


@pytest.mark.parametrize(("args", "message"), [
    ((1, "up", "press", 0.0), "no button 'up'"),
    ((1, "OK", "press", 0.0), "no button 'OK'"),
    ((1, "ok", "tap", 0.0), "no press kind 'tap'"),
    ((True, "ok", "press", 0.0), "seat is a number"),
    (("1", "ok", "press", 0.0), "seat is a number"),
    ((1, "ok", "press", float("inf")), "finite number"),
    ((1, "ok", "press", float("nan")), "finite number"),
    ((1, "ok", "press", None), "finite number"),
])
def test_a_button_event_refuses_what_is_not_a_press(args, message):
    with pytest.raises(ValueError, match=message):
        ButtonEvent(*args)

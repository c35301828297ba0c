"""A built table, checked part by part with firmware_host/loop/diagnostics.py (the checks of
`zebra-table check`) and a person at the table: reader, screens, buttons, buzzer, LEDs, antennas."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Person, drain

from firmware_host.loop import diagnostics


def failures(results: list[diagnostics.Result]) -> str:
    """The pass/fail table, for an assertion message."""
    return "\n" + diagnostics.report(results)


def test_reader_handshake(reader: Any) -> None:
    result = diagnostics.check_reader(reader)
    assert result.ok, result.detail


def test_every_screen_takes_the_test_pattern(screens: Any) -> None:
    results = diagnostics.check_screens(screens)
    assert all(r.ok for r in results), failures(results)


def test_every_screen_pattern_is_seen_at_its_seat(screens: Any, person: Person) -> None:
    drain(screens)
    results = []
    for seat in screens.screens.seats:
        screens.screens.show(seat, diagnostics.test_pattern(seat, screens.screens.size(seat)))
        got = person.ask(seat, f"Seat {seat}: does your screen show a frame, two diagonals and the number {seat}?")
        detail = {"ok": "seen", "left": "not seen at the seat", None: "no answer"}[got]
        results.append(diagnostics.Result(f"screen {seat}", got == "ok", detail))
    assert all(r.ok for r in results), failures(results)


def test_partial_updates_land_where_they_belong(screens: Any, person: Person, sim_table: Any) -> None:
    """Only the changed parts of a picture are sent (the table's every frame after the first): each
    must land at its place on the panel, which the simulator models and a person sees."""
    drain(screens)
    results = diagnostics.check_partial_updates(screens)
    assert all(r.ok for r in results), failures(results)
    for seat in screens.screens.seats:
        last = diagnostics.partial_steps(seat, screens.screens.size(seat))[-1]
        if sim_table is not None:  # the controller's RAM, as the simulated bus wrote it
            spec, device = screens.config.seat(seat).screen, screens.screens[seat].device
            shown = sim_table.table.sim_screens.pixels(spec.bus, spec.address)
            assert shown is not None and shown.tobytes() == device.preprocess(last).tobytes(), f"seat {seat}"
        look = diagnostics.PARTIAL_LOOK.format(seat=seat)
        got = person.ask(seat, f"Seat {seat}: does your screen show {look}?")
        detail = {"ok": "seen", "left": "not seen at the seat", None: "no answer"}[got]
        results.append(diagnostics.Result(f"screen {seat} partial", got == "ok", detail))
    assert all(r.ok for r in results), failures(results)


def test_every_button(table: Any, person: Person, timeout: float) -> None:
    drain(table)
    results = diagnostics.check_buttons(table, timeout, person.press)
    assert all(r.ok for r in results), failures(results)


def test_a_held_button_is_a_long_press(table: Any, person: Person, timeout: float) -> None:
    drain(table)
    result = diagnostics.check_long_press(table, timeout, person.hold)
    if result is None:
        pytest.skip("no seat has a button to hold (an encoder's turns cannot be held)")
    assert result.ok, result


def test_the_buzzer_is_heard(table: Any, person: Person) -> None:
    if not table.buzzer.enabled:
        pytest.skip("no [buzzer] pin in the config")
    drain(table)
    person.say("listen: the buzzer plays four rising notes")
    result = diagnostics.check_buzzer(table)
    assert result is not None and result.ok, result
    seat = table.config.seats[0].id
    assert person.ask(seat, "Did the buzzer play four rising notes?") == "ok", "no buzzer heard, or no answer"


def test_led_chase(reader: Any, person: Person, led_delay: float) -> None:
    assert diagnostics.check_reader(reader).ok
    person.say("watch the LEDs: each zone lights in turn")
    drain(reader)
    result = diagnostics.led_chase(reader, delay=led_delay)
    assert result.ok, result.detail
    seat = reader.config.seats[0].id
    assert person.ask(seat, "Did every zone's LED light in turn?") == "ok", "some LEDs stayed dark, or no answer"


def test_every_antenna_sees_a_test_tag(reader: Any, person: Person, timeout: float) -> None:
    assert diagnostics.check_reader(reader).ok
    drain(reader)
    person.say("have one tag ready: lay it on each zone whose LED is lit, then lift it")
    results = diagnostics.check_antennas(reader, timeout, person.lay_tag)
    assert all(r.ok for r in results), failures(results)

"""`zebra-table check` on the simulated table: presses by mock pins, tags on the virtual reader."""

import io
import re
import threading
import time

from drivers.reader.virtual import wait_until
from firmware_host.commands.check import run
from firmware_host.commands.main import build_parser
from firmware_host.loop.diagnostics import check_buzzer, check_long_press
from firmware_host.loop.simulator import SimTable
from firmware_host.storage.config import parse_config, sim_config_text


def small_text():
    return sim_config_text().split("[[seats]]\nid = 3")[0] + '[antennas]\nboard = 0\n"seat1.pad" = 30\n"seat2.pad" = 31\n'


def small_table():
    return parse_config(small_text())


def test_check_passes_when_every_button_is_pressed():
    sim = SimTable(small_table(), threaded=True)
    out = io.StringIO()
    try:
        assert sim.wait_ready()

        def presser():
            for n, (seat, button) in enumerate([(1, "left"), (1, "right"), (1, "ok"), (2, "left"), (2, "right"), (2, "ok")]):
                assert wait_until(lambda: out.getvalue().count("press") == n + 1, 10)
                sim.buttons.click(seat, button)
                time.sleep(0.05)
            assert wait_until(lambda: "hold OK down" in out.getvalue(), 10)
            sim.buttons.long_press(1, "ok")  # the hold watch's long press, between press and release

        t = threading.Thread(target=presser)
        t.start()
        code = run(build_parser().parse_args(["check", "--timeout", "10"]), out, table=sim.table)
        t.join(10)
        text = out.getvalue()
        assert code == 0, text
        rows = dict(re.findall(r"^(\S.*?)\s+(PASS|FAIL)\s", text, re.M))
        assert rows["screen 1"] == rows["screen 2"] == rows["seat 2 ok"] == rows["reader"] == "PASS"
        assert rows["seat 1 ok held"] == "PASS"
        assert "32 antennas" in text  # the virtual controller was built for the 32 antennas mapped
        assert text.strip().endswith("13 passed, 0 failed (simulated)")  # a simulated table says so
        from firmware_host.loop.diagnostics import check_screens
        assert all(r.ok for r in check_screens(sim.table))
        img = sim.table.screens.image(2)  # the test pattern: border and diagonals lit
        assert img.getpixel((0, 0)) and img.getpixel((127, 63)) and img.getpixel((64, 0)) and not img.getpixel((20, 5))
    finally:
        sim.close()


def test_check_reports_missing_press_and_dead_screen():
    sim = SimTable(small_table(), threaded=True)
    out = io.StringIO()
    try:
        assert sim.wait_ready()
        spec = sim.config.seat(2).screen
        sim.table.sim_screens.unplug(spec.bus, spec.address)
        code = run(build_parser().parse_args(["check", "--timeout", "0.3"]), out, table=sim.table)
        text = out.getvalue()
        assert code == 1
        rows = dict(re.findall(r"^(\S.*?)\s+(PASS|FAIL)\s", text, re.M))
        assert rows["screen 2"] == "FAIL" and rows["screen 1"] == "PASS" and rows["seat 1 left"] == "FAIL"
        assert "no press within" in text
    finally:
        sim.close()


def test_check_plays_the_buzzer_on_its_pin_and_says_so():
    config = parse_config(sim_config_text().split("[[seats]]\nid = 3")[0]
                          + '[buzzer]\npin = 20\n[antennas]\nboard = 0\n"seat1.pad" = 30\n"seat2.pad" = 31\n')
    sim = SimTable(config, threaded=True)
    out = io.StringIO()
    try:
        assert sim.wait_ready()
        pin = sim.table.factory.pin(20)
        driven = len(pin.states)
        code = run(build_parser().parse_args(["check", "--timeout", "0.2", "--no-buttons"]), out, table=sim.table)
        text = out.getvalue()
        assert code == 0, text
        assert re.search(r"^buzzer\s+PASS\s+simulated: GPIO20: four rising notes played", text, re.M), text
        states = [s.state for s in pin.states[driven:]]
        assert 0.5 in states and states[-1] == 0  # the PWM pin sounded, then fell silent

        def broken(tone: object) -> None:
            raise OSError("the PWM pin failed")

        sim.table.buzzer._device.play = broken  # a fault at the pin: logged, the cue ends, the check fails
        result = check_buzzer(sim.table)
        assert result is not None and not result.ok and "the cue failed" in result.detail
        # without a buzzer in the config, no row: nothing to check
        assert "buzzer" not in check_text(small_table())
    finally:
        sim.close()


def check_text(config):
    sim = SimTable(config, threaded=True)
    out = io.StringIO()
    try:
        assert sim.wait_ready()
        run(build_parser().parse_args(["check", "--timeout", "0.2", "--no-buttons"]), out, table=sim.table)
        return out.getvalue()
    finally:
        sim.close()


def test_the_long_press_check_needs_press_long_release_in_order():
    sim = SimTable(small_table(), threaded=True)
    try:
        assert sim.wait_ready()
        hold = sim.table.buttons[1].hold_time
        result = check_long_press(sim.table, 10, lambda seat, button: sim.buttons.long_press(seat, button))
        assert result is not None and result.ok and result.name == "seat 1 ok held", result
        assert result.detail == f"long press after {hold:g} s"
        # let go at once: a click is not a long press, and the check says why
        result = check_long_press(sim.table, 10, lambda seat, button: sim.buttons.click(seat, button))
        assert result is not None and not result.ok and "let go before the hold time" in result.detail, result
        result = check_long_press(sim.table, 0.2)  # nobody at the table
        assert result is not None and not result.ok and result.detail == "no press within 0 s"
    finally:
        sim.close()


def test_the_long_press_check_holds_the_first_button_that_can_be_held():
    # seat 1 turns an encoder without a push (nothing to hold); seat 2 has buttons
    text = small_text().replace("buttons = { left = 4, right = 5, ok = 6 }", "encoder = { a = 4, b = 5 }")
    sim = SimTable(parse_config(text), threaded=True)
    try:
        assert sim.wait_ready()
        result = check_long_press(sim.table, 10, lambda seat, button: sim.buttons.long_press(seat, button))
        assert result is not None and result.ok and result.name == "seat 2 ok held", result
    finally:
        sim.close()
    # no seat with a button to hold: no row, nothing waited for
    only_turns = text.replace("buttons = { left = 7, right = 8, ok = 9 }", "encoder = { a = 7, b = 8 }")
    sim = SimTable(parse_config(only_turns), threaded=True)
    try:
        assert sim.wait_ready()
        assert check_long_press(sim.table, 10) is None
    finally:
        sim.close()

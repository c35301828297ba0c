"""Checks of a built table: reader handshake and antennas, screens, buttons, LEDs, tags.

Used by `zebra-table check` and by the real-hardware suite in hw_tests/.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from drivers.buttons import ButtonEvent
from firmware_host.loop.events import TagChange
from firmware_host.loop.table import COLOURS, OFF
from firmware_host.screens.frames import Frame
from games.core import Screen, Text, tr

ARROWS = {"left": "◀", "right": "▶", "ok": "OK"}  # a button as its seat's label shows it


@dataclass(frozen=True)
class Result:
    """One check: what, pass or fail, and a detail for the owner."""

    name: str
    ok: bool
    detail: str = ""


def test_pattern(seat: int, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """A border, diagonals and the seat number: every edge pixel row and column is visible."""
    img = Image.new("1", size, 0)
    draw = ImageDraw.Draw(img)
    w, h = size
    draw.rectangle((0, 0, w - 1, h - 1), outline=1)
    draw.line((0, 0, w - 1, h - 1), fill=1)
    draw.line((0, h - 1, w - 1, 0), fill=1)
    draw.rectangle((w // 2 - 14, h // 2 - 9, w // 2 + 14, h // 2 + 9), fill=0, outline=1)
    draw.text((w // 2 - 3, h // 2 - 6), str(seat), fill=1)
    return img


def partial_steps(seat: int, size: tuple[int, int] = (128, 64)) -> list[Image.Image]:
    """The test pattern, then two pictures each changing parts of the one before: sent in turn,
    the screen reaches the last through partial updates (a window at each end of the top and
    bottom pages, then one over the middle pages). The last shows the pattern with a filled square
    in each corner and the seat's number in black on a white box: a window written at the wrong
    place (a wrong column offset, a panel that does not take the window commands) shows there."""
    pattern = test_pattern(seat, size)
    w, h = size
    corners = pattern.copy()
    draw = ImageDraw.Draw(corners)
    for x, y in ((2, 2), (w - 10, 2), (2, h - 10), (w - 10, h - 10)):
        draw.rectangle((x, y, x + 7, y + 7), fill=1)
    boxed = corners.copy()
    draw = ImageDraw.Draw(boxed)
    draw.rectangle((w // 2 - 14, h // 2 - 9, w // 2 + 14, h // 2 + 9), fill=1)
    draw.text((w // 2 - 3, h // 2 - 6), str(seat), fill=0)
    return [pattern, corners, boxed]


PARTIAL_LOOK = "a frame, two diagonals, a filled square in each corner and the number {seat} in black on a white box"


def check_partial_updates(table: Any) -> list[Result]:
    """Every working screen takes `partial_steps`, each sent before the next: the changed parts
    only, through its panel's partial updates (a screen whose driver keeps its bus elsewhere than
    luma did gets whole frames: it works, more slowly, and the detail says so)."""
    out = []
    working = [seat for seat in table.screens.seats if table.screens[seat].status().ok]
    before = {seat: table.screens[seat].stats.frames_partial for seat in working}
    steps = {seat: partial_steps(seat, table.screens.size(seat)) for seat in working}
    for picture in range(3):  # each picture on every screen, then every bus writer has sent it
        for seat in working:
            table.screens.show(seat, steps[seat][picture])
        table.screens.flush(5.0)
    for seat in working:
        screen = table.screens[seat]
        status, partial = screen.status(), screen.stats.frames_partial - before[seat]
        if not status.ok:
            out.append(Result(f"screen {seat} partial", False, status.describe()))
        elif partial >= 2:
            out.append(Result(f"screen {seat} partial", True, "changed parts sent: corner squares, number on white"))
        else:
            out.append(Result(f"screen {seat} partial", True, "whole frames only: luma's bus not found (see the log)"))
    return out


def check_reader(table: Any, timeout: float = 8.0) -> Result:
    """The reader controller answers the handshake with an antenna count covering the config."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and table.link.state.value != "ready":
        time.sleep(0.05)
    device = table.link.device
    if table.link.state.value != "ready" or device is None:
        return Result("reader", False, f"no handshake on {table.link.port} within {timeout:.0f} s "
                                        f"({table.link.state.value})")
    needed = max(table.config.antennas) + 1 if table.config.antennas else 0
    if device.antennas < needed:
        return Result("reader", False, f"controller has {device.antennas} antennas, the config maps {needed}")
    return Result("reader", True, f"protocol {device.protocol}, firmware {device.firmware}, "
                                  f"{device.antennas} antennas")


def check_screens(table: Any) -> list[Result]:
    """Every configured screen takes a test pattern."""
    out = []
    for seat in table.screens.seats:
        table.screens.show(seat, test_pattern(seat, table.screens.size(seat)))
    table.screens.flush(5.0)  # the bus writers send them: wait, then read how each screen fared
    for seat in table.screens.seats:
        status = table.screens[seat].status()
        sent = table.screens[seat].stats.frames_sent > 0
        spec = table.config.seat(seat).screen
        where = f"{spec.driver} on /dev/i2c-{spec.bus} at {spec.address:#04x}"
        out.append(Result(f"screen {seat}", bool(status.ok and sent), where if status.ok else status.describe()))
    return out


def check_buttons(table: Any, timeout: float = 15.0,
                  prompt: Callable[[int, str], None] | None = None) -> list[Result]:
    """Each seat's buttons, one at a time: the owner presses the one asked for."""
    out = []
    q = table.runtime.queue
    for seat in table.config.seats:
        names = list(seat.buttons) or ["left", "right"] + (["ok"] if seat.encoder and seat.encoder.button else [])
        for name in names:
            if prompt is not None:
                prompt(seat.id, name)
            deadline = time.monotonic() + timeout
            got = None
            while time.monotonic() < deadline:
                try:
                    ev = q.get(timeout=0.1)
                except queue.Empty:
                    continue
                if isinstance(ev, ButtonEvent) and ev.kind == "press":
                    got = ev
                    break
            if got is None:
                out.append(Result(f"seat {seat.id} {name}", False, f"no press within {timeout:.0f} s"))
            elif (got.seat, got.button) != (seat.id, name):
                out.append(Result(f"seat {seat.id} {name}", False, f"got seat {got.seat} {got.button} instead"))
            else:
                out.append(Result(f"seat {seat.id} {name}", True, "pressed"))
    return out


def check_long_press(table: Any, timeout: float = 15.0,
                     prompt: Callable[[int, str], None] | None = None) -> Result | None:
    """The first seat's OK (else its first button) held down: its press, its long press (the
    buttons' hold watch, `hold_time` after the press) and its release, in that order. None when no
    seat has a button to hold (an encoder's turns cannot be held)."""
    for seat in table.config.seats:
        names = list(seat.buttons) + (["ok"] if seat.encoder and seat.encoder.button else [])
        if names:
            break
    else:
        return None
    name = "ok" if "ok" in names else names[0]
    if prompt is not None:
        prompt(seat.id, name)
    q = table.runtime.queue
    kinds: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and kinds[-1:] != ["release"]:
        try:
            ev = q.get(timeout=0.1)
        except queue.Empty:
            continue
        if isinstance(ev, ButtonEvent) and (ev.seat, ev.button) == (seat.id, name):
            kinds.append(ev.kind)
    label = f"seat {seat.id} {name} held"
    hold = table.buttons[seat.id].hold_time
    if kinds == ["press", "long", "release"]:
        return Result(label, True, f"long press after {hold:g} s")
    if not kinds:
        return Result(label, False, f"no press within {timeout:.0f} s")
    if "long" not in kinds:
        return Result(label, False, f"let go before the hold time ({hold:g} s), or no long press seen")
    return Result(label, False, f"got {' then '.join(kinds)}")


def hold_instruction(table: Any, seat: int, button: str) -> str:
    """Ask for `button` held down at `seat` (the prompt of check_long_press): the instruction shown
    on the seat's screen, and returned for the terminal."""
    label = ARROWS.get(button, button)
    seconds = 2 * table.buttons[seat].hold_time
    if seat in table.screens.seats:
        table.outputs.show(seat, Frame(Screen(tr("Appui long", "Long press"), (
            Text(f"Maintenez {label} {seconds:g} s", f"Hold {label} for {seconds:g} s"),))))
    return f"seat {seat}: hold {label} down for {seconds:g} s, then let go"


def led_chase(table: Any, delay: float = 0.05) -> Result:
    """Light every antenna's LED in turn, then all off; checks the controller took the commands."""
    sent = 0
    for antenna in sorted(table.config.antennas):
        sent += bool(table.link.set_led(antenna, COLOURS["white"]))
        time.sleep(delay)
        table.link.set_led(antenna, OFF)
    table.link.leds_off()
    total = len(table.config.antennas)
    return Result("LED chase", sent == total, f"{sent}/{total} LED commands accepted")


BUZZER_CUE = "win"  # four rising notes: heard at once, not taken for a click


def check_buzzer(table: Any) -> Result | None:
    """The buzzer plays a cue to its end without a fault (None: the config has no buzzer). Whether
    it is heard only someone at the table can say (hw_tests asks)."""
    buzzer = table.buzzer
    if not buzzer.enabled:
        return None
    failed = buzzer.failures
    buzzer.play(BUZZER_CUE)
    ended = buzzer.wait_idle(5.0)
    if not ended:
        return Result("buzzer", False, f"GPIO{buzzer.pin}: the cue did not end within 5 s")
    if buzzer.failures != failed:
        return Result("buzzer", False, f"GPIO{buzzer.pin}: the cue failed (see the log)")
    return Result("buzzer", True, f"GPIO{buzzer.pin}: four rising notes played (listen)")


def check_antennas(table: Any, timeout: float = 20.0,
                   prompt: Callable[[str], None] | None = None) -> list[Result]:
    """Each zone in turn (LED lit): the owner lays any tag on it and lifts it."""
    out = []
    q = table.runtime.queue
    for antenna, zone in sorted(table.config.antennas.items()):
        table.link.set_led(antenna, COLOURS["green"])
        if prompt is not None:
            prompt(zone)
        deadline = time.monotonic() + timeout
        seen = None
        while time.monotonic() < deadline and seen is None:
            try:
                ev = q.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(ev, TagChange) and ev.present:
                seen = ev
        table.link.set_led(antenna, OFF)
        if seen is None:
            out.append(Result(f"antenna {antenna} ({zone})", False, f"no tag within {timeout:.0f} s"))
        elif seen.zone != zone:
            out.append(Result(f"antenna {antenna} ({zone})", False, f"the tag was seen on {seen.zone}"))
        else:
            out.append(Result(f"antenna {antenna} ({zone})", True, seen.uid))
    return out


def report(results: list[Result]) -> str:
    """A pass/fail table."""
    width = max([len(r.name) for r in results] + [5])
    lines = [f"{'check'.ljust(width)}  result  detail"]
    lines += [f"{r.name.ljust(width)}  {'PASS' if r.ok else 'FAIL':6s}  {r.detail}" for r in results]
    failed = sum(not r.ok for r in results)
    lines.append(f"{len(results) - failed} passed, {failed} failed")
    return "\n".join(lines)

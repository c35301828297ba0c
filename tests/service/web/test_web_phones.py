"""Phones as seat screens: the menu shows each seat's link as a QR code on the OLEDs, the code holds
exactly the link, its short form leads to the seat's page; a real table's phone buttons are the
button events gpiozero would give."""

from __future__ import annotations

import asyncio
import queue
from typing import Any

import pytest

from drivers.buttons import ButtonEvent
from firmware_host.apps.menu import Do
from firmware_host.loop.simulator import SimTable
from firmware_host.screens import qr
from firmware_host.web.inputs import InputError, Permit, TableInputs
from tests.kits.webkit import LiveTable, fast_config


def decoded(sim: SimTable, seat: int) -> list[list[int]]:
    spec = sim.config.seat(seat).screen
    image = sim.table.sim_screens.pixels(spec.bus, spec.address).convert("1")
    return qr.decode_picture(image)


def test_the_menu_shows_every_seats_link_as_a_qr_code(table: Any) -> None:
    sim, web = table
    sim.press(1, "ok")  # seat 1 takes the menu
    keys = [k for _, k in sim.runtime.app.entries()]
    assert keys[-1] == Do("phones")
    for _ in range(len(keys) - 1):
        sim.press(1, "right")
    sim.press(1, "ok")
    frames = sim.frames()
    assert frames[1].qr == web.server.seat_url(1) and frames[5].qr == web.server.seat_url(5)
    for seat in (1, 5, 8):  # seat 8's screen is mounted upside down: decoded as its player sees it
        link = web.server.seat_url(seat)
        assert link.startswith("HTTP://127.0.0.1:") and f"/S/{seat}/" in link
        spec = sim.config.seat(seat).screen
        image = sim.table.sim_screens.pixels(spec.bus, spec.address).convert("1")
        if spec.rotation:
            image = image.rotate(-90 * spec.rotation, expand=True)
        assert qr.decode_picture(image) == [list(r) for r in qr._matrix(link)], f"seat {seat}'s code"
    sim.press(1, "right")  # the host's screen shows the next seat's code: for a seat without a screen
    assert sim.frames()[1].qr == web.server.seat_url(2) and sim.frames()[2].qr == web.server.seat_url(2)
    sim.press(1, "ok")
    assert sim.runtime.app.step == "home" and sim.frames()[1].qr is None


def test_a_lan_link_fits_two_pixels_per_module() -> None:
    link = "HTTP://192.168.100.200:8080/S/8/ABCDEFGHIJKLMNOP"
    assert qr.modules(link) <= 29  # version 3: 58 pixels + a quiet zone in 64
    from games.core import Screen, tr

    picture = qr.qr_picture(link, Screen(tr("Siège 8", "Seat 8")), "fr", (128, 64))
    assert qr.decode_picture(picture) == [list(r) for r in qr._matrix(link)]


def test_the_short_link_leads_to_the_seats_page(tmp_path: Any) -> None:
    import aiohttp

    live = LiveTable(tmp_path)
    link = live.web.server.seat_url(3)
    token = live.web.server.access.seats[3]

    async def main() -> None:
        async with aiohttp.ClientSession() as http, http.get(link.replace("HTTP://", "http://")) as r:
            assert r.status == 200 and str(r.url).endswith(f"/seat/3?t={token}")
            assert "seat.js" in await r.text()

    try:
        asyncio.run(main())
    finally:
        live.close()


def test_a_real_tables_phone_buttons_are_gpiozero_like_events() -> None:
    config = fast_config()
    events: queue.Queue[Any] = queue.Queue()
    later: list[tuple[float, Any]] = []
    now = [10.0]
    from firmware_host.storage.tags import all_game_pieces, sim_registry

    inputs = TableInputs(config, sim_registry(all_game_pieces()), post=events.put,
                         later=lambda delay, fn: later.append((delay, fn)), clock=lambda: now[0])
    permit = Permit(2, frozenset())
    inputs.handle({"do": "button", "seat": 2, "button": "ok", "down": True}, permit)
    inputs.handle({"do": "button", "seat": 2, "button": "ok", "down": True}, permit)  # key repeat: one press
    assert later and later[0][0] == config.hold_time
    later[0][1]()  # still down after hold_time: a long press
    inputs.handle({"do": "button", "seat": 2, "button": "ok", "down": False}, permit)
    got = [events.get_nowait() for _ in range(events.qsize())]
    assert got == [ButtonEvent(2, "ok", "press", 10.0), ButtonEvent(2, "ok", "long", 10.0),
                   ButtonEvent(2, "ok", "release", 10.0)]
    inputs.handle({"do": "button", "seat": 2, "button": "left", "down": True}, permit)
    inputs.handle({"do": "button", "seat": 2, "button": "left", "down": False}, permit)
    later[-1][1]()  # released before hold_time: no long press
    assert [e.kind for e in [events.get_nowait() for _ in range(events.qsize())]] == ["press", "release"]
    with pytest.raises(InputError, match="senses its pieces itself"):
        inputs.handle({"do": "place", "zone": "seat2.pad", "piece": "zop/light/attack/1"},
                      Permit(2, frozenset({"seat2.pad"})))


def test_a_pages_tap_is_never_a_long_press_however_late_its_loop_runs() -> None:
    """A menu entry tapped on a page: its press and release come in one message. Sent as two, a
    web loop busy for longer than hold_time between them lets the long-press check run first and
    OK becomes a long press (the quit prompt); as one, no check runs in between."""
    config = fast_config()
    events: queue.Queue[Any] = queue.Queue()
    later: list[Any] = []
    from firmware_host.storage.tags import all_game_pieces, sim_registry

    inputs = TableInputs(config, sim_registry(all_game_pieces()), post=events.put,
                         later=lambda delay, fn: later.append(fn), clock=lambda: 10.0)
    permit = Permit(2, frozenset())

    def kinds() -> list[tuple[str, str]]:
        return [(e.button, e.kind) for e in [events.get_nowait() for _ in range(events.qsize())]
                if isinstance(e, ButtonEvent)]

    # two messages, the loop late between them: the check runs before the release is read
    inputs.handle({"do": "button", "seat": 2, "button": "ok", "down": True}, permit)
    for check in later:
        check()
    inputs.handle({"do": "button", "seat": 2, "button": "ok", "down": False}, permit)
    assert kinds() == [("ok", "press"), ("ok", "long"), ("ok", "release")]
    later.clear()
    # one message: press and release handed over together, so the check, however late, finds it up
    inputs.handle({"do": "button", "seat": 2, "button": "ok", "tap": True, "expect": "Jouer"}, permit)
    for check in later:
        check()
    assert kinds() == [("ok", "press"), ("ok", "release")]
    inputs.handle({"do": "button", "seat": 2, "button": "right", "tap": True}, permit)
    assert kinds() == [("right", "press"), ("right", "release")]
    # held on the page's own button: a tap in the middle is no second press; the press ends once
    inputs.handle({"do": "button", "seat": 2, "button": "left", "down": True}, permit)
    inputs.handle({"do": "button", "seat": 2, "button": "left", "tap": True}, permit)
    inputs.handle({"do": "button", "seat": 2, "button": "left", "down": False}, permit)
    assert kinds() == [("left", "press"), ("left", "release")]

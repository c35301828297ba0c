"""A page's OK says which menu entry it means: the table chooses it only while the seat's cursor
is still on an entry reading so. A phone's picture of the menu can be a frame late; an OK sent on
that picture must not choose whatever entry the table's menu has moved to, nor an OK sent to leave
one of the screen's extra pages once the seat is back on its menu."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from firmware_host.apps.app import StartRequest
from firmware_host.apps.session import GameSession
from firmware_host.loop.simulator import SimTable
from firmware_host.web.inputs import InputError, Permit
from firmware_host.web.redact import seat_payload
from firmware_host.web.service import WebService


def page_ok(sim: SimTable, web: WebService, seat: int, expect: Any, tap: bool = False) -> None:
    """The seat's page presses OK, its release naming the entry it means (None: it only leaves an
    extra page, "back"; `tap`: press and release in one message, as the page's menu choice sends
    them); handled on the web server's loop as a WebSocket message is, then the table's loop takes
    the events."""
    server = web.server
    before = sim.runtime.events
    means = {"back": True} if expect is None else {"expect": expect}

    async def press() -> None:
        permit = server._permit("seat", seat) or Permit(seat, frozenset())
        if tap:
            server.inputs.handle({"do": "button", "seat": seat, "button": "ok", "tap": True, **means}, permit)
            return
        server.inputs.handle({"do": "button", "seat": seat, "button": "ok", "down": True}, permit)
        server.inputs.handle({"do": "button", "seat": seat, "button": "ok", "down": False, **means}, permit)

    assert server._loop is not None
    asyncio.run_coroutine_threadsafe(press(), server._loop).result(5)
    assert sim.pump(lambda: sim.runtime.events >= before + 3)


def refused(sim: SimTable, web: WebService, seat: int) -> int:
    """How many of the seat's page's OKs chose nothing, as the seat's page reads it."""
    sim.pump(lambda: web.hub.latest is not None and web.hub.latest.refused == sim.runtime.refused)
    assert web.hub.latest is not None
    return int(seat_payload(web.hub.latest, seat, "fr")["refused"])


def shown(sim: SimTable, seat: int) -> dict[str, Any]:
    return dict(sim.runtime.app.frame(seat).text("fr"))


def test_an_ok_meant_for_an_entry_the_cursor_left_chooses_nothing(table: Any) -> None:
    sim, web = table
    sim.press(1)  # the games' menu
    before = shown(sim, 1)
    under_cursor = before["menu"][before["cursor"]]
    other = next(label for label in before["menu"] if label != under_cursor)
    assert refused(sim, web, 1) == 0
    page_ok(sim, web, 1, other)
    assert shown(sim, 1) == before  # the menu stays as it was: nothing chosen
    assert refused(sim, web, 1) == 1 and refused(sim, web, 2) == 0  # and its page, only, is told so
    page_ok(sim, web, 1, under_cursor)
    assert shown(sim, 1) != before  # the entry the page meant is chosen
    assert refused(sim, web, 1) == 1


def test_a_tap_meant_for_an_entry_the_cursor_left_chooses_nothing(table: Any) -> None:
    """The page's menu choice as it sends it: press and release of OK in one message."""
    sim, web = table
    sim.press(1)
    before = shown(sim, 1)
    under_cursor = before["menu"][before["cursor"]]
    other = next(label for label in before["menu"] if label != under_cursor)
    page_ok(sim, web, 1, other, tap=True)
    assert shown(sim, 1) == before and refused(sim, web, 1) == 1
    page_ok(sim, web, 1, under_cursor, tap=True)
    assert shown(sim, 1) != before and refused(sim, web, 1) == 1


def test_an_ok_without_expectation_chooses_as_a_button_does(table: Any) -> None:
    sim, web = table
    before = shown(sim, 1)
    server = web.server

    async def press() -> None:
        permit = server._permit("seat", 1) or Permit(1, frozenset())
        for down in (True, False):
            server.inputs.handle({"do": "button", "seat": 1, "button": "ok", "down": down}, permit)

    events = sim.runtime.events
    assert server._loop is not None
    asyncio.run_coroutine_threadsafe(press(), server._loop).result(5)
    assert sim.pump(lambda: sim.runtime.events >= events + 2)
    assert shown(sim, 1) != before


def on_extra_page(sim: SimTable, seat: int) -> None:
    """▶ on the table's own button past the menu's last entry, onto the screen's next page."""
    for _ in range(12):
        if sim.runtime.app.frame(seat).page:
            return
        sim.press(seat, "right")
    raise AssertionError(f"seat {seat}'s screen has no extra page: {shown(sim, seat)}")


@pytest.mark.parametrize("tap", [False, True])
def test_an_ok_meant_to_leave_an_extra_page_never_chooses_on_the_menu(table: Any, tap: bool) -> None:
    """Spywhere's first screen (six nationalities to remove and four lines) overflows onto a
    second page. A page that shows it sends OK to get back to the menu; if the table is on the
    menu already (here the seat's own button took it back; a new state does the same), that OK
    must not choose the entry under the cursor."""
    sim, web = table
    sim.runtime.start(StartRequest("spywhere", (1, 2)))  # the table's loop runs on this thread (a fake clock)
    app = sim.runtime.app
    assert isinstance(app, GameSession)
    on_extra_page(sim, 1)
    page_ok(sim, web, 1, None, tap=tap)
    assert (app.frame(1).page, app.frame(1).cursor, app.moves) == (0, 0, [])  # back to the menu
    on_extra_page(sim, 1)
    sim.press(1)  # the seat's own OK: back to the menu, before the page's OK arrives
    menu = shown(sim, 1)
    assert "page" not in menu
    page_ok(sim, web, 1, None, tap=tap)
    assert app.moves == [] and shown(sim, 1) == menu  # "Retirer France" is under the cursor: not chosen
    assert refused(sim, web, 1) == 0  # nothing to tell: the page gets the menu it meant to go back to
    page_ok(sim, web, 1, menu["menu"][0], tap=tap)
    assert app.moves[0] == (0, {"type": "remove", "nationality": "france"})  # the seat still chooses


@pytest.mark.parametrize("msg", [
    {"button": "ok", "down": False, "expect": 3},
    {"button": "ok", "down": False, "expect": ""},
    {"button": "ok", "down": False, "expect": "x" * 201},
    {"button": "ok", "down": True, "expect": "Jouer"},
    {"button": "right", "down": False, "expect": "Jouer"},
    {"button": "right", "tap": True, "expect": "Jouer"},
    {"button": "ok", "tap": 1},
    {"button": "ok", "tap": "yes"},
    {"button": "ok", "tap": True, "down": False},
    {"button": "ok", "tap": False},
    {"button": "ok", "tap": True, "back": 1},
    {"button": "ok", "tap": True, "back": "true"},
    {"button": "ok", "tap": True, "back": True, "expect": "Jouer"},
    {"button": "ok", "down": True, "back": True},
    {"button": "right", "tap": True, "back": True},
])
def test_a_bad_expectation_is_refused_in_one_line(table: Any, msg: dict[str, Any]) -> None:
    sim, web = table
    with pytest.raises(InputError) as err:
        web.server.inputs.handle({"do": "button", "seat": 1, **msg}, Permit(1, frozenset()))
    assert "\n" not in str(err.value)

"""A page's OK says which menu entry it means: the table chooses it only while the seat's cursor
is still on an entry reading so. A phone's picture of the menu can be a frame late; an OK sent on
that picture must not choose whatever entry the table's menu has moved to."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from firmware_host.loop.simulator import SimTable
from firmware_host.web.inputs import InputError, Permit
from firmware_host.web.redact import seat_payload
from firmware_host.web.service import WebService


def page_ok(sim: SimTable, web: WebService, seat: int, expect: Any, tap: bool = False) -> None:
    """The seat's page presses OK, its release naming the entry it means (`tap`: press and release
    in one message, as the page's menu choice sends them); handled on the web server's loop as a
    WebSocket message is, then the table's loop takes the events."""
    server = web.server
    before = sim.runtime.events

    async def press() -> None:
        permit = server._permit("seat", seat) or Permit(seat, frozenset())
        if tap:
            server.inputs.handle({"do": "button", "seat": seat, "button": "ok", "tap": True, "expect": expect},
                                 permit)
            return
        server.inputs.handle({"do": "button", "seat": seat, "button": "ok", "down": True}, permit)
        server.inputs.handle({"do": "button", "seat": seat, "button": "ok", "down": False, "expect": expect},
                             permit)

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
])
def test_a_bad_expectation_is_refused_in_one_line(table: Any, msg: dict[str, Any]) -> None:
    sim, web = table
    with pytest.raises(InputError) as err:
        web.server.inputs.handle({"do": "button", "seat": 1, **msg}, Permit(1, frozenset()))
    assert "\n" not in str(err.value)

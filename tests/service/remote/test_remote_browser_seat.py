"""A person without a table plays a seat of a game across tables from a browser anywhere: the host
table's phone seat page, its web bound as docs/remote.md says (on loopback, behind a TLS reverse
proxy answering for the name of `web.url`, the owner's token set). The browser's requests reach
the table as that proxy forwards them (the public name as `Host`, the https page as `Origin`); the
seat's link is the one the owner reads on `/links`; the game is played to its end at both tables,
the browser's player pressing its page's buttons over its WebSocket. A request naming another
host or coming from another site's page is refused."""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
from typing import Any

import pytest

from firmware_host.apps.menu import Do, Pick
from firmware_host.apps.session import GameSession
from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.storage.config import parse_config, sim_config_text
from firmware_host.web.service import start_web
from tests.kits.menus import entries
from tests.kits.remotekit import join_by_code, pump
from tests.service.apps.solo_table import human_move, menu_to
from tests.service.remote.test_remote_seats_menu import relay as relay

OWNER = "owner-token-0123456789"
PUBLIC = "table.example.org"  # the name the reverse proxy answers for, with its TLS certificate
PROXIED = {"Host": PUBLIC, "Origin": f"https://{PUBLIC}"}  # what the proxy forwards of the browser's requests


def host_config(port: int) -> Any:
    """The host table's config: `[remote]` on the test's broker, `[web]` as docs/remote.md says."""
    text = sim_config_text()
    web = {"enabled = false": "enabled = true", 'host = "127.0.0.1"': 'host = "127.0.0.1"',
           "port = 8080": "port = 0", 'token = ""': f'token = "{OWNER}"', 'url = ""': f'url = "https://{PUBLIC}"'}
    start = text.index("[web]")
    end = text.index("[[seats]]", start)
    section = text[start:end]
    for old, new in web.items():
        assert old in section, old
        section = section.replace(old, new, 1)
    text = text[:start] + section + text[end:]
    return parse_config(text + f'\n[remote]\nhost = "127.0.0.1"\nport = {port}\nreconnect_max = 0.5\n')


class Browser:
    """The far player's browser: its page's WebSocket on its own thread, reaching the table through
    the proxy (the proxy's forwarded headers), recording what the page gets and sending its presses."""

    def __init__(self, url: str, headers: dict[str, str]):
        self.url, self.headers = url, headers
        self.messages: list[dict[str, Any]] = []
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.ws: Any = None
        self.session: Any = None
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._open(), self.loop).result(10)

    async def _open(self) -> None:
        import aiohttp

        self.session = aiohttp.ClientSession()
        self.ws = await self.session.ws_connect(self.url, headers=self.headers)
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            self.messages.append(json.loads(msg.data))

    def send(self, request: dict[str, Any]) -> None:
        asyncio.run_coroutine_threadsafe(self.ws.send_json(request), self.loop).result(5)

    def close(self) -> None:
        async def shut() -> None:
            await self.ws.close()
            await self.session.close()

        asyncio.run_coroutine_threadsafe(shut(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def get(url: str, headers: dict[str, str]) -> tuple[int, str, dict[str, str]]:
    """One HTTP request as the proxy forwards it: status, body, headers (redirects not followed)."""
    import aiohttp

    async def run() -> tuple[int, str, dict[str, str]]:
        async with aiohttp.ClientSession() as session, \
                session.get(url, headers=headers, allow_redirects=False) as response:
            return response.status, await response.text(), dict(response.headers)

    return asyncio.run(run())




@pytest.mark.usefixtures("relay")
def test_a_browser_anywhere_plays_a_seat_of_a_game_across_tables(broker):
    a = SimTable(host_config(broker.port), clock=FakeClock(), seed=1)
    b = SimTable(host_config(broker.port), clock=FakeClock(), seed=2)
    web = start_web(a.table, a.registry, port=0)
    local = f"http://127.0.0.1:{web.server.port}"  # where the proxy, on the same machine, sends the requests
    browser: Browser | None = None
    try:
        for sim in (a, b):
            assert sim.wait_ready()
            sim.settle()
        # the host table: its player, a phone seat for the far player, one player at the other table
        a.press(1, "ok")
        menu_to(a, 1, Pick("relay"))
        menu_to(a, 1, Do("extra"))
        menu_to(a, 1, Do("remote"))
        labels = [t.fr for t, _ in a.runtime.app.entries()]
        assert "Téléphones : 1" in labels and "À distance : J3" in labels
        menu_to(a, 1, Do("start"))
        host = a.runtime.app
        phone = a.runtime.phone_ids[0]
        assert isinstance(host, GameSession) and host.seats == (1, phone, None)
        code = a.runtime.remote_game.code
        join_by_code(b, 3, code)
        assert pump([a, b], lambda: isinstance(b.runtime.app, GameSession))
        joined = b.runtime.app
        assert joined.seats == (None, None, 3)

        # the owner reads the seat's link on /links (its token), and sends it to the far player
        status, page, _ = get(f"{local}/links?t={OWNER}", PROXIED)
        assert status == 200
        key = re.search(r'name="zt-key" content="([^"]+)"', page).group(1)
        status, body, _ = get(f"{local}/api/links?t={OWNER}&k={key}", PROXIED)
        link = next(x["url"] for x in json.loads(body)["links"] if x["seat"] == phone)
        origin = f"https://{PUBLIC}"
        # through the proxy, on its TLS name (in capitals: the QR code's alphanumeric mode)
        assert link.lower().startswith(f"{origin}/s/{phone}/")
        path = link[len(origin):]
        status, _, headers = get(local + path, PROXIED)
        assert status == 302
        seat_page = headers["Location"]
        status, html, headers = get(local + seat_page, PROXIED)
        assert status == 200 and "seat.js" in html and f"wss://{PUBLIC}" in headers["Content-Security-Policy"]
        token = seat_page.split("t=")[1]
        # what is not the table's own name, or another site's page, reads nothing
        assert get(local + seat_page, {"Host": "evil.example"})[0] == 421
        assert get(local + seat_page, {"Host": PUBLIC, "Origin": "https://evil.example"})[0] == 403

        browser = Browser(f"{local}/ws?role=seat&seat={phone}&t={token}", PROXIED)
        hello = pump([a, b], lambda: next((m for m in browser.messages if m.get("kind") == "hello"), None))
        assert hello and hello["seat"] == phone and hello["phone"]

        def press(button: str) -> None:
            for down in (True, False):
                browser.send({"do": "button", "seat": phone, "button": button, "down": down})
            events = a.runtime.events
            assert pump([a], lambda: a.runtime.events >= events + 2)

        rng = random.Random(4)
        pressed = 0
        while not (host.over and joined.over):
            assert pump([a, b], lambda: host.moves == joined.moves and not a.runtime.remote_game.link.unacknowledged()
                        and not b.runtime.remote_game.link.unacknowledged())
            if host.over:
                break
            if 1 in host.to_act():  # the far player's turn: its page's menu, with its buttons
                choices = entries(host, 1)
                pick = rng.randrange(len([c for c in choices if isinstance(c, dict)]))
                moves = len(host.moves)
                for _ in range(pick):
                    press("right")
                press("ok")
                assert pump([a], lambda: len(host.moves) > moves), host.ui[1].cursor
                pressed += 1
            else:
                assert human_move(a, rng) or human_move(b, rng)
        assert pressed >= 2 and {seat for seat, _ in host.moves} == {0, 1, 2}
        assert host.state == joined.state
        # the far player's page showed its seat's screen all along
        assert any(m.get("kind") != "hello" for m in browser.messages)
    finally:
        if browser is not None:
            browser.close()
        web.stop()
        for sim in (a, b):
            game = sim.runtime.remote_game
            if game is not None:
                game.close()
            sim.close()

"""The pages against other sites and hostile clients, over real HTTP and WebSocket (raw headers):
`Host` names only this table (DNS rebinding fails), `Origin` only the page's own, the virtual
table's channel needs the key written into its page, every response carries the protective
headers, a transcript upload needs the owner's token and is refused before it is read when too
large, a deeply nested message gets the clear error, never a RecursionError."""

from __future__ import annotations

import asyncio
import json
import logging
from html.parser import HTMLParser
from typing import Any

import pytest

from firmware_host.web.server import MAX_UPLOAD, STATIC
from tests.kits.webkit import LiveTable

OWNER = "owner-secret-token-1234"


@pytest.fixture
def owned(tmp_path: Any) -> Any:
    table = LiveTable(tmp_path, token=OWNER)
    yield table
    table.close()


async def raw(port: int, head: str, body: bytes = b"", read_body: bool = True) -> tuple[int, dict[str, str], str]:
    """One request written byte for byte: (status, headers with lower-case names, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), 10)
        headers: dict[str, str] = {}
        while (line := await asyncio.wait_for(reader.readline(), 10)) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        text = ""
        if read_body and "content-length" in headers:
            text = (await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), 10)).decode()
        return int(status_line.split()[1]), headers, text
    finally:
        writer.close()


def links_path(live: LiveTable) -> str:
    return f"/api/links?k={live.web.server.access.table}"


def test_another_host_name_is_refused_so_dns_rebinding_fails(live: LiveTable) -> None:
    import aiohttp

    port = live.web.server.port
    token = live.web.server.access.seats[1]

    async def main() -> None:
        async with aiohttp.ClientSession() as http:
            for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", f"[::1]:{port}",
                         "127.0.0.1", f"localhost.:{port}"):
                async with http.get(live.base + links_path(live), headers={"Host": host}) as r:
                    assert r.status == 200, host
                    assert token in await r.text()
            for host in (f"rebind.evil.example:{port}", "rebind.evil.example", f"127.0.0.1.evil.example:{port}",
                         f"localhost@evil.example:{port}", f"evil.example/{port}", "", f"[::2]:{port}"):
                for path in (links_path(live), "/", "/watch", f"/seat/1?t={token}", "/static/app.js", "/nope"):
                    async with http.get(live.base + path, headers={"Host": host}) as r:
                        body = await r.text()
                        assert r.status == 421, (host, path, r.status)
                        assert token not in body and live.web.server.access.table not in body
        # no Host at all (HTTP/1.0): no browser sends that, and it names no table
        status, _, body = await raw(port, f"GET {links_path(live)} HTTP/1.0\n")
        assert status == 421 and token not in body

    asyncio.run(main())


def test_another_sites_origin_is_refused_on_websockets_posts_and_reads(live: LiveTable) -> None:
    import aiohttp

    base, key = live.base, live.web.server.access.table
    own = base  # http://127.0.0.1:PORT
    port = live.web.server.port
    foreign = [f"http://127.0.0.1:{port + 1}", "http://evil.example", "null", f"https://127.0.0.1:{port}",
               f"http://127.0.0.1:{port}.evil.example", f"http://localhost:{port}"]

    async def ws_status(path: str, headers: dict[str, str]) -> tuple[int, dict[str, Any] | None]:
        async with aiohttp.ClientSession() as http:
            try:
                async with http.ws_connect(base + path, headers=headers) as ws:
                    return 101, json.loads((await ws.receive(timeout=20)).data)
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status, None

    async def main() -> None:
        # the page's own origin (and a program sending none) opens the table's channel with its key
        for headers in ({"Origin": own}, {}):
            status, hello = await ws_status(f"/ws?role=table&k={key}", headers)
            assert status == 101 and hello is not None and "links" in hello
        for origin in foreign:
            for path in (f"/ws?role=table&k={key}", "/ws?role=watch", f"/ws?role=seat&seat=1&t={live.web.server.access.seats[1]}"):
                status, hello = await ws_status(path, {"Origin": origin})
                assert (status, hello) == (403, None), (origin, path)
        # knowing the port is not enough: no key, a wrong key
        wrong = key[:-1] + ("y" if key.endswith("x") else "x")  # its last character changed, whatever it was
        for path in ("/ws?role=table", "/ws?role=table&k=", "/ws?role=table&k=" + wrong):
            assert await ws_status(path, {"Origin": own}) == (403, None), path
        # a browser saying the request is another site's, with or without Origin
        assert (await ws_status(f"/ws?role=table&k={key}", {"Sec-Fetch-Site": "same-site"}))[0] == 403
        async with aiohttp.ClientSession() as http:
            for origin in foreign:
                async with http.post(base + "/api/transcript", data=TRANSCRIPT, headers={"Origin": origin}) as r:
                    assert r.status == 403, origin
                async with http.get(base + f"/api/links?k={key}", headers={"Origin": origin}) as r:
                    assert r.status == 403 and key not in await r.text()
            async with http.post(base + "/api/transcript", data=TRANSCRIPT, headers={"Sec-Fetch-Site": "cross-site"}) as r:
                assert r.status == 403
            assert not live.web.server.replays._transcripts, "a refused upload was kept"
            async with http.post(base + "/api/transcript", data=TRANSCRIPT,
                                 headers={"Origin": own, "Sec-Fetch-Site": "same-origin"}) as r:
                assert r.status == 200, await r.text()
            async with http.get(base + "/api/links", headers={"Origin": own}) as r:
                assert r.status == 403  # the seat links need the page's key too

    asyncio.run(main())


TRANSCRIPT = json.dumps({"i": 0, "event": {}, "app": "menu", "leds": {}, "screens": {"1": {"title": "x", "lines": []}}}) + "\n"
SECURITY_HEADERS = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


def check_headers(what: str, headers: dict[str, str], static: bool = False) -> None:
    """The protective headers of one response."""
    csp = headers.get("content-security-policy", "")
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, (what, csp)
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "script-src 'self'" in csp, (what, csp)
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name) == value, (what, name, headers.get(name))
    server = headers.get("server", "")
    assert "aiohttp" not in server.lower() and "python" not in server.lower() and not any(c.isdigit() for c in server), (what, server)
    if not static:
        assert headers.get("cache-control") == "no-store", (what, headers.get("cache-control"))
    assert "set-cookie" not in headers and not any(h.startswith("access-control-") for h in headers), what
    kind = headers.get("content-type", "")
    assert not kind.startswith(("text/", "application/javascript", "application/json")) or "charset=utf-8" in kind, (what, kind)
    if " /api/" in what:
        assert headers.get("content-disposition", "").startswith("attachment"), what


def test_every_response_carries_the_protective_headers(owned: LiveTable) -> None:
    port = owned.web.server.port
    server = owned.web.server
    seat = server.access.seats[1]
    key = server.access.table
    host = f"Host: 127.0.0.1:{port}\nConnection: close\n"
    ws = "Upgrade: websocket\nConnection: Upgrade\nSec-WebSocket-Version: 13\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\n"
    cases = [  # (request head, expected status)
        (f"GET /?t={OWNER} HTTP/1.1\n{host}", 200), ("GET / HTTP/1.1\n" + host, 403),
        ("GET /watch HTTP/1.1\n" + host, 200), ("GET /replay HTTP/1.1\n" + host, 200),
        (f"GET /links?t={OWNER} HTTP/1.1\n{host}", 200), (f"GET /seat/1?t={seat} HTTP/1.1\n{host}", 200),
        ("GET /seat/1?t=AAAAAAAAAAAAAAAA HTTP/1.1\n" + host, 403), (f"GET /S/1/{seat} HTTP/1.1\n{host}", 302),
        (f"GET /api/links?t={OWNER}&k={key} HTTP/1.1\n{host}", 200), (f"GET /api/links?t={OWNER} HTTP/1.1\n{host}", 403),
        (f"GET /api/access?role=seat&seat=1&t={seat} HTTP/1.1\n{host}", 200), ("GET /api/games HTTP/1.1\n" + host, 200),
        ("GET /api/replay/1?step=0 HTTP/1.1\n" + host, 404), ("GET /api/replay/1?step=x HTTP/1.1\n" + host, 400),
        (f"POST /api/transcript?t={OWNER} HTTP/1.1\n{host}Content-Length: 9\n", 400),
        (f"POST /api/transcript?t={OWNER} HTTP/1.1\n{host}Content-Length: {MAX_UPLOAD + 1}\n", 413),
        ("POST /api/transcript HTTP/1.1\n" + host + "Content-Length: 9\n", 403),
        ("GET /nope HTTP/1.1\n" + host, 404), ("POST /watch HTTP/1.1\n" + host + "Content-Length: 0\n", 405),
        ("GET /ws HTTP/1.1\n" + host, 400),  # not an upgrade
        ("GET /ws?role=table HTTP/1.1\nHost: 127.0.0.1\n" + ws, 403),
        (f"GET /ws?role=table&t={OWNER}&k={key} HTTP/1.1\nHost: 127.0.0.1\nOrigin: http://evil.example\n" + ws, 403),
        (f"GET /watch HTTP/1.1\nHost: rebind.evil.example:{port}\nConnection: close\n", 421),
        ("GET /ws?role=watch HTTP/1.1\nHost: 127.0.0.1\n" + ws, 101),
        (f"GET /ws?role=table&t={OWNER}&k={key} HTTP/1.1\nHost: 127.0.0.1:{port}\nOrigin: http://127.0.0.1:{port}\n" + ws, 101),
    ]
    statics = sorted(p.name for p in STATIC.iterdir())
    assert {"app.js", "style.css", "table.html"} <= set(statics)

    async def main() -> None:
        for head, expected in cases:
            body = b"{not json" if "Content-Length: 9" in head else b""
            status, headers, text = await raw(port, head, body, read_body=expected != 101)
            assert status == expected, (head, status, text)
            check_headers(head.splitlines()[0], headers)
            assert OWNER not in text or head.startswith("GET /links") or head.startswith("GET /?")
        for name in statics:
            status, headers, _ = await raw(port, f"GET /static/{name} HTTP/1.1\n{host}")
            assert status == 200, name
            check_headers(name, headers, static=True)
        csp = (await raw(port, "GET /watch HTTP/1.1\n" + host))[1]["content-security-policy"]
        assert f"connect-src 'self' ws://127.0.0.1:{port} wss://127.0.0.1:{port};" in csp  # the page's own socket only

    asyncio.run(main())


class _Inline(HTMLParser):
    """Collects what a Content-Security-Policy without 'unsafe-inline' would block in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k.lower(): v for k, v in attrs}
        if tag == "script":
            self._script = True
            if not names.get("src"):
                self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style>")
        self.found += [f"{tag} {k}=" for k in names if k.startswith("on") or k == "style"]
        if any((v or "").strip().lower().startswith("javascript:") for v in names.values()):
            self.found.append(f"{tag} javascript: URL")

    def handle_endtag(self, tag: str) -> None:
        self._script = self._script and tag != "script"

    def handle_data(self, data: str) -> None:
        if self._script and data.strip():
            self.found.append("inline script text")


def test_the_pages_hold_no_inline_script_or_style_the_policy_would_block() -> None:
    pages = sorted(STATIC.glob("*.html"))
    assert len(pages) >= 5
    for page in pages:
        parser = _Inline()
        parser.feed(page.read_text(encoding="utf-8"))
        assert not parser.found, (page.name, parser.found)
    for script in STATIC.glob("*.js"):  # markup made by the scripts themselves
        text = script.read_text(encoding="utf-8")
        assert 'setAttribute("style"' not in text and "eval(" not in text and "new Function" not in text, script.name


def test_a_deeply_nested_message_gets_the_clear_error_and_the_socket_goes_on(
        live: LiveTable, caplog: pytest.LogCaptureFixture) -> None:
    import aiohttp

    seat = live.web.server.access.seats[1]
    deep_60k = "[" * 30_000 + "]" * 30_000
    deep_4k = "[" * 2_000 + "]" * 2_000  # deeper than the parser's recursion limit, under the size limit
    deep_object = '{"do":' * 500 + "1" + "}" * 500

    async def main() -> None:
        async with aiohttp.ClientSession() as http:
            for path in ("/ws?role=watch", f"/ws?role=seat&seat=1&t={seat}"):
                async with http.ws_connect(live.base + path) as ws:
                    for text, said in ((deep_60k, "at most 4096 bytes"), (deep_4k, "nested deeper than"),
                                       (deep_object, "nested deeper than")):
                        await ws.send_str(text)
                        message = await _error(ws)
                        assert said in message, message
                    await ws.send_json({"do": "jump"})  # the socket still answers
                    message = await _error(ws)
                    assert "unknown request" in message or "no controls" in message, message
                    assert not ws.closed
                async with http.ws_connect(live.base + "/ws?role=watch") as ws:
                    await ws.send_str("[" * 40_000 + "]" * 40_000)  # larger than any frame a page may send
                    msg = await ws.receive(timeout=20)
                    while msg.type == aiohttp.WSMsgType.TEXT:  # hello and updates sent before it
                        assert json.loads(msg.data)["kind"] != "error"
                        msg = await ws.receive(timeout=20)
                    assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
                    assert ws.close_code == 1009, ws.close_code  # "message too big", before any parsing
            upload = (TRANSCRIPT + '{"screens": ' + "[" * 2_000 + "]" * 2_000 + "}\n").encode()
            async with http.post(live.base + "/api/transcript", data=upload) as r:
                doc = await r.json()
                assert r.status == 400 and "line 2" in doc["error"] and "nested deeper" in doc["error"], doc
            async with http.post(live.base + "/api/transcript", data=TRANSCRIPT.encode() + b'{"a": "\xff"}\n') as r:
                doc = await r.json()
                assert r.status == 400 and doc["error"] == "line 2: not UTF-8 text (byte 8: ff)", doc

    with caplog.at_level(logging.DEBUG):
        asyncio.run(main())
    logged = "\n".join(r.getMessage() + str(r.exc_info or "") for r in caplog.records)
    assert "RecursionError" not in logged and "Traceback" not in logged and not any(r.exc_info for r in caplog.records)


async def _error(ws: Any) -> str:
    while True:
        msg = json.loads((await ws.receive(timeout=20)).data)
        if msg["kind"] == "error":
            return str(msg["message"])


def test_tokens_are_long_random_and_new_at_each_start() -> None:
    from firmware_host.storage.config import parse_config, sim_config_text
    from firmware_host.web.tokens import Access

    config = parse_config(sim_config_text())
    seats = [s.id for s in config.seats]
    first, second = Access(config.web, seats), Access(config.web, seats)
    tokens = [*first.seats.values(), *second.seats.values()]
    assert len(set(tokens)) == 2 * len(seats)
    assert all(len(t) == 16 and set(t) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for t in tokens)  # 80 bits
    assert first.table != second.table and len(first.table) >= 32  # 192 bits, URL-safe base64
    assert not first.table_ok("") and not first.table_ok(None) and not first.table_ok(second.table)
    assert not first.seat_ok(seats[0], "") and not first.seat_ok(seats[0], second.seats[seats[0]])


TRAVERSALS = ["/static/../server.py", "/static/%2e%2e/server.py", "/static/%2E%2E%2Fserver.py", "/static/..%2fserver.py",
              "/static/....//server.py", "/static/..\\server.py", "/static/..%5cserver.py", "/static/%252e%252e/server.py",
              "/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/static//etc/passwd",
              "/static/%2fetc%2fpasswd", "/static/./../tokens.py", "/static/app.js/../../guard.py", "/static/.%2e/hub.py",
              "/static/%c0%ae%c0%ae/server.py", "/static/..;/server.py", "/static/", "/static", "/static/app.js%00.html"]


def test_paths_outside_the_static_folder_are_refused(live: LiveTable) -> None:
    port = live.web.server.port

    async def main() -> None:
        for path in TRAVERSALS:
            status, headers, text = await raw(port, f"GET {path} HTTP/1.1\nHost: 127.0.0.1:{port}\nConnection: close\n")
            assert status in (400, 403, 404), (path, status)
            assert "root:" not in text and "import" not in text and "<li>" not in text, path  # no file, no listing
            check_headers(path, headers, static=True)

    assert len(TRAVERSALS) == 20
    asyncio.run(main())


def test_a_failing_request_is_one_sentence_without_a_traceback(live: LiveTable, caplog: pytest.LogCaptureFixture) -> None:
    import aiohttp

    def broken() -> list[Any]:
        raise RuntimeError("the journal vanished /secret/path")

    live.web.server.replays.games = broken  # type: ignore[method-assign]

    async def main() -> tuple[int, str]:
        async with aiohttp.ClientSession() as http, http.get(live.base + "/api/games") as r:
            return r.status, await r.text()

    def refuses(seat: int, token: str | None) -> bool:
        raise RuntimeError("the tokens vanished")

    token = live.web.server.access.seats[1]
    live.web.server.access.seat_ok = refuses  # type: ignore[method-assign]

    async def short_link() -> tuple[int, str]:
        async with aiohttp.ClientSession() as http, http.get(f"{live.base}/S/1/{token}", allow_redirects=False) as r:
            return r.status, await r.text()

    with caplog.at_level(logging.ERROR):
        status, text = asyncio.run(main())
        assert status == 500 and text.count(".") == 1 and "Traceback" not in text and "secret" not in text, text
        status, text = asyncio.run(short_link())
        assert status == 500 and token not in text
    logged = [r.getMessage() + str(r.exc_info) for r in caplog.records]
    assert any("/api/games" in m for m in logged) and any("/S/{seat}/{token}" in m for m in logged), logged
    assert not any(token in m for m in logged), "a seat's token went to the log"


def test_an_upload_needs_the_owners_token_and_too_large_is_refused_before_it_is_read(owned: LiveTable) -> None:
    port = owned.web.server.port
    host = f"Host: 127.0.0.1:{port}\n"

    async def main() -> None:
        # the body is never sent: the answer comes from the headers alone
        status, _, text = await raw(port, f"POST /api/transcript?t={OWNER} HTTP/1.1\n{host}Content-Length: {1 << 40}\n")
        assert status == 413 and "at most 8 MB" in text
        status, _, text = await raw(port, f"POST /api/transcript HTTP/1.1\n{host}Content-Length: {1 << 30}\n")
        assert status == 403 and "owner" in text
        status, _, _ = await raw(port, f"POST /api/transcript?t=wrong-owner-token-0000 HTTP/1.1\n{host}Content-Length: 10\n")
        assert status == 403
        # a chunked body says no length: it is read in chunks and refused once past the limit
        chunk = b"x" * 65536
        body = (b"%x\r\n" % len(chunk) + chunk + b"\r\n") * (MAX_UPLOAD // len(chunk) + 2) + b"0\r\n\r\n"
        status, _, text = await raw(port, f"POST /api/transcript?t={OWNER} HTTP/1.1\n{host}Transfer-Encoding: chunked\n", body)
        assert status == 413
        status, _, text = await raw(port, f"POST /api/transcript?t={OWNER} HTTP/1.1\n{host}Content-Length: {len(TRANSCRIPT)}\n",
                                    TRANSCRIPT.encode())
        assert status == 200 and json.loads(text)["count"] == 1

    asyncio.run(main())



def _request(host: str, reached: str = "192.168.1.20", origin: str | None = None, method: str = "GET") -> Any:
    from unittest import mock

    from aiohttp.test_utils import make_mocked_request

    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda name, default=None: (reached, 8080) if name == "sockname" else default
    headers = {"Host": host, **({"Origin": origin} if origin else {})}
    return make_mocked_request(method, "/api/transcript", headers=headers, transport=transport)


def test_a_table_on_the_network_accepts_its_own_names_only() -> None:
    import socket

    from firmware_host.web.guard import Guard
    from firmware_host.web.settings import WebConfig

    lan = Guard(WebConfig(host="0.0.0.0", port=8080, token="x" * 16, url="http://Table.Lan:8080"), "http://Table.Lan:8080")
    machine = socket.gethostname().lower()
    assert {"table.lan", machine, machine + ".local", "localhost", "127.0.0.1", "::1"} <= lan.names
    for host in ("table.lan:8080", "TABLE.LAN", f"{machine}.local:8080", "192.168.1.20:8080", "localhost:8080"):
        assert lan.refusal(_request(host)) is None, host
    # the address the connection reached, as IPv4 inside IPv6 (a table listening on "::")
    assert lan.refusal(_request("192.168.1.20:8080", reached="::ffff:192.168.1.20")) is None
    for host in ("rebind.evil.example:8080", "192.168.1.21:8080", "table.lan.evil.example", "table.lan:8080@evil"):
        refused = lan.refusal(_request(host))
        assert refused is not None and refused.status == 421, host
    assert lan.refusal(_request("table.lan:8080", origin="http://table.lan:8080", method="POST")) is None
    assert lan.refusal(_request("table.lan", origin="http://table.lan", method="POST")) is None  # port 80 either way
    refused = lan.refusal(_request("table.lan:8080", origin="http://table.lan:8081", method="POST"))
    assert refused is not None and refused.status == 403
    fixed = Guard(WebConfig(host="192.168.1.20", port=8080, token="x" * 16), "http://192.168.1.20:8080")
    assert fixed.names == {"192.168.1.20"}  # no loopback name: the table does not listen there
    behind_tls = Guard(WebConfig(host="127.0.0.1", url="https://table.example"), "https://table.example")
    assert behind_tls.refusal(_request("table.example", reached="127.0.0.1", origin="https://table.example",
                                       method="POST")) is None


def test_a_kept_transcript_finds_each_seats_last_printed_screen() -> None:
    from firmware_host.web.replay import Replays

    def line(i: int, screens: dict[str, Any]) -> str:
        return json.dumps({"i": i, "event": {}, "app": "menu", "leds": {}, "screens": screens}) + "\n"

    text = (line(0, {"1": {"title": "un", "lines": []}}) + "\n" + line(1, {})
            + line(2, {"2": {"title": "deux", "lines": []}}) + line(3, {"1": {"title": "trois", "lines": []}}))
    replays = Replays(None, "fr")
    doc = replays.load_transcript(text.encode())
    assert doc["count"] == 4 and doc["seats"] == [1, 2]  # the empty line is no step
    screens = {(step, seat): replays.step(doc["id"], seat, step)["payload"]["screen"]
               for step in range(4) for seat in (1, 2)}
    assert screens[(1, 2)] is None and screens[(0, 2)] is None
    assert screens[(0, 1)] == screens[(1, 1)] == screens[(2, 1)] != screens[(3, 1)]  # printed at 0, again at 3
    assert screens[(2, 2)] is not None and screens[(3, 2)] == screens[(2, 2)]

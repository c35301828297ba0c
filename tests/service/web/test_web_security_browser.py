"""The pages against other sites, in headless Chromium: a page served from another origin (another
port on 127.0.0.1) tries the table's WebSocket, its seat links, an upload and a frame, and gets
nothing; a site's name resolved to 127.0.0.1 (DNS rebinding) gets 421; the table's own pages still
work under their Content-Security-Policy, with no violation reported."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.kits.webkit import CHROMIUM, CHROMIUM_ARGS, LiveTable, shot

EVIL = """<!doctype html><html><head><meta charset="utf-8"><title>another site</title></head><body>
<iframe id="frame" src="http://127.0.0.1:PORT/watch"></iframe>
<script>
window.result = { opened: [], messages: [], closed: [], links: null, post: null };
const tries = ["ws://127.0.0.1:PORT/ws?role=table", "ws://127.0.0.1:PORT/ws?role=table&k=",
               "ws://localhost:PORT/ws?role=table", "ws://127.0.0.1:PORT/ws?role=watch"];
let pending = tries.length + 2;
function finish() { if (--pending === 0) window.done = true; }
for (const url of tries) {
  const ws = new WebSocket(url);
  ws.onopen = () => {
    result.opened.push(url);
    ws.send(JSON.stringify({ do: "button", seat: 1, button: "ok", down: true }));
    setTimeout(() => ws.close(), 2000);  // what an open socket got by then is in result.messages
  };
  ws.onmessage = ev => result.messages.push(String(ev.data).slice(0, 300));
  ws.onclose = () => { result.closed.push(url); finish(); };
}
fetch("http://127.0.0.1:PORT/api/links").then(r => r.text()).then(t => { result.links = t; }, e => { result.links = "refused: " + e; }).then(finish);
fetch("http://127.0.0.1:PORT/api/transcript", { method: "POST", mode: "no-cors", body: TRANSCRIPT })
  .then(r => { result.post = r.type; }, e => { result.post = "refused: " + e; }).then(finish);
</script></body></html>"""
TRANSCRIPT = json.dumps({"i": 0, "event": {}, "app": "menu", "leds": {}, "screens": {"1": {"title": "x", "lines": []}}})


class _Site:
    """Another web site on another port of 127.0.0.1, serving one page."""

    def __init__(self, page: str):
        body = page.encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_another_sites_page_gets_nothing_from_the_table(browser: Any, live: LiveTable) -> None:
    port = live.web.server.port
    site = _Site(EVIL.replace("PORT", str(port)).replace("TRANSCRIPT", json.dumps(TRANSCRIPT)))
    page = browser.new_page()
    events = live.runtime.events
    try:
        page.goto(f"http://127.0.0.1:{site.port}/")
        page.wait_for_function("() => window.done === true", timeout=20000)
        result = page.evaluate("() => window.result")
        frame = page.frame_locator("#frame")
        framed = frame.locator("#centre").count()
        shot(page, "08-another-site")
    finally:
        page.close()
        site.close()
    assert result["opened"] == [] and result["messages"] == [], result
    assert len(result["closed"]) == 4, result
    assert result["links"].startswith("refused"), result  # no CORS: the answer cannot be read either
    tokens = [*live.web.server.access.seats.values(), live.web.server.access.table]
    assert not any(t in json.dumps(result) for t in tokens)
    assert framed == 0, "the table's page ran inside another site's frame"
    assert not live.web.server.replays._transcripts, "another site's upload was kept"
    assert live.runtime.events == events, "another site's page pressed a button"
    assert live.web.server.pages == 0


def test_a_name_resolved_to_the_table_dns_rebinding_gets_421(playwright: Any, live: LiveTable) -> None:
    port = live.web.server.port
    browser = playwright[0].chromium.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP rebind.evil.example 127.0.0.1"])
    try:
        page = browser.new_page()
        response = page.goto(f"http://rebind.evil.example:{port}/")
        assert response is not None and response.status == 421
        status, text = page.evaluate("""async () => {
            const r = await fetch("/api/links?k=anything");
            return [r.status, await r.text()];
        }""")
        assert status == 421 and "S/1/" not in text
        control = page.goto(f"http://127.0.0.1:{port}/watch")  # the same browser, the table's own name
        assert control is not None and control.status == 200
    finally:
        browser.close()


def test_the_tables_own_pages_work_under_their_policy(browser: Any, live: LiveTable, tmp_path: Path) -> None:
    violations: list[str] = []
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.add_init_script("document.addEventListener('securitypolicyviolation', e => "
                         "console.error('Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI))")
    try:
        page.goto(live.base + "/")
        page.wait_for_selector('a[href*="/S/1/"]')  # the seat links came over the table's channel, with its key
        page.wait_for_function("() => document.body.dataset.live === '1'")
        page.goto(live.base + "/links")
        page.wait_for_function("() => document.querySelectorAll('#links .seat:not(.phone-seat) svg').length === 8"
                               " && document.querySelectorAll('#links .phone-seat svg').length === 11")
        page.goto(live.web.server.seat_url(3).replace("HTTP://", "http://"))
        page.wait_for_function("() => document.body.dataset.live === '1'")
        page.goto(live.base + "/watch")
        page.wait_for_function("() => document.body.dataset.live === '1'")
        page.goto(live.base + "/replay")
        script = tmp_path / "game.jsonl"
        script.write_text(TRANSCRIPT + "\n")
        with page.expect_request(lambda r: r.method == "POST") as posted:
            page.set_input_files("#transcript", str(script))  # a same-origin upload passes the Origin check
        page.wait_for_selector('[data-replay^="t-"]')
        origin = posted.value.all_headers().get("origin")
    finally:
        page.close()
    assert origin == live.base, origin  # sent by the browser even under Referrer-Policy: no-referrer
    assert violations == []
    assert len(live.web.server.replays._transcripts) == 1

"""The web server (aiohttp) in its own thread with its own asyncio loop.

Pages: `/` the virtual table (simulator; the owner's token unless none is configured), `/watch`
the spectator view (public), `/seat/N?t=TOKEN` a seat's phone (its own token, always),
`/S/N/TOKEN` the QR codes' short form of the same, `/links` every seat's link and QR code (the
owner's), `/replay` replays. Live data goes over one
WebSocket per page (`/ws`); what each page gets is built in `redact.py`. A refused token gets a
403 and a page saying why, never data and never a traceback. `guard.py` checks every request's
`Host` and `Origin` and sets the protective headers of every response.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import threading
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web  # this module is imported only when the web pages are enabled

from drivers.buttons import SimButtonError
from drivers.reader.virtual import SimInputError
from firmware_host.storage.inputs import json_text
from firmware_host.web import redact, trays
from firmware_host.web.guard import GUARD, Guard, guard_middleware
from firmware_host.web.hub import Hub, TableSnap
from firmware_host.web.inputs import InputError, Inputs, Permit
from firmware_host.web.replay import ReplayError, Replays
from firmware_host.web.tokens import Access, base_url, seat_link

if TYPE_CHECKING:
    from firmware_host.storage.config import TableConfig
    from firmware_host.storage.tags import TagRegistry

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
MAX_UPLOAD = 8 * 1024 * 1024  # a transcript of a long game is a few MB
MAX_REQUEST = 4096  # bytes in one message of a page: a request is a small flat object
REQUEST_DEPTH = 4  # nesting of a page's message
CHUNK = 64 * 1024
KEY_SLOT = '<meta name="zt-key" content="">'  # where a page served with the table's key gets it
DENIED = """<!doctype html><html lang="fr"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Lien refusé — zebra-table</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css"></head><body class="denied"><main>
<h1>Lien refusé</h1><p id="why">{fr}</p><p lang="en">{en}</p>
<p><a href="/watch">Voir la table en spectateur / Watch the table</a></p></main></body></html>"""
WHY = {
    "owner": ("Cette page demande le jeton du propriétaire de la table : il manque ou il est faux.",
              "This page needs the table owner's token: it is missing or wrong."),
    "table": ("Cette page n'est ouverte qu'à la table virtuelle elle-même : rechargez-la depuis son adresse.",
              "Only the virtual table's own page may open this: reload it from the table's address."),
    "seat": ("Ce lien de siège n'est pas (ou plus) valable : la table a peut-être redémarré. "
             "Scannez à nouveau le code QR du siège (menu « Téléphones »).",
             "This seat link is wrong or out of date: the table may have restarted. "
             "Scan the seat's QR code again (menu \"Phones\")."),
}


class WebError(RuntimeError):
    """The web server cannot start (port in use, address not available); one line, naming the key."""


class WebServer:
    """Serves the pages of one table; `start()` returns once listening or raises WebError."""

    def __init__(self, config: TableConfig, registry: TagRegistry, hub: Hub, inputs: Inputs, *,
                 sim: bool, journal_path: str | None = None, port: int | None = None,
                 port_hint: str = ""):
        self.config = config
        self.registry = registry
        self.hub = hub
        self.inputs = inputs
        self.sim = sim
        self.host = config.web.host
        self.port = config.web.port if port is None else port
        self.port_hint = port_hint
        self.lang = config.language
        self.phones = inputs.phones  # the phone seats: tokens, pages and buttons, no pad
        self.access = Access(config.web, [*(s.id for s in config.seats), *self.phones])
        self.replays = Replays(journal_path, self.lang)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: str | None = None
        self._runner: Any = None
        self._cache: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._memo = redact.Memo()
        self._cache_seq = -1
        self.sent = 0  # live messages sent, all pages together (the bench reads it)
        self.pages = 0  # pages connected now
        self._pages: dict[str, str] = {}  # the static pages that get the table's key, read at start

    # -- lifecycle --------------------------------------------------------------------------------
    def start(self, timeout: float = 15.0) -> WebServer:
        """Listen in a new thread; WebError if the address cannot be used."""
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise WebError(f"the web server did not start within {timeout:.0f} s")
        if self._error is not None:
            raise WebError(self._error)
        return self

    def stop(self) -> None:
        """Close every page and stop the thread."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        try:
            loop.call_soon_threadsafe(loop.stop)
        except RuntimeError:
            pass  # the server's loop is closed already: nothing to stop
        thread.join(10)
        self._thread = None

    @property
    def url(self) -> str:
        """The base URL of the pages."""
        return base_url(self.config.web, self.port)

    def table_url(self) -> str:
        """The virtual table's (or, on a real table, the spectators') address for the terminal."""
        token = f"?t={self.access.owner}" if self.access.owner else ""
        return f"{self.url}/{token}" if self.sim else f"{self.url}/watch"

    def seat_url(self, seat: int) -> str:
        """Seat `seat`'s phone link (what its QR code holds)."""
        return seat_link(self.url, seat, self.access.seats[seat])

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        try:
            loop.run_until_complete(self._open())
        except OSError as exc:
            self._error = self._describe(exc)
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self.hub.detach()
            loop.run_until_complete(self._runner.cleanup())
            loop.close()

    def _describe(self, exc: OSError) -> str:
        where = f"{self.config.path}" if not self.config.path.startswith("<") else "the table config"
        hint = f" or {self.port_hint}" if self.port_hint else ""
        if exc.errno == errno.EADDRINUSE:
            return (f"cannot serve the web pages: port {self.port} on {self.host} is already in use "
                    f"(set another with web.port in {where}{hint})")
        return (f"cannot serve the web pages on {self.host}:{self.port}: {exc.strerror or exc} "
                f"(web.host and web.port in {where}{hint})")

    async def _open(self) -> None:
        self.hub.attach(asyncio.get_running_loop())
        for name in ("table.html", "links.html"):
            text = (STATIC / name).read_text(encoding="utf-8")
            if KEY_SLOT not in text:
                raise OSError(errno.ENOENT, f"{name} has no {KEY_SLOT} for the table's key")
            self._pages[name] = text.replace(KEY_SLOT, f'<meta name="zt-key" content="{self.access.table}">')
        replay = (STATIC / "replay.html").read_text(encoding="utf-8")  # it has no channel to say the language
        self._pages["replay.html"] = replay.replace('<html lang="fr">', f'<html lang="{self.lang}">', 1)
        guard = Guard(self.config.web, self.url)
        app = web.Application(middlewares=[guard_middleware, _errors], client_max_size=MAX_UPLOAD)
        app[GUARD] = guard
        app.on_response_prepare.append(guard.on_prepare)
        r = app.router
        r.add_get("/", self._table_page)
        r.add_get("/watch", self._static_page("watch.html"))
        r.add_get("/seat/{seat}", self._seat_page)
        r.add_get("/S/{seat}/{token}", self._short_link)
        r.add_get("/s/{seat}/{token}", self._short_link)
        r.add_get("/replay", self._replay_page)
        r.add_get("/favicon.ico", self._favicon)
        r.add_get("/links", self._links_page)
        r.add_get("/ws", self._ws)
        r.add_get("/api/access", self._api_access)
        r.add_get("/api/links", self._api_links)
        r.add_get("/api/games", self._api_games)
        r.add_get("/api/replay/{id}", self._api_replay)
        r.add_post("/api/transcript", self._api_transcript)
        r.add_static("/static", STATIC, append_version=False)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError:
            await self._runner.cleanup()
            raise
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]

    # -- access -----------------------------------------------------------------------------------
    def _seat_of(self, request: web.Request) -> int | None:
        text = request.match_info.get("seat", request.query.get("seat", ""))
        return int(text) if text.isdigit() and len(text) < 3 else None

    def _denied(self, why: str, html: bool) -> web.Response:
        fr, en = WHY[why]
        if html:
            return web.Response(status=403, text=DENIED.format(fr=fr, en=en), content_type="text/html")
        return web.json_response({"error": en, "reason": why}, status=403)

    def _role(self, request: web.Request) -> tuple[str, int | None] | str:
        """("table"|"watch"|"seat", seat) for a request, or the reason it is refused."""
        role = request.query.get("role", "watch")
        token = request.query.get("t")
        if role == "watch":
            return ("watch", None)
        if role == "table":
            if not (self.sim and self.access.owner_ok(token)):
                return "owner"
            return ("table", None) if self.access.table_ok(request.query.get("k")) else "table"
        if role == "seat":
            seat = self._seat_of(request)
            return ("seat", seat) if seat is not None and self.access.seat_ok(seat, token) else "seat"
        return "owner"

    # -- pages ------------------------------------------------------------------------------------
    def _static_page(self, name: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def page(request: web.Request) -> web.StreamResponse:
            return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})
        return page

    async def _favicon(self, request: web.Request) -> web.StreamResponse:
        """The icon, for a browser that asks before reading a page's own link to it."""
        return web.FileResponse(STATIC / "favicon.svg", headers={"Content-Type": "image/svg+xml"})

    def _keyed_page(self, name: str) -> web.Response:
        """A page holding the table's key (read at start: serving it never touches the disk)."""
        return web.Response(text=self._pages[name], content_type="text/html")

    async def _replay_page(self, request: web.Request) -> web.StreamResponse:
        """The replays, in the table's language (read at start)."""
        return web.Response(text=self._pages["replay.html"], content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def _table_page(self, request: web.Request) -> web.StreamResponse:
        if not self.sim:
            raise web.HTTPFound("/watch")
        if not self.access.owner_ok(request.query.get("t")):
            return self._denied("owner", True)
        return self._keyed_page("table.html")

    async def _links_page(self, request: web.Request) -> web.StreamResponse:
        if not self.access.owner_ok(request.query.get("t")):
            return self._denied("owner", True)
        return self._keyed_page("links.html")

    async def _seat_page(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat_of(request)
        if seat is None or not self.access.seat_ok(seat, request.query.get("t")):
            return self._denied("seat", True)
        return await self._static_page("seat.html")(request)

    async def _short_link(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat_of(request)
        token = request.match_info["token"].upper()
        if seat is None or not self.access.seat_ok(seat, token):
            return self._denied("seat", True)
        raise web.HTTPFound(f"/seat/{seat}?t={token}")

    # -- live pages -------------------------------------------------------------------------------
    def _hello(self, role: str, seat: int | None) -> dict[str, Any]:
        zones = sorted(self.config.zones)
        if role == "seat":
            zones = [f"seat{seat}.pad"] if self.sim and seat not in self.phones else []
        out: dict[str, Any] = {"kind": "hello", "role": role, "seat": seat, "sim": self.sim, "lang": self.lang,
               "phone": seat in self.phones,  # a phone seat: no pad, its cards are tracked by the table
               "seats": [s.id for s in self.config.seats], "zones": zones,
               "buttons": {str(k): list(v) for k, v in self.inputs.buttons.items()
                           if role == "table" or k == seat},
               "hold_time": self.config.hold_time}
        if role == "table":
            out["links"] = {str(s): self.seat_url(s) for s in self.access.seats}
        return out

    def _permit(self, role: str, seat: int | None) -> Permit | None:
        if role == "table":
            return Permit(None, None)
        if role == "seat" and seat is not None:
            return Permit(seat, frozenset({f"seat{seat}.pad"}) if self.sim and seat not in self.phones else frozenset())
        return None

    def project(self, snap: TableSnap, role: str, seat: int | None) -> dict[str, Any]:
        """A page's payload for a snapshot (computed once per snapshot for all pages of a role)."""
        if snap.seq != self._cache_seq:
            self._cache, self._cache_seq = {}, snap.seq
        key = (role, seat)
        if key not in self._cache:
            memo = self._memo
            sensed = tuple(sorted(snap.sensed.items()))
            if role == "table":
                held = memo.get((snap.game, snap.state), ("trays", sensed),
                                lambda: trays.table_trays(snap, self.registry))
                payload = redact.table_payload(snap, self.lang, self.registry, held, memo)
            elif role == "seat" and seat is not None:
                hands = memo.get((snap.game, snap.state), ("hands", seat, sensed),
                                 lambda: trays.seat_hands(snap, seat, self.registry)) \
                    if self.sim and seat not in self.phones else None
                payload = redact.seat_payload(snap, seat, self.lang, hands, memo)
            else:
                payload = redact.watch_payload(snap, self.lang, memo)
            self._cache[key] = payload
        return self._cache[key]

    async def _ws(self, request: web.Request) -> web.StreamResponse:
        found = self._role(request)
        if isinstance(found, str):
            return self._denied(found, False)
        role, seat = found
        permit = self._permit(role, seat)
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=64 * 1024)  # larger: closed with 1009
        await ws.prepare(request)
        self.pages += 1
        held: set[tuple[int, str]] = set()
        feeder = asyncio.create_task(self._feed(ws, role, seat))
        try:
            await ws.send_json(self._hello(role, seat))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                try:
                    if len(msg.data) > MAX_REQUEST:
                        raise InputError(f"a request is at most {MAX_REQUEST} bytes, this one has {len(msg.data)}")
                    request_ = json_text(msg.data, "request", REQUEST_DEPTH)
                    if not isinstance(request_, dict):
                        raise InputError("each request is a JSON object")
                    if permit is None:
                        raise InputError("the spectator view has no controls")
                    self.inputs.handle(request_, permit)
                    if request_.get("do") == "button" and "down" in request_:  # a tap is let go at once
                        key = (request_["seat"], request_["button"])
                        (held.add if request_["down"] else held.discard)(key)
                except (InputError, SimInputError, SimButtonError, ValueError) as exc:
                    await ws.send_json({"kind": "error", "message": str(exc)})
        finally:
            feeder.cancel()
            self.pages -= 1
            for seat_, button in held:  # a page closed with a button down: let it go
                try:
                    self.inputs.button(seat_, button, False)
                except Exception:  # the table is closing or the pin is gone
                    log.debug("could not release %s %s", seat_, button, exc_info=True)
        return ws

    async def _feed(self, ws: web.WebSocketResponse, role: str, seat: int | None) -> None:
        last: dict[str, Any] = {}
        after = 0
        try:
            while not ws.closed:
                snap = await self.hub.next(after)
                after = snap.seq
                payload = self.project(snap, role, seat)
                delta = _delta(last, payload)
                last = payload
                if delta:
                    await ws.send_str(json.dumps({"kind": payload["kind"], "seq": snap.seq, **delta},
                                                 ensure_ascii=False))
                    self.sent += 1
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            return
        except Exception:
            log.exception("web page feed stopped")

    # -- small APIs -------------------------------------------------------------------------------
    async def _api_access(self, request: web.Request) -> web.Response:
        found = self._role(request)
        if isinstance(found, str):
            return self._denied(found, False)
        return web.json_response({"ok": True, "role": found[0], "seat": found[1]})

    async def _api_links(self, request: web.Request) -> web.Response:
        if not self.access.owner_ok(request.query.get("t")):
            return self._denied("owner", False)
        if not self.access.table_ok(request.query.get("k")):
            return self._denied("table", False)
        from firmware_host.screens.qr import svg

        return web.json_response({"links": [{"seat": s, "url": self.seat_url(s), "qr": svg(self.seat_url(s)),
                                             "phone": s in self.phones} for s in self.access.seats]})

    async def _api_games(self, request: web.Request) -> web.Response:
        loop = asyncio.get_running_loop()
        try:
            games = await loop.run_in_executor(None, self.replays.games)
        except ReplayError as exc:
            return web.json_response({"error": str(exc)}, status=404)
        return web.json_response({"games": games})

    async def _api_replay(self, request: web.Request) -> web.Response:
        seat_text = request.query.get("seat", "")
        step_text = request.query.get("step", "0")
        if (seat_text and not seat_text.isdigit()) or not step_text.isdigit():
            return web.json_response({"error": "seat and step are whole numbers"}, status=400)
        seat = int(seat_text) if seat_text else None
        if seat is not None and not self.access.owner_ok(request.query.get("t")):
            return self._denied("owner", False)  # a seat's replay holds its secrets
        loop = asyncio.get_running_loop()
        try:
            doc = await loop.run_in_executor(None, self.replays.step, request.match_info["id"], seat,
                                             int(step_text))
        except ReplayError as exc:
            return web.json_response({"error": str(exc)}, status=404)
        return web.json_response(doc)

    async def _api_transcript(self, request: web.Request) -> web.Response:
        if not self.access.owner_ok(request.query.get("t")):
            return self._denied("owner", False)
        data = await read_capped(request, MAX_UPLOAD)
        loop = asyncio.get_running_loop()
        try:
            doc = await loop.run_in_executor(None, self.replays.load_transcript, data)
        except ReplayError as exc:
            return web.json_response({"error": str(exc)}, status=400)
        finally:
            del data
        return web.json_response(doc)


async def read_capped(request: web.Request, limit: int) -> bytearray:
    """The request's body, read in chunks and refused (413) as soon as it says or shows it is too large."""
    too_large = web.HTTPRequestEntityTooLarge(max_size=limit, actual_size=request.content_length or limit + 1,
                                             text=f"at most {limit // (1024 * 1024)} MB may be sent\n")
    if request.content_length is not None and request.content_length > limit:
        raise too_large  # refused before a byte of it is read
    body = bytearray()
    while chunk := await request.content.read(CHUNK):
        if len(body) + len(chunk) > limit:
            body.clear()
            raise too_large
        body += chunk
    return body


def _delta(last: Mapping[str, Any], payload: Mapping[str, Any]) -> dict[str, Any]:
    """What changed since the page's last message: top-level keys, and screens one by one."""
    out = {}
    for key, value in payload.items():
        if key in ("seq", "kind") or last.get(key) == value:
            continue
        if key == "screens" and isinstance(last.get(key), dict):
            old = last[key]
            value = {s: v for s, v in value.items() if old.get(s) != v}
        out[key] = value
    return out


@web.middleware
async def _errors(request: web.Request, handler: Any) -> web.StreamResponse:
    """Any failure of a request is logged and answered with one sentence, never a traceback."""
    try:
        response: web.StreamResponse = await handler(request)
        return response
    except (web.HTTPException, asyncio.CancelledError):
        raise
    except Exception:
        resource = request.match_info.route.resource
        # the route's pattern, not the path: a path may hold a seat's token
        log.exception("web request %s failed", resource.canonical if resource is not None else "(no route)")
        return web.Response(status=500, text="The table could not answer this request (see its log).")

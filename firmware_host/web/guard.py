"""What every request of the web pages goes through: its `Host`, its `Origin`, the response headers.

- `Host` must name this table: the bound address, the loopback names when it listens on loopback,
  the host of the phones' links (`web.url`, else the machine's `.local` name on a wildcard address),
  or the very address the connection reached. Another name (DNS rebinding: a site's own name made
  to resolve to the table) gets 421 before any handler runs.
- `Origin`, when sent, must be the page's own (same scheme, host and port): another site's page
  gets 403 on every request, a WebSocket or a POST included. A browser always sends `Origin` on a
  WebSocket and on a script's POST; a request without one comes from a program (curl, a script),
  which could write any `Origin` it liked, so it is judged by its tokens alone. For a WebSocket
  or a POST, a browser's `Sec-Fetch-Site` other than `same-origin` or `none` is refused as well.
- Every response gets a Content-Security-Policy without inline script or style, no framing, no
  MIME sniffing, no Referer (seat tokens are in URLs), `Cache-Control: no-store` outside
  `/static/`, a charset on text, `Content-Disposition: attachment` on the APIs' answers, and a
  `Server` header that names no library version. No CORS header is ever sent.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from firmware_host.web.settings import WebConfig

SERVER = "zebra-table"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
WILDCARDS = ("0.0.0.0", "::", "")
HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' {ws}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
       "object-src 'none'")


def _name(host: str) -> str:
    """A host name or address as compared: lower case, no brackets, no trailing dot, IPv4 unmapped."""
    name = host.strip("[]").rstrip(".").lower()
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return name
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return str(address)


def table_names(config: WebConfig, link_base: str) -> frozenset[str]:
    """The host names and addresses a browser may use to reach this table."""
    names = {_name(config.host)} if config.host not in WILDCARDS else set()
    if config.loopback or config.host in WILDCARDS:
        names.update(LOOPBACK_NAMES)
    if config.host in WILDCARDS:
        machine = socket.gethostname()
        names.update({_name(machine), _name(machine + ".local")})
    link_host = urlsplit(link_base).hostname
    if link_host:
        names.add(_name(link_host))
    return frozenset(names)


def split_host(value: str) -> tuple[str, int | None] | None:
    """(name, port or None) of a `Host` header, or None when it is not a host[:port]."""
    if not value or any(c in value for c in "/?#@\\ \t"):
        return None
    try:
        parts = urlsplit("//" + value)
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname:
        return None
    return _name(parts.hostname), port


def _same_origin(origin: str, host: tuple[str, int | None], schemes: Iterable[str]) -> bool:
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in schemes or not parts.hostname or parts.path not in ("", "/"):
        return False
    default = DEFAULT_PORTS[parts.scheme]
    return _name(parts.hostname) == host[0] and (port or default) == (host[1] or default)


class Guard:
    """Checks `Host` and `Origin` of every request and sets the protective headers of every response."""

    def __init__(self, config: WebConfig, link_base: str):
        self.names = table_names(config, link_base)
        link_scheme = urlsplit(link_base).scheme
        self.schemes = frozenset({"http", link_scheme} & {"http", "https"})

    def host_of(self, request: web.BaseRequest) -> tuple[str, int | None] | None:
        """The request's `Host` if it names this table, else None."""
        host = split_host(request.headers.get("Host", ""))
        if host is None:
            return None
        if host[0] in self.names:
            return host
        sock = request.transport.get_extra_info("sockname") if request.transport is not None else None
        if sock and host[0] == _name(str(sock[0])):
            return host  # the address the connection reached, as a phone typing the IP uses it
        return None

    def refusal(self, request: web.BaseRequest) -> web.Response | None:
        """Why the request is refused (421 or 403, one sentence), or None when it may go on."""
        host = self.host_of(request)
        if host is None:
            return web.Response(status=421, text="This is a zebra-table: use its own address to reach it.\n")
        changing = request.method not in SAFE_METHODS or request.headers.get("Upgrade", "").lower() == "websocket"
        origin = request.headers.get("Origin")
        if origin is not None and not _same_origin(origin, host, self.schemes):
            return _forbidden("another site's page may not use the table")
        if changing and request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            return _forbidden("another site's page may not use the table")
        return None

    async def on_prepare(self, request: web.BaseRequest, response: web.StreamResponse) -> None:
        """The protective headers, on every response (pages, files, APIs, refusals, WebSocket upgrades)."""
        headers = response.headers
        host = self.host_of(request)
        ws = f"ws://{request.headers['Host']} wss://{request.headers['Host']}" if host is not None else ""
        headers["Content-Security-Policy"] = CSP.format(ws=ws).replace(" ;", ";")
        headers.update(HEADERS)
        headers["Server"] = SERVER
        if not request.path.startswith("/static/"):
            headers["Cache-Control"] = "no-store"
        kind = headers.get("Content-Type", "")
        if kind.startswith(("text/", "application/javascript")) and "charset" not in kind:
            headers["Content-Type"] = kind + "; charset=utf-8"  # every file of the pages is UTF-8
        if request.path.startswith("/api/"):
            headers["Content-Disposition"] = 'attachment; filename="api.json"'  # never rendered as a page


def _forbidden(why: str) -> web.Response:
    return web.json_response({"error": why, "reason": "origin"}, status=403)


@web.middleware
async def guard_middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    """Refuse a request naming another host or coming from another site's page, before any handler."""
    guard: Guard = request.app[GUARD]
    refused = guard.refusal(request)
    if refused is not None:
        return refused
    response: web.StreamResponse = await handler(request)
    return response


GUARD = web.AppKey("guard", Guard)

"""Who may open what: the owner's token (config `web.token`), one token per seat, the seat links.

The virtual table's own page gets a key of its own, drawn at start too and written into the page
the server sends (`/` and `/links`): another site's page cannot read it, so knowing the port is not
enough to open the table's channel or read the seat links.

Seat tokens are drawn when the service starts: a link from before a restart is refused with a page
saying so. They are base32 (A-Z, 2-7), so a seat link written in capitals fits the QR code's
compact alphanumeric mode and stays scannable on a 128x64 OLED.
"""

from __future__ import annotations

import base64
import hmac
import secrets
import socket
from collections.abc import Iterable

from firmware_host.web.settings import WebConfig


def new_token() -> str:
    """A fresh 80-bit seat token, 16 base32 characters."""
    return base64.b32encode(secrets.token_bytes(10)).decode("ascii")


def same(given: str | None, expected: str) -> bool:
    """Constant-time comparison; an empty or missing token never matches."""
    return bool(given) and bool(expected) and hmac.compare_digest(given.encode(), expected.encode())  # type: ignore[union-attr]


class Access:
    """The tokens of one running service."""

    def __init__(self, web: WebConfig, seat_ids: Iterable[int]):
        self.owner = web.token
        self.seats = {seat: new_token() for seat in seat_ids}
        self.table = secrets.token_urlsafe(24)  # the virtual table's page key, never typed by anyone

    def owner_ok(self, token: str | None) -> bool:
        """The owner's pages: open without a token only when none is configured (loopback only)."""
        return not self.owner or same(token, self.owner)

    def table_ok(self, key: str | None) -> bool:
        """The virtual table's channel and the seat links: the key written into the table's page."""
        return same(key, self.table)

    def seat_ok(self, seat: int, token: str | None) -> bool:
        """A seat's page: its own token, always required."""
        expected = self.seats.get(seat)
        return expected is not None and same((token or "").upper(), expected)


def base_url(web: WebConfig, port: int) -> str:
    """How browsers reach the pages: web.url, else the bound address (a wildcard: <hostname>.local)."""
    if web.url:
        return web.url
    host = web.host
    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname() + ".local"  # Raspberry Pi OS answers mDNS (avahi) for it
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def seat_link(base: str, seat: int, token: str) -> str:
    """A seat's phone link; in capitals when the base has no path (QR alphanumeric mode)."""
    link = f"{base}/S/{seat}/{token}"
    path = base.split("://", 1)[-1].partition("/")[2]
    return link if path else link.upper()

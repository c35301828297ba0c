"""systemd notifications (sd_notify protocol): READY, WATCHDOG, STATUS over $NOTIFY_SOCKET.

Written against the documented datagram protocol so no extra package is needed; does nothing
when the service is not started by systemd.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class Notifier:
    """Sends sd_notify datagrams; a no-op without $NOTIFY_SOCKET."""

    def __init__(self, address: str | None = None, clock: Callable[[], float] = time.monotonic):
        self.address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")
        self.clock = clock
        self.sock: socket.socket | None = None
        if self.address:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        usec = os.environ.get("WATCHDOG_USEC", "")
        # ping at half the watchdog period, as sd_watchdog_enabled(3) recommends
        self.watchdog_interval = int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 else None
        self.last_ping = float("-inf")
        self.status = ""

    @property
    def enabled(self) -> bool:
        """True when started by systemd with a notify socket."""
        return self.sock is not None

    def send(self, message: str) -> bool:
        """Send one datagram ("READY=1", ...); False if it could not be sent."""
        if self.sock is None:
            return False
        addr = self.address
        if addr.startswith("@"):
            addr = "\0" + addr[1:]  # abstract namespace socket
        try:
            self.sock.sendto(message.encode(), addr)
            return True
        except OSError as exc:
            log.warning("sd_notify %r failed: %s", message, exc)
            return False

    def ready(self, status: str = "") -> None:
        """Tell systemd the table is up."""
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def set_status(self, status: str) -> None:
        """Update the status line shown by `systemctl status` (only when it changes)."""
        if status != self.status:
            self.status = status
            self.send(f"STATUS={status}")

    def ping(self) -> None:
        """Called from the event loop: WATCHDOG=1 every half period, so a hung loop is restarted."""
        if self.watchdog_interval is None:
            return
        now = self.clock()
        if now - self.last_ping >= self.watchdog_interval:
            self.last_ping = now
            self.send("WATCHDOG=1")

    def stopping(self) -> None:
        """Tell systemd the service is stopping."""
        self.send("STOPPING=1")

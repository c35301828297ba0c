"""The `[web]` section of the table config: whether and where the table serves its web pages."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
MIN_TOKEN = 16
MAX_TOKEN = 256  # a secret, not a file: what a URL and a header carry comfortably
KEYS = ("enabled", "host", "port", "token", "url")
_TOKEN_CHARS = re.compile(r"[A-Za-z0-9_.~-]+")  # characters that stay as they are in a URL
_HOST_CHARS = re.compile(r"[A-Za-z0-9.:_-]+")


@dataclass(frozen=True)
class WebConfig:
    """Web pages: served by `run` when enabled (always by `sim`), address, owner token, public URL."""

    enabled: bool = False
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT  # 0: any free port (tests)
    token: str = ""  # the owner's secret; required when host is not a loopback address
    url: str = ""  # how phones reach the table (QR codes); default: from host and port

    @property
    def loopback(self) -> bool:
        """True when only this machine can reach the pages."""
        return is_loopback(self.host)


def is_loopback(host: str) -> bool:
    """True for localhost and the loopback ranges (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_web(table: Any, bad: Callable[[str, str], None]) -> WebConfig:
    """Validate a raw `[web]` table, reporting each fault with its key through `bad`."""
    if table is None:
        return WebConfig()
    if not isinstance(table, dict):
        bad("web", "expected a table like { enabled = true, port = 8080 }")
        return WebConfig()
    for key in table:
        if key not in KEYS:
            bad(f"web.{key}", f"unknown key (known: {', '.join(sorted(KEYS))})")

    def typed(key: str, kind: type, default: Any, what: str) -> Any:
        value = table.get(key, default)
        if type(value) is not kind:  # a bool is not a port, a float is not a port
            bad(f"web.{key}", f"expected {what}, got {value!r}")
            return default
        return value

    enabled = typed("enabled", bool, False, "true or false")
    host = typed("host", str, DEFAULT_HOST, "an address such as \"127.0.0.1\" or \"0.0.0.0\"")
    if not host or not _HOST_CHARS.fullmatch(host):
        bad("web.host", f"{host!r}: expected an IP address or a host name")
        host = DEFAULT_HOST
    port = typed("port", int, DEFAULT_PORT, "a TCP port number")
    if not 0 <= port <= 65535:
        bad("web.port", f"{port}: expected 1 to 65535 (0: any free port)")
        port = DEFAULT_PORT
    token = typed("token", str, "", "a string")
    token_said = type(table.get("token", "")) is not str
    if token and (not MIN_TOKEN <= len(token) <= MAX_TOKEN or not _TOKEN_CHARS.fullmatch(token)):
        bad("web.token", f"expected {MIN_TOKEN} to {MAX_TOKEN} characters among A-Z a-z 0-9 _ . ~ - "
                         "(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')")
        token, token_said = "", True
    url = typed("url", str, "", "a URL such as \"http://table.local:8080\"")
    if url and (not re.fullmatch(r"https?://[^\s/]+(/\S*)?", url)):
        bad("web.url", f"{url!r}: expected http://host[:port][/path]")
        url = ""
    if not is_loopback(host) and not token and not token_said:
        bad("web.token", f"required when web.host ({host}) is not a loopback address: anyone on the "
                         "network could otherwise open the table's pages "
                         "(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')")
    return WebConfig(enabled=enabled, host=host, port=port, token=token, url=url.rstrip("/"))

"""Attach the web pages to a table: the hub on its runtime, the server in its own thread."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from firmware_host.screens.render import render_frame
from firmware_host.web.hub import Hub, WebOutputs
from firmware_host.web.inputs import PostedButtons, SimInputs, TableInputs

if TYPE_CHECKING:
    from firmware_host.loop.table import Table
    from firmware_host.storage.tags import TagRegistry
    from firmware_host.web.server import WebServer


@dataclass
class WebService:
    """A running web server and the hub the table feeds."""

    server: WebServer
    hub: Hub

    @property
    def url(self) -> str:
        """The page to open: the virtual table (simulator) or the spectators' view."""
        return self.server.table_url()

    def stop(self) -> None:
        """Close the pages and stop the server's thread."""
        self.server.stop()


def start_web(table: Table, registry: TagRegistry, *, journal_path: str | None = None,
              port: int | None = None, port_hint: str = "") -> WebService:
    """Serve a table's pages; call before the table's loop runs. Raises WebError (one line)."""
    from firmware_host.web.server import WebServer  # aiohttp is imported here, only when the pages are on

    config = table.config
    runtime = table.runtime
    hub = Hub()
    outputs = WebOutputs(runtime.outputs, config.language, table.screens)
    # the pictures already on the screens, so a page opened before any change has them
    for seat, frame in runtime.shown.items():
        image = table.screens.image(seat) if seat in table.screens.seats else None
        outputs.images[seat] = image if image is not None else render_frame(frame, config.language)
    hub.outputs = outputs
    inputs: Any
    holder: dict[str, WebServer] = {}
    phones = runtime.phone_ids

    def later(delay: float, fn: Any) -> Any:
        """The long-press check, on the web server's loop (where the presses arrive)."""
        return holder["server"]._loop.call_later(delay, fn)  # type: ignore[union-attr]

    if table.simulated:
        inputs = SimInputs(config, registry, table, phones, PostedButtons(config.hold_time, runtime.post, later,
                                                                          runtime.clock))
    else:
        inputs = TableInputs(config, registry, runtime.post, later=later, clock=runtime.clock, phones=phones)
    server = WebServer(config, registry, hub, inputs, sim=table.simulated, journal_path=journal_path, port=port,
                       port_hint=port_hint)
    holder["server"] = server
    server.start()
    runtime.output.phone_ids = phones  # their frames, for their pages
    runtime.outputs = outputs
    runtime.phone_link = server.seat_url
    runtime.page_language = config.language  # the pages read the games' frames in it
    if hasattr(runtime.app, "phone_link"):
        runtime.app.phone_link = server.seat_url  # the menu already on the screens
    runtime.observer = hub.observe
    hub.observe(runtime)
    return WebService(server, hub)

"""The web pages speak the config's language; the seats, the players' choice. A game's messages are
laid out in both then: a seat's page reads, in the pages' language, the part its seat shows now."""

from __future__ import annotations

from typing import Any

from firmware_host.apps.app import StartRequest
from firmware_host.apps.session import GameSession
from firmware_host.loop.simulator import SimTable
from firmware_host.screens import layout
from firmware_host.web.redact import seat_payload
from games.core import tr

LONG = tr(" ".join(f"mot{i}" for i in range(40)), " ".join(f"word{i}" for i in range(40)))


def test_a_seats_page_reads_its_message_laid_out_in_the_pages_language(table: tuple[SimTable, Any]) -> None:
    sim, web = table
    rt = sim.runtime
    assert web.server.lang == "fr"
    rt.set_language("en")  # the players chose English
    assert sim.table.outputs.language == "en"  # the screens follow at once, the pages' wrapper between them
    rt.start(StartRequest("spywhere", (1, 2, 3)))
    s = rt.app
    assert isinstance(s, GameSession) and (s.lang, s.also_lang) == ("en", "fr")
    s.ui[0].notify(LONG, s.clock())
    frame = s.seat_frame(0)
    assert frame.status is not None and frame.banner is None  # above the menu, its first part
    parts = {x: layout.status_windows(frame.screen, x, frame.menu, s.size(0), LONG) for x in ("fr", "en")}
    assert frame.status == tr(parts["fr"][0], parts["en"][0]) and len(parts["fr"]) > 1
    rt.refresh()
    assert web.hub.latest is not None
    page = seat_payload(web.hub.latest, 1, web.server.lang)
    assert page["frame"]["status"] == parts["fr"][0]

"""The loop's output side: every table seat's frame (the app's, under the reader's and the
journal's banners, its highlighted entry scrolling), the LEDs, and sending only what changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.core import evolve, tr

from firmware_host.apps.menu import MenuApp
from firmware_host.apps.session import GameSession
from firmware_host.screens import layout
from firmware_host.screens.frames import Frame

if TYPE_CHECKING:
    from firmware_host.loop.runtime import Runtime


def frames(rt: Runtime) -> dict[int, Frame]:
    """Every table seat's current frame."""
    app = rt.app
    out: dict[int, Frame] = {}
    for sid in rt.seat_ids:
        if isinstance(app, GameSession):
            gseat = app.game_seat(sid)
            frame = app.frame(gseat) if gseat is not None else app.idle_frame()
        else:
            frame = app.frame(sid)
        if rt.reader_state not in ("ready",) and frame.banner is None and isinstance(app, GameSession):
            frame = evolve(frame, banner=tr("Lecteur absent : reconnexion…", "No reader: reconnecting…"),
                            status=None)
        if sid in rt.alerts:  # the journal's news first: every seat must read it
            frame = evolve(frame, banner=rt.alerts[sid][0], status=None)
        out[sid] = rt._marquee(sid, frame)
    return out


def marquee(rt: Runtime, sid: int, frame: Frame) -> Frame:
    """The frame with the scroll step of its highlighted entry, when that entry is too wide."""
    if not frame.menu or frame.banner is not None or frame.page:
        rt.scrolling.pop(sid, None)
        return frame
    label = frame.menu[min(max(frame.cursor, 0), len(frame.menu) - 1)]
    size = rt.screen_size(sid)
    if layout.width_of(label.get(rt.language)) < size[0] - 2 * layout.MARGIN - layout.MENU_INSET \
            - layout.ARROWS_W - 1:  # fits even beside the scroll marks: the common case, no layout
        rt.scrolling.pop(sid, None)
        return frame
    # the layout at rest, the one the picture's will start from (the same key: no banner, page 0)
    p = layout.plan(frame.screen, rt.language, frame.menu, frame.cursor, None, size, 0, 0, frame.status)
    if not p.scrolls:
        rt.scrolling.pop(sid, None)
        return frame
    key = (frame.menu[min(frame.cursor, len(frame.menu) - 1)], frame.cursor)
    since = rt.scrolling.get(sid)
    if since is None or since[0] != key:
        since = rt.scrolling[sid] = (key, rt.clock())
    return evolve(frame, scroll=int((rt.clock() - since[1]) / layout.MARQUEE_STEP))


def leds(rt: Runtime) -> dict[str, str]:
    """Physical zone -> colour for the current app."""
    return rt.app.leds() if not isinstance(rt.app, MenuApp) else {}


def refresh(rt: Runtime) -> None:
    """Send only the frames and LEDs that changed; play the cues the game asked for."""
    if isinstance(rt.app, GameSession) and rt.app.cues:
        for cue in rt.app.cues:
            rt.outputs.cue(cue)
        rt.app.cues.clear()
    for sid, frame in rt.frames().items():
        if rt.shown.get(sid) != frame:
            rt.shown[sid] = frame
            rt.outputs.show(sid, frame)
    lit = rt.leds()
    if lit != rt.lit:
        rt.lit = lit
        rt.outputs.leds(lit)
    if rt.observer is not None:
        rt.observer(rt)

"""The loop's output side: every table seat's frame (the app's, under the reader's and the
journal's banners, its highlighted entry scrolling), the LEDs, and sending only what changed."""

from __future__ import annotations

from collections.abc import Callable

from firmware_host.apps.app import App
from firmware_host.loop.events import Outputs
from firmware_host.screens import layout
from firmware_host.screens.frames import Frame
from games.core import Text, evolve, tr

NO_READER = tr("Lecteur absent : reconnexion…", "No reader: reconnecting…")


class Output:
    """What the screens and LEDs show, and the scrolling of highlighted entries too wide to fit."""

    def __init__(self, outputs: Outputs, seat_ids: tuple[int, ...], clock: Callable[[], float],
                 screen_size: Callable[[int], tuple[int, int]]):
        self.outputs = outputs
        self.seat_ids = seat_ids
        self.phone_ids: tuple[int, ...] = ()  # phone seats, once the web pages show them
        self.clock = clock
        self.screen_size = screen_size
        self.shown: dict[int, Frame] = {}
        self.lit: dict[str, str] = {}
        # a highlighted menu entry too wide for its row scrolls: since when, per table seat
        self.scrolling: dict[int, tuple[object, float]] = {}
        # per table seat, the frame the last pass made and its language: a seat whose frame is the
        # same and does not scroll is not laid out again (most events change one seat's screen)
        self.made: dict[int, tuple[Frame, str]] = {}
        # per table seat: whether the highlighted entry of a frame scrolls, for (frame, language,
        # size) — a scrolling seat goes through the marquee at every pass, laid out once — and
        # the last step made of it, handed again while the step stands (the frame shown itself)
        self.planned: dict[int, tuple[Frame, str, tuple[int, int], bool]] = {}
        self.stepped: dict[int, tuple[Frame, int, Frame]] = {}

    def frames(self, app: App, reader_ready: bool, alerts: dict[int, tuple[Text, float]],
               language: str) -> dict[int, Frame]:
        """Every table seat's current frame (and every phone seat's, once the web pages are on)."""
        out: dict[int, Frame] = {}
        for sid in (*self.seat_ids, *self.phone_ids):
            frame = app.frame(sid)
            if not reader_ready and frame.banner is None and app.needs_reader:
                frame = evolve(frame, banner=NO_READER, status=None)
            if sid in alerts:  # the journal's news first: every seat must read it
                frame = evolve(frame, banner=alerts[sid][0], status=None)
            made = self.made.get(sid)
            if made is not None and made[1] == language and sid not in self.scrolling \
                    and (made[0] is frame or made[0] == frame):
                # what marquee gave for it last time (itself: it does not scroll), the same object:
                # refresh sees it is the frame shown without comparing them again
                out[sid] = made[0]
                continue
            out[sid] = self.marquee(sid, frame, language)
            self.made[sid] = (frame, language)
        return out

    def marquee(self, sid: int, frame: Frame, language: str) -> Frame:
        """The frame with the scroll step of its highlighted entry, when that entry is too wide."""
        if not frame.menu or frame.banner is not None or frame.page:
            self.scrolling.pop(sid, None)
            return frame
        size = self.screen_size(sid)
        known = self.planned.get(sid)
        if known is not None and known[0] is frame and known[1] == language and known[2] == size:
            scrolls = known[3]
        else:
            scrolls = self._scrolls(frame, language, size)
            self.planned[sid] = (frame, language, size, scrolls)
        if not scrolls:
            self.scrolling.pop(sid, None)
            return frame
        key = (frame.menu[min(frame.cursor, len(frame.menu) - 1)], frame.cursor)
        since = self.scrolling.get(sid)
        if since is None or since[0] != key:
            since = self.scrolling[sid] = (key, self.clock())
        step = int((self.clock() - since[1]) / layout.MARQUEE_STEP)
        last = self.stepped.get(sid)
        if last is not None and last[0] is frame and last[1] == step:
            return last[2]
        stepped = evolve(frame, scroll=step)
        self.stepped[sid] = (frame, step, stepped)
        return stepped

    @staticmethod
    def _scrolls(frame: Frame, language: str, size: tuple[int, int]) -> bool:
        """True when the frame's highlighted entry is too wide for its row (it scrolls)."""
        label = frame.menu[min(max(frame.cursor, 0), len(frame.menu) - 1)]
        if layout.width_of(label.get(language)) < size[0] - 2 * layout.MARGIN - layout.MENU_INSET \
                - layout.ARROWS_W - 1:  # fits even beside the scroll marks: the common case, no layout
            return False
        # the layout at rest, the one the picture's will start from (the same key: no banner, page 0)
        p = layout.plan(frame.screen, language, frame.menu, frame.cursor, None, size, 0, 0, frame.status)
        return bool(p.scrolls)

    def next_scroll(self) -> float | None:
        """When the next sideways step of a highlighted entry is due (None: nothing scrolls)."""
        due: float | None = None
        now = self.clock()
        for _, t0 in self.scrolling.values():
            step = now + layout.MARQUEE_STEP - (now - t0) % layout.MARQUEE_STEP
            if due is None or step < due:
                due = step
        return due

    def sending(self) -> bool:
        """True while the outputs still send the last frames (outputs without `sending`: never)."""
        sending = getattr(self.outputs, "sending", None)
        return bool(sending()) if sending is not None else False

    def refresh(self, app: App, frames: Callable[[], dict[int, Frame]]) -> None:
        """Play the cues the app asked for; send only the frames (`frames()`) and LEDs that changed."""
        for cue in app.take_cues():
            self.outputs.cue(cue)
        for sid, frame in frames().items():
            shown = self.shown.get(sid)
            if shown is not frame and shown != frame:
                self.shown[sid] = frame
                self.outputs.show(sid, frame)
        lit = app.leds()
        if lit != self.lit:
            self.lit = lit
            self.outputs.leds(lit)

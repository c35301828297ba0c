"""The hand-off between the table's loop and the web server's loop: snapshots, latest wins.

On the table's loop, `Hub.observe(runtime)` runs after every refresh. When something changed it
captures an immutable `TableSnap` (game states are frozen values, frames are frozen, images are
never drawn on again) and wakes the web loop with one `call_soon_threadsafe`; it never waits, never
locks, never renders. The web loop reads `Hub.latest` when it gets round to it: snapshots it had no
time for are simply skipped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from firmware_host.screens.frames import Frame
from firmware_host.screens.render import render_frame

if TYPE_CHECKING:
    from PIL.Image import Image

    from firmware_host.loop.events import Outputs
    from firmware_host.loop.runtime import Runtime
    from games.core import Game

SCREEN = (128, 64)


@dataclass(frozen=True)
class TableSnap:
    """The table at one moment, safe to read from any thread."""

    seq: int
    app: str  # "menu", "test" or "game"
    reader: str
    seat_ids: tuple[int, ...]
    frames: Mapping[int, Frame]
    images: Mapping[int, Image]  # each seat's picture, as its OLED got it (rendered for seats without one)
    leds: Mapping[str, str]  # physical zone -> colour name
    sensed: Mapping[str, frozenset[str]]  # physical zone -> tag UIDs, as the reader reports them
    game: Game[Any, Any] | None = None
    state: Any = None
    seats: tuple[int | None, ...] = ()  # table seat of each game seat
    moves: int = 0
    menu_game: str | None = None  # the game being set up in the menu
    refused: Mapping[int, int] = field(default_factory=dict)  # table seat -> its page's OKs that chose nothing
    time: float = field(default=0.0, compare=False)


class WebOutputs:
    """The runtime's outputs, also keeping each seat's picture for the web pages.

    The picture is the very image the seat's screen driver was given (`ScreenBank.image`); a seat
    without a screen (a phone is its screen) gets the frame rendered as its OLED would show it.
    """

    def __init__(self, inner: Outputs, lang: str, screens: Any):
        self.inner = inner
        self.lang = lang
        self.screens = screens
        self.images: dict[int, Image] = {}
        self.version = 0

    @property
    def language(self) -> str:
        """The seats' screens' language: the players' choice, which the pages' own (`lang`) is not."""
        return str(getattr(self.inner, "language", self.lang))

    @language.setter
    def language(self, value: str) -> None:
        if hasattr(self.inner, "language"):  # the screens follow the players' choice at once
            self.inner.language = value

    def show(self, seat: int, frame: Frame) -> None:
        """Show on the seat's screen, then keep the picture."""
        self.inner.show(seat, frame)
        image = self.screens.image(seat) if seat in self.screens.seats else None
        if image is None:
            size = self.screens.size(seat) if seat in self.screens.seats else SCREEN
            image = render_frame(frame, self.language, size)  # as its OLED would show it
        self.images = {**self.images, seat: image}  # copied, never changed: snapshots share it
        self.version += 1

    def leds(self, zones: Mapping[str, str]) -> None:
        """Light the zones."""
        self.inner.leds(zones)
        self.version += 1

    def cue(self, name: str) -> None:
        """Play a cue."""
        self.inner.cue(name)

    def sending(self) -> bool:
        """The inner outputs' `sending`, if they have one."""
        sending = getattr(self.inner, "sending", None)
        return bool(sending()) if sending is not None else False


class Hub:
    """Latest-wins mailbox from the table's loop thread to the web server's asyncio loop."""

    def __init__(self) -> None:
        self.latest: TableSnap | None = None
        self.published = 0  # snapshots captured (the bench compares it with messages sent)
        self._seq = 0
        self._key: tuple[Any, ...] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self._waking = False
        self.waiting = 0  # pages waiting for a snapshot: nobody waiting, nobody to wake
        self.outputs: WebOutputs | None = None

    # -- table side (the loop thread) ------------------------------------------------------------
    def observe(self, runtime: Runtime) -> None:
        """After a refresh: capture a snapshot if anything changed and wake the web loop."""
        from firmware_host.apps.session import GameSession

        app = runtime.app
        version = self.outputs.version if self.outputs is not None else 0
        state = app.state if isinstance(app, GameSession) else None
        key = (version, runtime.events, id(app), id(state), runtime.reader_state)
        if key == self._key:
            return
        self._key = key
        self._seq += 1
        kind = "game" if isinstance(app, GameSession) else type(app).__name__.replace("App", "").lower()
        game = app if isinstance(app, GameSession) else None
        self.latest = TableSnap(
            seq=self._seq, app=kind, reader=runtime.reader_state, seat_ids=runtime.seat_ids,
            frames=dict(runtime.shown), images=self.outputs.images if self.outputs is not None else {},
            leds=runtime.lit, sensed={z: frozenset(u) for z, u in runtime.raw.items() if u},
            game=game.game if game else None, state=game.state if game else None,
            seats=tuple(game.seats) if game else (), moves=len(game.moves) if game else 0,
            menu_game=getattr(app, "game_id", None) if kind == "menu" and getattr(app, "step", "") == "setup" else None,
            time=runtime.clock(), refused=runtime.refused,
        )
        self.published += 1
        loop = self._loop
        if loop is not None and self.waiting and not self._waking:
            self._waking = True
            try:
                loop.call_soon_threadsafe(self._wake)
            except RuntimeError:  # the web loop is closed: nobody to wake
                self._waking = False

    # -- web side (the server's loop) ------------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Bind to the web server's loop (called on that loop)."""
        self._loop = loop
        self._event = asyncio.Event()

    def detach(self) -> None:
        """Forget the loop (the server stopped)."""
        self._loop = None

    def _wake(self) -> None:
        self._waking = False
        event, self._event = self._event, asyncio.Event()
        if event is not None:
            event.set()

    async def next(self, after: int) -> TableSnap:
        """The latest snapshot newer than seq `after` (waits for one)."""
        # counted as waiting before looking: a snapshot published in between then wakes us
        self.waiting += 1
        try:
            while True:
                snap = self.latest
                if snap is not None and snap.seq > after:
                    return snap
                assert self._event is not None, "hub not attached to a loop"
                await self._event.wait()
        finally:
            self.waiting -= 1

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

from firmware_host.frames import Frame
from firmware_host.render import render_frame

if TYPE_CHECKING:
    from PIL.Image import Image

    from firmware_host.runtime import Outputs, Runtime
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
    game: Game | None = None
    state: Any = None
    seats: tuple[int | None, ...] = ()  # table seat of each game seat
    moves: int = 0
    menu_game: str | None = None  # the game being set up in the menu
    time: float = field(default=0.0, compare=False)


class WebOutputs:
    """The runtime's outputs, also keeping each seat's picture for the web pages.

    The picture is `render_frame` of the same frame with the same language and size as the
    screen's, so it is the very image the OLED gets (the render cache returns the same pixels).
    """

    def __init__(self, inner: Outputs, lang: str, sizes: Mapping[int, tuple[int, int]]):
        self.inner = inner
        self.lang = lang
        self.sizes = dict(sizes)
        self.images: dict[int, Image] = {}
        self.version = 0

    def show(self, seat: int, frame: Frame) -> None:
        """Show on the seat's screen, then keep the picture."""
        self.inner.show(seat, frame)
        self.images = {**self.images, seat: render_frame(frame, self.lang, self.sizes.get(seat, SCREEN))}
        self.version += 1

    def leds(self, zones: Mapping[str, str]) -> None:
        """Light the zones."""
        self.inner.leds(zones)
        self.version += 1

    def cue(self, name: str) -> None:
        """Play a cue."""
        self.inner.cue(name)


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
        self.outputs: WebOutputs | None = None

    # -- table side (the loop thread) ------------------------------------------------------------
    def observe(self, runtime: Runtime) -> None:
        """After a refresh: capture a snapshot if anything changed and wake the web loop."""
        from firmware_host.session import GameSession

        app = runtime.app
        version = self.outputs.version if self.outputs is not None else 0
        state = app.state if isinstance(app, GameSession) else None
        key = (version, runtime.events, id(app), id(state), runtime.reader_state)
        if key == self._key:
            return
        self._key = key
        self._seq += 1
        kind = "game" if isinstance(app, GameSession) else type(app).__name__.replace("App", "").lower()
        snap = TableSnap(
            seq=self._seq, app=kind, reader=runtime.reader_state, seat_ids=runtime.seat_ids,
            frames=dict(runtime.shown), images=self.outputs.images if self.outputs is not None else {},
            leds=runtime.lit, sensed={z: frozenset(u) for z, u in runtime.raw.items() if u},
            time=runtime.clock(),
        )
        if isinstance(app, GameSession):
            snap = _with_game(snap, app.game, app.state, app.seats, len(app.moves))
        elif kind == "menu" and getattr(app, "step", None) == "setup":
            snap = _replace(snap, menu_game=getattr(app, "game_id", None))
        self.latest = snap
        self.published += 1
        loop = self._loop
        if loop is not None and not self._waking:
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
        while True:
            snap = self.latest
            if snap is not None and snap.seq > after:
                return snap
            assert self._event is not None, "hub not attached to a loop"
            await self._event.wait()


def _with_game(snap: TableSnap, game: Game, state: Any, seats: tuple[int | None, ...], moves: int) -> TableSnap:
    return _replace(snap, game=game, state=state, seats=tuple(seats), moves=moves)


def _replace(snap: TableSnap, **changes: Any) -> TableSnap:
    import dataclasses

    return dataclasses.replace(snap, **changes)

"""Every seat's screen together: a broken screen never stops the others; one writer thread per
physical I2C bus when asked (drivers/screen_writer.py), so the event loop never waits for a bus."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from drivers.oled_updates import RowPacker, pack_picture
from drivers.screens import (
    BACKOFF,
    DeviceOpener,
    ScreenError,
    ScreenSpec,
    ScreenSpecLike,
    ScreenStats,
    ScreenStatus,
    SeatScreen,
    open_i2c,
)

if TYPE_CHECKING:
    from PIL.Image import Image

    from drivers.screen_writer import BusWriter

log = logging.getLogger("drivers.screens")  # one logger for the screens, as before the bank had its module


class ScreenBank:
    """All seats' screens. `show` per seat, `poll` often; a broken screen never stops the others.

    With `background=True` every physical I2C bus (`bus_of`: a TCA9548A channel -> its parent bus)
    gets a writer thread: `show` only queues the image (latest wins per seat) and returns at once,
    `poll` asks the writers to retry failed screens and reports the state changes they saw,
    `flush` waits for the queued images (scripts, tests, shutdown).
    """

    def __init__(
        self,
        specs: Mapping[int, ScreenSpecLike],
        opener: DeviceOpener = open_i2c,
        *,
        clock: Callable[[], float] = time.monotonic,
        blank_at_exit: bool = False,
        backoff: tuple[float, float] = BACKOFF,
        background: bool = False,
        bus_of: Callable[[int], int] | None = None,
    ) -> None:
        checked = {seat: ScreenSpec.of(spec) for seat, spec in specs.items()}
        where = Counter((s.bus, s.address) for s in checked.values())
        for (bus, address), n in where.items():
            if n > 1:
                raise ScreenError(f"{n} screens on /dev/i2c-{bus} at {address:#04x}")
        self._clock = clock
        self.screens: dict[int, SeatScreen] = {
            seat: SeatScreen(seat, spec, opener, clock=clock, blank_at_exit=blank_at_exit, backoff=backoff)
            for seat, spec in sorted(checked.items())
        }
        self.writers: list[BusWriter] = []
        self._writer_of: dict[int, BusWriter] = {}
        self._asked: dict[int, tuple[Image, bytes]] = {}  # seat -> latest image queued, its bytes
        # per seat, its pictures' packing: a picture no panel showed lately packs only the pages
        # that changed and that no panel showed lately (the packed pictures and pages are shared)
        pages: dict[bytes, bytes] = {}
        frames: dict[bytes, bytes] = {}
        self._packers: dict[int, RowPacker] = {seat: RowPacker(pages, frames) for seat in self.screens}
        if background:
            from drivers.screen_writer import BusWriter, i2c_root

            root = bus_of or i2c_root
            groups: dict[int, list[SeatScreen]] = {}
            for screen in self.screens.values():
                groups.setdefault(root(screen.spec.bus), []).append(screen)
            for bus, screens in sorted(groups.items()):
                writer = BusWriter(bus, screens)
                self.writers.append(writer)
                self._writer_of.update((s.seat, writer) for s in screens)

    def __getitem__(self, seat: int) -> SeatScreen:
        return self.screens[seat]

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats that have a screen."""
        return tuple(self.screens)

    def size(self, seat: int) -> tuple[int, int]:
        """The image size to render for a seat."""
        return self.screens[seat].spec.size

    def show(self, seat: int, image: Image, now: float | None = None, *, owned: bool = False,
             rows: bytes | None = None) -> bool:
        """Show an image on a seat's screen (a seat without a screen ignores it).

        True if sent (in the background: queued for its bus writer because it changed). `owned`:
        the caller will not touch the image again (a fresh render), so it is not copied. `rows`:
        the image's mode "1" bytes, when the caller made it from them (packed without Pillow).
        """
        screen = self.screens.get(seat)
        if screen is None:
            return False
        writer = self._writer_of.get(seat)
        if writer is None:
            if owned and image.mode == "1" and image.size == screen.spec.size:  # no copy needed
                data = pack_picture(image, screen.spec.rotation, rows, self._packers[seat])
                return screen.show(image, now, data=data)
            return screen.show(image, now)
        if image.size != screen.spec.size:
            raise ScreenError(f"seat {seat}: image is {image.size}, the screen needs {screen.spec.size}")
        if screen.state == "closed":
            return False
        if image.mode != "1":
            image = image.convert("1")
        elif not owned:
            image = image.copy()  # the caller may reuse its image
        # packed here, once: the bytes tell an unchanged picture, and are what the panel is sent
        data = pack_picture(image, screen.spec.rotation, rows, self._packers[seat])
        asked = self._asked.get(seat)
        if asked is not None and asked[1] == data:
            return False
        self._asked[seat] = (image, data)
        writer.submit(seat, image, data)
        return True

    def sending(self) -> bool:
        """True while a writer has images to send (`BusWriter.sending`)."""
        return any(writer.sending() for writer in self.writers)

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until the writers have sent every queued image and finished their retries."""
        return all(writer.flush(timeout) for writer in self.writers)

    def poll(self, now: float | None = None) -> list[ScreenStatus]:
        """Retry missing screens that are due; the statuses that changed since the last poll."""
        now = self._clock() if now is None else now
        if self.writers:
            out: list[ScreenStatus] = []
            for writer in self.writers:
                # wake a writer only for a screen whose retry is due (read without its lock: at
                # worst a retry starts one poll later)
                if any(screen.due(now) for screen in writer.screens.values()):
                    writer.poll(now)
                out += writer.take_changes()
            return sorted(out, key=lambda s: s.seat)
        changed = []
        for screen in self.screens.values():
            screen.poll(now)
            if screen.changed:
                screen.changed = False
                changed.append(screen.status())
        return changed

    def statuses(self) -> list[ScreenStatus]:
        """Every screen's health, by seat."""
        return [s.status() for s in self.screens.values()]

    def problems(self) -> list[ScreenStatus]:
        """The screens that do not work now."""
        return [s for s in self.statuses() if not s.ok]

    @property
    def stats(self) -> ScreenStats:
        """Counters summed over all screens."""
        total = ScreenStats()
        for screen in self.screens.values():
            total = total + screen.stats
        return total

    def image(self, seat: int) -> Image | None:
        """A seat's current picture: the latest one asked for (None before the first frame)."""
        asked = self._asked.get(seat)
        return asked[0] if asked is not None else self.screens[seat].image

    def save_png(self, seat: int, path: str | Path, scale: int = 1) -> Path:
        """Save a seat's current picture as PNG (blank before the first frame), `scale` times larger."""
        from PIL import Image as PILImage

        if not 1 <= scale <= 16:
            raise ScreenError(f"scale must be 1-16, got {scale}")
        image = self.image(seat) or PILImage.new("1", self.size(seat))
        if scale > 1:
            image = image.resize((image.width * scale, image.height * scale), PILImage.Resampling.NEAREST)
        out = Path(path)
        image.save(out, format="PNG")
        return out

    def close(self, blank: bool | None = None) -> None:
        """Send what is queued, stop the writers, let every screen go (blank them if asked)."""
        for writer in self.writers:
            writer.stop()
        for writer in self.writers:
            for status in writer.take_changes():
                log.debug("screen of seat %d: %s", status.seat, status.state)
        self.writers, self._writer_of = [], {}
        for screen in self.screens.values():
            screen.close(blank)

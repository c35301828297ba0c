"""Background screen sends: one writer thread per physical I2C bus, the latest frame wins per seat.

A whole SSD1306 frame is 23 ms on a 400 kHz bus and eight screens share one bus behind the
TCA9548A, so sends cannot run on the event loop. The loop only drops each seat's newest image into
its bus writer's mailbox (a dict under a lock: microseconds) and goes back to buttons and tags. The
writer sends seats in the order they first asked; an image replaced before it was sent is never
sent (its seat keeps its place in the line), so the image a seat shows is always the last one asked
for. Retrying a failed screen (its back-off as before) also runs on the writer, when the loop's
`poll` asks for it.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

    from drivers.screens import ScreenStatus, SeatScreen

log = logging.getLogger(__name__)

SYSFS_I2C = Path("/sys/bus/i2c/devices")


def i2c_root(bus: int, sysfs: Path = SYSFS_I2C) -> int:
    """The physical bus behind /dev/i2c-<bus>: a TCA9548A channel's parent adapter, else itself.

    The i2c-mux overlay makes each channel an adapter whose sysfs path sits under its parent's:
    /sys/devices/.../i2c-1/i2c-11 for channel bus 11 on bus 1.
    """
    try:
        path = Path(os.path.realpath(sysfs / f"i2c-{bus}"))
    except OSError:
        return bus
    roots = [part for part in path.parts if part.startswith("i2c-") and part[4:].isdigit()]
    return int(roots[0][4:]) if roots else bus


class BusWriter:
    """The thread that sends frames to the screens of one physical I2C bus."""

    def __init__(self, bus: int, screens: Iterable[SeatScreen]) -> None:
        self.bus = bus
        self.screens = {s.seat: s for s in screens}
        self._cond = threading.Condition()
        # seat -> newest image not sent yet, and its bytes if known (insertion = order)
        self._pending: dict[int, tuple[Image, bytes | None]] = {}
        self._poll_at: float | None = None
        self._busy = False
        self._stopping = False
        self._changes: list[ScreenStatus] = []
        self.sends = 0  # images handed to a screen (sent, skipped as unchanged, or kept for later)
        self.coalesced = 0  # images replaced by a newer one before they were sent
        self.busy_seconds = 0.0  # wall time spent sending and retrying
        self.cpu_seconds = 0.0  # this thread's CPU time (packing, luma's interface, the bus driver)
        self._thread = threading.Thread(target=self._run, name=f"screens-i2c-{bus}", daemon=True)
        self._thread.start()

    # -- the loop's side (never waits for the bus) -----------------------------------------------
    def submit(self, seat: int, image: Image, data: bytes | None = None) -> None:
        """Queue `image` for `seat`, replacing any image of that seat not sent yet. With `data`
        (its bytes) the image is the writer's: a mode "1" image of the screen's size, never
        touched again by the caller."""
        with self._cond:
            if seat in self._pending:
                self.coalesced += 1
            self._pending[seat] = (image, data)
            self._cond.notify_all()

    def poll(self, now: float) -> None:
        """Ask the writer to retry its missing screens whose back-off has elapsed."""
        with self._cond:
            self._poll_at = now
            self._cond.notify_all()

    def take_changes(self) -> list[ScreenStatus]:
        """Screen states that changed on this bus since the last call."""
        if not self._changes:  # the usual case, read without the lock: the loop polls often
            return []
        with self._cond:
            out, self._changes = self._changes, []
        return out

    def sending(self) -> bool:
        """True while images wait or one is being sent (read without the lock: a hint, asked by
        the loop before its idle work, which would otherwise hold the interpreter the sends need)."""
        return bool(self._pending) or self._busy

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every queued image is sent and no retry runs (scripts, tests, shutdown)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending or self._busy or self._poll_at is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not self._thread.is_alive():
                    return False
                self._cond.wait(left)
        return True

    def stop(self, timeout: float = 5.0) -> None:
        """Send what is queued, then end the thread."""
        self.flush(timeout)
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._thread.join(timeout)

    # -- the writer's side -----------------------------------------------------------------------
    def _poll_all(self, now: float | None) -> None:
        """Give every screen of the bus its due retry."""
        for s in self.screens.values():
            s.poll(now)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and self._poll_at is None and not self._stopping:
                    self._cond.wait()
                if self._stopping and not self._pending:
                    return
                job: Callable[[], object]
                sending = bool(self._pending)
                if sending:
                    seat = next(iter(self._pending))
                    image, data = self._pending.pop(seat)
                    screen = self.screens[seat]
                    job = functools.partial(screen.show, image, data=data)
                else:
                    now, self._poll_at = self._poll_at, None
                    job = functools.partial(self._poll_all, now)
                self._busy = True
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                job()
            except Exception:  # a bug must not silence a bus: log it, keep serving the others
                log.exception("screen writer on bus %d", self.bus)
            finally:
                with self._cond:
                    self.sends += sending
                    self.busy_seconds += time.perf_counter() - start
                    self.cpu_seconds += time.thread_time() - cpu
                    for screen in self.screens.values():
                        if screen.changed:
                            screen.changed = False
                            self._changes.append(screen.status())
                    self._busy = False
                    self._cond.notify_all()

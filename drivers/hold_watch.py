"""Long presses of every seat's buttons timed by one thread that sleeps while no button is down.

gpiozero's Button times its long press with a thread of its own that wakes every 0.1 s whether
the button is down or not: a table's 24 buttons make 240 wake-ups a second, each one taking the
interpreter's lock from the event loop for a moment, all day long. Here the buttons are gpiozero
DigitalInputDevices (the same pins, edges and debounce), and one HoldWatch, shared by a panel,
is armed at each press and disarmed at its release: its thread sleeps until the earliest hold
time is up, and without a button down it waits for the next press without a timeout.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable

log = logging.getLogger(__name__)


class HoldWatch:
    """Calls each armed button's callback once its hold time is up, unless disarmed before."""

    def __init__(self, name: str = "buttons-hold") -> None:
        self.name = name
        self.wakeups = 0  # times the thread woke up (tests: none while no button is down)
        self._cond = threading.Condition()
        self._due: dict[Hashable, tuple[float, Callable[[], None]]] = {}  # key -> (deadline, callback)
        self._closed = False
        self._thread: threading.Thread | None = None

    def arm(self, key: Hashable, seconds: float, fire: Callable[[], None]) -> None:
        """Call `fire` (on the watch's thread) `seconds` from now, replacing `key`'s earlier wish."""
        with self._cond:
            if self._closed:
                return
            self._due[key] = (time.monotonic() + seconds, fire)
            if self._thread is None:  # started at the first press: a table nobody touches has none
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
            self._cond.notify()

    def disarm(self, key: Hashable) -> None:
        """Forget `key`'s wish (its button was released); the thread finds it gone when it wakes."""
        with self._cond:
            self._due.pop(key, None)

    def armed(self) -> int:
        """How many wishes wait for their time."""
        with self._cond:
            return len(self._due)

    def close(self, timeout: float = 5.0) -> None:
        """Forget every wish and end the thread."""
        with self._cond:
            self._closed = True
            self._due.clear()
            self._cond.notify()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _next(self) -> Callable[[], None] | None:
        """The next callback whose time is up, waiting for it; None once closed."""
        with self._cond:
            while not self._closed:
                if not self._due:
                    self._cond.wait()  # no button down: no timeout, no wake-up until a press
                else:
                    key, (at, fire) = min(self._due.items(), key=lambda item: item[1][0])
                    left = at - time.monotonic()
                    if left <= 0:
                        del self._due[key]
                        return fire
                    self._cond.wait(left)
                self.wakeups += 1
            return None

    def _run(self) -> None:
        while (fire := self._next()) is not None:
            try:
                fire()
            except Exception:  # a callback's bug must not stop every other button's long press
                log.exception("long press callback failed")

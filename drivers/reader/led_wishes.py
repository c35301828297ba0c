"""The LED colours the table wants on the reader's antennas, and the LEDs still to be sent.

Wishes come from the table's loop, the link's thread sends them: both sides meet under this
object's own lock, never held while writing to the port, so a controller that stops reading never
holds the loop. Several wishes for one LED before it is sent become one frame.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)


class LedWishes:
    """The lit antennas and their colours, and the LEDs to send (None: all off, then every lit one)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lit: dict[int, RGB] = {}
        self._todo: dict[int | None, None] = {}  # an ordered set

    def lit(self) -> dict[int, RGB]:
        """Antenna -> colour of every lit LED."""
        with self._lock:
            return dict(self._lit)

    def colour(self, antenna: int) -> RGB:
        """The colour wanted on one antenna (OFF when unlit)."""
        with self._lock:
            return self._lit.get(antenna, OFF)

    def lit_antennas(self) -> list[int]:
        """The lit antennas, in order."""
        with self._lock:
            return sorted(self._lit)

    def wish(self, wishes: Mapping[int, RGB]) -> None:
        """Light (or, with OFF, turn off) antennas; the caller checked antennas and colours."""
        with self._lock:
            for antenna, rgb in wishes.items():
                if rgb == OFF:
                    self._lit.pop(antenna, None)
                else:
                    self._lit[antenna] = rgb
                self._todo[antenna] = None

    def all_off(self) -> None:
        """Turn every LED off: one "all off" to send instead of what was waiting."""
        with self._lock:
            self._lit.clear()
            self._todo.clear()
            self._todo[None] = None

    def waiting(self) -> bool:
        """True while some wish waits to be sent."""
        with self._lock:
            return bool(self._todo)

    def take(self) -> list[int | None]:
        """The LEDs to send now (None: all off, then every lit one); none wait afterwards."""
        with self._lock:
            todo, self._todo = list(self._todo), {}
        return todo

    def restate(self, antennas: int) -> list[int]:
        """A controller of `antennas` antennas answered: every LED will be stated again, so nothing
        waits; the lit antennas it does not have are dropped (and returned)."""
        with self._lock:
            dropped = [a for a in self._lit if a >= antennas]
            for antenna in dropped:
                del self._lit[antenna]
            self._todo.clear()
        return dropped

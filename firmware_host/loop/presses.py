"""A seat's buttons as the table reads them: OK acts on its release, so a long press (quit) never
also chooses the highlighted entry, and an OK sent by a page chooses only the entry it meant (or,
meant to leave an extra page, nothing once the menu is back)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from firmware_host.apps.app import Button, PressKind
from firmware_host.screens.frames import Frame

log = logging.getLogger(__name__)

EXPECT_WINDOW = 2.0  # seconds a page's expectation waits for its OK (the release follows at once)


class Presses:
    """The OK buttons held down, the entries pages said their next OK means, the OKs refused."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.ok_down: dict[int, bool] = {}
        self.expected: dict[int, tuple[str | None, float]] = {}  # a page's next OK: the entry it means, since
        self.refused: Mapping[int, int] = {}  # seat -> its page's OKs that chose nothing; replaced: snapshots share it

    def expect(self, seat: int, label: str | None) -> None:
        """A page says which entry its seat's next OK means (None: only back to the menu)."""
        self.expected[seat] = (label, self.clock())

    def forget(self, seat: int) -> None:
        """The seat's OK held down no longer counts (its press only cleared a message)."""
        self.ok_down.pop(seat, None)

    def read(self, seat: int, button: Button, kind: PressKind, frame: Callable[[int], Frame]) -> PressKind | None:
        """What the app is given for this button event (None: nothing, yet or at all); `frame`
        gives a seat's current frame, to check an OK a page sent against the entry it meant."""
        if button == "ok":
            if kind == "press":
                self.ok_down[seat] = True
                return None
            if kind == "release":
                # the expectation goes with this release, whatever it does: one left by a long
                # press's release must not judge the next OK
                expected = self.expected.pop(seat, None)
                if not self.ok_down.pop(seat, False) or not self._as_expected(seat, expected, frame):
                    return None
                return "press"
            if kind == "long":
                self.ok_down.pop(seat, None)
                return "long"
            return None
        return "press" if kind == "press" else None

    def _as_expected(self, seat: int, expected: tuple[str | None, float] | None,
                     frame: Callable[[int], Frame]) -> bool:
        """False when a page's OK meant an entry the seat's cursor is no longer on: the menu
        changed under the page's picture of it, and the OK chooses nothing."""
        if expected is None or self.clock() - expected[1] > EXPECT_WINDOW:
            return True
        shown = frame(seat)
        if expected[0] is None:  # meant to leave an extra page: on the menu already, it would choose
            if shown.page:
                return True
            # not a refusal to tell: the page gets the menu it asked to go back to
            log.info("seat %s: a page's OK meant to leave a page the menu already replaced: nothing chosen", seat)
            return False
        entry = shown.menu[shown.cursor] if shown.page == 0 and 0 <= shown.cursor < len(shown.menu) else None
        if entry is not None and expected[0] in (entry.get("fr"), entry.get("en")):
            return True
        log.info("seat %s: a page chose %r, the menu changed under it: nothing chosen", seat, expected[0])
        self.refused = {**self.refused, seat: self.refused.get(seat, 0) + 1}
        return False

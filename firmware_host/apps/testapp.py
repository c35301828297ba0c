"""The built-in table test: each seat sees its own presses and the tags on its pad; the board
shows what is sensed where, so a maker can check a freshly built table. Long press OK: leave."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from firmware_host.apps.app import BackToMenu, Button, PressKind, QuietApp, Sensed, Transition
from firmware_host.screens.frames import Frame
from firmware_host.storage.tags import TagRegistry
from games.core import COLUMNS, ROWS, Screen, Text, tr


@dataclass
class TestApp(QuietApp):
    """Echoes buttons and sensed tags; lights every zone that holds a tag."""

    seat_ids: tuple[int, ...]
    registry: TagRegistry
    last_press: dict[int, str] = field(default_factory=dict)
    presses: dict[int, int] = field(default_factory=dict)
    sensed: dict[str, frozenset[str]] = field(default_factory=dict)
    needs_reader: ClassVar[bool] = False

    def begin(self, sensed: Sensed) -> Transition | None:
        """The test starts with what lies on the table."""
        return self.on_sensed(sensed)

    def on_button(self, seat: int, button: Button, kind: PressKind) -> Transition | None:
        """Record the press; a long press on OK leaves the test."""
        if kind == "long" and button == "ok":
            return BackToMenu()
        self.last_press[seat] = f"{button} {kind}"
        if kind == "press":
            self.presses[seat] = self.presses.get(seat, 0) + 1
        return None

    def on_sensed(self, sensed: Sensed) -> Transition | None:
        """A settled layout (physical zone -> UIDs)."""
        self.sensed = {z: u for z, u in sensed.items() if u}
        return None

    def _name(self, uid: str) -> str:
        piece = self.registry.piece(uid)
        return piece.split("/", 1)[1] if piece else f"? {uid}"

    def board_lines(self) -> list[str]:
        """The 5x6 board as text: '#' where a tag lies, '.' elsewhere."""
        return ["".join("#" if self.sensed.get(f"{c}{r}") else "." for c in COLUMNS) for r in range(1, ROWS + 1)]

    def frame(self, seat: int) -> Frame:
        """Seat `seat`'s test screen."""
        pad = sorted(self.sensed.get(f"seat{seat}.pad", ()))
        press = self.last_press.get(seat, "—")
        lines = [Text(f"Bouton : {press} ({self.presses.get(seat, 0)})",
                      f"Button: {press} ({self.presses.get(seat, 0)})")]
        if pad:
            names = ", ".join(self._name(u) for u in pad)
            lines.append(Text(f"Plateau : {names}", f"Pad: {names}"))
        else:
            lines.append(tr("Plateau : vide", "Pad: empty"))
        board = self.board_lines()
        lines.append(Text(" ".join(board[:3]), " ".join(board[:3])))
        lines.append(Text(" ".join(board[3:]), " ".join(board[3:])))
        return Frame(Screen(tr(f"Test siège {seat}", f"Test seat {seat}"), tuple(lines)),
                     banner=None)

    def leds(self) -> dict[str, str]:
        """Every zone with a tag lights white."""
        return {zone: "white" for zone in self.sensed}

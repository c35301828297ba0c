"""A person at the virtual table page (clicks and keys on the seats' buttons), shared by the browser tests."""

from __future__ import annotations

from typing import Any

from firmware_host.apps.session import GameSession
from tests.kits.webkit import LiveTable


def session(live: LiveTable) -> GameSession:
    app = live.runtime.app
    assert isinstance(app, GameSession), type(app).__name__
    return app


class Hands:
    """A person at the virtual table page."""

    def __init__(self, page: Any, live: LiveTable):
        self.page = page
        self.live = live
        self.active: int | None = None  # the seat the keyboard drives

    def click(self, seat: int, button: str) -> None:
        self.page.click(f'button[data-seat="{seat}"][data-button="{button}"]')
        self.active = seat  # a click on a seat's panel makes it the keyboard's seat

    def key(self, seat: int, button: str) -> None:
        if self.active != seat:
            self.page.keyboard.press(str(seat))
            self.active = seat
        self.page.keyboard.press({"left": "ArrowLeft", "right": "ArrowRight", "ok": "Enter"}[button])

    def events(self) -> int:
        return int(self.live.runtime.events)

    def settled(self, before: int, n: int) -> None:
        """Wait until the runtime handled the `n` button events (press + release each) sent."""
        self.live.wait(lambda: self.events() >= before + n, what=f"{n} button events")

    def buttons(self, seat: int, presses: list[str], use_keys: bool = False) -> None:
        before = self.events()
        for button in presses:
            (self.key if use_keys else self.click)(seat, button)
        self.settled(before, 2 * len(presses))

    def look(self) -> None:
        """Wait until the page shows what the table senses and its count of moves: a person drags the
        pieces where they see them, and a page behind the table (a loaded machine) moves them under
        the mouse as it catches up."""
        shown = "() => { const s = window.zt.state; return [s.zones || {}, s.game ? s.game.moves : -1]; }"
        self.live.wait(lambda: self.page.evaluate(shown) == self.table_shows(),
                       what=f"the page to show the table's moves and pieces {self.table_shows()}")

    def table_shows(self) -> list[Any]:
        """What the table senses (zone -> its pieces, sorted) and its count of moves, as the page gets them."""
        sensed = {z: sorted(self.live.sim.registry.piece(u) or u for u in us)
                  for z, us in self.live.runtime.raw.items() if us}
        return [sensed, len(session(self.live).moves)]

    def drag_on(self, piece: str, zone: str) -> None:
        """Drag a piece onto a zone from wherever it lies: a tray, the box, or another zone (a piece
        the table asks to move, as a player would carry it)."""
        self.page.drag_and_drop(f'.tray [data-piece="{piece}"], .box [data-piece="{piece}"], '
                                f'[data-zone] [data-piece="{piece}"]', f'[data-zone="{zone}"]')

    def lift(self, piece: str, zone: str, by_drag: bool) -> None:
        source = f'[data-zone="{zone}"] [data-piece="{piece}"]'
        if by_drag:
            self.page.drag_and_drop(source, "#box")
        else:
            self.page.dblclick(source)


def start_from_menu(hands: Hands, live: LiveTable, game_id: str, seats: tuple[int, int]) -> None:
    """The host takes the menu, chooses the game, the other seat joins, the host starts."""
    host, other = seats
    hands.buttons(host, ["ok"])
    ids = live.runtime.app.games()
    hands.buttons(host, ["right"] * ids.index(game_id) + ["ok"])
    hands.buttons(other, ["ok"])
    hands.buttons(host, ["ok"])
    live.wait(lambda: isinstance(live.runtime.app, GameSession), what="the game to start")

"""What the screens show follows every change that is not a move: a message expiring, a cursor,
an instruction, the reader's absence, an undo asked (no frame is kept past what it was made of)."""

from __future__ import annotations

import pytest

import games.registry as registry
from drivers.buttons import ButtonEvent
from firmware_host.apps.entries import Entry
from firmware_host.apps.seat_ui import NOTICE_SECONDS
from firmware_host.apps.session import GameSession
from firmware_host.loop.runtime import ReaderStatus, Runtime, TagChange
from firmware_host.loop.simulator import FakeClock
from firmware_host.storage.config import load_config
from firmware_host.storage.tags import sim_registry, sim_uid
from tests.kits import menus
from tests.kits.toyboard import GAME, token


class Outputs:
    """The runtime's outputs: the last frame sent to each seat."""

    def __init__(self) -> None:
        self.frames: dict = {}
        self.lit: dict = {}

    def show(self, seat, frame):
        self.frames[seat] = frame

    def leds(self, zones):
        self.lit = dict(zones)

    def cue(self, name):
        pass


@pytest.fixture
def table(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", {"toyboard": "tests.kits.toyboard:GAME"})
    registry.get_game.cache_clear()
    out, clock = Outputs(), FakeClock(0.0)
    runtime = Runtime(load_config(None), sim_registry(GAME.pieces()), out, clock, auto_chance=True, seed=1)
    runtime.handle(ReaderStatus("ready"))
    for seat in (2, 2, 5, 2):  # the toy game on seats 2 and 5
        ok(runtime, seat)
    assert isinstance(runtime.app, GameSession)
    yield runtime, out, clock
    registry.get_game.cache_clear()


def ok(runtime: Runtime, seat: int) -> None:
    runtime.handle(ButtonEvent(seat, "ok", "press", 0.0))
    runtime.handle(ButtonEvent(seat, "ok", "release", 0.0))


def choose(runtime: Runtime, seat: int, kind: str | Entry) -> None:
    """Walk table seat `seat`'s cursor to the entry of action type `kind` (or the table's entry), press OK."""
    session = runtime.app
    gseat = session.game_seat(seat)
    kinds = [a if isinstance(a, Entry) else a.get("type") for a in menus.entries(session, gseat)]
    for _ in range((kinds.index(kind) - session.ui[gseat].cursor) % len(kinds)):
        runtime.handle(ButtonEvent(seat, "right", "press", 0.0))
    ok(runtime, seat)


def settle(runtime: Runtime, clock: FakeClock, zone: str, piece: str, present: bool = True) -> None:
    runtime.handle(TagChange(zone, sim_uid(piece), present))
    clock.t += runtime.table.reader.settle + 0.01
    runtime.tick()


def says(frame, words: str) -> bool:
    texts = [frame.banner, frame.status, frame.screen.title, *frame.screen.lines, *frame.menu]
    return any(t is not None and words in t.fr for t in texts)


def test_a_message_leaves_the_screen_when_its_time_is_up(table):
    runtime, out, clock = table
    choose(runtime, 2, "ring")  # the other player hears it
    assert says(out.frames[5], "Ding")
    clock.t += NOTICE_SECONDS / 2
    runtime.tick()
    assert says(out.frames[5], "Ding")
    clock.t += NOTICE_SECONDS
    runtime.tick()
    assert not says(out.frames[5], "Ding")


def test_the_cursor_shown_follows_each_press(table):
    runtime, out, _ = table
    runtime.handle(ButtonEvent(2, "ok", "long", 0.0))  # the quit question: keep playing, quit
    assert says(out.frames[2], "Quitter") and out.frames[2].cursor == 0
    runtime.handle(ButtonEvent(2, "right", "press", 0.0))
    assert out.frames[2].cursor == 1
    runtime.handle(ButtonEvent(2, "right", "press", 0.0))  # the cursor wraps
    assert out.frames[2].cursor == 0
    runtime.handle(ButtonEvent(2, "left", "press", 0.0))
    assert out.frames[2].cursor == 1


def test_an_instruction_appears_and_goes_with_the_piece(table):
    runtime, out, clock = table
    before = out.frames[2]
    settle(runtime, clock, "D1", token(0, 1))  # not a square of the game: take it away
    assert out.frames[2].banner is not None and out.frames[2] != before
    settle(runtime, clock, "D1", token(0, 1), present=False)
    assert out.frames[2].banner is None


def test_the_reader_absent_banner_comes_and_goes(table):
    runtime, out, _ = table
    runtime.handle(ReaderStatus("lost", "unplugged"))
    assert all(says(out.frames[s], "Lecteur absent") for s in (2, 5))
    runtime.handle(ReaderStatus("ready"))
    assert not any(says(out.frames[s], "Lecteur absent") for s in (2, 5))


def test_an_undo_asked_shows_on_the_others_screen_and_goes_when_answered(table):
    runtime, out, clock = table
    settle(runtime, clock, "A1", token(0, 1))
    assert len(runtime.app.moves) == 1
    choose(runtime, 2, Entry.UNDO)
    menu = [m.fr for m in out.frames[5].menu]
    assert menu == ["Non", "Oui"]
    choose(runtime, 5, Entry.UNDO_NO)
    assert [m.fr for m in out.frames[5].menu] != menu
    assert len(runtime.app.moves) == 1


def test_the_leds_follow_moves_and_instructions(table):
    runtime, out, clock = table
    free = dict(out.lit)
    assert free.get("A1") == "green"
    settle(runtime, clock, "A1", token(0, 1))
    assert "A1" not in out.lit and out.lit != free
    moved = dict(out.lit)
    settle(runtime, clock, "D1", token(1, 1))  # off the game's row: take it away
    assert out.lit.get("D1") == "red"
    settle(runtime, clock, "D1", token(1, 1), present=False)
    assert out.lit == moved

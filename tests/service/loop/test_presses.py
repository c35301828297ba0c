"""A seat's buttons as the table reads them (firmware_host/loop/presses.py), moves tested directly:
OK acts on its release, a long press never also chooses, a page's OK chooses only the entry it meant,
and one meant to leave an extra page chooses nothing once the menu is back."""

from __future__ import annotations

from firmware_host.loop.presses import EXPECT_WINDOW, Presses
from firmware_host.screens.frames import Frame
from games.core import Screen, tr

MENU = Frame(Screen(tr("Jeu", "Game")), (tr("Commencer", "Start"), tr("Retour", "Back")), cursor=0)


class Clock:
    def __init__(self) -> None:
        self.t = 10.0

    def __call__(self) -> float:
        return self.t


def frame(seat: int) -> Frame:
    return MENU


def test_ok_acts_on_its_release_and_a_long_press_never_also_chooses() -> None:
    p = Presses(Clock())
    assert p.read(1, "ok", "release", frame) is None  # a release without its press: nothing
    assert p.read(1, "ok", "press", frame) is None
    assert p.read(1, "ok", "release", frame) == "press"
    assert p.read(1, "ok", "press", frame) is None
    assert p.read(1, "ok", "long", frame) == "long"
    assert p.read(1, "ok", "release", frame) is None  # the long press's release chooses nothing
    assert p.read(2, "left", "press", frame) == "press" and p.read(2, "left", "release", frame) is None
    p.read(3, "ok", "press", frame)
    p.forget(3)  # that press only cleared a message
    assert p.read(3, "ok", "release", frame) is None


def test_a_pages_ok_chooses_only_the_entry_it_meant() -> None:
    clock = Clock()
    p = Presses(clock)
    p.expect(1, "Retour")
    p.read(1, "ok", "press", frame)
    before = p.refused
    assert p.read(1, "ok", "release", frame) is None  # the cursor is on "Commencer"
    assert p.refused == {1: 1} and p.refused is not before  # replaced: a snapshot keeps the old one
    p.expect(1, "Start")  # either language names the entry
    p.read(1, "ok", "press", frame)
    assert p.read(1, "ok", "release", frame) == "press"
    p.expect(1, "Retour")
    clock.t += EXPECT_WINDOW + 0.1  # an expectation too old no longer holds
    p.read(1, "ok", "press", frame)
    assert p.read(1, "ok", "release", frame) == "press" and p.refused == {1: 1}


def test_a_pages_ok_meant_to_leave_an_extra_page_never_chooses() -> None:
    clock = Clock()
    p = Presses(clock)
    on_page = Frame(MENU.screen, MENU.menu, cursor=0, page=1)
    p.expect(1, None)
    p.read(1, "ok", "press", lambda seat: on_page)
    assert p.read(1, "ok", "release", lambda seat: on_page) == "press"  # the app takes it back to the menu
    p.expect(1, None)  # the page still showed the extra page; a new state put the seat on its menu
    p.read(1, "ok", "press", frame)
    assert p.read(1, "ok", "release", frame) is None  # "Commencer" is under the cursor: not chosen
    assert p.refused == {}  # nothing to tell: the page gets the menu it asked for


def test_a_long_press_takes_its_releases_expectation_with_it() -> None:
    """A page's OK held into a long press (the quit question) and released saying "Retour": that
    release chooses nothing, and its expectation must not judge the next OK."""
    p = Presses(Clock())
    p.read(1, "ok", "press", frame)
    assert p.read(1, "ok", "long", frame) == "long"
    p.expect(1, "Retour")
    assert p.read(1, "ok", "release", frame) is None
    p.read(1, "ok", "press", frame)  # the table's own OK, on "Commencer"
    assert p.read(1, "ok", "release", frame) == "press" and p.refused == {}

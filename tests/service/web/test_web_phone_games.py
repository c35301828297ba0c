"""More players than OLEDs, in headless Chromium: Opération Zèbre competitive with 12 players on the
8-seat table and Opération Mata Hari with 7 on a 5-seat table, each played to its end. The seated
players act through the table's own events (their buttons, their cards on the reader); every move
of a phone seat is a tap on its page's big menu button (390×844, one at 1280×800), which presses the
seat's buttons as a person at an OLED would: its cards are laid through its menu and tracked by the
table. The virtual table shows the phone seats' screens beside the table's."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from drivers.buttons import ButtonEvent
from firmware_host.apps import reconcile
from firmware_host.apps.menu import Do, Option
from firmware_host.apps.phones import FIRST_PHONE_SEAT, seat_choices
from firmware_host.apps.session import GameSession
from games.core import CHANCE, Action, Countdown
from tests.games.test_on_table import purposeful
from tests.kits.webkit import WAIT_SECONDS, LiveTable, shot
from tests.service.web.test_web_layout import clipped

pytestmark = pytest.mark.slow  # whole games played through phones: tens of seconds

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
CHOICE = """([i, label]) => {
  const b = document.querySelector(`#menu .choice[data-entry="${i}"]`);
  return !!b && b.textContent === label && !document.querySelector("#error.on");
}"""


def press(live: LiveTable, seat: int, button: str = "ok") -> None:
    """A seated player's button, as its gpiozero callback queues it; waits until the table took it."""
    before = live.runtime.events
    live.runtime.post(ButtonEvent(seat, button, "press", time.monotonic()))
    live.runtime.post(ButtonEvent(seat, button, "release", time.monotonic()))
    live.wait(lambda: live.runtime.events >= before + 2, what=f"seat {seat}'s {button}")


def go_to(live: LiveTable, key: Any) -> None:
    while [k for _, k in live.runtime.app.entries()][live.runtime.app.cursor] != key:
        press(live, 1, "right")


def set_up(live: LiveTable, game_id: str, seated: int, phones: int, options: dict[str, str]) -> GameSession:
    """The host (seat 1) chooses the game, the seated players join, the host adds the phone players."""
    press(live, 1)
    for _ in range(live.runtime.app.games().index(game_id)):
        press(live, 1, "right")
    press(live, 1)
    for seat in range(2, seated + 1):
        press(live, seat)
    go_to(live, Do("extra"))
    for _ in range(phones):
        press(live, 1)
    for key, value in options.items():
        go_to(live, Option(key))
        while live.runtime.app.options.get(key) != value:
            press(live, 1)
    go_to(live, Do("start"))
    press(live, 1)
    live.wait(lambda: isinstance(live.runtime.app, GameSession), what="the game to start")
    app = live.runtime.app
    assert isinstance(app, GameSession)
    return app


def tap(page: Any, i: int, label: str, moved_on: Callable[[], bool] = lambda: False) -> bool:
    """Tap menu entry `i` on a phone seat's page, once the page shows it; False (not tapped) when
    the table moved on first (a countdown ran out: the menu the entry was in is gone)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # installed with the browser tests

    # the entry at i reading `label`: a menu redrawn since the wait (a frame that was on its way)
    # may have another entry there, and the page would rightly choose that one
    entry = page.locator(f'#menu .choice[data-entry="{i}"]', has_text=re.compile(f"^{re.escape(label)}$"))
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        try:
            page.wait_for_function(CHOICE, arg=[i, label], timeout=500)
            entry.click(timeout=2000)
            return True
        except PlaywrightTimeout:
            if moved_on():
                return False
            if time.monotonic() > deadline:
                raise


def page_said_no(page: Any) -> bool:
    """True while the page shows its own refusal (the menu changed, the table did not answer)."""
    return bool(page.evaluate("() => document.querySelector('#error.on') !== null"))


def diagnosis(live: LiveTable, page: Any, table_seat: int) -> str:
    """What the page and the table show for a seat whose tap came to nothing."""
    frame = live.runtime.app.frame(table_seat)
    shown = page.evaluate("() => [...document.querySelectorAll('#menu .choice')].map(b => b.textContent)")
    return (f"page error {page.text_content('#error')!r}, page menu {shown}, table cursor {frame.cursor} "
            f"page {frame.page} menu {[e.get('fr') for e in frame.menu]}")


def tap_move(live: LiveTable, page: Any, table_seat: int, i: int, choice: Any, lang: str,
             moved_on: Callable[[], bool]) -> bool:
    """A phone player's move: tap its entry (and "Oui" when asked), again when the page or the table
    said the tap chose nothing; False when the table moved on first (a countdown ran out)."""
    label = choice.label.get(lang)
    for _ in range(3):
        refused = live.runtime.refused.get(table_seat, 0)  # the table's count of OKs that chose nothing
        if not tap(page, i, label, moved_on) or (
                choice.confirm is not None and not tap(page, 1, "Oui", moved_on)):
            return False
        deadline = time.monotonic() + WAIT_SECONDS
        while not moved_on():
            if live.runtime.refused.get(table_seat, 0) > refused or page_said_no(page):
                break  # told so: tap again, from the page's menu as it is now
            if time.monotonic() > deadline:
                raise AssertionError(f"a tap on {label!r} came to nothing, and nothing said so: "
                                     + diagnosis(live, page, table_seat))
            time.sleep(0.05)
        else:
            return True
    raise AssertionError(f"{label!r} refused three times: " + diagnosis(live, page, table_seat))


def expiries(s: GameSession) -> set[tuple[int, str]]:
    """Every move a countdown of this game has made or may make when it runs out, from the effects
    of the moves the table took (its timers run in real time, beside the test)."""
    state, out = s.game.initial_state(s.config), set()
    for seat, action in list(s.moves):
        step = s.game.apply(state, seat, action)
        out |= {(e.seat, json.dumps(dict(e.on_expire), sort_keys=True))
                for e in step.effects if isinstance(e, Countdown)}
        state = step.state
    return out


def lay(live: LiveTable, s: GameSession, target: dict[str, frozenset[str]]) -> None:
    """Lay and lift the cards on the table until the sensed zones show `target`: one gesture, all
    its cards within one settle window (a card lifted alone would be a move of its own)."""
    fixes = reconcile.fixes(target, s.layout())
    for fix in fixes:
        zone = s.to_physical(fix.zone)
        assert zone is not None, fix
        (live.sim.place if fix.kind == "place" else live.sim.remove)(zone, fix.piece, wait=False)
    live.wait(lambda: all((live.sim.registry.uid(f.piece) in live.runtime.raw.get(s.to_physical(f.zone) or "", ()))
                          == (f.kind == "place") for f in fixes), what=f"the table to sense {fixes}")


def taken_alone(s: GameSession, index: int) -> bool:
    """True when move `index` is one the table made by itself: a countdown's, run out."""
    seat, action = s.moves[index]
    return (seat, json.dumps(dict(action), sort_keys=True)) in expiries(s)


def play(live: LiveTable, s: GameSession, pages: dict[int, Any], rng: random.Random) -> list[Action]:
    """Play to the end; returns the moves the phone seats made through their pages."""
    game, zones, lang = s.game, s.logical_zones(), live.runtime.language
    tapped: list[Action] = []
    for _ in range(3000):
        state = s.state
        if game.outcome(state) is not None:
            return tapped
        if s.instruction is not None:  # the table asks for a card back where it belongs
            fix, moves = s.instruction.fix, len(s.moves)
            lay(live, s, {**s.layout(), fix.zone: s.layout().get(fix.zone, frozenset()) ^ {fix.piece}})
            live.wait(lambda: s.instruction is None or s.instruction.fix != fix or len(s.moves) > moves)
            continue
        seats = sorted(x for x in game.to_act(state) if x != CHANCE and s.seats[x] is not None)
        seat = rng.choice(seats)
        table_seat = s.seats[seat]
        assert table_seat is not None
        menu = seat_choices(game, state, seat, zones)
        actions = [c.action for c in menu]
        now = reconcile.restrict(s.layout(), zones)
        reach: list[Action] = [a for a in game.legal_actions(state, seat) if a in actions
                               or reconcile.restrict(game.footprint(state, seat, a), zones) != now]
        assert reach, f"game seat {seat} at {table_seat} has nothing it can do"
        action = purposeful(game, state, seat, reach, rng)
        before = len(s.moves)

        def moved_on() -> bool:
            return len(s.moves) > before

        if action in actions:
            i = actions.index(action)
            if table_seat in pages:
                if action["type"] == "lay" and not any(a["type"] == "lay" for a in tapped):
                    pages[table_seat].wait_for_function(CHOICE, arg=[i, menu[i].label.get(lang)], timeout=10_000)
                    shot(pages[table_seat], f"phone-seat-lays-a-card-{game.id}")  # its cards as big buttons
                if not tap_move(live, pages[table_seat], table_seat, i, menu[i], lang, moved_on):
                    live.wait(moved_on)
                    # the taps can have made the move before the page's menu was read again (a tap
                    # told no, tapped again, the move then taken): the move is the one meant, play on
                    if s.moves[before] != (seat, action):
                        assert taken_alone(s, before), s.moves[before]
                        continue
            else:
                for _ in range(i):
                    press(live, table_seat, "right")
                press(live, table_seat)
                if menu[i].confirm is not None:
                    press(live, table_seat, "right")
                    press(live, table_seat)
        else:  # a card of the table's (Mata Hari's cover stock): a phone player takes it there too
            lay(live, s, reconcile.restrict(game.footprint(state, seat, action), zones))
        live.wait(moved_on, WAIT_SECONDS, what=f"{action} of game seat {seat} (table seat {table_seat})")
        if s.moves[before] != (seat, action) and taken_alone(s, before):
            continue  # an interception countdown ran out first: the menus changed, play on from here
        assert s.moves[before] == (seat, action), "the entry tapped (or the cards laid) is the move the table took"
        if table_seat in pages and action in actions:
            tapped.append(action)
    raise AssertionError("no outcome")


@pytest.mark.parametrize("game_id,table_seats,phones,options,seed", [
    ("operation-zebre", 8, 4, {"mode": "competitive"}, 5),
    ("mata-hari", 5, 2, {}, 7),
], ids=["operation-zebre-12-players-8-seats", "mata-hari-7-players-5-seats"])
def test_a_whole_game_with_more_players_than_oleds(browser: Any, tmp_path: Any, game_id: str, table_seats: int,
                                                   phones: int, options: dict[str, str], seed: int) -> None:
    live = LiveTable(tmp_path, seats=table_seats, settle=0.1)  # a hand's gesture, all its cards, fits in it
    opened: list[Any] = []
    try:
        s = set_up(live, game_id, table_seats, phones, options)
        phone_seats = list(range(FIRST_PHONE_SEAT, FIRST_PHONE_SEAT + phones))
        assert s.seats == (*range(1, table_seats + 1), *phone_seats)
        pages = {}
        for n, seat in enumerate(phone_seats):  # each phone opens what its QR code holds
            page = browser.new_page(viewport=DESKTOP if n == 0 else PHONE, has_touch=n > 0)
            opened.append(page)
            page.goto(live.web.server.seat_url(seat).replace("HTTP://", "http://"))
            page.wait_for_function("() => document.querySelector('#title').textContent.startsWith('Téléphone')")
            assert page.is_hidden("#hands"), "a phone seat has no pad: its menu lays its cards"
            pages[seat] = page
        table = browser.new_page(viewport=DESKTOP)
        opened.append(table)
        table.goto(live.base + "/")
        table.wait_for_function("n => document.querySelectorAll('.seat.phone-seat canvas.oled[data-bits]').length === n",
                                arg=phones)
        started = time.monotonic()
        tapped = play(live, s, pages, random.Random(seed))
        played = time.monotonic() - started
        outcome = s.game.outcome(s.state)
        assert outcome is not None and len(outcome.scores) == table_seats + phones
        phone_moves = [a for g, a in s.moves if g != CHANCE and s.seats[g] in pages]
        assert len(tapped) >= 10 and all(a in phone_moves for a in tapped), (tapped, phone_moves)
        assert any(a["type"] == "lay" for a in tapped), "the phone seats' cards were laid through their pages"
        # a phone seat's move not tapped took a card of the table's centre, never one of its own pad
        assert all(a["type"] == "take_cover" for a in phone_moves if a not in tapped)
        for seat, page in pages.items():  # every phone sees the end, and its own score
            page.wait_for_function("() => document.querySelector('#now').textContent.startsWith('Partie finie')")
            gseat = s.seats.index(seat)
            assert page.text_content("#score") == f"{outcome.scores[gseat]:g} pts"
            assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        assert not clipped(table, ".seat.phone-seat canvas.oled"), "a phone seat's screen clipped at 1280 px"
        shot(pages[phone_seats[-1]], f"phone-seat-{game_id}")
        shot(table, f"table-with-phones-{game_id}")
        print(f"{game_id}: played in {played:.0f} s, {sum(live.runtime.refused.values())} taps tapped again")
    finally:
        for page in opened:
            page.close()
        live.close()

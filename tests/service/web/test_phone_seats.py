"""Phone seats: more players than the table has seats. The menu offers phone players (up to the
game's most), shows their seats' QR codes, and their pages say whether they play; in the game a
phone seat's pad is not sensed, so the cards it lays are chosen in its menu and tracked by the table.
Whole games of Opération Zèbre (12 players, competitive) and Opération Mata Hari (7) are played with
the phone seats' presses going through their pages' input path."""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from firmware_host.apps import reconcile
from firmware_host.apps.menu import Do, Option
from firmware_host.apps.phones import FIRST_PHONE_SEAT, gesture_choices
from firmware_host.apps.session import GameSession
from firmware_host.loop.simulator import SimTable
from firmware_host.web.inputs import InputError, Permit
from firmware_host.web.service import WebService
from games.core import CHANCE, Action, Screen
from tests.games.test_on_table import purposeful
from tests.kits.menus import entries


def phone_press(sim: SimTable, web: WebService, seat: int, button: str = "ok") -> None:
    """A phone seat's page presses a button: its request handled on the web server's loop, as a
    WebSocket message is, then the table's loop takes the events."""
    server = web.server
    before = sim.runtime.events

    async def press() -> None:
        for down in (True, False):
            server.inputs.handle({"do": "button", "seat": seat, "button": button, "down": down},
                                 server._permit("seat", seat) or Permit(seat, frozenset()))

    assert server._loop is not None
    asyncio.run_coroutine_threadsafe(press(), server._loop).result(5)
    assert sim.pump(lambda: sim.runtime.events >= before + 2)


def set_up(sim: SimTable, game_id: str, seated: range, phones: int, options: dict[str, str]) -> None:
    """Seat 1 chooses the game, the other seats join, the host adds phone players and options, starts."""
    rt = sim.runtime
    sim.press(1)
    ids = rt.app.games()
    for _ in range(ids.index(game_id)):
        sim.press(1, "right")
    sim.press(1)
    for s in seated:
        if s != 1:
            sim.press(s)
    go_to(sim, Do("extra"))
    for _ in range(phones):
        sim.press(1)
    for key, value in options.items():
        go_to(sim, Option(key))
        while rt.app.options.get(key) != value:
            sim.press(1)
    go_to(sim, Do("start"))
    sim.press(1)


def go_to(sim: SimTable, key: Any) -> None:
    keys = [k for _, k in sim.runtime.app.entries()]
    while keys[sim.runtime.app.cursor] != key:
        sim.press(1, "right")


def test_the_menu_offers_phone_seats_and_shows_their_codes(table: Any) -> None:
    sim, web = table
    rt = sim.runtime
    assert rt.phone_ids[0] == FIRST_PHONE_SEAT and len(rt.phone_ids) == 11  # 12 players, one seated
    assert rt.frames()[9].screen.lines[0].fr == "Le menu est à la table."
    assert set(sim.frames()) == set(range(1, 9))  # the terminal shows the table's seats, not 11 idle phones
    phone_press(sim, web, 9)  # a phone cannot take the table's menu
    assert rt.app.host is None
    sim.press(1)
    for _ in range(rt.app.games().index("mata-hari")):
        sim.press(1, "right")
    sim.press(1)  # Opération Mata Hari (3 to 7 players)
    assert rt.app.game_id == "mata-hari"
    go_to(sim, Do("extra"))
    for _ in range(6):
        sim.press(1)
    labels = [t.fr for t in rt.frames()[1].menu]
    assert labels[:3] == ["Commencer (7 joueurs)", "Téléphones : 6", "Codes QR des téléphones"]
    sim.press(1)  # past the game's most: back to none
    assert rt.app.extra == 0
    sim.press(1)
    sim.press(1)
    assert rt.frames()[9].screen.lines[0].fr == "Vous jouez sur ce téléphone."
    assert rt.frames()[11].screen.lines[0].fr == "Ce téléphone ne joue pas."
    go_to(sim, Do("phone_codes"))
    sim.press(1)
    assert rt.frames()[1].qr == web.server.seat_url(9)
    sim.press(1, "right")
    assert rt.frames()[1].qr == web.server.seat_url(10)
    sim.press(1, "right")  # round the two phone seats
    assert rt.frames()[1].qr == web.server.seat_url(9)
    sim.press(1)
    assert rt.app.step == "setup" and rt.frames()[1].qr is None
    go_to(sim, Do("start"))
    sim.press(1)
    session = rt.app
    assert isinstance(session, GameSession) and session.seats == (1, 9, 10)
    assert set(sim.frames()) == {*range(1, 9), 9, 10}
    assert "seat9.pad" not in session.leds() and session.to_physical("pad.1") is None
    access = web.server.access
    assert access.seat_ok(10, access.seats[10]) and not access.seat_ok(9, access.seats[10])
    assert len({access.seats[s] for s in rt.phone_ids}) == len(rt.phone_ids)  # a token of its own each
    with pytest.raises(InputError, match="seat 9's buttons"):  # a phone's page presses its own seat only
        web.server.inputs.handle({"do": "button", "seat": 1, "button": "ok", "down": True}, Permit(9, frozenset()))
    with pytest.raises(InputError, match="seat 1's buttons"):
        web.server.inputs.handle({"do": "button", "seat": 9, "button": "ok", "down": True}, Permit(1, frozenset()))


def reachable(s: GameSession, seat: int) -> list[Action]:
    menu = entries(s, seat)
    zones = s.logical_zones()
    now = reconcile.restrict(s.layout(), zones)
    return [a for a in s.game.legal_actions(s.state, seat)
            if a in menu or reconcile.restrict(s.game.footprint(s.state, seat, a), zones) != now]


def play(sim: SimTable, web: WebService, rng: random.Random,
         watch: Callable[[GameSession], None] = lambda s: None) -> GameSession:
    """Play to the end: the seated players with their buttons and pieces, the phone seats with
    their pages' buttons only; `watch` sees the session before each move."""
    s = sim.runtime.app
    assert isinstance(s, GameSession)
    for _ in range(4000):
        watch(s)
        if s.over:
            return s
        if s.instruction is not None:
            fix = s.instruction.fix
            zone = s.to_physical(fix.zone)
            assert zone is not None
            (sim.place if fix.kind == "place" else sim.remove)(zone, fix.piece)
            sim.settle()
            continue
        seats = sorted(x for x in s.game.to_act(s.state) if x != CHANCE and s.seats[x] is not None)
        seat = rng.choice(seats)
        table_seat = s.seats[seat]
        assert table_seat is not None
        menu = entries(s, seat)
        action = purposeful(s.game, s.state, seat, reachable(s, seat), rng)
        before = len(s.moves)
        if action in menu:
            press = (lambda b: phone_press(sim, web, table_seat, b)) if table_seat >= FIRST_PHONE_SEAT \
                else (lambda b: sim.press(table_seat, b))
            for _ in range(menu.index(action)):
                press("right")
            press("ok")
            if s.ui[seat].confirming is not None:
                press("right")
                press("ok")
        else:
            zones = s.logical_zones()
            foot = reconcile.restrict(s.game.footprint(s.state, seat, action), zones)
            for fix in reconcile.fixes(foot, s.layout()):
                zone = s.to_physical(fix.zone)
                assert zone is not None
                (sim.place if fix.kind == "place" else sim.remove)(zone, fix.piece)
            sim.settle()
        assert len(s.moves) > before, f"the table did not take {action} from game seat {seat}"
    raise AssertionError("no outcome")


@pytest.mark.parametrize("game_id,seated,phones,options,laid", [
    ("operation-zebre", range(1, 9), 4, {"mode": "competitive"}, {"lay"}),
    ("mata-hari", range(1, 5), 3, {}, {"lay", "lift"}),
])
def test_a_whole_game_with_phone_seats(table: Any, game_id: str, seated: range, phones: int,
                                       options: dict[str, str], laid: set[str]) -> None:
    sim, web = table
    set_up(sim, game_id, seated, phones, options)
    s = sim.runtime.app
    assert isinstance(s, GameSession)
    phone_seats = tuple(range(FIRST_PHONE_SEAT, FIRST_PHONE_SEAT + phones))
    assert s.seats == (*seated, *phone_seats) and s.config.players == len(seated) + phones
    with pytest.raises(InputError, match="may not touch"):  # a phone seat has no pad to lay a tag on
        web.server.inputs.handle({"do": "place", "zone": "seat1.pad", "piece": s.game.pieces()[0]},
                                 Permit(9, frozenset()))
    s = play(sim, web, random.Random(5))
    moves = Counter(a["type"] for seat, a in s.moves if seat != CHANCE and s.seats[seat] in phone_seats)
    assert laid <= set(moves), f"the phone seats' cards were laid through their menus: {moves}"
    assert all(moves.values()) and sum(moves.values()) >= 10
    outcome = s.game.outcome(s.state)
    assert outcome is not None and len(outcome.scores) == len(s.seats)


# a screen line telling the player to lay a card on (or scan it at) the pad, in either language
LAY_ON_PAD = re.compile(r"\bpose[zr]\b|plateau|\bpad\b|scannez|\blay\b|\bscan\b", re.IGNORECASE)


def screen_words(screen: Screen) -> str:
    """Every word of a screen, in both languages."""
    return " / ".join(t.fr + " / " + t.en for t in (screen.title, *screen.lines))


@pytest.mark.parametrize("game_id,seated,phones,options,seed", [
    ("operation-zebre", range(1, 9), 4, {"mode": "competitive"}, 5),
    ("operation-zebre", range(1, 3), 2, {}, 5),
    ("mata-hari", range(1, 5), 3, {}, 1),  # a phone seat makes offers
])
def test_a_phone_seats_screen_says_to_choose_its_cards_in_its_menu(table: Any, game_id: str, seated: range, phones: int,
                                                                   options: dict[str, str], seed: int) -> None:
    """The game's screen tells a seated player to lay the card on the pad, a phone seat to choose
    it in its menu: no phone seat's screen ever speaks of laying a card on a pad."""
    sim, web = table
    set_up(sim, game_id, seated, phones, options)
    told: dict[str, set[str]] = {"seated": set(), "phone": set()}

    def watch(s: GameSession) -> None:
        frames = sim.runtime.frames()
        for table_seat in s.seats:
            assert table_seat is not None
            words = screen_words(frames[table_seat].screen)
            if LAY_ON_PAD.search(words):
                told["phone" if table_seat >= FIRST_PHONE_SEAT else "seated"].add(words)
            if table_seat >= FIRST_PHONE_SEAT and "menu" in words:
                told.setdefault("menu", set()).add(words)

    play(sim, web, random.Random(seed), watch)
    assert told["seated"], "a seated player's screen says to lay the card on the pad"
    assert not told["phone"], f"a phone seat's screen says to lay a card on a pad: {sorted(told['phone'])[:3]}"
    assert told.get("menu"), "a phone seat's screen says to choose its cards in its menu"


def test_a_seated_players_menu_has_no_gestures_a_phone_seats_has_them(table: Any) -> None:
    sim, web = table
    set_up(sim, "operation-zebre", range(1, 4), 1, {})
    s = sim.runtime.app
    assert isinstance(s, GameSession) and s.seats == (1, 2, 3, 9)
    zones = s.logical_zones()
    seated = gesture_choices(s.game, s.state, 0, zones, s.game.choices(s.state, 0))
    phone = gesture_choices(s.game, s.state, 3, zones, s.game.choices(s.state, 3))
    assert seated == [] and phone and all(c.action["type"] == "lay" for c in phone)
    assert entries(s, 3)[:len(phone)] == [c.action for c in phone]
    first = phone[0]
    phone_press(sim, web, 9)  # the first entry: a card laid, tracked by the table
    assert s.moves[-1] == (3, first.action) and s.instruction is None
    assert sim.frames()[9].screen.title.fr  # the phone seat's frame, for its page


def test_no_phone_seats_page_gets_another_seats_secret(table: Any) -> None:
    """Opération Mata Hari with three phone seats: every message each phone's page and the
    spectator's get holds no card another seat knows and that page's seat does not."""
    from tests.kits.webkit import Recorder
    from tests.service.web.test_web_hidden import _leaks, _states

    sim, web = table
    base = f"ws://127.0.0.1:{web.server.port}/ws"
    pages = {None: Recorder(base + "?role=watch")}
    for seat in (9, 10, 11):
        pages[seat] = Recorder(f"{base}?role=seat&seat={seat}&t={web.server.access.seats[seat]}")
    try:
        set_up(sim, "mata-hari", range(1, 5), 3, {})
        s = play(sim, web, random.Random(8))
        for rec in pages.values():
            rec.wait_for(lambda m: (m.get("game") or {}).get("moves") == len(s.moves))
    finally:
        for rec in pages.values():
            rec.close()
    states = _states(s)
    for seat, rec in pages.items():
        checked, leaks = _leaks(rec, s, states, None if seat is None else s.seats.index(seat))
        assert checked >= 10 and not leaks, f"page of {seat}: {checked} messages, secrets {leaks[:5]}"


def test_a_phone_seats_lan_link_fits_the_oled_two_pixels_per_module() -> None:
    from firmware_host.screens import qr
    from games.core import Screen, tr

    link = "HTTP://192.168.100.200:8080/S/19/ABCDEFGHIJKLMNOP"  # the longest: two-digit phone seat
    assert qr.modules(link) <= 29
    picture = qr.qr_picture(link, Screen(tr("Téléphone 19", "Phone 19")), "fr", (128, 64))
    assert qr.decode_picture(picture) == [list(r) for r in qr._matrix(link)]


def test_a_phone_seats_replay_shows_the_screen_it_saw() -> None:
    """A replay step as a phone seat saw it: told to choose its document in its menu."""
    from firmware_host.screens.frames import Frame
    from firmware_host.screens.render import render_frame
    from firmware_host.web.redact import replay_payload, screen_json
    from games.core import GameConfig
    from games.playout import sample_chance
    from games.registry import get_game

    game = get_game("operation-zebre")
    state = game.initial_state(game.validate_config(GameConfig(players=3)))
    rng = random.Random(1)
    while CHANCE in game.to_act(state):
        state = game.apply(state, CHANCE, sample_chance(game, state, rng)).state
    assert 2 in game.to_act(state)
    view = game.view(state, 2)
    told = {sensed: screen_json(render_frame(Frame(game.screen(view, 2, pad_sensed=sensed)), "fr"))
            for sensed in (True, False)}
    assert told[True] != told[False]
    assert "plateau" in screen_words(game.screen(view, 2)) and "menu" in screen_words(game.screen(view, 2, pad_sensed=False))
    assert replay_payload(game, state, (1, 2, 9), 0, 2, "fr")["screen"] == told[False]  # the phone seat
    assert replay_payload(game, state, (1, 2, 3), 0, 2, "fr")["screen"] == told[True]  # a seated player

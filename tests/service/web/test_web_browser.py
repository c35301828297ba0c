"""The pages in headless Chromium: a whole Drôles de Zèbres game on the virtual table, a ZOP card
played from a seat's phone page, a finished game replayed. Screenshots go to artifacts/screenshots/.

Every move is made the way a person makes it in the page: seat buttons clicked or keys pressed,
pieces dragged onto squares and back. The test reads the game (in this process) only to decide
which move to make and to check the table took it.
"""

from __future__ import annotations

import base64
import random
from typing import Any

import pytest

from firmware_host.apps import reconcile
from firmware_host.apps.entries import Entry
from games.core import CHANCE
from tests.kits import menus
from tests.kits.webkit import LiveTable, shot
from tests.service.web.pagekit import Hands, session, start_from_menu

pytestmark = pytest.mark.slow  # a Chromium driven through whole pages: tens of seconds


def oled_bits(live: LiveTable, seat: int) -> bytes:
    """What seat's luma dummy device last displayed (its rotation undone), packed 1-bit rows."""
    spec = live.config.seat(seat).screen
    image = live.sim.table.sim_screens.pixels(spec.bus, spec.address).convert("1")
    if spec.rotation:
        image = image.rotate(-90 * spec.rotation, expand=True)
    return image.tobytes()


def do_move(hands: Hands, live: LiveTable, rng: random.Random, step: int) -> None:
    """One move of whoever is to act, made in the page (or the table's next instruction followed)."""
    s = session(live)
    shown = s.instruction
    if shown is not None:
        fix = shown.fix
        zone = s.to_physical(fix.zone)
        assert zone is not None
        hands.look()
        if fix.kind == "remove":
            hands.lift(fix.piece, zone, by_drag=step % 2 == 0)
            live.wait(lambda: fix.piece not in _sensed(live, zone), what=f"{fix.piece} off {zone}")
        else:
            hands.drag_on(fix.piece, zone)
            live.wait(lambda: fix.piece in _sensed(live, zone), what=f"{fix.piece} on {zone}")
        live.wait(lambda: session(live).instruction != shown or session(live).over, what="the fix")
        return
    seats = sorted(x for x in s.game.to_act(s.state) if x != CHANCE)
    seat = rng.choice(seats)
    table_seat = s.seats[seat]
    menu = menus.entries(s, seat)
    moves = len(s.moves)
    legal = s.game.legal_actions(s.state, seat)
    by_hand = [a for a in legal if a not in menu]
    if by_hand and rng.random() < 0.8 or not menu:
        action = rng.choice(by_hand)
        how = f"move by hand {action}"
        zones = s.logical_zones()
        foot = reconcile.restrict(s.game.footprint(s.state, seat, action), zones)
        todo = reconcile.fixes(foot, s.layout())
        hands.look()  # once: the fixes of one move are one gesture, within one settle window
        for fix in todo:
            zone = s.to_physical(fix.zone)
            if fix.kind == "remove":
                hands.lift(fix.piece, zone, by_drag=True)
            else:
                hands.drag_on(fix.piece, zone)
        how += f" by {todo}"
    else:
        how = "move from the menu"
        # a message sits above the menu and never eats a press: the menu is used as it is
        s = session(live)
        menu = menus.entries(s, seat)
        moves_of_game = [i for i, a in enumerate(menu) if not isinstance(a, Entry)]  # not undo
        index = min(moves_of_game, key=lambda i: (i - s.ui[seat].cursor) % len(menu))  # the nearest move
        presses = ["right"] * ((index - s.ui[seat].cursor) % len(menu)) + ["ok"]
        hands.buttons(table_seat, presses, use_keys=step % 5 != 0)  # keys are quicker; clicks too
        # the runtime's event count also counts the pieces' settling: wait for what the OK did
        live.wait(lambda: len(session(live).moves) > moves or session(live).ui[seat].confirming is not None,
                  what=f"move {moves + 1} taken or asked to confirm")
        if len(session(live).moves) == moves:
            hands.buttons(table_seat, ["right", "ok"], use_keys=True)
    taken(live, moves, lambda: f"seat {seat}'s {how}: " + diagnosis(hands, seat, table_seat))


def taken(live: LiveTable, moves: int, explain: Any) -> None:
    """Wait for move `moves + 1`; the failure says what the table shows instead."""
    try:
        live.wait(lambda: len(session(live).moves) > moves, what=f"move {moves + 1} to be taken")
    except AssertionError as exc:
        raise AssertionError(f"{exc}: {explain()}") from None


def diagnosis(hands: Hands, seat: int, table_seat: int) -> str:
    """What the table shows a seat whose move did not come: its instruction, menu and the pieces it senses."""
    s = session(hands.live)
    frame = s.frame(table_seat)
    sensed, _ = hands.table_shows()
    return (f"instruction {s.instruction}, to act {s.game.to_act(s.state)}, cursor {frame.cursor} "
            f"menu {[e.get('fr') for e in frame.menu]}, refused {dict(hands.live.runtime.refused)}, "
            f"confirming {s.ui[seat].confirming}, sensed {sensed}, expected {s.layout()}")


def _sensed(live: LiveTable, zone: str) -> set[str]:
    reg = live.sim.registry
    return {reg.piece(u) for u in live.runtime.raw.get(zone, ())}


def test_a_whole_droles_de_zebres_game_on_the_virtual_table(browser: Any, live: LiveTable) -> None:
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.goto(live.base + "/")
    page.wait_for_function("() => document.querySelector('canvas.oled[data-seat=\"1\"]')?.dataset.bits")
    shot(page, "01-menu")
    hands = Hands(page, live)
    start_from_menu(hands, live, "droles-de-zebres", (1, 2))
    first = page.get_attribute('canvas.oled[data-seat="1"]', "data-bits")
    rng = random.Random(7)
    lit_seen = False
    for step in range(400):
        if session(live).over:
            break
        do_move(hands, live, rng, step)
        if not lit_seen and page.locator(".board [data-led]").count() > 0:
            lit_seen = True
            shot(page, "02-ddz-led")
    assert session(live).over, "the game did not end"
    live.wait(lambda: live.web.hub.latest is not None and live.web.hub.latest.game is not None
              and live.web.hub.latest.game.outcome(live.web.hub.latest.state) is not None, what="final snapshot")
    page.wait_for_selector("#outcome.outcome")
    shot(page, "03-ddz-end")
    assert lit_seen, "no square's LED was ever lit in the page"
    # the screens changed, and each is, bit for bit, what the seat's OLED got
    page.wait_for_function("b => (document.querySelector('canvas.oled[data-seat=\"1\"]')?.dataset.bits ?? b) !== b", arg=first)
    for seat in (1, 2, 8):
        expected = base64.b64encode(oled_bits(live, seat)).decode()
        page.wait_for_function(
            "([s, b]) => document.querySelector(`canvas.oled[data-seat=\"${s}\"]`)?.dataset.bits === b",
            arg=[seat, expected], timeout=20_000)
    outcome = session(live).game.outcome(session(live).state)
    assert page.inner_text("#outcome") == "Fin — scores " + " / ".join(f"{s:g}" for s in outcome.scores)
    page.close()


def test_a_zop_card_played_from_a_seats_phone(browser: Any, live: LiveTable) -> None:
    table = browser.new_page(viewport={"width": 1500, "height": 1000})
    table.goto(live.base + "/")
    table.wait_for_function("() => document.querySelector('canvas.oled[data-seat=\"1\"]')?.dataset.bits")
    start_from_menu(Hands(table, live), live, "zop", (1, 2))
    phone = browser.new_page(viewport={"width": 400, "height": 820}, has_touch=True)
    phone.goto(live.web.server.seat_url(1).replace("HTTP://", "http://"))  # what the seat's QR code holds
    phone.wait_for_function("() => window.zt && window.zt.state.tray && window.zt.state.tray.length > 0")
    before = phone.get_attribute("#screen", "data-bits")
    card = phone.get_attribute("#tray .piece", "data-piece")
    assert card.startswith("zop/light/")
    phone.tap(f'#tray [data-piece="{card}"]')
    phone.tap("#pad")
    live.wait(lambda: len(session(live).moves) >= 1, what="the card to be laid")
    assert session(live).moves[0] == (0, {"type": "commit", "card": card})
    phone.wait_for_selector(f'#pad [data-piece="{card}"]')
    phone.wait_for_function("b => (document.querySelector('#screen')?.dataset.bits ?? b) !== b", arg=before)
    events = live.runtime.events
    phone.tap('button[data-button="right"]')  # the phone's buttons are the seat's
    live.wait(lambda: live.runtime.events >= events + 2, what="the phone's button")
    shot(phone, "04-phone-zop")
    label = session(live).game.piece_label(card).fr
    watch = browser.new_page()
    watch.goto(live.base + "/watch")
    other = browser.new_page()
    other.goto(live.web.server.seat_url(2).replace("HTTP://", "http://"))
    for page in (watch, other):
        page.wait_for_function("() => document.body.dataset.live === '1'")
        page.wait_for_function("() => document.querySelector('#game')?.textContent === 'ZOP'")
        html = page.content()
        assert card not in html and label not in html, "a card laid face down shows in another page"
    shot(watch, "05-watch-zop")
    stale = browser.new_page()
    stale.goto(f"{live.base}/S/1/AAAAAAAAAAAAAAAA")  # a link from before a restart
    assert "Lien refusé" in stale.inner_text("h1") and "QR" in stale.inner_text("#why")
    for page in (table, phone, watch, other, stale):
        page.close()


def test_a_finished_game_replayed_step_by_step(browser: Any, tmp_path: Any) -> None:
    from firmware_host.storage.journal import Journal
    from games.core import GameConfig
    from games.playout import random_playout
    from games.registry import get_game

    game = get_game("zop")
    config = game.validate_config(GameConfig(2, {}, 5))
    played = random_playout(game, config, 5)
    path = str(tmp_path / "journal.sqlite")
    journal = Journal(path)
    gid = journal.start_game("zop", config, (3, 6))
    for i, (seat, act) in enumerate(played.moves):
        journal.append(gid, i, seat, act)
    journal.finish(gid, played.outcome.to_json())
    journal.close()
    live = LiveTable(tmp_path, journal=path)
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    try:
        page.goto(live.base + "/replay")
        page.click(f'[data-replay="{gid}"] button[data-as=""]')  # as the spectator saw it
        page.wait_for_function("() => (document.querySelector('#count')?.textContent ?? '0') !== '0'")
        assert page.inner_text("#count") == str(len(played.moves))
        page.click("#next")
        page.wait_for_function("() => document.querySelector('#step')?.textContent === '1'")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('#step')?.textContent === '2'")
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("() => document.querySelector('#step')?.textContent === '1'")
        assert page.is_hidden("#screen")  # a spectator sees no seat's screen
        page.fill("#slider", str(len(played.moves)))
        page.wait_for_selector("#outcome.outcome")
        shot(page, "06-replay-spectator")
        page.click("#close")
        page.click(f'[data-replay="{gid}"] button[data-as="6"]')  # as seat 6 (game seat 1) saw it
        page.wait_for_function("() => document.querySelector('#screen')?.hidden === false")
        page.click("#next")
        page.wait_for_function("() => document.querySelector('#step')?.textContent === '1'")
        assert page.inner_text("#as") == "siège 6"
        shot(page, "07-replay-seat")
    finally:
        page.close()
        live.close()

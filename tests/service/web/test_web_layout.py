"""The pages at a phone's size (390×844) and a desktop's (1280×800) in headless Chromium, during a
Drôles de Zèbres game: nothing scrolls sideways on a phone, no seat screen is clipped at 1280 px,
the spectator and the seat read the game in words; a seat's menu entry chosen with its big button
(tapped, or focused and Enter) is the move the seat's OLED menu makes, also from a screen's extra
page; and axe-core finds no
serious or critical accessibility violation on `/`, `/watch`, a seat page and `/replay`.
Screenshots go to artifacts/screenshots/.

axe-core comes from the npm registry: installed once with npm into .venv/axe-core (skipped, saying
why, where npm is missing), and run in each page as served, its Content-Security-Policy in force.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.kits.webkit import LiveTable, shot
from tests.service.web.pagekit import Hands, session, start_from_menu

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
AXE_DIR = Path(os.environ.get("ZEBRA_TABLE_AXE", Path(__file__).resolve().parents[3] / ".venv" / "axe-core"))
RAW = re.compile(r"\b(to_act|reserve_counts|guardian_line|board_rows|col:[A-F]|row:[1-5]|J0|None|null)\b")


@pytest.fixture(scope="module")
def axe() -> str:
    """axe.min.js of the npm package axe-core 4, installed once under .venv."""
    js = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not js.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed, so axe-core cannot be had from the npm registry (apt-get install npm)")
        done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--prefix", str(AXE_DIR), "axe-core@4"],
                              capture_output=True, text=True, timeout=300, check=False)
        if done.returncode != 0 or not js.exists():
            pytest.skip(f"npm could not install axe-core: {(done.stderr.strip().splitlines() or ['?'])[-1]}")
    return js.read_text(encoding="utf-8")


def game_started(browser: Any, live: LiveTable, game_id: str) -> tuple[Any, Hands]:
    """The virtual table page (1280×800) and its hands, a game started from the menu by seats 1 and 2."""
    table = browser.new_page(viewport=DESKTOP)
    table.goto(live.base + "/")
    table.wait_for_function("() => document.querySelector('canvas.oled[data-seat=\"1\"]')?.dataset.bits")
    hands = Hands(table, live)
    start_from_menu(hands, live, game_id, (1, 2))
    return table, hands


def ddz_started(browser: Any, live: LiveTable) -> Any:
    """The virtual table page (1280×800), a Drôles de Zèbres game started from the menu by seats 1 and 2."""
    return game_started(browser, live, "droles-de-zebres")[0]


def ok_releases(page: Any, sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The OK releases a page has sent (`sent`: its socket's frames), once there is one (at most 5 s):
    Playwright hands the frames sent over while it waits."""
    for _ in range(100):
        releases = [m for m in sent if m.get("button") == "ok" and m.get("down") is False]
        if releases:
            break
        page.wait_for_timeout(50)
    return releases


def seat_page(browser: Any, live: LiveTable, seat: int, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport, has_touch=viewport is PHONE)
    page.goto(live.web.server.seat_url(seat).replace("HTTP://", "http://"))  # what the seat's QR code holds
    page.wait_for_function("() => document.querySelectorAll('#menu .choice').length > 0")
    return page


def watch_page(browser: Any, live: LiveTable, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    page.goto(live.base + "/watch")
    page.wait_for_function("() => document.querySelectorAll('#summary .player').length === 2")
    return page


def sideways(page: Any) -> int:
    """How far the page scrolls sideways (0: it fits)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def clipped(page: Any, selector: str) -> list[str]:
    """The elements matching `selector` not wholly inside the window's width, or hidden by a parent."""
    return list(page.evaluate("""sel => [...document.querySelectorAll(sel)].filter(e => {
        const r = e.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, Math.min(r.top + r.height / 2, innerHeight - 1));
        return r.width === 0 || r.left < 0 || r.right > innerWidth || (r.top + r.height / 2 < innerHeight && hit !== e);
    }).map(e => e.outerHTML.slice(0, 80))""", selector))


def test_pages_fit_a_phone_and_a_desktop(browser: Any, live: LiveTable) -> None:
    table = ddz_started(browser, live)
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        watch = watch_page(browser, live, viewport)
        seat = seat_page(browser, live, 1, viewport)
        replay = browser.new_page(viewport=viewport)
        replay.goto(live.base + "/replay")
        replay.wait_for_selector("[data-replay]")
        for page in (watch, seat, replay):
            assert sideways(page) == 0, f"{page.url} scrolls sideways at {viewport}"
        text = watch.inner_text("main")
        assert "À jouer" in text and "J1" in text and "siège 1" in text and "Territoire A" in text
        assert not RAW.search(text), RAW.search(text)
        assert watch.is_visible("#centre .board")  # the board game's board
        assert watch.locator("#centre .board .zone").first.bounding_box()["width"] >= 40  # squares, not slivers
        # the seat: what to do now at the top, its menu as big buttons, the same entries as its OLED menu
        frame = seat.evaluate("() => window.zt.state.frame")
        assert seat.inner_text("#now").startswith("À vous de jouer")
        assert seat.locator("#menu .choice").all_inner_texts() == frame["menu"]
        assert seat.locator("#menu .choice").first.bounding_box()["height"] >= 44  # a thumb's size
        assert "Ma réserve" in seat.inner_text("#mine") and seat.inner_text("#score").endswith("pts si la partie finissait")
        assert not RAW.search(seat.inner_text("main"))
        assert seat.is_hidden("#screen")  # the OLED picture is there on demand
        seat.click("#oled-box summary")
        assert seat.is_visible("#screen") and not clipped(seat, "#screen")
        shot(watch, f"layout-watch-{name}")
        shot(seat, f"layout-seat-{name}")
        shot(replay, f"layout-replay-{name}")
        for page in (watch, seat, replay):
            page.close()
    # the virtual table at 1280 px: every seat's screen whole
    assert sideways(table) == 0
    assert table.locator("canvas.oled").count() == 8
    table.evaluate("() => window.scrollTo(0, 0)")
    for canvas in table.locator("canvas.oled").all():
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= DESKTOP["width"], box
    shot(table, "layout-table-desktop")
    icon = table.evaluate("async () => (await fetch('/static/favicon.svg')).headers.get('content-type')")
    assert icon.startswith("image/svg+xml")
    for path in ("/watch", "/replay", "/?t=", "/links"):
        html = table.evaluate("async p => (await fetch(p)).text()", path)
        if "<html" in html:
            assert '<link rel="icon" href="/static/favicon.svg"' in html, path
    table.close()


def test_a_menu_entry_chosen_with_its_big_button(browser: Any, live: LiveTable) -> None:
    table = ddz_started(browser, live)
    phone = seat_page(browser, live, 1, PHONE)
    sent: list[dict[str, Any]] = []  # what the page's socket sends from here on
    phone.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))))
    phone.reload()
    phone.wait_for_function("() => document.querySelectorAll('#menu .choice').length > 0")
    s = session(live)
    gseat = s.seats.index(1)
    entries = s.menu(gseat)
    pick = 8  # not where the cursor is: the page presses ▶ until it is
    assert s.ui[gseat].cursor != pick
    label = phone.locator(f'#menu .choice[data-entry="{pick}"]').inner_text()
    assert label == entries[pick].label.fr
    phone.focus(f'#menu .choice[data-entry="{pick}"]')
    phone.keyboard.press("Enter")  # no mouse: focused, then Enter
    if entries[pick].confirm is not None:  # an irrevocable choice is asked again, "Non" first
        live.wait(lambda: session(live).ui[gseat].confirming is not None, what="the question")
        phone.wait_for_function("() => [...document.querySelectorAll('#menu .choice')].some(b => b.textContent === 'Oui')")
        phone.locator("#menu .choice", has_text="Oui").tap()
    live.wait(lambda: len(session(live).moves) >= 1, what="the guardian's move")
    assert session(live).moves[0] == (gseat, entries[pick].action)
    phone.wait_for_function("() => !document.querySelector('#menu .choice[data-entry=\"21\"]')")  # the menu moved on
    # each press of the choice was one message, press and release together (a loop busy between
    # two messages cannot make a long press of it); Playwright has handed the frames sent by now
    presses = [m for m in sent if m.get("do") == "button"]
    assert presses and all(m.get("tap") is True and "down" not in m for m in presses), presses
    assert [m["button"] for m in presses].count("ok") >= 1 and presses[-1].get("expect")
    shot(phone, "menu-chosen-phone")
    phone.close()
    table.close()


def test_a_pages_ok_says_what_it_means_on_the_frame_it_shows(browser: Any, live: LiveTable) -> None:
    """Spywhere's first screen overflows onto a second page. The page's own OK button, released,
    says "back" there, and the entry under the cursor on the menu, unless a ◀ ▶ it sent is not on
    its frame yet; an entry tapped from the extra page sends OK saying "back", then walks to the
    entry (the table checks each: test_page_choice)."""
    table, hands = game_started(browser, live, "spywhere")

    def to_extra_page() -> None:  # ▶ on the table's button past the last nationality
        for _ in range(12):
            if session(live).ui[0].page:
                return
            hands.buttons(1, ["right"])
        raise AssertionError("no extra page on seat 1's screen")

    to_extra_page()
    phone = seat_page(browser, live, 1, PHONE)
    sent: list[dict[str, Any]] = []
    phone.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))))
    phone.reload()
    on_page = "() => window.zt.state.frame && window.zt.state.frame.page > 0"
    phone.wait_for_function(on_page)
    phone.locator('button[data-button="ok"]').tap()  # the page's own OK: back to the menu
    live.wait(lambda: session(live).ui[0].page == 0, what="seat 1 back on its menu")
    phone.wait_for_function(f"() => !({on_page})()")
    assert [m for m in sent if m.get("button") == "ok"][-1] == {"do": "button", "seat": 1, "button": "ok",
                                                                 "down": False, "back": True}, sent
    to_extra_page()
    phone.wait_for_function(on_page)
    del sent[:]
    entries = session(live).menu(0)
    phone.locator('#menu .choice[data-entry="1"]').tap()
    live.wait(lambda: len(session(live).moves) >= 1, what="the nationality removed")
    assert session(live).moves[0] == (0, entries[1].action)
    phone.wait_for_function("l => ![...document.querySelectorAll('#menu .choice')].some(b => b.textContent === l)",
                            arg=entries[1].label.fr)  # the menu moved on; Playwright has handed the frames sent
    presses = [m for m in sent if m.get("do") == "button"]
    assert presses[0] == {"do": "button", "seat": 1, "button": "ok", "tap": True, "back": True}, presses
    assert presses[-1].get("expect") == entries[1].label.fr and not any("down" in m for m in presses), presses
    # the page's own OK on a menu names the entry under its cursor, as the page shows it when the
    # finger lifts (read in the same event: a frame that comes meanwhile changes both alike)
    phone.evaluate("""() => document.querySelector('button[data-button="ok"]').addEventListener("pointerup", () => {
        const f = window.zt.state.frame;
        window.shownAtOk = f && f.menu && !f.page ? f.menu[f.cursor] : null;
    }, { capture: true, once: true })""")
    del sent[:]
    phone.locator('button[data-button="ok"]').tap()
    releases = ok_releases(phone, sent)
    shown = phone.evaluate("() => window.shownAtOk")
    assert isinstance(shown, str) and releases and releases[0].get("expect") == shown, (shown, sent)
    # ▶ then OK before any frame can come back (one script, the page's keys): the OK is pressed
    # blind, as on the table's own buttons, and says nothing it could not have seen
    del sent[:]
    phone.evaluate("""() => { for (const [type, key] of [["keydown", "ArrowRight"], ["keyup", "ArrowRight"],
        ["keydown", "Enter"], ["keyup", "Enter"]]) document.body.dispatchEvent(new KeyboardEvent(type, { key, bubbles: true })); }""")
    assert ok_releases(phone, sent) == [{"do": "button", "seat": 1, "button": "ok", "down": False}], sent
    phone.close()
    table.close()


AXE_RUN = """async () => {
  const r = await axe.run(document, { resultTypes: ["violations"] });
  return r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | ")}`);
}"""


def test_no_serious_accessibility_violation(browser: Any, live: LiveTable, axe: str) -> None:
    table = ddz_started(browser, live)
    watch = watch_page(browser, live, PHONE)
    seat = seat_page(browser, live, 1, PHONE)
    replay = browser.new_page(viewport=DESKTOP)
    replay.goto(live.base + "/replay")
    replay.wait_for_selector("[data-replay] button[data-as='']")
    found = {}
    for name, page in (("/", table), ("/watch", watch), ("/seat/1", seat), ("/replay", replay)):
        page.evaluate(axe)  # evaluated by the browser itself: the page's CSP still forbids inline scripts
        found[name] = page.evaluate(AXE_RUN)
    seat.click("#oled-box summary")  # the seat's screen shown, and the game's summary
    seat.click(".game-box summary")
    found["/seat/1 (screen and summary open)"] = seat.evaluate(AXE_RUN)
    replay.click("[data-replay] button[data-as='']")
    replay.wait_for_function("() => document.querySelector('#player')?.hidden === false")
    found["/replay (a game)"] = replay.evaluate(AXE_RUN)
    assert found == {name: [] for name in found}
    for page in (table, watch, seat, replay):
        page.close()


def test_an_english_table_speaks_english_and_its_menu_is_chosen_on_a_phone(browser: Any, tmp_path: Any,
                                                                           monkeypatch: Any) -> None:
    import dataclasses

    from tests.kits import webkit

    english = webkit.fast_config

    def fast_config(token: str = "", settle: float = 0.05, seats: int = 8) -> Any:  # as webkit's
        return dataclasses.replace(english(token, settle, seats), language="en")

    monkeypatch.setattr(webkit, "fast_config", fast_config)
    live = LiveTable(tmp_path)
    try:
        table = browser.new_page(viewport=DESKTOP)
        table.goto(live.base + "/")
        table.wait_for_function("() => document.querySelector('canvas.oled[data-seat=\"1\"]')?.dataset.bits")
        hands = Hands(table, live)
        hands.buttons(1, ["ok"])
        ids = live.runtime.app.games()
        hands.buttons(1, ["right"] * ids.index("spywhere") + ["ok"])
        for other in (2, 3):
            hands.buttons(other, ["ok"])
        hands.buttons(1, ["ok"])
        live.wait(lambda: getattr(getattr(live.runtime.app, "game", None), "id", None) == "spywhere", what="Spywhere")
        watch = browser.new_page(viewport=PHONE)
        watch.goto(live.base + "/watch")
        watch.wait_for_function("() => document.querySelectorAll('#summary .player').length === 3")
        text = watch.inner_text("body")
        assert "To play: P1 (seat 1)" in text and "Moves:" in text and "red spy" in text
        assert not re.search(r"siège|Jeu :|Coups|joueur", text), text
        phone = seat_page(browser, live, 1, PHONE)
        s = session(live)
        gseat = s.seats.index(1)
        entries = s.menu(gseat)
        assert phone.locator("#menu .choice").all_inner_texts() == [c.label.en for c in entries]
        assert phone.inner_text("#now").startswith("Your turn")
        moves = len(s.moves)
        last = len(entries) - 1  # the farthest from the cursor: ▶ pressed until it is reached
        phone.locator(f'#menu .choice[data-entry="{last}"]').tap()
        live.wait(lambda: len(session(live).moves) > moves, what="the seat's choice")
        assert session(live).moves[moves] == (gseat, entries[last].action)
        assert sideways(watch) == 0 and sideways(phone) == 0
        shot(phone, "english-seat-phone")
        replay = browser.new_page(viewport=PHONE)  # the replays too speak the table's language
        replay.goto(live.base + "/replay")
        replay.wait_for_function("() => document.querySelector('#games .game button')")
        text = replay.inner_text("body")
        assert "Games of the journal" in text and "spectator" in text and "seat 1" in text and "moves" in text, text
        replay.click('#games .game button[data-as="1"]')
        replay.wait_for_function("() => !document.getElementById('player').hidden && document.getElementById('now').textContent")
        text = replay.inner_text("body")
        assert "seen by seat 1" in text and replay.get_attribute("#next", "aria-label") == "Next step", text
        assert not re.search(r"siège|Jeu :|Coups|coups|Parties|spectateur|étape|Fichier", text), text
        assert replay.evaluate("() => document.documentElement.lang") == "en"
        for page in (table, watch, phone, replay):
            page.close()
    finally:
        live.close()

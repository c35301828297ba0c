"""Pieces drawn, not written, in headless Chromium: every piece of every game gets the icon of its
animal or card kind (inline SVG made by the page itself: no request leaves the machine, the
Content-Security-Policy holds) beside its name in the table's language, on the virtual table's
trays, the spectator's board and the cards of the readable summaries."""

from __future__ import annotations

from typing import Any

from games.registry import available_ids, get_game
from tests.kits.webkit import LiveTable
from tests.service.web.pagekit import Hands, start_from_menu

KINDS = {"droles-de-zebres": 5, "zop": 3, "operation-zebre": 1, "mata-hari": 14, "spywhere": 3}
DRAWN = """([pieces, isStatic]) => pieces.map(p => {
  const e = ZT.pieceEl(p, {}, { static: isStatic });
  const svg = e.querySelector("svg.icon");
  return [p, svg ? svg.dataset.icon : null, svg ? svg.querySelectorAll("path, circle").length : 0];
})"""


def test_every_piece_of_every_game_has_the_icon_of_its_kind(browser: Any, tmp_path: Any) -> None:
    live = LiveTable(tmp_path)
    requests: list[str] = []
    try:
        page = browser.new_page()
        page.on("request", lambda r: requests.append(r.url))
        page.goto(live.base + "/watch")
        page.wait_for_function("() => document.body.dataset.live === '1'")
        assert set(KINDS) == set(available_ids()), "a game without its icons"
        for gid in available_ids():
            pieces = get_game(gid).pieces()
            for drawn in (page.evaluate(DRAWN, [pieces, False]), page.evaluate(DRAWN, [pieces, True])):
                bare = [p for p, kind, shapes in drawn if kind is None or shapes == 0]
                assert not bare, f"{gid}: pieces drawn without an icon: {bare[:5]}"
                assert len({kind for _, kind, _ in drawn}) == KINDS[gid], f"{gid}: one icon per kind"
        # a spectator's Drôles de Zèbres animal is a round token with its icon, named for a screen reader
        token = page.evaluate("""() => { const e = ZT.pieceEl("droles-de-zebres/green/lion/1", {
            "droles-de-zebres/green/lion/1": "le lion vert" }, { static: true });
            return [e.className, e.getAttribute("aria-label"), !!e.querySelector("svg.icon")]; }""")
        assert token == ["piece static token", "lion vert", True]
        assert all(u.startswith(live.base) for u in requests), [u for u in requests if not u.startswith(live.base)]
    finally:
        live.close()


def test_the_virtual_tables_trays_draw_each_piece_with_its_name(browser: Any, tmp_path: Any) -> None:
    live = LiveTable(tmp_path)
    try:
        table = browser.new_page(viewport={"width": 1280, "height": 800})
        violations: list[str] = []
        table.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
        table.goto(live.base + "/")
        table.wait_for_function("() => document.querySelector('canvas.oled[data-seat=\"1\"]')?.dataset.bits")
        start_from_menu(Hands(table, live), live, "zop", (1, 2))
        table.wait_for_function("() => document.querySelectorAll('.tray .piece svg.icon').length >= 12")
        game = get_game("zop")
        drawn = table.evaluate("""() => [...document.querySelectorAll('.tray .piece')].map(e =>
            [e.dataset.piece, e.querySelector('svg.icon')?.dataset.icon, e.querySelector('.label').textContent])""")
        assert drawn
        for piece, kind, label in drawn:
            assert kind == piece.split("/")[2]
            assert label and game.piece_label(piece).fr.endswith(label), (piece, label)  # its name, article aside
        assert not violations, violations
    finally:
        live.close()


def test_the_virtual_tables_box_names_its_sets_in_the_tables_language(browser: Any, tmp_path: Any) -> None:
    live = LiveTable(tmp_path)
    try:
        table = browser.new_page(viewport={"width": 1280, "height": 800})
        table.goto(live.base + "/")
        table.wait_for_function("() => document.querySelector('canvas.oled[data-seat=\"1\"]')?.dataset.bits")
        start_from_menu(Hands(table, live), live, "operation-zebre", (1, 2))
        table.wait_for_function("() => document.querySelector('#box summary')")
        headings = table.evaluate("() => [...document.querySelectorAll('#box summary')].map(e => e.textContent)")
        assert headings and all(h.startswith("dossiers (") for h in headings), headings
    finally:
        live.close()


def test_every_set_of_every_game_has_a_name_in_both_languages() -> None:
    from firmware_host.web.set_names import SET_NAMES, set_name
    from firmware_host.web.trays import set_of

    for gid in available_ids():
        for s in {set_of(p) for p in get_game(gid).pieces()}:
            assert s in SET_NAMES and SET_NAMES[s].fr and SET_NAMES[s].en, (gid, s)
    assert set_name("light", "fr") == "cartes claires" and set_name("light", "en") == "light cards"
    assert set_name("no-such-set", "en") == "no-such-set"  # a set the table does not know keeps its id

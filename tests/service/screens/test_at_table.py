"""What the issue's players could not read, read again on the table: every line they act on is on
the seat's screen, whole (on the first page or one ◀ ▶ away), and a long menu entry scrolls."""

from __future__ import annotations

import random

from firmware_host.apps.menu import MenuApp, Pick
from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.screens import layout
from firmware_host.screens.render import frame_plan, render_frame
from games.core import CHANCE, GameConfig
from games.playout import sample_chance
from games.registry import get_game
from tests.kits.operation_zebre_kit import Table
from tests.kits.tabledriver import Driver


def seen(frame, lang: str = "fr") -> list[str]:
    """Every text row the seat can bring on its screen with ◀ ▶ (all pages)."""
    first = frame_plan(frame, lang)
    rows = list(first.lines)
    for k in range(1, first.pages):
        rows += list(layout.plan(frame.screen, lang, frame.menu, frame.cursor, None, layout.SIZE, k).lines)
    return rows


def test_operation_zebre_reader_sees_what_to_read_and_skip_beside_the_menu():
    t = Table(players=2)
    t.known(0, "sample/1", hide=(1,))
    t.known(1, "sample/2")
    screen = t.game.screen(t.game.view(t.state, 0), 0)
    menu = tuple(c.label for c in t.game.choices(t.state, 0))
    for lang, read, skip in (("fr", "Lisez : 1 3 4 5 6 7 8", "Sautez : 2"), ("en", "Read: 1 3 4 5 6 7 8", "Skip: 2")):
        p = layout.plan(screen, lang, menu)
        assert read in p.lines and skip in p.lines and p.menu  # on the first page, with the menu
        assert not p.big_beside and p.big is not None  # the suspicion number moved to the title bar
    long = [m for m in menu if layout.width_of(m.fr) > layout.plan(screen, "fr", menu).menu_room]
    assert long and all(layout.plan(screen, "fr", menu, menu.index(m)).scrolls for m in long)


def test_operation_zebre_censoring_shows_sum_to_ticks():
    t = Table(players=2)
    t.do(0, "lay", card="sample/1")
    t.do(0, "side", side="recto")
    t.do(0, "censor", line=1)
    screen = t.game.screen(t.game.view(t.state, 0), 0)
    menu = tuple(c.label for c in t.game.choices(t.state, 0))
    p = layout.plan(screen, "fr", menu)
    assert any(row.startswith("Somme ") and row.endswith(" croix") for row in p.lines)


def test_droles_de_zebres_set_up_and_end_screens_lose_nothing():
    driver = Driver(seed=6)
    try:
        driver.start("droles-de-zebres", [1, 2])
        for seat in (1, 2):
            assert "(menu)." in " ".join(seen(driver.sim.frames()[seat]))
        driver.play()
        s = driver.session
        for gseat in (0, 1):
            frame = driver.sim.frames()[s.seats[gseat]]
            rows = seen(frame)
            terr = s.game.view(s.state, gseat).territories
            for t in terr:  # every territory's result, and the inauguration bonus when there is one
                assert any(f"{t.name}:" in r for r in rows), (t.name, rows)
            if s.game.view(s.state, gseat).inauguration is not None:
                assert any("+5" in r for r in rows)
    finally:
        driver.close()


def _play_until(game, config, seed, stop):
    rng = random.Random(seed)
    state = game.initial_state(game.validate_config(config))
    for _ in range(5000):
        if stop(state):
            return state
        seat = rng.choice(sorted(game.to_act(state)))
        act = sample_chance(game, state, rng) if seat == CHANCE else rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, act).state
    raise AssertionError("never reached")


def test_spywhere_shows_the_hand_and_the_whole_ranking():
    game = get_game("spywhere")
    state = _play_until(game, GameConfig(4), 1, lambda s: s.phase == "play" and all(s.hands))
    for seat in range(4):
        view = game.view(state, seat)
        rows = " ".join(layout.page_rows(game.screen(view, seat), "fr",
                                         tuple(c.label for c in game.choices(state, seat)))[0])
        for card in view.hand:  # each card by nationality and number, on the first page
            nat, n = card.split("/")[2], card.split("/")[3]
            assert f"{game_short(nat)}{n}" in rows, (card, rows)
    over = _play_until(game, GameConfig(6), 2, lambda s: game.outcome(s) is not None)
    screen = game.screen(game.view(over, 0), 0)
    rows = [r for page in layout.page_rows(screen, "fr", ("Retour au menu",)) for r in page]
    for seat in range(6):
        assert any(r.startswith(f"J{seat + 1} ") for r in rows), rows  # nobody cut from the ranking


def game_short(nat: str) -> str:
    from games.spywhere.pieces import nat_short
    return nat_short(nat).fr


def test_mata_hari_objective_and_hand_stay_in_view_with_a_menu():
    game = get_game("mata-hari")
    rng = random.Random(3)
    state = game.initial_state(game.validate_config(GameConfig(4)))
    checked = 0
    for _ in range(3000):
        if game.outcome(state) is not None or checked > 20:
            break
        for seat in range(4):
            menu = tuple(c.label for c in game.choices(state, seat))
            view = game.view(state, seat)
            if menu and view.me is not None and view.phase not in ("deal", "over"):
                rows = layout.plan(game.screen(view, seat), "fr", menu).lines
                assert any(r.startswith(("R", "Objectif")) or "☠" in r for r in rows), rows
                assert any("pts" in r for r in rows), rows  # the hand summary
                checked += 1
        seat = rng.choice(sorted(game.to_act(state)))
        act = sample_chance(game, state, rng) if seat == CHANCE else rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, act).state
    assert checked > 5


def test_a_long_set_up_option_scrolls_when_highlighted():
    clock = FakeClock()
    sim = SimTable(clock=clock)
    try:
        assert sim.wait_ready()
        sim.press(1, "ok")
        menu = sim.runtime.app
        assert isinstance(menu, MenuApp)
        keys = [k for _, k in menu.entries()]
        menu.cursor = keys.index(Pick("droles-de-zebres"))
        sim.press(1, "ok")
        entries = menu.entries()
        frame = sim.frames()[1]
        room = frame_plan(frame).menu_room
        wide = next(i for i, (label, _) in enumerate(entries) if layout.width_of(label.fr) > room)
        menu.cursor = wide
        sim.runtime.refresh()
        first = sim.frames()[1]
        clock.advance(3.0)
        sim.runtime.tick()
        later = sim.frames()[1]
        assert later.scroll > first.scroll
        assert render_frame(first).tobytes() != render_frame(later).tobytes()  # the end comes into view
        assert sim.runtime.next_deadline() is not None  # the loop wakes up to move it on
    finally:
        sim.close()

""""Comment jouer" pages for every game, reachable from the game menu and during a game, each
page whole on one screen in French and English; and the "your turn" cue on the buzzer."""

from __future__ import annotations

import pytest

from firmware_host.apps.menu import Do, MenuApp, Pick
from firmware_host.apps.session import GameSession
from firmware_host.screens import layout
from firmware_host.storage.tags import sim_registry
from games.core import GameConfig
from games.howto import pages
from games.registry import available_ids, get_game
from tests.kits.tabledriver import Driver
from tests.kits.toyboard import GAME as TOYBOARD


@pytest.mark.parametrize("game_id", available_ids())
def test_every_game_has_five_to_ten_pages_that_fit_the_screen(game_id):
    screens = pages(get_game(game_id))
    assert 5 <= len(screens) <= 10
    for screen in screens:
        for lang in ("fr", "en"):
            p = layout.plan(screen, lang)
            assert p.pages == 1 and not p.elisions, (game_id, lang, screen.title.get(lang), p.elisions)


def test_reachable_from_the_game_menu():
    menu = MenuApp((1, 2))
    menu.on_button(1, "ok", "press")
    keys = [k for _, k in menu.entries()]
    menu.cursor = keys.index(Pick("spywhere"))
    menu.on_button(1, "ok", "press")
    keys = [k for _, k in menu.entries()]
    assert Do("howto") in keys
    menu.cursor = keys.index(Do("howto"))
    menu.on_button(1, "ok", "press")
    first = menu.frame(1).screen
    assert first.title.fr.startswith("1/7 ") and menu.frame(1).menu == ()
    menu.on_button(1, "right", "press")
    assert menu.frame(1).screen.title.fr.startswith("2/7 ")
    menu.on_button(1, "left", "press")
    menu.on_button(1, "left", "press")
    assert menu.frame(1).screen.title.fr.startswith("7/7 ")  # round
    menu.on_button(1, "ok", "press")
    assert menu.howto is None and menu.frame(1).menu  # back to the set-up menu


def test_reachable_during_a_game_from_the_long_press_menu():
    driver = Driver(seed=1)
    try:
        driver.start("zop", [3, 4])
        driver.send({"long": 3})
        assert [t.fr for t in driver.sim.frames()[3].menu] == ["Continuer la partie", "Quitter la partie",
                                                               "Comment jouer"]
        driver.send({"press": 3, "button": "left"})
        driver.send({"press": 3, "button": "ok"})
        frame = driver.sim.frames()[3]
        assert frame.screen.title.fr.startswith("1/6 ") and driver.session.ui[0].howto == 0
        driver.send({"press": 3, "button": "right"})
        assert driver.sim.frames()[3].screen.title.fr.startswith("2/6 ")
        driver.send({"press": 3, "button": "ok"})
        assert driver.session.ui[0].howto is None and isinstance(driver.sim.runtime.app, GameSession)
    finally:
        driver.close()


def test_a_turn_starting_plays_the_your_turn_cue():
    s = GameSession(TOYBOARD, GameConfig(2), (1, 2), sim_registry(TOYBOARD.pieces()), {"A1", "B1", "C1"},
                    lambda: 0.0, auto_chance=True)
    s.sense({})
    s.apply(0, {"type": "ring"})  # seat 0 keeps the turn: no cue
    assert "turn" not in s.cues
    s.apply(0, {"type": "place", "piece": "toyboard/white/token/1", "square": "A1"})
    assert s.cues[-1] == "turn"  # seat 1's turn begins
    s.computers.seats = frozenset({0})
    s.cues.clear()
    s.apply(1, {"type": "place", "piece": "toyboard/green/token/1", "square": "B1"})
    assert "turn" not in s.cues  # the computer needs no sound


def test_the_buzzer_plays_it_on_the_simulated_table():
    driver = Driver(seed=2)
    try:
        driver.start("droles-de-zebres", [1, 2], {"first_player": "seat0"})
        s = driver.session
        before = list(driver.sim.table.buzzer.history)
        driver.do(0, s.menu(0)[0].action)  # the guardian placed: the other player's turn
        assert "turn" in list(driver.sim.table.buzzer.history)[len(before):]
    finally:
        driver.close()

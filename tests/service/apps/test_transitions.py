"""Apps answer with transitions and the loop carries them out: a game says once that it is over,
leaving returns to the menu and journals the game abandoned, the table test's long press goes
back, the menu's language choice reaches every screen, a press on a seat outside the game does
nothing, and a game's press ticks before the sounds it makes."""

from __future__ import annotations

import pytest

from drivers.buttons import ButtonEvent
from firmware_host.apps.app import BackToMenu, GameOver, LeaveGame, SetLanguage
from firmware_host.apps.menu import Do, MenuApp
from firmware_host.apps.session import GameSession
from firmware_host.apps.testapp import TestApp as TableTest
from firmware_host.loop.runtime import Runtime
from firmware_host.storage.config import load_config
from firmware_host.storage.tags import TagRegistry, sim_registry, sim_uid
from games.core import GameConfig
from tests.kits.toyboard import GAME, BoardState, token
from tests.service.loop.test_runtime import Clock, Recorder, press, start_toy, toy_only  # noqa: F401 - a fixture

ZONES = {"A1", "B1", "C1", "D1", "seat1.pad", "seat2.pad"}


def toy() -> GameSession:
    s = GameSession(GAME, GameConfig(players=2), (1, 2), sim_registry(GAME.pieces()), ZONES, lambda: 0.0,
                    auto_chance=True)
    assert s.begin({}) is None
    return s


def test_the_game_says_once_that_it_is_over() -> None:
    s = toy()
    assert s.on_sensed({"A1": frozenset({sim_uid(token(0, 1))})}) is None and len(s.moves) == 1
    s.state = BoardState(placed=4)  # the game's end, as the engine sees it
    assert s.on_time() == GameOver(GAME.outcome(s.state).to_json())
    assert s.on_time() is None and s.on_button(1, "left", "press") is None  # said once


def test_leaving_is_asked_of_the_loop() -> None:
    s = toy()
    assert s.on_button(2, "ok", "long") is None  # the quit question
    assert s.on_button(2, "right", "press") is None
    assert s.on_button(2, "ok", "press") is None  # another human plays: seat 1 is asked
    assert s.on_button(1, "right", "press") is None
    assert s.on_button(1, "ok", "press") == LeaveGame(GAME.id, 0)


def test_a_press_outside_the_game_does_nothing_and_a_press_inside_ticks_first() -> None:
    s = toy()
    assert s.on_button(5, "ok", "press") is None and s.take_cues() == []
    s.cues.append("earlier")
    s.on_button(1, "ok", "press")  # "ring": a button move of seat 1
    assert s.take_cues()[:2] == ["earlier", "tick"] and s.take_cues() == []


def test_the_table_test_goes_back_with_a_long_press() -> None:
    app = TableTest((1, 2), TagRegistry())
    assert app.on_button(1, "ok", "press") is None
    assert app.on_button(1, "ok", "long") == BackToMenu()


def test_the_menu_asks_for_the_language() -> None:
    menu = MenuApp((1, 2))
    menu.on_button(1, "ok", "press")
    menu.cursor = [k for _, k in menu.entries()].index(Do("language"))
    assert menu.on_button(1, "ok", "press") == SetLanguage("en")
    assert menu.on_button(1, "ok", "press") == SetLanguage("fr")


def test_the_loop_carries_out_leaving_and_the_language(toy_only: None) -> None:  # noqa: F811
    out = Recorder()
    runtime = Runtime(load_config(None), sim_registry(GAME.pieces()), out, Clock(), auto_chance=True, seed=1)
    runtime.refresh()
    start_toy(runtime)
    for kind in ("press", "long", "release"):  # seat 2: the quit question, "Quitter la partie"
        runtime.handle(ButtonEvent(2, "ok", kind, 0.0))
    press(runtime, 2, "right")
    press(runtime, 2)
    assert runtime.keeper.game is not None  # seat 5 plays too: it is asked, "Oui, quitter"
    press(runtime, 5, "right")
    press(runtime, 5)
    assert isinstance(runtime.app, MenuApp) and runtime.keeper.game is None  # the game was ended (abandoned)
    press(runtime, 1)  # seat 1 takes the menu
    assert isinstance(runtime.app, MenuApp)
    runtime.app.cursor = [k for _, k in runtime.app.entries()].index(Do("language"))
    press(runtime, 1)
    assert runtime.language == "en" and out.frames[1].screen.title.en == "Choose a game"


def test_an_unknown_button_reaches_no_app(toy_only: None) -> None:  # noqa: F811
    # the one button event type cannot hold an unknown button: whatever builds one (a phone's
    # request, a driver) is refused where it is built, and the runtime never sees it
    for kind in ("press", "release", "long"):
        with pytest.raises(ValueError, match="no button 'up'"):
            ButtonEvent(1, "up", kind, 0.0)
    runtime = Runtime(load_config(None), sim_registry(GAME.pieces()), Recorder(), Clock(), auto_chance=True, seed=1)
    runtime.handle(ButtonEvent(1, "left", "press", 0.0))
    assert isinstance(runtime.app, MenuApp) and runtime.app.host == 1 and runtime.healthy

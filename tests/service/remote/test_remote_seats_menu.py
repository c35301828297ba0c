"""Several players at each table, chosen from the menus with the buttons: the host's set-up says
which game seats play at the other table ("À distance : J3 J4"); at the joining table the seat that
typed the code is one of them, and each other player takes a place with OK at their own seat (OK
again gives it back), each screen saying which player it is; the game starts once there are as
many as the host's game has there, and is played to its end at both tables.

The game is Relais (games_for_tests/relay): several players, nothing hidden, found by the registry
inside these tests only and played across tables as the public games are."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from firmware_host.apps.menu import Do, MenuApp, Pick
from firmware_host.apps.session import GameSession
from firmware_host.remote import crossing
from firmware_host.remote.play import JoiningApp
from tests.kits.extra_games import games_found_in
from tests.kits.remotekit import join_by_code, menu_config, menu_tables, pump, screen_words
from tests.service.apps.solo_table import human_move, menu_to

GAMES = Path(__file__).parent / "games_for_tests"


@pytest.fixture
def relay(monkeypatch):
    """Relais is found by the registry and played across tables as a public game."""
    monkeypatch.setattr(crossing, "PUBLIC_GAMES", crossing.PUBLIC_GAMES | {"relay"})
    monkeypatch.setattr(crossing, "REMOTE_GAMES", crossing.REMOTE_GAMES | {"relay"})
    with games_found_in(GAMES):
        yield


def label(menu: MenuApp, key: object) -> str:
    return next(t.fr for t, k in menu.entries() if k == key)


def test_two_players_at_each_table_chosen_from_the_menus(broker, relay):
    with menu_tables(menu_config(broker.port)) as (a, b):
        a.press(1, "ok")
        menu_to(a, 1, Pick("relay"))
        a.press(5, "ok")  # a second player of the host's table joins the set-up
        menu = a.runtime.app
        assert isinstance(menu, MenuApp) and menu.joined == [1, 5]
        assert label(menu, Do("remote")) == "À distance : non"
        menu_to(a, 1, Do("remote"))
        assert label(menu, Do("remote")) == "À distance : J3"
        menu_to(a, 1, Do("remote"))
        assert label(menu, Do("remote")) == "À distance : J3 J4"  # the game seats played at the other table
        assert label(menu, Do("start")) == "Commencer (4 joueurs)"
        menu_to(a, 1, Do("remote"))
        assert label(menu, Do("remote")) == "À distance : non"  # past the most the game takes: none
        menu_to(a, 1, Do("remote"))
        menu_to(a, 1, Do("remote"))
        menu_to(a, 1, Do("start"))
        host = a.runtime.app
        assert isinstance(host, GameSession) and host.seats == (1, 5, None, None)
        code = a.runtime.remote_game.code

        join_by_code(b, 6, code)
        joining = b.runtime.app
        assert isinstance(joining, JoiningApp)
        b.press(2, "ok")  # before the host's game came: no place to take yet
        assert joining.seats == [6]
        assert pump([a, b], lambda: "2 joueurs ici : 1 prêts" in screen_words(b, 6))
        assert "Vous : J3" in screen_words(b, 6) and "OK : jouer ici" in screen_words(b, 8)
        b.press(8, "ok")  # the second player of this table takes a place: the game starts
        assert pump([a, b], lambda: isinstance(b.runtime.app, GameSession))
        joined = b.runtime.app
        assert joined.seats == (None, None, 6, 8)
        assert host.remote is not None and host.remote.seats == frozenset({2, 3})
        assert joined.remote is not None and joined.remote.seats == frozenset({0, 1})

        rng = random.Random(3)
        while not (host.over and joined.over):
            assert pump([a, b], lambda: host.moves == joined.moves and not a.runtime.remote_game.link.unacknowledged()
                        and not b.runtime.remote_game.link.unacknowledged())
            if host.over:
                break
            assert human_move(a, rng) or human_move(b, rng)  # the players of the table whose turn it is
        assert host.state == joined.state and host.game.outcome(host.state) == joined.game.outcome(joined.state)
        movers = {seat for seat, _ in host.moves}
        assert movers == {0, 1, 2, 3}  # every player played, each at its own table


def test_a_place_taken_by_mistake_is_given_back(broker, relay):
    """Three players at the joining table: a seat that took a place gives it back with OK; the seats
    take the game seats in seat order, each screen saying which player it is."""
    with menu_tables(menu_config(broker.port)) as (a, b):
        a.press(1, "ok")
        menu_to(a, 1, Pick("relay"))
        for _ in range(3):
            menu_to(a, 1, Do("remote"))
        assert label(a.runtime.app, Do("remote")) == "À distance : J2 J3 J4"
        menu_to(a, 1, Do("start"))
        code = a.runtime.remote_game.code
        join_by_code(b, 6, code)
        joining = b.runtime.app
        assert isinstance(joining, JoiningApp)
        assert pump([a, b], lambda: "3 joueurs ici : 1 prêts" in screen_words(b, 6))
        b.press(2, "ok")
        assert "Vous : J2 (OK : quitter)" in screen_words(b, 2) and "Vous : J3" in screen_words(b, 6)
        assert "2 prêts" in screen_words(b, 7) and "J2 J3 J4" in screen_words(b, 7)
        b.press(2, "ok")  # given back
        assert joining.seats == [6] and "OK : jouer ici" in screen_words(b, 2)
        b.press(6, "ok")  # the seat that typed the code keeps its place
        assert joining.seats == [6]
        b.press(4, "ok")
        b.press(8, "ok")
        assert pump([a, b], lambda: isinstance(b.runtime.app, GameSession))
        assert b.runtime.app.seats == (None, 4, 6, 8)


def test_a_joining_table_with_too_few_seats_says_so(broker, relay, monkeypatch):
    """The host's game wants more players here than this table has seats: the screens say why."""
    with menu_tables(menu_config(broker.port)) as (a, b):
        a.press(1, "ok")
        menu_to(a, 1, Pick("relay"))
        for _ in range(3):
            menu_to(a, 1, Do("remote"))
        assert label(a.runtime.app, Do("remote")) == "À distance : J2 J3 J4"
        menu_to(a, 1, Do("start"))
        code = a.runtime.remote_game.code
        monkeypatch.setattr(b.runtime, "seat_ids", (1, 2))  # a table of two seats
        join_by_code(b, 1, code)
        app = b.runtime.app
        assert isinstance(app, JoiningApp)
        assert pump([a, b], lambda: "3 joueurs ici, la table a 2 sièges" in screen_words(b, 1))
        assert not isinstance(b.runtime.app, GameSession)


def test_a_remote_game_takes_no_player_without_a_seat(relay):
    """At a table of two seats a four-player game offers players without a seat; with players at the
    other table it does not start with them (they would be taken for the other table's)."""
    menu = MenuApp((1, 2), remote_ready=True)
    menu.on_button(1, "ok", "press")
    keys = [k for _, k in menu.entries()]
    menu.cursor = keys.index(Pick("relay"))
    menu.on_button(1, "ok", "press")
    for key in (Do("extra"), Do("remote"), Do("start")):
        menu.cursor = [k for _, k in menu.entries()].index(key)
        done = menu.on_button(1, "ok", "press")
    assert done is None and menu.message is not None and "sans siège" in menu.message.fr
    for _ in range(2):  # two, then none
        menu.cursor = [k for _, k in menu.entries()].index(Do("extra"))
        menu.on_button(1, "ok", "press")
    assert menu.extra == 0
    menu.cursor = [k for _, k in menu.entries()].index(Do("start"))
    started = menu.on_button(1, "ok", "press")
    assert started is not None and started.request.seats == (1, None)


def test_spywhere_takes_up_to_five_players_at_the_joining_table_from_the_menu():
    """A six-player Spywhere with one player here cycles "À distance" through one to five players
    at the other table, then none (a message carries a digest of each of their views, not the view:
    its size does not grow with them)."""
    menu = MenuApp((1, 2, 3, 4, 5, 6, 7, 8), remote_ready=True)
    menu.on_button(1, "ok", "press")
    menu.cursor = [k for _, k in menu.entries()].index(Pick("spywhere"))
    menu.on_button(1, "ok", "press")
    seen = []
    for _ in range(7):
        menu.cursor = [k for _, k in menu.entries()].index(Do("remote"))
        menu.on_button(1, "ok", "press")
        seen.append(menu.remote)
    assert seen == [1, 2, 3, 4, 5, 0, 1]

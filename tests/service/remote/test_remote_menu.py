"""A remote game started from the menus, as people do it: the host table's menu sets the game up
"À distance", its screens show the code; at the other table "Rejoindre une partie à distance",
the code typed with ◀ ▶ OK, the table connects and the host's game starts on its seat."""

from __future__ import annotations

import random

from firmware_host.apps.menu import CodeChar, Do, MenuApp, Option, Pick
from firmware_host.apps.session import GameSession
from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.remote.code import shown
from firmware_host.remote.play import JoiningApp
from firmware_host.storage.config import parse_config, sim_config_text
from tests.kits.remotekit import join_by_code, menu_config, menu_tables, pump, screen_words
from tests.service.apps.solo_table import follow_instruction, human_move, menu_to


def test_host_and_join_from_the_menus(broker):
    with menu_tables(menu_config(broker.port)) as (a, b):
        a.press(1, "ok")  # the first press takes the menu
        menu_to(a, 1, Pick("droles-de-zebres"))
        menu = a.runtime.app
        assert isinstance(menu, MenuApp) and Do("remote") in [k for _, k in menu.entries()]
        menu_to(a, 1, Do("remote"))
        assert menu.remote and Do("cpu_add") not in [k for _, k in menu.entries()]
        menu_to(a, 1, Do("start"))
        host = a.runtime.app
        assert isinstance(host, GameSession) and host.seats == (1, None) and host.remote is not None
        code = a.runtime.remote_game.code
        assert pump([a], lambda: f"code {shown(code)}" in screen_words(a, 1))
        b.press(3, "ok")
        menu_to(b, 3, Do("join"))
        for i, char in enumerate(code):
            if i == 3:  # a slip of the finger, erased
                menu_to(b, 3, CodeChar("Z" if char != "Z" else "Y"))
                menu_to(b, 3, Do("code_erase"))
            menu_to(b, 3, CodeChar(char))
        assert isinstance(b.runtime.app, (JoiningApp, GameSession))
        assert pump([a, b], lambda: isinstance(b.runtime.app, GameSession))
        joined = b.runtime.app
        assert joined.seats == (None, 3) and joined.remote is not None
        rng = random.Random(1)
        while len(host.moves) < 8:
            assert pump([a, b], lambda: host.moves == joined.moves and not a.runtime.remote_game.link.unacknowledged()
                        and not b.runtime.remote_game.link.unacknowledged())
            assert (follow_instruction(a) or follow_instruction(b) or human_move(a, rng) or human_move(b, rng))
        assert pump([a, b], lambda: host.moves == joined.moves)


def test_a_table_without_remote_offers_neither():
    sim = SimTable(clock=FakeClock())
    try:
        assert sim.wait_ready()
        sim.press(1, "ok")
        menu = sim.runtime.app
        assert isinstance(menu, MenuApp) and not menu.remote_ready
        assert Do("join") not in [k for _, k in menu.entries()]
        menu_to(sim, 1, Pick("droles-de-zebres"))
        assert Do("remote") not in [k for _, k in menu.entries()]
    finally:
        sim.close()


def test_joining_a_game_nobody_hosts_waits_and_gives_up_with_a_long_press(broker):
    config = parse_config(sim_config_text() + f'\n[remote]\nhost = "127.0.0.1"\nport = {broker.port}\n')
    sim = SimTable(config, clock=FakeClock())
    try:
        assert sim.wait_ready()
        join_by_code(sim, 2, "ABCDEFGH")
        app = sim.runtime.app
        assert isinstance(app, JoiningApp)
        assert pump([sim], lambda: "En attente de la" in screen_words(sim, 5))  # every seat reads it
        assert "Partie ABCD-EFGH" in screen_words(sim, 2)
        sim.long_press(2, "ok")
        assert isinstance(sim.runtime.app, MenuApp)
        assert pump([sim], lambda: not app.joining.link.thread.is_alive())
    finally:
        sim.close()


def test_spywhere_is_hosted_from_the_menu_with_the_re_triple_rule_chosen_mata_hari_is_offered_operation_zebre_not(
        broker):
    config = parse_config(sim_config_text() + f'\n[remote]\nhost = "127.0.0.1"\nport = {broker.port}\n'
                          'reconnect_max = 0.5\n')
    a = SimTable(config, clock=FakeClock(), seed=1)
    try:
        assert a.wait_ready()
        a.settle()
        a.press(1, "ok")  # the first press takes the menu
        menu_to(a, 1, Pick("mata-hari"))
        menu = a.runtime.app
        assert isinstance(menu, MenuApp) and Do("remote") in [k for _, k in menu.entries()]
        menu_to(a, 1, Do("back"))
        menu_to(a, 1, Pick("operation-zebre"))
        assert Do("remote") not in [k for _, k in menu.entries()]
        menu_to(a, 1, Do("back"))
        menu_to(a, 1, Pick("spywhere"))
        a.press(5, "ok")  # a second player joins at seat 5
        assert menu.joined == [1, 5]
        menu_to(a, 1, Option("retriple"))
        assert menu.options["retriple"] == "on"
        menu_to(a, 1, Do("remote"))
        menu_to(a, 1, Do("start"))
        host = a.runtime.app
        assert isinstance(host, GameSession) and host.seats == (1, 5, None) and host.remote is not None
        assert host.config.option("retriple") == "on"  # the re-triple rule chosen is played across tables too
    finally:
        a.close()

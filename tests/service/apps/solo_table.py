"""A human player for solo games on the simulated table: legal actions chosen by a seeded RNG and
carried out with the seat's buttons or by laying pieces; the computer's moves carried out by
reading the table's instruction (its text on the screens and the LED of its zone)."""

from __future__ import annotations

import random
from typing import Any

from firmware_host.apps import reconcile
from firmware_host.apps.app import StartRequest
from firmware_host.apps.computer import InlineThinker
from firmware_host.apps.menu import MenuKey
from firmware_host.apps.session import GameSession
from firmware_host.loop.simulator import FakeClock, SimTable
from games.core import CHANCE, normalise_layout
from tests.kits import menus


def open_table(seed: int = 0, iterations: int = 12, journal: Any = None, config: Any = None) -> SimTable:
    """A simulated table whose computer players think inline with a small budget."""
    sim = SimTable(config, clock=FakeClock(), seed=seed, journal=journal)
    assert sim.wait_ready()
    sim.settle()
    sim.runtime.thinker = InlineThinker(iterations=iterations)
    return sim


def session(sim: SimTable) -> GameSession:
    app = sim.runtime.app
    assert isinstance(app, GameSession), type(app).__name__
    return app


def press_choice(sim: SimTable, table_seat: int, index: int) -> None:
    """Walk the seat's menu to entry `index` with ▶ and press OK."""
    app = session(sim)
    gseat = app.game_seat(table_seat)
    assert gseat is not None
    for _ in range(64):
        if app.ui[gseat].cursor == index and app.ui[gseat].page == 0:
            break
        sim.press(table_seat, "right")
    sim.press(table_seat, "ok")


def follow_instruction(sim: SimTable) -> bool:
    """Carry out the table's current instruction, as its text and LED say. False if none."""
    app = session(sim)
    if app.instruction is None:
        return False
    fix, audience, text = app.instruction.fix, app.instruction.audience, app.instruction.text
    zone = app.to_physical(fix.zone)
    assert zone is not None
    # every seated human reads it, and the zone's LED is lit (red: take off, green: put on)
    for h in app.humans():
        if h in audience:
            banner = sim.runtime.frames()[app.seats[h]].banner
            assert banner is not None and text.fr in banner.fr, (banner, text)
    assert sim.runtime.lit.get(zone) == ("red" if fix.kind == "remove" else "green"), (zone, sim.runtime.lit)
    if fix.kind == "remove":
        sim.remove(zone, fix.piece)
    else:
        sim.place(zone, fix.piece)
    sim.settle()
    return True


def human_move(sim: SimTable, rng: random.Random) -> bool:
    """One legal move of a human seat to act, with buttons or pieces. False if no human may act."""
    app = session(sim)
    humans = sorted(app.humans_to_act())
    if not humans:
        return False
    seat = rng.choice(humans)
    table_seat = app.seats[seat]
    assert table_seat is not None
    game, state = app.game, app.state
    zones = app.logical_zones()
    now = reconcile.restrict(normalise_layout(game.expected_layout(state)), zones)
    moves = []
    for action in game.legal_actions(state, seat):
        idx = next((i for i, a in enumerate(menus.entries(app, seat)) if a == action), None)
        if idx is not None:
            moves.append((action, idx, None))
            continue
        foot = reconcile.restrict(normalise_layout(game.footprint(state, seat, action)), zones)
        if foot != now:
            moves.append((action, None, foot))
    if not moves:
        return False
    action, idx, foot = rng.choice(moves)
    if idx is not None:
        press_choice(sim, table_seat, idx)
        if app.ui[seat].confirming is not None:  # an irrevocable choice: "Oui"
            press_choice(sim, table_seat, 1)
        return True
    assert foot is not None
    for zone in sorted(set(now) | set(foot)):
        for piece in sorted(now.get(zone, frozenset()) - foot.get(zone, frozenset())):
            sim.remove(app.to_physical(zone) or zone, piece)
    for zone in sorted(set(now) | set(foot)):
        for piece in sorted(foot.get(zone, frozenset()) - now.get(zone, frozenset())):
            sim.place(app.to_physical(zone) or zone, piece)
    sim.settle()
    return True


def play_to_the_end(sim: SimTable, rng: random.Random, limit: int = 3000) -> GameSession:
    """Play the humans' side until the game ends; the computer's side plays itself."""
    for _ in range(limit):
        app = session(sim)
        if app.over:
            return app
        if follow_instruction(sim):
            continue
        if human_move(sim, rng):
            continue
        # nothing for a human to do: the computer must be thinking or the game waits for time
        assert CHANCE not in app.to_act() or not app.auto_chance, "a chance event was left to the table"
        raise AssertionError(f"stuck: to_act {sorted(map(str, app.to_act()))}, computers {app.computers.levels}, "
                             f"thinking {app.computers.thinking}, stuck {app.computers.stuck}")
    raise AssertionError("the game did not end")


def start(sim: SimTable, request: StartRequest) -> GameSession:
    sim.runtime.start(request)
    sim.runtime.refresh()
    return session(sim)


def menu_to(sim: SimTable, host: int, key: MenuKey) -> None:
    """Walk the host's menu to the entry `key` and press OK."""
    from firmware_host.apps.menu import MenuApp

    menu = sim.runtime.app
    assert isinstance(menu, MenuApp)
    keys = [k for _, k in menu.entries()]
    assert key in keys, (key, keys)
    for _ in range(len(keys) + 1):
        if menu.cursor == keys.index(key):
            break
        sim.press(host, "right")
    sim.press(host, "ok")


def start_from_menu(sim: SimTable, host: int, game_id: str, levels: list[str],
                    options: dict[str, int] | None = None) -> GameSession:
    """Choose the game with the host's buttons, add computer players at `levels`, start."""
    from firmware_host.apps.menu import ComputerLevel, Do, MenuApp, Option, Pick
    from games.ai import levels as known

    sim.press(host, "ok")  # the first press takes the menu
    menu_to(sim, host, Pick(game_id))
    menu = sim.runtime.app
    assert isinstance(menu, MenuApp)
    for i, level in enumerate(levels):
        menu_to(sim, host, Do("cpu_add"))
        steps = known(game_id)[::-1].index(level)  # added at the strongest; each OK one level down
        for _ in range(steps):
            menu_to(sim, host, ComputerLevel(i))
        assert menu.computers[i] == level
    for key, presses in (options or {}).items():
        for _ in range(presses):
            menu_to(sim, host, Option(key))
    menu_to(sim, host, Do("start"))
    return session(sim)

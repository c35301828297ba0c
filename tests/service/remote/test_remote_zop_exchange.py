"""ZOP's blind exchange between two tables: the cards would change hands between two homes, so the
exchange is void at both tables, their screens say why, and nobody is offered "Échange fait"."""

from __future__ import annotations

import pytest

from firmware_host.apps import reconcile
from firmware_host.apps.menu import MenuApp, Pick
from firmware_host.apps.menu import Option as MenuOption
from firmware_host.loop.simulator import SimTable
from games.core import normalise_layout
from games.zop.state import COMMIT, EXCHANGE
from tests.kits.menus import game_actions
from tests.kits.remotekit import TwoTables, screen_words
from tests.service.apps.solo_table import session

SWAP = {0: "zop/light/special/4", 1: "zop/dark/special/4"}  # each deck's Échange à l'aveugle
OTHER = {0: "zop/light/attack/2", 1: "zop/dark/attack/3"}
REASON = "la main adverse est à l'autre table"


def lay(sim: SimTable, seat: int, card: str) -> None:
    """The player of game seat `seat` lays `card` on its pad, as a hand does."""
    app = session(sim)
    zones = app.logical_zones()
    now = reconcile.restrict(normalise_layout(app.game.expected_layout(app.state)), zones)
    foot = reconcile.restrict(normalise_layout(app.game.footprint(app.state, seat, {"type": "commit", "card": card})),
                              zones)
    for zone in sorted(set(foot)):
        for piece in sorted(foot[zone] - now.get(zone, frozenset())):
            sim.place(app.to_physical(zone) or zone, piece)
    sim.settle()


def told(sim: SimTable, table_seat: int, seat: int) -> bool:
    """The seat's screen says why the exchange is void, or its message showing now does (its parts
    are read in turn on the screen)."""
    parts = [p.fr for n in session(sim).ui[seat].notices for p in n.parts]
    return REASON in screen_words(sim, table_seat) or any(REASON in p for p in parts)


def never_offered(t: TwoTables) -> bool:
    """Neither table's engine nor menu offers the exchange to anyone."""
    for s in (t.host_session, t.join_session):
        if s.state.phase == EXCHANGE:
            return False
        for seat in (0, 1):
            kinds = [a["type"] for a in s.game.legal_actions(s.state, seat)]
            if s.seats[seat] is not None:
                kinds += [a["type"] for a in game_actions(s, seat)]
            if any(k.startswith("exchange") for k in kinds):
                return False
    return True


@pytest.mark.parametrize("taker", [0, 1])
def test_a_blind_exchange_across_tables_is_void_at_both_tables_with_the_reason(broker, taker):
    t = TwoTables(broker, "zop", {}, seed=11)
    try:
        t.join(t.code)
        assert t.wait(t.in_step), t.describe()
        assert t.host_session.config.option("tables") == t.join_session.config.option("tables") == "two"
        sims = {0: t.a, 1: t.b}
        lay(sims[taker], taker, SWAP[taker])
        lay(sims[1 - taker], 1 - taker, OTHER[1 - taker])
        said = {"a": False, "b": False}

        def revealed() -> bool:
            assert never_offered(t), t.describe()
            said["a"] = said["a"] or told(t.a, 1, 0)
            said["b"] = said["b"] or told(t.b, 3, 1)
            return t.in_step() and all(len(s.state.turns) == 1 for s in (t.host_session, t.join_session))

        assert t.wait(revealed), t.describe()
        # each table's player puts the revealed cards in its line; the message waiting behind shows then
        assert t.wait(lambda: revealed() and (t.act_instruction() or True) and all(said.values())), \
            (said, screen_words(t.a, 1), screen_words(t.b, 3))
        for s in (t.host_session, t.join_session):
            assert s.state.phase == COMMIT and s.state.turn == 2
            assert [(x.received, x.given) for x in s.state.sides] == [(0, 0), (0, 0)]
            assert s.state.turns[0].cards[taker] == (SWAP[taker],)
        # the game goes on: the next turn is played as any
        while t.act_instruction():
            pass
        lay(t.b, 1, "zop/dark/defence/1")
        lay(t.a, 0, "zop/light/defence/1")
        assert t.wait(lambda: t.in_step() and t.host_session.state.turn == 3 and never_offered(t)), t.describe()
        assert t.host_session.state == t.join_session.state
    finally:
        t.close()


def test_the_set_up_menu_never_offers_the_two_tables_option():
    menu = MenuApp((1, 2))
    menu.on_button(1, "ok", "press")
    keys = [key for _, key in menu.entries()]
    menu.cursor = keys.index(Pick("zop"))
    menu.on_button(1, "ok", "press")
    assert menu.game_id == "zop"
    keys = [key for _, key in menu.entries()]
    assert MenuOption("deck") in keys and MenuOption("tables") not in keys

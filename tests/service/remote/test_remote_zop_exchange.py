"""ZOP's blind exchange between two tables, made with cards that stay at home: the taker chooses a
place blindly in its menu, the victim's table has its player lay that card on its pad to be read and
set aside, the taker's lays the card given back the same way; each then lays the other's card from
its menu. Both tables agree all along, and play the game to its end; a wrong card laid is refused
with its reason and changes nothing; a table cut off in the middle takes the exchange up again."""

from __future__ import annotations

import pytest

from firmware_host.apps import reconcile
from firmware_host.apps.menu import MenuApp, Pick
from firmware_host.apps.menu import Option as MenuOption
from firmware_host.loop.simulator import SimTable
from games.core import Action, normalise_layout
from games.zop.state import COMMIT, EXCHANGE, GIVE, PICK, SHOW
from tests.kits.menus import game_actions
from tests.kits.remotekit import TwoTables, screen_words
from tests.service.apps.solo_table import press_choice, session

SWAP = {0: "zop/light/special/4", 1: "zop/dark/special/4"}  # each deck's Échange à l'aveugle
OTHER = {0: "zop/light/attack/2", 1: "zop/dark/attack/3"}
TAKEN = {0: "zop/light/attack/5", 1: "zop/dark/attack/5"}  # the card at the place chosen, by owner
GIVEN = {0: "zop/light/defence/1", 1: "zop/dark/defence/1"}
TABLE_SEAT = {0: 1, 1: 3}  # the table seat of each game seat (host's seat 1, joining table's seat 3)


def gesture(sim: SimTable, seat: int, action: Action) -> None:
    """The player of game seat `seat` makes the gesture of `action` on its pad, as a hand does."""
    app = session(sim)
    zones = app.logical_zones()
    now = reconcile.restrict(normalise_layout(app.game.expected_layout(app.state)), zones)
    foot = reconcile.restrict(normalise_layout(app.game.footprint(app.state, seat, action)), zones)
    for zone in sorted(set(foot)):
        for piece in sorted(foot[zone] - now.get(zone, frozenset())):
            sim.place(app.to_physical(zone) or zone, piece)
    sim.settle()


def choose(sim: SimTable, seat: int, action: Action) -> None:
    """The player of game seat `seat` chooses `action` in its menu with the buttons."""
    actions = game_actions(session(sim), seat)
    assert action in actions, (action, actions)
    press_choice(sim, TABLE_SEAT[seat], [c.action for c in session(sim).menu(seat)].index(action))


def stage(t: TwoTables, name: str) -> bool:
    """Both tables are in step at the exchange's stage `name`."""
    return t.in_step() and all(s.state.phase == EXCHANGE and s.state.exchange.stage == name
                               for s in (t.host_session, t.join_session))


def sims(t: TwoTables) -> dict[int, SimTable]:
    return {0: t.a, 1: t.b}


# the Échange card laid at either table; the game is then played to its end, or (a shorter test) to
# the end of the round, where every card exchanged has been laid from its holder's menu
@pytest.mark.parametrize(("taker", "whole"), [(0, False), (1, True)])
def test_a_blind_exchange_across_tables_is_made_at_both_tables_and_the_game_goes_on_to_its_end(broker, taker, whole):
    victim = 1 - taker
    t = TwoTables(broker, "zop", {}, seed=11)
    try:
        t.join(t.code)
        assert t.wait(t.in_step), t.describe()
        assert t.host_session.config.option("tables") == t.join_session.config.option("tables") == "two"
        at = sims(t)
        gesture(at[taker], taker, {"type": "commit", "card": SWAP[taker]})
        gesture(at[victim], victim, {"type": "commit", "card": OTHER[victim]})
        assert t.wait(lambda: stage(t, PICK)), t.describe()
        while t.act_instruction():  # the revealed cards go to the lines
            pass
        assert t.wait(lambda: "mélangez votre main" in screen_words(at[victim], TABLE_SEAT[victim])), \
            screen_words(at[victim], TABLE_SEAT[victim])
        choose(at[taker], taker, {"type": "pick", "slot": 2})
        assert t.wait(lambda: stage(t, SHOW)), t.describe()
        assert t.wait(lambda: "Il prend la n°2" in screen_words(at[victim], TABLE_SEAT[victim]))
        gesture(at[victim], victim, {"type": "hand_over", "card": TAKEN[victim]})
        assert t.wait(lambda: stage(t, GIVE)), t.describe()
        assert t.wait(lambda: "Pris : Att 5" in screen_words(at[taker], TABLE_SEAT[taker])), \
            screen_words(at[taker], TABLE_SEAT[taker])
        gesture(at[taker], taker, {"type": "give", "card": GIVEN[taker]})
        assert t.wait(lambda: t.in_step() and t.host_session.state.phase == COMMIT), t.describe()
        for s in (t.host_session, t.join_session):
            assert s.state.sides[taker].held == (TAKEN[victim],) and s.state.sides[victim].held == (GIVEN[taker],)
        assert t.host_session.state == t.join_session.state
        # the cards shown are set aside at each table, as its screens say
        while t.act_instruction():
            pass
        assert t.wait(t.in_step)
        # each lays the other's card from its menu
        choose(at[taker], taker, {"type": "commit", "card": TAKEN[victim]})
        choose(at[victim], victim, {"type": "commit", "card": GIVEN[taker]})
        assert t.wait(lambda: t.in_step() and t.host_session.state.turn == 3), t.describe()
        assert t.host_session.state.turns[-1].cards == t.join_session.state.turns[-1].cards
        assert t.host_session.state.turns[-1].cards[taker] == (TAKEN[victim],)
        t.fair = True  # players who lay at the same time: either table may be first
        if whole:
            t.play_to_end()
            t.assert_same_end()
            return
        while not t.host_session.state.results:
            assert t.wait(t.in_step), t.describe()
            assert t.act(), t.describe()
        assert t.wait(t.in_step), t.describe()
        assert t.host_session.state == t.join_session.state and t.host_session.state.results[0].played == (20, 20)
        assert t.joined is not None and t.joined.seats.mismatches == 0
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


def said(sim: SimTable, seat: int, words: str) -> bool:
    """The seat's screen, or a message it shows now, says `words`."""
    parts = [p.fr for n in session(sim).ui[seat].notices for p in n.parts]
    return words in screen_words(sim, TABLE_SEAT[seat]) or any(words in p for p in parts)


def refused_as_it_was(t: TwoTables, sim: SimTable, seat: int, card: str, words: str) -> None:
    """`card` laid on the seat's pad is refused with `words` on its screen; both tables' games stay as
    they were; the card taken off again."""
    before = (t.host_session.state, len(t.host_session.moves), len(t.join_session.moves))
    zone = session(sim).to_physical(f"pad.{seat}")
    sim.place(zone, card)
    sim.settle()
    assert t.wait(lambda: said(sim, seat, words)), (words, screen_words(sim, TABLE_SEAT[seat]))
    assert t.wait(t.in_step), t.describe()
    assert (t.host_session.state, len(t.host_session.moves), len(t.join_session.moves)) == before
    assert t.join_session.state == t.host_session.state
    sim.remove(zone, card)
    sim.settle()
    assert t.wait(lambda: t.in_step() and session(sim).instruction is None), t.describe()


def exchange_opened(t: TwoTables, slot: int) -> None:
    """Both tables joined, the Échange card laid at the host against a card of the joining player's,
    and the host's player picking place `slot`: the victim is to show its card."""
    t.join(t.code)
    assert t.wait(t.in_step), t.describe()
    gesture(t.a, 0, {"type": "commit", "card": SWAP[0]})
    gesture(t.b, 1, {"type": "commit", "card": OTHER[1]})
    assert t.wait(lambda: stage(t, PICK)), t.describe()
    while t.act_instruction():
        pass
    choose(t.a, 0, {"type": "pick", "slot": slot})
    assert t.wait(lambda: stage(t, SHOW)), t.describe()


def test_a_wrong_card_laid_in_an_exchange_across_tables_is_refused_with_its_reason_and_changes_nothing(broker):
    t = TwoTables(broker, "zop", {}, seed=12)
    try:
        exchange_opened(t, 1)
        # at the victim's table: a card of the other deck, then the card it played this turn
        refused_as_it_was(t, t.b, 1, "zop/light/attack/6", "Cette carte est à l'adversaire.")
        refused_as_it_was(t, t.b, 1, OTHER[1], "Carte jouée : rangez-la dans votre ligne.")
        gesture(t.b, 1, {"type": "hand_over", "card": TAKEN[1]})
        assert t.wait(lambda: stage(t, GIVE)), t.describe()
        # at the taker's table: a Reculer pour mieux sauter is never given back
        refused_as_it_was(t, t.a, 0, "zop/light/special/3", "Vous ne pouvez pas donner cette carte.")
        gesture(t.a, 0, {"type": "give", "card": GIVEN[0]})
        assert t.wait(lambda: t.in_step() and t.host_session.state.phase == COMMIT), t.describe()
        while t.act_instruction():
            pass
        # the card taken lies aside at the victim's table: laid again on its pad, it is refused
        refused_as_it_was(t, t.b, 1, TAKEN[1], "Carte échangée : mettez-la de côté.")
    finally:
        t.close()


@pytest.mark.parametrize("which", ["b", "a"])
def test_a_table_cut_off_in_an_exchange_across_tables_takes_it_up_from_its_journal(broker, tmp_path, which):
    t = TwoTables(broker, "zop", {}, seed=13, journals=(tmp_path / "a.sqlite", tmp_path / "b.sqlite"))
    try:
        exchange_opened(t, 3)
        t.power_cut(which)  # in the middle of the exchange: the victim has not shown its card yet
        t.restart(which)
        assert t.wait(lambda: stage(t, SHOW)), t.describe()
        assert t.wait(lambda: "Il prend la n°3" in screen_words(t.b, 3)), screen_words(t.b, 3)
        gesture(t.b, 1, {"type": "hand_over", "card": TAKEN[1]})
        assert t.wait(lambda: stage(t, GIVE)), t.describe()
        gesture(t.a, 0, {"type": "give", "card": GIVEN[0]})
        assert t.wait(lambda: t.in_step() and t.host_session.state.phase == COMMIT), t.describe()
        assert t.host_session.state == t.join_session.state
        assert t.host_session.state.sides[0].held == (TAKEN[1],) and t.host_session.state.sides[1].held == (GIVEN[0],)
        assert t.joined is not None and t.joined.seats.mismatches == 0
    finally:
        t.close()

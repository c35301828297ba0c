"""Operation: Mata Hari on the table: sensed pads and covers become actions through the session."""

from __future__ import annotations

import pytest

from firmware_host.apps.session import GameSession
from firmware_host.storage.tags import sim_registry, sim_uid
from games.core import GameConfig
from games.mata_hari import GAME
from games.mata_hari.pieces import card_set, setup
from tests.kits import menus
from tests.kits.mata_hari_kit import obj, res

SEATS = (1, 2, 3)  # game seat i sits at table seat i + 1
ZONES = {"centre.1", "seat1.pad", "seat2.pad", "seat3.pad"}


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Table:
    """The physical table as the session senses it: zone -> pieces."""

    def __init__(self) -> None:
        self.session = GameSession(GAME, GameConfig(players=3), SEATS, sim_registry(GAME.pieces()), ZONES,
                                   Clock(), auto_chance=False)
        self.zones: dict[str, set[str]] = {}
        self.session.sense({})

    def sense(self) -> None:
        self.session.sense({z: frozenset(sim_uid(p) for p in ps) for z, ps in self.zones.items() if ps})

    def place(self, zone: str, piece: str) -> None:
        self.zones.setdefault(zone, set()).add(piece)
        self.sense()

    def remove(self, zone: str, *pieces: str) -> None:
        self.zones[zone] -= set(pieces) if pieces else set(self.zones[zone])
        self.sense()

    def button(self, seat: int, /, **action: object) -> None:
        assert action in menus.game_actions(self.session, seat), (action, self.session.menu(seat))
        assert self.session.apply(seat, action)
        self.session.reconcile()


HANDS = {
    0: [res("documents", v) for v in range(1, 8)] + [res("gants", v) for v in range(1, 7)],
    1: [res("pistolets", v) for v in range(1, 8)] + [res("photographies", v) for v in range(1, 7)],
    2: [res("mallettes", v) for v in range(1, 8)] + [res("deguisements", v) for v in range(1, 7)],
}


@pytest.fixture
def table() -> Table:
    t = Table()
    for cover in card_set().covers:
        t.place("centre.1", cover)  # the stock must be there before the game can read moves
    for seat, cards in HANDS.items():
        pad = f"seat{SEATS[seat]}.pad"
        t.place(pad, [obj("documents"), obj("gants"), obj("pistolets")][seat])
        for c in cards:
            t.place(pad, c)  # a batch laid one card after another
        assert t.session.instruction is None
        t.remove(pad)  # lifted at once
    return t


def test_the_deal_is_sensed_card_by_card_and_lifted(table: Table) -> None:
    state = table.session.state
    assert state.phase == "offer" and [len(s.hand) for s in state.seats] == [13, 13, 13]
    assert sorted(state.seats[1].hand) == sorted(HANDS[1]) and state.seats[2].objective == obj("pistolets")
    kinds = [a["type"] for _, a in table.session.moves]
    assert kinds.count("deal") == 42 and kinds.count("lift") == 3
    assert len(state.pile) == len(setup(3).deck) - 39


def test_offers_on_pads_binding_demand_refusal_and_exchange(table: Table) -> None:
    s = table.session
    table.place("seat1.pad", res("documents", 7))
    assert s.moves[-1] == (0, {"type": "lay", "card": res("documents", 7)})
    for step in ({"type": "say", "what": "require"}, {"type": "quant", "q": "all"},
                 {"type": "cat", "cat": "colour"}, {"type": "pred", "value": "blue"}, {"type": "confirm"}):
        table.button(0, **step)
    assert s.state.phase == "counter"
    # J3 lays a green card against "j'exige : toutes bleues": refused, told to J3 only
    table.place("seat3.pad", res("deguisements", 2))
    fix, audience = s.instruction.fix, s.instruction.audience
    assert fix.kind == "remove" and audience == {2}
    assert s.seat_frame(2).banner.fr.endswith(". Carte contraire à l'exigence.")  # with its instruction
    assert not any("exigence" in n.text.fr for n in s.ui[1].notices)
    assert "exigence" not in (s.seat_frame(1).banner.fr if s.seat_frame(1).banner else "")
    table.remove("seat3.pad")
    assert s.instruction is None
    # J2 answers with a blue card and confirms; J1 accepts
    table.place("seat2.pad", res("pistolets", 3))
    table.button(1, type="confirm")
    table.button(0, type="accept", seat=1)
    assert res("pistolets", 3) in s.state.seats[0].hand and res("documents", 7) in s.state.seats[1].hand
    assert s.instruction is None  # the cards still lie on the pads, as expected
    table.remove("seat2.pad")  # J1 takes J2's card
    table.remove("seat1.pad")  # J2 takes J1's card
    assert s.instruction is None and s.state.active == 1 and s.state.phase == "offer"


def test_refusal_draws_are_sensed_and_the_cover_is_lifted(table: Table) -> None:
    s = table.session
    table.place("seat1.pad", res("gants", 1))
    table.button(0, type="confirm")
    table.button(0, type="refuse")
    assert s.state.phase == "draw"
    drawn = s.state.pile[:2]
    for c in drawn:
        table.place("seat1.pad", c)
    assert set(drawn) <= set(s.state.seats[0].hand) and s.state.phase == "settle"
    assert s.leds()["centre.1"] == "red"
    table.remove("centre.1", card_set().covers[4])
    assert s.state.seats[0].compromis == 1 and s.state.active == 1
    table.remove("seat1.pad")
    assert s.instruction is None


def test_menu_labels_name_the_card_or_the_whole_pad() -> None:
    state = GAME.initial_state(GameConfig(3))
    whole = GAME.describe_action(state, 0, {"type": "lift"})
    assert (whole.fr, whole.en) == ("Ramasser le pad", "Lift the pad")
    one = GAME.describe_action(state, 0, {"type": "lift", "card": res("documents", 5)})
    assert one.fr.startswith("Ramasser ") and "None" not in one.fr and one != whole
    accuse = GAME.describe_action(state, 0, {"type": "accuse", "target": 1})
    assert (accuse.fr, accuse.en) == ("Accuser J2…", "Accuse P2…")

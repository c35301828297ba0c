"""Operation: Mata Hari: the three partners and counter-espionage accusations."""

from __future__ import annotations

from dataclasses import replace

from games.core import normalise_layout, to_json
from games.mata_hari import GAME
from games.mata_hari.state import MHState, owed, with_seat
from tests.kits.gamekit import check_illegal_leaves_state
from tests.kits.mata_hari_kit import dealt, lay_all, lift_all, par, play, res, say, step

D7, G2, G4, P6, P5 = res("documents", 7), res("gants", 2), res("gants", 4), res("pistolets", 6), res("pistolets", 5)
DA, HIT, MH = par("double-agent"), par("hitman"), par("mata-hari")


def _offered(hands: dict[int, list[str]], active: list[str], counters: dict[int, list[str]],
             players: int = 4) -> MHState:
    state = dealt(players, hands)
    state = play(lay_all(state, 0, active), 0, type="confirm")
    for seat, cards in counters.items():
        state = play(lay_all(state, seat, cards), seat, type="confirm")
    return state


# -- Double Agent ------------------------------------------------------------------------------


def test_double_agent_lets_its_holder_lie_and_changes_hands() -> None:
    state = lay_all(dealt(4, {0: [D7, G2, DA], 1: [G4, P6]}), 0, [D7, G2])
    state = play(state, 0, type="say", what="declare")
    state = play(state, 0, type="quant", q="least", n=1)
    state = play(state, 0, type="cat", cat="colour")
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "pred", "value": "blue"}).code == "false_statement"
    state = play(state, 0, type="cancel")
    state = play(state, 0, type="take_back", card=G2)
    state = play(state, 0, type="lay", card=DA)
    assert GAME.view(state, 0).me.may_lie is True
    state = say(state, 0, "declare", "all", 0, "colour", "blue")  # a lie: red card + Double Agent
    state = play(state, 0, type="confirm")
    assert "may_lie" not in str(GAME.view(state, 1).seats)
    state = play(lay_all(state, 1, [G4, P6]), 1, type="confirm")
    state = play(state, 0, type="accept", seat=1)
    assert DA in state.seats[1].hand and DA not in state.seats[0].hand


def test_double_agent_in_a_counter_offer_allows_a_false_declaration() -> None:
    state = _offered({0: [D7], 1: [DA, G2]}, [D7], {})
    state = play(state, 1, type="lay", card=DA)
    state = say(state, 1, "declare", "all", 0, "value", 7)
    state = play(state, 1, type="confirm")
    assert state.seats[1].status == "confirmed"


# -- Hitman ------------------------------------------------------------------------------------


def test_hitman_victim_is_compromised_and_must_substitute_demanded_cards() -> None:
    state = _offered({0: [HIT, D7], 1: [G2, G4, P6, P5]}, [HIT, D7], {1: [G2, G4]})
    result = step(state, 0, type="accept", seat=1, hitman=True)
    state = result.state
    assert state.phase == "hitman" and owed(state, 1) == 1
    assert any(e.kind == "hitman" and e.audience is None for e in result.effects)
    state = say(state, 0, "hitman", "least", 1, "colour", "blue")  # "j'exige au moins une bleue"
    assert state.phase == "swap"
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "confirm"}).code == "breaks_demand"
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "lay", "card": P6}).code == "offer_full"
    state = play(state, 1, type="take_back", card=G2)
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "lay", "card": G2}).code == "breaks_demand"
    state = play(state, 1, type="lay", card=P6)
    state = play(state, 1, type="confirm")
    assert set(state.seats[0].hand) >= {G4, P6} and set(state.seats[1].hand) >= {HIT, D7}
    assert state.phase == "settle"  # the victim still owes its Compromis cover
    state = play(state, 1, type="take_cover", cover=state.stock[0])
    assert state.seats[1].compromis == 1 and state.phase == "offer" and state.active == 1


def test_hitman_demand_the_victim_cannot_meet_leaves_the_exchange_as_it_was() -> None:
    state = _offered({0: [HIT, D7], 1: [G2, G4]}, [HIT, D7], {1: [G2, G4]})
    state = play(state, 0, type="accept", seat=1, hitman=True)
    state = say(state, 0, "hitman", "all", 0, "value", 7)  # the victim holds no 7 at all
    assert state.phase == "settle" and state.exchanged_with == 1
    assert set(state.seats[0].hand) >= {G2, G4} and HIT in state.seats[1].hand


def test_hitman_without_demand_and_hitman_in_a_counter_offer() -> None:
    state = _offered({0: [HIT, D7], 1: [G2, G4]}, [HIT, D7], {1: [G2, G4]})
    state = play(state, 0, type="accept", seat=1, hitman=True)
    state = play(state, 0, type="no_demand")
    assert set(state.seats[0].hand) >= {G2, G4} and owed(state, 1) == 1
    # A Hitman offered by another player has no effect: it just changes hands.
    state = _offered({0: [D7], 1: [HIT]}, [D7], {1: [HIT]})
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "accept", "seat": 1, "hitman": True}).code == "no_hitman"
    state = play(state, 0, type="accept", seat=1)
    assert HIT in state.seats[0].hand and owed(state, 1) == 0 and state.phase == "offer"


# -- Mata Hari ---------------------------------------------------------------------------------


def test_mata_hari_turns_compromis_to_incognito_and_picks_two_from_the_pile() -> None:
    state = dealt(4, {0: [MH, D7]})
    # Seat 0 already holds two Compromis covers.
    state = replace(with_seat(state, 0, compromis=2, covers=state.stock[:2]), stock=state.stock[2:])
    state = play(lay_all(state, 0, [MH, D7]), 0, type="confirm")
    state = play(state, 0, type="mata_hari")
    me = state.seats[0]
    assert (me.compromis, me.incognito, me.picks) == (0, 2, 2) and MH in me.hand
    assert GAME.view(state, 0).me.pile == state.pile
    assert GAME.view(state, 1).me.pile is None
    first, second = state.pile[0], state.pile[-1]
    fp = normalise_layout(GAME.footprint(state, 0, {"type": "pick", "card": first}))
    assert first in fp["pad.0"]
    state = play(state, 0, type="pick", card=first)
    state = play(state, 0, type="pick", card=second)
    assert {first, second} <= set(state.seats[0].hand)
    assert state.phase == "offer" and state.active == 1


def test_mata_hari_only_without_counter_offers_and_only_in_the_offer() -> None:
    state = _offered({0: [MH, D7], 1: [G2]}, [MH], {1: [G2]})
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "mata_hari"}).code == "offers_made"
    state = _offered({0: [D7]}, [D7], {})
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "mata_hari"}).code == "no_mata_hari"
    state = _offered({0: [MH]}, [MH], {})
    state = play(state, 0, type="mata_hari")
    state = play(state, 0, type="pick", card=state.pile[0])
    state = play(state, 0, type="pick_done")
    assert state.phase == "offer" and state.active == 1


# -- counter-espionage -------------------------------------------------------------------------


def test_founded_accusation_reveals_and_removes_the_partner() -> None:
    state = _offered({0: [D7], 1: [DA]}, [D7], {1: [DA]})
    state = play(state, 2, type="accuse", target=1)
    result = step(state, 2, type="accuse", target=1, partner="double-agent")
    state = result.state
    verdict = [e for e in result.effects if e.kind == "verdict"]
    assert verdict and verdict[0].audience is None and verdict[0].data["founded"] is True
    assert DA in state.removed and DA not in state.seats[1].hand
    assert state.seats[1].status == "withdrawn" and owed(state, 1) == 1 and state.seats[2].picks == 1
    assert DA in normalise_layout(GAME.expected_layout(state))["pad.1"]  # still lying there, to lift
    assert GAME.view(state, 2).me.pile == state.pile
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "refuse"}).code == "pending"
    state = play(state, 2, type="pick", card=state.pile[0])
    state = play(state, 1, type="take_cover", cover=state.stock[0])
    assert state.seats[1].compromis == 1
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "accept", "seat": 1}).code == "no_offer"
    state = play(state, 0, type="refuse")
    assert state.phase == "draw"


def test_unfounded_accusation_shows_the_offer_to_the_accuser_only() -> None:
    state = _offered({0: [D7], 1: [G2]}, [D7], {1: [G2]})
    state = play(state, 2, type="accuse", target=1)
    result = step(state, 2, type="accuse", target=1, partner="hitman")
    state = result.state
    reveal = [e for e in result.effects if e.kind == "reveal"]
    assert reveal[0].audience == frozenset({2}) and reveal[0].data["cards"] == [G2]
    verdict = [e for e in result.effects if e.kind == "verdict"]
    assert verdict[0].audience is None and G2 not in str(verdict[0].data)
    assert to_json(GAME.view(state, 2).me.seen) == [{"seat": 1, "cards": [G2]}]
    assert G2 not in str(GAME.view(state, 3)) and G2 not in str(GAME.view(state, 0))
    assert owed(state, 2) == 1 and owed(state, 1) == 0
    # « À tout moment … un joueur peut accuser un autre »: accusing the same seat again is allowed
    assert GAME.check(state, 2, {"type": "accuse", "target": 1}) is None
    assert check_illegal_leaves_state(GAME, state, 2, {"type": "accuse", "target": 3}).code == "bad_target"
    state = play(state, 2, type="take_cover", cover=state.stock[0])
    # accuser (2) and accused (1) may not exchange; the active player still may take 1's offer
    assert GAME.check(state, 0, {"type": "accept", "seat": 1}) is None


def test_unfounded_accusation_by_the_active_player_bars_that_exchange() -> None:
    state = _offered({0: [D7], 1: [G2]}, [D7], {1: [G2]})
    state = play(state, 0, type="accuse", target=1)
    state = play(state, 0, type="accuse", target=1, partner="mata-hari")
    state = play(state, 0, type="take_cover", cover=state.stock[0])
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "accept", "seat": 1}).code == "blocked"


def test_unfounded_accusation_of_the_active_player_bars_the_accusers_counter_offer() -> None:
    state = _offered({0: [D7], 1: [G2]}, [D7], {})
    state = play(state, 1, type="accuse", target=0)
    state = play(state, 1, type="accuse", target=0, partner="double-agent")
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "lay", "card": G2}).code == "blocked"


def test_founded_accusation_of_the_active_player_ends_the_turn_without_exchange() -> None:
    state = _offered({0: [MH, D7], 1: [G2, G4]}, [MH, D7], {1: [G2, G4]})
    state = play(state, 3, type="accuse", target=0)
    state = play(state, 3, type="accuse", target=0, partner="mata-hari")
    assert state.phase == "settle" and MH in state.removed and owed(state, 0) == 1
    assert all(s.offer == () for s in state.seats)
    state = play(state, 3, type="pick_done")
    state = play(state, 0, type="take_cover", cover=state.stock[0])
    assert state.phase == "offer" and state.active == 1 and state.exchanged_with is None
    state = lift_all(state)
    assert D7 in state.seats[0].hand and G2 in state.seats[1].hand


def test_covers_due_are_taken_one_at_a_time_in_rule_order() -> None:
    state = _offered({0: [D7], 1: [DA], 2: [G2]}, [D7], {1: [DA]})
    state = play(state, 3, type="accuse", target=1)
    state = play(state, 3, type="accuse", target=1, partner="hitman")  # unfounded: J4 owes a cover
    state = play(state, 2, type="accuse", target=1)
    state = play(state, 2, type="accuse", target=1, partner="double-agent")  # founded: J2 owes one
    assert state.covers_due == (3, 1)
    cover = state.stock[0]
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "take_cover", "cover": cover}).code == "cover_queue"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "take_cover", "cover": cover}).code == "no_cover_owed"
    state = play(state, 3, type="take_cover", cover=cover)
    state = play(state, 1, type="take_cover", cover=state.stock[-1])
    assert (state.seats[3].compromis, state.seats[1].compromis) == (1, 1)

"""Operation: Mata Hari: a turn — offer, declarations, demands, counter-offers, resolution."""

from __future__ import annotations

from games.core import CHANCE, GameConfig, normalise_layout, to_json
from games.mata_hari import GAME
from games.mata_hari.rules_statements import Statement, evaluate, feasible, quant_options, statement_label
from games.mata_hari.state import owed
from tests.kits.gamekit import check_illegal_leaves_state
from tests.kits.mata_hari_kit import dealt, lay_all, lift_all, par, play, res, say, step

D7, D2, G2, G4, P6, M1 = (res("documents", 7), res("documents", 2), res("gants", 2), res("gants", 4),
                          res("pistolets", 6), res("mallettes", 1))


def test_active_player_lays_one_to_three_cards_then_confirms() -> None:
    state = dealt(4, {0: [D7, D2, G2, G4]})
    assert GAME.to_act(state) == {0}
    exc = check_illegal_leaves_state(GAME, state, 0, {"type": "confirm"})
    assert exc.code == "wrong_size"
    state = lay_all(state, 0, [D7, D2, G2])
    assert normalise_layout(GAME.expected_layout(state))["pad.0"] == {D7, D2, G2}
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "lay", "card": G4}).code == "offer_full"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "lay", "card": P6}).code == "not_in_hand"
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "lay", "card": P6}).code == "not_now"
    state = play(state, 0, type="take_back", card=D2)
    assert state.seats[0].offer == (D7, G2)
    state = play(state, 0, type="confirm")
    assert state.phase == "counter"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "take_back", "card": D7}).code == "not_now"


def test_declarations_must_be_true_and_menus_offer_only_true_ones() -> None:
    state = lay_all(dealt(4, {0: [D7, G2]}), 0, [D7, G2])
    state = play(state, 0, type="say", what="declare")
    quants = [a for a in GAME.legal_actions(state, 0) if a["type"] == "quant"]
    assert {"type": "quant", "q": "least", "n": 1} in quants and {"type": "quant", "q": "exact", "n": 1} in quants
    state = play(state, 0, type="quant", q="all")
    cats = [a["cat"] for a in GAME.legal_actions(state, 0) if a["type"] == "cat"]
    assert "colour" not in cats and "family" in cats  # no colour is shared by a red and a green card
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "cat", "cat": "colour"}).code == "false_statement"
    state = play(state, 0, type="cat", cat="above")
    values = [a["value"] for a in GAME.legal_actions(state, 0) if a["type"] == "pred"]
    assert values == [1]  # "toutes ont une valeur supérieure à 1": 7 and 2
    state = play(state, 0, type="cancel")
    state = say(state, 0, "declare", "least", 1, "colour", "red")
    state = say(state, 0, "declare", "all", 0, "above", 1)  # "toutes ont une valeur supérieure à 1"
    assert [statement_label(s).fr for s in state.seats[0].statements] == ["≥1 rouge", "toutes valeur > 1"]
    state = play(state, 0, type="say", what="declare")
    state = play(state, 0, type="quant", q="least", n=1)
    state = play(state, 0, type="cat", cat="object")
    exc = check_illegal_leaves_state(GAME, state, 0, {"type": "pred", "value": "pistolets"})
    assert exc.code == "false_statement"
    state = play(state, 0, type="cancel")
    state = play(state, 0, type="say", what="declare")
    state = play(state, 0, type="quant", q="least", n=1)
    state = play(state, 0, type="cat", cat="colour")
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "pred", "value": "red"}).code == "duplicate"


def test_at_most_three_statements_and_changing_cards_clears_them() -> None:
    state = lay_all(dealt(4, {0: [D7, G2, G4]}), 0, [D7, G2])
    state = say(state, 0, "declare", "least", 1, "colour", "red")
    state = say(state, 0, "declare", "least", 1, "colour", "green")
    state = say(state, 0, "declare", "all", 0, "family", "resource")
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "say", "what": "declare"}).code == "too_many"
    state = say(state, 0, "require", "least", 1, "colour", "blue")
    assert state.demand is not None
    state = play(state, 0, type="lay", card=G4)
    assert state.seats[0].statements == () and state.demand is None


def test_rulebook_example_1_free_demand_lets_anyone_counter_offer() -> None:
    # Claude lays 3 cards: "these two are red, about the third I say nothing; I'd like cards < 3".
    state = dealt(5, {0: [D7, D2, G4], 1: [M1, res("pistolets", 4), res("gants", 4 - 1)],
                      2: [res("pistolets", 2), res("mallettes", 2), res("gants", 5)]})
    state = lay_all(state, 0, [D7, D2, G4])
    state = say(state, 0, "declare", "exact", 2, "colour", "red")
    state = say(state, 0, "want", "all", 0, "below", 3)
    state = play(state, 0, type="confirm")
    assert GAME.view(state, None).demand.mode == "want"
    # Jacques: "one is below 3, as asked" — free demand: any cards are fine.
    state = lay_all(state, 1, [M1, res("pistolets", 4), res("gants", 3)])
    state = say(state, 1, "declare", "least", 1, "below", 3)
    state = play(state, 1, type="confirm")
    # Amélie: "two are blue, the other is green."
    state = lay_all(state, 2, [res("pistolets", 2), res("mallettes", 2), res("gants", 5)])
    state = say(state, 2, "declare", "exact", 2, "colour", "blue")
    state = say(state, 2, "declare", "exact", 1, "colour", "green")
    state = play(state, 2, type="confirm")
    assert [s.status for s in state.seats[:3]] == ["idle", "confirmed", "confirmed"]
    said = to_json(GAME.view(state, 4).seats[2].said)
    assert said == [{"q": "exact", "n": 2, "cat": "colour", "value": "blue"},
                    {"q": "exact", "n": 1, "cat": "colour", "value": "green"}]


def test_rulebook_example_2_binding_demand_filters_counter_offers() -> None:
    # Marc: 2 cards, "one of them is a 7; in exchange I demand at least one blue card".
    thomas = [D2, G2, G4, res("manteaux", 1)]
    jacques = [P6, res("manteaux", 3)]
    state = dealt(5, {0: [D7, res("documents", 3)], 1: thomas, 2: [M1, res("poisons", 2)], 3: jacques},
                  lift=True)
    state = lay_all(state, 0, [D7, res("documents", 3)])
    state = say(state, 0, "declare", "least", 1, "value", 7)
    state = say(state, 0, "require", "least", 1, "colour", "blue")
    state = play(state, 0, type="confirm")
    # Thomas has no blue card: every card he lays would break the demand.
    reds_greens = [c for c in state.seats[1].hand]
    assert all(GAME.check(state, 1, {"type": "lay", "card": c}).code == "breaks_demand" for c in reds_greens)
    exc = check_illegal_leaves_state(GAME, state, 1, {"type": "lay", "card": D2})
    assert exc.rejection.message.fr and exc.code == "breaks_demand"
    # Louise has blue cards but offers nothing.
    state = play(state, 2, type="pass")
    # Jacques lays a blue card and the Coat: "one is blue as asked, the other is the Coat".
    state = lay_all(state, 3, [P6, res("manteaux", 3)])
    state = say(state, 3, "declare", "least", 1, "colour", "blue")
    state = say(state, 3, "declare", "least", 1, "object", "manteaux")
    state = play(state, 3, type="confirm")
    state = play(state, 0, type="accept", seat=3)
    assert P6 in state.seats[0].hand and D7 in state.seats[3].hand


def test_partners_are_exempt_from_a_binding_demand() -> None:
    state = dealt(5, {0: [D7], 1: [par("double-agent"), G2, G4]})
    state = lay_all(state, 0, [D7])
    state = say(state, 0, "require", "all", 0, "colour", "blue")
    state = play(state, 0, type="confirm")
    assert GAME.check(state, 1, {"type": "lay", "card": G2}).code == "breaks_demand"
    state = play(state, 1, type="lay", card=par("double-agent"))
    state = play(state, 1, type="confirm")
    assert state.seats[1].status == "confirmed"


def test_counter_offer_must_have_the_same_number_of_cards() -> None:
    state = lay_all(dealt(4, {0: [D7, D2], 1: [G2, G4, res("gants", 5)]}), 0, [D7, D2])
    state = play(state, 0, type="confirm")
    state = play(state, 1, type="lay", card=G2)
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "confirm"}).code == "wrong_size"
    state = play(state, 1, type="lay", card=G4)
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "lay", "card": res("gants", 5)}).code == "offer_full"


def test_resolution_waits_for_counter_offers_being_made() -> None:
    state = lay_all(dealt(4, {0: [D7], 1: [G2]}), 0, [D7])
    state = play(state, 0, type="confirm")
    assert GAME.to_act(state) >= {0, 1, 2, 3}  # several seats act at once
    state = play(state, 1, type="lay", card=G2)
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "refuse"}).code == "waiting_offers"
    state = play(state, 1, type="confirm")
    assert GAME.check(state, 0, {"type": "refuse"}) is None
    assert GAME.check(state, 0, {"type": "accept", "seat": 2}).code == "no_offer"


def test_accepted_exchange_is_secret_and_other_offers_go_back() -> None:
    state = dealt(4, {0: [D7], 1: [G2], 2: [G4]})
    state = play(lay_all(state, 0, [D7]), 0, type="confirm")
    state = play(lay_all(state, 1, [G2]), 1, type="confirm")
    state = play(lay_all(state, 2, [G4]), 2, type="confirm")
    result = step(state, 0, type="accept", seat=1)
    after = result.state
    assert G2 in after.seats[0].hand and D7 in after.seats[1].hand and G4 in after.seats[2].hand
    secret = [e for e in result.effects if e.kind == "receive"]
    assert {e.audience for e in secret} == {frozenset({0}), frozenset({1})}
    public = [e for e in result.effects if e.audience is None]
    assert all(D7 not in str(e.data) and G2 not in str(e.data) for e in public)
    assert after.phase == "offer" and after.active == 1  # the turn passes clockwise
    # The cards still lie on the pads until the players pick them up: same layout as before.
    assert normalise_layout(GAME.expected_layout(after)) == normalise_layout(GAME.expected_layout(state))
    assert D7 not in str(GAME.view(after, 2)) and G2 not in str(GAME.view(after, 3))
    after = lift_all(after)
    assert "pad.0" not in normalise_layout(GAME.expected_layout(after))


def test_refusing_every_offer_draws_two_and_takes_a_compromis_cover() -> None:
    state = dealt(4, {0: [D7], 1: [G2]})
    state = play(lay_all(state, 0, [D7]), 0, type="confirm")
    state = play(lay_all(state, 1, [G2]), 1, type="confirm")
    state = play(state, 0, type="refuse")
    assert state.phase == "draw" and CHANCE in GAME.to_act(state)
    pile = len(state.pile)
    hand = len(state.seats[0].hand)
    for _ in range(2):
        outcome = GAME.chance_outcomes(state)[0][0]
        assert outcome["seat"] == 0
        state = GAME.apply(state, CHANCE, outcome).state
    assert len(state.pile) == pile - 2 and len(state.seats[0].hand) == hand + 2
    assert owed(state, 0) == 1 and state.phase == "settle"
    cover = state.stock[3]
    fp = normalise_layout(GAME.footprint(state, 0, {"type": "take_cover", "cover": cover}))
    assert cover not in fp["centre.1"]
    state = play(state, 0, type="take_cover", cover=cover)
    assert state.seats[0].compromis == 1 and len(state.stock) == 9
    assert state.phase == "offer" and state.active == 1


def test_with_no_counter_offer_the_active_player_draws_too() -> None:
    state = play(lay_all(dealt(3, {0: [D7]}), 0, [D7]), 0, type="confirm")
    state = play(state, 0, type="refuse")
    assert state.phase == "draw" and state.draws == 2 and owed(state, 0) == 1
    assert state.seats[0].offer == () and D7 in state.seats[0].hand and D7 in state.seats[0].loose


def test_malformed_and_unknown_actions_are_refused_without_change() -> None:
    state = dealt(3)
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "fly"}).code == "unknown_action"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "lay"}).code == "bad_action"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "lay", "card": 3, "x": 1}).code == "bad_action"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "lay", "card": ["x"]}).code == "not_in_hand"
    assert check_illegal_leaves_state(GAME, state, 0, {"no": "type"}).code == "bad_action"
    assert check_illegal_leaves_state(GAME, state, 7, {"type": "confirm"}).code == "bad_seat"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "deal", "seat": 0, "card": "x"}).code == "chance_only"
    state = play(state, 0, type="lay", card=state.seats[0].hand[0])
    state = play(state, 0, type="say", what="declare")
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "quant", "q": "least", "n": True}).code == "bad_quantifier"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "quant", "q": "all", "n": 0}).code == "bad_action"
    state = play(state, 0, type="quant", q="all")
    state = play(state, 0, type="cat", cat="value")
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "pred", "value": True}).code == "bad_value"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "pred", "value": "7"}).code == "bad_value"


def test_statement_language() -> None:
    assert quant_options(1) == [("all", 0), ("none", 0)]
    assert quant_options(3) == [("least", 1), ("least", 2), ("all", 0), ("none", 0), ("exact", 1), ("exact", 2)]
    assert evaluate(Statement("least", 1, "object", "poisons"), [res("poisons", 3), D7])
    assert evaluate(Statement("all", 0, "above", 6), [D7, res("gants", 7)])
    assert not evaluate(Statement("all", 0, "above", 6), [D7, par("hitman")])  # a partner has no value
    assert evaluate(Statement("exact", 1, "partner", "hitman"), [D7, par("hitman")])
    assert evaluate(Statement("none", 0, "colour", "blue"), [D7, G2])
    blue = Statement("least", 2, "colour", "blue")
    assert not feasible(blue, [D7], [P6], 3, wild=False)
    assert feasible(blue, [D7], [P6, M1], 3, wild=False)
    assert feasible(blue, [D7, par("mata-hari")], [P6], 3, wild=True)  # partners as wildcards
    assert not feasible(blue, [D7, par("mata-hari")], [P6], 3, wild=False)


def test_table_helpers_never_crash_on_bad_input() -> None:
    state = dealt(3)
    before = normalise_layout(GAME.expected_layout(state))
    for bad in ({"type": "lay", "card": ["x"]}, {"type": "lay"}, "junk", {"type": "deal", "seat": "x", "card": "y"},
                {"type": "take_cover", "cover": 5}, {"type": "accuse", "target": "x"}):
        assert normalise_layout(GAME.footprint(state, 0, bad)) == before  # type: ignore[arg-type]
        assert GAME.footprint(state, CHANCE, bad) is not None  # type: ignore[arg-type]
        assert GAME.describe_action(state, 0, bad).fr  # type: ignore[arg-type]
        assert GAME.check(state, 0, bad) is not None  # type: ignore[arg-type]
    assert GAME.legal_actions(state, 42) == [] and GAME.choices(state, 42) == []
    assert GAME.view(state, 42).me is None


def test_pass_and_withdraw_send_the_cards_back_and_end_that_seats_offer() -> None:
    state = play(lay_all(dealt(4, {0: [D7], 1: [G2], 2: [G4]}), 0, [D7]), 0, type="confirm")
    state = play(state, 1, type="lay", card=G2)
    state = play(state, 1, type="pass")
    assert state.seats[1].offer == () and state.seats[1].loose == (G2,) and G2 in state.seats[1].hand
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "lay", "card": G2}).code == "not_now"
    state = play(lay_all(state, 2, [G4]), 2, type="confirm")
    assert check_illegal_leaves_state(GAME, state, 2, {"type": "take_back", "card": G4}).code == "offer_locked"
    state = play(state, 2, type="withdraw")
    assert state.seats[2].status == "withdrawn" and state.seats[2].loose == (G4,)
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "accept", "seat": 2}).code == "no_offer"


def test_cards_on_the_pad_must_be_lifted_before_laying_an_offer() -> None:
    state = dealt(3, {0: [D7]}, lift=False)
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "lay", "card": D7}).code == "pad_busy"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "lift", "card": "nope"}).code == "not_on_pad"
    state = play(state, 0, type="lift")
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "lift"}).code == "pad_empty"
    assert GAME.check(state, 0, {"type": "lay", "card": D7}) is None


def test_a_card_laid_against_a_binding_demand_is_explained_to_its_owner_only() -> None:
    state = dealt(5, {0: [D7], 1: [G2, G4], 2: [P6]})
    state = lay_all(state, 0, [D7])
    state = say(state, 0, "require", "all", 0, "colour", "blue")
    state = play(state, 0, type="confirm")
    why = GAME.explain(state, 1, "pad.1", G2)
    assert why is not None and why.code == "breaks_demand"
    assert GAME.explain(state, 2, "pad.1", G2) is None  # not that seat's pad
    assert GAME.explain(state, 2, "pad.2", P6) is None  # a legal lay
    assert GAME.explain(state, 1, "pad.1", state.pile[0]).code == "in_pile"
    assert GAME.explain(state, 1, "pad.1", P6).code == "not_in_hand"
    assert GAME.highlights(state)["pad.0"] == "green"


def test_explain_during_the_deal_names_cards_out_of_play() -> None:
    state = GAME.initial_state(GameConfig(players=3))
    assert GAME.explain(state, 0, "pad.0", par("hitman", 6)).code == "not_in_play"
    state = play(state, CHANCE, type="deal", seat=1, card=D7)
    assert GAME.explain(state, 0, "pad.0", D7).code == "already_known"
    assert GAME.highlights(state) == {}


def test_wrongly_typed_fields_are_refused_at_every_step() -> None:
    s0 = lay_all(dealt(4, {0: [D7]}), 0, [D7])
    s1 = play(s0, 0, type="say", what="declare")
    s2 = play(s1, 0, type="quant", q="all")
    s3 = play(s2, 0, type="cat", cat="colour")
    cases = [(s0, "say", "what"), (s1, "quant", "q"), (s2, "cat", "cat"), (s3, "pred", "value"),
             (s0, "lay", "card"), (s0, "take_back", "card"), (s0, "visionary", "value"),
             (s0, "lift", "card"), (s0, "pick", "card")]
    for state, kind, key in cases:
        for bad in ([1], {"a": 1}, None, 1.5, True):
            exc = check_illegal_leaves_state(GAME, state, 0, {"type": kind, key: bad})
            assert exc.code

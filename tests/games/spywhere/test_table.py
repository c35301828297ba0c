"""Spywhere on the physical table: pieces, labels, expected layout, gesture footprints, menus, texts."""

import pytest

from firmware_host.screens.layout import plan
from games.core import CHANCE, GameConfig, IllegalAction, centre, normalise_layout, pad
from games.spywhere import GAME
from games.spywhere.pieces import card_set, identification, passport
from games.spywhere.state import BONUS, DRAW, FINAL, IDENTIFY, REFILL, TAKE
from games.spywhere.texts import REFUSALS
from tests.kits import menus
from tests.kits.spywhere_kit import card, cards_of, make_state

SPAIN_PAIR = (card("espagne", 1), card("espagne", 2), card("france", 10), card("allemagne", 10), card("italie", 10))


def test_every_card_is_a_tagged_piece():
    pieces = GAME.pieces()
    assert len(pieces) == len(set(pieces)) == 108 + 6 + 36
    assert card("france", 18) in pieces and card("france", 19) not in pieces
    assert passport("italie") in pieces and identification("rouge", "espagne") in pieces
    assert all(p.startswith("spywhere/") and len(p.split("/")) == 4 for p in pieces)


def test_piece_labels_in_both_languages():
    assert GAME.piece_label(card("italie", 7)).fr == "la carte Italie n°7"
    assert GAME.piece_label(card("allemagne", 2)).en == "the Germany card #2"
    assert GAME.piece_label(passport("france")).fr == "le passeport France"
    assert GAME.piece_label(identification("bleu", "espagne")).fr == "l'identification bleue Espagne"
    assert GAME.piece_label("zop/light/attack/1").fr == "zop/light/attack/1"
    assert GAME.piece_label("spywhere/nationality/suisse/1").en == "spywhere/nationality/suisse/1"


def test_expected_layout_holds_only_the_centre_cards():
    state = make_state(centre=(None, *SPAIN_PAIR[1:]))
    layout = GAME.expected_layout(state)
    assert layout == {centre(i): frozenset({SPAIN_PAIR[i - 1]}) for i in range(2, 6)}


def test_footprints_are_the_gestures():
    state = make_state()
    before = normalise_layout(GAME.expected_layout(state))
    hand_card = state.hands[0][0]
    swap = {"type": "swap", "slot": 2, "card": hand_card}
    assert normalise_layout(GAME.footprint(state, 0, swap)) == {**before, centre(2): frozenset({hand_card})}
    # the swap footprint equals the layout after the swap (no side effect on other pieces)
    assert normalise_layout(GAME.footprint(state, 0, swap)) == normalise_layout(
        GAME.expected_layout(GAME.apply(state, 0, swap).state))
    draw = make_state(step=DRAW, active=1)
    fp = GAME.footprint(draw, CHANCE, {"type": "draw", "card": card("italie", 5)})
    assert normalise_layout(fp)[pad(1)] == frozenset({card("italie", 5)})  # scanned on the drawer's pad
    refill = make_state(step=REFILL, centre=(None, *SPAIN_PAIR[1:]))
    fp = GAME.footprint(refill, CHANCE, {"type": "centre", "slot": 1, "card": card("italie", 5)})
    assert normalise_layout(fp)[centre(1)] == frozenset({card("italie", 5)})
    take = make_state(step=TAKE, centre=(*cards_of("espagne", 1, 2, 3), card("allemagne", 10), card("italie", 10)))
    fp = normalise_layout(GAME.footprint(take, 0, {"type": "take", "slots": [1, 2, 3]}))
    assert set(fp) == {centre(4), centre(5)}
    ident = make_state(step=IDENTIFY)
    act = {"type": "identify", "target": 1, "nationality": "italie"}
    assert normalise_layout(GAME.footprint(ident, 0, act)) == normalise_layout(GAME.expected_layout(ident))


def test_setup_deals_are_scanned_on_the_receivers_pad():
    state = GAME.initial_state(GameConfig(players=5))
    fp = GAME.footprint(state, CHANCE, {"type": "passport", "to": 3, "card": passport("belgique")})
    assert normalise_layout(fp) == {pad(3): frozenset({passport("belgique")})}
    fp = GAME.footprint(state, CHANCE, {"type": "deal", "to": 4, "card": card("belgique", 4)})
    assert normalise_layout(fp) == {pad(4): frozenset({card("belgique", 4)})}
    fp = GAME.footprint(state, CHANCE, {"type": "centre", "slot": 5, "card": card("belgique", 4)})
    assert normalise_layout(fp) == {centre(5): frozenset({card("belgique", 4)})}


def test_footprint_of_an_illegal_action_raises():
    with pytest.raises(IllegalAction):
        GAME.footprint(make_state(), 0, {"type": "swap", "slot": 2, "card": card("italie", 10)})
    with pytest.raises(IllegalAction):
        GAME.footprint(make_state(), 0, {"nope": 1})


def test_menus_offer_the_button_actions_only():
    state = make_state()
    assert GAME.choices(state, 0) == []  # swaps are sensed
    assert GAME.choices(state, 1) == []
    take = make_state(step=TAKE, centre=(*cards_of("espagne", 1, 2, 3), card("allemagne", 10), card("italie", 10)))
    labels = [c.label.fr for c in GAME.choices(take, 0)]
    assert labels == ["Prendre Esp (1,2,3)", "Laisser le brelan"]
    ident = GAME.choices(make_state(step=IDENTIFY), 0)
    assert ident[0].label.fr == "Fin du tour" and ident[0].action == {"type": "end_turn"}
    assert {"type": "identify", "target": 2, "nationality": "italie"} in [c.action for c in ident]
    assert "J3 : Italie ?" in [c.label.fr for c in ident]
    final = GAME.choices(make_state(phase=FINAL, step=""), 2)
    assert final[0].label.fr == "Terminer" and len(final) == 1 + 2 * 5
    assert GAME.choices(make_state(step=BONUS), 0) == []


def test_leds_hint_public_things_only():
    setup = GAME.initial_state(GameConfig(players=5))
    assert GAME.highlights(setup) == {**{pad(s): "blue" for s in range(5)},
                                      **{centre(i): "green" for i in range(1, 6)}}
    assert GAME.highlights(make_state(step=DRAW, active=2)) == {pad(2): "blue"}
    assert GAME.highlights(make_state(step=REFILL, centre=(None, *SPAIN_PAIR[1:]))) == {centre(1): "green"}
    assert set(GAME.highlights(make_state())) == {centre(i) for i in range(1, 6)}
    # an own-nationality triple is lit exactly like a takeable one
    triple = (*cards_of("france", 11, 12, 13), card("allemagne", 10), card("italie", 10))
    own = make_state(step=TAKE, centre=triple)
    other = make_state(step=TAKE, centre=triple, nats=("espagne", "allemagne", "angleterre"))
    assert GAME.highlights(own) == GAME.highlights(other) == {centre(i): "yellow" for i in (1, 2, 3)}


def test_explain_a_refused_card_on_a_centre_slot():
    state = make_state()
    assert GAME.explain(state, 0, centre(2), card("italie", 4)).code == "not_in_hand"
    assert GAME.explain(state, 0, centre(2), state.hands[0][0]) is None
    assert GAME.explain(make_state(step=IDENTIFY), 0, centre(2), card("italie", 4)).code == "wrong_step"
    assert GAME.explain(state, 0, pad(0), card("italie", 4)) is None


def test_descriptions_never_crash_and_hide_secret_deals():
    state = make_state()
    for act in ({"type": "identify", "target": "x"}, {"type": "take", "slots": [9]}, {}, {"type": 3}):
        assert GAME.describe_action(state, 0, act).fr
    secret = GAME.describe_action(state, CHANCE, {"type": "passport", "to": 0, "card": passport("italie")})
    assert "Italie" not in secret.fr and "Italy" not in secret.en


def test_no_refusal_names_a_nationality():
    names = [n.name.fr for n in card_set().nationalities] + [n.name.en for n in card_set().nationalities]
    assert len(REFUSALS.keys()) >= 20
    for key in REFUSALS.keys():  # noqa: SIM118
        text = REFUSALS(key).message
        assert not any(name in text.fr or name in text.en for name in names)
        assert len(text.fr) <= 63 and len(text.en) <= 63  # three screen lines of 21 characters


def test_screens_and_menus_fit_a_128x64_screen():
    from games.playout import random_playout
    from tests.kits.spywhere_kit import patient_policy

    for players in (2, 4, 6):
        config = GameConfig(players=players)
        result = random_playout(GAME, config, players, policy=patient_policy)
        state = GAME.initial_state(GAME.validate_config(config))
        for i, (seat, act) in enumerate(result.moves + [(None, None)]):
            if i % 3 == 0 or act is None:
                for who in (None, *range(players)):
                    screen = GAME.screen(GAME.view(state, who), who)
                    menu = tuple(c.label for c in GAME.choices(state, who)) if who is not None else ()
                    for lang in ("fr", "en"):  # whole or paged: nothing essential is ever cut
                        assert not [e for e in plan(screen, lang, menu).elisions if e.essential]
                    for text in (screen.title, *menu):
                        assert len(text.fr) <= 21 and len(text.en) <= 21, text
            if act is not None:
                state = GAME.apply(state, seat, act).state


def test_lifting_a_triple_of_ones_own_nationality_is_explained_to_that_seat_only():
    """On the table: the player lifts an own-nationality triple; their screen says why."""
    from firmware_host.apps.session import GameSession
    from firmware_host.storage.tags import sim_registry, sim_uid
    from games.core import GameConfig, Mistake
    from games.playout import random_playout
    from games.spywhere.pieces import nat_of
    from games.spywhere.state import TAKE, own_nats

    g = GAME
    for seed in range(400):
        played = random_playout(g, GameConfig(players=3), seed)
        state = g.initial_state(g.validate_config(GameConfig(players=3)))
        for seat, act in played.moves:
            if state.phase == "play" and state.step == TAKE:
                me = state.active
                nats = [nat_of(c) for c in state.centre if c is not None]
                own = [n for n in set(nats) if nats.count(n) >= 3 and n in own_nats(state, me)]
                if own:
                    slot = next(i for i, c in enumerate(state.centre) if c and nat_of(c) == own[0])
                    zones = {f"centre.{i}" for i in range(1, 6)} | {f"seat{i}.pad" for i in (1, 2, 3)}
                    done = played.moves[:played.moves.index((seat, act))]
                    table = GameSession(g, GameConfig(players=3), (1, 2, 3), sim_registry(g.pieces()), zones,
                                        lambda: 0.0, auto_chance=True, moves=done, state=state)
                    laid = {table.to_physical(z): frozenset(sim_uid(p) for p in ps)
                            for z, ps in g.expected_layout(state).items() if table.to_physical(z) in zones}
                    table.sense(laid)
                    assert table.synced and table.instruction is None
                    zone = f"centre.{slot + 1}"
                    table.sense({**laid, zone: laid[zone] - {sim_uid(state.centre[slot])}})
                    why = table.reason
                    assert why is not None and why.seats == {me} and why.mistake is Mistake.LIFTED
                    assert why.code == "triple_refused" and why.text.fr in table.seat_frame(me).banner.fr
                    assert all(table.seat_frame(x).banner.fr == table.instruction.text.fr for x in range(3) if x != me)
                    return
            state = g.apply(state, seat, act).state
    raise AssertionError("no own-nationality triple met in 400 games")


def test_an_identification_is_asked_again_before_it_is_made():
    """On the table: choosing an identification asks « Définitif » with Non first; Oui makes it."""
    from firmware_host.apps.session import GameSession
    from firmware_host.storage.tags import sim_registry
    from games.core import GameConfig, replay
    from games.playout import random_playout

    for seed in range(60):
        played = random_playout(GAME, GameConfig(players=3), seed)
        for cut in range(len(played.moves)):
            if played.moves[cut][1]["type"] == "identify":
                break
        else:
            continue
        zones = {f"centre.{i}" for i in range(1, 6)} | {f"seat{i}.pad" for i in (1, 2, 3)}
        s = GameSession(GAME, GameConfig(players=3), (1, 2, 3), sim_registry(GAME.pieces()), zones,
                        lambda: 0.0, auto_chance=True, moves=played.moves[:cut],
                        state=replay(GAME, GameConfig(players=3), played.moves[:cut]))
        seat, act = played.moves[cut]
        idx = menus.entries(s, seat).index(act)
        s.ui[seat].cursor = idx
        s.ui[seat].notices.clear()
        s.press(seat, "ok", "press")
        frame = s.seat_frame(seat)
        assert frame.screen.title.fr.startswith("Définitif") and [t.fr for t in frame.menu] == ["Non", "Oui"]
        assert len(s.moves) == cut and frame.cursor == 0
        for other in range(3):
            if other != seat:
                assert not s.seat_frame(other).screen.title.fr.startswith("Définitif")
        s.press(seat, "right", "press")
        s.press(seat, "ok", "press")
        assert s.moves[cut] == (seat, act)
        return
    raise AssertionError("no identification in 60 games")

"""ZOP's deck data file: contents, piece ids, labels, and refusal of faulty data."""

import copy
import tomllib

import pytest

from games.zop import GAME
from games.zop.pieces import DATA_FILE, DeckDataError, load_deck, parse_deck

DECK = GAME.deck


def raw() -> dict:
    with open(DATA_FILE, "rb") as fh:
        return tomllib.load(fh)


def test_each_deck_has_6_attack_6_defence_8_special():
    types = [c.type for c in DECK.cards]
    assert (types.count("attack"), types.count("defence"), types.count("special")) == (6, 6, 8)
    assert DECK.hand_size == 4


def test_pieces_are_one_id_per_physical_card_of_both_decks():
    pieces = GAME.pieces()
    assert len(pieces) == len(set(pieces)) == 40
    assert "zop/light/attack/1" in pieces and "zop/dark/special/8" in pieces
    assert all(p.split("/")[0] == "zop" and p.split("/")[1] in ("light", "dark") for p in pieces)
    assert {DECK.owner(p) for p in pieces if "/light/" in p} == {0}


def test_named_specials_and_their_effect_kinds():
    kinds = {c.name.fr: c.kind for c in DECK.cards if c.type == "special"}
    assert kinds["Mauvaise idée"] == "cancel"
    assert kinds["Renforcement"] == "boost"
    assert kinds["Reculer pour mieux sauter"] == "extra_cards"
    assert kinds["Échange à l'aveugle"] == "blind_exchange"
    assert kinds["Contre-attaque"] == "counter"
    assert kinds["Profiter du terrain"] == "counter"
    assert kinds["Aménagement du temps de travail"] == "multiply"
    assert len(kinds) == 8


def test_piece_labels_for_instructions():
    assert GAME.piece_label("zop/light/attack/4").fr == "l'Attaque 4 claire"
    assert GAME.piece_label("zop/dark/defence/2").en == "the dark Defence 2"
    assert GAME.piece_label("zop/dark/special/1").fr == "la carte Mauvaise idée foncée"
    assert GAME.piece_label("zop/green/attack/1").fr == "zop/green/attack/1"  # unknown: the id itself


def test_unknown_ids_are_not_cards():
    for junk in ("zop/light/attack/7", "zop/light/attack/x", "chess/light/attack/1", None, 3, "zop/light"):
        assert not DECK.is_card(junk)
    with pytest.raises(DeckDataError):
        DECK.card("zop/light/special/9")


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["special"][0]["effect"].update(kind="teleport"), "effect.kind"),
    (lambda d: d["special"][1]["effect"].pop("amount"), "needs 'amount'"),
    (lambda d: d["special"][2]["effect"].update(timing="later"), "timing"),
    (lambda d: d["special"][4]["effect"].update(colour="red"), "no parameter 'colour'"),
    (lambda d: d["special"][5].update(n=1), "unique"),
    (lambda d: d.update(sets=["light", "light"]), "sets"),
    (lambda d: d["attack"].update(values=[1, -2]), "attack"),
    (lambda d: d.update(hand_size=0), "hand_size"),
    (lambda d: d["special"][3]["effect"].update(refuse=["flying"]), "refuse"),
    (lambda d: d["special"][0].pop("short"), "short"),
    (lambda d: d["special"][1]["effect"].update(amount=True), "amount must be int"),
])
def test_faulty_data_is_refused_with_the_field_named(mutate, message):
    data = copy.deepcopy(raw())
    mutate(data)
    with pytest.raises(DeckDataError, match=message):
        parse_deck(data)


def test_missing_or_broken_file(tmp_path):
    with pytest.raises(DeckDataError, match="nope.toml"):
        load_deck(tmp_path / "nope.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("sets = [", encoding="utf-8")
    with pytest.raises(ValueError, match="broken.toml"):
        load_deck(broken)


def test_an_owner_can_load_their_own_card_values(tmp_path):
    text = DATA_FILE.read_text(encoding="utf-8").replace("values = [1, 2, 3, 4, 5, 6]", "values = [2, 2, 3, 3, 4, 5]", 1)
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    deck = load_deck(path)
    assert [c.value for c in deck.cards if c.type == "attack"] == [2, 2, 3, 3, 4, 5]

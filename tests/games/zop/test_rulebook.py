"""ZOP: where the engine follows the rulebook's own words (issue 13): an attack facing a special."""

from __future__ import annotations

import copy
import tomllib

from games.zop import GAME
from games.zop.pieces import DATA_FILE, parse_deck
from games.zop.rules_reveal import resolve
from games.zop.state import Pending

NONE = Pending()
COUNTER, DODGE = 5, 8  # Contre-attaque, the placeholder Esquive (games/zop/data/decks.toml)


def _raw() -> dict:
    with open(DATA_FILE, "rb") as fh:
        return tomllib.load(fh)


def test_an_attack_facing_any_special_card_scores_its_strength_by_default():
    """Rulebook (resolution table, attack against a special card): « L'attaquant marque autant de
    points que la force de son attaque / L'effet de la carte spéciale est appliqué »."""
    for n in range(1, 9):
        card = GAME.deck.card(f"zop/dark/special/{n}")
        if card.kind == "cancel":
            continue  # Mauvaise idée cancels the opposing card (rulebook precision)
        res = resolve(GAME.deck, (("zop/light/attack/5",), (f"zop/dark/special/{n}",)), (NONE, NONE))
        assert res.points[0] == 5, card.name.fr
        assert not any(note.startswith("blocked") for note in res.notes)
    assert not any(c.ability.block for c in GAME.deck.cards if c.ability)  # the shipped data


def test_counter_attack_scores_the_printed_attack_and_the_attack_still_scores():
    """« L'attaquant marque autant de points que la force de son attaque / L'effet de la carte
    spéciale est appliqué »; « contre une attaque à +4 et un renforcement, la « contre-attaque »
    ne permet de marquer que 4 points »."""
    res = resolve(GAME.deck, (("zop/light/attack/4",), (f"zop/dark/special/{COUNTER}",)), (Pending(boost=2), NONE))
    assert res.points == (6, 4)


def test_block_stays_a_data_switch_for_printed_cards_that_say_the_attack_scores_nothing():
    """An owner whose printed Contre-attaque says the attack scores nothing sets `block = true` in
    decks.toml; the general rule is then overridden for that card only."""
    data = copy.deepcopy(_raw())
    for special in data["special"]:
        if special["n"] in (COUNTER, DODGE):
            special["effect"]["block"] = True
    deck = parse_deck(data)
    res = resolve(deck, (("zop/light/attack/4",), (f"zop/dark/special/{COUNTER}",)), (NONE, NONE))
    assert res.points == (0, 4) and "blocked_0" in res.notes
    res = resolve(deck, (("zop/light/attack/6",), (f"zop/dark/special/{DODGE}",)), (NONE, NONE))
    assert res.points == (0, 0) and "blocked_0" in res.notes
    # a block applies to attacks only: a defence facing it is unchanged
    res = resolve(deck, (("zop/light/defence/3",), (f"zop/dark/special/{COUNTER}",)), (NONE, NONE))
    assert res.points == (0, 0)

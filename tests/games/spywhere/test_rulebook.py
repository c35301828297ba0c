"""Spywhere: where the engine follows the rulebook's own words (issue 13): the 2-player « 5e tour »."""

from __future__ import annotations

import io
import json

import pytest

from firmware_host.apps.menu import MenuApp, Option, Pick
from firmware_host.commands.main import build_parser
from firmware_host.commands.rules import run
from games.core import CHANCE, BadConfig, GameConfig
from games.spywhere import GAME
from games.spywhere.state import DRAW, IDENTIFY
from tests.kits.gamekit import check_illegal_leaves_state
from tests.kits.spywhere_kit import apply_all, card, cards_of, make_state

HANDS = (cards_of("italie", 1, 2, 3), cards_of("angleterre", 1, 2, 3))
NATS = ("espagne", "france", "italie", "allemagne")


def _two(turn: int, reading: str):
    active = turn % 2
    return make_state(players=2, nats=NATS, hands=HANDS, turn=turn, active=active, identify_from=reading)


def _swap_to_next_turn(state):
    """The active player swaps a hand card into slot 1; the turn passes or stops at IDENTIFY."""
    seat = state.active
    return GAME.apply(state, seat, {"type": "swap", "slot": 1, "card": state.hands[seat][0]}).state


def test_the_5th_tour_read_as_one_players_turn_opens_identification_at_the_5th_turn_played():
    """Rulebook (Règles à 2 joueurs): « Aucune tentative d'identification ne pourra être faite avant
    le 5e tour de jeu », with « tour » read as elsewhere in the rulebook (« A son tour, chaque joueur
    effectue les actions suivantes »): one player's turn. Option identify_from=turn."""
    state = _two(3, "turn")  # the 4th turn of play (J2's 2nd)
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "identify", "target": 0,
                                                       "nationality": "espagne"}).code == "too_early"
    view = GAME.view(state, 1)
    assert view.identify_wait == 1 and view.identify_from == "turn"
    assert "Identify in 1 turn" in [ln.en for ln in GAME.screen(view, 1).lines]
    assert "Identif. dans 2 tours" in [ln.fr for ln in GAME.screen(GAME.view(_two(2, "turn"), 0), 0).lines]
    state = _swap_to_next_turn(state)
    assert state.step == DRAW and state.turn == 4  # no identification step in the 4th turn
    state = apply_all(GAME, state, [(CHANCE, {"type": "draw", "card": card("france", 1)})])
    state = _swap_to_next_turn(state)
    assert state.step == IDENTIFY and state.active == 0  # the 5th turn of play: J1's 3rd
    state = GAME.apply(state, 0, {"type": "identify", "target": 1, "nationality": "italie"}).state
    assert state.guesses[0] == ((1, "italie"),)


def test_the_5th_tour_read_as_a_round_is_the_default():
    """« … avant le 5e tour de jeu » read as the 5th round (each player's 5th turn): the default,
    identify_from=round. At turn index 4 (J1's 3rd turn) it is still too early."""
    assert GAME.validate_config(GameConfig(2)).options["identify_from"] == "round"
    state = _swap_to_next_turn(_two(4, "round"))
    assert state.step == DRAW  # no identification step
    assert GAME.view(state, 0).identify_wait == 3
    screen = GAME.screen(GAME.view(state, 0), 0)
    assert "Identify from round 5" in [ln.en for ln in screen.lines]
    state = _swap_to_next_turn(_two(8, "round"))  # J1's 5th turn: round 5
    assert state.step == IDENTIFY


def test_the_option_is_in_the_setup_menu_and_on_the_command_line(tmp_path):
    """The reading is a game option: the table's setup menu and `zebra-table rules --option`."""
    menu = MenuApp((0, 1))
    menu.on_button(0, "ok", "press")
    keys = [k for _, k in menu.entries()]
    for _ in range(keys.index(Pick("spywhere"))):
        menu.on_button(0, "right", "press")
    menu.on_button(0, "ok", "press")
    labels = {k: t for t, k in menu.entries()}
    assert labels[Option("identify_from")].fr == "Identif. à 2 dès : 5e manche"
    keys = [k for _, k in menu.entries()]
    menu.cursor = 0
    for _ in range(keys.index(Option("identify_from"))):
        menu.on_button(0, "right", "press")
    menu.on_button(0, "ok", "press")
    labels = {k: t for t, k in menu.entries()}
    assert labels[Option("identify_from")].en == "2-p. identify from: 5th turn played"
    assert menu.options["identify_from"] == "turn"

    actions = tmp_path / "none.jsonl"
    actions.write_text("")
    out = io.StringIO()
    args = build_parser().parse_args(["rules", "spywhere", "--players", "2", "--actions", str(actions),
                                      "--option", "identify_from=turn"])
    assert run(args, out) == 0
    doc = json.loads(out.getvalue())
    assert doc["options"]["identify_from"] == "turn" and doc["views"]["public"]["identify_from"] == "turn"
    with pytest.raises(BadConfig, match="identify_from"):
        GAME.validate_config(GameConfig(2, {"identify_from": "manche"}))


# -- the nationalities: two hinted at by the rulebook, four assumed ----------------------------


def _nationality_blocks() -> dict[str, str]:
    """Each [[nationality]] table of cards.toml with the comment lines just above it."""
    from games.spywhere.pieces import DATA_FILE

    text = DATA_FILE.read_text(encoding="utf-8")
    out: dict[str, str] = {}
    chunks = text.split("[[nationality]]")
    for before, chunk in zip(chunks, chunks[1:]):
        comment = [ln for ln in before.rstrip().splitlines() if ln.startswith("#")][-1:]
        ident = next(ln for ln in chunk.splitlines() if ln.startswith("id = "))
        out[ident.split('"')[1]] = "\n".join(comment)
    return out


def test_only_the_italian_and_the_french_come_from_the_rulebook_the_other_four_are_assumptions():
    """The rulebook names no nationality: it hints at two, « Ce joueur qui raffole de pizzas, ne
    serait-il pas l'espion italien? Et celui qui préfère le fromage qui pue et qui porte une
    baguette sous le bras? Est-ce le Français, ou bluffe-t-il? ». Every other one is ours."""
    from games.spywhere.pieces import DATA_FILE, card_set

    blocks = _nationality_blocks()
    assert set(blocks) == set(card_set().ids)
    assert "italien" in blocks["italie"] and "Français" in blocks["france"]
    for nat in ("allemagne", "angleterre", "belgique", "espagne"):
        assert "ASSUMPTION" in blocks[nat], nat
    for nat in ("italie", "france"):
        assert "ASSUMPTION" not in blocks[nat], nat
    assert "names the six nationalities" not in DATA_FILE.read_text(encoding="utf-8")

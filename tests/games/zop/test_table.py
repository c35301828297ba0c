"""ZOP on the physical table: cards on the pads, gestures recognised as one action, menus, refusals."""

import json
import pathlib

from games.core import CHANCE, GameConfig, normalise_layout
from games.zop import GAME
from games.zop.rules_sealed import placeholder
from games.zop.state import COMMIT, EXCHANGE

SWAP, STEP_BACK = 4, 3


def sensed():
    return GAME.initial_state(GameConfig(2, {"deck": "sensed"}))


def laid(state, seat, card):
    return GAME.apply(state, seat, {"type": "commit", "card": card}).state


def matches(state, sensed_layout):
    """Every (seat, action) whose footprint is the sensed layout (what the runtime looks for)."""
    target = normalise_layout(sensed_layout)
    return [(s, a) for s in sorted(GAME.to_act(state)) if s != CHANCE for a in GAME.legal_actions(state, s)
            if normalise_layout(GAME.footprint(state, s, a)) == target]


def test_pads_are_empty_at_the_start_and_hold_the_laid_cards():
    state = sensed()
    assert normalise_layout(GAME.expected_layout(state)) == {}
    state = laid(state, 0, "zop/light/attack/2")
    assert normalise_layout(GAME.expected_layout(state)) == {"pad.0": {"zop/light/attack/2"}}


def test_a_card_laid_on_a_pad_is_exactly_one_commit():
    state = sensed()
    assert matches(state, {"pad.1": {"zop/dark/defence/3"}}) == [(1, {"type": "commit", "card": "zop/dark/defence/3"})]
    # a card of the other deck on a pad matches nothing: the runtime asks to remove it
    assert matches(state, {"pad.1": {"zop/light/defence/3"}}) == []


def test_the_last_card_of_the_turn_is_recognised_although_it_triggers_the_reveal():
    state = laid(sensed(), 0, "zop/light/attack/2")
    sensed_layout = {"pad.0": {"zop/light/attack/2"}, "pad.1": {"zop/dark/attack/5"}}
    found = matches(state, sensed_layout)
    assert found == [(1, {"type": "commit", "card": "zop/dark/attack/5"})]
    after = GAME.apply(state, *found[0]).state
    assert normalise_layout(GAME.expected_layout(after)) == {}  # revealed cards go to the lines


def test_lifting_the_laid_card_is_a_withdraw():
    state = laid(sensed(), 0, "zop/light/attack/2")
    assert matches(state, {}) == [(0, {"type": "withdraw", "card": "zop/light/attack/2"})]


def test_second_card_after_step_back_is_laid_on_the_same_pad():
    state = laid(laid(sensed(), 0, f"zop/light/special/{STEP_BACK}"), 1, "zop/dark/attack/1")
    state = laid(state, 0, "zop/light/special/2")
    layout = {"pad.0": {"zop/light/special/2", "zop/light/attack/4"}}
    assert matches(state, layout) == [(0, {"type": "commit", "card": "zop/light/attack/4"})]


def test_no_buttons_during_the_commit_cards_are_laid_not_chosen():
    assert GAME.choices(sensed(), 0) == []


def test_button_menu_for_the_exchange_and_labels():
    state = laid(laid(sensed(), 0, f"zop/light/special/{SWAP}"), 1, "zop/dark/attack/2")
    assert state.phase == EXCHANGE
    assert [c.label.fr for c in GAME.choices(state, 0)] == ["Échange fait", "Échange impossible"]
    assert GAME.choices(state, 1) == []
    for choice in GAME.choices(state, 0):
        assert normalise_layout(GAME.footprint(state, 0, choice.action)) == normalise_layout(GAME.expected_layout(state))


def test_describe_actions():
    state = sensed()
    assert GAME.describe_action(state, 0, {"type": "commit", "card": "zop/light/attack/4"}).fr == "Poser Att 4"
    assert GAME.describe_action(state, 0, {"type": "withdraw", "card": "zop/light/special/2"}).en == "Take back Reinf."
    assert GAME.describe_action(state, 0, {"type": "jump"}).fr == "Action inconnue"


def test_a_card_laid_face_down_at_the_other_table_is_named_as_such_and_by_name_once_opened():
    sealed = placeholder("zop/light/attack/4", bytes(16))
    assert GAME.describe_action(sensed(), 1, {"type": "commit", "card": sealed}).fr == "Poser une carte cachée"
    assert GAME.describe_action(sensed(), 1, {"type": "withdraw", "card": sealed}).en == "Take back the hidden card"
    opened = {"type": "open", "card": "zop/light/attack/4", "salt": "00" * 16}
    assert GAME.describe_action(sensed(), 1, opened).fr == "Révéler Att 4"
    for action in ({"type": "commit", "card": sealed}, {"type": "withdraw", "card": sealed}, opened):
        assert GAME.describe_action(sensed(), 1, action).fr != "Action inconnue"


def test_explain_a_refused_card_to_its_pads_owner_only():
    state = laid(sensed(), 0, "zop/light/attack/2")
    assert GAME.explain(state, 1, "pad.1", "zop/light/attack/3").code == "not_yours"
    assert GAME.explain(state, 0, "pad.1", "zop/light/attack/3") is None  # not its pad: not its business
    assert GAME.explain(state, 0, "pad.0", "zop/light/attack/3").code == "enough_cards"
    done = laid(state, 1, "zop/dark/attack/1")
    assert GAME.explain(done, 0, "pad.0", "zop/light/attack/2").code == "to_line"
    assert GAME.explain(done, 0, "pad.0", "other/thing/1/1").code == "bad_card"


def test_highlights_show_which_pads_still_wait():
    state = sensed()
    assert GAME.highlights(state) == {"pad.0": "blue", "pad.1": "blue"}
    assert GAME.highlights(laid(state, 1, "zop/dark/attack/1")) == {"pad.0": "blue"}


def test_every_commit_footprint_adds_exactly_one_card_to_the_own_pad():
    state = laid(sensed(), 1, "zop/dark/attack/1")
    before = normalise_layout(GAME.expected_layout(state))
    for action in GAME.legal_actions(state, 0):
        foot = normalise_layout(GAME.footprint(state, 0, action))
        if action["type"] == "commit":
            assert foot == {**before, "pad.0": frozenset({action["card"]})}
    assert state.phase == COMMIT


def test_documented_action_lines_parse_and_the_example_replays():
    doc = (pathlib.Path(__file__).parents[3] / "docs" / "games" / "zop.md").read_text(encoding="utf-8")
    lines = [line for line in doc.splitlines() if line.startswith('{"seat"')]
    items = [json.loads(line) for line in lines]
    assert len(items) >= 10 and all(set(i) == {"seat", "action"} and "type" in i["action"] for i in items)
    example = doc.split("A sensed-mode example")[1].split("```json")[1].split("```")[0]
    state = sensed()
    for item in (json.loads(line) for line in example.strip().splitlines()):
        state = GAME.apply(state, item["seat"], item["action"]).state
    assert [t.points for t in state.turns] == [(0, 4), (6, 0)]


def test_the_menu_is_every_legal_action_made_with_the_buttons_along_random_games():
    """The menu skips the rules' list of cards during the commit (no button lays a card): in every
    phase it holds exactly the legal actions of a button, as filtering the whole list gives them."""
    import random

    from games.playout import sample_chance
    from games.zop.state import ROUND_END

    buttons = ("give", "exchange_done", "exchange_skip", "review", "next_round")
    phases = set()
    for seed, deck in ((1, "sensed"), (2, "tracked"), (3, "sensed")):
        rng = random.Random(seed)
        state = GAME.initial_state(GameConfig(2, {"deck": deck}, seed))
        for _ in range(400):
            for seat in (0, 1):
                menu = [c.action for c in GAME.choices(state, seat)]
                legal = [a for a in GAME.legal_actions(state, seat) if a["type"] in buttons]
                if state.phase == ROUND_END:  # the count is read one turn at a time: the neighbouring turns
                    assert all(a in legal for a in menu) and {"type": "next_round"} in menu
                else:
                    assert menu == legal
                phases.add(state.phase)
            acting = sorted(GAME.to_act(state))
            if not acting or GAME.outcome(state) is not None:
                break
            seat = rng.choice(acting)
            act = sample_chance(GAME, state, rng) if seat == CHANCE else rng.choice(GAME.legal_actions(state, seat))
            state = GAME.apply(state, seat, act).state
    assert {COMMIT, EXCHANGE, ROUND_END} <= phases

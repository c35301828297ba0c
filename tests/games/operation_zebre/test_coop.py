"""Opération Zèbre, cooperative mode: one test per rule, the rulebook examples, the variants."""

from __future__ import annotations

import pytest

from games.core import CHANCE, BadConfig, GameConfig
from games.operation_zebre import GAME
from tests.kits.gamekit import check_illegal_leaves_state
from tests.kits.operation_zebre_kit import FRANCE, Table, start, unknown_deck_game


def _transmit(t: Table, hide0: tuple[int, ...] = (1, 5, 7), sum1: int = 3) -> None:
    """Seat 0 prepares France (rulebook example censoring), seat 1 enters a sum."""
    t.known(0, FRANCE, hide=hide0)
    t.by_sum(1, sum1)


def test_france_example_five_visible_lines_worth_4_tick_4_boxes():
    t = Table(2)
    t.do(0, "lay", card=FRANCE)
    t.do(0, "side", side="recto")
    for line in (1, 5, 7):
        t.do(0, "censor", line=line)
    own = t.view(0).own
    assert own.title == "France" and own.visible == 5 and own.sum == 4
    t.do(0, "confirm")
    assert t.state.tracks[0].ticked == 4
    assert t.view(None).readings[0].ticks == 4


def test_censoring_toggles_and_uncensors():
    t = Table(2)
    t.do(0, "lay", card=FRANCE)
    t.do(0, "side", side="recto")
    t.do(0, "censor", line=2)
    t.do(0, "censor", line=2)
    assert t.view(0).own.visible == 8 and t.view(0).own.sum == 13


def test_effacer_example_reads_one_line_and_ticks_its_value():
    t = Table(2)
    _transmit(t)
    before = t.state.tracks[0].ticked
    t.do(0, "hint", hint="erase", line=4)  # "Son drapeau a trois bandes verticales", value 2
    assert t.state.tracks[0].ticked == before + 2
    assert t.view(0).own.readable == 1
    assert t.view(1).readings[0].erase_value == 2
    assert t.view(1).readings[0].ticks == 6


def test_effacer_may_choose_a_censored_line():
    t = Table(2)
    _transmit(t)
    t.do(0, "hint", hint="erase", line=7)  # censored during step 2, value 4
    assert t.view(0).readings[0].erase_value == 4


def test_initiale_ticks_2_and_the_initial_becomes_public():
    t = Table(2)
    _transmit(t)
    before = t.state.tracks[0].ticked
    effects = t.do(0, "hint", hint="initial")
    assert t.state.tracks[0].ticked == before + 2
    assert t.view(1).readings[0].initial == "F"
    assert any("F" in e.text.fr for e in effects if e.kind == "hint")


def test_initiale_of_an_unknown_document_still_ticks_2():
    t = Table(2)
    _transmit(t)
    t.do(0, "guess", correct=True)
    t.do(1, "hint", hint="initial")
    assert t.view(0).readings[1].initial is None and t.view(0).readings[1].ticks == 5


def test_one_hint_per_document():
    t = Table(2)
    _transmit(t)
    t.do(0, "hint", hint="initial")
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "hint", "hint": "erase", "line": 0}).code == "hint_used"


def test_only_the_reader_enters_hint_and_result():
    t = Table(2)
    _transmit(t)
    assert check_illegal_leaves_state(GAME, t.state, 1, {"type": "guess", "correct": True}).code == "not_reader"
    assert GAME.to_act(t.state) == {0}


def test_right_answer_passes_to_next_reader_without_echec():
    t = Table(2)
    _transmit(t)
    t.do(0, "guess", correct=True)
    assert t.state.reader == 1 and t.state.echecs_drawn == ()
    assert t.view(1).readings[0].title == "France"


def test_wrong_answer_draws_an_echec_card_and_ticks_its_value():
    t = Table(2)
    _transmit(t)
    t.do(0, "guess", correct=False)
    assert GAME.to_act(t.state) == {CHANCE}
    outcomes = GAME.chance_outcomes(t.state)
    assert [p for _, p in outcomes] == [0.25] * 4
    before = t.state.tracks[0].ticked
    t.do(CHANCE, "echec", card=3)
    assert t.state.tracks[0].ticked == before + t.state.echec_values[3]
    assert t.state.reader == 1
    t.do(1, "guess", correct=False)
    assert {a["card"] for a, _ in GAME.chance_outcomes(t.state)} == {0, 1, 2}


def test_round_ends_when_everyone_has_read_and_counter_advances():
    t = Table(2)
    _transmit(t)
    t.do(0, "guess", correct=True)
    effects = t.do(1, "guess", correct=True)
    assert t.state.round == 2 and t.state.phase == "prepare" and t.state.readings == ()
    assert any(e.kind == "round" for e in effects)
    assert GAME.expected_layout(t.state) == {}


def _play_round(t: Table, correct: bool = True) -> None:
    t.known(0, FRANCE, hide=(1, 5, 7))
    t.by_sum(1, 0)
    t.do(0, "guess", correct=correct)
    t.do(1, "guess", correct=correct)


def test_win_when_the_last_round_box_is_ticked():
    t = Table(2)
    for _ in range(t.state.rounds):
        assert GAME.outcome(t.state) is None
        _play_round(t)
    outcome = GAME.outcome(t.state)
    assert outcome is not None and outcome.winners == (0, 1) and outcome.details["reason"] == "rounds"


def test_losing_when_a_box_must_be_ticked_and_none_is_left():
    t = Table(2, boxes_removed=15)
    size = t.state.tracks[0].size
    t.by_sum(0, 30)
    t.by_sum(1, size - 30)  # exactly the last box: not lost yet
    assert t.state.tracks[0].left == 0 and GAME.outcome(t.state) is None
    t.do(0, "hint", hint="initial")
    outcome = GAME.outcome(t.state)
    assert outcome is not None and outcome.winners == () and outcome.details["reason"] == "suspicion"
    assert GAME.to_act(t.state) == frozenset()


def test_losing_at_once_during_censoring():
    t = Table(2, boxes_removed=15)
    t.by_sum(0, 30)
    t.do(1, "no_card")
    t.do(1, "enter_sum", value=t.state.tracks[0].left + 1)
    assert GAME.outcome(t.state).details["reason"] == "suspicion"
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "guess", "correct": True}).code == "game_over"


def test_losing_when_an_echec_card_must_be_drawn_and_none_is_left():
    t = Table(2, echecs=1)
    _transmit(t)
    t.do(0, "guess", correct=False)
    t.do(CHANCE, "echec", card=0)
    t.do(1, "guess", correct=False)
    outcome = GAME.outcome(t.state)
    assert outcome is not None and outcome.winners == () and outcome.details["reason"] == "echec"


def test_harder_fewer_boxes_and_no_echec_cards():
    assert start(2, boxes_removed=10).tracks[0].size == start(2).tracks[0].size - 10
    t = Table(2, echecs=0)
    _transmit(t)
    t.do(0, "guess", correct=False)
    assert GAME.outcome(t.state).details["reason"] == "echec"


def test_harder_no_hints():
    t = Table(2, hints="off")
    _transmit(t)
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "hint", "hint": "initial"}).code == "hints_off"
    assert all(c.action["type"] == "guess" for c in GAME.choices(t.state, 0))


def test_unknown_document_by_buttons_and_effacer_by_value():
    game = unknown_deck_game()
    t = Table(2, game=game)
    t.do(0, "lay", card="box/2")
    assert t.view(0).own.stage == "censor" and not t.view(0).own.known
    assert check_illegal_leaves_state(game, t.state, 0, {"type": "censor", "line": 0}).code == "unknown_document"
    assert check_illegal_leaves_state(game, t.state, 0, {"type": "side", "side": "verso"}).code == "bad_side"
    t.do(0, "enter_sum", value=4)
    t.known(1, FRANCE)
    t.do(0, "hint", hint="erase", value=3)
    assert t.state.tracks[0].ticked == 4 + 13 + 3
    assert check_illegal_leaves_state(game, t.state, 0, {"type": "guess", "correct": "yes"}).code == "bad_field"


def test_known_document_refuses_a_typed_sum():
    t = Table(2)
    t.do(0, "lay", card=FRANCE)
    t.do(0, "side", side="recto")
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "enter_sum", "value": 2}).code == "known_document"


def test_side_choice_and_change_restart_censoring():
    t = Table(2)
    t.do(0, "lay", card=FRANCE)
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "confirm"}).code == "side_first"
    t.do(0, "side", side="recto")
    t.do(0, "censor", line=0)
    t.do(0, "side", side="verso")
    own = t.view(0).own
    assert own.title == "Le Petit Prince" and own.visible == len(own.lines)


def test_cards_replace_withdraw_and_conflicts():
    t = Table(3)
    t.do(0, "lay", card=FRANCE)
    assert check_illegal_leaves_state(GAME, t.state, 1, {"type": "lay", "card": FRANCE}).code == "card_in_use"
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "lay", "card": FRANCE}).code == "same_card"
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "no_card"}).code == "has_card"
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "lay", "card": "sample/99"}).code == "card_unknown"
    t.do(0, "lay", card="sample/2")
    assert t.state.readings[0].card == "sample/2" and t.state.readings[0].stage == "card"
    t.do(0, "withdraw")
    assert t.state.readings == ()
    t.by_sum(0, 1)
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "withdraw"}).code == "already_ready"


def test_simultaneous_preparation_every_unready_seat_acts():
    t = Table(3)
    assert GAME.to_act(t.state) == {0, 1, 2}
    t.by_sum(1, 2)
    assert GAME.to_act(t.state) == {0, 2}


def test_protocol_max_visible_lines():
    t = Table(2, protocol="p1")
    t.do(0, "lay", card=FRANCE)
    t.do(0, "side", side="recto")
    for line in (1, 5, 7):
        t.do(0, "censor", line=line)
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "confirm"}).code == "protocol_lines"
    t.do(0, "censor", line=0)
    t.do(0, "confirm")
    assert t.state.tracks[0].ticked == 3


def test_protocol_max_ticks_counts_hints_too():
    t = Table(2, protocol="p2")
    t.do(0, "no_card")
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "enter_sum", "value": 6}).code == "protocol_ticks"
    t.do(0, "enter_sum", value=4)
    t.by_sum(1, 0)
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "hint", "hint": "initial"}).code == "protocol_ticks"
    t.do(0, "hint", hint="erase", value=1)


def test_protocol_forbidden_hint_and_first_line():
    t = Table(2, protocol="p3")
    _transmit(t)
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "hint", "hint": "initial"}).code == "protocol_hint"
    t = Table(2, protocol="p4")
    t.do(0, "lay", card=FRANCE)
    t.do(0, "side", side="recto")
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "confirm"}).code == "protocol_first_line"
    t.do(0, "censor", line=0)
    t.do(0, "confirm")
    t.by_sum(1, 0)
    exc = check_illegal_leaves_state(GAME, t.state, 0, {"type": "hint", "hint": "erase", "line": 0})
    assert exc.code == "protocol_first_line"


def test_variant_cards_drawn_at_random():
    t = Table(2, protocol="random", missions="random")
    assert t.state.phase == "setup" and GAME.to_act(t.state) == {CHANCE}
    assert len(GAME.chance_outcomes(t.state)) == 4
    t.do(CHANCE, "protocol", id="p2")
    t.do(CHANCE, "missions", id="m3")
    assert t.state.phase == "prepare" and [p.id for p in t.view(1).protocols] == ["p2"]
    assert len(t.view(1).missions.slots) == 4


def test_mission_claim_is_private_until_reading_and_checks_theme():
    t = Table(2, missions="m1")
    t.do(0, "lay", card=FRANCE)
    t.do(0, "side", side="recto")
    exc = check_illegal_leaves_state(GAME, t.state, 0, {"type": "mission", "mission": 1})
    assert exc.code == "mission_category"
    t.do(0, "mission", mission=0)
    t.do(0, "confirm")
    assert t.view(1).readings[0].mission is None
    t.by_sum(1, 0)
    assert t.view(1).readings[0].mission == 0
    t.do(0, "guess", correct=True)
    assert t.state.missions_done == (True, False, False, False)


def test_mission_fails_on_a_wrong_answer_or_a_broken_condition():
    t = Table(2, missions="m1")
    t.do(0, "no_card")
    t.do(0, "mission", mission=3)  # at most 2 ticks
    t.do(0, "enter_sum", value=3)
    t.do(1, "no_card")
    t.do(1, "mission", mission=1)
    t.do(1, "enter_sum", value=0)
    t.do(0, "guess", correct=True)
    t.do(1, "guess", correct=False)
    assert t.state.missions_done == (False, False, False, False)


def _mission_round(t: Table, first: tuple[str, str, int | None], second: tuple[str, str, int | None]) -> None:
    for seat, (card, side, mission) in enumerate((first, second)):
        t.do(seat, "lay", card=card)
        t.do(seat, "side", side=side)
        if mission is not None:
            t.do(seat, "mission", mission=mission)
        for line in range(len(t.view(seat).own.lines)):
            t.do(seat, "censor", line=line)
        t.do(seat, "censor", line=2)  # one line of value 1 left visible
        t.do(seat, "confirm")
    t.do(0, "guess", correct=True)
    t.do(1, "guess", correct=True)


def test_missions_all_achieved_win_and_missing_ones_lose():
    plan = [(("sample/1", "recto", 0), ("sample/2", "verso", 1)),  # France (place), Titanic (screen)
            (("sample/3", "verso", 2), ("sample/4", "recto", 3)),  # Astérix (person), Venise ≤ 2 ticks
            (("sample/5", "verso", None), ("sample/6", "recto", None))]
    t = Table(2, missions="m1")
    for first, second in plan:
        _mission_round(t, first, second)
    t2 = Table(2, missions="m1")
    for first, second in plan[1:] * 2:
        _mission_round(t2, (first[0], first[1], None), (second[0], second[1], None))
    while GAME.outcome(t.state) is None:
        _mission_round(t, ("sample/5", "verso", None), ("sample/6", "recto", None))
    while GAME.outcome(t2.state) is None:
        _mission_round(t2, ("sample/5", "verso", None), ("sample/6", "recto", None))
    assert t.state.missions_done == (True,) * 4 and GAME.outcome(t.state).winners == (0, 1)
    assert GAME.outcome(t2.state).winners == () and GAME.outcome(t2.state).details["reason"] == "missions"


def test_coop_player_counts_and_options():
    with pytest.raises(BadConfig):
        GAME.validate_config(GameConfig(9, {"mode": "coop"}))
    with pytest.raises(BadConfig):
        GAME.validate_config(GameConfig(1, {}))
    with pytest.raises(BadConfig):
        GAME.validate_config(GameConfig(2, {"protocol": "p9"}))
    for players in range(2, 9):
        state = start(players)
        assert state.rounds >= 1 and state.tracks[0].size >= 1
    assert start(2, difficulty="advanced").tracks[0].size < start(2).tracks[0].size


def test_malformed_and_out_of_phase_actions_are_refused():
    t = Table(2)
    state = t.state
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "dance"}).code == "bad_action"
    assert check_illegal_leaves_state(GAME, state, 0, {"kind": "lay"}).code == "bad_action"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "lay"}).code == "bad_field"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "lay", "card": FRANCE, "x": 1}).code == "bad_field"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "lay", "card": 3}).code == "card_unknown"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "guess", "correct": True}).code == "wrong_phase"
    assert check_illegal_leaves_state(GAME, state, 7, {"type": "no_card"}).code == "not_your_turn"
    assert check_illegal_leaves_state(GAME, state, CHANCE, {"type": "echec", "card": 0}).code == "not_your_turn"
    echec = Table(2)
    _transmit(echec)
    echec.do(0, "guess", correct=False)
    assert check_illegal_leaves_state(GAME, echec.state, CHANCE, {"type": "echec", "card": True}).code == "bad_chance"
    assert check_illegal_leaves_state(GAME, echec.state, CHANCE, {"type": "echec", "card": 9}).code == "bad_chance"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "read"}).code == "wrong_phase"
    t.do(0, "lay", card=FRANCE)
    t.do(0, "side", side="recto")
    for bad in ({"type": "censor", "line": 8}, {"type": "censor", "line": True}, {"type": "censor", "line": "1"}):
        assert check_illegal_leaves_state(GAME, t.state, 0, bad).code == "bad_line"
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "side", "side": "up"}).code == "bad_side"
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "mission", "mission": 0}).code == "no_missions"
    t.do(0, "confirm")
    t.by_sum(1, 0)
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "read"}).code == "wrong_phase"
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "hint", "hint": "tea"}).code == "bad_hint"
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "intercept"}).code == "wrong_phase"

"""Opération Zèbre, competitive mode: teams, readers, interceptions with the countdown, scoring."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.core import BadConfig, Countdown, GameConfig
from games.operation_zebre import GAME
from games.operation_zebre.state import interception_points
from tests.kits.gamekit import check_hidden, check_illegal_leaves_state
from tests.kits.operation_zebre_kit import FRANCE, Table, start

COMPET = {"mode": "competitive"}


def table(players: int = 6) -> Table:
    """A competitive table: team A = seats 0, 2, 4..., team B = seats 1, 3, 5..."""
    return Table(players, **COMPET)


def prepare(t: Table, sums: dict[int, int]) -> None:
    """Readers (seat -> visible sum) come forward in the given order and enter their sums."""
    for seat, value in sums.items():
        t.by_sum(seat, value)


def reading(t: Table, intercept: bool | None, correct: bool = True, check: bool | None = None,
            hint: bool = False) -> None:
    """One whole reading: read aloud, window (None = it expires), hint, guess, secret check."""
    reader = t.state.reader
    effects = t.do(reader, "read")
    countdown = next(e for e in effects if isinstance(e, Countdown))
    if intercept is None:
        t.do(countdown.seat, countdown.on_expire["type"])
    else:
        t.do(countdown.seat, "intercept" if intercept else "no_intercept")
    if hint:
        t.do(reader, "hint", hint="initial")
    t.do(reader, "guess", correct=correct)
    if intercept:
        t.do(countdown.seat, "intercept_check", correct=bool(check))


def test_teams_alternate_and_player_counts():
    state = start(7, **COMPET)
    assert GAME.view(state, None).teams == ((0, 2, 4, 6), (1, 3, 5))
    for players in range(6, 13):
        start(players, **COMPET)
    for players in (5, 13):
        with pytest.raises(BadConfig):
            GAME.validate_config(GameConfig(players, COMPET))
    with pytest.raises(BadConfig, match="cooperative"):
        GAME.validate_config(GameConfig(6, {**COMPET, "echecs": 2}))


def test_two_readers_per_team_come_forward():
    t = table(8)
    t.do(0, "lay", card=FRANCE)
    t.do(2, "no_card")
    assert check_illegal_leaves_state(GAME, t.state, 4, {"type": "no_card"}).code == "team_full"
    assert not {4, 6} & GAME.to_act(t.state) and {1, 3, 5, 7} <= GAME.to_act(t.state)
    t.do(0, "withdraw")
    assert 4 in GAME.to_act(t.state)


def test_the_team_with_more_suspicion_points_reads_first_teams_alternate():
    t = table()
    prepare(t, {0: 1, 2: 1, 1: 0, 3: 0})
    assert t.state.order == (1, 0, 3, 2)
    t = table()
    prepare(t, {1: 2, 3: 0, 0: 1, 2: 1})
    assert t.state.order == (0, 1, 2, 3)  # tie on suspicion, tie on interceptions: team A


def test_interception_points_break_a_suspicion_tie_for_the_first_reader():
    t = table()
    prepare(t, {0: 1, 2: 1, 1: 1, 3: 1})
    for _ in range(4):
        reader = t.state.reader
        reading(t, intercept=reader % 2 == 0, check=True)  # team B intercepts team A
    prepare(t, {0: 0, 2: 0, 1: 0, 3: 0})
    # B: 2 + 2 suspicion... both tracks ticked 2, B has interception points: B reads first
    assert t.state.tracks[0].score == t.state.tracks[1].score and t.state.order[0] % 2 == 1


def test_read_starts_a_10_second_countdown_for_the_other_team():
    t = table()
    prepare(t, {0: 1, 2: 1, 1: 1, 3: 1})
    reader = t.state.reader
    assert GAME.to_act(t.state) == {reader}
    effects = t.do(reader, "read")
    [countdown] = [e for e in effects if isinstance(e, Countdown)]
    assert countdown.seconds == 10.0 and countdown.audience == frozenset({1, 3, 5})
    assert countdown.seat in countdown.audience and countdown.on_expire == {"type": "no_intercept"}
    assert GAME.to_act(t.state) == {1, 3, 5}
    screen = GAME.screen(GAME.view(t.state, 3), 3)
    assert screen.bar == 1.0
    assert GAME.screen(GAME.view(t.state, 2), 2).bar is None


def test_countdown_expiry_closes_the_window_without_interception():
    t = table()
    prepare(t, {0: 1, 2: 1, 1: 1, 3: 1})
    reader = t.state.reader
    countdown = next(e for e in t.do(reader, "read") if isinstance(e, Countdown))
    assert GAME.check(t.state, countdown.seat, countdown.on_expire) is None
    t.do(countdown.seat, **countdown.on_expire)
    assert t.state.lock is False
    assert check_illegal_leaves_state(GAME, t.state, 1, {"type": "intercept"}).code == "window_closed"
    exc = check_illegal_leaves_state(GAME, t.state, 1, {"type": "intercept_check", "correct": True})
    assert exc.code == "no_interception"
    t.do(reader, "guess", correct=True)
    assert t.state.interceptions == ((), ()) and t.state.reader != reader


def test_interception_entered_before_expiry_makes_the_expiry_action_void():
    t = table()
    prepare(t, {0: 1, 2: 1, 1: 1, 3: 1})
    countdown = next(e for e in t.do(t.state.reader, "read") if isinstance(e, Countdown))
    t.do(5, "intercept")
    assert t.state.lock is True
    assert GAME.check(t.state, countdown.seat, countdown.on_expire).code == "window_closed"


def test_the_reader_team_waits_during_the_window():
    t = table()
    prepare(t, {0: 1, 2: 1, 1: 1, 3: 1})
    reader = t.state.reader
    t.do(reader, "read")
    assert check_illegal_leaves_state(GAME, t.state, reader, {"type": "guess", "correct": True}).code == "wrong_phase"
    assert check_illegal_leaves_state(GAME, t.state, 2, {"type": "intercept"}).code == "not_opponent"


def test_interception_check_is_secret_until_resolution():
    t = table()
    prepare(t, {0: 1, 2: 1, 1: 1, 3: 1})
    reader = t.state.reader
    t.do(reader, "read")
    t.do(1, "intercept")
    effects = t.do(3, "intercept_check", correct=True)
    assert all(e.audience == frozenset({1, 3, 5}) for e in effects)
    assert t.view(reader).check is None and t.view(2).check is None and t.view(None).check is None
    assert t.view(5).check is True and t.view(2).checked is True
    assert check_hidden(GAME, t.state, 6) > 0
    effects = t.do(reader, "guess", correct=True)
    assert t.state.interceptions[1] == (3,)
    assert any(e.kind == "interception" and e.audience is None for e in effects)


def test_check_may_come_after_the_guess():
    t = table()
    prepare(t, {0: 1, 2: 1, 1: 2, 3: 1})
    reader = t.state.reader
    assert reader == 0
    t.do(reader, "read")
    t.do(1, "intercept")
    t.do(reader, "guess", correct=False)
    assert t.state.step == "check" and GAME.to_act(t.state) == {1, 3, 5}
    assert GAME.choices(t.state, reader) == []
    exc = check_illegal_leaves_state(GAME, t.state, reader, {"type": "guess", "correct": True})
    assert exc.code == "already_guessed"
    t.do(5, "intercept_check", correct=False)
    assert t.state.interceptions == ((), ()) and t.state.turn == 1


@pytest.mark.parametrize("ticks,points", [(0, 3), (1, 3), (2, 2), (3, 2), (4, 1), (7, 1)])
def test_interception_scale_by_the_reader_ticks(ticks: int, points: int):
    assert interception_points(ticks) == points
    t = table()
    prepare(t, {0: ticks, 2: 0, 1: 30, 3: 0})  # team A leads: seat 0 reads first
    reading(t, intercept=True, check=True)
    assert t.state.interceptions[1] == (points,)


def test_the_initiale_counts_in_the_scale_the_wrong_answer_does_not():
    t = table()
    prepare(t, {0: 1, 2: 0, 1: 20, 3: 0})
    reading(t, intercept=True, correct=False, check=True, hint=True)  # 1 + 2 = 3 ticks → 2 points
    assert t.state.interceptions[1] == (2,)
    assert t.state.tracks[0].ticked == 1 + 0 + 2 + 5


def test_competitive_hints_are_initiale_only():
    t = table()
    prepare(t, {0: 1, 2: 1, 1: 1, 3: 1})
    reader = t.state.reader
    t.do(reader, "read")
    t.do(1, "no_intercept")
    t.do(reader, "hint", hint="initial")
    t2 = table()
    t2.known(0, FRANCE)
    prepare(t2, {2: 1, 1: 0, 3: 0})
    t2.do(1, "read")
    t2.do(0, "no_intercept")
    exc = check_illegal_leaves_state(GAME, t2.state, 1, {"type": "hint", "hint": "erase", "value": 1})
    assert exc.code == "erase_competitive"


def test_wrong_answer_ticks_five():
    t = table()
    prepare(t, {0: 1, 2: 1, 1: 1, 3: 1})
    before = t.state.tracks[0].ticked
    reading(t, intercept=False, correct=False)
    assert t.state.tracks[0].ticked == before + 5


def test_team_b_example_scores_13():
    """Team B intercepts 3 times for 1 + 2 + 1 points and ends on the visible value 9: 13."""
    t = table()
    # team A readers tick 4, 2 then 5: B's interceptions are worth 1, 2, 1
    plan = [{0: 4, 2: 0, 1: 3, 3: 4}, {0: 2, 2: 0, 1: 4, 3: 3}, {0: 5, 2: 0, 1: 3, 3: 4}]
    for sums in plan:
        prepare(t, sums)
        for _ in range(4):
            reading(t, intercept=t.state.reader == 0, check=True)
    outcome = GAME.outcome(t.state)
    assert t.state.interceptions[1] == (1, 2, 1)
    assert t.state.tracks[1].ticked == 21 and t.state.tracks[1].score == 9
    assert outcome.details["totals"][1] == 13
    assert outcome.scores[1] == 13.0 and outcome.scores[3] == 13.0
    assert outcome.winners == (0, 2, 4) and outcome.details["totals"][0] == 30 - 11


def _finish(sums_a: int, sums_b: int, b_intercepts: bool) -> Table:
    t = table()
    for _ in range(t.state.rounds):
        prepare(t, {0: sums_a, 2: 0, 1: sums_b, 3: 0})
        for _ in range(4):
            reading(t, intercept=b_intercepts and t.state.reader % 2 == 0, check=True)
    return t


def test_equal_totals_more_interception_points_win():
    t = _finish(sums_a=0, sums_b=6, b_intercepts=True)  # A: 30 + 0, B: 12 + 18
    outcome = GAME.outcome(t.state)
    assert outcome.details["totals"] == [30, 30] and outcome.winners == (1, 3, 5)


def test_complete_tie_both_teams_win():
    t = _finish(sums_a=1, sums_b=1, b_intercepts=False)
    assert GAME.outcome(t.state).winners == tuple(range(6))


def test_a_team_without_boxes_loses_at_once():
    t = table()
    prepare(t, {0: 30, 2: 0})
    t.do(1, "no_card")
    t.do(3, "no_card")
    t.do(1, "enter_sum", value=1)
    t.do(3, "enter_sum", value=0)
    reader = t.state.reader  # team B leads (29 vs 0... team A ticked 30)
    assert reader % 2 == 1
    reading(t, intercept=False)
    t.do(0, "read")
    t.do(1, "no_intercept")
    t.do(0, "hint", hint="initial")
    outcome = GAME.outcome(t.state)
    assert outcome.winners == (1, 3, 5) and outcome.details["reason"] == "suspicion"


def test_no_free_interception_box_gives_no_points():
    t = table()
    for _ in range(t.state.rounds):
        prepare(t, {0: 0, 2: 0, 1: 0, 3: 0})
        for _ in range(4):
            reading(t, intercept=t.state.reader % 2 == 0, check=True)
    assert t.state.interceptions[1] == (3,) * 6
    t2 = Table(6, **COMPET)
    t2.state = replace(t2.state, interceptions=((), (1,) * 6))
    prepare(t2, {0: 0, 2: 0, 1: 0, 3: 0})
    reading(t2, intercept=True, check=True)
    assert t2.state.interceptions[1] == (1,) * 6


def test_twelve_players_play_a_whole_game():
    t = table(12)
    for _ in range(t.state.rounds):
        prepare(t, {10: 1, 8: 1, 11: 1, 9: 2})
        for _ in range(4):
            reading(t, intercept=True, check=False)
    outcome = GAME.outcome(t.state)
    assert len(outcome.scores) == 12 and outcome.winners == (0, 2, 4, 6, 8, 10)

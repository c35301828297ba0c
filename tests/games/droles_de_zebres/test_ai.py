"""Drôles de Zèbres computer players: the search model follows the rules, legal and reproducible
decisions from the view alone, and a strength smoke test (not timed)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import Budget, NoComputerPlayer, levels
from games.ai import choose as ai_choose
from games.core import CHANCE, GameConfig, to_json
from games.droles_de_zebres import GAME, ai, ai_model
from games.droles_de_zebres.state import FIRST, FIRST_EITHER, FIRST_SEAT0, OVER
from games.playout import random_playout, sample_chance
from tests.kits.gamekit import states_along

CONFIGS = [
    GameConfig(players=2),
    GameConfig(players=2, options={"first_player": "random"}),
    GameConfig(players=2, options={"first_player": "seat1", "seat0_colour": "green"}),
]
SMALL = Budget(12)  # a few iterations: the properties are about the decision path, not strength


def _decisions(state):
    """(seat, view) for every seat that has a decision in `state`."""
    return [(s, GAME.view(state, s)) for s in sorted(GAME.to_act(state)) if s != CHANCE]


def _check_model_follows(state) -> int:
    """The model of `state` lists the same moves as the rules, and each leads to the same state."""
    checked = 0
    for seat in GAME.to_act(state):
        if seat == CHANCE:
            continue
        model = ai_model.from_state(state)
        legal = GAME.legal_actions(state, seat)
        assert sorted(set(model.actions())) == sorted({ai_model.from_action(a) for a in legal})
        for act in legal[:: max(1, len(legal) // 6)]:
            after = model.copy()
            after.play(seat, ai_model.from_action(act))
            expected = ai_model.from_state(GAME.transition(state, seat, act).state)
            assert ai_model.signature(after) == ai_model.signature(expected), (act, ai_model.signature(after))
            checked += 1
    return checked


def test_model_follows_the_rules_over_random_and_greedy_games():
    """Same moves, same positions, same scores as games/droles_de_zebres/turns.py (see ai_model)."""
    checked = 0
    for seed in range(90):
        policy = ai.greedy_policy if seed % 3 == 0 else None
        kwargs = {"policy": policy} if policy else {}
        played = random_playout(GAME, CONFIGS[seed % len(CONFIGS)], seed, **kwargs)
        state = GAME.initial_state(played.config)
        for seat, act in played.moves:
            checked += _check_model_follows(state)
            state = GAME.apply(state, seat, act).state
        assert ai_model.from_state(state).totals() == tuple(int(s) for s in played.outcome.scores)
    assert checked > 5_000


def test_model_random_playouts_end_like_the_rules():
    rng = random.Random(5)
    for seed in range(200):
        model = ai_model.from_state(GAME.initial_state(GAME.validate_config(CONFIGS[0])))
        model.play(0, ("g", seed % 22))
        ai_model.random_playout(model, rng)
        assert model.phase == ai_model.P_OVER and all(model.cells) and model.left == [0, 0]
        assert model.inauguration in (0, 1)


@pytest.mark.parametrize("level", ai.LEVELS)
def test_only_legal_actions_at_every_decision_point(level: str):
    kinds = set()
    for seed in range(6 if level == "strong" else 20):
        for state in states_along(GAME, CONFIGS[seed % len(CONFIGS)], seed):
            for seat, view in _decisions(state):
                act = ai.choose(view, seat, level, random.Random(seed), SMALL)
                assert GAME.check(state, seat, act) is None, (level, act)
                kinds.add(act["type"])
    assert kinds >= {"guardian", "place", "move"}
    assert level == "strong" or "swap" in kinds or "stop" in kinds


def test_crocodile_choices_are_legal_and_reproducible():
    """Positions where the crocodile may swap (chained swaps included) from many games."""
    seen = 0
    for seed in range(60):
        for state in states_along(GAME, CONFIGS[0], seed):
            if state.phase != "crocodile":
                continue
            view = GAME.view(state, state.turn)
            act = ai.choose(view, state.turn, "strong", random.Random(seed), SMALL)
            assert GAME.check(state, state.turn, act) is None
            assert act == ai.choose(view, state.turn, "strong", random.Random(seed), SMALL)
            seen += 1
    assert seen >= 20


def test_same_view_and_seed_same_decision_and_seeds_matter():
    state = states_along(GAME, CONFIGS[0], 3)[12]
    seat = state.turn
    view = GAME.view(state, seat)
    first = ai.choose(view, seat, "strong", random.Random(7), Budget(200))
    assert all(ai.choose(view, seat, "strong", random.Random(7), Budget(200)) == first for _ in range(3))
    ranked = ai.rank(view, seat, "strong", random.Random(7), Budget(200))
    assert ranked[0].action == first and sum(r.playouts for r in ranked) == 200
    assert [r.playouts for r in ranked] == sorted((r.playouts for r in ranked), reverse=True)


@st.composite
def positions(draw):
    config = draw(st.sampled_from(CONFIGS))
    seed = draw(st.integers(0, 10**6))
    return states_along(GAME, config, seed)


@settings(max_examples=60, deadline=None)
@given(states=positions(), pick=st.randoms(use_true_random=False))
def test_views_rebuild_exactly_and_decide_alone(states, pick):
    """≥ 1,000 views: sample_state gives back the view; a state differing in what the view does
    not hold (the first-player mode) gets the same decision."""
    chosen = [s for s in states if s.phase != OVER]
    for state in chosen[:: max(1, len(chosen) // 18)]:
        for seat in (0, 1):
            view = GAME.view(state, seat)
            sample = ai.sample_state(view, seat, random.Random(pick.random()))
            assert to_json(GAME.view(sample, seat)) == to_json(view)
            if seat not in view.to_act:
                continue
            mode = FIRST_SEAT0 if state.first_mode == FIRST_EITHER else FIRST_EITHER
            twin = dataclasses.replace(state, first_mode=mode) if state.phase != FIRST else state
            assert to_json(GAME.view(twin, seat)) == to_json(view)
            seed = pick.randrange(1000)
            act = ai.choose(view, seat, "strong", random.Random(seed), Budget(4))
            assert act == ai.choose(GAME.view(twin, seat), seat, "strong", random.Random(seed), Budget(4))


def test_sample_state_continues_like_the_true_state():
    """The rebuilt state is the true one in all that matters: same legal moves, same next states."""
    for seed in range(15):
        for state in states_along(GAME, CONFIGS[seed % len(CONFIGS)], seed)[::4]:
            for seat in (0, 1):
                sample = ai.sample_state(GAME.view(state, seat), seat, random.Random(0))
                # what the last effects moved is for the table's words, not the play: not in the view
                assert dataclasses.replace(sample, first_mode=state.first_mode, moved=state.moved) == state


def test_strong_beats_random_smoke():
    wins = 0
    for seed in range(10):
        me = seed % 2
        rng = random.Random(seed)
        state = GAME.initial_state(GAME.validate_config(CONFIGS[0]))
        while GAME.outcome(state) is None:
            seat = rng.choice(sorted(GAME.to_act(state)))
            if seat == me:
                act = ai.choose(GAME.view(state, seat), seat, "strong", random.Random(seed), Budget(100))
            else:
                act = rng.choice(GAME.legal_actions(state, seat))
            state = GAME.apply(state, seat, act).state
        wins += GAME.outcome(state).winners == (me,)
    assert wins >= 8


def test_clock_cap_stops_the_search_with_a_legal_move():
    ticks = iter(range(1_000_000))
    budget = Budget(10_000, seconds=5.0, clock=lambda: float(next(ticks)))  # one "second" per look
    state = states_along(GAME, CONFIGS[0], 4)[8]
    view = GAME.view(state, state.turn)
    act = ai.choose(view, state.turn, "strong", random.Random(1), budget)
    assert GAME.check(state, state.turn, act) is None
    spent = Budget(10, seconds=1.0, clock=lambda: float(next(ticks)) * 100)  # over before the first
    assert GAME.check(state, state.turn, ai.choose(view, state.turn, "strong", random.Random(1), spent)) is None


def test_bad_requests_are_refused_clearly():
    state = states_along(GAME, CONFIGS[0], 2)[5]
    seat = state.turn
    view = GAME.view(state, seat)
    with pytest.raises(NoComputerPlayer, match="unknown level"):
        ai.choose(view, seat, "grandmaster", random.Random(0))
    with pytest.raises(ValueError, match="seat"):
        ai.choose(view, True, "easy", random.Random(0))
    with pytest.raises(ValueError, match="view of seat"):
        ai.choose(GAME.view(state, 1 - seat), seat, "easy", random.Random(0))
    with pytest.raises(ValueError, match="no decision"):
        ai.choose(GAME.view(state, 1 - seat), 1 - seat, "easy", random.Random(0))
    with pytest.raises(TypeError, match="random.Random"):
        ai.choose(view, seat, "easy", 42)
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="iterations"):
            Budget(bad)
    for bad in (float("inf"), float("nan"), 0, -2.0, True):
        with pytest.raises(ValueError, match="seconds"):
            Budget(10, seconds=bad, clock=lambda: 0.0)
    with pytest.raises(ValueError, match="clock"):
        Budget(10, seconds=1.0)


def test_registry_finds_the_ai():
    assert levels("droles-de-zebres") == ("easy", "greedy", "strong")
    state = states_along(GAME, CONFIGS[0], 1)[3]
    seat = sorted(GAME.to_act(state))[0]
    act = ai_choose("droles-de-zebres", GAME.view(state, seat), seat, "easy", random.Random(0))
    assert GAME.check(state, seat, act) is None
    with pytest.raises(NoComputerPlayer):
        levels("mata-hari")


def test_chance_is_never_asked():
    config = GAME.validate_config(CONFIGS[1])
    state = GAME.initial_state(config)
    assert state.phase == FIRST and GAME.to_act(state) == {CHANCE}
    with pytest.raises(ValueError, match="no decision"):
        ai.choose(GAME.view(state, 0), 0, "strong", random.Random(0))
    state = GAME.apply(state, CHANCE, sample_chance(GAME, state, random.Random(0))).state
    seat = state.first
    assert GAME.check(state, seat, ai.choose(GAME.view(state, seat), seat, "strong", random.Random(0), SMALL)) is None

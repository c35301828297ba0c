"""Drôles de Zèbres: the step whose effects are made when read agrees with the full transition."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

from games.core import CHANCE, GameConfig, Step
from games.droles_de_zebres import GAME, rules_step, rules_transition
from games.droles_de_zebres.rules import legal_actions
from games.droles_de_zebres.state import DdzState
from games.playout import sample_chance

CONFIGS = (GameConfig(players=2), GameConfig(players=2, options={"first_player": "random", "seat0_colour": "green"}))


def _moves(games: int) -> list[tuple[DdzState, int, dict]]:
    """Every (state, seat, action) along seeded random games."""
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.initial_state(GAME.validate_config(CONFIGS[seed % 2]))
        while GAME.outcome(state) is None:
            seat = rng.choice(sorted(GAME.to_act(state)))
            act = sample_chance(GAME, state, rng) if seat == CHANCE else rng.choice(legal_actions(state, seat))
            out.append((state, seat, dict(act)))
            state = GAME.apply(state, seat, act).state
    return out


MOVES = _moves(60)


def test_the_fast_states_and_the_effects_read_are_the_full_transitions():
    lazy = 0
    for state, seat, act in MOVES:
        full = rules_transition.transition(state, seat, act)
        step = rules_step.transition(state, seat, act)
        lazy += isinstance(step, rules_step.LazyStep)
        assert step.state == full.state
        assert dataclasses.fields(step.state) == dataclasses.fields(full.state)
        assert step.effects == full.effects
        assert step == full and full == step
    assert lazy > len(MOVES) * 0.8  # the common moves took the fast path


def test_effects_read_after_the_callers_action_changed_are_those_of_the_action_applied():
    for state, seat, act in MOVES[:400]:
        expected = rules_transition.transition(state, seat, act).effects
        mine = dict(act)
        step = GAME.apply(state, seat, mine)
        mine.clear()
        mine["type"] = "bogus"
        assert step.effects == expected


def test_a_lazy_step_copies_pickles_and_replaces_like_a_step():
    state, seat, act = next(m for m in MOVES if m[2]["type"] == "move")
    step = GAME.apply(state, seat, act)
    assert isinstance(step, rules_step.LazyStep)
    for other in (pickle.loads(pickle.dumps(step)), copy.deepcopy(step), copy.copy(step)):
        assert other == step and other.effects == step.effects
    bare = dataclasses.replace(step, effects=())
    assert bare.effects == () and bare.state == step.state
    assert dataclasses.replace(step).effects == step.effects
    assert repr(step) == repr(Step(step.state, step.effects)).replace("Step(", "LazyStep(", 1)


def test_a_legal_action_changed_by_its_caller_changes_no_later_answer():
    # the legal lists are copies of actions made once: changing one must not reach the next lists
    state, seat, _ = next(m for m in MOVES if m[0].phase == "place")
    first = legal_actions(state, seat)
    expected = [dict(a) for a in first]
    for action in first:
        action["square"] = "Z9"
        action["extra"] = True
    assert legal_actions(state, seat) == expected
    move_state, move_seat, _ = next(m for m in MOVES if m[0].phase == "move")
    moves = legal_actions(move_state, move_seat)
    expected_moves = [dict(a) for a in moves]
    for action in moves:
        action["steps"] = 99
    assert legal_actions(move_state, move_seat) == expected_moves
    # and an action applied then changed by its caller leaves the step's effects as they were
    step = GAME.apply(state, seat, expected[0])
    assert step.effects == rules_transition.transition(state, seat, expected[0]).effects

"""Drôles de Zèbres: seeded random playouts, invariants on every state, views, the simple AI."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import SQUARES, GameConfig, is_essential, normalise_layout, to_json
from games.droles_de_zebres import GAME
from games.droles_de_zebres.ai import greedy_policy
from games.droles_de_zebres.pieces import ALL_PIECES
from games.droles_de_zebres.pieces_board import LINE_SQUARES, PATH_LENGTH
from games.droles_de_zebres.rules import check
from games.droles_de_zebres.scoring import INAUGURATION_BONUS, territory_scores
from games.droles_de_zebres.state import CROCODILE, MOVE, OVER, PLACE, board_full, line_open
from games.playout import random_playout
from tests.kits.gamekit import check_hidden, check_playouts, states_along

CONFIGS = [
    GameConfig(players=2),
    GameConfig(players=2, options={"first_player": "random"}),
    GameConfig(players=2, options={"first_player": "seat1", "seat0_colour": "green"}),
    GameConfig(players=2, options={"first_player": "seat0"}),
]


def test_playouts_with_every_contract_check():
    results = check_playouts(GAME, CONFIGS, seeds=range(25))
    assert {r.outcome.winners for r in results} >= {(0,), (1,)}


def _consistent_end(result) -> None:
    state, outcome = result.state, result.outcome
    assert state.phase == OVER and all(c is not None for c in state.cells)
    assert state.reserves == ((), ())
    assert sorted(c.piece for c in state.cells) == sorted(ALL_PIECES)
    assert state.inauguration in (0, 1)  # a full board has completed some territory
    terr = territory_scores(state)
    assert all(t.leader is not None for t in terr)  # odd territory sizes: never equal
    for seat in (0, 1):
        expected = sum(t.points for t in terr if t.leader == seat)
        expected += INAUGURATION_BONUS if state.inauguration == seat else 0
        assert outcome.scores[seat] == expected
    assert sum(outcome.scores) == sum(t.points for t in terr) + INAUGURATION_BONUS
    assert outcome.winners == tuple(s for s in (0, 1) if outcome.scores[s] == max(outcome.scores))


def test_thousand_games_end_full_with_consistent_scores():
    kinds = set()
    for seed in range(1000):
        result = random_playout(GAME, CONFIGS[seed % len(CONFIGS)], seed)
        _consistent_end(result)
        kinds.update(a["type"] for _, a in result.moves)
    assert kinds >= {"guardian", "place", "move", "swap", "stop", "first_player"}


def _invariants(state) -> None:
    on_board = [c.piece for c in state.cells if c is not None]
    assert sorted(on_board + [p for r in state.reserves for p in r]) == sorted(ALL_PIECES)
    for seat, reserve in enumerate(state.reserves):
        assert all(f"/{state.colours[seat]}/" in p for p in reserve)
    if state.phase == PLACE:
        assert any(state.cells[i] is None for i in LINE_SQUARES[state.guardian])
        assert state.reserves[state.turn]  # whoever is to place has an animal
    if state.phase == CROCODILE:
        assert "crocodile" in state.cells[state.croc].piece
    if state.phase == MOVE:
        assert len(GAME.legal_actions(state, state.turn)) >= 2  # single solutions are automatic
    for _i, cell in enumerate(state.cells):
        if cell is not None and not cell.face_up:
            assert "/zebra/" in cell.piece or "/gazelle/" in cell.piece


def _candidate_actions(state) -> list[dict]:
    """A broad set of well-formed actions, legal or not, to compare check() with legal_actions()."""
    out: list[dict] = [{"type": "stop"}]
    out += [{"type": "guardian", "position": p} for p in (-1, 0, 5, 21, 22)]
    out += [{"type": "move", "steps": k} for k in range(0, 5)]
    out += [{"type": "swap", "square": sq} for sq in SQUARES]
    for piece in ALL_PIECES[::3]:
        out += [{"type": "place", "piece": piece, "square": sq} for sq in SQUARES[::2]]
    for seat in (0, 1):
        out += GAME.legal_actions(state, seat)
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), config=st.sampled_from(CONFIGS))
def test_check_agrees_with_legal_actions_and_invariants_hold(seed: int, config: GameConfig):
    for state in states_along(GAME, config, seed)[::3]:
        _invariants(state)
        for seat in (0, 1):
            legal = GAME.legal_actions(state, seat)
            for act in _candidate_actions(state):
                assert (check(state, seat, act) is None) == (act in legal), (seat, act)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), config=st.sampled_from(CONFIGS))
def test_every_gesture_is_recognised_as_one_action(seed: int, config: GameConfig):
    """Place/swap footprints differ from each other and from the board; button actions don't move."""
    for state in states_along(GAME, config, seed)[::2]:
        before = normalise_layout(GAME.expected_layout(state))
        for seat in GAME.to_act(state):
            if seat < 0:
                continue
            seen = set()
            for act in GAME.legal_actions(state, seat):
                after = normalise_layout(GAME.footprint(state, seat, act))
                key = json.dumps(to_json(after), sort_keys=True)
                if act["type"] in ("place", "swap"):
                    assert after != before and key not in seen
                    seen.add(key)
                else:
                    assert after == before
            menu = [c.action for c in GAME.choices(state, seat)]
            assert all(a in GAME.legal_actions(state, seat) for a in menu)
            assert all(a["type"] != "place" for a in menu)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_views_hold_no_secret_and_screens_fit(seed: int):
    """Nothing is hidden: both seats' views equal the public one but for `seat`; lines fit or wrap."""
    for state in states_along(GAME, CONFIGS[seed % len(CONFIGS)], seed)[::2]:
        assert check_hidden(GAME, state, 2) == 0  # no hidden variant exists: perfect information
        public = to_json(GAME.view(state, None))
        for seat in (None, 0, 1):
            view = GAME.view(state, seat)
            assert {**to_json(view), "seat": None} == public
            screen = GAME.screen(view, seat)
            assert len(screen.title.fr) <= 21 and len(screen.title.en) <= 21, screen.title
            for text in screen.lines:  # a longer line is marked essential: the screen wraps it, never cuts it
                assert is_essential(text) or (len(text.fr) <= 21 and len(text.en) <= 21), text
            assert len(screen.lines) <= 4


def test_effect_texts_fit_three_screen_lines():
    for seed in range(30):
        result = random_playout(GAME, CONFIGS[0], seed)
        state = GAME.initial_state(GAME.validate_config(CONFIGS[0]))
        for seat, act in result.moves:
            step = GAME.apply(state, seat, act)
            for effect in step.effects:
                assert len(effect.text.fr) <= 63 and len(effect.text.en) <= 63, effect.text
                json.dumps(to_json(effect))
            state = step.state


def test_greedy_ai_beats_uniform_random():
    wins = 0
    games = 12
    for seed in range(games):
        ai_seat = seed % 2

        def policy(game, state, seat, legal, rng: random.Random):
            if seat == ai_seat:
                return greedy_policy(game, state, seat, legal, rng)
            return rng.choice(legal)

        result = random_playout(GAME, GameConfig(players=2), seed, policy=policy)
        wins += result.outcome.winners == (ai_seat,)
    assert wins >= games * 3 // 4


def test_guardian_positions_cover_every_line_twice():
    lines = [tuple(LINE_SQUARES[p]) for p in range(PATH_LENGTH)]
    assert all(lines.count(line) == 2 for line in lines)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_line_is_open_exactly_when_it_has_an_empty_square(seed):
    for state in states_along(GAME, CONFIGS[0], seed):
        for position in range(PATH_LENGTH):
            assert line_open(state, position) == any(state.cells[i] is None for i in LINE_SQUARES[position])
        assert board_full(state) == all(c is not None for c in state.cells)


def test_random_legal_action_is_the_choice_among_the_legal_actions():
    """The playouts' draw (no list made for a placement) takes the action `rng.choice` takes from
    the legal list, from the same random numbers, as a fresh copy; None where there is none."""
    drawn = 0
    for seed in range(40):
        for state in states_along(GAME, CONFIGS[seed % len(CONFIGS)], seed):
            for seat in (0, 1):
                legal = GAME.legal_actions(state, seat)
                for k in range(3):
                    rng, reference = random.Random(k), random.Random(k)
                    act = GAME.random_legal_action(state, seat, rng)
                    assert act == (reference.choice(legal) if legal else None)
                    assert rng.random() == reference.random()
                    if act is not None:
                        act["square"] = "Z9"  # the caller's own: the next draw is unchanged
                        again = GAME.random_legal_action(state, seat, random.Random(k))
                        assert again == random.Random(k).choice(GAME.legal_actions(state, seat))
                        drawn += state.phase == PLACE
    assert drawn > 3_000  # placements: the draw without the list

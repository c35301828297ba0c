"""Spywhere computer players: the playout model follows the rules, determinizations give back the
view, legal and reproducible decisions from the view alone, a strength smoke test (not timed)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import Budget
from games.core import CHANCE, GameConfig, to_json
from games.playout import random_playout, sample_chance
from games.spywhere import GAME, ai
from games.spywhere.ai_guess import sensible_shares
from games.spywhere.ai_model import from_state, signature
from games.spywhere.ai_plan import RACE_MIN, race_chance
from games.spywhere.pieces import nat_of
from games.spywhere.state import FINAL, OVER, PLAY, SETUP
from tests.kits.gamekit import states_along

pytestmark = pytest.mark.slow  # searches over many sampled deals: tens of seconds in all

CONFIGS = [GameConfig(players=p, options=o) for p, o in
           ((4, {}), (2, {}), (3, {"retriple": "on"}), (5, {}), (6, {"retriple": "on"}), (4, {"retriple": "on"}))]
SMALL = Budget(8)


class DrawsLike(random.Random):
    """Makes the model draw, in order, the nationalities the real game drew."""

    def __init__(self, model, nats: list[int]):
        super().__init__(0)
        self.model = model
        self.nats = nats

    def random(self) -> float:
        nat = self.nats.pop(0)
        pile = self.model.pile
        return (sum(pile[:nat]) + 0.5) / self.model.pile_n


def _decision_point(state) -> bool:
    return state.phase in (PLAY, FINAL, OVER) and CHANCE not in GAME.to_act(state)


def test_model_follows_the_rules():
    """After each player's action and the chance events it leads to, the model (drawing what the
    game drew) is where the game is: hands, centre, pile, clues, identifications, turn, end."""
    followed = 0
    for seed in range(120):
        played = random_playout(GAME, CONFIGS[seed % len(CONFIGS)], seed)
        state = GAME.initial_state(played.config)
        moves = played.moves
        i = 0
        while i < len(moves):
            seat, act = moves[i]
            if seat == CHANCE or not _decision_point(state):
                state = GAME.apply(state, seat, act).state
                i += 1
                continue
            model = from_state(state)
            index = {n: k for k, n in enumerate(state.nationalities)}
            after = GAME.apply(state, seat, act).state
            j = i + 1
            drawn: list[int] = []
            while j < len(moves) and moves[j][0] == CHANCE:
                drawn.append(index[nat_of(moves[j][1]["card"])])
                after = GAME.apply(after, *moves[j]).state
                j += 1
            move = _model_move(state, seat, act)
            model.play(seat, move, DrawsLike(model, drawn))
            assert signature(model) == signature(from_state(after)), (seed, i, act)
            followed += 1
            state, i = after, j
        assert state.phase == OVER
        assert from_state(state).scores() == [int(s) for s in played.outcome.scores]
    assert followed > 3000


def _model_move(state, seat, act):
    index = {n: k for k, n in enumerate(state.nationalities)}
    kind = act["type"]
    if kind == "swap":
        lifted = state.centre[act["slot"] - 1]
        return ("s", index[nat_of(act["card"])], index[nat_of(lifted)])
    if kind == "take":
        return ("t", index[nat_of(state.centre[act["slots"][0] - 1])])
    if kind == "identify":
        return ("i", act["target"], index[act["nationality"]])
    return {"leave": ("l",), "end_turn": ("e",), "done": ("d",)}[kind]


def _decisions(state):
    for seat in sorted(GAME.to_act(state)):
        if seat != CHANCE:
            view = GAME.view(state, seat)
            assert ai.needs_decision(view, seat)
            yield seat, view


@pytest.mark.parametrize("level", ai.LEVELS)
def test_only_legal_actions_at_every_decision_point(level):
    kinds = set()
    for seed in range(8 if level == "strong" else 24):
        for state in states_along(GAME, CONFIGS[seed % len(CONFIGS)], seed):
            for seat, view in _decisions(state):
                act = ai.choose(view, seat, level, random.Random(seed), SMALL)
                assert GAME.check(state, seat, act) is None, (level, act)
                kinds.add(act["type"])
    assert kinds >= {"remove", "swap", "identify", "take"}
    assert kinds & {"end_turn", "done", "leave"}


@st.composite
def positions(draw):
    return states_along(GAME, draw(st.sampled_from(CONFIGS)), draw(st.integers(0, 10**6)))


@settings(max_examples=30, deadline=None)
@given(states=positions(), pick=st.randoms(use_true_random=False))
def test_sampled_states_give_back_the_view_and_play_on(states, pick):
    """≥ 1,000 views: view(sample_state(view)) == view, and the sample is a playable state."""
    checked = 0
    players = states[0].players
    for state in states[:: max(1, len(states) * players // 40)]:
        for seat in range(players):
            view = GAME.view(state, seat)
            sample = ai.sample_state(view, seat, random.Random(pick.random()))
            assert to_json(GAME.view(sample, seat)) == to_json(view)
            for who in GAME.to_act(sample):
                if who == CHANCE:
                    assert GAME.chance_outcomes(sample) or sample.removal_pending
                else:
                    for act in GAME.legal_actions(sample, who)[:6]:
                        GAME.apply(sample, who, act)
            checked += 1
    assert checked >= 34


@settings(max_examples=25, deadline=None)
@given(states=positions(), pick=st.randoms(use_true_random=False))
def test_hidden_cards_never_change_the_decision(states, pick):
    """≥ 1,000 views over the run: other passports, hands and identification cards (the game's
    hidden variants, and other deals) give the same view, the same action, legal in each state."""
    decisions = [(state, seat, view) for state in states for seat, view in _decisions(state)]
    views = 0
    for state, seat, view in decisions[:: max(1, len(decisions) // 10)]:
        seed = pick.randrange(10**6)
        act = ai.choose(view, seat, "strong", random.Random(seed), Budget(4))
        twins = list(GAME.hidden_variants(state, seat))[:2]
        twins += [ai.sample_state(view, seat, random.Random(seed + i)) for i in (1, 2)]
        for twin in twins:
            twin_view = GAME.view(twin, seat)
            assert to_json(twin_view) == to_json(view)
            assert ai.choose(twin_view, seat, "strong", random.Random(seed), Budget(4)) == act
            assert GAME.check(twin, seat, act) is None
        views += 1 + len(twins)
    assert views >= 40


def test_same_view_and_seed_same_decision():
    # a triple to take or leave: the strong level weighs it with its playouts
    state = next(s for s in states_along(GAME, CONFIGS[0], 0)
                 if s.phase == PLAY and s.step == "take" and len(GAME.legal_actions(s, s.active)) > 1)
    seat = state.active
    view = GAME.view(state, seat)
    first = ai.choose(view, seat, "strong", random.Random(2), Budget(150))
    assert all(ai.choose(view, seat, "strong", random.Random(2), Budget(150)) == first for _ in range(3))
    ranked = ai.rank(view, seat, "strong", random.Random(2), Budget(150))
    assert ranked[0].action == first and 135 <= sum(r.playouts for r in ranked) <= 150


def test_strong_identifies_while_it_may_end_the_game_first():
    # one identification a turn while the race to end the game (3 points) is open, else none
    # before the end, when more is known (games.spywhere.ai_plan)
    kinds = set()
    for seed in range(6):
        for state in states_along(GAME, CONFIGS[seed % len(CONFIGS)], seed):
            if state.phase == PLAY and state.step == "identify":
                seat = state.active
                act = ai.choose(GAME.view(state, seat), seat, "strong", random.Random(seed), Budget(20))
                chance = race_chance(from_state(state), seat, sensible_shares(GAME.view(state, seat), seat))
                assert act["type"] == ("identify" if chance >= RACE_MIN else "end_turn"), chance
                assert GAME.check(state, seat, act) is None
                kinds.add(act["type"])
    assert kinds == {"identify", "end_turn"}


def test_removal_and_setup():
    state = GAME.initial_state(GAME.validate_config(GameConfig(players=4, options={"first_player": 2})))
    assert state.phase == SETUP and GAME.to_act(state) == {2}
    act = ai.choose(GAME.view(state, 2), 2, "strong", random.Random(0))
    assert act["type"] == "remove" and GAME.check(state, 2, act) is None
    state = GAME.apply(state, 2, act).state
    assert not ai.needs_decision(GAME.view(state, 2), 2)
    with pytest.raises(ValueError, match="no decision"):
        ai.choose(GAME.view(state, 2), 2, "strong", random.Random(0))


def test_strong_beats_three_random_players_smoke():
    wins = 0
    for seed in range(10):
        me = seed % 4
        rng = random.Random(seed)
        state = GAME.initial_state(GAME.validate_config(GameConfig(players=4, options={"first_player": seed % 4})))
        while GAME.outcome(state) is None:
            seat = rng.choice(sorted(GAME.to_act(state)))
            if seat == CHANCE:
                act = sample_chance(GAME, state, rng)
            elif seat == me:
                act = ai.choose(GAME.view(state, seat), seat, "strong", random.Random(seed), Budget(60))
            else:
                act = rng.choice(GAME.legal_actions(state, seat))
            state = GAME.apply(state, seat, act).state
        wins += me in GAME.outcome(state).winners
    assert wins >= 8


def test_bad_requests():
    state = next(s for s in states_along(GAME, CONFIGS[0], 1) if s.phase == PLAY and s.step == "swap")
    view = GAME.view(state, state.active)
    with pytest.raises(ValueError, match="seat"):
        ai.choose(view, 7, "easy", random.Random(0))
    with pytest.raises(ValueError, match="view of seat"):
        ai.choose(GAME.view(state, (state.active + 1) % 4), state.active, "easy", random.Random(0))

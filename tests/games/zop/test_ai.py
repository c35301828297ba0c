"""ZOP computer players: the playout model follows the rules, determinizations give back the view,
legal and reproducible decisions from the view alone, and a strength smoke test (not timed)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import Budget, NoComputerPlayer
from games.core import CHANCE, GameConfig, to_json
from games.playout import random_playout, sample_chance
from games.zop import GAME, ai
from games.zop.ai_model import from_state
from games.zop.rules_transition import takeable
from games.zop.state import COMMIT, CONFIRM, EXCHANGE, GIVE, ROUND_END, SENSED, TRACKED
from tests.kits.gamekit import states_along

TRACKED_CFG = GameConfig(players=2, options={"deck": TRACKED})
SENSED_CFG = GameConfig(players=2, options={"deck": SENSED})
SMALL = Budget(10)


class Scripted(random.Random):
    """A Random whose random() replays given values (to make the model draw what the game drew)."""

    def __init__(self, values: list[float]):
        super().__init__(0)
        self.values = values

    def random(self) -> float:
        return self.values.pop(0)


def _side_sig(side) -> tuple:
    return (tuple(side.hand), tuple(side.pile), tuple(side.discard), side.pending, side.points, side.played)


def _model_sig(state) -> tuple:
    model = from_state(GAME.deck, state, random.Random(0))
    for side, real in zip(model.sides, state.sides):
        side.shuffled = sorted(real.shuffled)
    return tuple((*_side_sig(s), tuple(s.shuffled)) for s in model.sides)


def test_model_turns_follow_the_rules():
    """From each complete commit, the model's reveal, exchanges, discards and draws give the
    state the game reaches at the next commit (draws and blind takes replayed from the game)."""
    turns = exchanges = 0
    for seed in range(50):
        played = random_playout(GAME, TRACKED_CFG, seed, policy=_no_withdraw)
        state = GAME.initial_state(played.config)
        moves = played.moves
        for i, (seat, act) in enumerate(moves):
            nxt = GAME.apply(state, seat, act).state
            if act["type"] == "commit" and (len(nxt.turns) != len(state.turns) or nxt.phase != COMMIT):
                start = state  # the last card is about to be laid: follow the model from here
                j, after = i, nxt
                while after.phase not in (COMMIT, ROUND_END) and j + 1 < len(moves):
                    j += 1
                    after = GAME.apply(after, *moves[j]).state
                if after.phase != COMMIT:
                    state = nxt
                    continue
                followed = moves[i + 1:j + 1]
                model = from_state(GAME.deck, start, random.Random(0))
                values, gifts = [], []
                draws: dict[int, list[str]] = {0: [], 1: []}
                probe = nxt
                for s, a in followed:
                    if a["type"] == "draw":
                        draws[a["seat"]].append(a["card"])
                    elif a["type"] == "blind_take":
                        options = list(takeable(GAME.deck, probe, probe.exchange))
                        values.append((options.index(a["card"]) + 0.5) / len(options))
                        exchanges += 1
                    elif a["type"] == "give":
                        gifts.append(a["card"])
                    probe = GAME.apply(probe, s, a).state
                for index, (side, real) in enumerate(zip(model.sides, start.sides)):
                    drawn = draws[index]
                    rest = sorted(c for c in real.shuffled if c not in drawn)
                    side.shuffled = rest + drawn[::-1]  # the model draws from the end
                model.lay(seat, act["card"])
                model.reveal(Scripted(values), lambda m, s, choices: gifts.pop(0))
                assert tuple((*_side_sig(s), tuple(sorted(s.shuffled))) for s in model.sides) == _model_sig(after)
                assert model.turn == after.turn
                turns += 1
            state = nxt
    assert turns > 500 and exchanges > 20


def _no_withdraw(game, state, seat, legal, rng):
    options = [a for a in legal if a["type"] not in ("withdraw", "review")] or legal
    return rng.choice(options)


def _decisions(state):
    for seat in sorted(GAME.to_act(state)):
        if seat == CHANCE:
            continue
        view = GAME.view(state, seat)
        if ai.needs_decision(view, seat):
            yield seat, view


def _safe(state, seat) -> bool:
    """Sensed mode: the view decides which card is free only while the opponent has not laid
    after a blind exchange (see ai._commit_candidates)."""
    if state.mode == TRACKED or state.phase != COMMIT:
        return True
    return not (state.sides[1 - seat].laid and any(s.received for s in state.sides))


@pytest.mark.parametrize("config", [TRACKED_CFG, SENSED_CFG], ids=["tracked", "sensed"])
@pytest.mark.parametrize("level", ai.LEVELS)
def test_only_legal_actions_at_every_decision_point(level, config):
    kinds = set()
    refused = 0
    for seed in range(3 if level == "strong" else 10):
        for state in states_along(GAME, config, seed):
            for seat, view in _decisions(state):
                try:
                    act = ai.choose(view, seat, level, random.Random(seed), SMALL)
                except ai.NoSafeCard:
                    assert not _safe(state, seat)  # only in physical play, after an exchange
                    refused += 1
                    continue
                assert GAME.check(state, seat, act) is None, (level, act)
                kinds.add(act["type"])
    assert "commit" in kinds
    assert refused == 0 or config is SENSED_CFG
    assert ({"give"} if config is TRACKED_CFG else {"exchange_done"}) <= kinds or level == "strong"


def test_round_end_and_exchange_answers():
    seen = set()
    for seed in range(30):
        for state in states_along(GAME, TRACKED_CFG if seed % 2 else SENSED_CFG, seed):
            if state.phase == ROUND_END:
                for seat in (0, 1):
                    view = GAME.view(state, seat)
                    assert not ai.needs_decision(view, seat)
                    assert ai.choose(view, seat, "strong", random.Random(0)) == {"type": "next_round"}
                seen.add(ROUND_END)
            if state.phase == EXCHANGE and state.exchange.stage in (GIVE, CONFIRM):
                taker = state.exchange.taker
                for level in ai.LEVELS:
                    act = ai.choose(GAME.view(state, taker), taker, level, random.Random(seed))
                    assert GAME.check(state, taker, act) is None
                assert not ai.needs_decision(GAME.view(state, 1 - taker), 1 - taker)
                seen.add(state.exchange.stage)
    assert seen == {ROUND_END, GIVE, CONFIRM}


def test_laid_seat_only_waits():
    for state in states_along(GAME, TRACKED_CFG, 1):
        for seat in (0, 1):
            if state.phase == COMMIT and state.sides[seat].laid and seat in GAME.to_act(state):
                view = GAME.view(state, seat)
                if len(state.sides[seat].laid) >= view.me.to_lay:
                    assert not ai.needs_decision(view, seat)
                    with pytest.raises(ValueError, match="no decision"):
                        ai.choose(view, seat, "strong", random.Random(0))
                    return
    raise AssertionError("no waiting seat found")


@st.composite
def positions(draw):
    config = draw(st.sampled_from([TRACKED_CFG, SENSED_CFG]))
    return states_along(GAME, config, draw(st.integers(0, 10**6)))


@settings(max_examples=25, deadline=None)
@given(states=positions(), pick=st.randoms(use_true_random=False))
def test_sampled_states_give_back_the_view_and_play_on(states, pick):
    """≥ 1,000 views: view(sample_state(view)) == view, and the sample is a playable state."""
    checked = 0
    for state in states[::4]:
        for seat in (0, 1):
            view = GAME.view(state, seat)
            sample = ai.sample_state(view, seat, random.Random(pick.random()))
            assert to_json(GAME.view(sample, seat)) == to_json(view)
            for who in GAME.to_act(sample):
                if who == CHANCE:
                    assert GAME.chance_outcomes(sample)
                else:
                    for act in GAME.legal_actions(sample, who)[:5]:
                        GAME.apply(sample, who, act)
            checked += 1
    assert checked >= 40


@settings(max_examples=25, deadline=None)
@given(states=positions(), pick=st.randoms(use_true_random=False))
def test_hidden_cards_never_change_the_decision(states, pick):
    """≥ 1,000 views over the run: the opponent's hidden cards (the game's hidden variants, and
    other deals of them) give the same view, hence the same action, legal in each of those states."""
    decisions = [(state, seat, view) for state in states for seat, view in _decisions(state) if _safe(state, seat)]
    views = 0
    for state, seat, view in decisions[:: max(1, len(decisions) // 10)]:
        seed = pick.randrange(10**6)
        act = ai.choose(view, seat, "strong", random.Random(seed), Budget(4))
        twins = list(GAME.hidden_variants(state, seat))[:2]
        twins += [ai.sample_state(view, seat, random.Random(seed + i)) for i in (1, 2, 3)]
        for twin in twins:
            twin_view = GAME.view(twin, seat)
            assert to_json(twin_view) == to_json(view)
            assert ai.choose(twin_view, seat, "strong", random.Random(seed), Budget(4)) == act
            assert GAME.check(twin, seat, act) is None
        views += 1 + len(twins)
    assert views >= 40


def test_same_view_and_seed_same_decision():
    state = next(s for s in states_along(GAME, TRACKED_CFG, 4)
                 if s.phase == COMMIT and not s.sides[0].laid and s.turn > 2)
    view = GAME.view(state, 0)
    first = ai.choose(view, 0, "strong", random.Random(3), Budget(120))
    assert all(ai.choose(view, 0, "strong", random.Random(3), Budget(120)) == first for _ in range(3))
    ranked = ai.rank(view, 0, "strong", random.Random(3), Budget(120))
    assert ranked[0].action == first and 108 <= sum(r.playouts for r in ranked) <= 120


def _match(seed: int, config: GameConfig, me: int, budget: Budget) -> bool:
    rng = random.Random(seed)
    state = GAME.initial_state(GAME.validate_config(config))
    while GAME.outcome(state) is None:
        seats = sorted(GAME.to_act(state), key=lambda s: s != me)  # the computer lays first
        seat = seats[0]
        if seat == CHANCE:
            act = sample_chance(GAME, state, rng)
        else:
            view = GAME.view(state, seat)
            if seat == me and ai.needs_decision(view, seat):
                act = ai.choose(view, seat, "strong", random.Random(rng.random()), budget)
            else:
                seat = next((s for s in seats if ai.needs_decision(GAME.view(state, s), s)), seats[-1])
                legal = [a for a in GAME.legal_actions(state, seat) if a["type"] not in ("withdraw", "review")]
                act = rng.choice(legal)
        state = GAME.apply(state, seat, act).state
    return GAME.outcome(state).winners == (me,)


def test_strong_beats_random_smoke():
    wins = sum(_match(seed, TRACKED_CFG, seed % 2, Budget(40)) for seed in range(10))
    assert wins >= 8


def test_bad_requests():
    state = next(s for s in states_along(GAME, TRACKED_CFG, 2) if s.phase == COMMIT)
    view = GAME.view(state, 0)
    with pytest.raises(NoComputerPlayer, match="unknown level"):
        ai.choose(view, 0, "expert", random.Random(0))
    with pytest.raises(ValueError, match="seat"):
        ai.choose(view, False, "easy", random.Random(0))
    with pytest.raises(ValueError, match="view of seat"):
        ai.choose(view, 1, "easy", random.Random(0))

"""The strong level's fast paths do what the general code does, number for number: a round played
out with uniformly random cards (`RoundModel.play_out`'s inlined loop) against the general fill and
reveal loop, and a deal of `Dealer` against `sample_state` then `from_state` (games.zop.ai's
determinization at a commit), each with the same seed and leaving the generator in the same state."""

from __future__ import annotations

import random

from games.core import GameConfig
from games.zop import GAME, ai
from games.zop.ai_model import RoundModel, UniformPicker, from_state
from games.zop.ai_sample import Dealer, knowledge, shuffler
from games.zop.state import COMMIT, SENSED, TRACKED
from tests.kits.gamekit import states_along

TRACKED_CFG = GameConfig(players=2, options={"deck": TRACKED})
SENSED_CFG = GameConfig(players=2, options={"deck": SENSED})
GIVE = ai._give_picker(GAME.deck)


def _sig(model: RoundModel) -> tuple:
    return (model.turn, model.tracked, tuple((tuple(s.hand), tuple(s.pile), tuple(s.shuffled), tuple(s.discard),
                                              tuple(s.laid), s.pending, s.points, s.played) for s in model.sides))


def _general(model: RoundModel, rng: random.Random) -> None:
    """RoundModel.play_out's loop through fill and reveal (a picker that is no UniformPicker)."""
    def pick(m: RoundModel, seat: int, choices: list[str]) -> str:
        return choices[int(rng.random() * len(choices))]
    model.play_out(rng, pick, GIVE)


def test_the_inlined_playout_is_the_general_loop(monkeypatch):
    rounds = 0
    exchanges: list[int] = []
    real = RoundModel.exchange

    def counted(model, taker, card, rng, give):
        exchanges.append(taker)
        real(model, taker, card, rng, give)

    monkeypatch.setattr(RoundModel, "exchange", counted)
    for config in (TRACKED_CFG, SENSED_CFG):
        for seed in range(6):
            for index, state in enumerate(states_along(GAME, config, seed)):
                if state.phase != COMMIT or index % 3:
                    continue
                base = from_state(GAME.deck, state, random.Random(seed))
                fast, slow = base.copy(), base.copy()
                r1, r2 = random.Random(index), random.Random(index)
                fast.play_out(r1, UniformPicker(r1), GIVE)
                _general(slow, r2)
                assert _sig(fast) == _sig(slow)
                assert r1.getstate() == r2.getstate()
                assert fast.over()
                rounds += 1
    assert rounds > 300 and len(exchanges) > 100


def test_a_deal_is_the_sampled_state_s_model():
    deals = laid = 0
    for seed in range(8):
        for state in states_along(GAME, TRACKED_CFG, seed)[::2]:
            for seat in (0, 1):
                view = GAME.view(state, seat)
                if state.phase != COMMIT or not ai.needs_decision(view, seat):
                    continue
                k = knowledge(GAME.deck, view, seat)
                dealer = Dealer(GAME.deck, view, seat, k)
                for draw in range(3):
                    r1, r2 = random.Random(draw), random.Random(draw)
                    assert _sig(dealer.deal(r1)) == _sig(ai._at_commit(view, seat, r2, k))
                    assert r1.getstate() == r2.getstate()
                    deals += 1
                laid += view.sides[1 - seat].laid_count > 0
    assert deals > 500 and laid > 20


def test_the_shuffle_is_random_s_own():
    for size in range(30):
        for seed in range(20):
            r1, r2 = random.Random(seed), random.Random(seed)
            mine, theirs = [str(i) for i in range(size)], [str(i) for i in range(size)]
            shuffler(r1)(mine)
            r2.shuffle(theirs)
            assert mine == theirs and r1.getstate() == r2.getstate()

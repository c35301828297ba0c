"""Spywhere identification odds: a probability per seat, zero where the view rules a nationality
out, the truth never ruled out, and the chosen identification is one the seat may place."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameConfig
from games.spywhere import GAME
from games.spywhere.ai_guess import best_guess, passport_odds
from games.spywhere.pieces import nat_of
from games.spywhere.state import PLAY, free_cards, open_targets, passports_per_seat
from tests.kits.gamekit import states_along

CONFIGS = [GameConfig(players=p) for p in (2, 3, 4, 5, 6)]


@settings(max_examples=40, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000), pick=st.integers(0, 10_000))
def test_odds_fit_the_view_and_never_rule_out_the_truth(config, seed, pick):
    states = [s for s in states_along(GAME, config, seed) if s.phase == PLAY]
    state = states[pick % len(states)]
    seat = pick % state.players
    odds = passport_odds(GAME.view(state, seat), seat)
    per = passports_per_seat(state)
    index = {n: i for i, n in enumerate(state.nationalities)}
    for s in range(state.players):
        assert abs(sum(odds[s]) - per) < 1e-9
        for p in state.passports[s]:
            assert odds[s][index[nat_of(p)]] > 0
        for c in state.clues[s]:
            assert odds[s][index[nat_of(c)]] == 0
    targets = {t: per - sum(1 for g, _ in state.guesses[seat] if g == t) for t in open_targets(state, seat)}
    free = [index[n] for n in free_cards(state, seat)]
    guess = best_guess(odds, targets, free)
    if targets and free:
        assert guess is not None and guess[0] in targets and guess[1] in free
        assert odds[guess[0]][guess[1]] == max(odds[t][n] for t in targets for n in free) or len(targets) > 1
    else:
        assert guess is None

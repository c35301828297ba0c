"""Spywhere identification odds: a probability per seat, zero where the view rules a nationality
out, the truth never ruled out, and the chosen identification is one the seat may place."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameConfig, to_json
from games.spywhere import GAME
from games.spywhere.ai_guess import best_guess, passport_odds, sensible_shares
from games.spywhere.pieces import nat_of
from games.spywhere.state import PLAY, free_cards, open_targets, passports_per_seat
from tests.kits.gamekit import states_along
from tests.kits.spywhere_kit import card, cards_of, make_state

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


def _odds_of(state, seat, nat):
    index = {n: i for i, n in enumerate(state.nationalities)}
    return [row[index[nat]] for row in passport_odds(GAME.view(state, seat), seat)]


def test_every_swap_and_left_triple_is_public_by_nationality_only():
    state = make_state()
    laid = state.hands[0][0]
    after = GAME.apply(state, 0, {"type": "swap", "slot": 2, "card": laid}).state
    for seat in (None, 0, 1, 2):
        view = GAME.view(after, seat)
        assert view.swaps == ((0, nat_of(laid), "italie"),)
        assert laid not in to_json(view)["swaps"][0]  # the nationality, never the card
    triple = make_state(centre=(*cards_of("allemagne", 1, 2, 3), card("italie", 10), card("france", 10)), step="take")
    left = GAME.apply(triple, 0, {"type": "leave"}).state
    assert GAME.view(left, 2).left == ((0, ("allemagne",)),)


def test_a_player_lifting_its_nationality_is_read_from_its_swaps():
    plain = make_state()
    assert _odds_of(plain, 0, "allemagne")[1] < 0.5
    # seat 1 (allemagne) lifted an allemagne card three times, laying another nationality
    read = make_state(swaps=((1, "italie", "allemagne"), (1, "espagne", "allemagne"), (1, "france", "allemagne")))
    assert _odds_of(read, 0, "allemagne")[1] > 0.8
    # seat 2 swapped at random: no nationality stands out
    noisy = make_state(swaps=((2, "italie", "allemagne"), (2, "france", "espagne"), (2, "allemagne", "italie")))
    assert max(_odds_of(noisy, 0, n)[2] for n in noisy.nationalities if n != "france") < 0.5


def test_a_left_triple_hints_at_the_player_who_left_it():
    plain = _odds_of(make_state(), 0, "angleterre")[2]
    hinted = _odds_of(make_state(left=((2, ("angleterre",)),)), 0, "angleterre")[2]
    assert hinted > 1.5 * plain


def _random_swappers():
    """Seats 1 and 2 swap at random: seat 1 lifted Spain twice, seat 2 Italy twice, by chance."""
    one = (("italie", "espagne"), ("allemagne", "france"), ("espagne", "italie"), ("angleterre", "espagne"),
           ("allemagne", "angleterre"), ("france", "italie"))
    two = (("angleterre", "italie"), ("espagne", "allemagne"), ("france", "espagne"), ("italie", "france"),
           ("angleterre", "allemagne"), ("allemagne", "italie"))
    return make_state(swaps=tuple(s for a, b in zip(one, two) for s in ((1, *a), (2, *b))))


def test_players_who_swap_at_random_are_not_read_by_their_chance_lifts():
    state = _random_swappers()
    for nat in ("allemagne", "angleterre", "espagne", "italie"):
        odds = _odds_of(state, 0, nat)
        assert 0.23 < odds[1] < 0.27 and 0.23 < odds[2] < 0.27, (nat, odds)


def test_a_random_player_leaving_a_triple_hints_at_its_nationality():
    # seat 2 swaps at random (its lifts vary), and left an English triple it could have taken
    swaps = ((2, "italie", "allemagne"), (2, "france", "espagne"), (2, "allemagne", "italie"),
             (1, "espagne", "italie"), (1, "angleterre", "france"), (1, "italie", "espagne"))
    plain = _odds_of(make_state(swaps=swaps), 0, "angleterre")[2]
    hinted = _odds_of(make_state(swaps=swaps, left=((2, ("angleterre",)),)), 0, "angleterre")[2]
    assert hinted > 1.5 * plain


def test_how_sensibly_each_player_plays_is_read_from_the_table():
    assert all(share < 0.2 for share in sensible_shares(GAME.view(_random_swappers(), 0), 0)[1:])
    # seat 1 (Germany) and seat 2 (England) lift their own nationality, laying another
    own = tuple(s for n in ("italie", "espagne", "france") for s in ((1, n, "allemagne"), (2, n, "angleterre")))
    sensible = make_state(swaps=own)
    assert all(share > 0.8 for share in sensible_shares(GAME.view(sensible, 0), 0)[1:])

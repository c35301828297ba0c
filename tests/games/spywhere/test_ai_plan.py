"""Spywhere's strong player: identifications during play only while the race to end the game is
open, and the last ones placed for the win rather than for the count right."""

from __future__ import annotations

import random

from games.spywhere import GAME, ai
from games.spywhere.ai_guess import best_guess
from games.spywhere.ai_model import S_FINAL, from_state
from games.spywhere.ai_plan import RACE_MIN, final_plan, race_chance
from games.spywhere.state import IDENTIFY
from tests.kits.spywhere_kit import cards_of, make_state

FOUR = ("france", "allemagne", "angleterre", "espagne")


def _identify_step(active: int, turn: int, guesses: tuple[tuple[tuple[int, str], ...], ...]):
    return make_state(players=4, nats=FOUR, step=IDENTIFY, active=active, turn=turn, guesses=guesses)


def test_the_first_player_races_to_end_the_game():
    state = _identify_step(0, 0, ((), (), (), ()))
    assert race_chance(from_state(state), 0, [1.0, 0.5, 0.5, 0.5]) > 0.3
    act = ai.choose(GAME.view(state, 0), 0, "strong", random.Random(1), ai.Budget(8))
    assert act["type"] == "identify" and GAME.check(state, 0, act) is None


def test_a_lost_race_keeps_the_identifications_for_the_end():
    # the fourth player's second turn, none placed yet: the others identified at every turn, the
    # first player needs one more at its very next turn
    guesses = (((1, "allemagne"), (2, "angleterre")), ((0, "italie"), (2, "france")),
               ((0, "espagne"), (1, "france")), ())
    state = _identify_step(3, 7, guesses)
    assert race_chance(from_state(state), 3, [0.5, 0.5, 0.5, 1.0]) < RACE_MIN
    act = ai.choose(GAME.view(state, 3), 3, "strong", random.Random(1), ai.Budget(8))
    assert act == {"type": "end_turn"}


def test_the_race_weighs_how_sensibly_the_others_play():
    # the second player's first turn, the first having identified once: a random player often ends
    # a turn without identifying (1 in 9, then 1 in 4), a sensible one hardly ever
    model = from_state(_identify_step(1, 1, (((1, "allemagne"),), (), (), ())))
    assert race_chance(model, 1, [0.0, 1.0, 0.0, 0.0]) > RACE_MIN > race_chance(model, 1, [0.9, 1.0, 0.9, 0.9])
    # the same turn, but nobody else has identified at any of their turns
    assert race_chance(from_state(_identify_step(3, 7, ((), (), (), ((0, "italie"),)))), 3, [0.0] * 4) > 0.5


def test_the_last_identifications_go_for_the_win():
    # three players; seat 0 (France) holds 2 France cards: it wins with both of its
    # identifications right (2 x 3 = 6 against seat 1's 5), loses with one (4)
    state = make_state(players=3, hands=(cards_of("france", 1, 2), (), ()))
    base = from_state(state)
    nats = {n: i for i, n in enumerate(state.nationalities)}
    a, b, c, d = nats["allemagne"], nats["angleterre"], nats["espagne"], nats["italie"]
    # (seat 1, seat 2) per sampled end: seat 1 is most often A and seat 2 most often B, yet A with
    # B is right together only once; A with C and D with B twice each
    deals = [(a, c), (a, c), (d, b), (d, b), (a, b)]
    ends = []
    for one, two in deals:
        m = base.copy()
        m.passports = ((nats["france"],), (one,), (two,))
        m.own = tuple(frozenset(p) for p in m.passports)
        m.hands[1] = [0] * m.k
        m.hands[1][one] = 2
        m.ender, m.step = 1, S_FINAL
        ends.append(m)
    odds = [[0.0] * base.k for _ in range(3)]
    for one, two in deals:
        odds[1][one] += 1 / len(deals)
        odds[2][two] += 1 / len(deals)
    targets, free = {1: 1, 2: 1}, [a, b, c, d]
    assert best_guess(odds, targets, free) in ((1, a), (2, b))  # the count right alone: A and B
    plan = final_plan(ends, 0, targets, free, odds)
    assert sorted(plan) in ([(1, a), (2, c)], [(1, d), (2, b)])

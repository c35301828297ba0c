"""bench/bench_spywhere.py: its seed ranges and bounds are checked; its model deal is a real deal (its
quick mode, every split reported, is checked by bench/run_quick.py in CI).

Not a timed test: no figure of the benchmark is checked.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path

import pytest

from games.registry import get_game

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_spywhere.py"


def _bench_module():
    spec = importlib.util.spec_from_file_location("bench_spywhere", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_spywhere", module)
    spec.loader.exec_module(module)
    return module


def test_seed_ranges_are_checked():
    parse = _bench_module()._range
    assert parse("0-599") == (0, 599) and parse("7") == (7, 7)
    for bad in ("a-b", "5-2", "-3", "1.5-2"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse(bad)


def test_jobs_model_and_range_sizes_are_bounded():
    bench = _bench_module()
    with pytest.raises(argparse.ArgumentTypeError, match="between 1 and 64"):
        bench.bounded(1, 64)("0")
    with pytest.raises(argparse.ArgumentTypeError, match="whole number"):
        bench.bounded(0, 10)("1.5")
    with pytest.raises(argparse.ArgumentTypeError, match="at most 100000 seeds"):
        bench._range("0-999999")
    assert bench.bounded(1, 64)("2") == 2


def test_model_deal_keeps_every_card_and_gives_distinct_passports():
    bench = _bench_module()
    for seed in range(50):
        first = seed % 4
        m = bench.deal(random.Random(seed), first)
        total = [m.pile[n] + m.centre[n] + sum(h[n] for h in m.hands) for n in range(m.k)]
        assert total == [bench.PER_NAT] * bench.NATS
        assert sum(m.centre) == bench.CENTRE
        assert [sum(h) for h in m.hands] == [bench.HAND + (s == first) for s in range(4)]  # the first has drawn
        assert len({p[0] for p in m.passports}) == 4 and m.active == first


def test_odds_are_distributions_over_the_other_nationalities():
    bench = _bench_module()
    m = bench.deal(random.Random(3), 0)
    m.clue_mask[1] = 1 << m.passports[2][0]  # seat 1 took a triple: not that nationality
    for odds_of in bench.ODDS.values():
        odds = odds_of(m, 0, [])
        for s in range(1, 4):
            assert abs(sum(odds[s]) - 1.0) < 1e-9 and odds[s][m.passports[0][0]] == 0.0
    assert bench.clue_odds(m, 0, [])[1][m.passports[2][0]] == 0.0


def test_exact_odds_weigh_a_left_triple_by_the_random_players_choices():
    bench = _bench_module()
    m = bench.deal(random.Random(3), 0)
    nat = m.passports[2][0]
    plain = bench.exact_odds(m, 0, [])
    assert plain == bench.clue_odds(m, 0, [])
    # seat 2 left a triple of its own nationality (3 cards: once in 2 if it were not its own),
    # then another of 4 cards (once in 5)
    once = bench.exact_odds(m, 0, [(2, nat, 3)])[2][nat]
    twice = bench.exact_odds(m, 0, [(2, nat, 3), (2, nat, 4)])[2][nat]
    # prior 1/4 among the four other nationalities: 1 against 3 x 1/2, then 1 against 3 x 1/10
    assert abs(plain[2][nat] - 0.25) < 1e-9
    assert abs(once - 1 / 2.5) < 1e-9 and abs(twice - 1 / 1.3) < 1e-9
    # what seat 2 left says nothing of seat 3's own triple but through the deal
    assert bench.exact_odds(m, 0, [(2, nat, 3)])[3][nat] < plain[3][nat]


def test_model_bounds_report_the_games_cut_short():
    bench = _bench_module()
    games = [bench.model_game((kind, seed)) for kind in bench.BOUNDS for seed in range(12)]
    assert all(0.0 <= g.credit <= 1.0 and (g.credit == 1.0) >= g.won for g in games)
    assert {g.place for g in games} == {0, 1, 2, 3}
    assert not any(g.cut for g in games if g.place == 0)  # the first player ends the game first or is not cut


def test_told_passports_hand_the_strong_player_the_true_deal_and_only_while_open():
    bench = _bench_module()
    from games.core import GameConfig
    from games.spywhere import ai
    from games.spywhere.pieces import nat_of
    from games.spywhere.state import PLAY
    from tests.kits.gamekit import states_along

    game = get_game("spywhere")
    state = next(s for s in states_along(game, GameConfig(players=4), 5) if s.phase == PLAY)
    index = {n: i for i, n in enumerate(state.nationalities)}
    truth = tuple(tuple(index[nat_of(p)] for p in held) for held in state.passports)
    view, deals = game.view, ai.passport_deals
    with bench.told_passports():
        assert ai.passport_deals(game.view(state, 0), 0) == [(1.0, truth)]
    assert game.view == view and ai.passport_deals is deals
    assert len(ai.passport_deals(game.view(state, 0), 0)) > 1  # read from the view again: several deals fit
    match = bench._told_match((1, "random"))
    mine = match.data["seats"][match.me]
    assert mine["guesses"] and mine["correct"] == len(mine["guesses"])

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
        odds = odds_of(m, 0)
        for s in range(1, 4):
            assert abs(sum(odds[s]) - 1.0) < 1e-9 and odds[s][m.passports[0][0]] == 0.0
    assert bench.clue_odds(m, 0)[1][m.passports[2][0]] == 0.0

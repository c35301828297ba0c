"""Sequential halving with common random numbers (games.ai.search.sequential_halving, paired)."""

from __future__ import annotations

import random

from games.ai import Budget
from games.ai.search import sequential_halving

EDGE = 0.02  # candidate 2 is better than the others by this, under noise 45 times as wide


def _pull(i: int, r: random.Random) -> float:
    """A reward whose luck (the deal) is drawn first from r, the candidate's worth added after."""
    return 0.9 * r.random() + (EDGE if i == 2 else 0.0)


def _found(paired: bool, seeds: range) -> int:
    return sum(sequential_halving(5, _pull, Budget(60).start(), random.Random(seed), paired=paired)[0] == 2
               for seed in seeds)


def test_paired_pulls_deal_each_candidate_of_a_sweep_the_same_luck() -> None:
    seen: list[tuple[int, float]] = []

    def pull(i: int, r: random.Random) -> float:
        seen.append((i, r.random()))
        return 0.5

    sequential_halving(4, pull, Budget(40).start(), random.Random(1), paired=True)
    sweeps = [seen[j:j + 4] for j in range(0, 16, 4)]  # the first round: every candidate, in turn
    assert all([i for i, _ in sweep] == [0, 1, 2, 3] and len({x for _, x in sweep}) == 1 for sweep in sweeps)
    assert len({sweep[0][1] for sweep in sweeps}) == len(sweeps)  # a new deal for each sweep


def test_paired_pulls_find_a_small_edge_that_unpaired_ones_miss() -> None:
    seeds = range(40)
    assert _found(True, seeds) == len(seeds)
    assert _found(False, seeds) < len(seeds) * 0.8


def test_paired_search_is_the_same_for_a_seed() -> None:
    runs = {sequential_halving(5, _pull, Budget(30).start(), random.Random(7), paired=True)[1][2].total
            for _ in range(3)}
    assert len(runs) == 1

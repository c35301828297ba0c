"""bench/bench_ai.py: its quick mode runs (CI) and prints every table; Wilson intervals are right.

Not a timed test: no figure of the benchmark is checked, only that it runs and reports.
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_ai.py"


def _bench_module():
    spec = importlib.util.spec_from_file_location("bench_ai", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_ai", module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_wilson_interval_known_values():
    wilson = _bench_module().wilson
    lo, hi = wilson(5, 10)
    assert abs(lo - 0.2366) < 1e-3 and abs(hi - 0.7634) < 1e-3
    assert wilson(0, 10)[0] == 0.0 and abs(wilson(0, 10)[1] - 0.2775) < 1e-3
    assert abs(wilson(10, 10)[0] - 0.7225) < 1e-3 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_quick_mode_runs_and_reports_every_game_and_level():
    done = subprocess.run([sys.executable, str(BENCH), "--quick"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for game in ("droles-de-zebres", "zop", "spywhere"):
        assert f"== {game} ==" in out
    for level in ("easy", "greedy", "strong"):
        for opponent in ("random", "greedy", "mc"):
            assert out.count(f"{level} vs {opponent}") == 3
    assert out.count("95% CI") == 27 and out.count("playouts:") == 6
    assert out.count("credited by seat:") == 18 and out.count("credited by place in the turn order:") == 9
    assert out.count("flat Monte-Carlo move p50") == 9
    assert "MISSED" not in out and "met" not in out  # quick figures carry no verdict


def test_a_shared_first_place_is_credited_one_share():
    """Sole win 1, first place shared by k players 1/k, anything else 0 (Spywhere ties happen)."""
    bench = _bench_module()
    kinds = set()
    for seed in range(60):
        if {(False, True), (True, False)} <= kinds:
            break
        m = bench.play_match("spywhere", "strong", "random", seed, 0.05)
        scores = [s["score"] for s in m.data["seats"]]
        tied = scores.count(max(scores))
        if scores[m.me] < max(scores):
            assert (m.won, m.shared, m.credit) == (False, False, 0.0)
        elif tied == 1:
            assert (m.won, m.shared, m.credit) == (True, False, 1.0)
        else:
            assert (m.won, m.shared) == (False, True) and m.credit == 1 / tied
        kinds.add((m.won, m.shared))
    assert (False, True) in kinds and (True, False) in kinds  # both cases were seen


def _zop_first_commit(bench, seed: int):
    """ZOP's game and its state once the first hands are dealt (the bench's configuration)."""
    from games.core import CHANCE
    from games.playout import sample_chance
    from games.registry import get_game

    game = get_game("zop")
    rng = random.Random(seed)
    state = game.initial_state(game.validate_config(bench.CONFIGS["zop"]))
    while CHANCE in game.to_act(state):
        state = game.apply(state, CHANCE, sample_chance(game, state, rng)).state
    return game, state


def test_flat_monte_carlo_plays_legal_actions_from_re_dealt_worlds_only(monkeypatch):
    """The yardstick plays from worlds re-dealt from its view, never from the true state."""
    bench = _bench_module()
    from games.ai import ai_module
    from games.core import to_json

    game, state = _zop_first_commit(bench, 3)
    seat = min(game.to_act(state))
    module = ai_module("zop")
    dealt, applied = [], []
    real_sample, real_apply = module.sample_state, game.apply

    def sample(view, who, r):
        dealt.append(real_sample(view, who, r))
        return dealt[-1]

    def apply(world, who, act):
        applied.append(world)
        return real_apply(world, who, act)

    monkeypatch.setattr(module, "sample_state", sample)
    monkeypatch.setattr(game, "apply", apply)
    act = bench.mc_player(6)(game, state, seat, random.Random(0))
    assert act in game.legal_actions(state, seat)
    assert len(dealt) >= 6 and all(w != state for w in dealt)  # re-dealt, not the truth
    assert all(to_json(game.view(w, seat)) == to_json(game.view(state, seat)) for w in dealt)
    assert applied and all(w is not state for w in applied)


def test_wilson_takes_a_sum_of_credits():
    wilson = _bench_module().wilson
    lo, hi = wilson(5.5, 10)
    assert wilson(5, 10)[0] < lo < wilson(6, 10)[0] and wilson(5, 10)[1] < hi < wilson(6, 10)[1]


def test_a_rate_below_its_target_is_missed_only_when_its_whole_interval_is():
    verdict = _bench_module().rate_verdict
    assert verdict(0.62, 0.60, 0.64, 0.60).startswith("met (whole CI)")
    assert verdict(0.606, 0.578, 0.633, 0.60).startswith("met (point")
    assert verdict(0.58, 0.482, 0.672, 0.60).startswith("not settled")
    assert verdict(0.50, 0.45, 0.55, 0.60).startswith("MISSED")


def test_a_search_opponent_plays_a_zop_match_and_exists_only_where_a_game_has_it(capsys):
    bench = _bench_module()
    assert bench.has_search("zop", "tree") and bench.has_search("zop", "flat")
    assert not bench.has_search("droles-de-zebres", "tree") and bench.has_search("droles-de-zebres", "mc")
    match = bench.play_match("zop", "strong", "tree", 1, 0.02)
    assert match.me == 1 and match.cpu_ms and match.opponent_ms
    bench.report("zop", "strong", "tree", [match], False)
    out = capsys.readouterr().out
    assert "strong vs tree" in out and "tree move p50" in out and "target" not in out


def test_a_search_opponent_decides_from_its_seat_s_view(monkeypatch):
    bench = _bench_module()
    from games.ai import Budget, ai_module

    game, state = _zop_first_commit(bench, 5)
    module = ai_module("zop")
    seen = []
    real = module.choose_with

    def search(view, seat, name, r, budget):
        seen.append((view, seat, name, budget))
        return real(view, seat, name, r, budget)

    monkeypatch.setattr(module, "choose_with", search)
    for name in ("flat", "tree"):
        act = bench.yardstick(name, "zop", None, 0.02)(game, state, 1, random.Random(0))
        assert act in game.legal_actions(state, 1)
    assert seen == [(game.view(state, 1), 1, "flat", Budget(25)), (game.view(state, 1), 1, "tree", Budget(19))]

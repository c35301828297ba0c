"""bench/bench_ai.py: Wilson intervals, credits and the flat Monte-Carlo yardstick are right (its
quick mode, every table printed, is checked by bench/run_quick.py in CI).

Not a timed test: no figure of the benchmark is checked.
"""

from __future__ import annotations

import importlib.util
import random
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


def test_ddz_matches_tell_margin_and_who_placed_the_guardian(capsys):
    """Each match keeps the computer's margin and whether it placed the guardian; the report
    splits by it and lists the matches not won."""
    bench = _bench_module()
    matches = [bench.play_match("droles-de-zebres", "strong", "greedy", seed, 0.02) for seed in range(4)]
    for m in matches:
        points = [sum(t["points"] for t in m.data["territories"] if t["leader"] == seat)
                  + (m.data["bonus"] if m.data["inauguration"] == seat else 0) for seat in (0, 1)]
        mine, theirs = points[m.me], points[1 - m.me]
        assert m.margin == mine - theirs and m.credit == (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    bench.report("droles-de-zebres", "strong", "greedy", matches, quick=True)
    out = capsys.readouterr().out
    placed = [m for m in matches if m.guardian]
    split = out.split("lays second): ")[1].split(";")[0]
    assert split == "-" if not placed else f"{sum(m.credit for m in placed):.1f}/{len(placed)} =" in split
    lost = [m for m in matches if m.credit < 1]
    assert ("not won" in out) == bool(lost)
    assert all(f"{m.seed}: {m.margin:+.0f}" in out for m in lost)


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

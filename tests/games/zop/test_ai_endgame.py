"""ZOP's exact endgame (games/zop/ai_endgame.py): matrix games with known equilibria, small
positions with known values, and the strong level's decisions there: legal, in the equilibrium's
support, the same for a seed and for every hidden variant of the opponent's cards."""

from __future__ import annotations

import random

import pytest

from games.ai import Budget
from games.core import GameConfig, to_json
from games.zop import GAME, ai
from games.zop.ai_endgame import Endgame, plays, solve_matrix
from games.zop.ai_sample import knowledge
from games.zop.state import TRACKED, Pending
from tests.kits.gamekit import states_along

TRACKED_CFG = GameConfig(players=2, options={"deck": TRACKED})
NONE = Pending()


def _close(a: list[float], b: list[float]) -> bool:
    return all(abs(x - y) < 1e-9 for x, y in zip(a, b, strict=True))


def test_a_dominant_row_is_played_for_sure():
    rows, cols, value = solve_matrix([[3.0, 4.0], [2.0, 1.0]])
    assert _close(rows, [1.0, 0.0]) and _close(cols, [1.0, 0.0]) and abs(value - 3.0) < 1e-9


def test_a_two_by_two_game_mixes_as_its_equilibrium_says():
    # row: 3 if both choose the first, 1 if both the second, 0 otherwise: x = (1/4, 3/4), value 3/4
    rows, cols, value = solve_matrix([[3.0, 0.0], [0.0, 1.0]])
    assert _close(rows, [0.25, 0.75]) and _close(cols, [0.25, 0.75]) and abs(value - 0.75) < 1e-9


def test_rock_paper_scissors_and_a_rectangular_game():
    rows, cols, value = solve_matrix([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    assert _close(rows, [1 / 3] * 3) and _close(cols, [1 / 3] * 3) and abs(value) < 1e-9
    # 2x3: the third column is dominated for the column player; x = (1/2, 1/2), value 2
    rows, cols, value = solve_matrix([[4.0, 0.0, 5.0], [0.0, 4.0, 6.0]])
    assert _close(rows, [0.5, 0.5]) and _close(cols, [0.5, 0.5, 0.0]) and abs(value - 2.0) < 1e-9


def _margin_game(seat: int = 0) -> Endgame:
    """Values are the deciding seat's final margin itself (a linear reward: easy to check by hand)."""
    return Endgame(GAME.deck, seat, lambda m: float(m), lambda c: 0.0)


def test_renforcement_first_dominates_in_a_two_card_end():
    # seat 0: Renforcement and attack 3; seat 1: defences 1 and 2. Renforcement first gives the
    # attack 5 next turn: 3 (then facing the defence 2) or 4; the attack first: 2 or 1.
    mine = ("zop/light/attack/3", "zop/light/special/2")
    theirs = ("zop/dark/defence/1", "zop/dark/defence/2")
    game = _margin_game()
    options = (plays(mine, 1), plays(theirs, 1))
    rows, cols, value = game.turn((mine, theirs), (NONE, NONE), 0, options)
    assert options[0] == [("zop/light/attack/3",), ("zop/light/special/2",)]
    assert _close(rows, [0.0, 1.0]) and _close(cols, [1.0, 0.0]) and abs(value - 3.0) < 1e-9
    assert game.value((mine, theirs), (NONE, NONE), 0) == pytest.approx(3.0)
    # the same position seen by seat 1: the value is minus seat 0's
    assert _margin_game(1).value((mine, theirs), (NONE, NONE), 0) == pytest.approx(-3.0)


def test_attacks_against_defences_mix_half_and_half():
    # seat 0: attacks 6 and 1; seat 1: defences 6 and 1. The 6 scores 5 only against the
    # defence 1: a game of matching pennies, value 2.5 (points kept from earlier turns added)
    mine = ("zop/light/attack/1", "zop/light/attack/6")
    theirs = ("zop/dark/defence/1", "zop/dark/defence/6")
    rows, _, value = _margin_game().turn((mine, theirs), (NONE, NONE), 4, (plays(mine, 1), plays(theirs, 1)))
    assert _close(rows, [0.5, 0.5]) and abs(value - 6.5) < 1e-9


def test_extra_cards_are_laid_in_every_order():
    # Reculer pour mieux sauter waiting: two cards at once, both orders offered
    mine = ("zop/light/attack/2", "zop/light/attack/5", "zop/light/defence/1")
    assert plays(mine, 2, ("zop/light/attack/5",)) == [("zop/light/attack/5", "zop/light/attack/2"),
                                                       ("zop/light/attack/5", "zop/light/defence/1")]
    assert len(plays(mine, 2)) == 6
    # seat 0 lays both attacks facing a lone defence 4: 1 + 2 or 0 + 5 (the second card faces nothing)
    theirs = ("zop/dark/defence/4",)
    value = _margin_game().value((mine[:2], theirs), (Pending(extra=1), NONE), 0)
    assert value == pytest.approx(5.0)


def _endgame_decisions(seeds: range) -> list[tuple[object, int, object]]:
    found = []
    for seed in seeds:
        for state in states_along(GAME, TRACKED_CFG, seed):
            for seat in (0, 1):
                view = GAME.view(state, seat)
                if ai.needs_decision(view, seat) and view.phase == "commit" \
                        and ai.in_endgame(view, seat, knowledge(GAME.deck, view, seat)):
                    found.append((state, seat, view))
    return found


def test_endgame_decisions_are_legal_reproducible_and_blind_to_hidden_cards():
    decisions = _endgame_decisions(range(4))
    assert len(decisions) >= 20
    mixed = 0
    for n, (state, seat, view) in enumerate(decisions):
        ranked = ai.rank(view, seat, "strong", random.Random(n), Budget(50))
        act = ranked[0].action
        assert GAME.check(state, seat, act) is None
        assert all(r.playouts == 0 for r in ranked)  # solved, not sampled
        assert ai.choose(view, seat, "strong", random.Random(n), Budget(50)) == act
        picks = {ai.choose(view, seat, "strong", random.Random(s), Budget(50))["card"] for s in range(8)}
        mixed += len(picks) > 1
        for twin in list(GAME.hidden_variants(state, seat))[:3]:
            twin_view = GAME.view(twin, seat)
            assert to_json(twin_view) == to_json(view)
            assert ai.choose(twin_view, seat, "strong", random.Random(n), Budget(50)) == act
            assert GAME.check(twin, seat, act) is None
    assert mixed >= 1  # some ends are mixed games: the seed chooses among the equilibrium's cards

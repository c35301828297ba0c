"""What games.ai (and the table's menus) read from every computer player module, checked once per game."""

from __future__ import annotations

import inspect

import pytest

from games.ai import AI_MODULES, Budget, ai_module, default_budget, has_ai, levels


@pytest.mark.parametrize("game_id", sorted(AI_MODULES))
def test_module_offers_the_common_api(game_id: str) -> None:
    ai = ai_module(game_id)
    assert has_ai(game_id)
    assert levels(game_id)[0] == "easy" and levels(game_id)[-1] == "strong"
    assert set(ai.DEFAULT_BUDGETS) == set(ai.LEVELS)
    for level in ai.LEVELS:
        assert isinstance(default_budget(game_id, level), Budget)
    for name in ("choose", "rank"):
        assert list(inspect.signature(getattr(ai, name)).parameters) == ["view", "seat", "level", "rng", "budget"]
    assert list(inspect.signature(ai.needs_decision).parameters) == ["view", "seat"]
    assert list(inspect.signature(ai.sample_state).parameters) == ["view", "seat", "rng"]


def test_a_game_without_a_computer_player_is_said() -> None:
    assert not has_ai("mata-hari")
    with pytest.raises(ValueError, match="no computer player for 'mata-hari'"):
        ai_module("mata-hari")

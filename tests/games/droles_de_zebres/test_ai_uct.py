"""Drôles de Zèbres' tree search (ai_uct): plain UCT without its heuristic, the minimax it backs up."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.ai import Budget
from games.ai.search import ismcts
from games.droles_de_zebres import ai, ai_model, ai_uct
from games.droles_de_zebres.ai_model import P_OVER, Model, ModelAction
from tests.kits.ddz_positions import endings

POSITIONS = [model for _, model in endings(24, range(6))]


class _Plain:
    """The model as games.ai.search's generic UCT reads it, random playouts to the end."""

    def to_act(self, state: Model) -> int:
        return state.turn

    def actions(self, state: Model) -> list[ModelAction]:
        return state.actions()

    def play(self, state: Model, action: ModelAction) -> None:
        state.play(state.turn, action)

    def terminal(self, state: Model) -> bool:
        return state.phase == P_OVER

    def rollout(self, state: Model, rng: random.Random) -> tuple[float, float]:
        ai_model.random_playout(state, rng)
        r0 = ai._reward0(state)
        return r0, 1.0 - r0


def _copies(model: Model) -> Callable[[random.Random], Model]:
    return lambda _rng: model.copy()


def test_without_the_heuristic_it_is_plain_uct() -> None:
    """Weight 0: the same moves, visits and means as the generic UCT on the same random numbers."""
    assert len(POSITIONS) == 6
    for i, model in enumerate(POSITIONS):
        plain = ismcts(_copies(model), _Plain(), Budget(120).start(), random.Random(i), ai.EXPLORATION)
        ours = ai_uct.search(model, Budget(120).start(), random.Random(i), ai.EXPLORATION, 0.0,
                             ai._reward0, ai._heuristic0)
        assert [(m.action, m.visits, round(m.mean, 12)) for m in ours] == \
            [(m.action, m.visits, round(m.mean, 12)) for m in plain]
        assert sum(m.visits for m in ours) == 120


def _check(node: ai_uct.Node, model: Model) -> int:
    """Every leaf holds its position's value, every inner node the minimax of its children's; the
    nodes read (visits add up along the way)."""
    if not node.children:
        expected = ai._reward0(model) if model.phase == P_OVER else ai._heuristic0(model)
        assert node.value == expected
        return 1
    mover = model.turn
    count = 1
    for act, child in node.children.items():
        assert child.seat == mover
        after = model.copy()
        after.play(mover, act)
        count += _check(child, after)
    values = [c.value for c in node.children.values()]
    assert node.value == (max(values) if mover == 0 else min(values))
    assert node.visits >= sum(c.visits for c in node.children.values())
    return count


def test_the_tree_holds_the_minimax_of_the_board_margin() -> None:
    deep = 0
    for i, model in enumerate(POSITIONS):
        root = ai_uct.grow(model, Budget(300).start(), random.Random(i), ai.EXPLORATION, ai.HEURISTIC_WEIGHT,
                           ai._reward0, ai._heuristic0)
        assert root.visits == 300
        deep += _check(root, model) > len(root.children) + 1  # some node below the root's children
    assert deep == len(POSITIONS)


def test_the_heuristic_steers_the_search() -> None:
    """The blend is read: with the heuristic's weight the root's visits are shared out otherwise."""
    changed = 0
    for i, model in enumerate(POSITIONS):
        runs = [ai_uct.search(model, Budget(200).start(), random.Random(i), ai.EXPLORATION, w, ai._reward0,
                              ai._heuristic0) for w in (0.0, ai.HEURISTIC_WEIGHT)]
        changed += [(m.action, m.visits) for m in runs[0]] != [(m.action, m.visits) for m in runs[1]]
    assert changed >= 4

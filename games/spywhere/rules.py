"""Who acts in Spywhere, what they may do, why anything else is refused, and what it does.

The set-up deals are in rules_setup.py, the turns in rules_turn.py; this module answers the
contract's questions for both.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.core import CHANCE, Action, Rejection, Step
from games.spywhere import rules_setup, rules_turn
from games.spywhere.state import BONUS, DRAW, FINAL, PLAY, REFILL, SETUP, SpyState
from games.spywhere.texts import REFUSALS


def to_act(state: SpyState) -> frozenset[int]:
    """Seats to act now (CHANCE for deals, draws and refills)."""
    if state.phase == SETUP and state.removal_pending:
        return frozenset({state.first})
    if state.phase == SETUP or (state.phase == PLAY and state.step in (DRAW, BONUS, REFILL)):
        return frozenset({CHANCE})
    if state.phase == PLAY:
        return frozenset({state.active})
    if state.phase == FINAL:
        return frozenset(s for s in range(state.players) if s not in state.finished)
    return frozenset()


def legal_actions(state: SpyState, seat: int) -> list[Action]:
    """Every action `seat` may take now (none for CHANCE: see chance_outcomes)."""
    if seat == CHANCE or seat not in to_act(state):
        return []
    return rules_turn.player_actions(state, seat)


def chance_outcomes(state: SpyState) -> list[tuple[Action, float]]:
    """Deals, draws and refills: each remaining card (and empty slot) equally likely."""
    if CHANCE not in to_act(state):
        return []
    acts = rules_setup.setup_outcomes(state) if state.phase == SETUP else rules_turn.play_outcomes(state)
    p = 1.0 / len(acts) if acts else 0.0
    return [(a, p) for a in acts]


def check(state: SpyState, seat: int, action: Action) -> Rejection | None:
    """None if legal, else a precise rejection (never naming a secret nationality)."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        return REFUSALS("bad_action")
    if seat not in to_act(state):
        return REFUSALS("not_your_turn")
    if seat == CHANCE:
        if state.phase == SETUP:
            return rules_setup.check_setup(state, action)
        return rules_turn.check_play_chance(state, action)
    return rules_turn.check_player(state, seat, action)


def transition(state: SpyState, seat: int, action: Action) -> Step[SpyState]:
    """Apply a checked action."""
    if state.phase == SETUP:
        return rules_setup.apply_setup(state, action)
    if seat == CHANCE:
        return rules_turn.apply_play_chance(state, action)
    return rules_turn.apply_player(state, seat, action)

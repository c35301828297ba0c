"""Who acts in Opération Zèbre, what they may do, why anything else is refused, and what it does.

The preparation (and the set-up draws) are in rules_prepare.py, the transmission (and the ÉCHEC
draws) in rules_transmit.py; this module answers the contract's questions for both phases.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

from games.core import CHANCE, Action, Rejection, Step, last_state
from games.operation_zebre import rules_prepare, rules_transmit
from games.operation_zebre.pieces import GameData
from games.operation_zebre.state import ECHEC, OVER, PREPARE, SETUP, TRANSMIT, OZState
from games.operation_zebre.texts import REFUSALS


@last_state  # asked again by every check of the state's actions: worked out once per state
def to_act(state: OZState) -> frozenset[int]:
    """Chance for draws; every preparing seat; the reader and/or the other team."""
    if state.phase == OVER:
        return frozenset()
    if state.phase in (SETUP, ECHEC):
        return frozenset({CHANCE})
    if state.phase == PREPARE:
        return rules_prepare.prepare_seats(state)
    return rules_transmit.transmit_seats(state)


def chance_outcomes(data: GameData, state: OZState) -> list[tuple[Action, float]]:
    """Variant cards at set-up, ÉCHEC cards after a wrong answer."""
    if state.phase == SETUP:
        return rules_prepare.setup_outcomes(data, state)
    if state.phase == ECHEC:
        return rules_transmit.echec_outcomes(state)
    return []


def candidates(data: GameData, state: OZState, seat: int) -> Iterator[Action]:
    """The actions of the phase worth checking for a seat (none for chance or a seat not to act)."""
    if seat == CHANCE or seat not in to_act(state):
        return iter(())
    if state.phase == PREPARE:
        return rules_prepare.prepare_candidates(data, state, seat)
    return rules_transmit.transmit_candidates(data, state, seat)


def legal_actions(data: GameData, state: OZState, seat: int) -> list[Action]:
    """Every action `check` accepts among the candidates of the phase."""
    return [a for a in candidates(data, state, seat) if check(data, state, seat, a) is None]


def check(data: GameData, state: OZState, seat: int, action: Action) -> Rejection | None:
    """None if legal, else a precise reason (stable code, short French/English message)."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        return REFUSALS("bad_action")
    if state.phase == OVER:
        return REFUSALS("game_over")
    if seat == CHANCE:
        if CHANCE not in to_act(state):
            return REFUSALS("not_your_turn")
        # compared as JSON: in Python True == 1, but {"card": true} is no card
        wanted = json.dumps(dict(action), sort_keys=True)
        if any(json.dumps(a, sort_keys=True) == wanted for a, _ in chance_outcomes(data, state)):
            return None
        return REFUSALS("bad_chance")
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        return REFUSALS("not_your_turn")
    kind = action["type"]
    fields = frozenset(action) - {"type"}
    if kind in rules_prepare.FIELDS:
        if fields != rules_prepare.FIELDS[kind]:
            return REFUSALS("bad_field")
        if state.phase != PREPARE:
            return REFUSALS("wrong_phase")
        return rules_prepare.check_prepare(data, state, seat, action)
    if kind in rules_transmit.FIELDS:
        if fields not in rules_transmit.FIELDS[kind]:
            return REFUSALS("bad_field")
        if state.phase != TRANSMIT:
            return REFUSALS("wrong_phase")
        return rules_transmit.check_transmit(data, state, seat, action)
    return REFUSALS("bad_action")


def transition(data: GameData, state: OZState, seat: int, action: Action) -> Step[OZState]:
    """Apply a checked action."""
    if seat == CHANCE:
        if state.phase == SETUP:
            return rules_prepare.apply_setup(data, state, action)
        return rules_transmit.apply_echec(data, state, action)
    if state.phase == PREPARE:
        return rules_prepare.apply_prepare(data, state, seat, action)
    return rules_transmit.apply_transmit(data, state, seat, action)
